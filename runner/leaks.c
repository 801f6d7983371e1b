#include "leaks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

static void add(char *report, size_t len, const char *what, const char *note)
{
	size_t off = strlen(report);

	if (off < len)
		snprintf(report + off, len - off, "%s%s ", what, note);
}

static int reap_mounts(const char *mnt, char *report, size_t len)
{
	char line[8192], found[32][1024];
	size_t mlen = strlen(mnt);
	int n = 0, i;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return 0;
	while (n < 32 && fgets(line, sizeof(line), f)) {
		char target[4096];
		if (sscanf(line, "%*d %*d %*s %*s %4095s", target) == 1 &&
		    strncmp(target, mnt, mlen) == 0 && target[mlen] == '/')
			snprintf(found[n++], sizeof(found[0]), "%s", target);
	}
	fclose(f);
	for (i = n - 1; i >= 0; i--) {
		umount2(found[i], MNT_DETACH);
		add(report, len, found[i], " mount");
	}
	return n;
}

static int reap_loops(dev_t fs_dev, char *report, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct loop_info64 info;
		char dev[300];
		int fd;

		if (strncmp(e->d_name, "loop", 4) != 0)
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", e->d_name);
		fd = open(dev, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (ioctl(fd, LOOP_GET_STATUS64, &info) == 0 && info.lo_device == (__u64)fs_dev) {
			n++;
			if (ioctl(fd, LOOP_CLR_FD, 0) == 0) {
				add(report, len, dev, " (detached)");
			} else {
				info.lo_flags |= LO_FLAGS_AUTOCLEAR;
				ioctl(fd, LOOP_SET_STATUS64, &info);
				add(report, len, dev, " (busy, set to autoclear)");
			}
		}
		close(fd);
	}
	closedir(d);
	return n;
}

int vt_reap_leaks(const char *mnt, dev_t fs_dev, char *report, size_t len)
{
	int n;

	if (len)
		report[0] = '\0';
	n = reap_mounts(mnt, report, len);
	return n + reap_loops(fs_dev, report, len);
}
