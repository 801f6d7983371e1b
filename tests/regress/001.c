/* regress/001: v3 file capabilities written through an idmapped mount.
 *
 * What went wrong: 95ebabde382c "capabilities: Don't allow writing
 * ambiguous v3 file capabilities" (5.12-rc) refused v3 fscaps set by a
 * namespace root through an idmapped mount. It was reverted (3b0c2d3eaa83)
 * and replaced by db2e718a4798 "capabilities: require CAP_SETFCAP to map
 * uid 0" (5.12). Affected: 5.12-rc only. Guard: xfstests generic/644.
 *
 * Scene: a tree owned by 0 on disk mounted with b:0:10000:65536; the
 * caller is root of a user namespace b:0:10000:65536, so it owns the tree
 * through the mount. cap_convert_nscap(): vroot = make_kuid(caller ns, 0)
 * = 10000, root = from_vfsuid(mount, init, 10000) = 0, stored as v3 with
 * rootid 0. cap_inode_getsecurity() for that caller: vroot =
 * make_vfsuid(mount, 0) = 10000, from_kuid(caller ns) = 0 and 10000 owns
 * the caller's namespace, so it reads back as v2. */
#include "testlib/testlib.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAP "b:0:10000:65536"

struct out {
	int set_err, get_err;
	struct vt_fcaps got;
};

static int set_and_get(void *arg, void *data, size_t len)
{
	struct vt_fcaps c = { .version = VT_CAP_V3, .effective = true,
			      .permitted = 1ull << 13 /* CAP_NET_RAW */, .rootid = 0 };
	struct out *o = data;
	int r;

	(void)len;
	r = vt_fcaps_write(arg, &c);
	o->set_err = r < 0 ? -r : 0;
	r = vt_fcaps_read(arg, &o->got);
	o->get_err = r < 0 ? -r : 0;
	return 0;
}

static void v3_through_mount(struct vt_ctx *ctx)
{
	struct vt_caller c = vt_caller_root();
	char src[4096], file[4096], mnt[4096], via[4300];
	struct vt_fcaps disk;
	struct out o;
	struct vt_run r;
	int ns, ret;

	/* the table first (hugetlbfs, fat: no xattr handlers); the set below
	 * still finds a kernel built without them (EOPNOTSUPP) */
	if (!vt_need_fs(ctx, VT_FSF_XATTR_SECURITY))
		return;
	if (!vt_mkdir(ctx, "src", 0755, 0, 0, src, sizeof(src)) ||
	    !vt_mkfile(ctx, "src/bin", 0755, 0, 0, file, sizeof(file)) ||
	    !vt_idmapped_at(ctx, src, MAP, "mnt", mnt, sizeof(mnt)))
		return;
	snprintf(via, sizeof(via), "%s/bin", mnt);
	ns = vt_userns_from_spec(-1, MAP);
	VT_SETUP(ctx, ns, "caller userns");
	c.userns_fd = ns;
	c.userns_desc = MAP;
	vt_scene(ctx, "%s idmapped %s; caller root in userns %s", mnt, MAP, MAP);
	memset(&o, 0, sizeof(o));
	r = vt_run_as(&c, set_and_get, via, &o, sizeof(o));
	close(ns);
	if (!vt_expect_ran(ctx, &c, &r))
		return;
	if (o.set_err == EOPNOTSUPP)
		VT_SKIP(ctx, "%s has no security.* xattrs", ctx->fstype);
	if (!vt_expect_errno(ctx, "set v3 fscaps (rootid 0) as userns root through the mount",
			     o.set_err, 0,
			     "cap_convert_nscap: CAP_SETFCAP over the inode; not refused since db2e718a4798"))
		return;
	ret = vt_fcaps_read(file, &disk);
	if (ret < 0) {
		vt_fail(ctx, "read security.capability of %s: %s", file, vt_errname(-ret));
		return;
	}
	/* Stored v3 rootid 0; host root reading it through the plain mount gets
	 * it as v2: cap_inode_getsecurity, rootid 0 maps to 0 in the initial
	 * namespace, which owns itself. */
	vt_expect_eq(ctx, "version read by host root via the plain mount", disk.version, VT_CAP_V2,
		     "cap_convert_nscap stores rootid from_vfsuid(mount, 10000) = 0; "
		     "cap_inode_getsecurity presents rootid 0 as v2");
	if (vt_expect_errno(ctx, "read back as the userns root", o.get_err, 0,
			    "cap_inode_getsecurity"))
		vt_expect_eq(ctx, "version read back by the userns root", o.got.version, VT_CAP_V2,
			     "cap_inode_getsecurity: mapped rootid 0 owning the caller ns -> v2");
}

static const struct vt_case cases[] = {
	{ "userns-root-sets-v3-fscaps-through-mount-db2e718a4798", v3_through_mount },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
