/* execve() of setuid/setgid and file-capability binaries through a mount:
 * fs/exec.c (do_open_execat -> may_open(MAY_EXEC), bprm_fill_uid),
 * fs/namespace.c (mnt_may_suid), security/commoncap.c
 * (cap_bprm_creds_from_file, get_file_caps, get_vfs_caps_from_disk,
 * rootid_owns_currentns, bprm_caps_from_vfs_caps, handle_privileged_root).
 *
 * Preconditions of every world modelled here (the matrix guarantees them,
 * §B.6.8): the mount is attached in the caller's mount namespace and not
 * nosuid (mnt_may_suid's first two conditions hold; its third,
 * current_in_userns(s_user_ns), is modelled: it fails for every caller on
 * the userns maps, whose sb belongs to nsfs); no_new_privs is off; no ptrace and
 * an unshared fs_struct (bprm->unsafe is 0, so no downgrade); securebits
 * 0 (root is privileged); the caller's inheritable and ambient sets are
 * empty (the executor clears them). A file's security.capability holds
 * fP = CAP_NET_RAW, fI = 0 and VFS_CAP_FLAGS_EFFECTIVE (matrix/fixture.c). */
#include "model/rules.h"

#include <errno.h>
#include <sys/stat.h>

#define FILE_FP VT_CAPBIT(VT_CAP_NET_RAW)

/* cap_bset after setns()/unshare() into a user namespace is CAP_FULL_SET
 * (set_cred_user_ns); in the initial namespace it is inherited; then the
 * caller's PR_CAPBSET_DROPs (cap_prctl_drop) clear bits. */
static uint64_t cap_bset(const struct vt_world *w)
{
	return (vt_ns_is_init(w->cred.ns) ? w->bset_init : w->cap_full) & ~w->cred.bset_drop;
}

/* fs/exec.c would_dump(), called by begin_new_exec for bprm->file with the
 * caller's credentials (not yet the new ones): if inode_permission with
 * the idmap of the file's mount and MAY_READ fails, the exec sets
 * BINPRM_FLAGS_ENFORCE_NONDUMP, and bprm->mm->user_ns (mm_alloc: the
 * caller's current_user_ns()) walks towards the initial namespace until
 * one is privileged_wrt_inode_uidgid over the inode through the same
 * idmap. Returns whether the binary is unreadable; *MM_NS is the mm's
 * namespace afterwards. (The ELF interpreter's would_dump sees the host's
 * ld.so, readable by everyone outside the mount: no effect.) */
static bool would_dump(const struct vt_world *w, const struct vt_minode *i,
		       const struct vt_mns **mm_ns)
{
	struct vt_world quiet = *w;
	const struct vt_mns *ns = w->cred.ns;
	enum vt_rule rule = VT_R_NONE;
	bool readable;

	*mm_ns = ns;
	/* the read permission only decides would_dump's flag: its class
	 * rules are not the case's outcome, so they are not traced */
	quiet.trace = NULL;
	readable = vt_inode_permission(&quiet, i, VT_MAY_READ, &rule) == 0;
	if (vt_hit(w, VT_R_EXEC_DUMP_READABLE, readable) || !VT_REFUSES(VT_R_EXEC_DUMP_READABLE))
		return false;
	while (!vt_ns_is_init(ns)) {
		bool priv = vt_privileged_wrt_inode_uidgid(w, ns, i);

		if (ns == w->cred.ns)
			vt_hit(w, VT_R_EXEC_DUMP_USERNS, priv);
		if (priv)
			break;
		ns = ns->parent;
	}
	*mm_ns = ns;
	return true;
}

/* The dumpability exec leaves (fs/exec.c begin_new_exec): suid_dumpable
 * if would_dump marked the binary or the caller's euid/egid differ from
 * its uid/gid (never in the matrix: real = effective), else
 * SUID_DUMP_USER; then commit_creds (kernel/cred.c) sets suid_dumpable if
 * the euid, egid, fsuid or fsgid change or the new permitted set is not a
 * subset of the old one (cred_cap_issubset; same user namespace). The
 * caller's permitted set is its cap_effective (the matrix's callers hold
 * pE == pP). /proc/self/status is then owned (fs/proc/base.c
 * task_dump_owner) by the new euid if dumpable == SUID_DUMP_USER, else by
 * make_kuid(mm->user_ns, 0) (GLOBAL_ROOT_UID if invalid), shown to the
 * program in its namespace (from_kuid_munged). */
static void dumpability(const struct vt_world *w, bool nondump, const struct vt_mns *mm_ns,
			vt_kuid_t euid, vt_kgid_t egid, uint64_t pP, struct vt_exec_creds *c)
{
	vt_kuid_t owner;
	bool changed = euid.val != vt_cur_euid(w).val ||
		       egid.val != vt_make_kgid(w->cred.ns, w->cred.gid).val ||
		       euid.val != vt_cur_fsuid(w).val || egid.val != vt_cur_fsgid(w).val ||
		       (pP & ~w->cred.caps) != 0;
	int dumpable = nondump || changed ? w->suid_dumpable : 1;

	c->dump_user = dumpable == 1;
	if (c->dump_user) {
		owner = euid;
	} else {
		owner = vt_make_kuid(mm_ns, vt_cuid(0));
		if (!vt_kuid_valid(owner))
			owner = vt_kuid(0);
	}
	c->dump_owner = vt_from_kuid_munged(w->cred.ns, owner, w->overflowuid).val;
}

