/* The overlay model (lib/model/overlay_model.c) on hand-worked cases: each
 * expectation is worked out here from the 6.12 source it names, not taken
 * from the model or a kernel. Layers: lower LOWER (disk 0-9999 shown as
 * 10000-19999, 30000 as itself), upper UPPER (0 as 0, disk 20000-29999 as
 * 10000-19999); the mounter is root without supplementary groups. */
#include "unit.h"
#include "model/overlay_model.h"
#include "model/rules.h"
#include "world/xattr_view.h"
#include "util/errname.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define LOWER "b:0:10000:10000,b:30000:30000:1"
#define UPPER "b:0:0:1,b:20000:10000:10000"

static struct vt_midmap lower, upper;

static struct vt_mcred cred(uint32_t uid, uint32_t gid, int group, bool root)
{
	struct vt_mcred c;

	memset(&c, 0, sizeof(c));
	c.ns = &vt_init_ns;
	c.uid = c.fsuid = vt_cuid(uid);
	c.gid = c.fsgid = vt_cgid(gid);
	if (group >= 0) {
		c.ngroups = 1;
		c.groups[0] = vt_cgid((uint32_t)group);
	}
	c.caps = root ? ~0ULL : 0;
	return c;
}

static void world(struct vt_ovl_world *w, struct vt_mcred caller, mode_t mode, uint32_t uid,
		  uint32_t gid)
{
	memset(w, 0, sizeof(*w));
	w->lower_idmap = &lower;
	w->upper_idmap = &upper;
	w->caller = caller;
	w->mounter = cred(0, 0, -1, true);
	w->upper_root = vt_minode_make(S_IFDIR | 0777, 0, 0);
	w->lower_obj = vt_minode_make(S_IFREG | mode, uid, gid);
	w->overflowuid = w->overflowgid = 65534;
}

static void expect(const struct vt_ovl_expect *e, int want, const char *rule_has,
		   const char *what)
{
	char name[400];

	snprintf(name, sizeof(name), "%s: %s (got %s: %s)", what,
		 want ? vt_errname(want) : "success", e->err ? vt_errname(e->err) : "success",
		 e->rule ? e->rule : "");
	unit_check(e->err == want && (!rule_has || (e->rule && strstr(e->rule, rule_has))), name);
}

/* The matrix's overlay world (vt_ovl_model_mop): both layers on one map,
 * the mounter the initial root; P 0777 0:0 on the upper layer. */
static void mx_world(struct vt_ovl_world *w, const struct vt_midmap *map, struct vt_mcred caller,
		     mode_t mode, uint32_t uid, uint32_t gid, struct vt_trace *tr)
{
	world(w, caller, mode, uid, gid);
	w->lower_idmap = w->upper_idmap = map;
	w->caller.umask = 022;
	memset(tr, 0, sizeof(*tr));
	w->trace = tr;
}

static void matrix_world_rows(void)
{
	static struct vt_midmap shift, swap;
	struct vt_ovl_world w;
	struct vt_mop_args a;
	struct vt_expect e;
	struct vt_trace tr;
	char err[200];

	vt_mapping_parse("b:0:10000:65536", &shift.map, err, sizeof(err));
	vt_mapping_parse("b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", &swap.map, err,
			 sizeof(err));
	shift.name = "shift10000";
	swap.name = "swap";
	memset(&a, 0, sizeof(a));

	/* shift10000 maps disk 0-65535 to 10000-75535: the root mounter's
	 * fsuid 0 has no disk id through it, so ovl_workdir_create's mkdir
	 * (may_create: fsuidgid_has_mapping) fails and the overlay is
	 * SB_RDONLY: open(O_WRONLY) is EROFS after the walk (sb_permission) */
	mx_world(&w, &shift, cred(11000, 11000, -1, false), 0600, 1000, 1000, &tr);
	a.op = VT_OP_OPEN_WRITE;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EROFS && e.rule_id == VT_R_OVL_WORKDIR_RDONLY && !e.result.exists &&
			   (tr.ev[VT_R_OVL_WORKDIR_RDONLY] & VT_EV_DENY),
		   "overlay world, shift10000: write is EROFS, the read-only overlay's (ovl_workdir_create)");
	/* reading it: the caller is the overlay inode's owner (disk 1000 seen
	 * as 11000, ovl_copyattr), the root mounter's CAP_DAC_OVERRIDE holds on
	 * the real inode (11000 maps in the initial namespace) */
	a.op = VT_OP_OPEN_READ;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_OPEN_OK && e.seen_uid.val == 11000 &&
			   e.seen_gid.val == 11000 && !e.result.exists,
		   "overlay world, shift10000: 11000 reads disk 1000's 0600 file, seen as 11000, no copy-up");
	/* 12000 is other: r-- is not there (0600): the caller's check refuses */
	w.caller = cred(12000, 12000, -1, false);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EACCES && e.rule_id == VT_R_OVL_CALLER_PERM,
		   "overlay world, shift10000: 12000 cannot read 11000's 0600 file (ovl_permission, caller)");

	/* the plain layers (nop idmap): the overlay is writable, the copy-up
	 * keeps disk 1000:1000 and the mode */
	mx_world(&w, &vt_nop_idmap, cred(1000, 1000, -1, false), 0600, 1000, 1000, &tr);
	a.op = VT_OP_OPEN_TRUNC;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_SETATTR_OK && e.result.exists &&
			   e.result.uid.val == 1000 && e.result.gid.val == 1000 &&
			   e.result.mode == (S_IFREG | 0600) && e.seen_uid.val == 1000,
		   "overlay world, plain layers: O_TRUNC copies 1000:1000 0600 up as it is (ovl_setattr on the copy)");
	/* 1001 is other to 1000's 0600 file */
	w.caller = cred(1001, 1001, -1, false);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EACCES && !e.result.exists,
		   "overlay world, plain layers: 1001 may not write 1000's 0600 file, nothing copied up");

	/* swap maps mount 0 to disk 0 (writable overlay) and mount 1000 to
	 * disk 1001: u1000 creates P/n 0666 under umask 022; the mounter
	 * creates it with fsuid/fsgid 1000 (ovl_setup_cred_for_create),
	 * stored through swap as disk 1001:1001 (inode_init_owner), mode 0644,
	 * and u1000 sees it as 1000:1000 */
	mx_world(&w, &swap, cred(1000, 1000, -1, false), 0644, 1000, 1000, &tr);
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_OPEN_CREAT;
	a.mode = 0666;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_CREATE_OK && e.result.uid.val == 1001 &&
			   e.result.gid.val == 1001 && e.result.mode == (S_IFREG | 0644) &&
			   e.seen_uid.val == 1000 && e.seen_gid.val == 1000,
		   "overlay world, swap: u1000's new file is disk 1001:1001 0644, seen as 1000:1000");
	/* shift10000: the caller 1000 has no disk id through it, but the
	 * overlay is read-only first (lookup_open: EROFS before may_o_create) */
	mx_world(&w, &shift, cred(1000, 1000, -1, false), 0644, 1000, 1000, &tr);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EROFS && e.rule_id == VT_R_OVL_WORKDIR_RDONLY,
		   "overlay world, shift10000: O_CREAT is EROFS (read-only overlay before may_create)");
	/* swap, caller 70000: the overlay is writable, the caller passes the
	 * overlay P (0777), but the mounter with fsuid 70000 has no disk id
	 * through swap (its last extent ends at 65535): EOVERFLOW */
	mx_world(&w, &swap, cred(70000, 70000, -1, false), 0644, 1000, 1000, &tr);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EOVERFLOW && e.rule_id == VT_R_OVL_CREATE_UPPER_EOVERFLOW,
		   "overlay world, swap: 70000's create is EOVERFLOW (ovl_create_upper: may_create)");

	/* chown on plain layers: root passes setattr_prepare on the overlay
	 * inode (CAP_CHOWN over 1000:1000), the copy-up keeps 1000:1000, the
	 * mounter's notify_change sets uid 1001 (gid -1: kept) */
	mx_world(&w, &vt_nop_idmap, cred(0, 0, -1, true), 0644, 1000, 1000, &tr);
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_CHOWN;
	a.uid = vt_cuid(1001);
	a.gid = vt_cgid(0xffffffffu);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.result.exists && e.result.uid.val == 1001 &&
			   e.result.gid.val == 1000 && e.seen_uid.val == 1001 && e.seen_gid.val == 1000,
		   "overlay world, plain layers: root chowns 1000:1000 to 1001:-1, the upper copy is 1001:1000");
	/* the same on shift10000: the read-only overlay refuses after the walk
	 * (do_fchownat: mnt_want_write) */
	mx_world(&w, &shift, cred(0, 0, -1, true), 0644, 1000, 1000, &tr);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EROFS && !e.result.exists,
		   "overlay world, shift10000: chown is EROFS, nothing copied up");
}

/* chmod and setattr through the overlay (ovl_setattr, 6.12
 * fs/overlayfs/inode.c): the caller's notify_change/setattr_prepare on the
 * overlay inode, the copy-up, the mounter's notify_change on the upper
 * copy. RES: the upper copy expected (uid 0: none). */
static void sa_row(const struct vt_ovl_world *w, enum vt_mop op, mode_t mode, int want,
		   enum vt_rule rule, uint32_t uid, uint32_t gid, mode_t res, const char *what)
{
	struct vt_mop_args a;
	struct vt_expect e;
	char name[400];
	bool ok;

	memset(&a, 0, sizeof(a));
	a.op = op;
	a.mode = mode;
	vt_ovl_model_mop(w, &a, &e);
	ok = e.err == want && e.rule_id == rule;
	if (res)
		ok = ok && e.result.exists && e.result.uid.val == uid && e.result.gid.val == gid &&
		     e.result.mode == (S_IFREG | res);
	else
		ok = ok && !e.result.exists;
	snprintf(name, sizeof(name), "%s (got %s, %s, upper %s %u:%u %o)", what,
		 e.err ? vt_errname(e.err) : "success", e.rule ? e.rule : "",
		 e.result.exists ? "yes" : "no", e.result.uid.val, e.result.gid.val,
		 (unsigned)e.result.mode);
	unit_check(ok, name);
}

