/* api/002: mount attribute flags set by mount_setattr().
 *
 * Each MOUNT_ATTR_* flag that attr_flags_to_mnt_flags() (fs/namespace.c)
 * turns into an MNT_* flag is set on an attached bind mount and checked
 * twice: in statvfs() f_flag (flags_by_mnt() in fs/statfs.c) and by the
 * behaviour the kernel rule attached to the flag prescribes (EROFS,
 * EACCES, ELOOP, atime left alone). Clearing the flag restores the
 * behaviour, so each case shows both outcomes. AT_RECURSIVE applies the
 * change to every mount of the tree (mount_setattr_prepare/commit walk
 * next_mnt()), without it only the mount at the path changes. What the
 * filesystem cannot hold is probed by trying and makes its case notrun
 * (vfat: no symlinks, no device nodes, no setuid bit, no directory
 * atimes); atimes are compared with what the filesystem stored, since it
 * may keep less than a second (vfat: a day). */
#include "testlib/testlib.h"
#include "api_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

/* include/linux/statfs.h: ST_NOSYMFOLLOW (5.10); older libcs lack it. */
#ifndef ST_NOSYMFOLLOW
#define ST_NOSYMFOLLOW 0x2000
#endif

struct world {
	char src[4096], mnt[4096];
	char file[4200], link[4200], dev[4200], script[4200], sub[4200];
	int no_link, no_dev;	/* errno of symlink()/mknod() on a filesystem without them */
};

/* src/ with a file, a symlink to it, /dev/null's twin and a script,
 * bind-mounted (attached) at mnt/. */
static bool make_world(struct vt_ctx *ctx, struct world *w)
{
	char p[4200];
	int fd, ret;

	/* the file and the script hold data (hugetlbfs: no write(2)) */
	if (!vt_need_fs(ctx, VT_FSF_WRITE))
		return false;
	if (!vt_mkdir(ctx, "src", 0755, 0, 0, w->src, sizeof(w->src)) ||
	    !vt_mkdir(ctx, "mnt", 0755, 0, 0, w->mnt, sizeof(w->mnt)))
		return false;
	snprintf(p, sizeof(p), "%s/file", w->src);
	fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "data\n", 5) != 5) {
		vt_fail(ctx, "setup: write %s: %s", p, vt_errname(errno));
		return false;
	}
	close(fd);
	/* vfs_symlink/vfs_mknod: EPERM where the fs has no ->symlink/->mknod */
	snprintf(p, sizeof(p), "%s/link", w->src);
	w->no_link = symlink("file", p) < 0 ? errno : 0;
	if (w->no_link && w->no_link != EPERM) {
		vt_fail(ctx, "setup: symlink %s: %s", p, vt_errname(errno));
		return false;
	}
	snprintf(p, sizeof(p), "%s/null", w->src);
	w->no_dev = mknod(p, S_IFCHR | 0666, makedev(1, 3)) < 0 ? errno : 0;
	if (w->no_dev && w->no_dev != EPERM) {
		vt_fail(ctx, "setup: mknod %s: %s", p, vt_errname(errno));
		return false;
	}
	snprintf(p, sizeof(p), "%s/script", w->src);
	fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0755);
	if (fd < 0 || write(fd, "#!/bin/sh\nexit 0\n", 17) != 17) {
		vt_fail(ctx, "setup: write %s: %s", p, vt_errname(errno));
		return false;
	}
	close(fd);
	fd = api_clone(w->src, 0);
	if (fd < 0) {
		vt_fail(ctx, "setup: open_tree(%s, CLONE): %s", w->src, vt_errname(errno));
		return false;
	}
	ret = api_attach(fd, w->mnt);
	close(fd);
	if (ret) {
		vt_fail(ctx, "setup: move_mount to %s: %s", w->mnt, vt_errname(ret));
		return false;
	}
	snprintf(w->file, sizeof(w->file), "%s/file", w->mnt);
	snprintf(w->link, sizeof(w->link), "%s/link", w->mnt);
	snprintf(w->dev, sizeof(w->dev), "%s/null", w->mnt);
	snprintf(w->script, sizeof(w->script), "%s/script", w->mnt);
	snprintf(w->sub, sizeof(w->sub), "%s/subdir", w->mnt);
	vt_scene(ctx, "bind mount %s of %s (attached)", w->mnt, w->src);
	return true;
}

