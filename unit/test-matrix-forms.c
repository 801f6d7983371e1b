/* The check that every matrix family has a form for every owner source of
 * the filesystem table (lib/matrix/family_forms.h) can fail: a family
 * optowner_families.c does not know is reported MISSING for owners from
 * mount options and counted; a known one with a form, or with a declared
 * reason (protected), is not. The real families are checked by
 * unit/test-matrix-family-forms.sh through matrix/011 --family-forms. Pure. */
#include "matrix/family_forms.h"
#include "model/optowner_model.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

static void no_make(int row, int inner, struct vt_mcase *c)
{
	(void)row;
	(void)inner;
	(void)c;
}

static const struct vt_fblock one_case[] = { { 1, no_make, VT_FB_PLAIN } };

int main(void)
{
	static const struct vt_family unknown = { "nosuch", "matrix/999", 1, one_case, 1, 0 };
	static const struct vt_family create = { "create", "matrix/001", 1, one_case, 1, 0 };
	static const struct vt_family protected = { "protected", "matrix/012", 1, one_case, 1, 0 };
	const struct vt_family *const bad[] = { &create, &unknown };
	const struct vt_family *const good[] = { &create, &protected };
	const struct vt_family *form;
	const char *why;
	char buf[8192] = "";
	FILE *out = fmemopen(buf, sizeof(buf) - 1, "w");
	int missing;

	char rows[512] = "";
	size_t r;

	unit_begin(7);
	missing = out ? mx_family_forms(bad, 2, out) : -1;
	if (out)
		fclose(out);
	unit_check(missing == 1, "a family with no option-owner form is counted missing");
	unit_check(strstr(buf, "nosuch\tmount-options\tMISSING\n") != NULL,
		   "and named: nosuch<TAB>mount-options<TAB>MISSING");
	out = fmemopen(buf, sizeof(buf) - 1, "w");
	missing = out ? mx_family_forms(good, 2, out) : -1;
	if (out)
		fclose(out);
	unit_check(missing == 0 && strstr(buf, "protected\tmount-options\tn/a: ") &&
			   strstr(buf, "create\tmount-options\tform\n") &&
			   strstr(buf, "create\tinode\tform\n"),
		   "a form or a declared reason is not missing");
	form = mx_family_form(&unknown, VT_OWNER_MOUNT_OPTIONS, &why);
	unit_check(!form && !why, "mx_family_form: no form and no reason for an unknown family");
	form = mx_family_form(&create, VT_OWNER_MOUNT_OPTIONS, &why);
	unit_check(form && form != &create && strcmp(form->name, "create") == 0,
		   "create's option-owner form is its own family of worlds, same name");
	form = mx_family_form(&create, VT_OWNER_IMAGE, &why);
	unit_check(!form && why && *why, "read-only images: declared not applicable, with the reason");
	/* a table row whose worlds the suite builds from mount options has
	 * operations in the model (optowner_rules.c) */
	for (r = 0; r < vt_fs_table_count; r++)
		if (vt_fs_table[r].owner == VT_OWNER_MOUNT_OPTIONS && vt_fs_table[r].option_worlds &&
		    !vt_optowner_fs(vt_fs_table[r].name))
			snprintf(rows + strlen(rows), sizeof(rows) - strlen(rows), " %s",
				 vt_fs_table[r].name);
	unit_check(!rows[0], "every mount-options row with option_worlds has model operations");
	if (rows[0])
		printf("# without operations:%s\n", rows);
	return unit_end();
}
