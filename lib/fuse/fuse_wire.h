/* The kernel's FUSE protocol as the reference server speaks it: version
 * 7.41, the one Linux 6.12 sends in INIT (FUSE_KERNEL_MINOR_VERSION of its
 * include/uapi/linux/fuse.h). The C library's <linux/fuse.h> may be older
 * (Debian's 6.1 headers stop at 7.38, before FUSE_ALLOW_IDMAP), so the
 * layouts the server reads and writes are declared here, each with its
 * size checked against the 6.12 header's struct. Only what the server
 * uses is here. */
#ifndef VT_FUSE_WIRE_H
#define VT_FUSE_WIRE_H

#include <stdint.h>

#define VT_FUSE_MAJOR 7
#define VT_FUSE_MINOR 41
#define VT_FUSE_ROOT_ID 1
/* header uid/gid of a request sent without an id (fuse_get_req with
 * invalid_mnt_idmap; fuse_force_creds) */
#define VT_FUSE_INVALID_UIDGID ((uint32_t)-1)
/* the smallest read buffer the kernel accepts (fuse_dev_do_read) */
#define VT_FUSE_MIN_READ_BUFFER 8192

enum vt_fuse_opcode {
	VT_FUSE_LOOKUP = 1, VT_FUSE_FORGET = 2, VT_FUSE_GETATTR = 3, VT_FUSE_SETATTR = 4,
	VT_FUSE_READLINK = 5, VT_FUSE_SYMLINK = 6, VT_FUSE_MKNOD = 8, VT_FUSE_MKDIR = 9,
	VT_FUSE_UNLINK = 10, VT_FUSE_RMDIR = 11, VT_FUSE_RENAME = 12, VT_FUSE_LINK = 13,
	VT_FUSE_OPEN = 14, VT_FUSE_READ = 15, VT_FUSE_WRITE = 16, VT_FUSE_STATFS = 17,
	VT_FUSE_RELEASE = 18, VT_FUSE_FSYNC = 20, VT_FUSE_SETXATTR = 21, VT_FUSE_GETXATTR = 22,
	VT_FUSE_LISTXATTR = 23, VT_FUSE_REMOVEXATTR = 24, VT_FUSE_FLUSH = 25, VT_FUSE_INIT = 26,
	VT_FUSE_OPENDIR = 27, VT_FUSE_READDIR = 28, VT_FUSE_RELEASEDIR = 29,
	VT_FUSE_FSYNCDIR = 30, VT_FUSE_GETLK = 31, VT_FUSE_SETLK = 32, VT_FUSE_SETLKW = 33,
	VT_FUSE_ACCESS = 34, VT_FUSE_CREATE = 35, VT_FUSE_INTERRUPT = 36, VT_FUSE_BMAP = 37,
	VT_FUSE_DESTROY = 38, VT_FUSE_IOCTL = 39, VT_FUSE_POLL = 40, VT_FUSE_NOTIFY_REPLY = 41,
	VT_FUSE_BATCH_FORGET = 42, VT_FUSE_FALLOCATE = 43, VT_FUSE_READDIRPLUS = 44,
	VT_FUSE_RENAME2 = 45, VT_FUSE_LSEEK = 46, VT_FUSE_COPY_FILE_RANGE = 47,
	VT_FUSE_SETUPMAPPING = 48, VT_FUSE_REMOVEMAPPING = 49, VT_FUSE_SYNCFS = 50,
	VT_FUSE_TMPFILE = 51, VT_FUSE_STATX = 52,
};

/* INIT flags: bits 0..31 in flags, 32..63 in flags2 (read only when
 * FUSE_INIT_EXT is set: process_init_reply, fs/fuse/inode.c) */
