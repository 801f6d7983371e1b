/* vt_safe_remove_tree(): removes a tree, never follows a symlink out of it,
 * never enters a filesystem mounted inside it. Needs root (mounts). */
#include "unit.h"
#include "util/safe_remove.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[] = "/tmp/vfsidmap-rm.XXXXXX";

static void touch(const char *rel)
{
	char p[4200];
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	close(open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
}

static void mk(const char *rel)
{
	char p[4200];
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	mkdir(p, 0755);
}

static int exists(const char *rel)
{
	char p[4200];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	return lstat(p, &st) == 0;
}

int main(void)
{
	char p[4200], q[4200];
	int ret;

	unit_begin(5);
	if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 || !mkdtemp(base)) {
		for (ret = 0; ret < 5; ret++)
			unit_skip("safe remove", "needs root and a private mount namespace");
		return 0;
	}
	mk("outside");
	touch("outside/keep");
	mk("tree");
	mk("tree/a");
	mk("tree/a/b");
	touch("tree/a/b/f");
	touch("tree/a/g");
	mk("tree/mnt");
	snprintf(p, sizeof(p), "%s/outside", base);
	snprintf(q, sizeof(q), "%s/tree/link-out", base);
	symlink(p, q);
	snprintf(q, sizeof(q), "%s/tree/a/link-dir", base);
	symlink(p, q);
	snprintf(p, sizeof(p), "%s/tree/mnt", base);
	mount("tmpfs", p, "tmpfs", 0, NULL);
	touch("tree/mnt/in-other-fs");

	snprintf(p, sizeof(p), "%s/tree", base);
	ret = vt_safe_remove_tree(p);
	unit_check(ret != 0, "reports that something (the mount point) could not be removed");
	unit_check(exists("outside/keep"), "a symlink out of the tree is not followed");
	unit_check(exists("tree/mnt/in-other-fs"), "a filesystem mounted inside is not entered");
	unit_check(!exists("tree/a"), "everything else is removed");
	umount2(p, MNT_DETACH);
	snprintf(q, sizeof(q), "%s/tree/mnt", base);
	umount2(q, MNT_DETACH);
	ret = vt_safe_remove_tree(p);
	unit_check(ret == 0 && !exists("tree"), "after the unmount the whole tree goes");
	snprintf(p, sizeof(p), "%s/outside/keep", base);
	unlink(p);
	snprintf(p, sizeof(p), "%s/outside", base);
	rmdir(p);
	rmdir(base);
	return unit_end();
}
