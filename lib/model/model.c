/* The model's entry point: one operation in one world. */
#include "model/coredump_model.h"
#include "model/fhandle_model.h"
#include "model/rules.h"

#include <stdint.h>
#include <errno.h>
#include <string.h>

static const char *const names[VT_OP__COUNT] = {
	[VT_OP_OPEN_CREAT] = "open-creat",
	[VT_OP_OPEN_CREAT_EXCL] = "open-creat-excl",
	[VT_OP_TMPFILE] = "tmpfile",
	[VT_OP_MKDIR] = "mkdir",
	[VT_OP_MKFIFO] = "mkfifo",
	[VT_OP_SYMLINK] = "symlink",
	[VT_OP_LINK] = "link",
	[VT_OP_CHOWN] = "chown",
	[VT_OP_LCHOWN] = "lchown",
	[VT_OP_FCHOWN] = "fchown",
	[VT_OP_CHMOD] = "chmod",
	[VT_OP_OPEN_READ] = "open-read",
	[VT_OP_OPEN_WRITE] = "open-write",
	[VT_OP_OPEN_TRUNC] = "open-trunc",
	[VT_OP_WRITE] = "write",
	[VT_OP_TRUNCATE] = "truncate",
	[VT_OP_UTIMENS_NOW] = "utimens-now",
	[VT_OP_UTIMENS_SET] = "utimens-set",
	[VT_OP_UNLINK] = "unlink",
	[VT_OP_RMDIR] = "rmdir",
	[VT_OP_RENAME] = "rename",
	[VT_OP_RENAME_NOREPLACE] = "rename-noreplace",
	[VT_OP_RENAME_EXCHANGE] = "rename-exchange",
	[VT_OP_ACL_SET] = "acl-set",
	[VT_OP_ACL_GET] = "acl-get",
	[VT_OP_FCAPS_SET] = "fcaps-set",
	[VT_OP_FCAPS_GET] = "fcaps-get",
	[VT_OP_FCAPS_REMOVE] = "fcaps-remove",
	[VT_OP_XATTR_SET_USER] = "xattr-set-user",
	[VT_OP_XATTR_SET_TRUSTED] = "xattr-set-trusted",
	[VT_OP_XATTR_GET_USER] = "xattr-get-user",
	[VT_OP_XATTR_GET_TRUSTED] = "xattr-get-trusted",
	[VT_OP_XATTR_REMOVE_USER] = "xattr-remove-user",
	[VT_OP_XATTR_REMOVE_TRUSTED] = "xattr-remove-trusted",
	[VT_OP_XATTR_SET_SECURITY] = "xattr-set-security",
	[VT_OP_XATTR_GET_SECURITY] = "xattr-get-security",
	[VT_OP_XATTR_REMOVE_SECURITY] = "xattr-remove-security",
	[VT_OP_FAT_SET_ATTRS] = "fat-set-attrs",
	[VT_OP_MKNOD_CHR] = "mknod-chr",
	[VT_OP_RENAME_WHITEOUT] = "rename-whiteout",
	[VT_OP_EXEC] = "exec",
	[VT_OP_OPEN_CREAT_RDONLY] = "open-creat-rdonly",
	[VT_OP_ACCESS] = "access",
	[VT_OP_CHDIR] = "chdir",
	[VT_OP_FCHDIR] = "fchdir",
	[VT_OP_OPEN_NOATIME] = "open-noatime",
	[VT_OP_SETFL_NOATIME] = "setfl-noatime",
	[VT_OP_SETLEASE] = "setlease",
	[VT_OP_SETFLAGS] = "setflags",
	[VT_OP_FSSETXATTR] = "fssetxattr",
	[VT_OP_DEDUPE] = "dedupe",
	[VT_OP_READ_ATIME] = "read-atime",
	[VT_OP_CACHESTAT] = "cachestat",
	[VT_OP_FSCRYPT_SET_POLICY] = "fscrypt-set-policy",
};

/* Model entry points that vt_model_apply does not reach (hand-written
 * tests call them: coredump_model.h, fhandle_model.h). Referenced here so
 * that every program linking the model links them too and carries their
 * mutation points (break.h: the registry is the linker section of the
 * objects linked from the archive): vfsidmap-tool mutants, the scorer. */
__attribute__((used)) static const uintptr_t vt_model_other_entries[] = {
	(uintptr_t)vt_model_coredump,
	(uintptr_t)vt_model_open_by_handle,
};

const char *vt_mop_name(enum vt_mop op)
{
	return op < VT_OP__COUNT && names[op] ? names[op] : "?";
}

void vt_model_apply(const struct vt_world *w, const struct vt_mop_args *op,
		    struct vt_expect *out)
{
	memset(out, 0, sizeof(*out));
	out->got_nacl = -1;
	if (w->optowner && !w->fs_ops) {
		/* the generic rules would model the generic filesystem's
		 * operations on it: a world built wrong, said, never answered */
		out->err = EINVAL;
		out->rule = "vt_model_apply: a world with owners from mount options but without "
			    "their fs_ops (lib/model/fs_ops.h)";
		return;
	}
	if (w->sb_rdonly && vt_model_read_only(w, op, out))
		return;
	switch (op->op) {
	case VT_OP_OPEN_CREAT:
	case VT_OP_OPEN_CREAT_RDONLY:
	case VT_OP_OPEN_CREAT_EXCL:
	case VT_OP_TMPFILE:
	case VT_OP_MKDIR:
	case VT_OP_MKFIFO:
	case VT_OP_SYMLINK:
	case VT_OP_MKNOD_CHR:
		vt_model_create(w, op, out);
		break;
	case VT_OP_LINK:
		vt_model_link(w, op, out);
		break;
	case VT_OP_CHOWN:
	case VT_OP_LCHOWN:
	case VT_OP_FCHOWN:
	case VT_OP_CHMOD:
	case VT_OP_UTIMENS_NOW:
	case VT_OP_UTIMENS_SET:
	case VT_OP_TRUNCATE:
		vt_model_setattr(w, op, out);
		break;
	case VT_OP_OPEN_READ:
	case VT_OP_OPEN_WRITE:
	case VT_OP_OPEN_TRUNC:
	case VT_OP_WRITE:
		vt_model_open_existing(w, op, out);
		break;
	case VT_OP_UNLINK:
	case VT_OP_RMDIR:
	case VT_OP_RENAME:
	case VT_OP_RENAME_NOREPLACE:
	case VT_OP_RENAME_EXCHANGE:
	case VT_OP_RENAME_WHITEOUT:
		vt_model_delete(w, op, out);
		break;
	case VT_OP_EXEC:
		vt_model_exec(w, op, out);
		break;
	case VT_OP_ACCESS:
	case VT_OP_CHDIR:
	case VT_OP_FCHDIR:
	case VT_OP_OPEN_NOATIME:
	case VT_OP_SETFL_NOATIME:
	case VT_OP_SETLEASE:
	case VT_OP_SETFLAGS:
	case VT_OP_FSSETXATTR:
	case VT_OP_DEDUPE:
	case VT_OP_READ_ATIME:
	case VT_OP_CACHESTAT:
	case VT_OP_FSCRYPT_SET_POLICY:
		vt_model_fileop(w, op, out);
		break;
	case VT_OP_FAT_SET_ATTRS:
		vt_model_fat_set_attrs(w, op, out);
		break;
	default:
		vt_model_xattr(w, op, out);
		break;
	}
}