void vt_model_exec(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	const struct vt_minode *i = &w->obj;
	vt_kuid_t ruid = vt_cur_euid(w), euid = ruid;
	vt_kgid_t rgid = vt_make_kgid(w->cred.ns, w->cred.gid), egid = rgid;
	vt_kuid_t root_uid = vt_make_kuid(w->cred.ns, vt_cuid(0));
	uint64_t pP = 0, bset = cap_bset(w);
	bool effective = false, has_fcap = false;
	enum vt_rule rule = VT_R_NONE;
	int ret;

	(void)a;
	ret = vt_may_lookup(w, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	if (!vt_hit(w, VT_R_LOOKUP_NOENT, i->exists))
		VT_FAIL(e, ENOENT, VT_R_LOOKUP_NOENT);
	/* do_open_execat(): may_open(MAY_EXEC | MAY_OPEN) -> inode_permission */
	if (!vt_hit(w, VT_R_EXEC_NONREG, S_ISREG(i->mode)))
		VT_FAIL(e, EACCES, VT_R_EXEC_NONREG);
	ret = vt_inode_permission_at(w, i, VT_MAY_EXEC, VT_R_EXEC_PERM, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);

	/* bprm_fill_uid(): the file's ids in the mount's view; ignored unless
	 * both have a mapping in the new cred's user namespace; S_ISGID only
	 * together with S_IXGRP */
	if ((i->mode & (S_ISUID | S_ISGID)) &&
	    /* mnt_may_suid() (fs/namespace.c): current_in_userns(
	     * mnt->mnt_sb->s_user_ns), else bprm_fill_uid returns at once */
	    vt_hit(w, VT_R_EXEC_MNT_SUID, vt_current_in_sb_userns(w))) {
		vt_vfsuid_t vu = vt_i_uid_into_vfsuid(w, i);
		vt_vfsgid_t vg = vt_i_gid_into_vfsgid(w, i);

		if (vt_hit(w, VT_R_EXEC_SETID, vt_vfsuid_has_mapping(w->cred.ns, vu) &&
						   vt_vfsgid_has_mapping(w->cred.ns, vg))) {
			if (i->mode & S_ISUID)
				euid = vt_vfsuid_into_kuid(vu);
			if ((i->mode & S_ISGID) &&
			    vt_hit(w, VT_R_EXEC_SETGID_XGRP, i->mode & S_IXGRP))
				egid = vt_vfsgid_into_kgid(vg);
		}
	}

	/* get_file_caps(): cap_clear(pP); get_vfs_caps_from_disk(): rootid
	 * (v3) or 0 (v2) made a kuid in s_user_ns, then a vfsuid through the
	 * mount; -ENODATA (caps ignored) if it is invalid or does not own the
	 * caller's namespace or an ancestor (rootid_owns_currentns) */
	/* get_file_caps() returns 0 with pP cleared unless mnt_may_suid()
	 * (its second check, current_in_userns(s_user_ns), is the same
	 * condition) */
	if (i->fcaps.version && vt_hit(w, VT_R_EXEC_MNT_SUID, vt_current_in_sb_userns(w))) {
		vt_kuid_t kroot = i->fcaps.version == 3 ? i->fcaps.rootid : vt_kuid(0);
		vt_vfsuid_t vroot = vt_make_vfsuid(w->idmap, w->fs_ns, kroot);

		if (vt_hit(w, VT_R_EXEC_FCAPS, vt_rootid_owns_currentns(w, vroot))) {
			/* bprm_caps_from_vfs_caps(): pP' = (bset & fP) | (pI & fI);
			 * -EPERM if a file-permitted bit is lost */
			effective = true;
			has_fcap = true;
			pP = bset & FILE_FP;
			if (!vt_hit(w, VT_R_EXEC_FCAPS_BSET, !(FILE_FP & ~pP)))
				VT_FAIL(e, EPERM, VT_R_EXEC_FCAPS_BSET);
		}
	}

	/* handle_privileged_root(): a setuid-root binary that also has file
	 * capabilities run by a non-root caller gets only the file's caps
	 * (__is_suid: euid != uid && euid == root); otherwise euid or ruid
	 * root gives pP = bset | pI, and euid root the effective flag */
	if (euid.val == root_uid.val || ruid.val == root_uid.val) {
		if (vt_hit(w, VT_R_EXEC_PRIV_ROOT,
			   !(has_fcap && euid.val != ruid.val && euid.val == root_uid.val))) {
			pP = bset;	/* | pI, empty */
			if (euid.val == root_uid.val)
				effective = true;
		}
	}

	{
		const struct vt_mns *mm_ns;
		bool nondump = would_dump(w, i, &mm_ns);

		dumpability(w, nondump, mm_ns, euid, egid, pP, &e->creds);
	}
	/* cap_bprm_creds_from_file(): suid = fsuid = euid; pP |= ambient
	 * (empty); pE = effective ? pP : ambient */
	e->creds.ruid = vt_from_kuid(w->cred.ns, ruid).val;
	e->creds.euid = e->creds.suid = vt_from_kuid(w->cred.ns, euid).val;
	e->creds.rgid = vt_from_kgid(w->cred.ns, rgid).val;
	e->creds.egid = e->creds.sgid = vt_from_kgid(w->cred.ns, egid).val;
	e->creds.cap_prm = pP;
	e->creds.cap_eff = effective ? pP : 0;
	VT_SUCCEED(e, VT_R_EXEC_OK);
	e->result = *i;
	vt_model_seen(w, e);
}
