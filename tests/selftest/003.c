/* selftest/003: a test program that leaves a mount and a loop device behind.
 *
 * It makes an ext4 image in TEST_DIR, attaches a loop device WITHOUT
 * autoclear, mounts it below TEST_DIR and exits "passing". The harness
 * must remove both and turn the verdict into a failure that names them. */
#include "world/fsimage.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	/* one unnamed run, no cases to list (./check --list-cases, --case) */
	if (argc > 1 && strcmp(argv[1], "--list-cases") == 0)
		return 0;
	const char *dir = getenv("TEST_DIR");
	char img[4096], sub[4096], dev[64];
	struct loop_info64 info;
	int loop;

	if (!dir)
		return 4;
	snprintf(img, sizeof(img), "%s/leak.img", dir);
	snprintf(sub, sizeof(sub), "%s/leak", dir);
	printf("KTAP version 1\n1..1\n");
	if (vt_image_create(img, "ext4", 32 << 20, NULL, -1) < 0 || mkdir(sub, 0755) < 0) {
		printf("1..0 # SKIP cannot make an ext4 image here\n");
		return 4;
	}
	loop = vt_loop_attach(img, dev, sizeof(dev));
	if (loop < 0)
		return 1;
	/* drop the autoclear flag the library sets: this loop device leaks */
	ioctl(loop, LOOP_GET_STATUS64, &info);
	info.lo_flags &= ~(unsigned)LO_FLAGS_AUTOCLEAR;
	ioctl(loop, LOOP_SET_STATUS64, &info);
	if (mount(dev, sub, "ext4", 0, NULL) < 0)
		return 1;
	printf("# left %s attached and mounted on %s\nok 1 leak-on-purpose\n", dev, sub);
	return 0;
}
