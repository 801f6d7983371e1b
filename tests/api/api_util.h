/* Small helpers shared by the tests/api programs: detached clones, one
 * mount_setattr() call with a given struct, the errno of a call. Each is a
 * thin wrapper so a test line reads as the syscall it makes. */
#ifndef VT_API_UTIL_H
#define VT_API_UTIL_H

#include "util/syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Detached clone of PATH (open_tree(OPEN_TREE_CLONE)): a mount in an
 * anonymous mount namespace, the state mount_setattr(IDMAP) requires. */
static inline int api_clone(const char *path, int recursive)
{
	return vt_open_tree(AT_FDCWD, path,
			    VT_OPEN_TREE_CLONE | O_CLOEXEC | (recursive ? AT_RECURSIVE : 0));
}

/* Detached clone of the mount FD refers to. FD must be an attached mount
 * in the caller's namespace on any kernel before 6.18 (__do_loopback:
 * !check_mnt(old) -> EINVAL): attach an fsmount() fd with api_attach()
 * first and clone the path instead. */
static inline int api_clone_at(int fd)
{
	return vt_open_tree(fd, "", VT_OPEN_TREE_CLONE | O_CLOEXEC | AT_EMPTY_PATH);
}

/* 0 or the errno of mount_setattr(FD, "", AT_EMPTY_PATH|EXTRA, ATTR, SIZE). */
static inline int api_setattr_fd(int fd, unsigned int extra, const void *attr, size_t size)
{
	return vt_mount_setattr(fd, "", AT_EMPTY_PATH | extra, attr, size) < 0 ? errno : 0;
}

/* 0 or the errno of a mount_setattr() setting SET and clearing CLR. */
static inline int api_set_clr(int fd, uint64_t set, uint64_t clr)
{
	struct vt_mount_attr a = { .attr_set = set, .attr_clr = clr };
	return api_setattr_fd(fd, 0, &a, sizeof(a));
}

/* 0 or the errno of mount_setattr(MOUNT_ATTR_IDMAP, USERNS_FD). */
static inline int api_idmap_fd(int fd, uint64_t userns_fd, unsigned int extra)
{
	struct vt_mount_attr a = { .attr_set = VT_MOUNT_ATTR_IDMAP, .userns_fd = userns_fd };
	return api_setattr_fd(fd, extra, &a, sizeof(a));
}

/* statvfs f_flag of the mount FD refers to, or (unsigned long)-1. */
static inline unsigned long api_mnt_flags(int fd)
{
	struct statvfs sv;
	return fstatvfs(fd, &sv) < 0 ? (unsigned long)-1 : sv.f_flag;
}

/* Attaches the detached tree FD at TARGET; 0 or errno. */
static inline int api_attach(int fd, const char *target)
{
	return vt_move_mount(fd, "", AT_FDCWD, target, VT_MOVE_MOUNT_F_EMPTY_PATH) < 0 ? errno
										       : 0;
}

#endif