static void setattr_rows(void)
{
	static struct vt_midmap shift, swap;
	struct vt_ovl_world w;
	struct vt_trace tr;
	char err[200];

	vt_mapping_parse("b:0:10000:65536", &shift.map, err, sizeof(err));
	vt_mapping_parse("b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", &swap.map, err,
			 sizeof(err));

	/* LOWER/UPPER: 11000 owns disk 1000's file through LOWER
	 * (ovl_copyattr); chmod_common -> notify_change(&nop_mnt_idmap) ->
	 * ovl_setattr: setattr_prepare passes (the owner); ovl_copy_up stores
	 * 11000 through UPPER as disk 21000 (ovl_set_attr); the root
	 * mounter's notify_change(UPPER): inode_owner_or_capable holds
	 * (CAP_FOWNER, 21000 shows as 11000, mapped) */
	world(&w, cred(11000, 11000, -1, false), 0644, 1000, 1000);
	sa_row(&w, VT_OP_CHMOD, 0600, 0, VT_R_OVL_SETATTR_OK, 21000, 21000, 0600,
	       "LOWER/UPPER: 11000 chmods disk 1000's file 0600: upper copy 21000:21000 0600");
	/* disk 30000 is 30000 through LOWER, which UPPER cannot store:
	 * ovl_set_attr's notify_change(UPPER, ATTR_UID) refuses
	 * (vfsuid_has_fsmapping) after setattr_prepare let the owner pass */
	world(&w, cred(30000, 30000, -1, false), 0644, 30000, 30000);
	sa_row(&w, VT_OP_CHMOD, 0600, EOVERFLOW, VT_R_OVL_COPYUP_SETATTR, 0, 0, 0,
	       "LOWER/UPPER: 30000's chmod fails in the copy-up (UPPER cannot store 30000)");
	/* 12000 is other to 11000's 0666 file: utimensat(NULL) is ATTR_TOUCH,
	 * may_setattr asks inode_permission(MAY_WRITE) of the overlay inode
	 * (other rw-: the caller's half passes) and of the lower real inode
	 * as MAY_READ (the root mounter: DAC override, 11000 mapped); the
	 * mounter's own ATTR_TOUCH on the copy passes by CAP_FOWNER */
	world(&w, cred(12000, 12000, -1, false), 0666, 1000, 1000);
	sa_row(&w, VT_OP_UTIMENS_NOW, 0, 0, VT_R_OVL_SETATTR_OK, 21000, 21000, 0666,
	       "LOWER/UPPER: 12000 touches 11000's 0666 file: copied up as 21000:21000");
	/* a mounter without capabilities (one in a user namespace has none
	 * over these inodes): 11000 may write its 0200 file on the overlay
	 * inode, but ovl_permission's second check asks the mounter (fsuid 0)
	 * for MAY_READ on the lower inode: not owner, no group, other --- */
	world(&w, cred(11000, 11000, -1, false), 0200, 1000, 1000);
	w.mounter = cred(0, 0, -1, false);
	sa_row(&w, VT_OP_TRUNCATE, 0, EACCES, VT_R_OVL_MOUNTER_PERM, 0, 0, 0,
	       "LOWER/UPPER, mounter without caps: truncate of 11000's 0200 file is refused to the "
	       "mounter (ovl_permission)");

	/* plain layers: 1000 owns 1000:1001, is not in 1001: setattr_prepare
	 * on the overlay inode strips S_ISGID (in_group_or_capable); the
	 * mounter's chmod keeps what is left (0755) */
	mx_world(&w, &vt_nop_idmap, cred(1000, 1000, -1, false), 0644, 1000, 1001, &tr);
	sa_row(&w, VT_OP_CHMOD, 02755, 0, VT_R_OVL_SETATTR_OK, 1000, 1001, 0755,
	       "plain layers: 1000 (not in 1001) chmods 02755: the caller's setattr_prepare strips S_ISGID");
	w.caller = cred(1000, 1000, 1001, false);
	sa_row(&w, VT_OP_CHMOD, 02755, 0, VT_R_OVL_SETATTR_OK, 1000, 1001, 02755,
	       "plain layers: 1000 in 1001 chmods 02755: S_ISGID kept");
	/* 1001 is not the owner: setattr_prepare's inode_owner_or_capable, before
	 * the copy-up */
	w.caller = cred(1001, 1001, -1, false);
	sa_row(&w, VT_OP_CHMOD, 0755, EPERM, VT_R_MODE_OWNER, 0, 0, 0,
	       "plain layers: 1001 may not chmod 1000's file, nothing copied up");
	/* swap: disk 1001 shows as 1000 (ovl_copyattr), so u1000 owns the
	 * overlay inode and is in its group 1000: S_ISGID kept; the copy-up
	 * stores 1000 through swap as disk 1001 */
	mx_world(&w, &swap, cred(1000, 1000, -1, false), 0644, 1001, 1001, &tr);
	sa_row(&w, VT_OP_CHMOD, 02755, 0, VT_R_OVL_SETATTR_OK, 1001, 1001, 02755,
	       "swap: u1000 chmods disk 1001's file 02755: upper disk 1001:1001 02755");
	/* shift10000: the overlay is read-only (ovl_workdir_create): EROFS at
	 * chmod_common's mnt_want_write */
	mx_world(&w, &shift, cred(11000, 11000, -1, false), 0644, 1000, 1000, &tr);
	sa_row(&w, VT_OP_CHMOD, 0600, EROFS, VT_R_OVL_WORKDIR_RDONLY, 0, 0, 0,
	       "shift10000: 11000's chmod is EROFS (read-only overlay)");

	/* write(2): backing_file_write_iter -> file_remove_privs(the overlay
	 * file) as the caller: S_ISUID always, S_ISGID with S_IXGRP, unless
	 * capable(CAP_FSETID); ATTR_FORCE through ovl_setattr to the copy */
	mx_world(&w, &vt_nop_idmap, cred(1000, 1000, -1, false), 06777, 1000, 1000, &tr);
	sa_row(&w, VT_OP_WRITE, 0, 0, VT_R_OVL_SETATTR_OK, 1000, 1000, 0777,
	       "plain layers: 1000 writes its 6777 file: the upper copy loses both bits");
	w.caller = cred(0, 0, -1, true);
	sa_row(&w, VT_OP_WRITE, 0, 0, VT_R_OVL_SETATTR_OK, 1000, 1000, 06777,
	       "plain layers: root (CAP_FSETID) writes the 6777 file: the bits stay");
	/* truncate(2) of 2767-1000:1001 (no group exec): do_truncate kills
	 * S_ISGID unless the caller is in the overlay inode's group
	 * (setattr_should_drop_sgid) */
	mx_world(&w, &vt_nop_idmap, cred(1000, 1000, -1, false), 02767, 1000, 1001, &tr);
	sa_row(&w, VT_OP_TRUNCATE, 0, 0, VT_R_OVL_SETATTR_OK, 1000, 1001, 0767,
	       "plain layers: 1000 (not in 1001) truncates 2767-1000:1001: S_ISGID goes");
	w.caller = cred(1000, 1000, 1001, false);
	sa_row(&w, VT_OP_TRUNCATE, 0, 0, VT_R_OVL_SETATTR_OK, 1000, 1001, 02767,
	       "plain layers: 1000 in 1001 truncates it: S_ISGID stays");
	/* utimensat by a non-owner: NULL times need MAY_WRITE (may_setattr),
	 * explicit times the owner (setattr_prepare, ATTR_TIMES_SET) */
	mx_world(&w, &vt_nop_idmap, cred(1001, 1001, -1, false), 0644, 1000, 1000, &tr);
	sa_row(&w, VT_OP_UTIMENS_NOW, 0, EACCES, VT_R_TOUCH_WRITE, 0, 0, 0,
	       "plain layers: 1001 touches 1000's 0644 file: EACCES, nothing copied up");
	mx_world(&w, &vt_nop_idmap, cred(1001, 1001, -1, false), 0666, 1000, 1000, &tr);
	sa_row(&w, VT_OP_UTIMENS_SET, 0, EPERM, VT_R_TIMES_OWNER, 0, 0, 0,
	       "plain layers: 1001 sets times of 1000's 0666 file: EPERM");
}

/* unlink(P/o) of a lower file through the overlay (do_unlinkat -> vfs_unlink
 * -> may_delete(&nop_mnt_idmap) on the overlay inodes as the caller, then
 * ovl_do_remove -> ovl_remove_and_whiteout as the mounter). WO_UID: the
 * whiteout's disk owner expected (-1: no upper entry). */
static void unlink_row(const struct vt_ovl_world *w, int want, enum vt_rule rule, int64_t wo_uid,
		       const char *what)
{
	struct vt_mop_args a;
	struct vt_expect e;
	char name[400];
	bool ok;

	memset(&a, 0, sizeof(a));
	a.op = VT_OP_UNLINK;
	vt_ovl_model_mop(w, &a, &e);
	ok = e.err == want && e.rule_id == rule;
	if (wo_uid >= 0)
		ok = ok && e.result.exists && e.result.mode == S_IFCHR &&
		     e.result.uid.val == (uint32_t)wo_uid && e.result.gid.val == (uint32_t)wo_uid &&
		     e.obj_gone;
	else
		ok = ok && !e.result.exists;
	snprintf(name, sizeof(name), "%s (got %s, %s)", what, e.err ? vt_errname(e.err) : "success",
		 e.rule ? e.rule : "");
	unit_check(ok, name);
}

static void unlink_rows(void)
{
	static struct vt_midmap shift, swap;
	struct vt_ovl_world w;
	struct vt_trace tr;
	char err[200];

	vt_mapping_parse("b:0:10000:65536", &shift.map, err, sizeof(err));
	vt_mapping_parse("b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", &swap.map, err,
			 sizeof(err));

	/* plain layers, upper P 1777 0:0: 1000 owns the victim (__check_sticky),
	 * W|X by other rwx; the whiteout is the root mounter's: vfs_whiteout
	 * -> inode_init_owner(fsuid 0), char 0:0 mode 0 */
	mx_world(&w, &vt_nop_idmap, cred(1000, 1000, -1, false), 0644, 1000, 1000, &tr);
	w.upper_root = vt_minode_make(S_IFDIR | 01777, 0, 0);
	unlink_row(&w, 0, VT_R_OVL_WHITEOUT_OK, 0,
		   "plain layers, sticky P 0:0: 1000 unlinks its lower file, a 0:0 whiteout covers it");
	/* 1001 owns neither the victim nor P and has no CAP_FOWNER */
	w.caller = cred(1001, 1001, -1, false);
	unlink_row(&w, EPERM, VT_R_STICKY_FOWNER, -1,
		   "plain layers, sticky P 0:0: 1001 may not unlink 1000's file, no whiteout");
	/* swap: the upper P is disk 1000:1000, the overlay P shows it as 1001
	 * (ovl_copyattr through swap): u1001 owns the overlay P, so the
	 * sticky rule lets it remove disk 0's file; the whiteout is disk 0
	 * (mount 0 through swap) */
	mx_world(&w, &swap, cred(1001, 1001, -1, false), 0644, 0, 0, &tr);
	w.upper_root = vt_minode_make(S_IFDIR | 01777, 1000, 1000);
	unlink_row(&w, 0, VT_R_OVL_WHITEOUT_OK, 0,
		   "swap, sticky P disk 1000: u1001 owns the overlay P (seen 1001) and unlinks disk 0's file");
	/* u1000 owns disk 1001 only: neither the victim (0) nor the P (1001) */
	w.caller = cred(1000, 1000, -1, false);
	unlink_row(&w, EPERM, VT_R_STICKY_FOWNER, -1,
		   "swap, sticky P disk 1000: u1000 owns neither the overlay P nor the victim");
	/* shift10000: read-only overlay, do_unlinkat's mnt_want_write */
	mx_world(&w, &shift, cred(11000, 11000, -1, false), 0644, 1000, 1000, &tr);
	unlink_row(&w, EROFS, VT_R_OVL_WORKDIR_RDONLY, -1,
		   "shift10000: unlink is EROFS (read-only overlay)");
}

