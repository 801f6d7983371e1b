/* The filesystems the suite knows, one row each: how a test filesystem is
 * made, where its files' owners come from, what it can hold, and what a
 * machine needs for it (Debian package, kernel config symbol, module), and
 * how it is checked without a write after each test.
 * Everything that used to keep its own list of filesystems asks this
 * table: fsimage (mkfs), the matrix and the test library (owner source,
 * capabilities), and through `vfsidmap-tool fs-table` the shell side
 * (./check --fs, common/fs.sh, common/fsck.sh, bootstrap, run/vm). */
#ifndef VT_FS_TABLE_H
#define VT_FS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

/* How a test filesystem of this type comes to be. */
enum vt_fs_make {
	VT_FS_MKFS,		/* mkfs on a sparse image (or a configured device) */
	VT_FS_MOUNT_ONLY,	/* no device: mount(2) makes it (tmpfs, hugetlbfs) */
	VT_FS_IMAGE,		/* mkfs from a tree the suite stages (read-only
				 * images: lib/world/ro_image.c) */
};

/* Where the owner of a file comes from. */
enum vt_fs_owner_source {
	VT_OWNER_INODE,		/* stored per inode; chown changes it */
	VT_OWNER_MOUNT_OPTIONS,	/* uid=/gid= and masks of the mount (fat, exfat) */
	VT_OWNER_IMAGE,		/* baked into a read-only image */
};

/* What a filesystem can hold or do (bits of vt_fs_row.supports). */
enum vt_fs_feature {
	VT_FSF_SYMLINK = 1u << 0,
	VT_FSF_DEVNODE = 1u << 1,	/* mknod of device nodes and fifos */
	VT_FSF_HARDLINK = 1u << 2,
	VT_FSF_TMPFILE = 1u << 3,	/* O_TMPFILE: ->tmpfile */
	VT_FSF_WHITEOUT = 1u << 4,	/* renameat2(RENAME_WHITEOUT) */
	VT_FSF_XATTR_USER = 1u << 5,
	VT_FSF_XATTR_TRUSTED = 1u << 6,
	VT_FSF_XATTR_SECURITY = 1u << 7,
	VT_FSF_POSIX_ACL = 1u << 8,
	VT_FSF_SETID = 1u << 9,		/* setuid/setgid bits are stored */
	VT_FSF_STICKY = 1u << 10,
	VT_FSF_FILEATTR = 1u << 11,	/* ->fileattr_set (FS_IOC_FSSETXATTR) */
	VT_FSF_WRITE = 1u << 12,	/* write(2) of file data: ->write_iter (the
					 * suite also copies its exec probe with it) */
	VT_FSF_EXCHANGE = 1u << 13,	/* renameat2(RENAME_EXCHANGE) */
	VT_FSF_OVERLAY = 1u << 14,	/* can be an overlayfs layer */
	VT_FSF_SUBVOLUME = 1u << 15,	/* btrfs subvolumes and snapshots (its ioctls) */
	/* FS_USERNS_MOUNT and FS_ALLOW_IDMAP: a superblock can be made from
	 * inside a user namespace (its s_user_ns) and then idmapped by the
	 * initial root (the matrix's userns maps, lib/matrix/axes.c) */
	VT_FSF_USERNS_MOUNT = 1u << 16,
	VT_FSF_DEDUPE = 1u << 17,	/* FIDEDUPERANGE: ->remap_file_range */
	VT_FSF__COUNT = 18,
};

/* An operation a filesystem has but always fails: the row lacks the
 * feature, and the errno is the filesystem's own, not the VFS's answer for
 * a missing inode operation (vt_fs_lack_errno). */
struct vt_fs_fails_anyway {
	unsigned int feature;	/* one enum vt_fs_feature bit; 0 ends a list */
	int err;
	const char *rule;	/* the kernel function that fails it */
};

/* Where the conformance table (scripts/conformance-table) runs a
 * filesystem: on this machine's kernel, or under run/vm on a kernel built
 * for the suite (run/build-kernel), for filesystems the host lacks. */
