/* The filesystem table (fs_table.h). Each row's facts come from the
 * filesystem's own code in Linux 6.12 (the functions named in .why); a
 * feature is listed only where the inode operations implement it. */
#include "fs/fs_table.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* and write(2), RENAME_EXCHANGE and being an overlayfs layer, which every
 * native fs has */
#define ALL_POSIX (VT_FSF_SYMLINK | VT_FSF_DEVNODE | VT_FSF_HARDLINK | VT_FSF_SETID | \
		   VT_FSF_STICKY | VT_FSF_WRITE | VT_FSF_EXCHANGE | VT_FSF_OVERLAY)
#define ALL_XATTR (VT_FSF_XATTR_USER | VT_FSF_XATTR_TRUSTED | VT_FSF_XATTR_SECURITY)

/* .runs_on: HOST for the filesystems the kernel of the machine the suite
 * is developed on has built in (6.18.44-fc-v1300, no modules:
 * /proc/filesystems, 2026-12-08), GUEST for those only the suite's own
 * kernel under run/vm has (run/build-kernel: every row's kconfig).
 * .default_run: ./check's runs without --fs or FSTYP, the set it has had
 * since it was written (082ee4b): ext4, xfs and btrfs, tmpfs (no device)
 * and vfat (owners from mount options). */
