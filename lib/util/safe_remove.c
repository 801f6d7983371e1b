#include "safe_remove.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* include/uapi/linux/openat2.h */
struct vt_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};
#define VT_RESOLVE_NO_XDEV 0x01
#define VT_RESOLVE_NO_SYMLINKS 0x04
#define VT_RESOLVE_BENEATH 0x08
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* Opens directory NAME right below DFD, or fails (ENOTDIR, ELOOP, EXDEV). */
static int open_beneath(int dfd, const char *name, dev_t dev)
{
	struct vt_open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = VT_RESOLVE_BENEATH | VT_RESOLVE_NO_XDEV | VT_RESOLVE_NO_SYMLINKS,
	};
	struct stat st;
	int fd = (int)syscall(SYS_openat2, dfd, name, &how, sizeof(how));

	if (fd >= 0 || errno != ENOSYS)
		return fd;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_dev != dev)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

static int remove_contents(int dfd, dev_t dev)
{
	int first_err = 0, fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while ((e = readdir(d))) {
		int sub;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dfd, e->d_name, 0) == 0)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			if (!first_err)
				first_err = -errno;
			continue;
		}
		sub = open_beneath(dfd, e->d_name, dev);
		if (sub < 0) {
			if (!first_err)
				first_err = -errno;
			continue; /* a symlink we will not follow, or a mount point */
		}
		remove_contents(sub, dev);
		close(sub);
		if (unlinkat(dfd, e->d_name, AT_REMOVEDIR) < 0 && !first_err)
			first_err = -errno;
	}
	closedir(d);
	return first_err;
}

int vt_safe_remove_tree(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = remove_contents(fd, st.st_dev);
	close(fd);
	if (rmdir(path) < 0 && !ret)
		ret = -errno;
	return ret;
}
