#include "simple_ops.h"

#include "util/syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int vt_op_create(void *path, void *data, size_t len)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int vt_op_mkdir(void *path, void *data, size_t len)
{
	return mkdir(path, 0755) < 0 ? errno : 0;
}

int vt_op_mkfifo(void *path, void *data, size_t len)
{
	return mknod(path, S_IFIFO | 0644, 0) < 0 ? errno : 0;
}

int vt_op_symlink(void *path, void *data, size_t len)
{
	return symlink("target", path) < 0 ? errno : 0;
}

int vt_op_chown(void *arg, void *data, size_t len)
{
	const struct vt_chown_arg *a = arg;

	(void)data;
	(void)len;
	return chown(a->path, a->uid, a->gid) < 0 ? errno : 0;
}

static unsigned int read_sysctl(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned int v = 65534;

	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 65534;
		fclose(f);
	}
	return v;
}

uid_t vt_overflowuid(void)
{
	return (uid_t)read_sysctl("/proc/sys/kernel/overflowuid");
}

gid_t vt_overflowgid(void)
{
	return (gid_t)read_sysctl("/proc/sys/kernel/overflowgid");
}

const char *vt_require_open_tree_attr(const char *fstype, const char *dir)
{
	int fd = vt_open_tree_attr(AT_FDCWD, dir, VT_OPEN_TREE_CLONE | O_CLOEXEC, NULL, 0);

	(void)fstype;
	if (fd >= 0) {
		close(fd);
		return NULL;
	}
	if (errno == ENOSYS)
		return "open_tree_attr() is not implemented by this kernel (ENOSYS; added in 6.15)";
	return NULL;
}