const struct vt_fs_row vt_fs_table[] = {
	{
		.name = "ext4",
		.make = VT_FS_MKFS, .mkfs = "mkfs.ext4", .mkfs_args = "-q -F", .image_mib = 256,
		.image_min_mib = 1,
		.owner = VT_OWNER_INODE, .option_worlds = false,
		.supports = ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR |
			    VT_FSF_POSIX_ACL | VT_FSF_FILEATTR,
		.read_only = false, .mount_variants = "",
		.package = "e2fsprogs", .kconfig = "CONFIG_EXT4_FS", .modules = "ext4",
		.kernel_source = "fs/ext4",
		.why = "ext4_tmpfile, ext4_rename2 (RENAME_WHITEOUT), ext4_xattr_*_handler, "
		       "ext4_set_acl, ext4_fileattr_set",
		/* e2fsck(8): -f checks even a filesystem that seems clean; -n
		 * opens it read-only and answers no to every question */
		.fsck = "e2fsck -fn %D", .fsck_own_image = "",
		.fsck_quiet = "^e2fsck [0-9.]+ \\(|^Pass [0-9]+[A-Z]?: |"
			      ": [0-9]+/[0-9]+ files \\(.*\\), [0-9]+/[0-9]+ blocks$",
		.no_fsck = "",
		.runs_on = VT_FS_ON_HOST, .default_run = true,
		/* ext4_get_acl/ext4_set_acl need EXT4_FS_POSIX_ACL, the security.
		 * handler (ext4_xattr_security_handler) EXT4_FS_SECURITY */
		.kconfig_also = "CONFIG_EXT4_FS_POSIX_ACL CONFIG_EXT4_FS_SECURITY",
	},
	{
		.name = "xfs",
		/* mkfs.xfs wants 300 MiB since xfsprogs 5.19 */
		.make = VT_FS_MKFS, .mkfs = "mkfs.xfs", .mkfs_args = "-q -f", .image_mib = 512,
		.image_min_mib = 300,
		.owner = VT_OWNER_INODE, .option_worlds = false,
		.supports = ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR |
			    VT_FSF_POSIX_ACL | VT_FSF_FILEATTR | VT_FSF_DEDUPE,
		.read_only = false, .mount_variants = "",
		.package = "xfsprogs", .kconfig = "CONFIG_XFS_FS", .modules = "xfs",
		.kernel_source = "fs/xfs",
		.why = "xfs_vn_tmpfile, xfs_vn_rename (RENAME_WHITEOUT), xfs_xattr_handlers, "
		       "xfs_set_acl, xfs_fileattr_set, xfs_file_remap_range",
		/* xfs_repair(8): -n, no modify mode. On the suite's own image:
		 * -f, the filesystem is in a regular file (xfsprogs 6.1 also
		 * finds that out by itself: same output without it, measured);
		 * -P leaves out the prefetch of inode and directory blocks,
		 * which only reorders the reads: on an image this small its
		 * threads cost more than they save (144 -> 104 threads a check,
		 * host CPU time -10%); -o bhash=128: the buffer cache is sized
		 * from the machine's memory, and 8 x 128 buffers hold the whole
		 * small image (host: 0.088 -> 0.055 s of CPU a check; page
		 * faults are dear under TCG). A configured TEST_DEV keeps the
		 * defaults. An image file is not a block device: the geometry
		 * notice is not a finding. */
		.fsck = "xfs_repair -n %D", .fsck_own_image = "-f -P -o bhash=128",
		.fsck_quiet = "^Phase [0-9]+ - |^        - |^No modify flag set, skipping |"
			      "^Cannot get host filesystem geometry\\.$|"
			      "^Repair may fail if there is a sector size mismatch between$|"
			      "^the image and the host filesystem\\.$",
		.no_fsck = "",
		/* xfs_xattr_put_listent (fs/xfs/xfs_xattr.c) lists SGI_ACL_FILE
		 * and SGI_ACL_DEFAULT as trusted. names beside system.posix_acl_* */
		.lists_raw_acl = true,
		.runs_on = VT_FS_ON_HOST, .default_run = true,
		/* xfs_get_acl/xfs_set_acl: XFS_POSIX_ACL */
		.kconfig_also = "CONFIG_XFS_POSIX_ACL",
	},
	{
		.name = "btrfs",
		/* mkfs.btrfs refuses images under ~114 MiB */
		.make = VT_FS_MKFS, .mkfs = "mkfs.btrfs", .mkfs_args = "-q -f", .image_mib = 512,
		.image_min_mib = 128,
		.owner = VT_OWNER_INODE, .option_worlds = false,
		.supports = ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR |
			    VT_FSF_POSIX_ACL | VT_FSF_FILEATTR | VT_FSF_SUBVOLUME | VT_FSF_DEDUPE,
		.read_only = false, .mount_variants = "",
		.package = "btrfs-progs", .kconfig = "CONFIG_BTRFS_FS", .modules = "btrfs",
		.kernel_source = "fs/btrfs",
		.why = "btrfs_tmpfile, btrfs_rename2 (RENAME_WHITEOUT), btrfs_xattr_handlers, "
		       "btrfs_set_acl, btrfs_fileattr_set, btrfs_remap_file_range, btrfs_ioctl "
		       "(BTRFS_IOC_SUBVOL_CREATE, BTRFS_IOC_SNAP_CREATE_V2, BTRFS_IOC_SNAP_DESTROY_V2)",
		/* btrfs-check(8): --readonly, read-only mode (the default, said
		 * out loud) */
		.fsck = "btrfs check --readonly %D", .fsck_own_image = "",
		.fsck_quiet = "^Opening filesystem to check\\.\\.\\.$|^Checking filesystem on |"
			      "^UUID: |^\\[[0-9]+/[0-9]+\\] checking |^found [0-9]+ bytes used, |"
			      "^total [a-z ]+ bytes: |^btree space waste bytes: |"
			      "^file data blocks allocated: |^ referenced [0-9]+$",
		.no_fsck = "",
		.runs_on = VT_FS_ON_HOST, .default_run = true,
		/* btrfs_get_acl/btrfs_set_acl: BTRFS_FS_POSIX_ACL */
		.kconfig_also = "CONFIG_BTRFS_FS_POSIX_ACL",
	},
	{
		.name = "tmpfs",
		.make = VT_FS_MOUNT_ONLY, .mkfs = "", .mkfs_args = "", .image_mib = 0,
		.owner = VT_OWNER_INODE, .option_worlds = false,
		.supports = ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR |
			    VT_FSF_POSIX_ACL | VT_FSF_FILEATTR | VT_FSF_USERNS_MOUNT,
		.read_only = false, .mount_variants = "",
		.package = "", .kconfig = "CONFIG_TMPFS", .modules = "",
		.kernel_source = "mm/shmem.c",
		.why = "shmem_tmpfile, shmem_rename2 (RENAME_WHITEOUT), shmem_xattr_handlers (user. "
		       "since 6.6), simple_set_acl, shmem_fileattr_set, shmem_fs_type "
		       "(FS_USERNS_MOUNT | FS_ALLOW_IDMAP)",
		.fsck = "", .fsck_own_image = "", .fsck_quiet = "",
		.no_fsck = "no device: tmpfs keeps its files in memory (mm/shmem.c), there is "
			   "nothing on disk to check",
		.runs_on = VT_FS_ON_HOST, .default_run = true,
		/* simple_set_acl for shmem: TMPFS_POSIX_ACL; shmem_xattr_handlers:
		 * TMPFS_XATTR */
		.kconfig_also = "CONFIG_TMPFS_POSIX_ACL CONFIG_TMPFS_XATTR",
	},
	{
		.name = "vfat",
		/* fat_setattr: chown only to the mount's uid=/gid=; no ->symlink,
		 * ->mknod, ->link, ->tmpfile, no xattr handlers;
		 * fat_sanitize_mode_change keeps only the permission bits the
		 * masks allow */
		.make = VT_FS_MKFS, .mkfs = "mkfs.vfat", .mkfs_args = "", .image_mib = 256,
		.image_min_mib = 1,
		.owner = VT_OWNER_MOUNT_OPTIONS, .option_worlds = true,
		.supports = VT_FSF_WRITE | VT_FSF_EXCHANGE,
		.read_only = false, .mount_variants = "uid=,gid=,fmask=,dmask=",
		.package = "dosfstools", .kconfig = "CONFIG_VFAT_FS",
		.modules = "vfat fat nls_cp437 nls_ascii nls_utf8",
		.kernel_source = "fs/fat",
		.why = "vfat_dir_inode_operations (create, mkdir, rename, unlink, rmdir only), "
		       "fat_setattr, fat_allow_set_time, fat_fill_inode (owner from the options)",
		/* fsck.fat(8): -n, no-operation mode: checks, never writes */
		.fsck = "fsck.vfat -n %D", .fsck_own_image = "",
		.fsck_quiet = "^fsck\\.fat [0-9.]+ \\(|^Leaving filesystem unchanged\\.$|"
			      ": [0-9]+ files, [0-9]+/[0-9]+ clusters$",
		.no_fsck = "",
		.runs_on = VT_FS_ON_GUEST, .default_run = true,
		/* FAT_FS: the fat core VFAT_FS selects. fat_fill_super loads the
		 * codepage ("cp%d", FAT_DEFAULT_CODEPAGE 437) and, for vfat, the
		 * iocharset (FAT_DEFAULT_IOCHARSET "iso8859-1"); NLS_ASCII and
		 * NLS_UTF8: the iocharsets of Debian's kernel config (ascii) and
		 * iocharset=utf8, so that a mount written for it mounts here too */
		.kconfig_also = "CONFIG_FAT_FS CONFIG_NLS CONFIG_NLS_CODEPAGE_437 "
				"CONFIG_NLS_ISO8859_1 CONFIG_NLS_ASCII CONFIG_NLS_UTF8",
	},
	{
		.name = "msdos",
		/* the same fat_setattr; msdos_dir_inode_operations: 8.3 names */
		.make = VT_FS_MKFS, .mkfs = "mkfs.vfat", .mkfs_args = "", .image_mib = 256,
		.image_min_mib = 1,
		.owner = VT_OWNER_MOUNT_OPTIONS, .option_worlds = true,
		.supports = VT_FSF_WRITE,
		.read_only = false, .mount_variants = "uid=,gid=,fmask=,dmask=",
		.package = "dosfstools", .kconfig = "CONFIG_MSDOS_FS", .modules = "msdos fat",
		.kernel_source = "fs/fat",
		.why = "msdos_dir_inode_operations (create, mkdir, rename, unlink, rmdir only), "
		       "fat_setattr, msdos_format_name (8.3 names)",
		/* made by mkfs.vfat like vfat, checked the same way */
		.fsck = "fsck.vfat -n %D", .fsck_own_image = "",
		.fsck_quiet = "^fsck\\.fat [0-9.]+ \\(|^Leaving filesystem unchanged\\.$|"
			      ": [0-9]+ files, [0-9]+/[0-9]+ clusters$",
		.no_fsck = "",
		.runs_on = VT_FS_ON_GUEST, .default_run = false,
		/* fat_fill_super loads the codepage (FAT_DEFAULT_CODEPAGE 437) */
		.kconfig_also = "CONFIG_FAT_FS CONFIG_NLS CONFIG_NLS_CODEPAGE_437",
	},
	{
		.name = "exfat",
		.make = VT_FS_MKFS, .mkfs = "mkfs.exfat", .mkfs_args = "", .image_mib = 256,
		.image_min_mib = 4,
		.owner = VT_OWNER_MOUNT_OPTIONS, .option_worlds = true,
		.supports = VT_FSF_WRITE,
		.read_only = false, .mount_variants = "uid=,gid=,fmask=,dmask=,allow_utime=",
		.package = "exfatprogs", .kconfig = "CONFIG_EXFAT_FS", .modules = "exfat",
		.kernel_source = "fs/exfat",
		.why = "exfat_dir_inode_operations (create, mkdir, rename, unlink, rmdir only), "
		       "exfat_setattr (chown only to the mount's ids), exfat_allow_set_time, "
		       "exfat_fill_inode",
		/* fsck.exfat(8) (exfatprogs): -n checks the filesystem but does
		 * not attempt to repair it (answers no to every question) */
		.fsck = "fsck.exfat -n %D", .fsck_own_image = "",
		.fsck_quiet = "^exfatprogs version : [0-9.]+$|"
			      ": clean\\. directories [0-9]+, files [0-9]+$",
		.no_fsck = "",
		.runs_on = VT_FS_ON_GUEST, .default_run = false,
		.kconfig_also = "",
	},
	{
		.name = "f2fs",
		/* mkfs.f2fs 1.15 refuses images below about 52 MiB (measured) */
		.make = VT_FS_MKFS, .mkfs = "mkfs.f2fs", .mkfs_args = "-q -f", .image_mib = 256,
		.image_min_mib = 64,
		.owner = VT_OWNER_INODE, .option_worlds = false,
		.supports = ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR |
			    VT_FSF_POSIX_ACL | VT_FSF_FILEATTR,
		.read_only = false, .mount_variants = "",
		.package = "f2fs-tools", .kconfig = "CONFIG_F2FS_FS", .modules = "f2fs",
		.kernel_source = "fs/f2fs",
		.why = "f2fs_setattr, f2fs_tmpfile, f2fs_rename2 (RENAME_WHITEOUT), "
		       "f2fs_xattr_handlers, f2fs_set_acl (its own ACL code), f2fs_fileattr_set",
		/* fsck.f2fs(8) of f2fs-tools 1.15 names no option that keeps it
		 * from writing (-f is "force fix"); `fsck.f2fs --help` has
		 * --dry-run, "do not really fix corruptions": dev_write
		 * (lib/libf2fs_io.c) returns before writing, and no question is
		 * asked. Without it a finding gets "Do you want to fix this
		 * partition? [Y/N]" (a yes writes; stdin at its end: exit 255,
		 * measured). */
		.fsck = "fsck.f2fs --dry-run %D", .fsck_own_image = "",
		.fsck_quiet = "^Info: |^ +((from|to) )?\"Linux version |"
			      "^\\[FSCK\\] .*\\[Ok\\.\\.\\]|^\\[FSCK\\] Max image size: |"
			      "^\\[FSCK\\] fixing SIT types$|^Done: ",
		.no_fsck = "",
		.runs_on = VT_FS_ON_GUEST, .default_run = false,
		/* f2fs_xattr_handlers need F2FS_FS_XATTR, f2fs_get_acl/f2fs_set_acl
		 * F2FS_FS_POSIX_ACL, the security. handler F2FS_FS_SECURITY */
		.kconfig_also = "CONFIG_F2FS_FS_XATTR CONFIG_F2FS_FS_POSIX_ACL "
				"CONFIG_F2FS_FS_SECURITY",
	},
	{
		.name = "ntfs3",
		/* ntfs3 (fs/ntfs3, 6.12): ntfs_dir_inode_operations has no
		 * ->tmpfile; ntfs_rename refuses every flag but RENAME_NOREPLACE
		 * (EINVAL: no whiteout, no exchange); ntfs_other_xattr_handler
		 * has prefix "", so user., trusted. and security. are NTFS EAs;
		 * SB_POSIXACL only with the mount option acl
		 * (ntfs_fs_parse_param); ntfs_fileattr_set takes immutable,
		 * append and compression flags only. Owners: new inodes get
		 * inode_init_owner's, kept as the $LXUID/$LXGID/$LXMOD EAs
		 * (ntfs_save_wsl_perm, also from ntfs_setattr) and read back by
		 * ntfs_get_wsl_perm; a file without them (made by Windows) gets
		 * the mount's uid=/gid= and fmask/dmask (ntfs_read_mft). */
		.make = VT_FS_MKFS, .mkfs = "mkfs.ntfs", .mkfs_args = "-Q -F", .image_mib = 256,
		.image_min_mib = 2,
		.owner = VT_OWNER_INODE, .option_worlds = false,
		.supports = VT_FSF_SYMLINK | VT_FSF_DEVNODE | VT_FSF_HARDLINK | VT_FSF_SETID |
			    VT_FSF_STICKY | VT_FSF_WRITE | ALL_XATTR | VT_FSF_POSIX_ACL |
			    VT_FSF_FILEATTR | VT_FSF_OVERLAY,
		.read_only = false, .mount_variants = "acl;uid=,gid=,umask=",
		.package = "ntfs-3g", .kconfig = "CONFIG_NTFS3_FS", .modules = "ntfs3",
		.kernel_source = "fs/ntfs3",
		.why = "ntfs_setattr, ntfs_save_wsl_perm/ntfs_get_wsl_perm ($LXUID/$LXGID/$LXMOD "
		       "EAs), ntfs_xattr_handler, ntfs_set_acl (mount option acl), "
		       "ntfs_fileattr_set, ntfs_rename (RENAME_NOREPLACE only)",
		/* ntfsfix(8) (ntfs-3g): -n, --no-action, "do not write
		 * anything, just show what would have been done". It is not
		 * chkdsk (ntfsfix(8)): it checks what libntfs-3g needs to mount
		 * the volume (the boot sectors, $MFT against $MFTMirr, the
		 * volume state and $LogFile), not every index and attribute. */
		.fsck = "ntfsfix -n %D", .fsck_own_image = "",
		.fsck_quiet = "^Mounting volume\\.\\.\\. OK$|^Attempting to correct errors\\.\\.\\. ?$|"
			      "^Processing \\$MFT and \\$MFTMirr\\.\\.\\.$|^Reading \\$MFT(Mirr)?\\.\\.\\. OK$|"
			      "^Processing of \\$MFT and \\$MFTMirr completed successfully\\.$|"
			      "^Checking the alternate boot sector\\.\\.\\. OK$|"
			      "^NTFS volume version is [0-9.]+\\.$|"
			      "^NTFS partition .* was processed successfully\\.$",
		.no_fsck = "",
		.runs_on = VT_FS_ON_GUEST, .default_run = false,
		/* ntfs_fs_parse_param refuses the option acl without
		 * NTFS3_FS_POSIX_ACL ("Support for ACL not compiled in!") */
		.kconfig_also = "CONFIG_NTFS3_FS_POSIX_ACL",
		/* measured in run/vm's guest of Debian's 6.12.118 (2026-12-08):
		 * listxattr of a new file lists "$LXUID", "$LXGID", "$LXMOD" */
		.unprefixed_xattr_names = true,
	},
	{
		.name = "hugetlbfs",
		/* hugetlbfs_dir_inode_operations: simple_link, simple_rename (no
		 * RENAME_WHITEOUT), hugetlbfs_mknod, hugetlbfs_tmpfile; no xattr
		 * handlers (hugetlbfs_fill_super sets no s_xattr), no
		 * SB_POSIXACL, no ->fileattr_set. hugetlbfs_symlink has
		 * page_symlink write the target through hugetlbfs_aops, whose
		 * hugetlbfs_write_begin is -EINVAL: no symlink can be made.
		 * hugetlbfs_file_operations has no ->write_iter: write(2) is
		 * EINVAL with or without huge pages. hugetlbfs_setattr:
		 * setattr_prepare, then a size that is not a multiple of the huge
		 * page size is EINVAL, then setattr_copy. hugetlbfs_fill_super
		 * sets s_stack_depth to FILESYSTEM_MAX_STACK_DEPTH: overlayfs
		 * refuses it as a layer. Owners: the root's from uid=/gid=/mode=
		 * (hugetlbfs_get_root), every other inode's from inode_init_owner
		 * (hugetlbfs_get_inode). */
		.make = VT_FS_MOUNT_ONLY, .mkfs = "", .mkfs_args = "", .image_mib = 0,
		.owner = VT_OWNER_INODE, .option_worlds = false,
		.supports = VT_FSF_DEVNODE | VT_FSF_HARDLINK | VT_FSF_SETID | VT_FSF_STICKY |
			    VT_FSF_TMPFILE | VT_FSF_EXCHANGE,
		.read_only = false, .mount_variants = "uid=,gid=,mode=",
		.package = "", .kconfig = "CONFIG_HUGETLBFS", .modules = "",
		.kernel_source = "fs/hugetlbfs",
		.why = "hugetlbfs_dir_inode_operations (mknod, tmpfile, simple_link, simple_rename), "
		       "hugetlbfs_symlink (page_symlink -> hugetlbfs_write_begin: EINVAL), "
		       "hugetlbfs_file_operations (no write_iter), hugetlbfs_setattr, "
		       "hugetlbfs_get_inode",
		.fsck = "", .fsck_own_image = "", .fsck_quiet = "",
		.no_fsck = "no device: hugetlbfs keeps its files in memory (fs/hugetlbfs), there "
			   "is nothing on disk to check",
		.fails_anyway = (const struct vt_fs_fails_anyway[]){
			{ VT_FSF_SYMLINK, EINVAL,
			  "hugetlbfs_symlink -> page_symlink -> hugetlbfs_write_begin: EINVAL" },
			{ VT_FSF_WRITE, EINVAL,
			  "hugetlbfs_file_operations has no ->write_iter: vfs_write gives EINVAL "
			  "(no FMODE_CAN_WRITE)" },
			{ VT_FSF_OVERLAY, EINVAL,
			  "hugetlbfs_fill_super sets s_stack_depth = FILESYSTEM_MAX_STACK_DEPTH: "
			  "ovl_fill_super gives EINVAL, maximum fs stacking depth exceeded" },
			{ 0, 0, NULL },
		},
		.runs_on = VT_FS_ON_HOST, .default_run = false,
		.kconfig_also = "",
	},
	/* Read-only images, made by their mkfs from the tree ro_image.c
	 * stages; owners, modes and xattrs are the staged ones. */
	{
		.name = "erofs",
		/* erofs_fc_fill_super sets SB_RDONLY, SB_POSIXACL
		 * (erofs_get_acl); erofs_xattr_handlers: user, trusted,
		 * security; fs_flags FS_ALLOW_IDMAP. mkfs.erofs IMAGE DIR (%I,
		 * %S: ro_image.c). */
		.make = VT_FS_IMAGE, .mkfs = "mkfs.erofs", .mkfs_args = "--quiet %I %S",
		.image_mib = 0,
		.owner = VT_OWNER_IMAGE, .option_worlds = false,
		.supports = VT_FSF_SYMLINK | VT_FSF_DEVNODE | VT_FSF_HARDLINK | VT_FSF_SETID |
			    VT_FSF_STICKY | ALL_XATTR | VT_FSF_POSIX_ACL,
		.read_only = true, .mount_variants = "",
		.package = "erofs-utils", .kconfig = "CONFIG_EROFS_FS", .modules = "erofs",
		.kernel_source = "fs/erofs",
		.why = "erofs_fc_fill_super (SB_RDONLY, SB_POSIXACL), erofs_xattr_handlers, "
		       "erofs_get_acl, erofs_fs_type (FS_ALLOW_IDMAP)",
		/* fsck.erofs is in erofs-utils 1.5 (Debian 12), but 1.5 exits 0
		 * on an image whose superblock checksum is wrong (measured:
		 * "superblock chksum doesn't match", exit 0) */
		.fsck = "", .fsck_own_image = "", .fsck_quiet = "",
		.no_fsck = "a read-only image the suite makes for the section: erofs never "
			   "writes it (erofs_fc_fill_super: SB_RDONLY), so no test can change "
			   "it; and fsck.erofs 1.5 exits 0 on a corrupted superblock",
		.runs_on = VT_FS_ON_HOST, .default_run = false,
		/* MISC_FILESYSTEMS: the menu fs/Kconfig sources fs/erofs/Kconfig
		 * in; erofs_xattr_handlers need EROFS_FS_XATTR, erofs_get_acl
		 * EROFS_FS_POSIX_ACL */
		.kconfig_also = "CONFIG_MISC_FILESYSTEMS CONFIG_EROFS_FS_XATTR "
				"CONFIG_EROFS_FS_POSIX_ACL",
	},
	{
		.name = "squashfs",
		/* squashfs_fill_super sets SB_RDONLY and no SB_POSIXACL;
		 * squashfs_xattr_handlers are user, trusted, security only, and
		 * no inode operations have ->get_inode_acl (fs/squashfs/xattr.c),
		 * so POSIX ACLs are not there (__get_acl: !IS_POSIXACL ->
		 * EOPNOTSUPP). mksquashfs DIR IMAGE -noappend; xattrs are kept by
		 * default. */
		.make = VT_FS_IMAGE, .mkfs = "mksquashfs",
		.mkfs_args = "%S %I -noappend -no-progress -quiet", .image_mib = 0,
		.owner = VT_OWNER_IMAGE, .option_worlds = false,
		.supports = VT_FSF_SYMLINK | VT_FSF_DEVNODE | VT_FSF_HARDLINK | VT_FSF_SETID |
			    VT_FSF_STICKY | ALL_XATTR,
		.read_only = true, .mount_variants = "",
		.package = "squashfs-tools", .kconfig = "CONFIG_SQUASHFS", .modules = "squashfs",
		.kernel_source = "fs/squashfs",
		.why = "squashfs_fill_super (SB_RDONLY), squashfs_xattr_handlers (user, trusted, "
		       "security), squashfs_fs_type (FS_ALLOW_IDMAP)",
		/* squashfs-tools 4.5 has no checker: unsquashfs only lists or
		 * extracts */
		.fsck = "", .fsck_own_image = "", .fsck_quiet = "",
		.no_fsck = "a read-only image the suite makes for the section: squashfs never "
			   "writes it (squashfs_fill_super: SB_RDONLY), so no test can change "
			   "it; and squashfs-tools has no checker",
		.runs_on = VT_FS_ON_HOST, .default_run = false,
		/* MISC_FILESYSTEMS: the menu fs/squashfs/Kconfig is in;
		 * squashfs_xattr_handlers need SQUASHFS_XATTR; mksquashfs
		 * compresses with gzip by default, read with SQUASHFS_ZLIB */
		.kconfig_also = "CONFIG_MISC_FILESYSTEMS CONFIG_SQUASHFS_XATTR CONFIG_SQUASHFS_ZLIB",
	},
#ifdef VT_FS_EXTRA_ROWS
	/* rows of a build's own, a file of initializers like those above
	 * (-DVT_FS_EXTRA_ROWS='"PATH"'): unit/test-toy-fs-record.sh adds one */
#include VT_FS_EXTRA_ROWS
#endif
};

