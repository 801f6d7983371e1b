/* matrix/013's calls and matrix/012's protected opens through the overlay
 * world (lib/model/overlay_fileops.c via vt_ovl_model_mop) on hand-worked
 * cases: each expectation is worked out here from the 6.12 source it
 * names, not taken from the model or a kernel. Maps: shift (b:0:10000:65536:
 * the root mounter's fsuid 0 has no disk id through it, so ovl_workdir_create
 * fails and the overlay is read-only), swap (0-999 as themselves, mount 1000
 * = disk 1001 and back: a writable overlay) and the plain layers (nop). The
 * mounter is the initial root with every capability, no groups. */
#include "unit.h"
#include "model/overlay_model.h"
#include "model/rules.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct vt_midmap shift, swap;
static struct vt_trace tr;

static struct vt_mcred cred(uint32_t uid, uint32_t gid, uint64_t caps)
{
	struct vt_mcred c;

	memset(&c, 0, sizeof(c));
	c.ns = &vt_init_ns;
	c.uid = c.fsuid = vt_cuid(uid);
	c.gid = c.fsgid = vt_cgid(gid);
	c.caps = caps;
	c.umask = 022;
	return c;
}

/* both layers on MAP; the upper P PMODE PUID:PGID; the lower P/o MODE UID:GID */
static void world(struct vt_ovl_world *w, const struct vt_midmap *map, struct vt_mcred caller,
		  mode_t pmode, uint32_t puid, uint32_t pgid, mode_t mode, uint32_t uid, uint32_t gid)
{
	memset(w, 0, sizeof(*w));
	w->lower_idmap = w->upper_idmap = map;
	w->caller = caller;
	w->mounter = cred(0, 0, ~0ULL);
	w->upper_root = vt_minode_make(S_IFDIR | pmode, puid, pgid);
	w->lower_obj = vt_minode_make(mode, uid, gid);
	w->overflowuid = w->overflowgid = 65534;
	memset(&tr, 0, sizeof(tr));
	w->trace = &tr;
}

static void run(const struct vt_ovl_world *w, enum vt_mop op, struct vt_expect *e)
{
	struct vt_mop_args a;

	memset(&a, 0, sizeof(a));
	a.op = op;
	vt_ovl_model_mop(w, &a, e);
}

static void access_rows(void)
{
	struct vt_ovl_world w;
	struct vt_mop_args a;
	struct vt_expect e;

	memset(&a, 0, sizeof(a));
	a.op = VT_OP_ACCESS;
	/* plain layers: u1000 owns 0600 1000:1000; W_OK on the overlay inode
	 * (rw- for the owner), then the mounter's half asks MAY_READ of the
	 * lower file (ovl_permission), CAP_DAC_OVERRIDE: allowed, nothing
	 * copied up (access opens nothing) */
	world(&w, &vt_nop_idmap, cred(1000, 1000, 0), 0777, 0, 0, S_IFREG | 0600, 1000, 1000);
	a.mode = W_OK;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_ACCESS_PERM && !e.result.exists &&
			   e.seen_uid.val == 1000,
		   "access(W_OK), plain layers: the owner may write, nothing copied up");
	/* shift: the overlay is read-only, so inode_permission's
	 * sb_permission refuses MAY_WRITE on a regular file first: EROFS */
	world(&w, &shift, cred(11000, 11000, 0), 0777, 0, 0, S_IFREG | 0600, 1000, 1000);
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EROFS && e.rule_id == VT_R_OVL_WORKDIR_RDONLY,
		   "access(W_OK), shift: EROFS (read-only overlay, sb_permission)");
	/* shift, R_OK of 0600 2000:2000 (seen 12000:12000) by u11000 holding
	 * CAP_DAC_OVERRIDE: access_override_creds clears cap_effective for a
	 * uid other than 0, so the caller's half refuses (not owner, other
	 * ---): EACCES */
	world(&w, &shift, cred(11000, 11000, 1ULL << VT_CAP_DAC_OVERRIDE), 0777, 0, 0,
	      S_IFREG | 0600, 2000, 2000);
	a.mode = R_OK;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EACCES && e.rule_id == VT_R_OVL_CALLER_PERM,
		   "access(R_OK), shift: a uid-1000-class caller's CAP_DAC_OVERRIDE is cleared: EACCES");
	/* with AT_EACCESS its effective caps stay: CAP_DAC_OVERRIDE over
	 * 12000:12000 (mapped in the initial namespace) allows it, and the
	 * root mounter reads disk 2000 (10000 + 2000) through shift */
	a.eaccess = true;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_ACCESS_PERM && e.seen_uid.val == 12000,
		   "access(R_OK, AT_EACCESS), shift: CAP_DAC_OVERRIDE kept, allowed");
}

