/* The model's input (a world and one operation) and output (the expected
 * errno, or success and the state the kernel must leave behind). */
#ifndef VT_MODEL_WORLD_H
#define VT_MODEL_WORLD_H

#include "model/ids.h"
#include "model/mnt_idmap_model.h"
#include "model/rule_ids.h"
#include "model/userns_model.h"
#include "world/exec_probe.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define VT_MODEL_MAX_GROUPS 8
#define VT_MODEL_MAX_ACL 10

/* The caller: struct cred, ids given in the caller's own namespace. */
struct vt_mcred {
	const char *name;
	const struct vt_mns *ns;	/* current_user_ns() */
	vt_cuid_t uid;			/* real/effective/saved */
	vt_cgid_t gid;
	vt_cuid_t fsuid;
	vt_cgid_t fsgid;
	int ngroups;
	vt_cgid_t groups[VT_MODEL_MAX_GROUPS];
	uint64_t caps;			/* cap_effective, in ns */
	uint64_t bset_drop;		/* dropped from cap_bset after entering ns */
	mode_t umask;
};

/* An ACL entry on disk (kernel ids) and as the caller reads/writes it. */
struct vt_acl_kentry {
	uint16_t tag, perm;
	vt_kuid_t uid;	/* ACL_USER */
	vt_kgid_t gid;	/* ACL_GROUP */
};
struct vt_acl_centry {
	uint16_t tag, perm;
	vt_cuid_t uid;
	vt_cgid_t gid;
};

/* security.capability: on disk (rootid in the fs's s_user_ns) and as the
 * caller reads or writes it (rootid in the caller's namespace). */
struct vt_kfcaps {
	int version;		/* 0: none, 2 or 3 */
	vt_kuid_t rootid;	/* v3 */
};
struct vt_cfcaps {
	int version;
	vt_cuid_t rootid;
};

struct vt_minode {
	bool exists;
	mode_t mode;		/* type and permission bits */
	vt_kuid_t uid;
	vt_kgid_t gid;
	int nacl;		/* system.posix_acl_access entries, 0: none */
	struct vt_acl_kentry acl[VT_MODEL_MAX_ACL];
	int ndefacl;		/* system.posix_acl_default */
	struct vt_acl_kentry defacl[VT_MODEL_MAX_ACL];
	struct vt_kfcaps fcaps;
	bool user_xattr;	/* has user.vt */
	bool trusted_xattr;	/* has trusted.vt */
	bool security_xattr;	/* has security.vt */
	bool nonempty;		/* holds data, a directory an entry (only fscrypt's
				 * ->empty_dir asks; elsewhere a fixture detail) */
	int enc_policy;		/* 0: not encrypted; n: has the suite's v1 policy n */
	bool exec_probe;	/* holds a copy of tests/matrix/exec-probe (a fixture detail) */
	bool old_atime;		/* atime set to VT_FX_OLD_ATIME after the rest (a fixture detail) */
	bool symlink_to_t;	/* a symlink whose target is "t" (else "o": itself) */
};

/* Every field of inode I as words, one after another (no padding), into
 * OUT (VT_MINODE_KEY_WORDS of room); returns how many. Two inodes with the
 * same words are the same inode on disk: a tree of fixtures is known by
 * them (lib/matrix/ovl_erofs.c reuses an image made for the same tree). A
 * field added to vt_minode is added here too. */
#define VT_MINODE_KEY_WORDS (10 + 2 * 4 * VT_MODEL_MAX_ACL)
static inline int vt_minode_key(const struct vt_minode *i, uint32_t *out)
{
	int n = 10, k;

	out[0] = i->exists;
	if (!i->exists)
		return 1;
	out[1] = (uint32_t)i->mode;
	out[2] = i->uid.val;
	out[3] = i->gid.val;
	out[4] = (uint32_t)i->nacl;
	out[5] = (uint32_t)i->ndefacl;
	out[6] = (uint32_t)i->fcaps.version;
	out[7] = i->fcaps.rootid.val;
	out[8] = (uint32_t)i->user_xattr | (uint32_t)i->trusted_xattr << 1 |
		 (uint32_t)i->security_xattr << 2 | (uint32_t)i->nonempty << 3 |
		 (uint32_t)i->exec_probe << 4 | (uint32_t)i->old_atime << 5 |
		 (uint32_t)i->symlink_to_t << 6;
	out[9] = (uint32_t)i->enc_policy;
	for (k = 0; k < i->nacl && k < VT_MODEL_MAX_ACL; k++, n += 4) {
		out[n] = i->acl[k].tag;
		out[n + 1] = i->acl[k].perm;
		out[n + 2] = i->acl[k].uid.val;
		out[n + 3] = i->acl[k].gid.val;
	}
	for (k = 0; k < i->ndefacl && k < VT_MODEL_MAX_ACL; k++, n += 4) {
		out[n] = i->defacl[k].tag;
		out[n + 1] = i->defacl[k].perm;
		out[n + 2] = i->defacl[k].uid.val;
		out[n + 3] = i->defacl[k].gid.val;
	}
	return n;
}

