/* Worlds of a filesystem whose owners come from the mount options (the
 * filesystem table's VT_OWNER_MOUNT_OPTIONS rows: vfat, msdos, exfat). It
 * stores no owners, so a world whose files must be owned by U:G with modes
 * D (directories) and F (files) is a fresh image of the suite's own,
 * mounted with uid=U,gid=G,dmask=~D,fmask=~F (fat_fill_inode,
 * exfat_fill_inode take the owner from the options; fat_make_mode,
 * exfat_make_mode the mode from the masks). Images are sparse files on a
 * private tmpfs, never on the filesystem under test, made by the table's
 * mkfs; each is attached to an autoclear loop device, mounted, and its
 * name removed, so unmounting it is the whole cleanup. */
#ifndef VT_OPTOWNER_WORLD_H
#define VT_OPTOWNER_WORLD_H

#include <stddef.h>
#include <sys/types.h>

/* Mount options for inodes owned UID:GID with directory mode DMODE and
 * file mode FMODE (permission bits), then EXTRA (NULL: none). The same
 * for fat and exfat (fat_param_spec, exfat_param_specs). */
void vt_optowner_options(char *buf, size_t len, uid_t uid, gid_t gid, mode_t dmode, mode_t fmode,
			 const char *extra);

/* A tmpfs at DIR (created 0700 if absent) to hold images. 0 or -errno. */
int vt_optowner_image_dir(const char *dir);

/* A new image IMGDIR/NAME.img of FSTYPE (its mkfs from the filesystem
 * table), mounted at TARGET (created 0755 if absent) with OPTIONS. 0 or
 * -errno, with the failing step in *WHAT (-ENOEXEC: mkfs failed or is
 * missing). */
int vt_optowner_mount_new(const char *imgdir, const char *name, const char *fstype,
			  const char *options, const char *target, const char **what);

#endif