enum vt_fs_runs_on {
	VT_FS_ON_HOST,
	VT_FS_ON_GUEST,
};

struct vt_fs_row {
	const char *name;		/* the fstype of mount(2) */
	enum vt_fs_make make;
	const char *mkfs;		/* mkfs program (VT_FS_MKFS, VT_FS_IMAGE) */
	const char *mkfs_args;		/* its options before ours, space separated;
				 * VT_FS_IMAGE: the whole argument list, %I the
				 * image, %S the staged tree */
	unsigned int image_mib;		/* default image size */
	/* the smallest image its mkfs made of the sizes tried (1, 2, 4, 8,
	 * 16, 32, 64, 128, 200, 256, 300 MiB; 0: none known), measured
	 * 2026-12-08 with Debian 12's e2fsprogs 1.47.0, xfsprogs 6.1.0
	 * (which refuses below 300 MiB), btrfs-progs 6.2, dosfstools 4.2,
	 * exfatprogs 1.2.0, f2fs-tools 1.15.0, ntfs-3g 2022.10.3: the floor
	 * of an image sized to fit where it is made (vt_image_size_within) */
	unsigned int image_min_mib;
	enum vt_fs_owner_source owner;
	unsigned int supports;		/* enum vt_fs_feature bits */
	bool read_only;
	const char *mount_variants;	/* ';'-separated option sets worth running */
	const char *package;		/* Debian package of mkfs and of the checker ("" for none) */
	const char *kconfig;		/* kernel config symbol of the filesystem */
	const char *modules;		/* modules run/vm loads for it, space separated */
	const char *kernel_source;	/* where its rules are: the kernel's directory */
	const char *why;		/* the facts of the row, cited */
	/* owners from mount options: the suite can build worlds of chosen
	 * owners and modes from them (lib/world/optowner_world.c, with the
	 * filesystem's operations in lib/model/optowner_rules.c); false:
	 * tests that need such worlds are notrun there */
	bool option_worlds;
	/* The read-only check of the filesystem after each test
	 * (common/fsck.sh, as xfstests' _check_filesystems): */
	const char *fsck;		/* the checker and its no-write options, space
				 * separated, %D where the image or device goes;
				 * "" for none (then no_fsck says why) */
	const char *fsck_own_image;	/* options put before %D when the image is the
				 * suite's own (not a configured TEST_DEV) */
	const char *fsck_quiet;	/* ERE of the progress and summary lines it prints
				 * on a clean filesystem: what else a failing
				 * check prints are its findings */
	const char *no_fsck;	/* why there is no checker ("" when there is one) */
	/* Operations it has but always fails, ended by a zero feature (NULL:
	 * none): vt_fs_lack_errno gives their errno, not the VFS's. */
	const struct vt_fs_fails_anyway *fails_anyway;
	/* Its listxattr gives a caller with CAP_SYS_ADMIN the POSIX ACLs twice
	 * (vt_fs_lists_raw_acl). */
	bool lists_raw_acl;
	enum vt_fs_runs_on runs_on;	/* host or guest (scripts/conformance-table) */
	bool default_run;	/* ./check runs on it without --fs or FSTYP */
	/* More kernel config symbols it needs in the suite's kernel, beyond
	 * kconfig, space separated ("" for none): run/build-kernel builds them
	 * in (vfsidmap-tool fs-table kconfig-fragment) */
	const char *kconfig_also;
	/* listxattr gives names outside every xattr namespace (ntfs3's
	 * WSL owner EAs "$LXUID", "$LXGID", "$LXMOD": ntfs_listxattr ->
	 * ntfs_list_ea copies every EA name as it is). A tool that reads a
	 * tree's xattrs by the names listed can fail on such a tree: the
	 * matrix's erofs lower layer is made from a tree staged on the
	 * filesystem under test (vt_fs_unprefixed_xattr_why). */
	bool unprefixed_xattr_names;
};

/* What a test needs of the filesystem under test, declared as data in
 * its description (struct vt_test's .needs, in the spirit of LTP's
 * .needs_* fields) and answered by the table before any case runs. */
