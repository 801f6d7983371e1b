/* The matrix's fixture removal (lib/matrix/fixture.c vt_fx_remove): a
 * tree of every kind of entry goes, also one whose listing needs more than
 * one getdents64 buffer, and paths under a base (vt_fx_base_add) as well
 * as outside one; what is not there, or not a directory, is handled; a
 * mount below a fixture is not entered (nothing in it is removed) and the
 * removal ends there instead of looping. */
#include "unit.h"
#include "matrix/fixture.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define PLAN 7

static char top[64] = "/tmp/vt-fxrm.XXXXXX";

static int touch(const char *dir, const char *name)
{
	char p[512];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	return close(fd);
}

/* DIR with a file, a fifo, a symlink to the file, a dangling one, and
 * two levels of directories holding files */
static int make_tree(const char *dir)
{
	char p[512], q[600];

	if (mkdir(dir, 0755) < 0 || touch(dir, "o") < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/fifo", dir);
	if (mkfifo(p, 0600) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/l", dir);
	if (symlink("o", p) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/dangling", dir);
	if (symlink("nowhere", p) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/d", dir);
	if (mkdir(p, 0700) < 0 || touch(p, "x") < 0)
		return -1;
	snprintf(q, sizeof(q), "%s/e", p);
	if (mkdir(q, 0) < 0 || touch(q, "y") < 0)
		return -1;
	return 0;
}

static bool gone(const char *p)
{
	struct stat st;

	return lstat(p, &st) < 0 && errno == ENOENT;
}

int main(void)
{
	char a[128], b[128], c[128], f[128], name[64];
	int k;

	unit_begin(PLAN);
	if (geteuid() != 0 || !mkdtemp(top)) {
		for (k = 0; k < PLAN; k++)
			unit_skip("fixture removal", "needs root (a 0000 directory) and /tmp");
		return 0;
	}
	snprintf(a, sizeof(a), "%s/a", top);
	unit_check(make_tree(a) == 0 && (vt_fx_remove(a), gone(a)),
		   "a tree of files, a fifo, symlinks and nested directories goes");

	/* more names than one 8 KiB getdents64 buffer holds */
	snprintf(b, sizeof(b), "%s/b", top);
	mkdir(b, 0755);
	for (k = 0; k < 600; k++) {
		snprintf(name, sizeof(name), "a-rather-long-name-to-fill-the-buffer-%04d", k);
		touch(b, name);
	}
	vt_fx_remove(b);
	unit_check(gone(b), "a directory listed in several rounds goes");

	/* under a base: walked from its descriptor */
	unit_check(vt_fx_base_add(top) == 0, "a base is opened");
	snprintf(c, sizeof(c), "%s/c", top);
	unit_check(make_tree(c) == 0 && (vt_fx_remove(c), gone(c)), "a tree under the base goes");

	/* a file, a symlink (not followed: its target stays), nothing */
	snprintf(f, sizeof(f), "%s/f", top);
	touch(top, "f");
	snprintf(name, sizeof(name), "%s/l", top);
	symlink("f", name);
	vt_fx_remove(name);
	vt_fx_remove(f);
	snprintf(b, sizeof(b), "%s/absent", top);
	vt_fx_remove(b);
	unit_check(gone(name) && gone(f), "a symlink and a file are unlinked, an absent path is no error");

	/* a directory that cannot be emptied (a mount point below it:
	 * rmdir says EBUSY) ends the removal: the call returns */
	snprintf(a, sizeof(a), "%s/m", top);
	snprintf(b, sizeof(b), "%s/m/busy", top);
	/* in a mount namespace of our own: the mount goes with us */
	if (unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
	    mkdir(a, 0755) == 0 && mkdir(b, 0755) == 0 && touch(a, "o") == 0 &&
	    mount("tmpfs", b, "tmpfs", 0, "size=1m") == 0) {
		touch(b, "inside");
		vt_fx_remove(a);
		snprintf(c, sizeof(c), "%s/o", a);
		snprintf(f, sizeof(f), "%s/inside", b);
		unit_check(gone(c) && !gone(b) && !gone(f),
			   "a mount below stops the removal there: nothing in it goes, the rest does");
		umount2(b, MNT_DETACH);
	} else {
		unit_skip("a busy directory stops the removal", "no tmpfs mount here");
	}
	vt_fx_bases_drop();
	vt_fx_remove(top);
	unit_check(gone(top), "the whole test directory goes at the end");
	return unit_end();
}
