/* A read-only filesystem (SB_RDONLY: erofs_fc_fill_super and
 * squashfs_fill_super set it), one rule for every filesystem and every
 * write: the VFS asks mnt_want_write() (fs/namespace.c:
 * mnt_get_write_access -> __mnt_is_readonly, which is MNT_READONLY or
 * sb_rdonly) before it asks the filesystem anything, so the filesystem's
 * own code is never reached and the refusal is EROFS. What decides is
 * which checks come first, per system call (Linux 6.12):
 *   - every path: link_path_walk -> may_lookup (MAY_EXEC on each parent);
 *   - creates (mkdir, mknod, symlink, link's new name: filename_create):
 *     mnt_want_write, then the lookup of the last name: an existing
 *     name is EEXIST, only then the saved EROFS; link looks its source
 *     up first (do_linkat), and may_linkat comes after filename_create;
 *   - open(O_CREAT) of a missing name: open_last_lookups takes no write
 *     access, lookup_open sets create_error = -EROFS for a negative
 *     dentry (may_o_create is not called); an existing name goes on as
 *     an open of it, O_EXCL being EEXIST (do_open);
 *   - open for writing of an existing file, O_TRUNC, write: may_open ->
 *     inode_permission -> sb_permission (permission_rules.c), or
 *     do_open's mnt_want_write for O_TRUNC, both before the DAC checks;
 *   - O_TMPFILE: do_tmpfile, after the parent's lookup;
 *   - chown/chmod/utimensat: do_fchownat, chmod_common, vfs_utimes take
 *     mnt_want_write once the object is found (a trailing symlink is
 *     followed first, except AT_SYMLINK_NOFOLLOW); fchown: the open
 *     (MAY_READ) first, then vfs_fchown -> mnt_want_write_file;
 *   - truncate: vfs_truncate: EISDIR, EINVAL (not regular), then EROFS;
 *   - unlink, rmdir, rename*: do_unlinkat, do_rmdir, do_renameat2 take
 *     mnt_want_write after the parents' lookup and before the names';
 *   - set/remove xattr (ACLs, security.capability, user., trusted.):
 *     path_setxattr / path_removexattr, mnt_want_write after the lookup
 *     (the executor uses the l* calls: no symlink is followed).
 * Reads (stat, open for reading, getxattr, exec, readdir) are untouched. */
#include "model/rules.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* The object the path names after following a trailing symlink:
 * pick_link -> may_follow_link, then "t" in P. NULL and *ERR if that
 * fails (a link to itself is ELOOP). */
static const struct vt_minode *follow(const struct vt_world *w, int *err)
{
	const struct vt_minode *i = &w->obj;

	*err = 0;
	if (!i->exists) {
		*err = ENOENT;
		return NULL;
	}
	if (!S_ISLNK(i->mode))
		return i;
	*err = -vt_may_follow_link(w, &w->dir, i);
	if (*err)
		return NULL;
	if (!i->symlink_to_t) {
		*err = ELOOP;
		return NULL;
	}
	if (!w->other.exists) {
		*err = ENOENT;
		return NULL;
	}
	return &w->other;
}

#define DECIDE(e, errno_, rule_)                \
	do {                                    \
		(e)->err = (errno_);            \
		vt_set_rule((e), (rule_));      \
		return true;                    \
	} while (0)

