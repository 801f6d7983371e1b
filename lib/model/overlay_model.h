/* overlayfs stacked on idmapped layers (fs/overlayfs, Linux 6.12): what the
 * kernel must do when a caller works through a plain overlay mount whose
 * lower and upper layers are idmapped mounts. Built on the plain model
 * (vt_world): each overlay rule is the plain rule applied twice, once as
 * the caller to the overlay inode (through the overlay's own, never
 * idmapped, mount) and once as the mounter to the real inode through the
 * layer's idmap, plus what copy-up and creation add (overlay_model.c).
 *
 * Scope: regular files in the overlay's root directory whose real inode is
 * on the lower layer (not copied up yet); the root is the upper directory.
 * user.* and trusted.* xattrs (op_xattr: ovl_xattr_get, ovl_xattr_set) on
 * that file. POSIX access ACLs (op_acl): the overlay inode's are the real
 * inode's through its layer's idmap (ovl_get_acl_path, ovl_idmap_posix_acl:
 * vt_ovl_inode), read by the caller's getxattr and asked by its
 * permission checks where the caller's world has ACLs (op_acl's only);
 * set on a lower file without an ACL (a lower ACL's copy-up, ovl_copy_acl,
 * is not modelled) and only access ACLs of regular files. */
#ifndef VT_MODEL_OVERLAY_H
#define VT_MODEL_OVERLAY_H

#include "model/world_model.h"

struct vt_ovl_world {
	const struct vt_midmap *lower_idmap;	/* the lower layer's mount */
	const struct vt_midmap *upper_idmap;	/* the upper layer's mount */
	bool lower_rdonly;			/* the lower sb is read-only (an image) */
	struct vt_mcred caller;			/* works through the overlay mount */
	struct vt_mcred mounter;		/* ofs->creator_cred (ovl_override_creds) */
	struct vt_minode upper_root;		/* the upper dir: the overlay root's real inode */
	struct vt_minode lower_obj;		/* root/o, a lower inode (on-disk ids) */
	uint32_t overflowuid, overflowgid;
	/* where the rules decided are recorded (the matrix's case trace;
	 * NULL: nowhere) */
	struct vt_trace *trace;
	/* VT_OVL_CREATE's requested mode (0: 0644); the caller's umask
	 * applies (posix_acl_create on the upper filesystem, no default ACL) */
	mode_t create_mode;
	/* appended for rmdir, rename and link (VT_OVL_RMDIR/RENAME/LINK):
	 * root/t, a second lower file a rename replaces (exists false: none),
	 * and fs.protected_hardlinks, which may_linkat asks on the overlay
	 * inode */
	struct vt_minode lower_other;
	bool protected_hardlinks;
	/* appended for exec (VT_OP_EXEC in vt_ovl_model_mop): the exec
	 * model's bounding sets and fs.suid_dumpable (vt_world's) */
	uint64_t bset_init, cap_full;
	int suid_dumpable;
	/* the layers' filesystem has POSIX ACLs (IS_POSIXACL of the real
	 * inodes and of the workdir); the overlay's own sb always has
	 * SB_POSIXACL (ovl_fill_super, CONFIG_FS_POSIX_ACL). Asked by the
	 * ACL operations only (op_acl) */
	bool posixacl;
	/* the layers' filesystem lists its ACLs' raw trusted.* attribute too
	 * (vt_fs_lists_raw_acl: xfs), which ovl_copy_xattr copies after them */
	bool lists_raw_acl;
	/* appended for matrix/012's overlay cases (overlay_fileops.c):
	 * fs.protected_symlinks, _regular and _fifos as /proc says, which
	 * may_follow_link and may_create_in_sticky ask on the overlay inodes */
	int protected_symlinks, protected_regular, protected_fifos;
	/* appended for the erofs lower layer: the lower filesystem's
	 * inode_operations have no ->set_acl (erofs_generic_iops and the
	 * others of fs/erofs/inode.c, namei.c: .get_inode_acl only), which
	 * ovl_set_acl asks of the real inode before the copy-up */
	bool lower_no_set_acl;
	/* appended for an upper filesystem that lacks what overlayfs falls
	 * back from (the table's VT_FSF_WHITEOUT and VT_FSF_TMPFILE of the
	 * layers' row; ntfs3's has neither): ovl_make_workdir only warns
	 * ("upper fs does not support RENAME_WHITEOUT." / "... tmpfile."),
	 * the mount goes on, and each operation that needs them says what it
	 * does without (op_rename, copy_up) */
	bool upper_no_whiteout;
	bool upper_no_tmpfile;
};