/* mount_setattr on the attached mount by path. */
static int set_clr(const char *mnt, uint64_t set, uint64_t clr, unsigned int flags)
{
	struct vt_mount_attr a = { .attr_set = set, .attr_clr = clr };
	return vt_mount_setattr(AT_FDCWD, mnt, flags, &a, sizeof(a)) < 0 ? errno : 0;
}

static unsigned long path_flags(const char *p)
{
	struct statvfs sv;
	return statvfs(p, &sv) < 0 ? (unsigned long)-1 : sv.f_flag;
}

static int open_err(const char *p, int flags)
{
	int fd = open(p, flags | O_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static void rdonly(struct vt_ctx *ctx)
{
	struct world w;
	char d[4300];

	if (!make_world(ctx, &w))
		return;
	if (!vt_expect_errno(ctx, "set RDONLY", set_clr(w.mnt, VT_MOUNT_ATTR_RDONLY, 0, 0), 0,
			     "mount_setattr: MOUNT_ATTR_RDONLY -> MNT_READONLY"))
		return;
	vt_expect_eq(ctx, "ST_RDONLY", !!(path_flags(w.mnt) & ST_RDONLY), 1, "flags_by_mnt");
	/* mnt_want_write: __mnt_is_readonly -> EROFS. */
	vt_expect_errno(ctx, "open(file, O_WRONLY) on the read-only mount",
			open_err(w.file, O_WRONLY), EROFS, "mnt_want_write -> EROFS");
	snprintf(d, sizeof(d), "%s/newdir", w.mnt);
	vt_expect_errno(ctx, "mkdir on the read-only mount", mkdir(d, 0755) < 0 ? errno : 0, EROFS,
			"filename_create -> mnt_want_write -> EROFS");
	vt_expect_errno(ctx, "open(file, O_RDONLY) on the read-only mount",
			open_err(w.file, O_RDONLY), 0, "reading needs no write access");
	/* The source path (another mount) stays writable: the flag is per mount. */
	snprintf(d, sizeof(d), "%s/file", w.src);
	vt_expect_errno(ctx, "open(src/file, O_WRONLY) via the plain mount", open_err(d, O_WRONLY),
			0, "MNT_READONLY is a per-mount flag");
	if (!vt_expect_errno(ctx, "clear RDONLY", set_clr(w.mnt, 0, VT_MOUNT_ATTR_RDONLY, 0), 0,
			     "attr_clr RDONLY"))
		return;
	vt_expect_eq(ctx, "ST_RDONLY after clearing", !!(path_flags(w.mnt) & ST_RDONLY), 0,
		     "flags_by_mnt");
	vt_expect_errno(ctx, "open(file, O_WRONLY) after clearing RDONLY",
			open_err(w.file, O_WRONLY), 0, "mnt_want_write");
}

static void rdonly_with_writer(struct vt_ctx *ctx)
{
	struct world w;
	int fd;

	if (!make_world(ctx, &w))
		return;
	fd = open(w.file, O_WRONLY | O_CLOEXEC);
	VT_SETUP(ctx, fd, "open(file, O_WRONLY)");
	/* mount_setattr_prepare: setting MNT_READONLY on a writable mount
	 * needs mnt_hold_writers(), which fails with EBUSY while a writer
	 * (a file open for write) holds the mount. */
	vt_expect_errno(ctx, "set RDONLY while a file is open for writing",
			set_clr(w.mnt, VT_MOUNT_ATTR_RDONLY, 0, 0), EBUSY,
			"mount_setattr_prepare: mnt_hold_writers -> EBUSY");
	vt_expect_eq(ctx, "ST_RDONLY not set", !!(path_flags(w.mnt) & ST_RDONLY), 0,
		     "failed prepare commits nothing");
	close(fd);
	vt_expect_errno(ctx, "set RDONLY after the writer closed",
			set_clr(w.mnt, VT_MOUNT_ATTR_RDONLY, 0, 0), 0, "no writers");
}

/* Runs PATH as the caller and returns, in data, what it printed. */
static int run_prog(void *arg, void *data, size_t len)
{
	const char *path = arg;
	char *out = data;
	int p[2], status;
	ssize_t n;
	pid_t pid;

	memset(out, 0, len);
	if (pipe(p) < 0)
		return errno;
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		dup2(p[1], 1);
		execl(path, path, "-u", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	n = read(p[0], out, len - 1);
	close(p[0]);
	waitpid(pid, &status, 0);
	if (n <= 0)
		return ENOEXEC;
	return 0;
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0700);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	close(in);
	if (n < 0 || fchown(out, 0, 0) < 0 || fchmod(out, mode) < 0) {
		close(out);
		return -1;
	}
	return close(out);
}

static void nosuid(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(1000, 1000);
	char from[4300], via[4300], out[64];
	struct world w;
	struct vt_run r;
	int ret;

	if (!vt_need_fs(ctx, VT_FSF_SETID))	/* the table first (fat: FAT_VALID_MODE) */
		return;
	if (!make_world(ctx, &w))
		return;
	snprintf(from, sizeof(from), "%s/id", w.src);
	snprintf(via, sizeof(via), "%s/id", w.mnt);
	if (access("/usr/bin/id", X_OK) < 0)
		VT_SKIP(ctx, "no /usr/bin/id to run as a setuid program");
	ret = copy_file("/usr/bin/id", from, 04755);
	if (ret < 0 && errno == EPERM)
		VT_SKIP(ctx, "%s refuses mode 04755 to root (EPERM): no setuid file here (vfat: "
			     "fat_setattr, FAT_VALID_MODE)", ctx->fstype);
	VT_SETUP(ctx, ret, "copy /usr/bin/id as setuid root");
	/* Without nosuid: bprm_fill_uid gives euid 0 to uid 1000. */
	r = vt_run_as(&u, run_prog, via, out, sizeof(out));
	if (vt_expect_ran(ctx, &u, &r) &&
	    vt_expect_errno(ctx, "exec setuid id as uid 1000", r.ret, 0, "execve"))
		vt_expect_eq(ctx, "euid printed without nosuid", atoi(out), 0,
			     "bprm_fill_uid: S_ISUID -> euid = owner");
	if (!vt_expect_errno(ctx, "set NOSUID", set_clr(w.mnt, VT_MOUNT_ATTR_NOSUID, 0, 0), 0,
			     "MOUNT_ATTR_NOSUID -> MNT_NOSUID"))
		return;
	vt_expect_eq(ctx, "ST_NOSUID", !!(path_flags(w.mnt) & ST_NOSUID), 1, "flags_by_mnt");
	/* bprm_fill_uid: !mnt_may_suid(file->f_path.mnt) -> ids unchanged. */
	r = vt_run_as(&u, run_prog, via, out, sizeof(out));
	if (vt_expect_ran(ctx, &u, &r) &&
	    vt_expect_errno(ctx, "exec setuid id as uid 1000 on nosuid", r.ret, 0, "execve"))
		vt_expect_eq(ctx, "euid printed with nosuid", atoi(out), 1000,
			     "bprm_fill_uid: !mnt_may_suid -> setuid bit ignored");
}

static void nodev(struct vt_ctx *ctx)
{
	struct world w;

	if (!vt_need_fs(ctx, VT_FSF_DEVNODE))	/* the table first (fat: no ->mknod) */
		return;
	if (!make_world(ctx, &w))
		return;
	if (w.no_dev)
		VT_SKIP(ctx, "mknod(S_IFCHR) as root gives %s on %s: no device node here (vfs_mknod: "
			     "no ->mknod)", vt_errname(w.no_dev), ctx->fstype);
	vt_expect_errno(ctx, "open(char device) before NODEV", open_err(w.dev, O_RDONLY), 0,
			"may_open_dev");
	if (!vt_expect_errno(ctx, "set NODEV", set_clr(w.mnt, VT_MOUNT_ATTR_NODEV, 0, 0), 0,
			     "MOUNT_ATTR_NODEV -> MNT_NODEV"))
		return;
	vt_expect_eq(ctx, "ST_NODEV", !!(path_flags(w.mnt) & ST_NODEV), 1, "flags_by_mnt");
	/* may_open: S_ISCHR && !may_open_dev(path) (MNT_NODEV) -> EACCES. */
	vt_expect_errno(ctx, "open(char device) on nodev", open_err(w.dev, O_RDONLY), EACCES,
			"may_open: !may_open_dev -> EACCES");
	set_clr(w.mnt, 0, VT_MOUNT_ATTR_NODEV, 0);
	vt_expect_errno(ctx, "open(char device) after clearing NODEV", open_err(w.dev, O_RDONLY),
			0, "may_open_dev");
}

static int exec_err(const char *path)
{
	int p[2], status, err = 0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return errno;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)path, NULL }, *envp[] = { NULL };
		execve(path, argv, envp);
		err = errno;
		(void)!write(p[1], &err, sizeof(err));
		_exit(127);
	}
	close(p[1]);
	if (read(p[0], &err, sizeof(err)) != sizeof(err))
		err = 0; /* exec succeeded: the pipe closed on exec */
	close(p[0]);
	waitpid(pid, &status, 0);
	return err;
}