#define VT_FUSE_ASYNC_READ (1ULL << 0)
#define VT_FUSE_ATOMIC_O_TRUNC (1ULL << 3)
#define VT_FUSE_BIG_WRITES (1ULL << 5)
#define VT_FUSE_DONT_MASK (1ULL << 6)
#define VT_FUSE_POSIX_ACL (1ULL << 20)
#define VT_FUSE_MAX_PAGES (1ULL << 22)
#define VT_FUSE_SETXATTR_EXT (1ULL << 29)
#define VT_FUSE_INIT_EXT (1ULL << 30)
#define VT_FUSE_CREATE_SUPP_GROUP (1ULL << 34)
#define VT_FUSE_ALLOW_IDMAP (1ULL << 40)

/* SETATTR valid bits */
#define VT_FATTR_MODE (1U << 0)
#define VT_FATTR_UID (1U << 1)
#define VT_FATTR_GID (1U << 2)
#define VT_FATTR_SIZE (1U << 3)
#define VT_FATTR_ATIME (1U << 4)
#define VT_FATTR_MTIME (1U << 5)
#define VT_FATTR_FH (1U << 6)
#define VT_FATTR_ATIME_NOW (1U << 7)
#define VT_FATTR_MTIME_NOW (1U << 8)
#define VT_FATTR_CTIME (1U << 10)

#define VT_FUSE_GETATTR_FH (1U << 0)
#define VT_FUSE_FSYNC_FDATASYNC (1U << 0)
#define VT_FUSE_SETXATTR_ACL_KILL_SGID (1U << 0)
/* fuse_ext_header.type of the supplementary-group extension */
#define VT_FUSE_EXT_GROUPS 32

struct vt_fuse_in_header {
	uint32_t len, opcode;
	uint64_t unique, nodeid;
	uint32_t uid, gid, pid;
	uint16_t total_extlen;	/* extensions after the arguments, in 8-byte units */
	uint16_t padding;
};

struct vt_fuse_out_header {
	uint32_t len;
	int32_t error;		/* 0 or -errno */
	uint64_t unique;
};

struct vt_fuse_init_in {
	uint32_t major, minor, max_readahead, flags, flags2;
	uint32_t unused[11];
};

struct vt_fuse_init_out {
	uint32_t major, minor, max_readahead, flags;
	uint16_t max_background, congestion_threshold;
	uint32_t max_write, time_gran;
	uint16_t max_pages, map_alignment;
	uint32_t flags2, max_stack_depth;
	uint32_t unused[6];
};

struct vt_fuse_attr {
	uint64_t ino, size, blocks, atime, mtime, ctime;
	uint32_t atimensec, mtimensec, ctimensec;
	uint32_t mode, nlink, uid, gid, rdev, blksize, flags;
};

struct vt_fuse_entry_out {
	uint64_t nodeid, generation, entry_valid, attr_valid;
	uint32_t entry_valid_nsec, attr_valid_nsec;
	struct vt_fuse_attr attr;
};

struct vt_fuse_attr_out {
	uint64_t attr_valid;
	uint32_t attr_valid_nsec, dummy;
	struct vt_fuse_attr attr;
};

struct vt_fuse_getattr_in {
	uint32_t getattr_flags, dummy;
	uint64_t fh;
};

struct vt_fuse_sx_time {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t reserved;
};

struct vt_fuse_statx {
	uint32_t mask, blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, spare0;
	uint64_t ino, size, blocks, attributes_mask;
	struct vt_fuse_sx_time atime, btime, ctime, mtime;
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t spare2[14];
};

struct vt_fuse_statx_in {
	uint32_t getattr_flags, reserved;
	uint64_t fh;
	uint32_t sx_flags, sx_mask;
};

struct vt_fuse_statx_out {
	uint64_t attr_valid;
	uint32_t attr_valid_nsec, flags;
	uint64_t spare[2];
	struct vt_fuse_statx stat;
};

struct vt_fuse_forget_in { uint64_t nlookup; };
struct vt_fuse_forget_one { uint64_t nodeid, nlookup; };
struct vt_fuse_batch_forget_in { uint32_t count, dummy; };

struct vt_fuse_setattr_in {
	uint32_t valid, padding;
	uint64_t fh, size, lock_owner, atime, mtime, ctime;
	uint32_t atimensec, mtimensec, ctimensec, mode, unused4, uid, gid, unused5;
};

