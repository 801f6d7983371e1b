/* selftest/004: a test whose cases misbehave on purpose, through the test library.
 *
 * fails-on-purpose fails (its replay line must run it again, alone);
 * kernel-warning passes but writes a line "WARNING: ..." into the kernel
 * log (/dev/kmsg) as a kernel warning would appear there: the harness
 * must find it between its markers and fail the test with the line. The
 * line carries the run's tag (VT_KMSG_TAG), so that a concurrent run of
 * the suite can tell it is not its own. */
#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fails_on_purpose(struct vt_ctx *ctx)
{
	vt_fail(ctx, "fails on purpose (harness self-test)");
}

static void kernel_warning(struct vt_ctx *ctx)
{
	const char *tag = getenv("VT_KMSG_TAG");
	char line[600];
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	int len;

	if (fd < 0)
		VT_SKIP(ctx, "cannot open /dev/kmsg for writing: %s", vt_errname(errno));
	len = snprintf(line, sizeof(line), "WARNING: vfsidmap-selftest fake warning (run %s)\n",
		       tag && *tag ? tag : "untagged");
	if (write(fd, line, (size_t)len) != len)
		vt_fail(ctx, "setup: writing to /dev/kmsg failed: %s", vt_errname(errno));
	close(fd);
}

static const struct vt_case cases[] = {
	{ "fails-on-purpose", fails_on_purpose },
	{ "kernel-warning", kernel_warning },
	{ NULL, NULL },
};

static const struct vt_test test = {
	.cases = cases,
	.no_idmap_probe = true,
};

int main(int argc, char **argv)
{
	return vt_test_main(&test, argc, argv);
}