static void noexec(struct vt_ctx *ctx)
{
	struct world w;

	if (!make_world(ctx, &w))
		return;
	vt_expect_errno(ctx, "execve(script) before NOEXEC", exec_err(w.script), 0, "execve");
	if (!vt_expect_errno(ctx, "set NOEXEC", set_clr(w.mnt, VT_MOUNT_ATTR_NOEXEC, 0, 0), 0,
			     "MOUNT_ATTR_NOEXEC -> MNT_NOEXEC"))
		return;
	vt_expect_eq(ctx, "ST_NOEXEC", !!(path_flags(w.mnt) & ST_NOEXEC), 1, "flags_by_mnt");
	/* do_open_execat / may_open: path_noexec -> EACCES. */
	vt_expect_errno(ctx, "execve(script) on noexec", exec_err(w.script), EACCES,
			"path_noexec -> EACCES");
	/* do_faccessat: MAY_EXEC on a regular file of a noexec mount -> EACCES. */
	vt_expect_errno(ctx, "access(script, X_OK) on noexec",
			access(w.script, X_OK) < 0 ? errno : 0, EACCES,
			"do_faccessat: path_noexec -> EACCES");
}

static void nosymfollow(struct vt_ctx *ctx)
{
	struct world w;
	char buf[64];

	if (!vt_need_fs(ctx, VT_FSF_SYMLINK))	/* the table first (fat: no ->symlink) */
		return;
	if (!make_world(ctx, &w))
		return;
	if (w.no_link)
		VT_SKIP(ctx, "symlink() as root gives %s on %s: no symlink here (vfs_symlink: no "
			     "->symlink)", vt_errname(w.no_link), ctx->fstype);
	vt_expect_errno(ctx, "open(link) before NOSYMFOLLOW", open_err(w.link, O_RDONLY), 0,
			"symlink followed");
	if (!vt_expect_errno(ctx, "set NOSYMFOLLOW",
			     set_clr(w.mnt, VT_MOUNT_ATTR_NOSYMFOLLOW, 0, 0), 0,
			     "MOUNT_ATTR_NOSYMFOLLOW -> MNT_NOSYMFOLLOW"))
		return;
	vt_expect_eq(ctx, "ST_NOSYMFOLLOW", !!(path_flags(w.mnt) & ST_NOSYMFOLLOW), 1,
		     "flags_by_mnt");
	/* pick_link: MNT_NOSYMFOLLOW on the link's mount -> ELOOP. */
	vt_expect_errno(ctx, "open(link) on nosymfollow", open_err(w.link, O_RDONLY), ELOOP,
			"pick_link: MNT_NOSYMFOLLOW -> ELOOP");
	vt_expect_errno(ctx, "readlink(link) on nosymfollow",
			readlink(w.link, buf, sizeof(buf)) < 0 ? errno : 0, 0,
			"readlink does not follow");
}