bool vt_model_read_only(const struct vt_world *w, const struct vt_mop_args *a,
			struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	const struct vt_minode *i;
	bool name_exists;
	int ret;

	switch (a->op) {
	case VT_OP_OPEN_READ:
	case VT_OP_OPEN_WRITE:	/* sb_permission (permission_rules.c) */
	case VT_OP_OPEN_TRUNC:
	case VT_OP_WRITE:
	case VT_OP_ACL_GET:
	case VT_OP_FCAPS_GET:
	case VT_OP_XATTR_GET_USER:
	case VT_OP_XATTR_GET_TRUSTED:
	case VT_OP_XATTR_GET_SECURITY:
	case VT_OP_EXEC:
	/* file_rules.c: no write (access(W_OK) meets sb_permission there) */
	case VT_OP_ACCESS:
	case VT_OP_CHDIR:
	case VT_OP_FCHDIR:
	case VT_OP_OPEN_NOATIME:
	case VT_OP_SETFL_NOATIME:
	case VT_OP_SETLEASE:
	case VT_OP_READ_ATIME:	/* no write; IS_NOATIME holds (file_rules.c) */
	case VT_OP_CACHESTAT:	/* mm/filemap.c: no write, no mnt_want_write */
		return false;
	case VT_OP_TRUNCATE:
		/* ftruncate: the open(O_WRONLY) meets may_open's EISDIR, then
		 * sb_permission's EROFS (attr_rules.c, permission_rules.c) */
		if (a->by_fd)
			return false;
		break;
	default:
		break;
	}
	if (a->by_fd) {
		/* f{set,remove}xattr (fs/xattr.c): the fd's open(O_RDONLY) is
		 * allowed or refused as on any mount, then mnt_want_write_file */
		struct vt_mop_args rd = *a;

		rd.op = VT_OP_OPEN_READ;
		rd.by_fd = false;
		vt_model_open_existing(w, &rd, e);
		if (e->err)
			return true;
		vt_hit(w, VT_R_RO_MNT_WANT_WRITE, false);
		memset(&e->result, 0, sizeof(e->result));
		DECIDE(e, EROFS, VT_R_RO_MNT_WANT_WRITE);
	}
	ret = vt_may_lookup(w, &rule);
	if (ret)
		DECIDE(e, -ret, rule);
	name_exists = a->on_existing && w->obj.exists;
	switch (a->op) {
	case VT_OP_OPEN_CREAT:
	case VT_OP_OPEN_CREAT_EXCL:
	case VT_OP_OPEN_CREAT_RDONLY:
	case VT_OP_MKDIR:
	case VT_OP_MKFIFO:
	case VT_OP_SYMLINK:
	case VT_OP_MKNOD_CHR:
		/* an existing name: EEXIST or an open of it, as on any
		 * filesystem (its write checks reach sb_permission) */
		if (name_exists)
			return false;
		break;
	case VT_OP_LINK:
		if (!w->obj.exists)
			DECIDE(e, ENOENT, VT_R_LOOKUP_NOENT);
		break;
	case VT_OP_CHOWN:
	case VT_OP_CHMOD:
	case VT_OP_UTIMENS_NOW:
	case VT_OP_UTIMENS_SET:
		if (!follow(w, &ret))
			DECIDE(e, ret, ret == ENOENT ? VT_R_LOOKUP_NOENT
				       : ret == EACCES ? VT_R_FOLLOW_PROTECTED : VT_R_NONE);
		break;
	case VT_OP_TRUNCATE:
		i = follow(w, &ret);
		if (!i)
			DECIDE(e, ret, ret == ENOENT ? VT_R_LOOKUP_NOENT
				       : ret == EACCES ? VT_R_FOLLOW_PROTECTED : VT_R_NONE);
		if (S_ISDIR(i->mode))
			DECIDE(e, EISDIR, VT_R_TRUNC_DIR);
		if (!S_ISREG(i->mode))
			DECIDE(e, EINVAL, VT_R_NONE);
		break;
	case VT_OP_FAT_SET_ATTRS:	/* mnt_want_write_file after the open */
	case VT_OP_FCHOWN: {
		struct vt_mop_args rd = *a;

		rd.op = VT_OP_OPEN_READ;
		vt_model_open_existing(w, &rd, e);
		if (e->err)
			return true;
		break;
	}
	case VT_OP_LCHOWN:
	case VT_OP_ACL_SET:
	case VT_OP_FCAPS_SET:
	case VT_OP_FCAPS_REMOVE:
	case VT_OP_XATTR_SET_USER:
	case VT_OP_XATTR_SET_TRUSTED:
	case VT_OP_XATTR_REMOVE_USER:
	case VT_OP_XATTR_REMOVE_TRUSTED:
	case VT_OP_XATTR_SET_SECURITY:
	case VT_OP_XATTR_REMOVE_SECURITY:
		if (!w->obj.exists)
			DECIDE(e, ENOENT, VT_R_LOOKUP_NOENT);
		break;
	case VT_OP_RENAME:
	case VT_OP_RENAME_NOREPLACE:
	case VT_OP_RENAME_EXCHANGE:
	case VT_OP_RENAME_WHITEOUT:
		if (a->cross_dir) {
			ret = vt_may_lookup_in(w, &w->dir2, &rule);
			if (ret)
				DECIDE(e, -ret, rule);
		}
		break;
	default:	/* tmpfile, unlink, rmdir: after the parent's lookup */
		break;
	}
	vt_hit(w, VT_R_RO_MNT_WANT_WRITE, false);
	memset(&e->result, 0, sizeof(e->result));
	DECIDE(e, EROFS, VT_R_RO_MNT_WANT_WRITE);
}
