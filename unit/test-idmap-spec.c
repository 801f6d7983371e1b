/* Mapping-spec parser: accepted forms and every rejection map_write()
 * (kernel/user_namespace.c) makes, each with its own message. */
#include "unit.h"
#include "world/idmap_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct vt_mapping m;
static char err[300];

struct bad_row {
	const char *spec;
	const char *must_say; /* a phrase the error line must contain */
};

static const struct bad_row bad[] = {
	{ "", "no extents" },
	{ "x:0:1000:1", "kind must be u, g or b" },
	{ "b:0:1000", "want KIND:FIRST:LOWER:COUNT" },
	{ "b:0:1000:1:5", "too many fields" },
	{ "b:0:1000:0", "COUNT must not be 0" },			/* map_write: count == 0 */
	{ "b:-1:1000:1", "FIRST is not a number" },
	{ "b:0:abc:1", "LOWER is not a number" },
	{ "b:0:1000:4294967296", "COUNT is not a number" },
	{ "b:4294967295:0:1", "FIRST+COUNT overflows" },		/* first + count <= first */
	{ "b:0:4294967290:10", "LOWER+COUNT overflows" },		/* lower + count <= lower */
	{ "b:0:1000:10,b:5:2000:10", "overlaps an earlier extent's range" }, /* mappings_overlap */
	{ "b:0:1000:10,b:100:1005:10", "overlaps an earlier extent's lower range" },
	{ "u:0:1000:10,u:9:3000:1", "uid range" },
	{ "b:0:1000:1,,b:", "want KIND:FIRST:LOWER:COUNT" },
};

int main(void)
{
	char buf[8192], name[200], spec[8192];
	uint32_t out;
	size_t i;
	int n = 0, plan = 14 + (int)(sizeof(bad) / sizeof(bad[0])) + 3;

	unit_begin(plan);
	unit_check(vt_mapping_parse("b:0:1000:1", &m, err, sizeof(err)) == 0 && m.uid.nr == 1 &&
			   m.gid.nr == 1 && m.uid.ext[0].lower == 1000,
		   "b: gives one uid and one gid extent");
	unit_check(vt_mapping_parse("u:0:1000:1", &m, err, sizeof(err)) == 0 && m.uid.nr == 1 &&
			   m.gid.nr == 0,
		   "u: gives a uid extent only");
	unit_check(vt_mapping_parse("g:5:6:7", &m, err, sizeof(err)) == 0 && m.gid.nr == 1 &&
			   m.uid.nr == 0 && m.gid.ext[0].count == 7,
		   "g: gives a gid extent only");
	unit_check(vt_mapping_parse(" u:0:1000:10, g:0:2000:10\tb:100:3000:5 ", &m, err,
				    sizeof(err)) == 0 && m.uid.nr == 2 && m.gid.nr == 2,
		   "commas and white space separate extents");
	unit_check(vt_mapping_parse("u:0:1000:10,g:0:1000:10", &m, err, sizeof(err)) == 0,
		   "same range in uid and gid maps is no overlap");
	unit_check(vt_mapping_parse("b:0:0:4294967295", &m, err, sizeof(err)) == 0,
		   "full range 0..4294967294 is accepted (map_write allows first+count = 2^32-1)");
	unit_check(vt_mapping_parse("b:1000:1001:1,b:1001:1000:1", &m, err, sizeof(err)) == 0,
		   "circular swap of two ids is valid");
	vt_mapping_parse("b:1000:1001:1,b:1001:1000:1", &m, err, sizeof(err));
	unit_check(vt_idmap_down(&m.uid, 1000, &out) && out == 1001, "down(1000) = 1001");
	unit_check(vt_idmap_up(&m.uid, 1001, &out) && out == 1000, "up(1001) = 1000");
	unit_check(!vt_idmap_down(&m.uid, 5, &out), "down of an unmapped id fails");
	vt_idmap_format(&m.uid, buf, sizeof(buf));
	unit_check(strcmp(buf, "1000 1001 1\n1001 1000 1\n") == 0, "uid_map text form");
	vt_mapping_format(&m, buf, sizeof(buf));
	unit_check(strcmp(buf, "u:1000:1001:1,u:1001:1000:1,g:1000:1001:1,g:1001:1000:1") == 0,
		   "spec round trip");

	/* VT_MAX_EXTENTS (340) extents accepted, 341 refused. */
	spec[0] = '\0';
	for (i = 0; i < 341; i++) {
		char one[64];
		snprintf(one, sizeof(one), "%su:%zu:%zu:1", i ? "," : "", i, 100000 + i);
		strcat(spec, one);
		if (i == 339)
			unit_check(vt_mapping_parse(spec, &m, err, sizeof(err)) == 0 && m.uid.nr == 340,
				   "340 extents (UID_GID_MAP_MAX_EXTENTS) accepted");
	}
	unit_check(vt_mapping_parse(spec, &m, err, sizeof(err)) < 0 &&
			   strstr(err, "more than 340") != NULL,
		   "341 extents refused");

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ok = vt_mapping_parse(bad[i].spec, &m, err, sizeof(err)) < 0 &&
			 strstr(err, bad[i].must_say) != NULL;
		snprintf(name, sizeof(name), "rejects '%s' saying '%s'", bad[i].spec, bad[i].must_say);
		if (!ok)
			printf("# got: %s\n", err);
		unit_check(ok, name);
	}
	unit_check(vt_mapping_parse(NULL, &m, err, sizeof(err)) < 0, "NULL spec rejected");
	unit_check(strchr(err, '\n') == NULL, "error is one line");
	unit_check(vt_mapping_parse("b:0:1000:1 garbage", &m, err, sizeof(err)) < 0,
		   "trailing garbage rejected");
	(void)n;
	return unit_end();
}