/* rmdir, rename and link of lower objects (vt_ovl_model_mop: VT_OP_RMDIR,
 * VT_OP_RENAME, VT_OP_LINK), each worked out from 6.12 fs/namei.c and
 * fs/overlayfs/dir.c, readdir.c. UP_UID: the upper entry's disk owner
 * (the new name's for rename and link, P/o's whiteout for rmdir; -1:
 * none); WO_UID: a rename's whiteout at the upper P/o (-1: none);
 * SEEN: the caller's stat() of the result (-1: not asked). */
static void ovl_op_row(const struct vt_ovl_world *w, enum vt_mop op, bool to_other, int want,
		       enum vt_rule rule, int64_t up_uid, int64_t wo_uid, int64_t seen,
		       const char *what)
{
	struct vt_mop_args a;
	struct vt_expect e;
	char name[400];
	bool ok;

	memset(&a, 0, sizeof(a));
	a.op = op;
	a.to_other = to_other;
	vt_ovl_model_mop(w, &a, &e);
	ok = e.err == want && e.rule_id == rule;
	if (up_uid >= 0)
		ok = ok && e.result.exists && e.result.uid.val == (uint32_t)up_uid &&
		     e.result.gid.val == (uint32_t)up_uid;
	else
		ok = ok && !e.result.exists;
	if (wo_uid >= 0)
		ok = ok && e.has_whiteout && e.whiteout.mode == S_IFCHR &&
		     e.whiteout.uid.val == (uint32_t)wo_uid && e.whiteout.gid.val == (uint32_t)wo_uid;
	else
		ok = ok && !e.has_whiteout;
	if (seen >= 0)
		ok = ok && e.seen_uid.val == (uint32_t)seen && e.seen_gid.val == (uint32_t)seen;
	snprintf(name, sizeof(name), "%s (got %s, %s)", what, e.err ? vt_errname(e.err) : "success",
		 e.rule ? e.rule : "");
	unit_check(ok, name);
}

static void rmdir_rename_link_rows(void)
{
	static struct vt_midmap swap, up5000;
	struct vt_ovl_world w;
	struct vt_trace tr;
	char err[200];

	vt_mapping_parse("b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", &swap.map, err,
			 sizeof(err));
	/* an upper idmap that shows disk 5000 as 0 and 11000 as itself */
	vt_mapping_parse("b:5000:0:1,b:11000:11000:1", &up5000.map, err, sizeof(err));

	/* rmdir of an empty lower 0700 dir 1000:1000 by its owner, plain
	 * layers, P 0777 0:0: may_delete passes (other rwx, not sticky),
	 * the root mounter reads the dir (CAP_DAC_READ_SEARCH, the ids map),
	 * ovl_remove_and_whiteout: a whiteout of the mounter's fsuid 0 */
	mx_world(&w, &vt_nop_idmap, cred(1000, 1000, -1, false), 0700, 1000, 1000, &tr);
	w.lower_obj.mode = S_IFDIR | 0700;
	ovl_op_row(&w, VT_OP_RMDIR, false, 0, VT_R_OVL_WHITEOUT_OK, 0, -1, -1,
		   "plain layers: 1000 removes its lower 0700 dir, a 0:0 whiteout covers it");
	/* a mounter without capabilities (uid 0, not the dir's owner, other
	 * ---): ovl_check_empty_dir's ovl_path_open is refused MAY_READ,
	 * after the caller's may_delete passed; nothing is whited out */
	w.mounter = cred(0, 0, -1, false);
	w.caller = cred(0, 0, -1, true);
	ovl_op_row(&w, VT_OP_RMDIR, false, EACCES, VT_R_OVL_RMDIR_READDIR, -1, -1, -1,
		   "a mounter without CAP_DAC_READ_SEARCH cannot read the lower 0700 dir: EACCES");

	/* rename of a lower dir: the caller's vfs_rename checks pass, then
	 * ovl_can_move is false (redirect_dir=off): EXDEV, nothing copied up */
	mx_world(&w, &vt_nop_idmap, cred(1000, 1000, -1, false), 0700, 1000, 1000, &tr);
	w.lower_obj.mode = S_IFDIR | 0700;
	ovl_op_row(&w, VT_OP_RENAME, false, EXDEV, VT_R_OVL_RENAME_EXDEV, -1, -1, -1,
		   "plain layers: renaming a lower dir is EXDEV (redirect_dir=off)");

	/* swap, P 0777 disk 0:0: u1001 renames disk 1000's file (seen as
	 * 1001) to P/n; the copy-up stores mount 1001 back as disk 1000, the
	 * caller sees 1001; RENAME_WHITEOUT leaves the mounter's fsuid 0
	 * (disk 0 through swap) at P/o */
	mx_world(&w, &swap, cred(1001, 1001, -1, false), 0644, 1000, 1000, &tr);
	ovl_op_row(&w, VT_OP_RENAME, false, 0, VT_R_OVL_RENAME_OK, 1000, 0, 1001,
		   "swap: u1001 renames disk 1000's file: P/n disk 1000 seen 1001, whiteout 0 at P/o");

	/* over a lower P/t 1001:1001 in a sticky P 0:0: 1000 owns o but not
	 * t nor P, no CAP_FOWNER: may_delete(t) -> __check_sticky: EPERM */
	mx_world(&w, &vt_nop_idmap, cred(1000, 1000, -1, false), 0644, 1000, 1000, &tr);
	w.upper_root = vt_minode_make(S_IFDIR | 01777, 0, 0);
	w.lower_other = vt_minode_make(S_IFREG | 0644, 1001, 1001);
	ovl_op_row(&w, VT_OP_RENAME, true, EPERM, VT_R_STICKY_FOWNER, -1, -1, -1,
		   "sticky P 0:0: 1000 may not rename over 1001's lower t, nothing copied up");
	/* the same P 0777: P/t becomes the copy of o, P/o a whiteout */
	w.upper_root = vt_minode_make(S_IFDIR | 0777, 0, 0);
	ovl_op_row(&w, VT_OP_RENAME, true, 0, VT_R_OVL_RENAME_OK, 1000, 0, 1000,
		   "P 0777: 1000 renames its file over 1001's lower t: P/t is the copy");
	/* an upper filesystem without RENAME_WHITEOUT (ntfs3's row): the
	 * copy-up happens, then the upper ->rename refuses the flag
	 * (ntfs_rename: EINVAL); neither P/t nor P/n nor a whiteout */
	w.upper_no_whiteout = true;
	ovl_op_row(&w, VT_OP_RENAME, true, EINVAL, VT_R_OVL_RENAME_NO_WHITEOUT, -1, -1, -1,
		   "upper without whiteouts: the rename over t fails at the upper layer, EINVAL");
	w.lower_other.exists = false;
	ovl_op_row(&w, VT_OP_RENAME, false, EINVAL, VT_R_OVL_RENAME_NO_WHITEOUT, -1, -1, -1,
		   "upper without whiteouts: the rename to P/n fails at the upper layer, EINVAL");
	/* unlink needs no RENAME_WHITEOUT: ovl_cleanup_and_whiteout makes
	 * the whiteout with vfs_whiteout (mknod) and renames it with flags
	 * 0 (RENAME_EXCHANGE only over an upper directory, which a lower
	 * file never has); no O_TMPFILE either */
	w.upper_no_tmpfile = true;
	ovl_op_row(&w, VT_OP_UNLINK, false, 0, VT_R_OVL_WHITEOUT_OK, 0, -1, -1,
		   "upper without whiteouts or tmpfiles: unlink still leaves a 0:0 whiteout");
	/* and the copy-up without O_TMPFILE (ovl_copy_up_workdir) stores
	 * what ovl_copy_up_tmpfile would: open for writing copies up */
	ovl_op_row(&w, VT_OP_OPEN_WRITE, false, 0, VT_R_OVL_COPYUP_OK, 1000, -1, 1000,
		   "upper without tmpfiles: the copy-up through the workdir, disk 1000");
	w.upper_no_whiteout = w.upper_no_tmpfile = false;

	/* layers on different maps: LOWER shows disk 1000 as 11000; the upper
	 * idmap up5000 stores mount 11000 as disk 11000 and the mounter's 0
	 * as disk 5000 (the upper P is disk 5000:5000 0777, seen 0:0): the
	 * copy is disk 11000, the whiteout disk 5000 */
	world(&w, cred(11000, 11000, -1, false), 0644, 1000, 1000);
	w.upper_idmap = &up5000;
	w.upper_root = vt_minode_make(S_IFDIR | 0777, 5000, 5000);
	w.caller.umask = 022;
	ovl_op_row(&w, VT_OP_RENAME, false, 0, VT_R_OVL_RENAME_OK, 11000, 5000, 11000,
		   "LOWER/up5000: the copy is disk 11000, the whiteout the mounter's 0 as disk 5000");
	/* link there: the new name is the copy (disk 11000, seen 11000) */
	ovl_op_row(&w, VT_OP_LINK, false, 0, VT_R_OVL_LINK_OK, 11000, -1, 11000,
		   "LOWER/up5000: 11000 links its file: P/n is the copy, disk 11000");

	/* link with fs.protected_hardlinks: 1001 neither owns 1000's 0644
	 * file nor may write it (safe_hardlink_source), no CAP_FOWNER:
	 * may_linkat EPERM; without the sysctl the link is made */
	mx_world(&w, &vt_nop_idmap, cred(1001, 1001, -1, false), 0644, 1000, 1000, &tr);
	w.protected_hardlinks = true;
	ovl_op_row(&w, VT_OP_LINK, false, EPERM, VT_R_LINK_PROTECTED, -1, -1, -1,
		   "protected_hardlinks: 1001 may not link 1000's 0644 lower file");
	w.protected_hardlinks = false;
	ovl_op_row(&w, VT_OP_LINK, false, 0, VT_R_OVL_LINK_OK, 1000, -1, 1000,
		   "no protected_hardlinks: 1001 links 1000's lower file, P/n the copy 1000:1000");
}

