/* A toy row of the filesystem table, for unit/test-toy-fs-record.sh only:
 * unit/toy-fs-tool is runner/vfsidmap-tool built with it appended to the
 * table (-DVT_FS_EXTRA_ROWS, lib/fs/fs_table.c). Its name is the fstype
 * of mount(2), as every row's is, and no kernel has a "toyfs": the test
 * asks only what the suite makes of the record (dry runs, lists), never
 * mounts it. Every field is set to a value no real row has, so that a
 * consumer that kept a list of its own would not print it. */
{
	.name = "toyfs",
	.make = VT_FS_MKFS, .mkfs = "mkfs.toyfs", .mkfs_args = "-q", .image_mib = 64,
	.owner = VT_OWNER_INODE, .option_worlds = false,
	.supports = VT_FSF_WRITE | VT_FSF_HARDLINK,
	.read_only = false, .mount_variants = "",
	.package = "toyfs-progs", .kconfig = "CONFIG_TOYFS_FS", .modules = "toyfs",
	.kernel_source = "fs/toyfs",
	.why = "a toy record (unit/toy-fs-row.h)",
	.fsck = "fsck.toyfs -n %D", .fsck_own_image = "", .fsck_quiet = "^toyfs clean$",
	.no_fsck = "",
	.fails_anyway = (const struct vt_fs_fails_anyway[]){
		{ VT_FSF_SYMLINK, EROFS, "toyfs_symlink: EROFS (a toy rule)" },
		{ 0, 0, NULL },
	},
	.lists_raw_acl = true,
	.runs_on = VT_FS_ON_GUEST, .default_run = true,
	.kconfig_also = "CONFIG_TOYFS_POSIX_ACL",
},
