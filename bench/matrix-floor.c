/* bench/matrix-floor: the cost floor of a matrix case, for bench/matrix.
 *
 * Per iteration exactly what a matrix case cannot avoid, without the
 * model, fixtures or comparison: fork, assume a caller's credentials
 * (join a user namespace, setgroups/setresgid/setresuid, capabilities,
 * umask: vt_run_as), and one system call (open(O_CREAT) through an
 * idmapped mount), then unlink the file. Usage (under vfsidmap-exec, which
 * sets TEST_DIR): matrix-floor N. Prints "floor N cases in S seconds". */
#include "world/caller.h"
#include "world/idmapped_mount.h"
#include "world/userns.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int create(void *arg, void *data, size_t len)
{
	int fd = open(arg, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);

	(void)data;
	(void)len;
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *test_dir = getenv("TEST_DIR");
	char disk[4096], mnt[4096], path[4200], ondisk[4200];
	struct vt_caller c = vt_caller_root();
	struct timespec t0, t1;
	long n = argc > 1 ? atol(argv[1]) : 1000, i;
	int ufd, cfd;

	if (!test_dir) {
		fprintf(stderr, "matrix-floor: TEST_DIR not set (run under vfsidmap-exec)\n");
		return 2;
	}
	snprintf(disk, sizeof(disk), "%s/floor-disk", test_dir);
	snprintf(mnt, sizeof(mnt), "%s/floor-mnt", test_dir);
	mkdir(disk, 0777);
	chmod(disk, 0777);
	mkdir(mnt, 0755);
	ufd = vt_userns_from_spec(-1, "b:0:10000:65536");
	cfd = vt_userns_from_spec(-1, "b:0:10000:65536");
	if (ufd < 0 || cfd < 0 || vt_idmapped_mount(disk, mnt, ufd, false) < 0) {
		fprintf(stderr, "matrix-floor: setup failed\n");
		return 2;
	}
	c.userns_fd = cfd;
	c.umask = 022;
	c.set_umask = true;
	snprintf(path, sizeof(path), "%s/f", mnt);
	snprintf(ondisk, sizeof(ondisk), "%s/f", disk);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		struct vt_run r = vt_run_as(&c, create, path, NULL, 0);

		if (r.status != VT_RAN || r.ret) {
			fprintf(stderr, "matrix-floor: iteration %ld failed: %s %d\n", i, r.msg, r.ret);
			return 1;
		}
		unlink(ondisk);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("floor %ld cases in %.3f seconds\n", n,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	umount2(mnt, MNT_DETACH);
	return 0;
}