const size_t vt_fs_table_count = sizeof(vt_fs_table) / sizeof(vt_fs_table[0]);

const struct vt_fs_row *vt_fs_row(const char *fstype)
{
	size_t i;

	for (i = 0; fstype && i < vt_fs_table_count; i++)
		if (strcmp(vt_fs_table[i].name, fstype) == 0)
			return &vt_fs_table[i];
	return NULL;
}

bool vt_fs_supports(const char *fstype, unsigned int needs)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);

	return r && (r->supports & needs) == needs;
}

const char *vt_fs_unprefixed_xattr_why(const char *fstype, const char *mkfs, char *buf,
				       size_t len)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);

	if (!r || !r->unprefixed_xattr_names)
		return NULL;
	/* erofs-utils 1.5 (Debian 12): a listed name no xattr prefix
	 * matches fails the whole mkfs.erofs with ENODATA ("failed to build
	 * shared xattrs: [Error 61] No data available", seen on an ntfs3
	 * tree in run/vm's guest, 2026-12-08); 1.8.2 skips such names
	 * ("skip all unidentified xattrs from local paths") */
	snprintf(buf, len, "%s lists xattr names outside every namespace (ntfs_listxattr: "
		 "$LXUID, $LXGID, $LXMOD), which %s of erofs-utils before 1.8.2 refuses in a "
		 "tree staged there (ENODATA), so it is not tried (lib/fs/fs_table.c)",
		 fstype, mkfs);
	return buf;
}

