/* api/009: inotify and fanotify marks through an idmapped mount.
 *
 * "You can only watch an inode if you have read permission on it":
 * inotify_find_inode() (fs/notify/inotify/inotify_user.c) and
 * do_fanotify_mark() (fs/notify/fanotify/fanotify_user.c) both call
 * path_permission(path, MAY_READ), i.e. inode_permission() with the idmap
 * of the mount the path was looked up on. A 0600 file owned by 1000 on
 * disk is owned by 1001 through a b:1000:1001:1 mount: uid 1001 may watch
 * it there (owner bits via i_uid_into_vfsuid) and gets EACCES through the
 * plain mount (other bits 0). fanotify is used unprivileged, which
 * requires FAN_REPORT_FID and inode marks (fanotify_init/do_fanotify_mark). */
#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <unistd.h>

#define MAP "b:1000:1001:1"

struct w {
	char src[4096], file[4096], mnt[4096], via[4300];
};

static bool make(struct vt_ctx *ctx, struct w *w)
{
	if (!vt_owned_dir(ctx, "src", 0755, 0600, 1000, 1000, w->src, sizeof(w->src)) ||
	    !vt_mkfile(ctx, "src/secret", 0600, 1000, 1000, w->file, sizeof(w->file)) ||
	    !vt_idmapped_at(ctx, w->src, MAP, "mnt", w->mnt, sizeof(w->mnt)))
		return false;
	snprintf(w->via, sizeof(w->via), "%s/secret", w->mnt);
	vt_scene(ctx, "%s idmapped %s over %s; secret 0600 owned 1000 on disk; caller uid 1001",
		 w->mnt, MAP, w->src);
	return true;
}

/* The watch functions return 0 or the errno of the mark (the permission
 * check under test), or INIT_FAILED + errno when the notification group
 * itself could not be made (no permission check was reached). */
#define INIT_FAILED 1000

static int inotify_watch(void *arg, void *data, size_t len)
{
	int fd = inotify_init1(IN_CLOEXEC), ret;

	(void)data;
	(void)len;
	if (fd < 0)
		return INIT_FAILED + errno;
	ret = inotify_add_watch(fd, arg, IN_MODIFY) < 0 ? errno : 0;
	close(fd);
	return ret;
}

static int fanotify_watch(void *arg, void *data, size_t len)
{
	int fd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID | FAN_CLOEXEC, O_RDONLY), ret;

	(void)data;
	(void)len;
	if (fd < 0)
		return INIT_FAILED + errno;
	ret = fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_INODE, FAN_MODIFY, AT_FDCWD, arg) < 0
		      ? errno
		      : 0;
	close(fd);
	return ret;
}

static void run_both(struct vt_ctx *ctx, vt_caller_fn fn, const char *api)
{
	const char *init = fn == inotify_watch ? "inotify_init1()" : "fanotify_init()";
	struct vt_caller u = vt_caller_user(1001, 1001);
	char op[200];
	struct vt_run r;
	struct w w;

	if (!make(ctx, &w))
		return;
	r = vt_run_as(&u, fn, w.via, NULL, 0);
	if (!vt_expect_ran(ctx, &u, &r))
		return;
	if (r.ret == INIT_FAILED + ENOSYS)
		VT_SKIP(ctx, "%s: the kernel has no such syscall (ENOSYS: built without "
			     "CONFIG_%s)",
			init, fn == inotify_watch ? "INOTIFY_USER" : "FANOTIFY");
	if (fn == fanotify_watch &&
	    (r.ret == INIT_FAILED + EPERM || r.ret == INIT_FAILED + EINVAL))
		VT_SKIP(ctx, "unprivileged fanotify_init(FAN_REPORT_FID) refused: %s (5.13+)",
			vt_errname(r.ret - INIT_FAILED));
	if (r.ret > INIT_FAILED) {
		vt_fail(ctx, "setup: %s as uid 1001 failed: %s", init,
			vt_errname(r.ret - INIT_FAILED));
		return;
	}
	if (r.ret == ENODEV || r.ret == EOPNOTSUPP || r.ret == EXDEV)
		VT_SKIP(ctx, "%s cannot report file ids to fanotify: %s", ctx->fstype,
			vt_errname(r.ret));
	/* path_permission(MAY_READ) with the mount's idmap: 1000 -> 1001 ==
	 * fsuid, owner bits rw-. */
	snprintf(op, sizeof(op), "%s on the 0600 file through the idmapped mount as uid 1001", api);
	vt_expect_errno(ctx, op, r.ret, 0,
			"path_permission(MAY_READ): owner via i_uid_into_vfsuid(mount idmap)");
	r = vt_run_as(&u, fn, w.file, NULL, 0);
	if (!vt_expect_ran(ctx, &u, &r))
		return;
	if (r.ret > INIT_FAILED) {
		vt_fail(ctx, "setup: %s as uid 1001 failed the second time: %s", init,
			vt_errname(r.ret - INIT_FAILED));
		return;
	}
	/* Plain mount: 1000 != 1001, other bits --- -> EACCES. */
	snprintf(op, sizeof(op), "%s on the 0600 file through the plain mount as uid 1001", api);
	vt_expect_errno(ctx, op, r.ret, EACCES,
			"path_permission(MAY_READ): not owner on nop idmap, other bits 0 -> EACCES");
}

static void inotify_case(struct vt_ctx *ctx)
{
	run_both(ctx, inotify_watch, "inotify_add_watch");
}

static void fanotify_case(struct vt_ctx *ctx)
{
	run_both(ctx, fanotify_watch, "fanotify_mark(FAN_MARK_INODE)");
}

static const struct vt_case cases[] = {
	{ "inotify-read-permission-uses-mount-idmap", inotify_case },
	{ "fanotify-read-permission-uses-mount-idmap", fanotify_case },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
