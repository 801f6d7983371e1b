#include "fsimage.h"
#include "fs/fs_table.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* What is known of a filesystem is its row in lib/fs/fs_table.c. */
bool vt_fstype_known(const char *fstype)
{
	return vt_fs_row(fstype) != NULL;
}

bool vt_fstype_needs_device(const char *fstype)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);

	return !r || r->make != VT_FS_MOUNT_ONLY;
}

static bool in_proc_filesystems(const char *fstype)
{
	FILE *f = fopen("/proc/filesystems", "re");
	char line[128];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = strrchr(line, '\t');
		name = name ? name + 1 : line;
		name[strcspn(name, "\n")] = '\0';
		found = strcmp(name, fstype) == 0;
	}
	fclose(f);
	return found;
}

int vt_run_program(char *const argv[], int log_fd)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status, ret;

	posix_spawn_file_actions_init(&fa);
	if (log_fd >= 0) {
		posix_spawn_file_actions_adddup2(&fa, log_fd, 1);
		posix_spawn_file_actions_adddup2(&fa, log_fd, 2);
	} else {
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	}
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	ret = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		return -ret;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ENOEXEC;
}

bool vt_program_in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char f[4096];

	for (p = path ? path : "/usr/sbin:/usr/bin:/sbin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		snprintf(f, sizeof(f), "%.*s/%s", (int)(end - p), p, prog);
		if (access(f, X_OK) == 0)
			return true;
	}
	return false;
}

bool vt_fstype_in_kernel(const char *fstype)
{
	char *argv[] = { "modprobe", "-q", (char *)fstype, NULL };

	if (in_proc_filesystems(fstype))
		return true;
	vt_run_program(argv, -1); /* may be built in, absent, or a module */
	return in_proc_filesystems(fstype);
}

off_t vt_image_default_size(const char *fstype)
{
	/* sparse files cost nothing until written; the row says what its
	 * mkfs accepts */
	const struct vt_fs_row *r = vt_fs_row(fstype);

	return (off_t)(r && r->image_mib ? r->image_mib : 256) << 20;
}

/* Room left beside a nested image for the files its test writes next to
 * it (a few directories and files in each case's directory). */
#define NESTED_IMAGE_MARGIN ((off_t)4 << 20)

int vt_image_size_within(const char *fstype, const char *dir, off_t *size)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);
	off_t want = vt_image_default_size(fstype), room;
	struct statvfs sv;

	if (statvfs(dir, &sv) < 0)
		return -errno;
	room = (off_t)sv.f_bavail * (off_t)sv.f_frsize - NESTED_IMAGE_MARGIN;
	room = room > 0 ? room & ~(((off_t)1 << 20) - 1) : 0;	/* whole MiB */
	*size = want < room ? want : room;
	if (r && *size < ((off_t)r->image_min_mib << 20))
		return -ENOSPC;
	if (*size <= 0)
		return -ENOSPC;
	return 0;
}

int vt_mkfs(const char *dev, const char *fstype, const char *mkfs_options, int log_fd)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);
	char *argv[64];
	char *opts = NULL, *save = NULL, *tok;
	int argc = 0, ret;

	if (!r || r->make != VT_FS_MKFS)
		return -EINVAL;
	/* the row's own options, then the user's (MKFS_OPTIONS) */
	if (asprintf(&opts, "%s %s", r->mkfs_args, mkfs_options ? mkfs_options : "") < 0)
		return -ENOMEM;
	argv[argc++] = (char *)r->mkfs;
	for (tok = strtok_r(opts, " \t", &save); tok && argc < 60; tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	argv[argc++] = (char *)dev;
	argv[argc] = NULL;
	ret = vt_run_program(argv, log_fd);
	free(opts);
	return ret;
}

int vt_image_create(const char *path, const char *fstype, off_t size, const char *mkfs_options,
		    int log_fd)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600), ret;

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, size) < 0) {
		ret = -errno;
		close(fd);
		unlink(path);
		return ret;
	}
	close(fd);
	ret = vt_mkfs(path, fstype, mkfs_options, log_fd);
	if (ret)
		unlink(path);
	return ret;
}

int vt_loop_attach(const char *image, char *dev, size_t devlen)
{
	struct loop_config cfg;
	int ctl, img, loop = -1, nr, tries, ret = -EBUSY;

	img = open(image, O_RDWR | O_CLOEXEC);
	if (img < 0)
		return -errno;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		ret = -errno;
		close(img);
		return ret;
	}
	/* Another process may grab the free device between GET_FREE and
	 * CONFIGURE: retry on EBUSY. */
	for (tries = 0; tries < 32; tries++) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			ret = -errno;
			break;
		}
		snprintf(dev, devlen, "/dev/loop%d", nr);
		loop = open(dev, O_RDWR | O_CLOEXEC);
		if (loop < 0) {
			ret = -errno;
			if (ret == -ENOENT)
				continue;
			break;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned int)img;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		strncpy((char *)cfg.info.lo_file_name, image, LO_NAME_SIZE - 1);
		if (ioctl(loop, LOOP_CONFIGURE, &cfg) == 0) {
			ret = loop;
			break;
		}
		ret = -errno;
		close(loop);
		loop = -1;
		if (ret != -EBUSY)
			break;
	}
	close(ctl);
	close(img);
	return ret;
}

int vt_fs_mount(const char *fstype, const char *source, const char *target,
		const char *options)
{
	char dev[64];
	struct stat st;
	int loop = -1, ret = 0;

	if (!vt_fstype_needs_device(fstype))
		return mount(fstype, target, fstype, 0, options) < 0 ? -errno : 0;
	if (stat(source, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode)) {
		loop = vt_loop_attach(source, dev, sizeof(dev));
		if (loop < 0)
			return loop;
		source = dev;
	} else if (!S_ISBLK(st.st_mode)) {
		return -ENOTBLK;
	}
	if (mount(source, target, fstype, 0, options) < 0)
		ret = -errno;
	/* The mount now holds the device; closing our fd lets autoclear
	 * detach it as soon as the mount goes away. */
	if (loop >= 0)
		close(loop);
	return ret;
}