/* An existing inode of MODE owned by UID:GID on disk, nothing else set. */
static inline struct vt_minode vt_minode_make(mode_t mode, uint32_t uid, uint32_t gid)
{
	struct vt_minode i = { .exists = true, .mode = mode, .uid = vt_kuid(uid),
			       .gid = vt_kgid(gid) };
	return i;
}

struct vt_optowner_opts;
struct vt_fs_ops;

struct vt_world {
	const struct vt_mns *fs_ns;	/* sb->s_user_ns */
	bool posixacl;			/* IS_POSIXACL (SB_POSIXACL) */
	bool sb_rdonly;			/* SB_RDONLY: a read-only image (readonly_rules.c) */
	/* owners from mount options (optowner_model.h: vfat, msdos, exfat):
	 * the mount's options and the filesystem's operations; NULL: the fs
	 * stores owners */
	const struct vt_optowner_opts *optowner;
	/* the filesystem's own inode operations (fs_ops.h); NULL: generic */
	const struct vt_fs_ops *fs_ops;
	const struct vt_midmap *idmap;	/* the mount's idmap (vt_nop_idmap: plain) */
	struct vt_mcred cred;
	struct vt_minode dir;		/* the parent directory P */
	struct vt_minode obj;		/* P/o */
	struct vt_minode other;		/* P/t (second name: rename, link); Q/t
					 * for a cross-directory rename */
	struct vt_minode dir2;		/* Q, P's sibling: a cross-directory
					 * rename's new parent */
	uint32_t overflowuid, overflowgid;
	bool protected_hardlinks;
	int protected_symlinks, protected_fifos, protected_regular;	/* fs.protected_* */
	/* exec: the caller's bounding set in the initial namespace (read
	 * from /proc/self/status; a namespace joined with setns gets the
	 * full set, set_cred_user_ns) and CAP_FULL_SET (cap_last_cap) */
	uint64_t bset_init;
	uint64_t cap_full;
	/* exec: fs.suid_dumpable (fs/exec.c suid_dumpable: 0, 1 = SUID_DUMP_USER
	 * or 2), what a process made non-dumpable by exec gets */
	int suid_dumpable;
	/* where the model records the outcomes it decided (NULL: nowhere);
	 * the only thing it writes besides its result */
	struct vt_trace *trace;
};

