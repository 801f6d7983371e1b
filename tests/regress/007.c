/* regress/007: one S_ISGID rule for chmod, chown, write and truncate.
 *
 * What went wrong: each path decided on its own whether a setgid file
 * keeps S_ISGID. chmod (setattr_prepare/setattr_copy) stripped it unless
 * the caller was in the file's group or had CAP_FSETID over it; but
 * write and truncate (should_remove_suid, then file_remove_privs) killed
 * it only when S_IXGRP was set, and notify_change() ignored
 * ATTR_KILL_SGID without S_IXGRP, so a non-member writing, truncating or
 * chgrp'ing a 02766 file kept S_ISGID. The write path also ignored the
 * mount's idmapping. Affected: all kernels before 6.2 (stable 6.1.15,
 * 5.15, 5.10.176). Fix, the 6.2 series (fs.vfsuid.conversion.v6.2):
 * 11c2a8700cdc "attr: add in_group_or_capable()", 72ae017c5451 "attr: add
 * setattr_should_drop_sgid()", ed5a7047d201 "attr: use consistent sgid
 * stripping checks", with "fs: move should_remove_suid()" and "fs: use
 * consistent setgid checks in is_sxid()". Guard: xfstests generic/673,
 * 683-687, 726.
 *
 * Scene: src/f owned 1000:1000 on disk, reached through the mount
 * b:1000:2000:1000 where it is 2000:2000. The rules (6.12 sources):
 *   in_group_or_capable(M, inode, g) (fs/inode.c) = vfsgid_in_group_p(g)
 *     || capable_wrt_inode_uidgid(M, inode, CAP_FSETID)
 *   setattr_should_drop_sgid(M, inode) (fs/attr.c): S_ISGID and S_IXGRP ->
 *     kill; S_ISGID alone -> kill unless in_group_or_capable(M, inode,
 *     i_gid_into_vfsgid(M, inode))
 *   setattr_should_drop_suidgid(M, inode) (fs/attr.c, used by
 *     file_remove_privs on write and do_truncate): S_ISUID -> kill, plus
 *     the above, all only if !capable(CAP_FSETID) -- capable() is the
 *     initial namespace, so a user-namespace root still loses S_ISUID
 *   chown_common (fs/open.c): ATTR_KILL_SUID | setattr_should_drop_sgid;
 *     notify_change (fs/attr.c) turns ATTR_KILL_SGID into ia_mode without
 *     S_ISGID whenever the file has S_ISGID (no S_IXGRP test since
 *     ed5a7047d201)
 *   chmod: setattr_prepare strips S_ISGID from ia_mode unless
 *     in_group_or_capable(M, inode, i_gid_into_vfsgid) (fs/attr.c)
 * Membership counts through the mount: group 2000, not the disk gid 1000. */
#include "sgid_common.h"

#include <string.h>

#define FIX_SERIES "ed5a7047d201 \"attr: use consistent sgid stripping checks\" (6.2 series)"

enum op { OP_CHMOD, OP_CHOWN, OP_WRITE, OP_TRUNCATE };

struct act {
	enum op op;
	char path[4300];
	mode_t mode;	/* OP_CHMOD */
	uid_t uid;	/* OP_CHOWN (-1: unchanged) */
	gid_t gid;
	off_t length;	/* OP_TRUNCATE */
};

