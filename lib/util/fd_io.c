/* Whole-buffer reads and writes (fd_io.h). */
#include "util/fd_io.h"

#include <errno.h>
#include <unistd.h>

static bool whole(int fd, char *p, size_t len, bool out)
{
	while (len) {
		ssize_t n = out ? write(fd, p, len) : read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

bool vt_write_full(int fd, const void *buf, size_t len)
{
	return whole(fd, (char *)buf, len, true);
}

bool vt_read_full(int fd, void *buf, size_t len)
{
	return whole(fd, buf, len, false);
}
