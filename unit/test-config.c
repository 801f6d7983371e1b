/* local.config parser: sections, carry-over, quoting and each error. */
#include "unit.h"
#include "config/config.h"

#include <stdio.h>
#include <string.h>

static struct vt_config cfg;
static char err[600];

static int parse(const char *text)
{
	return vt_config_parse(text, strlen(text), &cfg, err, sizeof(err));
}

static const char *val(const char *sec, enum vt_config_key k)
{
	const struct vt_config_section *s = vt_config_find(&cfg, sec);
	return s && (s->set & (1u << k)) ? s->value[k] : NULL;
}

struct bad_row {
	const char *text;
	const char *must_say;
};

static const struct bad_row bad[] = {
	{ "FSTYP=zfs\n", "FSTYP must be one of" },
	{ "FOO=1\n", "unknown key 'FOO'" },
	{ "TEST_DEV=dev/sdb\n", "absolute path" },
	{ "TEST_DIR=/\n", "must not be /" },
	{ "TEST_TIMEOUT=0\n", "whole number of seconds" },
	{ "TEST_TIMEOUT=abc\n", "whole number of seconds" },
	{ "TEST_DEV=$(rm -rf /)\n", "not evaluated" },
	{ "MKFS_OPTIONS=\"-b $SIZE\"\n", "not evaluated" },
	{ "MKFS_OPTIONS=-b 4096\n", "unquoted white space" },
	{ "MKFS_OPTIONS='-b 4096\n", "unterminated ' quote" },
	{ "[a]\n[a]\n", "given twice" },
	{ "[a b]\n", "bad section header" },
	{ "[check.time]\n", "bad section header" },
	{ "[porting-ext4.md]\n", "bad section header" },
	{ "[porting-x]\n", "bad section header" },
	{ "[conformance.md]\n", "bad section header" },
	{ "[conformance.html]\n", "bad section header" },
	{ "just words\n", "want KEY=VALUE" },
	{ "FSTYP=ext4\n\nFOO=bar\n", "line 3:" },
};

int main(void)
{
	char name[200];
	size_t i;

	unit_begin(14 + (int)(sizeof(bad) / sizeof(bad[0])));
	unit_check(parse("# c\nFSTYP=xfs\nexport TEST_DEV=/dev/vdb\n") == 0 && cfg.nsections == 1 &&
			   strcmp(val("default", VT_CFG_FSTYP), "xfs") == 0 &&
			   strcmp(val("default", VT_CFG_TEST_DEV), "/dev/vdb") == 0,
		   "no sections: one section 'default'; export prefix accepted");
	unit_check(parse("MKFS_OPTIONS=\"-m crc=1\"\nMOUNT_OPTIONS='-o noatime'\n") == 0 &&
			   strcmp(val("default", VT_CFG_MKFS_OPTIONS), "-m crc=1") == 0 &&
			   strcmp(val("default", VT_CFG_MOUNT_OPTIONS), "-o noatime") == 0,
		   "double and single quotes");
	unit_check(parse("TEST_DIR=/mnt/test\n[ext4]\nFSTYP=ext4\n[xfs]\nFSTYP=xfs\n"
			 "TEST_DEV=/dev/vdc\n[again]\n") == 0 &&
			   cfg.nsections == 3,
		   "three sections");
	unit_check(val("ext4", VT_CFG_TEST_DIR) && strcmp(val("ext4", VT_CFG_TEST_DIR), "/mnt/test") == 0,
		   "keys before the first section are defaults");
	unit_check(strcmp(val("xfs", VT_CFG_FSTYP), "xfs") == 0, "section overrides");
	unit_check(strcmp(val("again", VT_CFG_FSTYP), "xfs") == 0 &&
			   strcmp(val("again", VT_CFG_TEST_DEV), "/dev/vdc") == 0,
		   "values carry over from the previous section (xfstests)");
	unit_check(val("ext4", VT_CFG_TEST_DEV) == NULL, "no carry-back to earlier sections");
	unit_check(vt_config_find(&cfg, "nope") == NULL, "unknown section not found");
	unit_check(parse("") == 0 && cfg.nsections == 1, "empty file is valid");
	/* xfstests' README names these keys; their values are not read */
	unit_check(parse("export TEST_FS_MOUNT_OPTS=\"-o logbsize=$X\"\nFSTYP=xfs\nKEEP_DMESG=yes\n"
			 "[s]\nKEEP_DMESG=no\n") == 0 &&
			   cfg.nignored == 2 && strcmp(cfg.ignored[0].key, "TEST_FS_MOUNT_OPTS") == 0 &&
			   cfg.ignored[0].line == 1 && strcmp(cfg.ignored[1].key, "KEEP_DMESG") == 0 &&
			   cfg.ignored[1].line == 3 && strcmp(val("s", VT_CFG_FSTYP), "xfs") == 0,
		   "xfstests keys we do not use: skipped, each listed once with its first line");
	unit_check(parse("RESULT_BASE=/var/tmp/r\n") == 0 &&
			   strcmp(val("default", VT_CFG_RESULT_BASE), "/var/tmp/r") == 0,
		   "RESULT_BASE is read");
	unit_check(parse("FSTYP=ext4") == 0 && strcmp(val("default", VT_CFG_FSTYP), "ext4") == 0,
		   "last line without newline");
	unit_check(vt_config_parse("FSTYP=ext4\0x\n", 12, &cfg, err, sizeof(err)) < 0 &&
			   strstr(err, "NUL") != NULL,
		   "NUL byte rejected");
	/* the unknown-key message names every key the parser accepts */
	{
		int k, all = parse("NOT_A_KEY=1\n") < 0;

		for (k = 0; k < VT_CFG_NKEYS; k++) {
			char key[64], *at;

			snprintf(key, sizeof(key), "%s", vt_config_key_name((enum vt_config_key)k));
			at = strstr(err, key);
			/* a whole word: TEST_DIR must not match inside TEST_DIR_MOUNTED */
			while (at && ((at[strlen(key)] != ' ' && at[strlen(key)] != ')') ||
				      (at > err && at[-1] != ' ')))
				at = strstr(at + 1, key);
			if (!at) {
				printf("# '%s' missing from: %s\n", key, err);
				all = 0;
			}
		}
		unit_check(all, "the unknown-key message lists every accepted key");
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ok = parse(bad[i].text) < 0 && strstr(err, bad[i].must_say) != NULL;
		snprintf(name, sizeof(name), "rejects bad input %zu saying '%s'", i, bad[i].must_say);
		if (!ok)
			printf("# got: %s\n", err);
		unit_check(ok, name);
	}
	return unit_end();
}
