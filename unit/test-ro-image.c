/* The read-only image path (lib/world/ro_image.c): the staged tree holds
 * every owner, mode, setid bit, ACL, xattr and file capability of its
 * table, and so does each image made from it (erofs; squashfs without
 * ACLs: squashfs_xattr_handlers have no ACL handler), read back through a
 * loop mount; an existing image path is refused (EEXIST), and nothing is
 * left but the image (no staging directory, no mount, no loop device: the
 * loop device is autoclear and the mounts live in this test's private
 * mount namespace). Needs root; notrun (skip) otherwise. */
#include "unit.h"
#include "fs/fs_table.h"
#include "util/errname.h"
#include "world/fsimage.h"
#include "world/ro_image.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

/* Every entry of the table as found below ROOT; ACLS: the filesystem
 * keeps POSIX ACLs (else getxattr of one is EOPNOTSUPP: __get_acl,
 * !IS_POSIXACL). Returns the number of mismatches, printed as notes. */
static int compare_tree(const char *root, bool acls)
{
	size_t n;
	int bad = 0;

	for (n = 0; n < vt_ro_tree_count; n++) {
		const struct vt_ro_entry *e = &vt_ro_tree[n];
		struct vt_acl_entry a[VT_ACL_MAX_ENTRIES];
		struct vt_fcaps c;
		char path[4200], v[64];
		struct stat st;
		int k, got;
		ssize_t len;

		snprintf(path, sizeof(path), "%s/%s", root, e->path);
		if (lstat(path, &st) < 0) {
			printf("# %s: %s\n", path, vt_errname(errno));
			bad++;
			continue;
		}
		if (st.st_uid != e->uid || st.st_gid != e->gid ||
		    (e->kind != 'l' && (st.st_mode & 07777) != e->mode)) {
			printf("# %s: %u:%u %04o, table %u:%u %04o\n", e->path, (unsigned)st.st_uid,
			       (unsigned)st.st_gid, (unsigned)(st.st_mode & 07777), (unsigned)e->uid,
			       (unsigned)e->gid, (unsigned)e->mode);
			bad++;
		}
		if (e->kind == 'l')
			continue;
		got = vt_acl_read(path, false, a, VT_ACL_MAX_ENTRIES);
		if (e->nacl && acls) {
			for (k = 0; got == e->nacl && k < got; k++)
				if (a[k].tag != e->acl[k].tag || a[k].perm != e->acl[k].perm ||
				    ((a[k].tag == VT_ACL_USER || a[k].tag == VT_ACL_GROUP) &&
				     a[k].id != e->acl[k].id))
					break;
			if (got != e->nacl || k != got) {
				printf("# %s: access ACL %d entries (%s), table %d\n", e->path, got,
				       got < 0 ? vt_errname(-got) : "differ", e->nacl);
				bad++;
			}
		} else if (!acls && got != -EOPNOTSUPP) {
			printf("# %s: access ACL read gives %d, want EOPNOTSUPP\n", e->path, got);
			bad++;
		}
		if (e->ndefacl && acls) {
			got = vt_acl_read(path, true, a, VT_ACL_MAX_ENTRIES);
			if (got != e->ndefacl) {
				printf("# %s: default ACL %d entries, table %d\n", e->path, got, e->ndefacl);
				bad++;
			}
		}
		got = vt_fcaps_read(path, &c);
		if (e->fcaps_version ? got != 0 || c.version != e->fcaps_version ||
					       c.permitted != (1ULL << 13) ||
					       (c.version == 3 && c.rootid != e->fcaps_rootid)
				     : got != -ENODATA) {
			printf("# %s: security.capability %d v%d, table v%d\n", e->path, got,
			       got ? 0 : c.version, e->fcaps_version);
			bad++;
		}
		len = lgetxattr(path, VT_RO_USER_XATTR, v, sizeof(v));
		if (e->user_xattr ? len != (ssize_t)strlen(VT_RO_USER_VALUE) ||
					    memcmp(v, VT_RO_USER_VALUE, (size_t)len)
				  : len >= 0) {
			printf("# %s: user.vt %zd\n", e->path, len);
			bad++;
		}
		len = lgetxattr(path, VT_RO_TRUSTED_XATTR, v, sizeof(v));
		if (e->trusted_xattr ? len != (ssize_t)strlen(VT_RO_TRUSTED_VALUE) ||
					       memcmp(v, VT_RO_TRUSTED_VALUE, (size_t)len)
				     : len >= 0) {
			printf("# %s: trusted.vt %zd\n", e->path, len);
			bad++;
		}
	}
	return bad;
}