bool vt_fs_lists_raw_acl(const char *fstype)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);

	return r && r->lists_raw_acl;
}

int vt_fs_lack_errno(const char *fstype, unsigned int feature, const char **rule)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);
	const struct vt_fs_fails_anyway *f;

	*rule = "";
	if (!r || (r->supports & feature) == feature)
		return 0;
	for (f = r->fails_anyway; f && f->feature; f++)
		if (f->feature == feature) {
			*rule = f->rule;
			return f->err;
		}
	switch (feature) {
	case VT_FSF_SYMLINK:
		*rule = "vfs_symlink: no ->symlink -> EPERM";
		return EPERM;
	case VT_FSF_DEVNODE:
		*rule = "vfs_mknod: no ->mknod -> EPERM";
		return EPERM;
	case VT_FSF_HARDLINK:
		*rule = "vfs_link: no ->link -> EPERM";
		return EPERM;
	case VT_FSF_TMPFILE:
		*rule = "vfs_tmpfile: no ->tmpfile -> EOPNOTSUPP";
		return EOPNOTSUPP;
	case VT_FSF_XATTR_USER:
	case VT_FSF_XATTR_TRUSTED:
	case VT_FSF_XATTR_SECURITY:
		*rule = "no xattr handlers (no IOP_XATTR): __vfs_setxattr, __vfs_getxattr -> EOPNOTSUPP";
		return EOPNOTSUPP;
	case VT_FSF_POSIX_ACL:
		*rule = "vfs_set_acl/vfs_get_acl: !IS_POSIXACL -> EOPNOTSUPP";
		return EOPNOTSUPP;
	case VT_FSF_WHITEOUT:
	case VT_FSF_EXCHANGE:
		*rule = "the filesystem's ->rename refuses the flag: EINVAL (simple_rename: "
			"flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE); ntfs_rename, msdos_rename, "
			"exfat_rename: flags & ~RENAME_NOREPLACE)";
		return EINVAL;
	case VT_FSF_OVERLAY:
		*rule = "overlayfs refuses it as a layer (ovl_mount_dir_check)";
		return EINVAL;
	case VT_FSF_FILEATTR:
		*rule = "vfs_fileattr_set: no ->fileattr_set -> ENOIOCTLCMD (ENOTTY)";
		return ENOTTY;
	case VT_FSF_SETID:
		*rule = "its ->setattr keeps no S_ISUID/S_ISGID (fat_setattr, exfat_setattr: "
			"modes outside FAT_VALID_MODE and the masks are refused or dropped)";
		return EPERM;
	case VT_FSF_STICKY:
		*rule = "its ->setattr keeps no S_ISVTX (fat_sanitize_mode_change: FAT_VALID_MODE)";
		return EPERM;
	case VT_FSF_USERNS_MOUNT:
		*rule = "its file_system_type lacks FS_USERNS_MOUNT: mount_capable() wants "
			"CAP_SYS_ADMIN in the initial namespace (fs/super.c), so no superblock of it "
			"belongs to a user namespace";
		return EPERM;
	case VT_FSF_DEDUPE:
		*rule = "vfs_dedupe_file_range: no ->remap_file_range -> EOPNOTSUPP";
		return EOPNOTSUPP;
	case VT_FSF_SUBVOLUME:
		*rule = "subvolumes and snapshots are btrfs ioctls (btrfs_ioctl); another "
			"filesystem's ->unlocked_ioctl does not know them: ENOTTY";
		return ENOTTY;
	default:
		*rule = "the filesystem lacks it";
		return EOPNOTSUPP;
	}
}

