/* The filesystem table (fs_table.h). Each row's facts come from the
 * filesystem's own code in Linux 6.12 (the functions named in .why); a
 * feature is listed only where the inode operations implement it. */
#include "fs/fs_table.h"

#include <stdio.h>
#include <string.h>

#define ALL_POSIX (VT_FSF_SYMLINK | VT_FSF_DEVNODE | VT_FSF_HARDLINK | VT_FSF_SETID | \
		   VT_FSF_STICKY)
#define ALL_XATTR (VT_FSF_XATTR_USER | VT_FSF_XATTR_TRUSTED | VT_FSF_XATTR_SECURITY)

const struct vt_fs_row vt_fs_table[] = {
	{ "ext4", VT_FS_MKFS, "mkfs.ext4", "-q -F", 256, VT_OWNER_INODE,
	  ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR | VT_FSF_POSIX_ACL |
	  VT_FSF_FILEATTR, false, "", "e2fsprogs", "CONFIG_EXT4_FS", "ext4", "fs/ext4",
	  "ext4_tmpfile, ext4_rename2 (RENAME_WHITEOUT), ext4_xattr_*_handler, "
	  "ext4_set_acl, ext4_fileattr_set", false },
	/* mkfs.xfs wants 300 MiB since xfsprogs 5.19 */
	{ "xfs", VT_FS_MKFS, "mkfs.xfs", "-q -f", 512, VT_OWNER_INODE,
	  ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR | VT_FSF_POSIX_ACL |
	  VT_FSF_FILEATTR, false, "", "xfsprogs", "CONFIG_XFS_FS", "xfs", "fs/xfs",
	  "xfs_vn_tmpfile, xfs_vn_rename (RENAME_WHITEOUT), xfs_xattr_handlers, xfs_set_acl, "
	  "xfs_fileattr_set", false },
	/* mkfs.btrfs refuses images under ~114 MiB */
	{ "btrfs", VT_FS_MKFS, "mkfs.btrfs", "-q -f", 512, VT_OWNER_INODE,
	  ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR | VT_FSF_POSIX_ACL |
	  VT_FSF_FILEATTR, false, "", "btrfs-progs", "CONFIG_BTRFS_FS", "btrfs", "fs/btrfs",
	  "btrfs_tmpfile, btrfs_rename2 (RENAME_WHITEOUT), btrfs_xattr_handlers, btrfs_set_acl, "
	  "btrfs_fileattr_set", false },
	{ "tmpfs", VT_FS_MOUNT_ONLY, "", "", 0, VT_OWNER_INODE,
	  ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR | VT_FSF_POSIX_ACL |
	  VT_FSF_FILEATTR, false, "", "", "CONFIG_TMPFS", "", "mm/shmem.c",
	  "shmem_tmpfile, shmem_rename2 (RENAME_WHITEOUT), shmem_xattr_handlers (user. since "
	  "6.6), simple_set_acl, shmem_fileattr_set", false },
	/* fat_setattr: chown only to the mount's uid=/gid=; no ->symlink,
	 * ->mknod, ->link, ->tmpfile, no xattr handlers; fat_sanitize_mode_change
	 * keeps only the permission bits the masks allow */
	{ "vfat", VT_FS_MKFS, "mkfs.vfat", "", 256, VT_OWNER_MOUNT_OPTIONS, 0, false,
	  "uid=,gid=,fmask=,dmask=", "dosfstools", "CONFIG_VFAT_FS",
	  "vfat fat nls_cp437 nls_ascii nls_utf8", "fs/fat",
	  "vfat_dir_inode_operations (create, mkdir, rename, unlink, rmdir only), fat_setattr, "
	  "fat_allow_set_time, fat_fill_inode (owner from the options)", true },
	/* the same fat_setattr; msdos_dir_inode_operations: 8.3 names */
	{ "msdos", VT_FS_MKFS, "mkfs.vfat", "", 256, VT_OWNER_MOUNT_OPTIONS, 0, false,
	  "uid=,gid=,fmask=,dmask=", "dosfstools", "CONFIG_MSDOS_FS", "msdos fat", "fs/fat",
	  "msdos_dir_inode_operations (create, mkdir, rename, unlink, rmdir only), fat_setattr, "
	  "msdos_format_name (8.3 names)", true },
	{ "exfat", VT_FS_MKFS, "mkfs.exfat", "", 256, VT_OWNER_MOUNT_OPTIONS, 0, false,
	  "uid=,gid=,fmask=,dmask=,allow_utime=", "exfatprogs", "CONFIG_EXFAT_FS", "exfat",
	  "fs/exfat",
	  "exfat_dir_inode_operations (create, mkdir, rename, unlink, rmdir only), exfat_setattr "
	  "(chown only to the mount's ids), exfat_allow_set_time, exfat_fill_inode", true },
	{ "f2fs", VT_FS_MKFS, "mkfs.f2fs", "-q -f", 256, VT_OWNER_INODE,
	  ALL_POSIX | VT_FSF_TMPFILE | VT_FSF_WHITEOUT | ALL_XATTR | VT_FSF_POSIX_ACL |
	  VT_FSF_FILEATTR, false, "", "f2fs-tools", "CONFIG_F2FS_FS", "f2fs", "fs/f2fs",
	  "f2fs_setattr, f2fs_tmpfile, f2fs_rename2 (RENAME_WHITEOUT), f2fs_xattr_handlers, "
	  "f2fs_set_acl (its own ACL code), f2fs_fileattr_set", false },
	{ "ntfs3", VT_FS_MKFS, "mkfs.ntfs", "-Q -F", 256, VT_OWNER_INODE,
	  VT_FSF_SYMLINK | VT_FSF_DEVNODE | VT_FSF_HARDLINK | VT_FSF_SETID | VT_FSF_STICKY |
	  ALL_XATTR | VT_FSF_POSIX_ACL | VT_FSF_FILEATTR, false, "acl;uid=,gid=,umask=",
	  "ntfs-3g", "CONFIG_NTFS3_FS", "ntfs3", "fs/ntfs3",
	  "ntfs_setattr, ntfs_save_wsl_perm/ntfs_get_wsl_perm ($LXUID/$LXGID/$LXMOD EAs), "
	  "ntfs_xattr_handler, ntfs_set_acl (mount option acl), ntfs_fileattr_set, ntfs_rename (RENAME_NOREPLACE only)", false },
	/* hugetlbfs_dir_inode_operations: simple_link, simple_rename (no
	 * RENAME_WHITEOUT), no xattr handlers, no ACLs; the root's owner
	 * from uid=/gid=/mode=, other inodes from their creator */
	{ "hugetlbfs", VT_FS_MOUNT_ONLY, "", "", 0, VT_OWNER_INODE,
	  ALL_POSIX | VT_FSF_TMPFILE, false, "uid=,gid=,mode=", "", "CONFIG_HUGETLBFS", "",
	  "fs/hugetlbfs",
	  "hugetlbfs_dir_inode_operations (symlink, mknod, tmpfile, simple_link, simple_rename), "
	  "hugetlbfs_setattr, hugetlbfs_get_inode", false },
	/* Read-only images, made by their mkfs from the tree ro_image.c
	 * stages; owners, modes and xattrs are the staged ones. erofs:
	 * erofs_fc_fill_super sets SB_RDONLY, SB_POSIXACL (erofs_get_acl);
	 * erofs_xattr_handlers: user, trusted, security; fs_flags
	 * FS_ALLOW_IDMAP. mkfs.erofs IMAGE DIR (%I, %S: ro_image.c). */
	{ "erofs", VT_FS_IMAGE, "mkfs.erofs", "--quiet %I %S", 0, VT_OWNER_IMAGE,
	  VT_FSF_SYMLINK | VT_FSF_DEVNODE | VT_FSF_HARDLINK | VT_FSF_SETID | VT_FSF_STICKY |
	  ALL_XATTR | VT_FSF_POSIX_ACL, true, "", "erofs-utils", "CONFIG_EROFS_FS", "erofs",
	  "fs/erofs",
	  "erofs_fc_fill_super (SB_RDONLY, SB_POSIXACL), erofs_xattr_handlers, erofs_get_acl, "
	  "erofs_fs_type (FS_ALLOW_IDMAP)", false },
	/* squashfs: squashfs_fill_super sets SB_RDONLY and no SB_POSIXACL;
	 * squashfs_xattr_handlers are user, trusted, security only, and no
	 * inode operations have ->get_inode_acl (fs/squashfs/xattr.c), so
	 * POSIX ACLs are not there (__get_acl: !IS_POSIXACL -> EOPNOTSUPP).
	 * mksquashfs DIR IMAGE -noappend; xattrs are kept by default. */
	{ "squashfs", VT_FS_IMAGE, "mksquashfs", "%S %I -noappend -no-progress -quiet", 0,
	  VT_OWNER_IMAGE,
	  VT_FSF_SYMLINK | VT_FSF_DEVNODE | VT_FSF_HARDLINK | VT_FSF_SETID | VT_FSF_STICKY |
	  ALL_XATTR, true, "", "squashfs-tools", "CONFIG_SQUASHFS", "squashfs", "fs/squashfs",
	  "squashfs_fill_super (SB_RDONLY), squashfs_xattr_handlers (user, trusted, security), "
	  "squashfs_fs_type (FS_ALLOW_IDMAP)", false },
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

const char *vt_fs_feature_name(unsigned int bit)
{
	static const char *const names[VT_FSF__COUNT] = {
		"symlink", "devnode", "hardlink", "tmpfile", "whiteout", "xattr_user",
		"xattr_trusted", "xattr_security", "posix_acl", "setid", "sticky", "fileattr",
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
		snprintf(why, sizeof(why), "%s is a read-only image: owners, modes and xattrs are "
			 "baked in when the suite makes it (lib/world/ro_image.c); every write is "
			 "EROFS (sb_rdonly)", r->name);
		return why;
	}
	snprintf(why, sizeof(why), "owners on %s come from its mount options (%s; %s), and the "
		 "suite has no operations of its own for it in lib/model/optowner_rules.c", r->name,
		 r->mount_variants, r->kernel_source);
	return why;
}
