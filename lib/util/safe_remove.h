/* Removing a test's tree without ever leaving it: no symlink is followed
 * and no mount point is crossed (openat2 with RESOLVE_BENEATH,
 * RESOLVE_NO_XDEV and RESOLVE_NO_SYMLINKS, Linux 5.6+; on older kernels
 * O_NOFOLLOW plus an st_dev check). A mount found below is left alone. */
#ifndef VT_SAFE_REMOVE_H
#define VT_SAFE_REMOVE_H

/* Removes PATH and everything below it. Returns 0, or -errno of the first
 * entry that could not be removed (removal goes on regardless). */
int vt_safe_remove_tree(const char *path);

#endif