static void chdir_rows(void)
{
	struct vt_ovl_world w;
	struct vt_expect e;

	/* shift: a lower 0700 dir of disk 70000 (no id through shift: the
	 * overlay inode's uid and gid are INVALID); root's CAP_DAC_OVERRIDE and
	 * CAP_DAC_READ_SEARCH need both ids mapped (capable_wrt_inode_uidgid),
	 * other is ---: the caller's half refuses MAY_EXEC: EACCES */
	world(&w, &shift, cred(0, 0, ~0ULL), 0777, 0, 0, S_IFDIR | 0700, 70000, 70000);
	run(&w, VT_OP_CHDIR, &e);
	unit_check(e.err == EACCES && e.rule_id == VT_R_OVL_CALLER_PERM,
		   "chdir, shift: root cannot enter an unmapped 0700 lower dir");
	/* a lower 0007 dir of disk 0:0 (seen 10000:10000): u12000 is other
	 * (--x), the mounter enters disk 0 (10000: CAP_DAC_READ_SEARCH) */
	world(&w, &shift, cred(12000, 12000, 0), 0777, 0, 0, S_IFDIR | 0007, 0, 0);
	run(&w, VT_OP_CHDIR, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_CHDIR_PERM && e.seen_uid.val == 10000,
		   "chdir, shift: other's x on a 0007 lower dir, the mounter's half passes");
}

static void owner_rows(void)
{
	struct vt_ovl_world w;
	struct vt_expect e;

	/* O_NOATIME (may_open): inode_owner_or_capable(nop, overlay inode):
	 * disk 1000 through shift is 11000, the caller's fsuid: allowed; the
	 * read-only overlay does not matter (no write) */
	world(&w, &shift, cred(11000, 11000, 0), 0777, 0, 0, S_IFREG | 0644, 1000, 1000);
	run(&w, VT_OP_OPEN_NOATIME, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_NOATIME_OWNER && !e.result.exists,
		   "open(O_NOATIME), shift: the overlay inode's owner (11000) may");
	w.caller = cred(12000, 12000, 0);
	run(&w, VT_OP_SETFL_NOATIME, &e);
	unit_check(e.err == EPERM && e.rule_id == VT_R_SETFL_NOATIME_OWNER,
		   "F_SETFL O_NOATIME, shift: 12000 is not 11000's file's owner: EPERM");
	/* F_SETLEASE, plain layers: vfs_setlease's owner test on the
	 * overlay inode: u1000 owns 1000:1000, u1001 does not (no CAP_LEASE) */
	world(&w, &vt_nop_idmap, cred(1000, 1000, 0), 0777, 0, 0, S_IFREG | 0644, 1000, 1000);
	run(&w, VT_OP_SETLEASE, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_LEASE_NONREG, "F_SETLEASE, plain layers: owner");
	w.caller = cred(1001, 1001, 0);
	run(&w, VT_OP_SETLEASE, &e);
	unit_check(e.err == EACCES && e.rule_id == VT_R_LEASE_OWNER,
		   "F_SETLEASE, plain layers: not the owner, no CAP_LEASE: EACCES");
	/* FS_IOC_SETFLAGS, swap (writable: 0 maps): disk 1001:1001 is mount
	 * 1000:1000, u1000 owns the overlay inode; ovl_fileattr_set copies it
	 * up: the mounter's ovl_set_attr writes 1000:1000 through swap, disk
	 * 1001:1001, mode 0644 as the lower file's */
	world(&w, &swap, cred(1000, 1000, 0), 0777, 0, 0, S_IFREG | 0644, 1001, 1001);
	run(&w, VT_OP_SETFLAGS, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_OVL_FILEATTR_OK && e.result.exists &&
			   e.result.uid.val == 1001 && e.result.gid.val == 1001 &&
			   e.result.mode == (S_IFREG | 0644) && e.seen_uid.val == 1000,
		   "FS_IOC_SETFLAGS, swap: the owner's set copies the file up as disk 1001:1001");
	w.caller = cred(1001, 1001, 0);
	run(&w, VT_OP_FSSETXATTR, &e);
	unit_check(e.err == EPERM && e.rule_id == VT_R_FILEATTR_OWNER && !e.result.exists,
		   "FS_IOC_FSSETXATTR, swap: 1001 is not the owner (mount 1000): EPERM, no copy-up");
	/* shift: read-only overlay: ioctl_setflags' mnt_want_write_file is
	 * EROFS before the owner test */
	world(&w, &shift, cred(11000, 11000, 0), 0777, 0, 0, S_IFREG | 0644, 1000, 1000);
	run(&w, VT_OP_SETFLAGS, &e);
	unit_check(e.err == EROFS && e.rule_id == VT_R_OVL_WORKDIR_RDONLY,
		   "FS_IOC_SETFLAGS, shift: EROFS (mnt_want_write_file on a read-only overlay)");
}