static struct timespec atime_of(const char *p)
{
	struct stat st;
	struct timespec z = { 0, 0 };
	return stat(p, &st) < 0 ? z : st.st_atim;
}

/* Sets P's atime to 2000-01-01 (which every filesystem here can store,
 * FAT's dates start in 1980) and returns what the filesystem kept
 * (tv_sec; -1 on error): FAT keeps the day only. */
static long long set_old_atime(const char *p)
{
	struct timespec t[2] = { { 946684800, 0 }, { 0, UTIME_OMIT } };

	if (utimensat(AT_FDCWD, p, t, 0) < 0)
		return -1;
	return atime_of(p).tv_sec;
}

static void read_dir(const char *p)
{
	DIR *d = opendir(p);
	if (d) {
		while (readdir(d))
			;
		closedir(d);
	}
}

static void read_file(const char *p)
{
	char b[8];
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)!read(fd, b, sizeof(b));
		close(fd);
	}
}

static void nodiratime(struct vt_ctx *ctx)
{
	struct world w;
	long long old_d, old_f;
	char d[4300];

	if (!make_world(ctx, &w))
		return;
	snprintf(d, sizeof(d), "%s/dir", w.src);
	VT_SETUP(ctx, mkdir(d, 0755), "mkdir src/dir");
	snprintf(d, sizeof(d), "%s/dir", w.mnt);
	/* strictatime alone first: a directory whose atime never moves
	 * cannot show what NODIRATIME changes (vfat: SB_NODIRATIME) */
	VT_SETUP(ctx, -set_clr(w.mnt, VT_MOUNT_ATTR_STRICTATIME, VT_MOUNT_ATTR__ATIME, 0),
		 "set STRICTATIME");
	old_d = set_old_atime(d);
	VT_SETUP(ctx, old_d, "utimensat(dir)");
	read_dir(d);
	if (atime_of(d).tv_sec == old_d)
		VT_SKIP(ctx, "readdir on a strictatime mount leaves a directory's atime on %s "
			     "(vfat: fat_fill_super sets SB_NODIRATIME)", ctx->fstype);
	/* strictatime, so that only NODIRATIME can keep a dir atime. */
	if (!vt_expect_errno(ctx, "set STRICTATIME|NODIRATIME",
			     set_clr(w.mnt, VT_MOUNT_ATTR_STRICTATIME | VT_MOUNT_ATTR_NODIRATIME,
				     VT_MOUNT_ATTR__ATIME, 0),
			     0, "MOUNT_ATTR_NODIRATIME -> MNT_NODIRATIME"))
		return;
	vt_expect_eq(ctx, "ST_NODIRATIME", !!(path_flags(w.mnt) & ST_NODIRATIME), 1,
		     "flags_by_mnt");
	old_d = set_old_atime(d);
	VT_SETUP(ctx, old_d, "utimensat(dir)");
	old_f = set_old_atime(w.file);
	VT_SETUP(ctx, old_f, "utimensat(file)");
	read_dir(d);
	read_file(w.file);
	/* atime_needs_update: MNT_NODIRATIME && S_ISDIR -> no update; a regular
	 * file on a strictatime mount is updated. */
	vt_expect_eq(ctx, "dir atime after readdir on nodiratime", atime_of(d).tv_sec, old_d,
		     "atime_needs_update: MNT_NODIRATIME");
	vt_expect_eq(ctx, "file atime updated on read (strictatime)",
		     atime_of(w.file).tv_sec > old_f, 1, "atime_needs_update: strictatime");
	/* Without NODIRATIME the directory atime moves. */
	set_clr(w.mnt, 0, VT_MOUNT_ATTR_NODIRATIME, 0);
	old_d = set_old_atime(d);
	VT_SETUP(ctx, old_d, "utimensat(dir)");
	read_dir(d);
	vt_expect_eq(ctx, "dir atime updated after clearing NODIRATIME",
		     atime_of(d).tv_sec > old_d, 1, "atime_needs_update: strictatime");
}