const char *vt_fs_lack_why(const char *fstype, unsigned int lacks, char *buf, size_t len)
{
	const char *rule;
	int k;

	for (k = 0; k < VT_FSF__COUNT; k++)
		if (lacks & (1u << k))
			break;
	if (k == VT_FSF__COUNT) {
		snprintf(buf, len, "%s lacks nothing asked", fstype);
		return buf;
	}
	vt_fs_lack_errno(fstype, 1u << k, &rule);
	/* out of scope: the row says the filesystem never has it */
	snprintf(buf, len, VT_FS_SCOPE_PREFIX "%s: %s has no %s (%s; lib/fs/fs_table.c)", fstype,
		 fstype, vt_fs_feature_name(1u << k), rule);
	return buf;
}

const char *vt_fs_feature_name(unsigned int bit)
{
	static const char *const names[VT_FSF__COUNT] = {
		"symlink", "devnode", "hardlink", "tmpfile", "whiteout", "xattr_user",
		"xattr_trusted", "xattr_security", "posix_acl", "setid", "sticky", "fileattr",
		"write", "exchange", "overlay", "subvolume", "userns_mount", "dedupe",
	};
	int k;

	for (k = 0; k < VT_FSF__COUNT; k++)
		if (bit == 1u << k)
			return names[k];
	return "?";
}