static void dedupe_cachestat_rows(void)
{
	struct vt_ovl_world w;
	struct vt_expect e;

	/* FIDEDUPERANGE, plain layers: u1001 on 1000:1000's 0666 file: not
	 * owner, no CAP_SYS_ADMIN, but inode_permission(MAY_WRITE) on the
	 * overlay inode passes (other rw-; the mounter's half reads): status 0 */
	world(&w, &vt_nop_idmap, cred(1001, 1001, 0), 0777, 0, 0, S_IFREG | 0666, 1000, 1000);
	run(&w, VT_OP_DEDUPE, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_DEDUPE_PERM, "dedupe, plain layers: other rw- may");
	/* 0644: other r--, no write permission: EPERM */
	w.lower_obj.mode = S_IFREG | 0644;
	run(&w, VT_OP_DEDUPE, &e);
	unit_check(e.err == EPERM && e.rule_id == VT_R_DEDUPE_PERM,
		   "dedupe, plain layers: other r-- may not: EPERM");
	/* shift: vfs_dedupe_file_range_one's mnt_want_write_file: EROFS */
	world(&w, &shift, cred(11000, 11000, 0), 0777, 0, 0, S_IFREG | 0644, 1000, 1000);
	run(&w, VT_OP_DEDUPE, &e);
	unit_check(e.err == EROFS, "dedupe, shift: EROFS (read-only overlay)");
	/* cachestat, shift: u12000 on disk 1000's 0666 file (11000): not the
	 * owner, and file_permission(MAY_WRITE) is refused by sb_permission
	 * (read-only overlay), so can_do_cachestat says EPERM where a plain
	 * idmapped mount would allow it (other rw-) */
	world(&w, &shift, cred(12000, 12000, 0), 0777, 0, 0, S_IFREG | 0666, 1000, 1000);
	run(&w, VT_OP_CACHESTAT, &e);
	unit_check(e.err == EPERM && e.rule_id == VT_R_CACHESTAT_PERM,
		   "cachestat, shift: not the owner, no write on a read-only overlay: EPERM");
	w.caller = cred(11000, 11000, 0);
	run(&w, VT_OP_CACHESTAT, &e);
	unit_check(e.err == 0 && e.rule_id == VT_R_CACHESTAT_PERM, "cachestat, shift: the owner may");
}

static void atime_rows(void)
{
	struct vt_ovl_world w;
	struct vt_expect e;

	/* read through the overlay, shift: ovl_open_realfile opens disk
	 * 1000:1000 (11000:11000 through shift, both mapped in the initial
	 * namespace: CAP_FOWNER) with O_NOATIME kept: no atime update */
	world(&w, &shift, cred(11000, 11000, 0), 0777, 0, 0, S_IFREG | 0644, 1000, 1000);
	run(&w, VT_OP_READ_ATIME, &e);
	unit_check(e.err == 0 && !e.atime_updated && (tr.ev[VT_R_OVL_READ_NOATIME] & VT_EV_DENY),
		   "read, shift: the real file is O_NOATIME (the mounter owns or is capable): no update");
	/* disk 70000 has no id through shift: the mounter is neither the
	 * owner nor capable over it, O_NOATIME is dropped, and touch_atime on
	 * the lower mount finds HAS_UNMAPPED_ID: no update either */
	world(&w, &shift, cred(0, 0, ~0ULL), 0777, 0, 0, S_IFREG | 0644, 70000, 70000);
	run(&w, VT_OP_READ_ATIME, &e);
	unit_check(e.err == 0 && !e.atime_updated && (tr.ev[VT_R_OVL_READ_NOATIME] & VT_EV_ALLOW) &&
			   (tr.ev[VT_R_ATIME_UNMAPPED] & VT_EV_DENY),
		   "read, shift: unmapped owner: no O_NOATIME, but HAS_UNMAPPED_ID: no update");
	/* disk 1000:70000: the uid maps (11000), the gid does not; 6.12
	 * inode_owner_or_capable asks only the uid's mapping
	 * (vfsuid_has_mapping && ns_capable(CAP_FOWNER), not
	 * privileged_wrt_inode_uidgid): the mounter keeps O_NOATIME, no update
	 * (and HAS_UNMAPPED_ID is never asked) */
	world(&w, &shift, cred(0, 0, ~0ULL), 0777, 0, 0, S_IFREG | 0644, 1000, 70000);
	run(&w, VT_OP_READ_ATIME, &e);
	unit_check(e.err == 0 && !e.atime_updated && (tr.ev[VT_R_OVL_READ_NOATIME] & VT_EV_DENY) &&
			   !tr.ev[VT_R_ATIME_UNMAPPED],
		   "read, shift: gid unmapped: O_NOATIME kept (inode_owner_or_capable asks the uid only)");
}