static int do_act(void *arg, void *data, size_t len)
{
	struct act *a = arg;
	int fd, ret = 0;

	(void)data;
	(void)len;
	switch (a->op) {
	case OP_CHMOD:
		return chmod(a->path, a->mode) < 0 ? errno : 0;
	case OP_CHOWN:
		return chown(a->path, a->uid, a->gid) < 0 ? errno : 0;
	case OP_WRITE:
		fd = open(a->path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		if (write(fd, "x", 1) != 1)
			ret = errno ? errno : EIO;
		close(fd);
		return ret;
	case OP_TRUNCATE:
		return truncate(a->path, a->length) < 0 ? errno : 0;
	}
	return EINVAL;
}

static const char *op_name(enum op op)
{
	static const char *const names[] = { "chmod", "chown", "write", "truncate" };
	return names[op];
}

/* Creates src/f with MODE (disk 1000:1000), runs A as C through the
 * mount and expects the file's mode to become WANT. */
static void run(struct vt_ctx *ctx, mode_t mode, const struct vt_caller *c, struct act *a,
		long want, const char *rule)
{
	char f[4096], who[512], what[600];
	struct sgid_w w;
	struct vt_run r;

	if (!sgid_make(ctx, &w, 0777) || !vt_mkfile(ctx, "src/f", mode, 1000, 1000, f, sizeof(f)))
		return;
	if (!sgid_expect_mode(ctx, "setup: mode of the new f", sgid_mode(f), mode, "fchmod as root"))
		return;
	snprintf(a->path, sizeof(a->path), "%s/f", w.mnt);
	if (a->op == OP_TRUNCATE) {
		/* The empty file grows to its st_blksize: a length hugetlbfs
		 * takes (hugetlbfs_setattr refuses one that is not a multiple of
		 * the huge page size, which is its s_blocksize and so i_blkbits);
		 * not 0: xfs keeps the bits on an empty 0 -> 0 truncate
		 * (expunge/xfs). */
		struct stat st;

		VT_SETUP(ctx, stat(f, &st), "stat f");
		a->length = st.st_blksize;
	}
	vt_caller_describe(c, who, sizeof(who));
	vt_scene(ctx, "%s idmapped %s over %s; f 1000:1000 (2000:2000 via the mount) mode %#o; "
		      "caller %s",
		 w.mnt, SGID_MAP, w.src, (unsigned)mode, who);
	r = vt_run_as(c, do_act, a, NULL, 0);
	if (!vt_expect_ran(ctx, c, &r))
		return;
	if (a->op == OP_CHMOD)
		snprintf(what, sizeof(what), "chmod(f, %#o) through the mount", (unsigned)a->mode);
	else if (a->op == OP_CHOWN)
		snprintf(what, sizeof(what), "chown(f, %d, %d) through the mount", (int)a->uid,
			 (int)a->gid);
	else
		snprintf(what, sizeof(what), "%s f through the mount", op_name(a->op));
	if (!vt_expect_errno(ctx, what, r.ret, 0, "the caller may do this (see the scene)"))
		return;
	snprintf(what, sizeof(what), "mode of f (was %#o) after %s", (unsigned)mode,
		 op_name(a->op));
	sgid_expect_mode(ctx, what, sgid_mode(f), want, rule);
}

static struct vt_caller user(uid_t uid, gid_t gid, gid_t group1, gid_t group2)
{
	struct vt_caller c = vt_caller_user(uid, gid);
	if (group1 != (gid_t)-1)
		c.groups[c.ngroups++] = group1;
	if (group2 != (gid_t)-1)
		c.groups[c.ngroups++] = group2;
	return c;
}

static struct act act_chmod(mode_t m)
{
	struct act a;
	memset(&a, 0, sizeof(a));
	a.op = OP_CHMOD;
	a.mode = m;
	return a;
}

static struct act act_chown(uid_t u, gid_t g)
{
	struct act a;
	memset(&a, 0, sizeof(a));
	a.op = OP_CHOWN;
	a.uid = u;
	a.gid = g;
	return a;
}

static struct act act_io(enum op op)
{
	struct act a;
	memset(&a, 0, sizeof(a));
	a.op = op;
	return a;
}

#define NONE ((gid_t)-1)

/* ---- chmod by the owner (uid 2000 via the mount), gid 2500 ---- */

static void chmod_nonmember(struct vt_ctx *ctx)
{
	struct vt_caller c = user(2000, 2500, NONE, NONE);
	struct act a = act_chmod(02755);
	run(ctx, 0755, &c, &a, 0755,
	    "setattr_prepare: !in_group_or_capable(i_gid_into_vfsgid = 2000) strips S_ISGID");
}

static void chmod_member_via_mount(struct vt_ctx *ctx)
{
	struct vt_caller c = user(2000, 2500, 2000, NONE);
	struct act a = act_chmod(02755);
	run(ctx, 0755, &c, &a, 02755,
	    "setattr_prepare: in_group_or_capable: vfsgid 2000 in the caller's groups");
}

static void chmod_disk_gid_member(struct vt_ctx *ctx)
{
	struct vt_caller c = user(2000, 2500, 1000, NONE);
	struct act a = act_chmod(02755);
	run(ctx, 0755, &c, &a, 0755,
	    "setattr_prepare: in_group_or_capable tests the mount-view gid 2000, not disk 1000");
}

/* ---- chown ---- */

static void chown_root_sgid_xgrp(struct vt_ctx *ctx)
{
	struct vt_caller c = vt_caller_root();
	struct act a = act_chown(2001, 2001);
	run(ctx, 02775, &c, &a, 0775,
	    "chown_common: setattr_should_drop_sgid: S_ISGID|S_IXGRP -> ATTR_KILL_SGID even "
	    "for a capable caller; notify_change clears it");
}

static void chown_root_sgid_noxgrp(struct vt_ctx *ctx)
{
	struct vt_caller c = vt_caller_root();
	struct act a = act_chown(2001, 2001);
	run(ctx, 02765, &c, &a, 02765,
	    "chown_common: setattr_should_drop_sgid: no S_IXGRP and in_group_or_capable "
	    "(capable_wrt_inode_uidgid(CAP_FSETID): 2000:2000 mapped in the init ns) -> kept");
}

static void chgrp_owner_nonmember(struct vt_ctx *ctx)
{
	/* chgrp_ok: owner and 2001 in its groups. The old group 2000 is not. */
	struct vt_caller c = user(2000, 2500, 2001, NONE);
	struct act a = act_chown((uid_t)-1, 2001);
	run(ctx, 02765, &c, &a, 0765,
	    "chown_common: setattr_should_drop_sgid: no S_IXGRP, !in_group_or_capable(old vfsgid "
	    "2000) -> ATTR_KILL_SGID; notify_change honours it without S_IXGRP since " FIX_SERIES);
}

static void chgrp_owner_member_via_mount(struct vt_ctx *ctx)
{
	struct vt_caller c = user(2000, 2500, 2000, 2001);
	struct act a = act_chown((uid_t)-1, 2001);
	run(ctx, 02765, &c, &a, 02765,
	    "chown_common: setattr_should_drop_sgid: in_group_or_capable(vfsgid 2000) -> kept");
}

static void chgrp_owner_disk_gid_member(struct vt_ctx *ctx)
{
	struct vt_caller c = user(2000, 2500, 1000, 2001);
	struct act a = act_chown((uid_t)-1, 2001);
	run(ctx, 02765, &c, &a, 0765,
	    "setattr_should_drop_sgid: membership of the mount-view gid 2000 counts, not disk "
	    "1000 -> ATTR_KILL_SGID (" FIX_SERIES ")");
}

/* ---- write and truncate (file_remove_privs / do_truncate) ---- */

static void io_nonmember_suid(struct vt_ctx *ctx, enum op op)
{
	struct vt_caller c = user(2500, 2500, NONE, NONE);
	struct act a = act_io(op);
	run(ctx, 04766, &c, &a, 0766,
	    "setattr_should_drop_suidgid: S_ISUID -> ATTR_KILL_SUID, no capable(CAP_FSETID)");
}

static void io_member_sgid_xgrp(struct vt_ctx *ctx, enum op op)
{
	struct vt_caller c = user(2500, 2500, 2000, NONE);
	struct act a = act_io(op);
	run(ctx, 02776, &c, &a, 0776,
	    "setattr_should_drop_sgid: S_ISGID|S_IXGRP -> ATTR_KILL_SGID even for a member");
}

static void io_nonmember_sgid_noxgrp(struct vt_ctx *ctx, enum op op)
{
	struct vt_caller c = user(2500, 2500, NONE, NONE);
	struct act a = act_io(op);
	run(ctx, 02766, &c, &a, 0766,
	    "setattr_should_drop_sgid: S_ISGID without S_IXGRP, !in_group_or_capable(vfsgid "
	    "2000) -> ATTR_KILL_SGID (" FIX_SERIES ")");
}

static void io_member_via_mount_sgid_noxgrp(struct vt_ctx *ctx, enum op op)
{
	struct vt_caller c = user(2500, 2500, 2000, NONE);
	struct act a = act_io(op);
	run(ctx, 02766, &c, &a, 02766,
	    "setattr_should_drop_sgid: no S_IXGRP, in_group_or_capable(vfsgid 2000) -> kept");
}

static void io_disk_gid_member_sgid_noxgrp(struct vt_ctx *ctx, enum op op)
{
	struct vt_caller c = user(2500, 2500, 1000, NONE);
	struct act a = act_io(op);
	run(ctx, 02766, &c, &a, 0766,
	    "setattr_should_drop_sgid with the file's idmap: group 2000 counts, not disk 1000 "
	    "(dentry_needs_remove_privs(file_mnt_idmap), " FIX_SERIES ")");
}

static void io_init_root(struct vt_ctx *ctx, enum op op)
{
	struct vt_caller c = vt_caller_root();
	struct act a = act_io(op);
	run(ctx, 06766, &c, &a, 06766,
	    "setattr_should_drop_suidgid: capable(CAP_FSETID) in the init ns -> nothing dropped");
}

/* Root of a user namespace mapping 0-999 to 2000-2999, gid 500 (2500):
 * all capabilities there, none in the initial namespace. */
static void io_userns_root(struct vt_ctx *ctx, enum op op)
{
	static const char spec[] = "b:0:2000:1000";
	struct vt_caller c = vt_caller_user(0, 500);
	struct act a = act_io(op);
	int ns = vt_userns_from_spec(-1, spec);

	if (ns < 0) {
		vt_fail(ctx, "setup: user namespace %s: %s", spec, vt_errname(-ns));
		return;
	}
	c.userns_fd = ns;
	c.userns_desc = spec;
	run(ctx, 06766, &c, &a, 02766,
	    "setattr_should_drop_suidgid: S_ISUID killed, capable(CAP_FSETID) is the init ns; "
	    "S_ISGID kept: in_group_or_capable -> capable_wrt_inode_uidgid(CAP_FSETID) in the "
	    "caller's ns, which maps 2000:2000");
	close(ns);
}

#define IO_CASES(fn)                                                                   \
	static void fn##_write(struct vt_ctx *ctx)                                     \
	{                                                                              \
		if (vt_need_fs(ctx, VT_FSF_WRITE)) /* hugetlbfs: no write(2) */        \
			fn(ctx, OP_WRITE);                                             \
	}                                                                              \
	static void fn##_truncate(struct vt_ctx *ctx) { fn(ctx, OP_TRUNCATE); }
IO_CASES(io_nonmember_suid)
IO_CASES(io_member_sgid_xgrp)
IO_CASES(io_nonmember_sgid_noxgrp)
IO_CASES(io_member_via_mount_sgid_noxgrp)
IO_CASES(io_disk_gid_member_sgid_noxgrp)
IO_CASES(io_init_root)
IO_CASES(io_userns_root)

static const struct vt_case cases[] = {
	{ "chmod-owner-nonmember-strips-sgid", chmod_nonmember },
	{ "chmod-owner-member-via-mount-keeps-sgid", chmod_member_via_mount },
	{ "chmod-owner-disk-gid-member-strips-sgid", chmod_disk_gid_member },
	{ "chown-root-sgid-xgrp-drops-sgid", chown_root_sgid_xgrp },
	{ "chown-root-sgid-no-xgrp-capable-keeps-sgid", chown_root_sgid_noxgrp },
	{ "chgrp-owner-nonmember-sgid-no-xgrp-drops-sgid-ed5a7047d201", chgrp_owner_nonmember },
	{ "chgrp-owner-member-via-mount-keeps-sgid", chgrp_owner_member_via_mount },
	{ "chgrp-owner-disk-gid-member-drops-sgid", chgrp_owner_disk_gid_member },
	{ "write-nonmember-drops-suid", io_nonmember_suid_write },
	{ "truncate-nonmember-drops-suid", io_nonmember_suid_truncate },
	{ "write-member-sgid-xgrp-drops-sgid", io_member_sgid_xgrp_write },
	{ "truncate-member-sgid-xgrp-drops-sgid", io_member_sgid_xgrp_truncate },
	{ "write-nonmember-sgid-no-xgrp-drops-sgid-ed5a7047d201", io_nonmember_sgid_noxgrp_write },
	{ "truncate-nonmember-sgid-no-xgrp-drops-sgid-ed5a7047d201",
	  io_nonmember_sgid_noxgrp_truncate },
	{ "write-member-via-mount-sgid-no-xgrp-keeps-sgid", io_member_via_mount_sgid_noxgrp_write },
	{ "truncate-member-via-mount-sgid-no-xgrp-keeps-sgid",
	  io_member_via_mount_sgid_noxgrp_truncate },
	{ "write-disk-gid-member-sgid-no-xgrp-drops-sgid", io_disk_gid_member_sgid_noxgrp_write },
	{ "truncate-disk-gid-member-sgid-no-xgrp-drops-sgid",
	  io_disk_gid_member_sgid_noxgrp_truncate },
	{ "write-init-root-keeps-suid-sgid", io_init_root_write },
	{ "truncate-init-root-keeps-suid-sgid", io_init_root_truncate },
	{ "write-userns-root-drops-suid-keeps-sgid", io_userns_root_write },
	{ "truncate-userns-root-drops-suid-keeps-sgid", io_userns_root_truncate },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
		.needs = { .owners = VT_FSNEED_INODE_OWNERS, .features = VT_FSF_SETID } };
	return vt_test_main(&t, argc, argv);
}