const char *vt_fs_owner_source_name(enum vt_fs_owner_source s)
{
	return s == VT_OWNER_INODE ? "inode" : s == VT_OWNER_MOUNT_OPTIONS ? "mount-options" : "image";
}

const char *vt_fs_make_name(enum vt_fs_make m)
{
	return m == VT_FS_MKFS ? "mkfs" : m == VT_FS_IMAGE ? "image" : "mount-only";
}

const char *vt_fs_no_owner_worlds(const char *fstype)
{
	static char why[300];
	const struct vt_fs_row *r = vt_fs_row(fstype);

	if (!r || r->owner == VT_OWNER_INODE || r->option_worlds)
		return NULL;
	if (r->owner == VT_OWNER_IMAGE) {
		snprintf(why, sizeof(why), VT_FS_SCOPE_PREFIX "%s: %s is a read-only image: owners, "
			 "modes and xattrs are baked in when the suite makes it "
			 "(lib/world/ro_image.c); every write is EROFS (sb_rdonly)", r->name, r->name);
		return why;
	}
	snprintf(why, sizeof(why), "owners on %s come from its mount options (%s; %s), and the "
		 "suite has no operations of its own for it in lib/model/optowner_rules.c", r->name,
		 r->mount_variants, r->kernel_source);
	return why;
}

