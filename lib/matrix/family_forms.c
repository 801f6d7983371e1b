/* The matrix families' forms per owner source (family_forms.h). */
#include "matrix/family_forms.h"
#include "matrix/optowner_fixture.h"

#include <stdbool.h>

const struct vt_family *mx_family_form(const struct vt_family *f, enum vt_fs_owner_source src,
				       const char **why)
{
	*why = NULL;
	switch (src) {
	case VT_OWNER_INODE:
		return f;	/* the family's own make(): owners chowned into place */
	case VT_OWNER_MOUNT_OPTIONS:
		if (!vt_optowner_family_known(f->name, why))
			return NULL;	/* missing: *why stays NULL */
		return *why ? NULL : vt_optowner_family(f, why);
	case VT_OWNER_IMAGE:
		/* mx_world_setup refuses before any family: vt_fs_no_owner_worlds */
		*why = "a read-only image: every matrix family builds its fixture by writing "
		       "(mkdir, chown, chmod as root), which sb_rdonly refuses (EROFS); the image's "
		       "baked tree is checked by idmapped/005";
		return NULL;
	}
	return NULL;
}

int mx_family_forms(const struct vt_family *const *fams, int nfam, FILE *out)
{
	bool seen[VT_OWNER_IMAGE + 1] = { false };
	int missing = 0, i;
	size_t r;
	int s;

	for (r = 0; r < vt_fs_table_count; r++)
		seen[vt_fs_table[r].owner] = true;
	for (i = 0; i < nfam; i++)
		for (s = VT_OWNER_INODE; s <= VT_OWNER_IMAGE; s++) {
			const char *why;
			const struct vt_family *form;

			if (!seen[s])
				continue;
			form = mx_family_form(fams[i], (enum vt_fs_owner_source)s, &why);
			if (!form && !why)
				missing++;
			fprintf(out, "%s\t%s\t%s%s\n", fams[i]->name,
				vt_fs_owner_source_name((enum vt_fs_owner_source)s),
				form ? "form" : why ? "n/a: " : "MISSING", !form && why ? why : "");
		}
	return missing;
}