enum vt_mop {
	VT_OP_OPEN_CREAT,	/* open(P/n, O_CREAT|O_WRONLY, mode) */
	VT_OP_OPEN_CREAT_EXCL,	/* open(P/n or P/o, O_CREAT|O_EXCL|O_WRONLY, mode) */
	VT_OP_TMPFILE,		/* open(P, O_TMPFILE|O_WRONLY, mode) */
	VT_OP_MKDIR,		/* mkdir(P/n, mode) */
	VT_OP_MKFIFO,		/* mknod(P/n, S_IFIFO|mode) */
	VT_OP_SYMLINK,		/* symlink("o", P/n) */
	VT_OP_LINK,		/* link(P/o, P/n) */
	VT_OP_CHOWN,		/* fchownat(P/o, uid, gid, 0) */
	VT_OP_LCHOWN,		/* fchownat(..., AT_SYMLINK_NOFOLLOW) */
	VT_OP_FCHOWN,		/* open(P/o, O_RDONLY) + fchown(fd, uid, gid) */
	VT_OP_CHMOD,		/* chmod(P/o, mode) */
	VT_OP_OPEN_READ,	/* open(P/o, O_RDONLY) */
	VT_OP_OPEN_WRITE,	/* open(P/o, O_WRONLY) */
	VT_OP_OPEN_TRUNC,	/* open(P/o, O_WRONLY|O_TRUNC) */
	VT_OP_WRITE,		/* open(P/o, O_WRONLY) + write 1 byte (kills suid/sgid/caps) */
	VT_OP_TRUNCATE,		/* truncate(P/o, 0) */
	VT_OP_UTIMENS_NOW,	/* utimensat(P/o, NULL) */
	VT_OP_UTIMENS_SET,	/* utimensat(P/o, explicit times) */
	VT_OP_UNLINK,		/* unlink(P/o) */
	VT_OP_RMDIR,		/* rmdir(P/o) */
	VT_OP_RENAME,		/* rename(P/o, P/t or P/n) */
	VT_OP_RENAME_NOREPLACE,	/* renameat2(P/o, P/t, RENAME_NOREPLACE) */
	VT_OP_RENAME_EXCHANGE,	/* renameat2(P/o, P/t, RENAME_EXCHANGE) */
	VT_OP_ACL_SET,		/* setxattr(P/o, system.posix_acl_{access,default}) */
	VT_OP_ACL_GET,		/* getxattr(P/o, system.posix_acl_{access,default}) */
	VT_OP_FCAPS_SET,	/* setxattr(P/o, security.capability, v2/v3) */
	VT_OP_FCAPS_GET,	/* getxattr(P/o, security.capability) */
	VT_OP_FCAPS_REMOVE,	/* removexattr(P/o, security.capability) */
	VT_OP_XATTR_SET_USER,	/* setxattr(P/o, user.vt) */
	VT_OP_XATTR_SET_TRUSTED,/* setxattr(P/o, trusted.vt) */
	VT_OP_XATTR_GET_USER,	/* getxattr(P/o, user.vt) */
	VT_OP_XATTR_GET_TRUSTED,/* getxattr(P/o, trusted.vt) */
	VT_OP_XATTR_REMOVE_USER,/* removexattr(P/o, user.vt) */
	VT_OP_XATTR_REMOVE_TRUSTED,/* removexattr(P/o, trusted.vt) */
	VT_OP_MKNOD_CHR,	/* mknod(P/n, S_IFCHR|mode, makedev(1, 3)) */
	VT_OP_RENAME_WHITEOUT,	/* renameat2(P/o, P/t or P/n, RENAME_WHITEOUT) */
	VT_OP_EXEC,		/* execve(P/o): a copy of exec-probe reports its creds */
	VT_OP_OPEN_CREAT_RDONLY,/* open(P/o, O_CREAT|O_RDONLY|O_NONBLOCK, 0644): a fifo too */
	/* file_rules.c: one call on the existing P/o */
	VT_OP_ACCESS,		/* faccessat2(P/o, mode, eaccess ? AT_EACCESS : 0) */
	VT_OP_CHDIR,		/* chdir(P/o) */
	VT_OP_FCHDIR,		/* open(P/o, O_PATH) + fchdir(fd) */
	VT_OP_OPEN_NOATIME,	/* open(P/o, O_RDONLY|O_NOATIME) */
	VT_OP_SETFL_NOATIME,	/* open(P/o, O_RDONLY) + fcntl(F_SETFL, O_NOATIME) */
	VT_OP_SETLEASE,		/* open(P/o, O_RDONLY) + fcntl(F_SETLEASE, F_RDLCK) */
	VT_OP_SETFLAGS,		/* open(P/o, O_RDONLY) + FS_IOC_GETFLAGS + FS_IOC_SETFLAGS, same flags */
	VT_OP_FSSETXATTR,	/* open(P/o, O_RDONLY) + FS_IOC_FSGETXATTR + FS_IOC_FSSETXATTR, same */
	VT_OP_DEDUPE,		/* open(P/o, O_RDONLY) + FIDEDUPERANGE of 0 bytes onto the same fd */
	VT_OP_READ_ATIME,	/* open(P/o, O_RDONLY) + read 1 byte: is the atime updated? */
	VT_OP_CACHESTAT,	/* open(P/o, O_RDONLY) + cachestat(2) of the whole file */
	VT_OP_FSCRYPT_SET_POLICY,/* open(P/o, O_RDONLY) + FS_IOC_SET_ENCRYPTION_POLICY, v1 policy n */
	/* xattr_rules.c: a security.* name other than security.capability */
	VT_OP_XATTR_SET_SECURITY,/* setxattr(P/o, security.vt) */
	VT_OP_XATTR_GET_SECURITY,/* getxattr(P/o, security.vt) */
	VT_OP_XATTR_REMOVE_SECURITY,/* removexattr(P/o, security.vt) */
	/* optowner_rules.c: fat and exfat only */
	VT_OP_FAT_SET_ATTRS,	/* open(P/o, O_RDONLY) + FAT_IOCTL_SET_ATTRIBUTES(fat_attr) */
	VT_OP__COUNT
};