/* exec of a lower file through the overlay (op_exec; 6.12 fs/exec.c,
 * security/commoncap.c cap_inode_getsecurity and get_vfs_caps_from_disk,
 * fs/overlayfs/xattrs.c ovl_xattr_get, file.c ovl_open_realfile). PRM:
 * the permitted (and effective) set expected after a successful exec. */
static void exec_row(const struct vt_ovl_world *w, int want, enum vt_rule rule, uint64_t prm,
		     const char *what)
{
	struct vt_mop_args a;
	struct vt_expect e;
	char name[400];

	memset(&a, 0, sizeof(a));
	a.op = VT_OP_EXEC;
	vt_ovl_model_mop(w, &a, &e);
	snprintf(name, sizeof(name), "%s (got %s, %s; prm %#llx)", what,
		 e.err ? vt_errname(e.err) : "success", e.rule ? e.rule : "",
		 (unsigned long long)e.creds.cap_prm);
	unit_check(e.err == want && e.rule_id == rule && !e.result.exists &&
			   (want || (e.creds.cap_prm == prm && e.creds.cap_eff == prm)),
		   name);
}

static void exec_rows(void)
{
	static struct vt_midmap low5000;
	struct vt_ovl_world w;
	char err[200];

	/* a lower idmap that shows disk 5000 as 0 and 1000 as itself */
	vt_mapping_parse("b:5000:0:1,b:1000:1000:1", &low5000.map, err, sizeof(err));

	/* LOWER does not map the v3 rootid 50000: cap_inode_getsecurity, as
	 * the mounter through LOWER, finds no id for it (from_kuid -1) and
	 * rootid_owns_currentns fails: -EOVERFLOW through ovl_xattr_get,
	 * get_vfs_caps_from_disk and get_file_caps: the exec fails. The
	 * opens passed: the caller owns the overlay inode (11000), the root
	 * mounter's caps reach disk 1000 (11000 through LOWER) */
	world(&w, cred(11000, 11000, -1, false), 0755, 1000, 1000);
	w.bset_init = w.cap_full = ~0ULL;
	w.lower_obj.fcaps.version = 3;
	w.lower_obj.fcaps.rootid = vt_kuid(50000);
	exec_row(&w, EOVERFLOW, VT_R_OVL_EXEC_FCAPS_EOVERFLOW, 0,
		 "v3 rootid 50000, unmapped by LOWER: the exec fails EOVERFLOW");
	/* v2 (rootid 0): through LOWER 10000, handed on as v3 rootid 10000,
	 * which owns no namespace of 11000's (from_kuid(init, 10000) != 0):
	 * the caps are ignored, the exec succeeds with nothing permitted */
	w.lower_obj.fcaps.version = 2;
	w.lower_obj.fcaps.rootid = vt_kuid(0);
	exec_row(&w, 0, VT_R_EXEC_OK, 0,
		 "v2 through LOWER is rootid 10000: ignored for 11000, the exec runs without caps");
	/* v3 rootid disk 5000, shown as 0 through low5000: handed on as v2,
	 * whose rootid 0 owns the initial namespace: u1000 gets fP =
	 * CAP_NET_RAW (bprm_caps_from_vfs_caps), effective */
	world(&w, cred(1000, 1000, -1, false), 0755, 1000, 1000);
	w.bset_init = w.cap_full = ~0ULL;
	w.lower_idmap = &low5000;
	w.lower_obj.fcaps.version = 3;
	w.lower_obj.fcaps.rootid = vt_kuid(5000);
	exec_row(&w, 0, VT_R_EXEC_OK, VT_CAPBIT(VT_CAP_NET_RAW),
		 "v3 rootid disk 5000 seen as 0 through the lower idmap: v2, u1000 gets CAP_NET_RAW");
	/* an exec-only 0711 file of disk 50000 (no id through LOWER): the
	 * caller and the mounter pass MAY_EXEC by the other x bit, but the
	 * mounter's O_RDONLY open of the real file (ovl_open_realfile) has
	 * no r bit and no capability over an unmapped inode: EACCES */
	world(&w, cred(12000, 12000, -1, false), 0711, 50000, 50000);
	w.bset_init = w.cap_full = ~0ULL;
	exec_row(&w, EACCES, VT_R_OVL_OPEN_REALFILE, 0,
		 "0711 disk 50000: the mounter may not open the real file for reading: EACCES");
}

/* The matrix's layers axis, VT_OVL_UPPER_PLAIN (case_model.c): the lower
 * layer through shift10000 (disk d seen as 10000 + d, d < 65536), the
 * upper plain, so a lower and an upper real inode translate differently
 * (a model that took one layer's map for the other's gets each row
 * wrong: the mutants overlay_model.c:layer_maps/...#other-layer). */
static void upper_plain_rows(void)
{
	static struct vt_midmap shift;
	struct vt_ovl_world w;
	struct vt_mop_args a;
	struct vt_expect e;
	struct vt_trace tr;
	char err[200];

	vt_mapping_parse("b:0:10000:65536", &shift.map, err, sizeof(err));
	shift.name = "shift10000";

	/* the root mounter's fsuid 0 maps through the plain upper mount, so
	 * ovl_workdir_create's mkdir succeeds: a writable overlay (with the
	 * upper on shift10000 too it is read-only: EROFS above). 11000 owns
	 * the overlay inode of disk 1000's 0600 file (ovl_copyattr through
	 * the lower map: 11000); ovl_permission's mounter check asks MAY_READ
	 * of the lower inode (CAP_DAC_OVERRIDE, 11000 has an id); the copy-up
	 * reads 11000:11000 through the lower mount (vfs_getattr ->
	 * generic_fillattr), ovl_set_attr stores it through the plain upper
	 * mount as disk 11000:11000; stat through the overlay shows the upper
	 * copy through the upper map: 11000 */
	mx_world(&w, &shift, cred(11000, 11000, -1, false), 0600, 1000, 1000, &tr);
	w.upper_idmap = &vt_nop_idmap;
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_OPEN_WRITE;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_COPYUP_OK && e.result.exists &&
			   e.result.uid.val == 11000 && e.result.gid.val == 11000 &&
			   e.seen_uid.val == 11000 && e.seen_gid.val == 11000,
		   "lower shift10000, upper plain: 11000 opens disk 1000's 0600 file for writing, "
		   "copied up as disk 11000:11000");
	/* 1000 is other to the overlay inode (11000:11000, 0600): the
	 * caller's check refuses, nothing is copied up */
	w.caller = cred(1000, 1000, -1, false);
	w.caller.umask = 022;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EACCES && e.rule_id == VT_R_OVL_CALLER_PERM && !e.result.exists,
		   "lower shift10000, upper plain: 1000 may not write disk 1000's 0600 file (seen as "
		   "11000's)");
	/* O_CREAT in the upper P 0777 0:0: ovl_setup_cred_for_create gives
	 * the mounter fsuid/fsgid 1000, inode_init_owner through the plain
	 * upper mount stores disk 1000:1000 (0666 less umask 022) */
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_OPEN_CREAT;
	a.mode = 0666;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_CREATE_OK && e.result.uid.val == 1000 &&
			   e.result.gid.val == 1000 && e.result.mode == (S_IFREG | 0644) &&
			   e.seen_uid.val == 1000,
		   "lower shift10000, upper plain: u1000's new file is disk 1000:1000 0644");
	/* chmod by the overlay inode's owner: setattr_prepare passes, the
	 * copy is disk 11000:11000, the root mounter's notify_change through
	 * the plain upper mount sets 0600 (CAP_FOWNER) */
	w.caller = cred(11000, 11000, -1, false);
	w.lower_obj = vt_minode_make(S_IFREG | 0644, 1000, 1000);
	sa_row(&w, VT_OP_CHMOD, 0600, 0, VT_R_OVL_SETATTR_OK, 11000, 11000, 0600,
	       "lower shift10000, upper plain: 11000 chmods disk 1000's file 0600: upper copy "
	       "11000:11000 0600");
	/* unlink of disk 70000's file: shift10000 does not map it, so the
	 * overlay inode has INVALID ids (ovl_copyattr) and may_delete refuses
	 * before any permission (vfsuid_valid: EOVERFLOW), no whiteout */
	w.lower_obj = vt_minode_make(S_IFREG | 0644, 70000, 70000);
	unlink_row(&w, EOVERFLOW, VT_R_DEL_UNMAPPED, -1,
		   "lower shift10000, upper plain: unlink of disk 70000's file is EOVERFLOW");
	/* disk 0's file is 10000 through the lower map: 11000 removes it
	 * (P 0777, not sticky); the whiteout is the root mounter's, made
	 * through the plain upper mount: disk 0:0 */
	w.lower_obj = vt_minode_make(S_IFREG | 0644, 0, 0);
	unlink_row(&w, 0, VT_R_OVL_WHITEOUT_OK, 0,
		   "lower shift10000, upper plain: 11000 unlinks disk 0's file, a disk 0:0 whiteout");
}

/* open(P/o, O_WRONLY) through vt_ovl_model_mop: WANT and RULE; on success
 * the upper copy's disk owner UID:GID and what stat() shows, SUID:SGID. */
static void open_write_row(const struct vt_ovl_world *w, int want, enum vt_rule rule, uint32_t uid,
			   uint32_t gid, uint32_t suid, uint32_t sgid, const char *what)
{
	struct vt_mop_args a;
	struct vt_expect e;

	memset(&a, 0, sizeof(a));
	a.op = VT_OP_OPEN_WRITE;
	vt_ovl_model_mop(w, &a, &e);
	unit_check(e.err == want && e.rule_id == rule &&
			   (want ? !e.result.exists
				 : e.result.exists && e.result.uid.val == uid &&
					   e.result.gid.val == gid && e.seen_uid.val == suid &&
					   e.seen_gid.val == sgid),
		   what);
}

/* The matrix's layers axis, VT_OVL_UPPER_OTHER ("upper=rotate",
 * lib/matrix/axes.h VT_OVL_UPPER_OTHER_SPEC): the lower layer through the
 * case's map, the upper through ROTATE (uids: disk 0 as 0, 1000 as 1001,
 * 1001 as 2000, 2000 as 1000, 70000 as 11000; gids: 0 as 0, 1000 as 1000,
 * 1001 as 11001, 70000 as 11000). The root mounter's 0 maps through it:
 * the overlay is writable (ovl_workdir_create). Every row differs from a
 * model that took one layer's map for the other's. */
