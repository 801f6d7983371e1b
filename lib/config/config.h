/* local.config: the xfstests configuration format, parsed without a shell.
 *
 *   # comment
 *   FSTYP=xfs                     (optionally "export FSTYP=xfs")
 *   TEST_DEV=/dev/vdb
 *   MOUNT_OPTIONS="-o noatime"    ('…' or "…" quoting; no $, `, or $(…))
 *   [section]                     (later keys belong to this section)
 *
 * As in xfstests, a section starts from the values of the one before it
 * (keys before the first header are the defaults of all sections). A file
 * with no header has one section, "default". Keys of xfstests that we do
 * not use are skipped and listed in cfg->ignored (their values are not
 * read). Unknown keys, bad values, shell syntax we do not evaluate, and
 * duplicate sections are errors. */
#ifndef VT_CONFIG_H
#define VT_CONFIG_H

#include <stddef.h>

enum vt_config_key {
	VT_CFG_FSTYP,
	VT_CFG_TEST_DEV,
	VT_CFG_TEST_DIR,
	VT_CFG_SCRATCH_DEV,
	VT_CFG_SCRATCH_MNT,
	VT_CFG_MKFS_OPTIONS,
	VT_CFG_MOUNT_OPTIONS,
	VT_CFG_TEST_TIMEOUT,
	VT_CFG_RESULT_BASE,
	VT_CFG_TEST_DIR_MOUNTED,
	VT_CFG_NKEYS
};

#define VT_CFG_MAX_SECTIONS 64
#define VT_CFG_MAX_VALUE 1024

struct vt_config_section {
	char name[64];
	char value[VT_CFG_NKEYS][VT_CFG_MAX_VALUE];
	unsigned int set; /* bit i: key i has a value */
};

#define VT_CFG_MAX_IGNORED 64

struct vt_config {
	int nsections;
	struct vt_config_section sec[VT_CFG_MAX_SECTIONS];
	/* Keys xfstests knows and vfsidmap does not use (a real xfstests
	 * local.config has them): skipped, each named once with its first
	 * line, for the caller to print a notice. */
	int nignored;
	struct {
		char key[40];
		int line;
	} ignored[VT_CFG_MAX_IGNORED];
};

/* Whether KEY (LEN bytes) is one of xfstests' configuration variables that
 * vfsidmap has no use for (README, README.config-sections, common/config
 * of xfstests). */
int vt_config_xfstests_key(const char *key, size_t len);

const char *vt_config_key_name(enum vt_config_key k);

/* Parses TEXT (LEN bytes, need not be NUL-terminated). On error returns -1
 * and writes "line N: problem" into ERR. */
int vt_config_parse(const char *text, size_t len, struct vt_config *cfg, char *err,
		    size_t errlen);

/* The section called NAME, or NULL. */
const struct vt_config_section *vt_config_find(const struct vt_config *cfg, const char *name);

#endif
