/* idmapped/002: a whole filesystem mapped without root.
 *
 * Scenario 2 of the idmapped-mounts cover letter: a tree is mounted with
 * b:1:1:65536, an identity mapping of 1..65536 that leaves uid/gid 0 out.
 * Root (fsuid 0) creating anything through that mount must get EOVERFLOW
 * ("Value too large for defined data type"), because the object's owner
 * would not be representable on disk; uid 1000 creates normally and the
 * file is owned by 1000 on disk. On vfat the tree is a vfat mounted
 * uid=1000,gid=1000 (vt_owned_dir), EOVERFLOW still comes first
 * (may_create), and mknod/symlink by uid 1000 get the errno of the
 * inode operation vfat lacks (lib/model: vfs_mknod, vfs_symlink). */
#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAP "b:1:1:65536"

static const struct {
	const char *what;
	vt_caller_fn fn;
	enum vt_mop op;
} creators[] = {
	{ "open(O_CREAT)", vt_op_create, VT_OP_OPEN_CREAT },
	{ "mkdir", vt_op_mkdir, VT_OP_MKDIR },
	{ "mknod(S_IFIFO)", vt_op_mkfifo, VT_OP_MKFIFO },
	{ "symlink", vt_op_symlink, VT_OP_SYMLINK },
};

/* src/ owned 1000:1000 mode 0777 (its mount-view owner is mapped, so
 * inode_permission does not refuse writes for HAS_UNMAPPED_ID), and the
 * idmapped mount of it. */
static bool setup(struct vt_ctx *ctx, char *src, char *mnt)
{
	if (!vt_owned_dir(ctx, "src", 0777, 0666, 1000, 1000, src, 4096))
		return false;
	if (!vt_idmapped_at(ctx, src, MAP, "mnt", mnt, 4096))
		return false;
	return true;
}

static void root_gets_eoverflow(struct vt_ctx *ctx)
{
	struct vt_caller root = vt_caller_root();
	char src[4096], mnt[4096], path[4200], who[256];
	size_t i;

	if (!setup(ctx, src, mnt))
		return;
	vt_caller_describe(&root, who, sizeof(who));
	vt_scene(ctx, "mount %s idmapped %s; caller %s", mnt, MAP, who);
	for (i = 0; i < sizeof(creators) / sizeof(creators[0]); i++) {
		struct vt_run r;
		char op[256];

		snprintf(path, sizeof(path), "%s/obj%zu", mnt, i);
		r = vt_run_as(&root, creators[i].fn, path, NULL, 0);
		if (!vt_expect_ran(ctx, &root, &r))
			return;
		/* may_create / may_o_create: fsuidgid_has_mapping(): mapped_fsuid =
		 * from_vfsuid(M, init, 0) = map_id_up(0) has no mapping in
		 * b:1:1:65536 -> EOVERFLOW, before any permission check. */
		snprintf(op, sizeof(op), "%s %s as root", creators[i].what, path);
		vt_expect_errno(ctx, op, r.ret, EOVERFLOW, "fsuidgid_has_mapping in may_create");
		snprintf(path, sizeof(path), "%s/obj%zu", src, i);
		if (access(path, F_OK) == 0)
			vt_fail(ctx, "%s exists on disk after a refused create", path);
	}
}

static void user_creates_as_itself(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(1000, 1000);
	char src[4096], mnt[4096], path[4200], disk[4200], who[256];
	size_t i;

	if (!setup(ctx, src, mnt))
		return;
	vt_caller_describe(&u, who, sizeof(who));
	vt_scene(ctx, "mount %s idmapped %s; caller %s", mnt, MAP, who);
	for (i = 0; i < sizeof(creators) / sizeof(creators[0]); i++) {
		const char *lacks_rule;
		int lacks = vt_fs_lacks(ctx, creators[i].op, &lacks_rule);
		struct vt_run r;
		char op[256];

		snprintf(path, sizeof(path), "%s/obj%zu", mnt, i);
		snprintf(disk, sizeof(disk), "%s/obj%zu", src, i);
		r = vt_run_as(&u, creators[i].fn, path, NULL, 0);
		if (!vt_expect_ran(ctx, &u, &r))
			return;
		snprintf(op, sizeof(op), "%s %s as uid 1000", creators[i].what, path);
		if (!vt_expect_errno(ctx, op, r.ret, lacks,
				     lacks ? lacks_rule : "may_create: 1000 is mapped; dir mode 0777") ||
		    lacks)
			continue;
		/* inode_init_owner: mapped_fsuid = map_id_up(1000) = 1000. */
		vt_expect_owner(ctx, disk, 1000, 1000, "inode_init_owner(mapped_fsuid)");
		vt_expect_owner(ctx, path, 1000, 1000, "identity mapping for 1..65536");
	}
}

static void root_owned_shows_overflow(struct vt_ctx *ctx)
{
	char src[4096], mnt[4096], file[4096], via[4200];

	/* root's file in a tree of its own (vfat: a mount with uid=0) */
	if (!vt_owned_dir(ctx, "rootsrc", 0755, 0644, 0, 0, src, sizeof(src)) ||
	    !vt_mkfile(ctx, "rootsrc/rootfile", 0644, 0, 0, file, sizeof(file)) ||
	    !vt_idmapped_at(ctx, src, MAP, "mnt", mnt, sizeof(mnt)))
		return;
	vt_scene(ctx, "mount %s idmapped %s", mnt, MAP);
	snprintf(via, sizeof(via), "%s/rootfile", mnt);
	/* make_vfsuid(M, init, 0): 0 has no mapping -> INVALID -> stat shows
	 * the overflow id (from_kuid_munged). */
	vt_expect_owner(ctx, via, vt_overflowuid(), vt_overflowgid(),
			"make_vfsuid -> INVALID -> overflowuid");
}

static const struct vt_case cases[] = {
	{ "root-create-eoverflow", root_gets_eoverflow },
	{ "uid1000-create-owned-1000", user_creates_as_itself },
	{ "root-owned-shows-overflowuid", root_owned_shows_overflow },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