static void upper_other_rows(void)
{
	static struct vt_midmap shift, rot;
	struct vt_ovl_world w;
	struct vt_mop_args a;
	struct vt_expect e;
	struct vt_trace tr;
	char err[200];

	vt_mapping_parse("b:0:10000:65536", &shift.map, err, sizeof(err));
	shift.name = "shift10000";
	vt_mapping_parse("u:0:0:1,u:1000:1001:1,u:1001:2000:1,u:2000:1000:1,u:70000:11000:1,"
			 "g:0:0:1,g:1000:1000:1,g:1001:11001:1,g:70000:11000:1",
			 &rot.map, err, sizeof(err));
	rot.name = "rotate";

	/* lower plain: u1000 owns disk 1000's 0600 file (ovl_copyattr through
	 * the nop idmap: 1000); the root mounter reads it (CAP_DAC_OVERRIDE);
	 * the copy-up's ovl_set_attr stores kuid 1000 through ROTATE:
	 * from_vfsuid -> disk 2000 (seen as 1000), kgid 1000 -> disk 1000;
	 * stat shows the copy through ROTATE: 1000:1000 */
	mx_world(&w, &vt_nop_idmap, cred(1000, 1000, -1, false), 0600, 1000, 1000, &tr);
	w.upper_idmap = &rot;
	open_write_row(&w, 0, VT_R_OVL_COPYUP_OK, 2000, 1000, 1000, 1000,
		       "lower plain, upper rotate: u1000 writes its 0600 file, copied up as disk 2000:1000");
	/* O_CREAT by u1001 in P 0777 0:0: ovl_setup_cred_for_create gives the
	 * mounter fsuid/fsgid 1001; vfs_create(upper idmap) -> may_create's
	 * fsuidgid_has_mapping: uid 1001 is disk 1000 through ROTATE, gid 1001
	 * has no disk id: EOVERFLOW, nothing created */
	w.caller = cred(1001, 1001, -1, false);
	w.caller.umask = 022;
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_OPEN_CREAT;
	a.mode = 0666;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EOVERFLOW && e.rule_id == VT_R_OVL_CREATE_UPPER_EOVERFLOW &&
			   !e.result.exists,
		   "lower plain, upper rotate: u1001's O_CREAT: gid 1001 has no disk id upstairs");
	/* u11000-g11001 (fsuid/fsgid 11000): ROTATE stores them as disk
	 * 70000:70000 (inode_init_owner through the upper idmap), 0644 */
	w.caller = cred(11000, 11000, 11001, false);
	w.caller.umask = 022;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_CREATE_OK && e.result.uid.val == 70000 &&
			   e.result.gid.val == 70000 && e.result.mode == (S_IFREG | 0644) &&
			   e.seen_uid.val == 11000 && e.seen_gid.val == 11000,
		   "lower plain, upper rotate: 11000's new file is disk 70000:70000, seen 11000");

	/* lower shift10000: disk 1000 is 11000 on the overlay inode, which
	 * 11000 owns; the copy-up stores 11000:11000 through ROTATE as disk
	 * 70000:70000 (the same map on both layers would be read-only, ROTATE
	 * for the lower would show disk 1000 as 1001:1000: EACCES for 0600) */
	mx_world(&w, &shift, cred(11000, 11000, -1, false), 0600, 1000, 1000, &tr);
	w.upper_idmap = &rot;
	open_write_row(&w, 0, VT_R_OVL_COPYUP_OK, 70000, 70000, 11000, 11000,
		       "lower shift10000, upper rotate: 11000 writes disk 1000's 0600 file, copied up "
		       "as disk 70000:70000");
	/* disk 0's 0666 file is 10000:10000 through shift10000: the caller
	 * may write it (other rw-), the mounter reads it, but ovl_set_attr
	 * finds no disk id for 10000 through ROTATE (notify_change:
	 * vfsuid_has_fsmapping): EOVERFLOW, the copy is dropped */
	w.lower_obj = vt_minode_make(S_IFREG | 0666, 0, 0);
	open_write_row(&w, EOVERFLOW, VT_R_OVL_COPYUP_SETATTR, 0, 0, 0, 0,
		       "lower shift10000, upper rotate: disk 0's file (10000) cannot be stored upstairs");
	/* rename of 11000's lower file to P/n: copy-up as disk 70000:70000
	 * under the new name, the whiteout at P/o the root mounter's 0:0
	 * through ROTATE (disk 0:0) */
	w.lower_obj = vt_minode_make(S_IFREG | 0644, 1000, 1000);
	ovl_op_row(&w, VT_OP_RENAME, false, 0, VT_R_OVL_RENAME_OK, 70000, 0, 11000,
		   "lower shift10000, upper rotate: 11000 renames its file, P/n is disk 70000:70000");
}

/* One xattr row through vt_ovl_model_mop: OP on the lower file of W; the
 * errno, the deciding rule and what the upper layer holds afterwards
 * (UPPER_UID -1: nothing copied up; else its owner and user.vt and
 * trusted.vt). */
static void xattr_row_by(const struct vt_ovl_world *w, enum vt_mop op, bool by_fd, int want,
			 enum vt_rule rule, int64_t upper_uid, bool user, bool trusted,
			 const char *what)
{
	struct vt_mop_args a;
	struct vt_expect e;
	char name[400];
	bool ok;

	memset(&a, 0, sizeof(a));
	a.op = op;
	a.by_fd = by_fd;
	vt_ovl_model_mop(w, &a, &e);
	ok = e.err == want && e.rule_id == rule;
	if (upper_uid < 0)
		ok = ok && !e.result.exists;
	else
		ok = ok && e.result.exists && e.result.uid.val == (uint32_t)upper_uid &&
		     e.result.user_xattr == user && e.result.trusted_xattr == trusted;
	snprintf(name, sizeof(name), "xattr: %s (got %s, %s, upper %s %u user %d trusted %d)", what,
		 e.err ? vt_errname(e.err) : "success", vt_rule_info(e.rule_id)->slug,
		 e.result.exists ? "yes" : "no", e.result.uid.val, e.result.user_xattr,
		 e.result.trusted_xattr);
	unit_check(ok, name);
}

static void xattr_row(const struct vt_ovl_world *w, enum vt_mop op, int want, enum vt_rule rule,
		      int64_t upper_uid, bool user, bool trusted, const char *what)
{
	xattr_row_by(w, op, false, want, rule, upper_uid, user, trusted, what);
}

/* user.* and trusted.* (op_xattr), worked out from 6.12 fs/xattr.c
 * xattr_permission and fs/overlayfs/xattrs.c ovl_xattr_get/ovl_xattr_set.
 * Disk 1000 is 11000 through LOWER (the overlay inode's owner,
 * ovl_copyattr) and 11000 is disk 21000 through UPPER (the copy-up's
 * ovl_set_attr); the root mounter's 0 maps through UPPER: writable. */
static void xattr_rows(void)
{
	struct vt_ovl_world w;
	struct vt_trace tr;
	static struct vt_midmap shift;
	char err[200];

	/* the owner 11000 sets user.vt on its 0644 file: xattr_permission
	 * passes on the overlay inode (owner rw-) and the mounter reads the
	 * lower one (CAP_DAC_OVERRIDE, 11000 maps); copied up as disk 21000,
	 * then set there */
	world(&w, cred(11000, 11000, -1, false), 0644, 1000, 1000);
	xattr_row(&w, VT_OP_XATTR_SET_USER, 0, VT_R_OVL_XATTR_OK, 21000, true, false,
		  "11000 sets user.vt on its file: copied up to disk 21000, set there");
	/* trusted.* needs capable(CAP_SYS_ADMIN) of the caller */
	xattr_row(&w, VT_OP_XATTR_SET_TRUSTED, EPERM, VT_R_XATTR_TRUSTED, -1, false, false,
		  "11000 sets trusted.vt: EPERM, no copy-up");
	/* 12000 is other to the 0644 file: no MAY_WRITE on the overlay inode
	 * (xattr_permission -> inode_permission -> ovl_permission's
	 * generic_permission as the caller; no CAP_DAC_OVERRIDE) */
	w.caller = cred(12000, 12000, -1, false);
	xattr_row(&w, VT_OP_XATTR_SET_USER, EACCES, VT_R_DAC_FILE_OVERRIDE, -1, false, false,
		  "12000 sets user.vt on 11000's 0644 file: EACCES (the caller's generic_permission)");
	w.caller = cred(0, 0, -1, true);
	xattr_row(&w, VT_OP_XATTR_SET_TRUSTED, 0, VT_R_OVL_XATTR_OK, 21000, false, true,
		  "root sets trusted.vt: copied up, set by the mounter");
	/* both present on the lower file: ovl_copy_xattr copies both up,
	 * the removal takes one */
	w.lower_obj.user_xattr = w.lower_obj.trusted_xattr = true;
	w.caller = cred(11000, 11000, -1, false);
	xattr_row(&w, VT_OP_XATTR_REMOVE_USER, 0, VT_R_OVL_XATTR_OK, 21000, false, true,
		  "11000 removes user.vt: the copy keeps trusted.vt");
	/* reading needs no copy-up: other may read user.* of a 0644 file;
	 * trusted.* hides from a caller without CAP_SYS_ADMIN (ENODATA) */
	w.caller = cred(12000, 12000, -1, false);
	xattr_row(&w, VT_OP_XATTR_GET_USER, 0, VT_R_OVL_XATTR_OK, -1, false, false,
		  "12000 reads user.vt of the lower file, nothing copied up");
	xattr_row(&w, VT_OP_XATTR_GET_TRUSTED, ENODATA, VT_R_XATTR_TRUSTED, -1, false, false,
		  "12000 reads trusted.vt: ENODATA (xattr_permission)");
	/* absent on the lower file: the mounter's vfs_getxattr of the real
	 * inode is ENODATA; a removal asks it before copying up */
	w.lower_obj.user_xattr = w.lower_obj.trusted_xattr = false;
	xattr_row(&w, VT_OP_XATTR_GET_USER, ENODATA, VT_R_OVL_XATTR_GET_REAL, -1, false, false,
		  "12000 reads an absent user.vt: ENODATA from the real inode");
	w.caller = cred(11000, 11000, -1, false);
	xattr_row(&w, VT_OP_XATTR_REMOVE_USER, ENODATA, VT_R_OVL_XATTR_REMOVE_LOWER, -1, false, false,
		  "11000 removes an absent user.vt: ENODATA, nothing copied up");
	/* disk 50000 has no id through LOWER: the overlay inode's owner is
	 * invalid, may_write_xattr refuses (HAS_UNMAPPED_ID) even root; a
	 * read passes by the other bits for both caller and mounter
	 * (capable_wrt_inode_uidgid fails on unmapped ids) */
	world(&w, cred(0, 0, -1, true), 0644, 50000, 50000);
	w.lower_obj.user_xattr = true;
	xattr_row(&w, VT_OP_XATTR_SET_USER, EPERM, VT_R_WRITE_XATTR_UNMAPPED, -1, false, false,
		  "root sets user.vt on disk 50000's file: EPERM, its overlay inode has no owner");
	xattr_row(&w, VT_OP_XATTR_GET_USER, 0, VT_R_OVL_XATTR_OK, -1, false, false,
		  "root reads user.vt of disk 50000's 0644 file by its other bits");
	/* disk 30000 is 30000 through LOWER, which UPPER cannot store: the
	 * copy-up's ovl_set_attr is EOVERFLOW (layers with different maps) */
	world(&w, cred(0, 0, -1, true), 0644, 30000, 30000);
	xattr_row(&w, VT_OP_XATTR_SET_USER, EOVERFLOW, VT_R_OVL_COPYUP_SETATTR, -1, false, false,
		  "root sets user.vt on disk 30000's file: UPPER cannot store 30000 (ovl_set_attr)");

	/* the matrix's world on shift10000: the root mounter has no disk id,
	 * the overlay is read-only: a set is EROFS after the walk, a read
	 * of the lower value works */
	vt_mapping_parse("b:0:10000:65536", &shift.map, err, sizeof(err));
	shift.name = "shift10000";
	mx_world(&w, &shift, cred(11000, 11000, -1, false), 0644, 1000, 1000, &tr);
	w.lower_obj.user_xattr = true;
	xattr_row(&w, VT_OP_XATTR_SET_USER, EROFS, VT_R_OVL_WORKDIR_RDONLY, -1, false, false,
		  "shift10000: a set through the read-only overlay is EROFS");
	xattr_row(&w, VT_OP_XATTR_REMOVE_USER, EROFS, VT_R_OVL_WORKDIR_RDONLY, -1, false, false,
		  "shift10000: a removal too");
	xattr_row(&w, VT_OP_XATTR_GET_USER, 0, VT_R_OVL_XATTR_OK, -1, false, false,
		  "shift10000: 11000 reads its file's user.vt");
}