enum vt_fs_owner_need {
	VT_FSNEED_OWNED_WORLDS = 0, /* files of chosen owners and modes it writes:
				   * owners in the inode, or worlds the suite
				   * builds from mount options (vt_owned_dir) */
	VT_FSNEED_INODE_OWNERS,	/* a file of its own owner and group beside
				 * others (chown to any id) */
	VT_FSNEED_OPTION_OWNERS,	/* owners that come from mount options */
	VT_FSNEED_IMAGE_TREE,	/* the tree baked into a read-only image */
};

struct vt_fs_needs {
	enum vt_fs_owner_need owners;
	unsigned int features;	/* enum vt_fs_feature bits */
};

/* Reasons that start with this, then the fstype and ": ", say a test or
 * case is out of scope for the filesystem: it needs what the table says
 * the filesystem can never have. The porting report and the conformance
 * table (common/porting.awk) do not count them as "not run". */
#define VT_FS_SCOPE_PREFIX "not for "

extern const struct vt_fs_row vt_fs_table[];
extern const size_t vt_fs_table_count;

/* The row of FSTYPE, or NULL for a filesystem the suite does not know. */
const struct vt_fs_row *vt_fs_row(const char *fstype);
/* Does FSTYPE (known) support every feature of NEEDS? */
bool vt_fs_supports(const char *fstype, unsigned int needs);
/* Does FSTYPE's listxattr give a caller with CAP_SYS_ADMIN its POSIX ACLs
 * twice, as system.posix_acl_* and as the raw trusted.* attribute that
 * stores them (xfs: xfs_xattr_put_listent lists SGI_ACL_FILE and
 * SGI_ACL_DEFAULT both ways, 6.12 fs/xfs/xfs_xattr.c)? overlayfs's
 * copy-up then copies the raw one after the ACL (ovl_copy_xattr). */
bool vt_fs_lists_raw_acl(const char *fstype);
/* Why a tree staged on FSTYPE cannot be the source of an image made by
 * MKFS (its row's unprefixed_xattr_names), in BUF; NULL if it can. */
const char *vt_fs_unprefixed_xattr_why(const char *fstype, const char *mkfs, char *buf,
				       size_t len);
/* The errno an operation needing FEATURE (one bit) gets on FSTYPE when
 * the row lacks it, with the rule in *RULE; 0 if the row has it. The
 * VFS's answer for a missing inode operation unless the filesystem has
 * the operation and fails it (hugetlbfs). vfat-like rows (owners from
 * mount options) are the model's (lib/model/optowner_rules.c), not this. */
int vt_fs_lack_errno(const char *fstype, unsigned int feature, const char **rule);
/* The features FSTYPE's row lacks (VT_FSF_* bits), for why a case is
 * notrun: "<fs> has no <feature>: <rule>" in BUF. */
const char *vt_fs_lack_why(const char *fstype, unsigned int lacks, char *buf, size_t len);
/* The short name of a feature bit ("symlink", "posix_acl"...). */
const char *vt_fs_feature_name(unsigned int bit);
const char *vt_fs_owner_source_name(enum vt_fs_owner_source s);
/* "mkfs", "image" or "mount-only" (the make field of fs-table). */
const char *vt_fs_make_name(enum vt_fs_make m);
/* NULL when FSTYPE's row meets NEEDS (or FSTYPE is not in the table:
 * then probes decide). Else the reason, from the row, in BUF: out of
 * scope ("not for FSTYPE: ...") when the filesystem can never meet it,
 * without the prefix when the suite cannot build it yet (a filesystem
 * with owners from mount options but no option worlds). */
const char *vt_fs_unmet(const char *fstype, const struct vt_fs_needs *needs, char *buf,
			size_t len);
/* NULL if tests can have files of chosen owners on FSTYPE (owners in the
 * inode, or worlds from mount options); else why not (static buffer). */
const char *vt_fs_no_owner_worlds(const char *fstype);

#endif
