/* Worlds from mount options (see optowner_world.h). */
#include "fs/fs_table.h"
#include "world/optowner_world.h"
#include "world/fsimage.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* Big enough for the directories a world holds; mkfs.vfat picks the FAT
 * type, mkfs.exfat (exfatprogs 1.2) takes it. Sparse on tmpfs: only what
 * mkfs and the files write costs. */
#define WORLD_IMAGE_SIZE ((off_t)8 << 20)

void vt_optowner_options(char *buf, size_t len, uid_t uid, gid_t gid, mode_t dmode, mode_t fmode,
		     const char *extra)
{
	/* uid=/gid= are parsed as ids of the mounter's namespace
	 * (fat_parse_param, exfat_parse_param: fsparam_uid ->
	 * make_kuid(current_user_ns())); the masks clear bits of S_IRWXUGO
	 * (fat_make_mode, exfat_make_mode) */
	snprintf(buf, len, "uid=%u,gid=%u,dmask=%04o,fmask=%04o%s%s", (unsigned)uid, (unsigned)gid,
		 (unsigned)(~dmode & 0777), (unsigned)(~fmode & 0777), extra && *extra ? "," : "",
		 extra && *extra ? extra : "");
}

int vt_optowner_image_dir(const char *dir)
{
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	return mount("vt-optowner-images", dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700") < 0
		       ? -errno
		       : 0;
}

int vt_optowner_mount_new(const char *imgdir, const char *name, const char *fstype,
			  const char *options, const char *target, const char **what)
{
	char img[4200];
	int ret;

	snprintf(img, sizeof(img), "%s/%s.img", imgdir, name);
	*what = vt_fs_row(fstype) && vt_fs_row(fstype)->mkfs ? vt_fs_row(fstype)->mkfs : "mkfs";
	ret = vt_image_create(img, fstype, WORLD_IMAGE_SIZE, NULL, -1);
	if (ret < 0)
		return ret;
	*what = "mkdir";
	if (mkdir(target, 0755) < 0 && errno != EEXIST) {
		ret = -errno;
		unlink(img);
		return ret;
	}
	*what = "mount";
	ret = vt_fs_mount(fstype, img, target, options);
	/* the loop device holds the file: its name is not needed any more */
	unlink(img);
	return ret;
}