/* The fd forms (fd_open, then op_xattr), worked out from 6.12
 * fs/xattr.c (fsetxattr: mnt_want_write_file, then do_setxattr on
 * f_path.dentry with file_mnt_idmap) and fs/overlayfs/file.c (ovl_open:
 * no copy-up for O_RDONLY, ovl_open_realfile: the mounter's
 * inode_permission(lower idmap, MAY_OPEN | MAY_READ)); the open's
 * MAY_READ is ovl_permission's two halves (fs/overlayfs/inode.c). */
static void xattr_fd_rows(void)
{
	struct vt_ovl_world w;
	struct vt_trace tr;
	static struct vt_midmap shift;
	char err[200];

	/* as the path form where the open passes: 11000 reads its 0644
	 * file, then fsetxattr copies up (disk 21000 through UPPER) */
	world(&w, cred(11000, 11000, -1, false), 0644, 1000, 1000);
	xattr_row_by(&w, VT_OP_XATTR_SET_USER, true, 0, VT_R_OVL_XATTR_OK, 21000, true, false,
		     "fd: 11000 opens its 0644 file and sets user.vt: copied up to disk 21000");
	/* 0200: the owner may write user.vt by path, but the open's MAY_READ
	 * on the overlay inode (owner -w-, no capability) is refused by the
	 * caller's half of ovl_permission: nothing copied up */
	world(&w, cred(11000, 11000, -1, false), 0200, 1000, 1000);
	xattr_row(&w, VT_OP_XATTR_SET_USER, 0, VT_R_OVL_XATTR_OK, 21000, true, false,
		  "path: 11000 sets user.vt on its 0200 file");
	xattr_row_by(&w, VT_OP_XATTR_SET_USER, true, EACCES, VT_R_OVL_CALLER_PERM, -1, false, false,
		     "fd: 11000 cannot open its 0200 file for reading: EACCES, the caller");
	/* disk 50000:1000 mode 0240 is INVALID:11000 through LOWER: the
	 * caller in group 11000 reads it; the root mounter is not in the
	 * group and its CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH need both ids
	 * mapped (capable_wrt_inode_uidgid): EACCES from the mounter's half
	 * (ovl_permission, as ovl_open_realfile would). The path form's set
	 * is may_write_xattr's EPERM (the overlay inode's uid is invalid). */
	world(&w, cred(12000, 12000, 11000, false), 0240, 50000, 1000);
	xattr_row(&w, VT_OP_XATTR_SET_USER, EPERM, VT_R_WRITE_XATTR_UNMAPPED, -1, false, false,
		  "path: a member of group 11000 sets user.vt on disk 50000:1000's 0240 file: EPERM");
	xattr_row_by(&w, VT_OP_XATTR_SET_USER, true, EACCES, VT_R_OVL_MOUNTER_PERM, -1, false, false,
		     "fd: the same open for reading: EACCES, the mounter on the lower inode");
	/* trusted.* by fd: the open decides first for a caller with
	 * CAP_SYS_ADMIN, then the path form's checks */
	world(&w, cred(0, 0, -1, true), 0200, 1000, 1000);
	xattr_row_by(&w, VT_OP_XATTR_SET_TRUSTED, true, 0, VT_R_OVL_XATTR_OK, 21000, false, true,
		     "fd: root opens 11000's 0200 file (CAP_DAC_OVERRIDE, 11000 maps) and sets trusted.vt");
	/* a read-only overlay (shift10000: the root mounter has no disk id):
	 * the open for reading passes, fsetxattr's mnt_want_write_file is
	 * EROFS; where the open is refused that comes first */
	vt_mapping_parse("b:0:10000:65536", &shift.map, err, sizeof(err));
	shift.name = "shift10000";
	mx_world(&w, &shift, cred(11000, 11000, -1, false), 0644, 1000, 1000, &tr);
	w.lower_obj.user_xattr = true;
	xattr_row_by(&w, VT_OP_XATTR_REMOVE_USER, true, EROFS, VT_R_OVL_WORKDIR_RDONLY, -1, false,
		     false, "fd, shift10000: fremovexattr after the open: EROFS");
	xattr_row_by(&w, VT_OP_XATTR_GET_USER, true, 0, VT_R_OVL_XATTR_OK, -1, false, false,
		     "fd, shift10000: fgetxattr of user.vt");
	w.lower_obj.mode = S_IFREG | 0200;
	xattr_row_by(&w, VT_OP_XATTR_SET_USER, true, EACCES, VT_R_OVL_CALLER_PERM, -1, false, false,
		     "fd, shift10000: the 0200 file's open is refused before EROFS");
}

static void add_acl(struct vt_minode *i, uint32_t id);

/* One copy-up row: utimensat with explicit times by root (CAP_FOWNER: no
 * permission asked, nothing but the copy-up changes the copy's ACL or
 * capability) of W's lower file; the errno, the deciding rule, and the
 * upper copy's ACL_USER/ACL_GROUP ids (ACL_ID) and capability (VERSION,
 * ROOTID) as stored; UPPER_UID -1: nothing copied up. */
static void copy_row(const struct vt_ovl_world *w, int want, enum vt_rule rule, int64_t upper_uid,
		     int64_t acl_id, int version, uint32_t rootid, const char *what)
{
	struct vt_mop_args a;
	struct vt_expect e;
	char name[400];
	bool ok;

	memset(&a, 0, sizeof(a));
	a.op = VT_OP_UTIMENS_SET;
	vt_ovl_model_mop(w, &a, &e);
	ok = e.err == want && e.rule_id == rule;
	if (upper_uid < 0) {
		ok = ok && !e.result.exists;
	} else {
		ok = ok && e.result.exists && e.result.uid.val == (uint32_t)upper_uid &&
		     e.result.fcaps.version == version &&
		     (version != 3 || e.result.fcaps.rootid.val == rootid);
		if (acl_id >= 0)
			ok = ok && e.result.nacl == 6 && e.result.acl[1].uid.val == (uint32_t)acl_id &&
			     e.result.acl[3].gid.val == (uint32_t)acl_id;
	}
	snprintf(name, sizeof(name), "copy-up: %s (got %s, %s, upper %s %u acl %u fcaps v%d %u)",
		 what, e.err ? vt_errname(e.err) : "success", vt_rule_info(e.rule_id)->slug,
		 e.result.exists ? "yes" : "no", e.result.uid.val, e.result.acl[1].uid.val,
		 e.result.fcaps.version, e.result.fcaps.rootid.val);
	unit_check(ok, name);
}

/* ovl_copy_xattr's ACLs and capability (copy_up_acl, copy_up_fcaps),
 * worked out from 6.12 fs/overlayfs/copy_up.c (ovl_copy_acl,
 * ovl_copy_xattr), inode.c (ovl_get_acl_path, ovl_idmap_posix_acl),
 * fs/posix_acl.c (vfs_set_acl_idmapped_mnt, posix_acl_valid) and
 * security/commoncap.c (cap_inode_getsecurity, cap_convert_nscap).
 * LOWER maps disk 0..9999 to 10000..19999 and 30000 to itself; UPPER
 * maps disk 0 to 0 and 20000..29999 to 10000..19999. */