struct vt_mop_args {
	enum vt_mop op;
	mode_t mode;		/* create/chmod mode; ACCESS: R_OK | W_OK | X_OK */
	bool eaccess;		/* ACCESS: AT_EACCESS (the effective ids and capabilities) */
	bool on_existing;	/* create ops: the name is P/o (exists) instead of P/n */
	bool to_other;		/* rename: target is P/t (exists) instead of P/n */
	bool cross_dir;		/* rename: the new name is in Q (Q/n or Q/t) */
	vt_cuid_t uid;		/* chown: VT_ID_INVALID = -1 */
	vt_cgid_t gid;
	bool default_acl;	/* ACL ops: the default ACL */
	int nacl;
	struct vt_acl_centry acl[VT_MODEL_MAX_ACL];
	struct vt_cfcaps fcaps;	/* FCAPS_SET */
	/* the fd form: TRUNCATE is open(P/o, O_WRONLY) + ftruncate(fd, 0);
	 * the ACL, FCAPS and XATTR ops are open(P/o, O_RDONLY|O_NONBLOCK) +
	 * fsetxattr/fgetxattr/fremovexattr(fd, ...) */
	bool by_fd;
	int enc_policy;		/* FSCRYPT_SET_POLICY: the suite's v1 policy n (1 or 2) */
	uint32_t fat_attr;	/* FAT_SET_ATTRS: the attribute byte (ATTR_RO 0x01, ATTR_SYS 0x04...) */
};

/* What the kernel must do. */
struct vt_expect {
	int err;			/* 0 or the errno */
	enum vt_rule rule_id;		/* the deciding rule (rule_table.h) */
	const char *rule;		/* its text: the kernel function that decides */
	/* On success: the result name (P/n for creates and renames to a new
	 * name, P/t for a rename onto P/t, else P/o) and its state. */
	struct vt_minode result;	/* result.exists false: the name is gone */
	bool obj_gone;			/* P/o no longer exists (unlink, rename) */
	vt_cuid_t seen_uid;		/* stat() through the mount, as the caller */
	vt_cgid_t seen_gid;
	/* ACL_GET / FCAPS_GET: what the caller reads */
	int got_nacl;			/* -1: ENODATA */
	struct vt_acl_centry got_acl[VT_MODEL_MAX_ACL];
	struct vt_cfcaps got_fcaps;
	/* TMPFILE: the tmpfile is then given the name P/n by the caller
	 * (linkat of /proc/self/fd/N, AT_SYMLINK_FOLLOW): that link's errno
	 * and rule; on success P/n holds e->result */
	int link_err;
	/* READ_ATIME: the read updated the atime (touch_atime) */
	bool atime_updated;
	enum vt_rule link_rule_id;
	const char *link_rule;
	/* RENAME_WHITEOUT: the whiteout left at P/o (char device 0:0) */
	bool has_whiteout;
	struct vt_minode whiteout;
	/* EXEC: the credentials after execve, in the caller's namespace */
	struct vt_exec_creds creds;	/* world/exec_probe.h */
};

/* The model: what the kernel must do for OP in W. Pure. */
void vt_model_apply(const struct vt_world *w, const struct vt_mop_args *op,
		    struct vt_expect *out);

/* What getxattr(security.capability) returns for the caller of W on an
 * inode whose stored value is K (cap_inode_getsecurity): 0 and *OUT, or
 * an errno (ENODATA, EOVERFLOW). */
int vt_model_fcaps_read(const struct vt_world *w, const struct vt_kfcaps *k,
			struct vt_cfcaps *out, enum vt_rule *rule);

/* The name of an operation ("chown"). */
const char *vt_mop_name(enum vt_mop op);

#endif