enum vt_ovl_op {
	VT_OVL_STAT,		/* fstatat(root, o): the owner only */
	VT_OVL_OPEN_READ,	/* open(o, O_RDONLY) */
	VT_OVL_OPEN_WRITE,	/* open(o, O_WRONLY): copies o up */
	VT_OVL_CREATE,		/* open(n, O_CREAT|O_EXCL|O_WRONLY, 0644) in the root */
	VT_OVL_CHOWN,		/* fchownat(root, o, uid, gid, 0): copies o up */
	VT_OVL_UNLINK,		/* unlinkat(root, o, 0): a whiteout covers it */
	VT_OVL_RMDIR,		/* unlinkat(root, o, AT_REMOVEDIR) of an empty lower dir */
	VT_OVL_RENAME,		/* renameat(root, o, root, n), or over t (lower_other) */
	VT_OVL_LINK,		/* linkat(root, o, root, n, 0): copies o up */
};

struct vt_ovl_expect {
	int err;		/* 0 or the errno */
	const char *rule;	/* the kernel function that decides */
	enum vt_rule rule_id;	/* its rule (rule_table.h; VT_R_NONE: a plain rule in RULE's text) */
	/* on success: stat() of the result through the overlay, as the caller */
	vt_cuid_t seen_uid;
	vt_cgid_t seen_gid;
	/* is there an upper inode for the result now (also after a failure
	 * that came after the copy-up), and its on-disk owner */
	bool upper;
	vt_kuid_t upper_uid;
	vt_kgid_t upper_gid;
	mode_t upper_mode;	/* VT_OVL_CREATE: the new upper file's */
	bool whiteout;		/* the upper entry is a whiteout (char 0:0) */
	/* VT_OVL_RENAME: the old name o holds a whiteout on the upper layer
	 * (RENAME_WHITEOUT of ovl_rename), owned so on disk */
	bool old_whiteout;
	vt_kuid_t old_whiteout_uid;
	vt_kgid_t old_whiteout_gid;
	/* VT_OP_EXEC (vt_ovl_model_mop): the program's credentials */
	struct vt_exec_creds creds;
	/* the upper inode as a whole (its xattrs, ACLs, capability too) when
	 * the operation decided it (op_xattr); else it is the lower object
	 * with the owner and mode above */
	bool upper_obj_set;
	struct vt_minode upper_obj;
	/* VT_OP_ACL_GET: the entries the caller reads */
	int got_nacl;
	struct vt_acl_centry got_acl[VT_MODEL_MAX_ACL];
	/* VT_OP_FCAPS_GET: what the caller reads */
	struct vt_cfcaps got_fcaps;
	/* VT_OP_READ_ATIME (overlay_fileops.c): the read moved the atime the
	 * caller's fstat() shows (the lower file's, ovl_getattr) */
	bool atime_updated;
};

/* The overlay inode of a real inode reached through LAYER (ovl_copyattr). */
struct vt_minode vt_ovl_inode(const struct vt_midmap *layer, const struct vt_minode *real);

void vt_ovl_model(const struct vt_ovl_world *w, enum vt_ovl_op op, vt_cuid_t uid, vt_cgid_t gid,
		  struct vt_ovl_expect *e);

/* The matrix's overlay world (lib/matrix/world_setup.c, tests/matrix/README.md):
 * the case's P is a merged directory whose real inode is the upper P
 * (W->upper_root; the lower P is 0755 0:0, which every mounter lookup
 * passes by its other bits), P/o a lower file (W->lower_obj), both
 * layers idmapped. A: VT_OP_OPEN_READ, OPEN_WRITE, OPEN_TRUNC on P/o, or
 * VT_OP_OPEN_CREAT or VT_OP_OPEN_CREAT_EXCL of P/n (a new name), VT_OP_CHOWN
 * of P/o (no setid bits, no file capabilities), VT_OP_UNLINK, VT_OP_RMDIR
 * (an empty lower dir), VT_OP_RENAME to P/n or over a lower P/t
 * (W->lower_other; E's has_whiteout/whiteout: the upper P/o afterwards),
 * VT_OP_LINK to P/n, VT_OP_EXEC of a lower regular file (E's creds),
 * VT_OP_XATTR_{SET,GET,REMOVE}_{USER,TRUSTED} of P/o by path, VT_OP_ACL_SET /
 * VT_OP_ACL_GET of P/o's access ACL by path, VT_OP_FCAPS_SET / VT_OP_FCAPS_GET
 * of P/o by path (op_fcaps). E in the matrix's terms: err, rule_id,
 * result = the upper layer's P/o or P/n on disk afterwards (exists false:
 * there is none), seen_* = stat() of the result through the overlay as
 * the caller. */
void vt_ovl_model_mop(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		      struct vt_expect *e);

#endif
