/* Whole-buffer writes (fd_io.h). */
#include "util/fd_io.h"

#include <errno.h>
#include <unistd.h>

bool vt_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}