/* What a test asks of the owners, against where the row's come from. */
static const char *owner_unmet(const struct vt_fs_row *r, enum vt_fs_owner_need need,
			       char *buf, size_t len)
{
	static const char *const wanted[] = {
		[VT_FSNEED_OWNED_WORLDS] = "it builds its world by writing files of chosen owners",
		[VT_FSNEED_INODE_OWNERS] = "it needs files with owners and groups of their own "
					 "beside each other (chown to any id)",
		[VT_FSNEED_OPTION_OWNERS] = "it is about owners that come from mount options "
					  "(uid=, gid=, masks)",
		[VT_FSNEED_IMAGE_TREE] = "it reads the tree baked into a read-only image "
				       "(lib/world/ro_image.c)",
	};
	const char *has, *cite = r->why;

	switch (r->owner) {
	case VT_OWNER_INODE:
		if (need == VT_FSNEED_OWNED_WORLDS || need == VT_FSNEED_INODE_OWNERS)
			return NULL;
		has = "stores the owners in each inode";
		cite = "inode_init_owner, then chown through ->setattr: setattr_copy";
		break;
	case VT_OWNER_MOUNT_OPTIONS:
		if (need == VT_FSNEED_OPTION_OWNERS)
			return NULL;
		if (need == VT_FSNEED_OWNED_WORLDS) {
			if (r->option_worlds)
				return NULL;
			/* the suite's gap, not the filesystem's: a real notrun */
			return vt_fs_no_owner_worlds(r->name);
		}
		has = "gives every file the mount's uid= and gid= as owner and group";
		break;
	default:
		if (need == VT_FSNEED_IMAGE_TREE)
			return NULL;
		has = "is a read-only image: every write is EROFS (sb_rdonly), owners and modes "
		      "are baked in";
		break;
	}
	snprintf(buf, len, VT_FS_SCOPE_PREFIX "%s: %s; %s %s (%s; lib/fs/fs_table.c)",
		 r->name, wanted[need], r->name, has, cite);
	return buf;
}

const char *vt_fs_unmet(const char *fstype, const struct vt_fs_needs *needs, char *buf,
			size_t len)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);
	const char *why;

	if (!r)
		return NULL;
	why = owner_unmet(r, needs->owners, buf, len);
	if (why)
		return why;
	if ((r->supports & needs->features) != needs->features)
		return vt_fs_lack_why(fstype, needs->features & ~r->supports, buf, len);
	return NULL;
}
