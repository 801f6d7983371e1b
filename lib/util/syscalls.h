/* Raw wrappers for the mount API syscalls this suite needs.
 *
 * glibc 2.36 has some of these, but its <sys/mount.h> clashes with
 * <linux/mount.h>, and open_tree_attr() (6.15) and statmount() have no
 * wrapper at all. We therefore call syscall(2) directly, using libc's
 * SYS_* numbers when configure found them and the unified numbers from
 * include/uapi/asm-generic/unistd.h otherwise (new syscalls share one
 * number on every architecture since 5.1). */
#ifndef VT_SYSCALLS_H
#define VT_SYSCALLS_H

#include "config.h"
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#if HAVE_DECL_SYS_OPEN_TREE
#define VT_NR_open_tree SYS_open_tree
#else
#define VT_NR_open_tree 428
#endif
#if HAVE_DECL_SYS_MOVE_MOUNT
#define VT_NR_move_mount SYS_move_mount
#else
#define VT_NR_move_mount 429
#endif
#ifdef SYS_fsopen
#define VT_NR_fsopen SYS_fsopen
#define VT_NR_fsconfig SYS_fsconfig
#define VT_NR_fsmount SYS_fsmount
#else
#define VT_NR_fsopen 430
#define VT_NR_fsconfig 431
#define VT_NR_fsmount 432
#endif
#if HAVE_DECL_SYS_MOUNT_SETATTR
#define VT_NR_mount_setattr SYS_mount_setattr
#else
#define VT_NR_mount_setattr 442
#endif
#if HAVE_DECL_SYS_OPEN_TREE_ATTR
#define VT_NR_open_tree_attr SYS_open_tree_attr
#else
#define VT_NR_open_tree_attr 467
#endif
#if HAVE_DECL_SYS_STATMOUNT
#define VT_NR_statmount SYS_statmount
#else
#define VT_NR_statmount 457
#endif

/* include/uapi/linux/mount.h */
#define VT_OPEN_TREE_CLONE 1u
#define VT_MOVE_MOUNT_F_EMPTY_PATH 0x00000004u
#define VT_MOUNT_ATTR_RDONLY 0x00000001ull
#define VT_MOUNT_ATTR_NOSUID 0x00000002ull
#define VT_MOUNT_ATTR_NODEV 0x00000004ull
#define VT_MOUNT_ATTR_NOEXEC 0x00000008ull
#define VT_MOUNT_ATTR__ATIME 0x00000070ull
#define VT_MOUNT_ATTR_RELATIME 0x00000000ull
#define VT_MOUNT_ATTR_NOATIME 0x00000010ull
#define VT_MOUNT_ATTR_STRICTATIME 0x00000020ull
#define VT_MOUNT_ATTR_NODIRATIME 0x00000080ull
#define VT_MOUNT_ATTR_IDMAP 0x00100000ull
#define VT_MOUNT_ATTR_NOSYMFOLLOW 0x00200000ull
#define VT_MOUNT_ATTR_SIZE_VER0 32u
#define VT_FSOPEN_CLOEXEC 0x00000001u
#define VT_FSMOUNT_CLOEXEC 0x00000001u
#define VT_FSCONFIG_SET_FLAG 0u
#define VT_FSCONFIG_SET_STRING 1u
#define VT_FSCONFIG_CMD_CREATE 6u
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* struct mount_attr, include/uapi/linux/mount.h (MOUNT_ATTR_SIZE_VER0) */
struct vt_mount_attr {
	uint64_t attr_set;
	uint64_t attr_clr;
	uint64_t propagation;
	uint64_t userns_fd;
};

/* struct statmount, include/uapi/linux/mount.h as of 6.15 (512 bytes
 * followed by the string area; offsets from the uapi header). */
struct vt_statmount {
	uint32_t size;
	uint32_t mnt_opts;
	uint64_t mask;
	uint32_t sb_dev_major;
	uint32_t sb_dev_minor;
	uint64_t sb_magic;
	uint32_t sb_flags;
	uint32_t fs_type;
	uint64_t mnt_id;
	uint64_t mnt_parent_id;
	uint32_t mnt_id_old;
	uint32_t mnt_parent_id_old;
	uint64_t mnt_attr;
	uint64_t mnt_propagation;
	uint64_t mnt_peer_group;
	uint64_t mnt_master;
	uint64_t propagate_from;
	uint32_t mnt_root;
	uint32_t mnt_point;
	uint64_t mnt_ns_id;
	uint32_t fs_subtype;
	uint32_t sb_source;
	uint32_t opt_num;
	uint32_t opt_array;
	uint32_t opt_sec_num;
	uint32_t opt_sec_array;
	uint64_t supported_mask;	/* 6.15 */
	uint32_t mnt_uidmap_num;	/* 6.15 */
	uint32_t mnt_uidmap;
	uint32_t mnt_gidmap_num;
	uint32_t mnt_gidmap;
	uint64_t spare2[43];
	char str[];
};

/* struct mnt_id_req, MNT_ID_REQ_SIZE_VER0 (24 bytes). */
struct vt_mnt_id_req {
	uint32_t size;
	uint32_t spare;
	uint64_t mnt_id;
	uint64_t param;
};

#define VT_STATMOUNT_MNT_BASIC 0x00000002u
#define VT_STATMOUNT_SUPPORTED_MASK 0x00001000u /* 6.15 */
#define VT_STATMOUNT_MNT_UIDMAP 0x00002000u	/* 6.15 */
#define VT_STATMOUNT_MNT_GIDMAP 0x00004000u	/* 6.15 */
#define VT_STATX_MNT_ID_UNIQUE 0x00004000u	/* include/uapi/linux/stat.h, 6.8 */

static inline int vt_open_tree(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(VT_NR_open_tree, dfd, path, flags);
}

static inline int vt_move_mount(int from_dfd, const char *from_path, int to_dfd,
				const char *to_path, unsigned int flags)
{
	return (int)syscall(VT_NR_move_mount, from_dfd, from_path, to_dfd, to_path, flags);
}

static inline int vt_mount_setattr(int dfd, const char *path, unsigned int flags,
				   const void *attr, size_t size)
{
	return (int)syscall(VT_NR_mount_setattr, dfd, path, flags, attr, size);
}

static inline int vt_open_tree_attr(int dfd, const char *path, unsigned int flags,
				    const void *attr, size_t size)
{
	return (int)syscall(VT_NR_open_tree_attr, dfd, path, flags, attr, size);
}

static inline int vt_statmount(uint64_t mnt_id, uint64_t mask, struct vt_statmount *buf,
			       size_t bufsize, unsigned int flags)
{
	struct vt_mnt_id_req req = { .size = sizeof(req), .mnt_id = mnt_id, .param = mask };

	return (int)syscall(VT_NR_statmount, &req, buf, bufsize, flags);
}

static inline int vt_fsopen(const char *fstype, unsigned int flags)
{
	return (int)syscall(VT_NR_fsopen, fstype, flags);
}

static inline int vt_fsconfig(int fd, unsigned int cmd, const char *key, const void *value,
			      int aux)
{
	return (int)syscall(VT_NR_fsconfig, fd, cmd, key, value, aux);
}

static inline int vt_fsmount(int fd, unsigned int flags, unsigned int attr_flags)
{
	return (int)syscall(VT_NR_fsmount, fd, flags, attr_flags);
}

#endif