static void noatime(struct vt_ctx *ctx)
{
	struct world w;
	long long old;

	if (!make_world(ctx, &w))
		return;
	if (!vt_expect_errno(ctx, "set NOATIME",
			     set_clr(w.mnt, VT_MOUNT_ATTR_NOATIME, VT_MOUNT_ATTR__ATIME, 0), 0,
			     "MOUNT_ATTR_NOATIME -> MNT_NOATIME"))
		return;
	old = set_old_atime(w.file);
	VT_SETUP(ctx, old, "utimensat(file)");
	read_file(w.file);
	vt_expect_eq(ctx, "file atime after read on noatime", atime_of(w.file).tv_sec, old,
		     "atime_needs_update: MNT_NOATIME");
}

static void recursive(struct vt_ctx *ctx)
{
	char other[4096], subsrc[4300];
	struct world w;
	int fd, ret;

	if (!make_world(ctx, &w))
		return;
	/* A second mount inside the first: mnt/subdir is a bind of other/. */
	if (!vt_mkdir(ctx, "other", 0755, 0, 0, other, sizeof(other)))
		return;
	snprintf(subsrc, sizeof(subsrc), "%s/subdir", w.src);
	VT_SETUP(ctx, mkdir(subsrc, 0755), "mkdir src/subdir");
	fd = api_clone(other, 0);
	VT_SETUP(ctx, fd, "open_tree(other)");
	ret = api_attach(fd, w.sub);
	close(fd);
	if (ret) {
		vt_fail(ctx, "setup: move_mount to %s: %s", w.sub, vt_errname(ret));
		return;
	}
	vt_scene(ctx, "bind mount %s with a submount at %s", w.mnt, w.sub);
	/* Without AT_RECURSIVE only the mount at the path changes
	 * (mount_setattr_prepare/commit stop after the first mount). */
	vt_expect_errno(ctx, "set NOEXEC without AT_RECURSIVE",
			set_clr(w.mnt, VT_MOUNT_ATTR_NOEXEC, 0, 0), 0, "mount_setattr");
	vt_expect_eq(ctx, "ST_NOEXEC on the top mount", !!(path_flags(w.mnt) & ST_NOEXEC), 1,
		     "top mount changed");
	vt_expect_eq(ctx, "ST_NOEXEC on the submount", !!(path_flags(w.sub) & ST_NOEXEC), 0,
		     "!kattr->recurse: submount untouched");
	/* With AT_RECURSIVE every mount of the tree changes (next_mnt walk). */
	vt_expect_errno(ctx, "set RDONLY with AT_RECURSIVE",
			set_clr(w.mnt, VT_MOUNT_ATTR_RDONLY, 0, AT_RECURSIVE), 0, "mount_setattr");
	vt_expect_eq(ctx, "ST_RDONLY on the top mount", !!(path_flags(w.mnt) & ST_RDONLY), 1,
		     "recursive walk");
	vt_expect_eq(ctx, "ST_RDONLY on the submount", !!(path_flags(w.sub) & ST_RDONLY), 1,
		     "recursive walk: next_mnt");
	vt_expect_errno(ctx, "clear RDONLY with AT_RECURSIVE",
			set_clr(w.mnt, 0, VT_MOUNT_ATTR_RDONLY, AT_RECURSIVE), 0, "mount_setattr");
	vt_expect_eq(ctx, "ST_RDONLY on the submount after clearing",
		     !!(path_flags(w.sub) & ST_RDONLY), 0, "recursive walk");
}

static const struct vt_case cases[] = {
	{ "rdonly-statvfs-and-erofs", rdonly },
	{ "rdonly-with-writer-ebusy", rdonly_with_writer },
	{ "nosuid-statvfs-and-setuid-ignored", nosuid },
	{ "nodev-statvfs-and-eacces", nodev },
	{ "noexec-statvfs-and-eacces", noexec },
	{ "nosymfollow-statvfs-and-eloop", nosymfollow },
	{ "nodiratime-statvfs-and-dir-atime", nodiratime },
	{ "noatime-file-atime", noatime },
	{ "at-recursive-whole-tree", recursive },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases, .no_idmap_probe = true };
	return vt_test_main(&t, argc, argv);
}
