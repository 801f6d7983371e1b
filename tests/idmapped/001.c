/* idmapped/001: another user's home directory seen as your own.
 *
 * Scenario 1 of the idmapped-mounts cover letter: a tree owned by uid/gid
 * 1000 is bind-mounted with the mapping b:1000:1001:1, so user 1001 sees it
 * as theirs. Checks: ownership as seen through the mount, the owner of a
 * file 1001 creates there (stored as 1000), a POSIX ACL entry for 1001 set
 * through the mount (stored as user:1000), and a v3 file capability whose
 * rootid is given through the mount (stored translated). Each expectation
 * names the kernel function it follows from. On vfat, which stores no
 * owners, the home is a vfat mounted uid=1000,gid=1000 (vt_owned_dir) and
 * root's file lives on one mounted uid=0; vfat has no POSIX ACLs and no
 * security.* xattrs, so those cases are notrun there (probed). */
#include "testlib/testlib.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <acl/libacl.h>
#include <sys/acl.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAP "b:1000:1001:1"

struct home {
	char src[4096], mnt[4096], file[4096], file_via[4096];
};

/* home/ (1000:1000, 0755) with file f (1000:1000, 0644), and the mount. */
static bool make_home(struct vt_ctx *ctx, struct home *h)
{
	if (!vt_owned_dir(ctx, "home", 0755, 0644, 1000, 1000, h->src, sizeof(h->src)))
		return false;
	if (!vt_mkfile(ctx, "home/f", 0644, 1000, 1000, h->file, sizeof(h->file)))
		return false;
	if (!vt_idmapped_at(ctx, h->src, MAP, "mnt", h->mnt, sizeof(h->mnt)))
		return false;
	snprintf(h->file_via, sizeof(h->file_via), "%s/f", h->mnt);
	vt_scene(ctx, "mount %s idmapped %s over %s", h->mnt, MAP, h->src);
	return true;
}

/* Filesystem features are probed on the plain mount: a probe through the
 * idmapped mount would mistake a translation bug (say EOPNOTSUPP or
 * EOVERFLOW where the rules say success) for a missing feature. */
static int probe_acl(void *arg, void *data, size_t len)
{
	return -vt_probe_posix_acl(arg);
}

static int probe_security_xattr(void *arg, void *data, size_t len)
{
	return -vt_probe_xattr(arg, "security.");
}

static void ownership_view(struct vt_ctx *ctx)
{
	struct home h;
	char root_dir[4096], root_file[4096], root_mnt[4096], root_via[4200];

	if (!make_home(ctx, &h))
		return;
	/* make_vfsuid(M, init, 1000) = map_id_down(1000) = 1001; stat shows
	 * from_kuid_munged(init, 1001) = 1001 (generic_fillattr). */
	vt_expect_owner(ctx, h.file_via, 1001, 1001, "make_vfsuid + generic_fillattr");
	vt_expect_owner(ctx, h.mnt, 1001, 1001, "make_vfsuid + generic_fillattr");
	/* The plain mount still shows the on-disk ids. */
	vt_expect_owner(ctx, h.file, 1000, 1000, "nop_mnt_idmap: no translation");
	/* uid 0 has no mapping in b:1000:1001:1: make_vfsuid gives INVALID_VFSUID
	 * and stat reports the overflow id (from_kuid_munged). */
	if (!vt_owned_dir(ctx, "roothome", 0755, 0644, 0, 0, root_dir, sizeof(root_dir)) ||
	    !vt_mkfile(ctx, "roothome/rootfile", 0644, 0, 0, root_file, sizeof(root_file)) ||
	    !vt_idmapped_at(ctx, root_dir, MAP, "rootmnt", root_mnt, sizeof(root_mnt)))
		return;
	snprintf(root_via, sizeof(root_via), "%s/rootfile", root_mnt);
	vt_expect_owner(ctx, root_via, vt_overflowuid(), vt_overflowgid(),
			"unmapped id -> overflowuid (from_kuid_munged)");
}

static void create_as_mapped_user(struct vt_ctx *ctx)
{
	struct vt_caller u1001 = vt_caller_user(1001, 1001);
	struct home h;
	char path[4096], on_disk[4096];
	struct vt_run r;

	if (!make_home(ctx, &h))
		return;
	snprintf(path, sizeof(path), "%s/new", h.mnt);
	snprintf(on_disk, sizeof(on_disk), "%s/new", h.src);
	r = vt_run_as(&u1001, vt_op_create, path, NULL, 0);
	if (!vt_expect_ran(ctx, &u1001, &r))
		return;
	/* may_o_create: fsuidgid_has_mapping(1001 -> 1000) holds, and the
	 * directory's mount-view owner 1001 == fsuid grants write. */
	if (!vt_expect_errno(ctx, "open(O_CREAT) as uid 1001 through the mount", r.ret, 0,
			     "may_o_create + owner bits via i_uid_into_vfsuid"))
		return;
	/* inode_init_owner: i_uid = mapped_fsuid = from_vfsuid(M, 1001) = 1000
	 * (vfat: fat_fill_inode gives uid=1000,gid=1000 whoever creates). */
	vt_expect_owner(ctx, on_disk, 1000, 1000,
			ctx->option_owners ? "fat_fill_inode: uid=/gid= of the mount"
				       : "inode_init_owner(mapped_fsuid/mapped_fsgid)");
	vt_expect_owner(ctx, path, 1001, 1001, "make_vfsuid of the new inode");
}