static void copy_up_rows(void)
{
	struct vt_ovl_world w;

	/* u:1000,g:1000 is 11000 through LOWER (ovl_idmap_posix_acl), which
	 * UPPER stores as disk 21000 (from_vfsuid), as it does the owner */
	world(&w, cred(0, 0, -1, true), 0660, 1000, 1000);
	w.posixacl = true;
	add_acl(&w.lower_obj, 1000);
	copy_row(&w, 0, VT_R_OVL_SETATTR_OK, 21000, 21000, 0, 0,
		 "ACL u:1000,g:1000 copied up as u:21000,g:21000");
	/* xfs lists trusted.SGI_ACL_FILE too, copied after the ACL as raw
	 * bytes: the copy keeps the lower on-disk u:1000,g:1000 */
	w.lists_raw_acl = true;
	copy_row(&w, 0, VT_R_OVL_SETATTR_OK, 21000, 1000, 0, 0,
		 "xfs: the raw trusted.SGI_ACL_FILE copied last, u:1000,g:1000 as on the lower disk");
	/* u:30000 is 30000 through LOWER, which UPPER cannot store: EINVAL
	 * (posix_acl_valid), the copy is dropped */
	world(&w, cred(0, 0, -1, true), 0660, 1000, 1000);
	w.posixacl = true;
	add_acl(&w.lower_obj, 30000);
	copy_row(&w, EINVAL, VT_R_OVL_COPYUP_ACL, -1, -1, 0, 0,
		 "ACL u:30000: no id through UPPER, EINVAL, no copy");
	/* u:50000 has no id through LOWER: INVALID_UID, EINVAL the same */
	world(&w, cred(0, 0, -1, true), 0660, 1000, 1000);
	w.posixacl = true;
	add_acl(&w.lower_obj, 50000);
	copy_row(&w, EINVAL, VT_R_OVL_COPYUP_ACL, -1, -1, 0, 0,
		 "ACL u:50000: no id through LOWER, EINVAL, no copy");
	/* v3 rootid 1000: the mounter reads v3 rootid 11000 through LOWER,
	 * cap_convert_nscap through UPPER stores rootid 21000 */
	world(&w, cred(0, 0, -1, true), 0755, 1000, 1000);
	w.lower_obj.fcaps.version = 3;
	w.lower_obj.fcaps.rootid = vt_kuid(1000);
	copy_row(&w, 0, VT_R_OVL_SETATTR_OK, 21000, -1, 3, 21000,
		 "fcaps v3 rootid 1000 copied up as v3 rootid 21000");
	/* v2: rootid 0 is 10000 through LOWER, read as v3 rootid 10000
	 * (mappedroot is not 0), stored through UPPER as v3 rootid 20000 */
	w.lower_obj.fcaps.version = 2;
	w.lower_obj.fcaps.rootid = vt_kuid(0);
	copy_row(&w, 0, VT_R_OVL_SETATTR_OK, 21000, -1, 3, 20000,
		 "fcaps v2 copied up as v3 rootid 20000");
	/* rootid 50000: no id through LOWER, cap_inode_getsecurity's
	 * EOVERFLOW is not ovl_no_fscap's: the copy-up fails */
	w.lower_obj.fcaps.version = 3;
	w.lower_obj.fcaps.rootid = vt_kuid(50000);
	copy_row(&w, EOVERFLOW, VT_R_OVL_COPYUP_FCAPS, -1, -1, 0, 0,
		 "fcaps rootid 50000: EOVERFLOW from the mounter's read, no copy");
	/* rootid 30000: read as 30000, cap_convert_nscap cannot map it
	 * through UPPER: EINVAL */
	w.lower_obj.fcaps.rootid = vt_kuid(30000);
	copy_row(&w, EINVAL, VT_R_OVL_COPYUP_FCAPS, -1, -1, 0, 0,
		 "fcaps rootid 30000: EINVAL from the write through UPPER, no copy");
	/* plain layers: a v2 reads as v2 (mappedroot 0) and is written as v2
	 * (cap_convert_nscap: nop_mnt_idmap, CAP_SETFCAP) */
	world(&w, cred(0, 0, -1, true), 0755, 1000, 1000);
	w.lower_idmap = w.upper_idmap = &vt_nop_idmap;
	w.lower_obj.fcaps.version = 2;
	copy_row(&w, 0, VT_R_OVL_SETATTR_OK, 1000, -1, 2, 0, "plain layers: fcaps v2 stays v2");
}

/* An access ACL u::rw-,u:ID:rw-,g::r--,g:ID:r--,m::rw-,o::--- */
static void add_acl(struct vt_minode *i, uint32_t id)
{
	static const uint16_t tags[6] = { VT_ACL_USER_OBJ, VT_ACL_USER, VT_ACL_GROUP_OBJ,
					  VT_ACL_GROUP, VT_ACL_MASK, VT_ACL_OTHER };
	static const uint16_t perms[6] = { 6, 6, 4, 4, 6, 0 };

	for (int k = 0; k < 6; k++) {
		i->acl[k].tag = tags[k];
		i->acl[k].perm = perms[k];
		i->acl[k].uid = vt_kuid(tags[k] == VT_ACL_USER ? id : VT_ID_INVALID);
		i->acl[k].gid = vt_kgid(tags[k] == VT_ACL_GROUP ? id : VT_ID_INVALID);
	}
	i->nacl = 6;
}

/* setxattr(system.posix_acl_access) of u::rwx,u:ID:rw-,g::r-x,g:ID:r--,m::rwx,o::r-- */
static void set_acl_args(struct vt_mop_args *a, uint32_t id)
{
	static const uint16_t tags[6] = { VT_ACL_USER_OBJ, VT_ACL_USER, VT_ACL_GROUP_OBJ,
					  VT_ACL_GROUP, VT_ACL_MASK, VT_ACL_OTHER };
	static const uint16_t perms[6] = { 7, 6, 5, 4, 7, 4 };

	memset(a, 0, sizeof(*a));
	a->op = VT_OP_ACL_SET;
	a->nacl = 6;
	for (int k = 0; k < 6; k++) {
		a->acl[k].tag = tags[k];
		a->acl[k].perm = perms[k];
		a->acl[k].uid = vt_cuid(tags[k] == VT_ACL_USER ? id : VT_ID_INVALID);
		a->acl[k].gid = vt_cgid(tags[k] == VT_ACL_GROUP ? id : VT_ID_INVALID);
	}
}

/* POSIX access ACLs (op_acl), worked out from 6.12 fs/overlayfs/inode.c
 * (do_ovl_get_acl, ovl_get_acl_path, ovl_idmap_posix_acl, ovl_set_acl,
 * ovl_set_or_remove_acl) and fs/posix_acl.c (vfs_get_acl,
 * vfs_posix_acl_to_xattr, do_set_acl, vfs_set_acl, vfs_set_acl_idmapped_mnt,
 * set_posix_acl). LOWER shows disk 0-9999 as 10000-19999; UPPER stores
 * 10000-19999 as disk 20000-29999 and nothing for 30000. */
static void acl_rows(void)
{
	struct vt_ovl_world w;
	struct vt_mop_args a;
	struct vt_expect e;

	/* disk u:1000,g:1000 through LOWER is kuid/kgid 11000 on the overlay
	 * inode (ovl_idmap_posix_acl); the initial root reads 11000 */
	world(&w, cred(0, 0, -1, true), 0660, 0, 0);
	w.posixacl = true;
	add_acl(&w.lower_obj, 1000);
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_ACL_GET;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_ACL_OK && e.got_nacl == 6 &&
			   e.got_acl[1].uid.val == 11000 && e.got_acl[3].gid.val == 11000 &&
			   !e.result.exists,
		   "acl: disk entries 1000 read through the overlay as 11000 (LOWER), no copy-up");
	/* disk 50000 has no id through LOWER: make_vfsuid gives
	 * INVALID_VFSUID, vfs_posix_acl_to_xattr writes -1 */
	add_acl(&w.lower_obj, 50000);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.got_nacl == 6 && e.got_acl[1].uid.val == VT_ID_INVALID &&
			   e.got_acl[3].gid.val == VT_ID_INVALID,
		   "acl: disk entries 50000 (unmapped through LOWER) read as -1");
	/* a real inode of a filesystem without ACLs: do_ovl_get_acl returns
	 * NULL (!IS_POSIXACL(realinode)): ENODATA, though the overlay has
	 * SB_POSIXACL */
	w.posixacl = false;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == ENODATA && e.rule_id == VT_R_ACL_GET_NODATA,
		   "acl: a layer without POSIX ACLs reads none (ENODATA)");
	w.posixacl = true;
	w.lower_obj.nacl = 0;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == ENODATA && e.rule_id == VT_R_ACL_GET_NODATA,
		   "acl: a lower file without an ACL: ENODATA");

	/* the owner 11000 (disk 1000 through LOWER) sets u:12000,g:12000:
	 * the copy-up stores disk 21000:21000, the mounter's vfs_set_acl
	 * stores 12000 through UPPER as disk 22000; mode from the ACL
	 * (posix_acl_update_mode: u::rwx, m::rwx, o::r--): 0774 */
	world(&w, cred(11000, 11000, -1, false), 0644, 1000, 1000);
	w.posixacl = true;
	set_acl_args(&a, 12000);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_ACL_OK && e.result.exists &&
			   e.result.uid.val == 21000 && e.result.nacl == 6 &&
			   e.result.acl[1].uid.val == 22000 && e.result.acl[3].gid.val == 22000 &&
			   e.result.mode == (S_IFREG | 0774) && e.seen_uid.val == 11000,
		   "acl: 11000 sets u:12000 on its lower file: upper disk 21000 with u:22000, 0774");
	/* 30000 is a valid kuid (the caller's checks on the overlay inode
	 * pass) that UPPER cannot store: vfs_set_acl_idmapped_mnt gives
	 * INVALID_UID, posix_acl_valid EINVAL, after the copy-up */
	set_acl_args(&a, 30000);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EINVAL && e.rule_id == VT_R_OVL_ACL_UPPER && e.result.exists &&
			   e.result.uid.val == 21000 && e.result.nacl == 0,
		   "acl: u:30000 is EINVAL upstairs (UPPER cannot store it); the copy stays, no ACL");
	/* 12000 is not the owner (set_posix_acl: inode_owner_or_capable on
	 * the overlay inode) */
	w.caller = cred(12000, 12000, -1, false);
	set_acl_args(&a, 12000);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EPERM && e.rule_id == VT_R_ACL_SET_OWNER && !e.result.exists,
		   "acl: 12000 may not set the ACL of 11000's file: EPERM, no copy-up");
	/* an erofs lower layer (lower_no_set_acl): the owner passes
	 * set_posix_acl on the overlay inode, then ovl_set_acl asks
	 * ovl_inode_real (the lower inode, not copied up) for ->set_acl,
	 * which erofs's inode_operations lack: EOPNOTSUPP, no copy-up */
	w.caller = cred(11000, 11000, -1, false);
	w.lower_no_set_acl = true;
	w.lower_rdonly = true;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EOPNOTSUPP && e.rule_id == VT_R_ACL_SET_NOTSUPP && !e.result.exists,
		   "acl: the owner's set on an erofs lower file: EOPNOTSUPP before the copy-up");
	/* the caller's own refusal comes first (set_posix_acl's
	 * inode_owner_or_capable before ->set_acl, ovl_set_acl) */
	w.caller = cred(12000, 12000, -1, false);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EPERM && e.rule_id == VT_R_ACL_SET_OWNER && !e.result.exists,
		   "acl: a non-owner's set on an erofs lower file: EPERM first");
}

