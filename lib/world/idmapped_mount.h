/* Idmapped mounts: open_tree(OPEN_TREE_CLONE) + mount_setattr(MOUNT_ATTR_IDMAP)
 * [+ move_mount]. */
#ifndef VT_IDMAPPED_MOUNT_H
#define VT_IDMAPPED_MOUNT_H

#include <stdbool.h>

/* Detached clone of SOURCE (recursive if RECURSIVE) idmapped with the user
 * namespace USERNS_FD. Returns the O_CLOEXEC tree fd, or -errno of the
 * failing step (open_tree or mount_setattr). */
int vt_idmapped_tree(const char *source, int userns_fd, bool recursive);

/* Clone of SOURCE idmapped with USERNS_FD, attached at TARGET (which must
 * exist). Returns 0 or -errno. */
int vt_idmapped_mount(const char *source, const char *target, int userns_fd, bool recursive);

/* Same, with the user namespace built from a mapping spec. */
int vt_idmapped_mount_spec(const char *source, const char *target, const char *spec,
			   bool recursive);

/* Can the filesystem holding PATH be idmapped here? Tries it: a detached
 * clone, a probe namespace mapping 0:10000:1 (never the fs's own), and
 * mount_setattr(). Returns 0 if yes, else -errno from mount_setattr
 * (EINVAL: the filesystem lacks FS_ALLOW_IDMAP; ENOSYS: no mount API).
 * Never decided by kernel version. */
int vt_probe_idmap_support(const char *path);

#endif