/* Permission of the ACL_USER entry for UID read through libacl, or -1. */
static int libacl_user_perm(const char *path, uid_t uid, int *err)
{
	acl_t acl = acl_get_file(path, ACL_TYPE_ACCESS);
	acl_entry_t e;
	int id = ACL_FIRST_ENTRY, perm = -1;

	*err = 0;
	if (!acl) {
		*err = errno;
		return -1;
	}
	while (acl_get_entry(acl, id, &e) == 1) {
		acl_tag_t tag;
		id = ACL_NEXT_ENTRY;
		if (acl_get_tag_type(e, &tag) == 0 && tag == ACL_USER) {
			uid_t *q = acl_get_qualifier(e);
			if (q && *q == uid) {
				acl_permset_t ps;
				acl_get_permset(e, &ps);
				perm = (acl_get_perm(ps, ACL_READ) ? 4 : 0) |
				       (acl_get_perm(ps, ACL_WRITE) ? 2 : 0) |
				       (acl_get_perm(ps, ACL_EXECUTE) ? 1 : 0);
			}
			acl_free(q);
		}
	}
	acl_free(acl);
	return perm;
}

static int set_acl(void *arg, void *data, size_t len)
{
	const char *const *a = arg;
	int ret = vt_acl_write_text(a[0], false, a[1]);
	return ret < 0 ? -ret : 0;
}

static void acl_through_mount(struct vt_ctx *ctx)
{
	struct vt_caller u1001 = vt_caller_user(1001, 1001), root = vt_caller_root();
	struct vt_acl_entry ents[VT_ACL_MAX_ENTRIES];
	const char *args[2];
	struct home h;
	struct vt_run r;
	int n, perm, err;

	if (!vt_need_fs(ctx, VT_FSF_POSIX_ACL))	/* the table first, then the probe */
		return;
	if (!make_home(ctx, &h))
		return;
	args[0] = h.file_via;
	args[1] = "u::rw-,u:1001:rwx,g::r--,m::rwx,o::r--";
	if (!vt_probe_feature(ctx, "POSIX ACLs on the plain mount", &root, probe_acl, h.src))
		VT_SKIP(ctx, "%s has no POSIX ACL support here", ctx->fstype);
	r = vt_run_as(&u1001, set_acl, args, NULL, 0);
	if (!vt_expect_ran(ctx, &u1001, &r))
		return;
	/* set_posix_acl: inode_owner_or_capable(M): mount-view owner 1001 == fsuid. */
	if (!vt_expect_errno(ctx, "setfacl -m u:1001:rwx as uid 1001 through the mount", r.ret, 0,
			     "set_posix_acl: inode_owner_or_capable(idmap)"))
		return;
	/* vfs_set_acl: ACL_USER e_uid := from_vfsuid(M, S, 1001) = 1000 on disk. */
	n = vt_acl_read(h.file, false, ents, VT_ACL_MAX_ENTRIES);
	if (n < 0) {
		vt_fail(ctx, "getxattr system.posix_acl_access of %s: %s", h.file, vt_errname(-n));
		return;
	}
	vt_expect_eq(ctx, "on-disk ACL_USER entry for 1000 (raw xattr, plain mount)",
		     vt_acl_find(ents, n, VT_ACL_USER, 1000), 7, "vfs_set_acl: from_vfsuid");
	vt_expect_eq(ctx, "no on-disk ACL_USER entry for 1001 (raw xattr, plain mount)",
		     vt_acl_find(ents, n, VT_ACL_USER, 1001), -1, "vfs_set_acl: from_vfsuid");
	/* Both views through libacl: the plain mount shows user:1000, the
	 * idmapped one user:1001 (vfs_posix_acl_to_xattr: make_vfsuid). */
	perm = libacl_user_perm(h.file, 1000, &err);
	vt_expect_eq(ctx, "libacl, plain mount: user:1000 perm", perm, 7,
		     "posix_acl_to_xattr without idmap");
	perm = libacl_user_perm(h.file_via, 1001, &err);
	vt_expect_eq(ctx, "libacl, idmapped mount: user:1001 perm", perm, 7,
		     "vfs_posix_acl_to_xattr: make_vfsuid");
	perm = libacl_user_perm(h.file_via, 1000, &err);
	vt_expect_eq(ctx, "libacl, idmapped mount: no user:1000 entry", perm, -1,
		     "vfs_posix_acl_to_xattr: make_vfsuid");
}

static int set_acl_unmapped(void *arg, void *data, size_t len)
{
	int ret = vt_acl_write_text(arg, false, "u::rw-,u:5000:rwx,g::r--,m::rwx,o::r--");
	return ret < 0 ? -ret : 0;
}

