/* regress/003: POSIX ACLs through an idmapped mount of a filesystem
 * mounted in a user namespace.
 *
 * What went wrong: POSIX ACL translation tested "is the idmap the
 * identity?" instead of no_idmapping(); once 5.17 allowed idmapped mounts
 * of filesystems mounted inside a user namespace, setting ACLs on such a
 * tmpfs through an idmapped mount stored invalid ids (bugzilla 215849).
 * Affected: 5.17 - 5.18-rc3. Fix: 705191b03d50 "fs: fix acl translation"
 * (5.18-rc4). Guard: xfstests generic/689.
 *
 * Scene: a tmpfs mounted in userns S = b:0:100000:65536 (s_user_ns = S),
 * attached by host root at plain/, and a clone of it idmapped by host root
 * with M = b:0:200000:65536 at mnt/ (notrun where tmpfs cannot be
 * idmapped: before 6.3). Host root sets
 * user:201000:rwx through M. vfs_set_acl: from_vfsuid(M, S, 201000) =
 * make_kuid(S, up(M, 201000) = 1000) = kuid 101000. Read back from the
 * initial namespace: through the plain mount 101000, through M
 * make_vfsuid(M, S, 101000) = down(M, from_kuid(S, 101000) = 1000) = 201000. */
#include "testlib/testlib.h"
#include "world/xattr_view.h"
#include "../api/api_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int create_file(void *arg, void *data, size_t len)
{
	int fd = open(arg, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	(void)data;
	(void)len;
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static void acl_translation(struct vt_ctx *ctx)
{
	char plain[4096], mnt[4096], f_plain[4300], f_via[4300];
	struct vt_acl_entry e[VT_ACL_MAX_ENTRIES];
	int s_ns, m_ns, fd, n, ret;


	if (!vt_mkdir(ctx, "plain", 0755, 0, 0, plain, sizeof(plain)) ||
	    !vt_mkdir(ctx, "mnt", 0755, 0, 0, mnt, sizeof(mnt)))
		return;
	s_ns = vt_userns_from_spec(-1, "b:0:100000:65536");
	m_ns = vt_userns_from_spec(-1, "b:0:200000:65536");
	VT_SETUP(ctx, s_ns < 0 || m_ns < 0 ? -1 : 0, "user namespaces");
	if (!vt_userns_tmpfs_at(ctx, s_ns, plain))
		return;
	fd = api_clone(plain, 0);
	VT_SETUP(ctx, fd, "open_tree(plain, OPEN_TREE_CLONE)");
	if (!vt_expect_errno(ctx, "idmap the userns tmpfs with M", api_idmap_fd(fd, (uint64_t)m_ns, 0),
			     0, "can_idmap_mount: tmpfs FS_ALLOW_IDMAP, M != s_user_ns"))
		return;
	VT_SETUP(ctx, api_attach(fd, mnt) ? -1 : 0, "attach idmapped");
	close(fd);
	vt_scene(ctx, "tmpfs in userns b:0:100000:65536 at %s, idmapped b:0:200000:65536 at %s",
		 plain, mnt);
	/* A file owned by ns root (kuid 100000), made by a host process with
	 * that fsuid through the plain mount. */
	snprintf(f_plain, sizeof(f_plain), "%s/f", plain);
	snprintf(f_via, sizeof(f_via), "%s/f", mnt);
	{
		struct vt_caller c = vt_caller_user(100000, 100000);
		struct vt_run r = vt_run_as(&c, create_file, f_plain, NULL, 0);
		if (!vt_expect_ran(ctx, &c, &r) ||
		    !vt_expect_errno(ctx, "create f as kuid 100000 via the plain mount", r.ret, 0,
				     "fsuidgid_has_mapping(S): 100000 is ns root"))
			return;
	}
	vt_expect_owner(ctx, f_via, 200000, 200000, "make_vfsuid(M, S, 100000) = 200000");
	ret = vt_acl_write_text(f_via, false, "u::rw-,u:201000:rwx,g::r--,m::rwx,o::r--");
	if (!vt_expect_errno(ctx, "setfacl u:201000:rwx through M", ret < 0 ? -ret : 0, 0,
			     "vfs_set_acl: from_vfsuid(M, S, 201000) valid"))
		return;
	n = vt_acl_read(f_plain, false, e, VT_ACL_MAX_ENTRIES);
	if (n < 0) {
		vt_fail(ctx, "read ACL via plain mount: %s", vt_errname(-n));
		return;
	}
	vt_expect_eq(ctx, "ACL_USER 101000 via the plain mount", vt_acl_find(e, n, VT_ACL_USER, 101000),
		     7, "stored kuid make_kuid(S, up(M, 201000)) = 101000 (705191b03d50)");
	n = vt_acl_read(f_via, false, e, VT_ACL_MAX_ENTRIES);
	if (n < 0) {
		vt_fail(ctx, "read ACL via M: %s", vt_errname(-n));
		return;
	}
	vt_expect_eq(ctx, "ACL_USER 201000 via M", vt_acl_find(e, n, VT_ACL_USER, 201000), 7,
		     "vfs_posix_acl_to_xattr: make_vfsuid(M, S, 101000) = 201000");
	close(s_ns);
	close(m_ns);
}

static const struct vt_case cases[] = {
	{ "acl-on-userns-tmpfs-through-idmapped-mount-705191b03d50", acl_translation },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
