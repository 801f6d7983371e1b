/* vfat worlds: vfat stores no owners, so a world whose files must be owned
 * by U:G with modes D (directories) and F (files) is a fresh vfat image of
 * the suite's own, mounted with uid=U,gid=G,dmask=~D,fmask=~F (fs/fat/inode.c:
 * fat_fill_inode takes the owner from the options, fat_make_mode the mode
 * from the masks). Images are sparse files on a private tmpfs, never on
 * the filesystem under test; each is attached to an autoclear loop device,
 * mounted, and its name removed, so unmounting it is the whole cleanup. */
#ifndef VT_VFAT_WORLD_H
#define VT_VFAT_WORLD_H

#include <stddef.h>
#include <sys/types.h>

/* Mount options for vfat inodes owned UID:GID with directory mode DMODE
 * and file mode FMODE (permission bits), then EXTRA (NULL: none). */
void vt_vfat_options(char *buf, size_t len, uid_t uid, gid_t gid, mode_t dmode, mode_t fmode,
		     const char *extra);

/* A tmpfs at DIR (created 0700 if absent) to hold images. 0 or -errno. */
int vt_vfat_image_dir(const char *dir);

/* A new vfat image IMGDIR/NAME.img (mkfs.vfat), mounted at TARGET (created
 * 0755 if absent) with OPTIONS. 0 or -errno, with the failing step in
 * *WHAT (-ENOEXEC: mkfs.vfat failed or is missing). */
int vt_vfat_mount_new(const char *imgdir, const char *name, const char *options,
		      const char *target, const char **what);

#endif
