#include "util/exchange.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1) /* include/uapi/linux/fs.h */
#endif

static int parent_of(const char *path, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s", path) >= (int)len)
		return -ENAMETOOLONG;
	memmove(buf, dirname(buf), strlen(dirname(buf)) + 1);
	return 0;
}

int vt_exchange_dirs(const char *a, const char *b)
{
	char pa[PATH_MAX], pb[PATH_MAX];
	struct stat sa, sb;
	int fd, ret;

	if (lstat(a, &sa) < 0 || lstat(b, &sb) < 0)
		return -errno;
	/* Two directories only: the results directory is never swapped with
	 * a file or a symlink someone put in its place. */
	if (!S_ISDIR(sa.st_mode) || !S_ISDIR(sb.st_mode))
		return -ENOTDIR;
	if ((ret = parent_of(a, pa, sizeof(pa))) < 0 || (ret = parent_of(b, pb, sizeof(pb))) < 0)
		return ret;
	/* Same parent: one directory entry pair changes, one fsync makes it
	 * durable. */
	if (strcmp(pa, pb) != 0)
		return -EXDEV;
	if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) < 0)
		return -errno;
	fd = open(pa, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return VT_EXCHANGED_NOT_DURABLE;
	ret = fsync(fd) < 0 ? VT_EXCHANGED_NOT_DURABLE : 0;
	if (ret) {
		int e = errno;
		close(fd);
		errno = e;
		return ret;
	}
	close(fd);
	return 0;
}
