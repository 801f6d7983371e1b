#include "fs_features.h"

#include "xattr_view.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

static int scratch_file(const char *dir, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/.vfsidmap-probe.%d", dir, (int)getpid());
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int vt_probe_posix_acl(const char *dir)
{
	char path[4200];
	int ret = scratch_file(dir, path, sizeof(path));

	if (ret < 0)
		return ret;
	ret = vt_acl_write_text(path, false, "u::rw-,u:4242:r--,g::r--,m::r--,o::---");
	unlink(path);
	return ret;
}

int vt_probe_xattr(const char *dir, const char *prefix)
{
	char path[4200], name[64];
	int ret = scratch_file(dir, path, sizeof(path));

	if (ret < 0)
		return ret;
	snprintf(name, sizeof(name), "%svfsidmap_probe", prefix);
	ret = lsetxattr(path, name, "1", 1, 0) < 0 ? -errno : 0;
	unlink(path);
	return ret;
}

int vt_probe_owner_storage(const char *dir)
{
	char path[4200];
	struct stat st;
	int ret = scratch_file(dir, path, sizeof(path));

	if (ret < 0)
		return ret;
	if (lchown(path, 1000, 1000) < 0)
		ret = -errno;
	else if (lstat(path, &st) < 0)
		ret = -errno;
	else if (st.st_uid != 1000 || st.st_gid != 1000)
		ret = -EOPNOTSUPP;
	unlink(path);
	return ret;
}
