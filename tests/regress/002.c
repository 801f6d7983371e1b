/* regress/002: circular mappings (two users swapped by one mount).
 *
 * What went wrong: with a mount mapping b:1000:1001:1,b:1001:1000:1,
 * setattr_prepare() compared the requested ia_uid/ia_gid in the wrong
 * idmapping, so chown/chgrp through the mount failed or misbehaved.
 * Affected: 5.12 - 5.15.4. Fix: 968219708108 "fs: handle circular mappings
 * correctly" (5.16-rc2, stable 5.15.5). Guard: xfstests generic/656.
 *
 * Expected (fs/attr.c, fs/open.c): chown_common takes the requested ids
 * as mount-view vfsuids; chown_ok/chgrp_ok compare them with the inode's
 * mount view (i_uid_into_vfsuid); setattr_copy stores from_vfsuid().
 * On vfat a and b live on two vfats mounted uid=1000 and uid=1001, both
 * idmapped with the swap; vfat keeps its owners, so root's chown to the
 * swapped ids is refused (fat_setattr compares from_vfsuid() with uid=)
 * and the one to the ids it sees is the one allowed. */
#include "testlib/testlib.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#define MAP "b:1000:1001:1,b:1001:1000:1"

struct w {
	char srca[4096], srcb[4096], a[4096], b[4096], mnta[4096], mntb[4096];
	char a_via[4300], b_via[4300];
};

/* a (1000:1000) in srca/, b (1001:1001) in srcb/, both idmapped with MAP.
 * The directories belong to root, or on vfat to their files' owner. */
static bool make(struct vt_ctx *ctx, struct w *w)
{
	uid_t da = ctx->option_owners ? 1000 : 0, db = ctx->option_owners ? 1001 : 0;

	if (!vt_owned_dir(ctx, "srca", 0777, 0644, da, da, w->srca, sizeof(w->srca)) ||
	    !vt_owned_dir(ctx, "srcb", 0777, 0644, db, db, w->srcb, sizeof(w->srcb)) ||
	    !vt_mkfile(ctx, "srca/a", 0644, 1000, 1000, w->a, sizeof(w->a)) ||
	    !vt_mkfile(ctx, "srcb/b", 0644, 1001, 1001, w->b, sizeof(w->b)) ||
	    !vt_idmapped_at(ctx, w->srca, MAP, "mnta", w->mnta, sizeof(w->mnta)) ||
	    !vt_idmapped_at(ctx, w->srcb, MAP, "mntb", w->mntb, sizeof(w->mntb)))
		return false;
	snprintf(w->a_via, sizeof(w->a_via), "%s/a", w->mnta);
	snprintf(w->b_via, sizeof(w->b_via), "%s/b", w->mntb);
	vt_scene(ctx, "%s and %s idmapped %s; a owned 1000, b owned 1001 on disk", w->mnta,
		 w->mntb, MAP);
	return true;
}

static int do_chown(void *arg, void *data, size_t len)
{
	const int *ids = data;
	(void)len;
	return chown(arg, (uid_t)ids[0], (gid_t)ids[1]) < 0 ? errno : 0;
}

static int run_chown(struct vt_ctx *ctx, struct vt_caller *c, const char *p, int uid, int gid)
{
	int ids[2] = { uid, gid };
	struct vt_run r = vt_run_as(c, do_chown, (void *)p, ids, sizeof(ids));
	return vt_expect_ran(ctx, c, &r) ? r.ret : -1;
}

static void view(struct vt_ctx *ctx)
{
	struct w w;

	if (!make(ctx, &w))
		return;
	vt_expect_owner(ctx, w.a_via, 1001, 1001, "make_vfsuid: 1000 -> 1001");
	vt_expect_owner(ctx, w.b_via, 1000, 1000, "make_vfsuid: 1001 -> 1000");
}

static void root_swaps(struct vt_ctx *ctx)
{
	struct vt_caller root = vt_caller_root();
	struct w w;

	if (!make(ctx, &w))
		return;
	if (ctx->option_owners) {
		/* fat_setattr: from_vfsuid(M, 1000) = 1001 is not uid=1000 */
		vt_expect_errno(ctx, "root: chown a 1000:1000 through the mount",
				run_chown(ctx, &root, w.a_via, 1000, 1000), EPERM,
				"fat_setattr: from_vfsuid(M, 1000) = 1001 != uid=1000 -> EPERM");
		/* the ids root sees (1001) go back to uid=1000: allowed, no change */
		vt_expect_errno(ctx, "root: chown a 1001:1001 (the ids it sees) through the mount",
				run_chown(ctx, &root, w.a_via, 1001, 1001), 0,
				"fat_setattr: from_vfsuid(M, 1001) = 1000 == uid=1000");
		vt_expect_owner(ctx, w.a, 1000, 1000, "fat_fill_inode: uid=/gid= of the mount");
		return;
	}
	/* chown a (seen 1001) to 1000 through the mount: stored up(M,1000) = 1001. */
	if (vt_expect_errno(ctx, "root: chown a 1000:1000 through the mount",
			    run_chown(ctx, &root, w.a_via, 1000, 1000), 0, "chown_ok: CAP_CHOWN"))
		vt_expect_owner(ctx, w.a, 1001, 1001, "setattr_copy: from_vfsuid(M, 1000) = 1001");
	vt_expect_owner(ctx, w.a_via, 1000, 1000, "make_vfsuid(1001) = 1000");
}

static void owner_noop_chown(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(1001, 1001);
	struct w w;

	if (!make(ctx, &w))
		return;
	/* uid 1001 owns a through the mount; a no-op chown to its own view
	 * ids is allowed: chown_ok (v == fsuid && ia_vfsuid == v), chgrp_ok
	 * (ia_vfsgid == g). Before 968219708108 the on-disk id was compared. */
	if (vt_expect_errno(ctx, "uid 1001: chown a 1001:1001 (its own ids) through the mount",
			    run_chown(ctx, &u, w.a_via, 1001, 1001), 0,
			    "chown_ok/chgrp_ok compare mount-view ids (968219708108)"))
		vt_expect_owner(ctx, w.a, 1000, 1000, "no-op: on disk unchanged");
	/* Giving it to 1000 is a real chown: no CAP_CHOWN -> EPERM. */
	vt_expect_errno(ctx, "uid 1001: chown a to 1000 through the mount",
			run_chown(ctx, &u, w.a_via, 1000, -1), EPERM, "chown_ok: not a no-op -> EPERM");
	/* chgrp to 1000 (not its group) -> EPERM. */
	vt_expect_errno(ctx, "uid 1001: chgrp a to 1000 through the mount",
			run_chown(ctx, &u, w.a_via, -1, 1000), EPERM,
			"chgrp_ok: 1000 not in caller's groups -> EPERM");
	/* b is owned by 1001 on disk but by 1000 through the mount. */
	vt_expect_errno(ctx, "uid 1001: chown b 1001:1001 through the mount",
			run_chown(ctx, &u, w.b_via, 1001, 1001), EPERM,
			"chown_ok: b's mount-view owner is 1000, not the caller");
}

static const struct vt_case cases[] = {
	{ "circular-view", view },
	{ "root-chown-swapped-ids-968219708108", root_swaps },
	{ "owner-noop-chown-968219708108", owner_noop_chown },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