struct vt_fuse_mknod_in { uint32_t mode, rdev, umask, padding; };
struct vt_fuse_mkdir_in { uint32_t mode, umask; };
struct vt_fuse_rename_in { uint64_t newdir; };
struct vt_fuse_rename2_in { uint64_t newdir; uint32_t flags, padding; };
struct vt_fuse_link_in { uint64_t oldnodeid; };
struct vt_fuse_open_in { uint32_t flags, open_flags; };
struct vt_fuse_create_in { uint32_t flags, mode, umask, open_flags; };
struct vt_fuse_open_out { uint64_t fh; uint32_t open_flags; int32_t backing_id; };
struct vt_fuse_release_in { uint64_t fh; uint32_t flags, release_flags; uint64_t lock_owner; };
struct vt_fuse_flush_in { uint64_t fh; uint32_t unused, padding; uint64_t lock_owner; };
struct vt_fuse_read_in {
	uint64_t fh, offset;
	uint32_t size, read_flags;
	uint64_t lock_owner;
	uint32_t flags, padding;
};
struct vt_fuse_write_in {
	uint64_t fh, offset;
	uint32_t size, write_flags;
	uint64_t lock_owner;
	uint32_t flags, padding;
};
struct vt_fuse_write_out { uint32_t size, padding; };
struct vt_fuse_fsync_in { uint64_t fh; uint32_t fsync_flags, padding; };
struct vt_fuse_kstatfs {
	uint64_t blocks, bfree, bavail, files, ffree;
	uint32_t bsize, namelen, frsize, padding;
	uint32_t spare[6];
};
struct vt_fuse_setxattr_in { uint32_t size, flags, setxattr_flags, padding; };
struct vt_fuse_getxattr_in { uint32_t size, padding; };
struct vt_fuse_getxattr_out { uint32_t size, padding; };
struct vt_fuse_access_in { uint32_t mask, padding; };
struct vt_fuse_dirent {
	uint64_t ino, off;
	uint32_t namelen, type;
	char name[];
};
struct vt_fuse_ext_header { uint32_t size, type; };
struct vt_fuse_supp_groups { uint32_t nr_groups; uint32_t groups[]; };

/* a dirent's record is its name padded to 8 bytes (FUSE_DIRENT_ALIGN) */
#define VT_FUSE_DIRENT_SIZE(namelen) \
	((sizeof(struct vt_fuse_dirent) + (namelen) + 7) & ~(size_t)7)

/* sizes of the 6.12 structs (include/uapi/linux/fuse.h) */
_Static_assert(sizeof(struct vt_fuse_in_header) == 40, "fuse_in_header");
_Static_assert(sizeof(struct vt_fuse_out_header) == 16, "fuse_out_header");
_Static_assert(sizeof(struct vt_fuse_init_in) == 64, "fuse_init_in");
_Static_assert(sizeof(struct vt_fuse_init_out) == 64, "fuse_init_out");
_Static_assert(sizeof(struct vt_fuse_attr) == 88, "fuse_attr");
_Static_assert(sizeof(struct vt_fuse_entry_out) == 128, "fuse_entry_out");
_Static_assert(sizeof(struct vt_fuse_attr_out) == 104, "fuse_attr_out");
_Static_assert(sizeof(struct vt_fuse_statx) == 256, "fuse_statx");
_Static_assert(sizeof(struct vt_fuse_statx_out) == 288, "fuse_statx_out");
_Static_assert(sizeof(struct vt_fuse_setattr_in) == 88, "fuse_setattr_in");
_Static_assert(sizeof(struct vt_fuse_read_in) == 40, "fuse_read_in");
_Static_assert(sizeof(struct vt_fuse_write_in) == 40, "fuse_write_in");
_Static_assert(sizeof(struct vt_fuse_kstatfs) == 80, "fuse_kstatfs");
_Static_assert(sizeof(struct vt_fuse_dirent) == 24, "fuse_dirent");

#endif