static void protected_rows(void)
{
	struct vt_ovl_world w;
	struct vt_mop_args a;
	struct vt_expect e;

	memset(&a, 0, sizeof(a));
	a.op = VT_OP_OPEN_CREAT_RDONLY;
	a.on_existing = true;
	a.mode = 0644;
	/* plain layers, upper P 01770 0:1000, a lower 0606 1001:1001 file, u1000
	 * (group 1000): the walk passes (group rwx; the mounter's
	 * CAP_DAC_OVERRIDE), may_create_in_sticky: file owner 1001 is neither
	 * P's 0 nor the fsuid, P is not o+w but g+w: refused at
	 * protected_regular 2, allowed at 1 */
	world(&w, &vt_nop_idmap, cred(1000, 1000, 0), 01770, 0, 1000, S_IFREG | 0606, 1001, 1001);
	w.protected_regular = 2;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EACCES && e.rule_id == VT_R_STICKY_CREATE_REGULAR,
		   "O_CREAT of another's file in a g+w sticky overlay dir, protected_regular=2: EACCES");
	w.protected_regular = 1;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == 0 && !e.result.exists && e.seen_uid.val == 1001,
		   "the same at protected_regular=1: opened (other r), nothing copied up");
	/* a fifo, world-writable P 01777 1000:1000, protected_fifos=2:
	 * owner 1001 is neither P's nor u1002's: EACCES */
	world(&w, &vt_nop_idmap, cred(1002, 1002, 0), 01777, 1000, 1000, S_IFIFO | 0606, 1001, 1001);
	w.protected_fifos = 2;
	vt_ovl_model_mop(&w, &a, &e);
	unit_check(e.err == EACCES && e.rule_id == VT_R_STICKY_CREATE_FIFO,
		   "O_CREAT of another's fifo in a sticky o+w overlay dir, protected_fifos=2: EACCES");
	/* protected_symlinks=1, shift: upper P 01777 1000:1000 is 11000 on the
	 * overlay, a lower link of disk 1001 (11001): u11000 does not own it,
	 * P is sticky and o+w, P's owner is not the link's: EACCES */
	world(&w, &shift, cred(11000, 11000, 0), 01777, 1000, 1000, S_IFLNK | 0777, 1001, 1001);
	w.lower_obj.symlink_to_t = true;
	w.lower_other = vt_minode_make(S_IFREG | 0644, 0, 0);
	w.protected_symlinks = 1;
	run(&w, VT_OP_OPEN_READ, &e);
	unit_check(e.err == EACCES && e.rule_id == VT_R_FOLLOW_PROTECTED,
		   "follow a lower link in a sticky o+w overlay dir, protected_symlinks=1: EACCES");
	/* a link of disk 1000 (11000, P's owner): followed; t (disk 0:0,
	 * 10000) is read by other r--, the mounter through shift (10000
	 * mapped: CAP_DAC_OVERRIDE); the caller's lstat of P/o shows 11000 */
	w.lower_obj.uid = vt_kuid(1000);
	w.lower_obj.gid = vt_kgid(1000);
	w.caller = cred(12000, 12000, 0);
	run(&w, VT_OP_OPEN_READ, &e);
	unit_check(e.err == 0 && e.seen_uid.val == 11000 && !e.result.exists,
		   "follow a lower link P's owner owns, shift: t is read, nothing copied up");
}

int main(void)
{
	char err[200];

	vt_mapping_parse("b:0:10000:65536", &shift.map, err, sizeof(err));
	vt_mapping_parse("b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", &swap.map, err,
			 sizeof(err));
	shift.name = "shift10000";
	swap.name = "swap";
	unit_begin(26);
	access_rows();
	chdir_rows();
	owner_rows();
	dedupe_cachestat_rows();
	atime_rows();
	protected_rows();
	return unit_end();
}