/* security.capability (op_fcaps), worked out from 6.12
 * security/commoncap.c (cap_inode_getsecurity, cap_convert_nscap,
 * rootid_owns_currentns) and fs/overlayfs/xattrs.c: LOWER shows disk
 * 0-9999 as 10000-19999; UPPER stores 0 as 0 and 10000-19999 as disk
 * 20000-29999. */
static void fcaps_rows(void)
{
	struct vt_ovl_world w;
	struct vt_mop_args a;
	struct vt_expect e;

	memset(&a, 0, sizeof(a));
	a.op = VT_OP_FCAPS_GET;
	/* disk v3 rootid 1000: the mounter reads rootid 11000 through
	 * LOWER; the overlay's cap_inode_getsecurity gives the initial root
	 * v3 rootid 11000 */
	world(&w, cred(0, 0, -1, true), 0755, 0, 0);
	w.lower_obj.fcaps.version = 3;
	w.lower_obj.fcaps.rootid = vt_kuid(1000);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_FCAPS_OK && e.got_fcaps.version == 3 &&
			   e.got_fcaps.rootid.val == 11000 && !e.result.exists,
		   "fcaps: disk v3 rootid 1000 read through the overlay as v3 rootid 11000");
	/* disk v2: its root is the filesystem's 0, 10000 through LOWER: the
	 * mounter already reads v3 rootid 10000 */
	w.lower_obj.fcaps.version = 2;
	w.lower_obj.fcaps.rootid = vt_kuid(0);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.got_fcaps.version == 3 && e.got_fcaps.rootid.val == 10000,
		   "fcaps: disk v2 read through the overlay as v3 rootid 10000");
	/* disk rootid 50000 has no id through LOWER: the mounter's read is
	 * EOVERFLOW (!rootid_owns_currentns of an invalid vfsuid) */
	w.lower_obj.fcaps.version = 3;
	w.lower_obj.fcaps.rootid = vt_kuid(50000);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EOVERFLOW && e.rule_id == VT_R_OVL_FCAPS_GET_REAL,
		   "fcaps: disk rootid 50000 (unmapped through LOWER) is EOVERFLOW");

	/* root sets v2 on disk 1000's file (overlay 11000): kept as v2 on
	 * the overlay inode (&nop_mnt_idmap, capable); the mounter's
	 * cap_convert_nscap through UPPER (not nop) makes it v3 with rootid
	 * 0 of the mounter, disk 0 through UPPER; the copy is disk 21000 */
	world(&w, cred(0, 0, -1, true), 0755, 1000, 1000);
	a.op = VT_OP_FCAPS_SET;
	a.fcaps.version = 2;
	a.fcaps.rootid = vt_cuid(0);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_FCAPS_OK && e.result.exists &&
			   e.result.uid.val == 21000 && e.result.fcaps.version == 3 &&
			   e.result.fcaps.rootid.val == 0,
		   "fcaps: root's v2 is stored upstairs as v3 rootid 0 (UPPER is idmapped)");
	/* v3 rootid 12000: disk 22000 through UPPER */
	a.fcaps.version = 3;
	a.fcaps.rootid = vt_cuid(12000);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.result.fcaps.version == 3 && e.result.fcaps.rootid.val == 22000,
		   "fcaps: root's v3 rootid 12000 is stored as disk 22000");
	/* v3 rootid 30000: valid on the overlay inode, UPPER cannot store
	 * it: EINVAL after the copy-up (the copy has no capability) */
	a.fcaps.rootid = vt_cuid(30000);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EINVAL && e.rule_id == VT_R_OVL_FCAPS_UPPER && e.result.exists &&
			   e.result.fcaps.version == 0,
		   "fcaps: rootid 30000 is EINVAL upstairs, the copy stays without it");
	/* 11000 (the overlay owner) without CAP_SETFCAP: EPERM */
	w.caller = cred(11000, 11000, -1, false);
	a.fcaps.rootid = vt_cuid(0);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EPERM && e.rule_id == VT_R_FCAPS_SETFCAP && !e.result.exists,
		   "fcaps: the owner without CAP_SETFCAP: EPERM, no copy-up");
}

int main(void)
{
	struct vt_ovl_world w;
	struct vt_ovl_expect e;
	struct vt_minode o, real;
	char err[200];

	vt_mapping_parse(LOWER, &lower.map, err, sizeof(err));
	vt_mapping_parse(UPPER, &upper.map, err, sizeof(err));
	unit_begin(134);
	lower.name = "lower";
	upper.name = "upper";

	/* ovl_copyattr: the owner through the layer's idmap */
	real = vt_minode_make(S_IFREG | 0644, 1000, 3000);
	o = vt_ovl_inode(&lower, &real);
	unit_check(o.uid.val == 11000 && o.gid.val == 13000,
		   "ovl_copyattr: disk 1000:3000 through LOWER is 11000:13000");
	real = vt_minode_make(S_IFREG | 0644, 50000, 50000);
	o = vt_ovl_inode(&lower, &real);
	unit_check(!vt_kuid_valid(o.uid), "ovl_copyattr: disk 50000 through LOWER is INVALID_UID");

	/* stat: generic_fillattr through the layer, from_kuid_munged */
	world(&w, cred(12000, 12000, -1, false), 0644, 50000, 50000);
	vt_ovl_model(&w, VT_OVL_STAT, vt_cuid(0), vt_cgid(0), &e);
	unit_check(e.err == 0 && e.seen_uid.val == 65534 && e.seen_gid.val == 65534,
		   "stat of an owner LOWER does not map: overflowuid");

	/* the two checks of ovl_permission: a group member passes on the
	 * overlay inode (gid 1000 -> 11000, mode 0040), the root mounter is
	 * refused on the real one (not owner, not in the group, other ---, and
	 * CAP_DAC_READ_SEARCH does not reach an inode whose uid the layer does
	 * not map: capable_wrt_inode_uidgid) */
	world(&w, cred(12000, 12000, 11000, false), 0040, 50000, 1000);
	vt_ovl_model(&w, VT_OVL_OPEN_READ, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EACCES, "mounter", "read 50000:1000 0040 as a member of 11000");
	/* root as the caller is refused already on the overlay inode */
	world(&w, cred(0, 0, -1, true), 0040, 50000, 1000);
	vt_ovl_model(&w, VT_OVL_OPEN_READ, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EACCES, "caller", "read 50000:1000 0040 as root");
	/* root reads 0:0 0640 (10000 through LOWER, mapped): DAC override */
	world(&w, cred(0, 0, -1, true), 0640, 0, 0);
	vt_ovl_model(&w, VT_OVL_OPEN_READ, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "read 0:0 0640 as root");

	/* writes: copy-up by the mounter, owner through the upper idmap */
	world(&w, cred(11000, 11000, -1, false), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "write 1000:1000 0644 as 11000 (its owner through LOWER)");
	unit_check(e.upper && e.upper_uid.val == 21000 && e.upper_gid.val == 21000 &&
			   e.seen_uid.val == 11000,
		   "copy-up: 11000 stored through UPPER as 21000, seen as 11000");
	world(&w, cred(12000, 12000, -1, false), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EACCES, "caller", "write 1000:1000 0644 as 12000 (other r--)");
	world(&w, cred(12000, 12000, -1, false), 0666, 50000, 50000);
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EACCES, NULL, "write 50000 0666: HAS_UNMAPPED_ID on the overlay inode");
	world(&w, cred(12000, 12000, -1, false), 0666, 30000, 30000);
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EOVERFLOW, "ovl_set_attr",
	       "write 30000 0666: 30000 cannot be written through UPPER");
	unit_check(!e.upper, "a refused ovl_set_attr leaves no upper copy (workdir only)");
	/* a read-only lower: the mounter is asked for MAY_READ, no EROFS */
	world(&w, cred(11000, 11000, -1, false), 0644, 1000, 1000);
	w.lower_rdonly = true;
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "write through the overlay to a file of a read-only lower");

	/* create: the caller's fsuid through the upper idmap */
	world(&w, cred(1000, 1000, -1, false), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_CREATE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EOVERFLOW, "fsuidgid_has_mapping", "create as 1000: UPPER does not map it");
	world(&w, cred(12000, 12000, -1, false), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_CREATE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "create as 12000");
	unit_check(e.upper_uid.val == 22000 && e.upper_gid.val == 22000,
		   "created as 12000: stored through UPPER as 22000");

	/* chown: copy-up, then the mounter's notify_change through UPPER */
	world(&w, cred(0, 0, -1, true), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_CHOWN, vt_cuid(1000), vt_cgid(1000), &e);
	expect(&e, EOVERFLOW, NULL, "root chowns to 1000: UPPER cannot write it");
	unit_check(e.upper && e.upper_uid.val == 21000,
		   "the copy-up before the refused chown stays (21000)");
	vt_ovl_model(&w, VT_OVL_CHOWN, vt_cuid(12000), vt_cgid(13000), &e);
	expect(&e, 0, NULL, "root chowns to 12000:13000");
	unit_check(e.upper_uid.val == 22000 && e.upper_gid.val == 23000 && e.seen_uid.val == 12000,
		   "chowned: stored as 22000:23000, seen as 12000");
	world(&w, cred(12000, 12000, -1, false), 0666, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_CHOWN, vt_cuid(12000), vt_cgid(12000), &e);
	expect(&e, EPERM, NULL, "12000 chowns 11000's file: chown_ok");

	/* unlink in a sticky root: may_delete on the overlay inodes */
	world(&w, cred(1000, 1000, -1, false), 0644, 1000, 1000);
	w.upper_root.mode = S_IFDIR | 01777;
	vt_ovl_model(&w, VT_OVL_UNLINK, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EPERM, NULL, "1000 unlinks its on-disk file, seen as 11000's: check_sticky");
	w.caller = cred(11000, 11000, -1, false);
	vt_ovl_model(&w, VT_OVL_UNLINK, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "11000 unlinks it");
	unit_check(e.whiteout && e.upper_uid.val == 0 && e.upper_gid.val == 0,
		   "the whiteout is the mounter's: 0 through UPPER is disk 0");
	world(&w, cred(0, 0, -1, true), 0644, 50000, 50000);
	vt_ovl_model(&w, VT_OVL_UNLINK, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EOVERFLOW, NULL, "root unlinks 50000's: may_delete, !vfsuid_valid");

	matrix_world_rows();
	setattr_rows();
	unlink_rows();
	rmdir_rename_link_rows();
	exec_rows();
	upper_plain_rows();
	upper_other_rows();
	xattr_rows();
	xattr_fd_rows();
	copy_up_rows();
	acl_rows();
	fcaps_rows();
	return unit_end();
}
