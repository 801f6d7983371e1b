/* Object state on disk: written through the plain mount as the initial
 * root before a case, read back after it. */
#ifndef VT_MATRIX_FIXTURE_H
#define VT_MATRIX_FIXTURE_H

#include "model/world_model.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* Encodes ACL entries as a system.posix_acl_* value (version 2,
 * include/uapi/linux/posix_acl_xattr.h); ids as given. Returns the length. */
size_t vt_fx_acl_encode(const uint16_t *tag, const uint16_t *perm, const uint32_t *id, int n,
			void *buf, size_t len);

/* The exec-probe program copied into files with exec_probe set (the
 * driver sets it next to the test program). */
extern const char *vt_fx_probe_path;

/* The atime of a file with old_atime set (2001-09-09): more than a day
 * old, so a read under relatime updates it (relatime_need_update). */
#define VT_FX_OLD_ATIME 1000000000

/* DIR, under which fixtures are written, read and removed: paths below it
 * are walked from a descriptor of it (0 or -errno; up to four). Dropped
 * (closed) before DIR's filesystem is unmounted. */
int vt_fx_base_add(const char *dir);
void vt_fx_bases_drop(void);

/* lstat(2) of PATH, walked from its base */
int vt_fx_lstat(const char *path, struct stat *st);

/* Creates PATH as described by I (type from I->mode; owner, mode, ACLs,
 * file capabilities). Returns 0 or -errno, with the failing step in WHAT. */
int vt_fx_write(const char *path, const struct vt_minode *i, const char **what);

/* Reads PATH (lstat, raw ACLs, raw security.capability) into *I. */
void vt_fx_read(const char *path, struct vt_minode *i);

/* Removes PATH and everything below it. */
void vt_fx_remove(const char *path);

#endif
