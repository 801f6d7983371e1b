#include "idmapped_mount.h"

#include "userns.h"
#include "util/syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int vt_idmapped_tree(const char *source, int userns_fd, bool recursive)
{
	struct vt_mount_attr attr = {
		.attr_set = VT_MOUNT_ATTR_IDMAP,
		.userns_fd = (uint64_t)userns_fd,
	};
	unsigned int flags = VT_OPEN_TREE_CLONE | O_CLOEXEC | (recursive ? AT_RECURSIVE : 0);
	int fd, ret;

	fd = vt_open_tree(AT_FDCWD, source, flags);
	if (fd < 0)
		return -errno;
	ret = vt_mount_setattr(fd, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &attr,
			       sizeof(attr));
	if (ret < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

int vt_idmapped_mount(const char *source, const char *target, int userns_fd, bool recursive)
{
	int fd = vt_idmapped_tree(source, userns_fd, recursive), ret = 0;

	if (fd < 0)
		return fd;
	if (vt_move_mount(fd, "", AT_FDCWD, target, VT_MOVE_MOUNT_F_EMPTY_PATH) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int vt_idmapped_mount_spec(const char *source, const char *target, const char *spec,
			   bool recursive)
{
	int ns = vt_userns_from_spec(-1, spec), ret;

	if (ns < 0)
		return ns;
	ret = vt_idmapped_mount(source, target, ns, recursive);
	close(ns);
	return ret;
}

int vt_probe_idmap_support(const char *path)
{
	int ns = vt_userns_from_spec(-1, "b:0:10000:1"), fd;

	if (ns < 0)
		return ns;
	fd = vt_idmapped_tree(path, ns, false);
	close(ns);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