static void acl_unmapped_entry(struct vt_ctx *ctx)
{
	struct vt_caller u1001 = vt_caller_user(1001, 1001), root = vt_caller_root();
	struct home h;
	struct vt_run r;

	if (!vt_need_fs(ctx, VT_FSF_POSIX_ACL))	/* the table first, then the probe */
		return;
	if (!make_home(ctx, &h))
		return;
	if (!vt_probe_feature(ctx, "POSIX ACLs on the plain mount", &root, probe_acl, h.src))
		VT_SKIP(ctx, "%s has no POSIX ACL support here", ctx->fstype);
	r = vt_run_as(&u1001, set_acl_unmapped, h.file_via, NULL, 0);
	if (!vt_expect_ran(ctx, &u1001, &r))
		return;
	/* vfs_set_acl: from_vfsuid(M, S, 5000) is INVALID (5000 is not in the
	 * mount's range), and posix_acl_valid() rejects an entry whose id has no
	 * mapping in the filesystem's namespace with EINVAL. */
	vt_expect_errno(ctx, "setfacl -m u:5000:rwx through the mount (5000 unmapped)", r.ret,
			EINVAL, "vfs_set_acl from_vfsuid -> posix_acl_valid");
}

static int set_caps_v3(void *arg, void *data, size_t len)
{
	cap_t caps = cap_from_text("cap_net_raw=ep");
	int ret;

	if (!caps)
		return EINVAL;
	/* libcap writes a v3 (namespaced) xattr when an nsowner is set. */
	if (cap_set_nsowner(caps, 1001) < 0) {
		cap_free(caps);
		return errno;
	}
	ret = cap_set_file(arg, caps) < 0 ? errno : 0;
	cap_free(caps);
	return ret;
}

static void fscaps_rootid(struct vt_ctx *ctx)
{
	struct vt_caller root = vt_caller_root();
	struct vt_fcaps disk, via;
	struct home h;
	struct vt_run r;
	cap_t got;
	int ret;

	if (!vt_need_fs(ctx, VT_FSF_XATTR_SECURITY))	/* the table first, then the probe */
		return;
	if (!make_home(ctx, &h))
		return;
	if (!vt_probe_feature(ctx, "security.* xattrs on the plain mount", &root,
			      probe_security_xattr, h.src))
		VT_SKIP(ctx, "%s has no security.* xattrs here", ctx->fstype);
	r = vt_run_as(&root, set_caps_v3, h.file_via, NULL, 0);
	if (!vt_expect_ran(ctx, &root, &r))
		return;
	/* cap_convert_nscap: vroot = make_kuid(init, 1001) = 1001;
	 * root = from_vfsuid(M, S, 1001) = 1000; stored v3 with rootid 1000. */
	if (!vt_expect_errno(ctx, "setcap (v3, rootid 1001) through the mount", r.ret, 0,
			     "cap_convert_nscap"))
		return;
	ret = vt_fcaps_read(h.file, &disk);
	if (ret < 0) {
		vt_fail(ctx, "read security.capability of %s: %s", h.file, vt_errname(-ret));
		return;
	}
	vt_expect_eq(ctx, "on-disk security.capability version", disk.version, VT_CAP_V3,
		     "cap_convert_nscap stores v3");
	vt_expect_eq(ctx, "on-disk rootid (plain mount)", disk.rootid, 1000,
		     "cap_convert_nscap: from_vfsuid(M, S, 1001)");
	/* cap_inode_getsecurity: make_vfsuid(M, S, 1000) = 1001, non-zero, so
	 * it is returned as v3 with rootid 1001. */
	ret = vt_fcaps_read(h.file_via, &via);
	if (ret < 0) {
		vt_fail(ctx, "read security.capability of %s: %s", h.file_via, vt_errname(-ret));
		return;
	}
	vt_expect_eq(ctx, "rootid through the mount", via.rootid, 1001,
		     "cap_inode_getsecurity: make_vfsuid");
	got = cap_get_file(h.file_via);
	if (!got) {
		vt_fail(ctx, "libcap cap_get_file(%s): %s", h.file_via, vt_errname(errno));
		return;
	}
	vt_expect_eq(ctx, "libcap nsowner through the mount", (long long)cap_get_nsowner(got), 1001,
		     "cap_inode_getsecurity: make_vfsuid");
	cap_free(got);
	got = cap_get_file(h.file);
	if (got) {
		vt_expect_eq(ctx, "libcap nsowner through the plain mount",
			     (long long)cap_get_nsowner(got), 1000, "stored rootid");
		cap_free(got);
	}
}

static const struct vt_case cases[] = {
	{ "ownership-seen-through-mount", ownership_view },
	{ "create-as-1001-stored-as-1000", create_as_mapped_user },
	{ "acl-user-entry-translated", acl_through_mount },
	{ "acl-entry-for-unmapped-id-rejected", acl_unmapped_entry },
	{ "fscaps-v3-rootid-translated", fscaps_rootid },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