static const char *probe_path(void)
{
	static char p[4200];
	const char *top = getenv("abs_top_builddir");

	snprintf(p, sizeof(p), "%s/tests/matrix/exec-probe", top && *top ? top : ".");
	return p;
}

int main(void)
{
	static const char *const fss[] = { "erofs", "squashfs" };
	char base[] = "/var/tmp/vt-unit-ro.XXXXXX", stage[4200], img[4200], mnt[4200], name[200];
	const char *what = "";
	size_t f;
	int ret;

	unit_begin(1 + 4 * 2);
	if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 || !mkdtemp(base)) {
		unit_skip("stage the tree", "needs root (a private mount namespace and tmpfs)");
		for (f = 0; f < 2 * 4; f++)
			unit_skip("image", "needs root");
		return 0;
	}
	/* the staged tree on a tmpfs, as vt_ro_image_create stages it */
	snprintf(stage, sizeof(stage), "%s/stage", base);
	mkdir(stage, 0700);
	ret = mount("tmpfs", stage, "tmpfs", 0, "mode=0755");
	if (!ret)
		ret = vt_ro_stage(stage, probe_path(), &what);
	unit_check(ret == 0 && compare_tree(stage, true) == 0,
		   "the staged tree has the table's owners, modes, ACLs, xattrs and capabilities");
	if (ret)
		printf("# staging: %s: %s\n", what, vt_errname(-ret));
	umount2(stage, MNT_DETACH);
	rmdir(stage);

	for (f = 0; f < sizeof(fss) / sizeof(fss[0]); f++) {
		const struct vt_fs_row *r = vt_fs_row(fss[f]);
		char why[300];
		struct stat st;

		snprintf(img, sizeof(img), "%s/%s.img", base, fss[f]);
		snprintf(mnt, sizeof(mnt), "%s/%s.mnt", base, fss[f]);
		if (!vt_fstype_in_kernel(fss[f]) || !r) {
			snprintf(why, sizeof(why), "no %s in this kernel", fss[f]);
			for (ret = 0; ret < 4; ret++)
				unit_skip(fss[f], why);
			continue;
		}
		ret = vt_ro_image_create(img, fss[f], NULL, probe_path(), -1, &what);
		if (ret == -ENOENT || ret == -ENOEXEC) {
			snprintf(why, sizeof(why), "%s failed or is not installed (Debian package %s)",
				 r->mkfs, r->package);
			if (ret == -ENOEXEC) {
				unit_check(0, why);
			} else {
				unit_skip(fss[f], why);
			}
			for (ret = 0; ret < 3; ret++)
				unit_skip(fss[f], why);
			continue;
		}
		snprintf(name, sizeof(name), "%s: image made, its staging directory gone", fss[f]);
		snprintf(why, sizeof(why), "%s.stage", img);
		unit_check(ret == 0 && lstat(why, &st) < 0 && errno == ENOENT, name);
		if (ret)
			printf("# %s: %s: %s\n", fss[f], what, vt_errname(-ret));
		snprintf(name, sizeof(name), "%s: an existing image path is refused (EEXIST)", fss[f]);
		unit_check(vt_ro_image_create(img, fss[f], NULL, probe_path(), -1, &what) == -EEXIST,
			   name);
		mkdir(mnt, 0755);
		ret = vt_fs_mount(fss[f], img, mnt, NULL);
		snprintf(name, sizeof(name), "%s: the image holds the table's tree%s", fss[f],
			 (r->supports & VT_FSF_POSIX_ACL) ? "" : " (without ACLs)");
		unit_check(ret == 0 && compare_tree(mnt, (r->supports & VT_FSF_POSIX_ACL) != 0) == 0,
			   name);
		snprintf(name, sizeof(name), "%s: mounted read-only (ST_RDONLY: SB_RDONLY)", fss[f]);
		{
			char probe[4300];
			int fd;

			snprintf(probe, sizeof(probe), "%s/new", mnt);
			fd = open(probe, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
			unit_check(ret == 0 && fd < 0 && errno == EROFS, name);
			if (fd >= 0)
				close(fd);
		}
		if (ret == 0)
			umount2(mnt, 0);
		rmdir(mnt);
		unlink(img);
	}
	rmdir(base);
	return unit_end();
}
