/* The matrix driver (see matrix.h): shared world, fixtures per block of
 * cases, their operations in one caller process, observe, compare with the
 * model, KTAP. Honours --list-cases, a case id
 * as argv[1] or VT_CASE, VT_SHARD="i/n" (1 <= i <= n: cases whose index
 * modulo n is i-1) and VT_SEED (run the selected cases in a shuffled,
 * seed-determined order; ids do not change). */
#include "fs/fs_table.h"
#include "matrix/axes.h"
#include "matrix/batch.h"
#include "matrix/case_model.h"
#include "matrix/compare.h"
#include "matrix/coverage.h"
#include "matrix/executor.h"
#include "matrix/fixture.h"
#include "matrix/matrix.h"
#include "matrix/mutation_score.h"
#include "matrix/sample_choice.h"
#include "matrix/sample_table.h"
#include "matrix/family_forms.h"
#include "matrix/optowner_fixture.h"
#include "matrix/world_setup.h"
#include "model/break.h"
#include "report/ktap.h"
#include "report/replay.h"
#include "testlib/expunge_list.h"
#include "util/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *suite_test = "matrix/???";

/* A case between its model and its verdict. SLOT < 0: the objects are
 * P and Q themselves (a case run alone, as ever); SLOT >= 0: the case's
 * own P<slot> and Q<slot> beside them, so that the cases of a block never
 * share an object. */
struct mx_cs {
	const struct vt_family *f;
	int idx, map, slot;
	const char *name;
	struct vt_mcase c;
	struct vt_world w;
	struct vt_expect e;
	struct vt_trace tr;
	struct vt_exec_req q;
	struct vt_caller who;
	char p[4300], qd[4300], pname[32], qname[32];
	const char *mroot;
	struct vt_run run;
	struct vt_exec_reply rep;
};

static void case_paths(struct mx_world *rw, struct mx_cs *s);

/* The model's side: the case, its verdict, where its objects live. */
static void case_model(struct mx_world *rw, const struct vt_family *f, int idx, int slot,
		       const char *name, struct mx_cs *s)
{
	int caller;

	s->f = f;
	s->idx = idx;
	vt_family_pair(f, idx / vt_family_local_count(f), &s->map, &caller);
	s->slot = slot;
	s->name = name;
	mx_model_case(rw, f, idx, &s->c, &s->w, &s->e, &s->tr);
	case_paths(rw, s);
}

/* P, Q and the mount's root: the case's option-owner world, or the shared disk */
static void case_paths(struct mx_world *rw, struct mx_cs *s)
{
	int slot = s->slot;

	/* the userns maps' objects are on the filesystem made in nsfs */
	const char *disk = vt_map_sb_userns(s->map) ? rw->us_disk : rw->disk;

	if (slot < 0) {
		snprintf(s->pname, sizeof(s->pname), "p");
		snprintf(s->qname, sizeof(s->qname), "q");
		if (s->c.optworld) {
			snprintf(s->p, sizeof(s->p), "%s", vt_optowner_p(s->c.optworld - 1));
			snprintf(s->qd, sizeof(s->qd), "%s", vt_optowner_q(s->c.optworld - 1));
		} else {
			snprintf(s->p, sizeof(s->p), "%s/p", disk);
			snprintf(s->qd, sizeof(s->qd), "%s/q", disk);
		}
	} else {
		snprintf(s->pname, sizeof(s->pname), "p%d", slot);
		snprintf(s->qname, sizeof(s->qname), "q%d", slot);
		snprintf(s->p, sizeof(s->p), "%s/%s", disk, s->pname);
		snprintf(s->qd, sizeof(s->qd), "%s/%s", disk, s->qname);
	}
	s->mroot = s->c.optworld ? vt_optowner_mnt(s->c.optworld - 1, s->map) : rw->mnt[s->map];
	if (s->c.ovl) {
		/* the overlay world: P is the upper layer's P (what the
		 * observation reads), the lower P (with P/o) takes Q's place
		 * (an overlay case has no Q), the caller goes through the
		 * overlay */
		snprintf(s->p, sizeof(s->p), "%s/upper/%s", rw->ovl_up, s->pname);
		snprintf(s->qd, sizeof(s->qd), "%s/%s", rw->ovl_lower, s->pname);
		s->mroot = rw->ovl_merged;
	}
}

static int write_fixtures(struct mx_cs *s, const char **what)
{
	const struct vt_mcase *c = &s->c;
	char path[4400];

	if (vt_fx_write(s->p, &c->dir, what) < 0)
		return -1;
	if (c->ovl) {
		/* the lower P, 0755 0:0, and P/o (and a rename's P/t) in it */
		struct vt_minode lp = vt_fx_inode(S_IFDIR | 0755, 0, 0);

		if (vt_fx_write(s->qd, &lp, what) < 0)
			return -1;
		snprintf(path, sizeof(path), "%s/t", s->qd);
		if (c->other.exists && vt_fx_write(path, &c->other, what) < 0)
			return -1;
		snprintf(path, sizeof(path), "%s/o", s->qd);
		return c->obj.exists ? vt_fx_write(path, &c->obj, what) : 0;
	}
	if (c->dir2.exists && vt_fx_write(s->qd, &c->dir2, what) < 0)
		return -1;
	if (c->obj.exists) {
		snprintf(path, sizeof(path), "%s/o", s->p);
		if (vt_fx_write(path, &c->obj, what) < 0)
			return -1;

	}
	if (c->other.exists) {
		snprintf(path, sizeof(path), "%s/t", c->op.cross_dir ? s->qd : s->p);
		if (vt_fx_write(path, &c->other, what) < 0)
			return -1;
	}
	return 0;
}

/* The objects on disk, as root: 0, or -1 with the step in *WHAT. Each
 * case's objects are removed after its verdict (run_block), so a slot's
 * P and Q are normally gone; what a case could not remove shows as
 * EEXIST here (every step creates exclusively: O_EXCL, mkdir, mknod,
 * symlink), and is removed then, once. */
static int case_fixtures(struct mx_cs *s, const char **what)
{
	if (s->c.optworld) {
		/* an option-owner world's P and Q are the same for every case,
		 * which runs alone: removed first, as ever */
		vt_fx_remove(s->p);
		vt_fx_remove(s->qd);
	}
	if (write_fixtures(s, what) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	vt_fx_remove(s->p);
	if (s->qd[0])
		vt_fx_remove(s->qd);
	return write_fixtures(s, what);
}

/* The caller axis of case S. */
static int case_caller(const struct mx_cs *s)
{
	int map, caller;

	vt_family_pair(s->f, s->idx / vt_family_local_count(s->f), &map, &caller);
	return caller;
}

/* The operation and the caller who runs it, through the mount. */
static void case_request(struct mx_world *rw, struct mx_cs *s)
{
	int g;
	const struct vt_caller_axis *ca = &vt_caller_axes[case_caller(s)];
	const struct vt_mcase *c = &s->c;
	struct vt_exec_req *q = &s->q;
	struct vt_caller *who = &s->who;

	memset(q, 0, sizeof(*q));
	q->op = c->op;
	snprintf(q->dir, sizeof(q->dir), "%s/%s", s->mroot, s->pname);
	snprintf(q->path, sizeof(q->path), "%s/%s", q->dir,
		 ((c->op.op <= VT_OP_SYMLINK || c->op.op == VT_OP_MKNOD_CHR) && !c->op.on_existing)
		 ? "n" : "o");
	if (c->op.cross_dir)
		snprintf(q->path2, sizeof(q->path2), "%s/%s/%s", s->mroot, s->qname,
			 c->op.to_other ? "t" : "n");
	else
		snprintf(q->path2, sizeof(q->path2), "%s/%s", q->dir, c->op.to_other ? "t" : "n");
	if (*mx_result_name(&c->op) && c->op.op != VT_OP_UNLINK && c->op.op != VT_OP_RMDIR) {
		if (c->op.cross_dir)
			snprintf(q->result, sizeof(q->result), "%s/%s/%s", s->mroot, s->qname,
				 c->op.to_other ? "t" : "n");
		else
			snprintf(q->result, sizeof(q->result), "%s/%s", q->dir,
				 mx_result_name(&c->op));
	}
	*who = vt_caller_user(ca->uid, ca->gid);
	who->userns_fd = rw->ns_fd[ca->ns];
	who->userns_desc = ca->ns == VT_NS_INIT ? NULL : ca->ns == VT_NS_CHILD ? "ns0 " VT_NS0_SPEC
			   : ca->ns == VT_NS_SPLIT ? "ns2 " VT_NS2_SPEC : "ns1 " VT_NS1_SPEC " in ns0";
	who->ngroups = ca->ngroups;
	for (g = 0; g < ca->ngroups; g++)
		who->groups[g] = ca->groups[g];
	who->caps = ca->caps;
	who->bset_drop = ca->bset_drop;
	if (ca->fsids) {
		who->fsuid = ca->fsuid;
		who->fsgid = ca->fsgid;
	}
	who->umask = c->umask;
	who->set_umask = true;
}

/* After the caller ran (S->run, S->rep): observe as root, compare, report. */
static bool case_verdict(struct mx_world *rw, struct mx_cs *s, struct vt_ktap *k,
			 struct vt_coverage *cov)
{
	int caller = case_caller(s), map = s->map;
	const struct vt_caller_axis *ca = &vt_caller_axes[caller];
	const struct vt_mcase *c = &s->c;
	const struct vt_expect *e = &s->e;
	struct mx_report r = { .off = 0 };
	static char replay[8192];
	char path[4400], whotext[512];
	struct vt_minode disk;
	struct stat st;
	bool obj_exists;

	vt_caller_describe(&s->who, whotext, sizeof(whotext));
	if (s->run.status != VT_RAN) {
		mx_say(&r, "  caller %s did not run: %s\n", whotext, s->run.msg);
		r.diffs++;
	} else {
		snprintf(path, sizeof(path), "%s/%s", c->op.cross_dir ? s->qd : s->p,
			 mx_result_name(&c->op));
		if (*mx_result_name(&c->op))
			vt_fx_read(path, &disk);
		else
			memset(&disk, 0, sizeof(disk));
		snprintf(path, sizeof(path), "%s/o", s->p);
		obj_exists = vt_fx_lstat(path, &st) == 0;
		mx_compare(&r, &s->w, c, e, s->run.ret, &s->rep, &disk, obj_exists, &st);
		/* the case ran: the rules it decided are covered (pass or fail) */
		vt_coverage_add(cov, &s->tr, e->err);
	}
	if (r.diffs) {
		char head[8192];
		struct mx_report h = { .off = 0 };

		mx_say(&h, "MISMATCH %s\n", s->name);
		mx_say(&h, "  fs %s, mount idmap %s (%s), caller %s (model caps %#llx)\n", rw->fstype,
		    vt_map_axes[map].name, vt_map_axes[map].spec ? vt_map_axes[map].spec : "plain mount",
		    whotext, (unsigned long long)ca->capmask);
		if (vt_map_sb_userns(map))
			mx_say(&h, "  filesystem: a %s made inside the user namespace nsfs (%s): its "
			    "s_user_ns\n", rw->fstype, VT_NSFS_SPEC);
		if (c->ovl)
			mx_say(&h, "  overlay world: lower and upper layers are mounts of %s idmapped "
			       "with %s (the upper: %s), the overlay mounted by the initial root (no "
			       "supplementary groups); P is the upper P (the lower P is 0755 0:0), a "
			       "P/o is a lower file; results are the upper layer's\n", rw->fstype,
			       vt_map_axes[map].name,
			       c->ovl_layers == VT_OVL_UPPER_PLAIN ? "plain"
			       : c->ovl_layers == VT_OVL_UPPER_OTHER ? VT_OVL_UPPER_OTHER_SPEC
								     : "the same");
		if (c->optworld)
			mx_say(&h, "  %s world %s: mounted -o %s\n", rw->fstype,
			    vt_optowner_worlds[c->optworld - 1].name,
			    vt_optowner_worlds[c->optworld - 1].options);
		mx_describe_inode(&h, "P", &c->dir);
		mx_describe_inode(&h, "P/o", &c->obj);
		if (c->dir2.exists)
			mx_describe_inode(&h, "Q", &c->dir2);
		mx_describe_inode(&h, c->op.cross_dir ? "Q/t" : "P/t", &c->other);
		mx_op_args_text(&h, &c->op);
		mx_say(&h, "  model: %s (%s)\n", vt_errname(e->err), e->rule ? e->rule : "");
		if (!e->err && e->result.exists)
			mx_describe_inode(&h, "expected result", &e->result);
		if (!s->run.ret && s->run.status == VT_RAN && disk.exists)
			mx_describe_inode(&h, "actual result", &disk);
		memcpy(head, h.buf, h.off + 1);
		vt_ktap_diag(k, "%s%s  reproduce: %s", head, r.buf,
			     vt_replay_line(replay, sizeof(replay), suite_test, s->name, rw->fstype));
	}
	vt_ktap_result(k, r.diffs ? VT_FAIL : VT_PASS, s->name, NULL);
	return r.diffs == 0;
}

static bool case_setup_failed(struct mx_world *rw, const char *name, const char *what, int err,
			      struct vt_ktap *k)
{
	static char replay[8192];

	vt_ktap_diag(k, "setup of %s failed: %s: %s", name, what, vt_errname(err));
	vt_ktap_diag(k, "  reproduce: %s",
		     vt_replay_line(replay, sizeof(replay), suite_test, name, rw->fstype));
	vt_ktap_result(k, VT_FAIL, name, NULL);
	return false;
}

/* One case alone, in a caller process of its own. */
static bool run_case(struct mx_world *rw, const struct vt_family *f, int idx, struct vt_ktap *k,
		     const char *name, struct vt_coverage *cov)
{
	static struct mx_cs s;
	const char *what = "";

	case_model(rw, f, idx, -1, name, &s);
	if (*mx_case_skip(rw, &s.c, s.map)) {
		vt_ktap_result(k, VT_SKIP, name, mx_case_skip(rw, &s.c, s.map));
		return true;
	}
	{
		const char *why = mx_apply_sysctls(rw, &s.c);

		if (why) {
			vt_ktap_result(k, VT_SKIP, name, why);
			return true;
		}
	}
	/* reset the object state on disk */
	if (case_fixtures(&s, &what) < 0)
		return case_setup_failed(rw, name, what, errno, k);
	/* the operation, as the caller, through the mount */
	case_request(rw, &s);
	if (s.c.ovl && (what = mx_ovl_mount(rw, s.map, s.c.ovl_layers)))
		return case_setup_failed(rw, name, what, 0, k);
	s.run = vt_run_as(&s.who, vt_exec_op, &s.q, &s.rep, sizeof(s.rep));
	mx_ovl_unmount(rw);	/* the observation reads the layers' disk */
	return case_verdict(rw, &s, k, cov);
}

/* The largest block of cases one caller process runs, and how long it
 * may take over one case before it counts as hung. */
#define MX_BLOCK 256
#define MX_CASE_TIMEOUT_S 60

/* Whether case S can share a caller process with the other cases of its
 * block (same_block): not when it needs the
 * fs.protected_* sysctls changed first (global state, set as root between
 * cases), not in option-owner worlds (their P and Q are the worlds' own). An
 * exec (matrix/010) may: it execs in a child of its own (executor.c
 * exec_op), and the one change it makes to the caller, clearing the
 * inheritable and ambient sets, is the same for every exec case and
 * matters only at execve (capabilities(7): both feed only the new
 * permitted set), so a later case sees the caller it would have seen
 * alone. */
static bool case_batchable(const struct mx_world *rw, const struct mx_cs *s)
{
	const int *want = s->c.sysctl_set ? s->c.sysctl : rw->sysctl_orig;
	int k;

	if (s->c.optworld)
		return false;
	for (k = 0; k < VT_SYSCTL__COUNT; k++)
		if (want[k] != rw->sysctl_cur[k])
			return false;
	return true;
}

/* Whether two cases can share a caller process, as a key: the one caller
 * process runs them both, so the caller must be the same (the credentials
 * are all it holds: the operation, its paths and its umask come with each
 * request, and a case leaves the caller as it found it: executor.c). The
 * family and the mount idmap may differ: each case has its own P<slot>
 * and Q<slot>, and its paths name its mount. An overlay case goes through
 * the block's one overlay, mounted for one mount idmap and layer set, so
 * for overlay cases the map and the layer set are part of the key. One
 * key serves run_block (same_block) and the sample's order
 * (group_by_caller), so the two cannot drift apart. */
struct block_key {
	int ovl;	/* 0, or 1 + the overlay's layer set */
	int map;	/* the mount idmap of an overlay case, else -1 */
	int caller;
};

static struct block_key block_key_of(const struct vt_family *f, int idx, const struct vt_mcase *c)
{
	struct block_key key;
	int map;

	vt_family_pair(f, idx / vt_family_local_count(f), &map, &key.caller);
	key.ovl = c->ovl ? 1 + c->ovl_layers : 0;
	key.map = c->ovl ? map : -1;
	return key;
}

/* Overlay groups after the others, each overlay's together, then by caller. */
static int block_key_cmp(const struct block_key *a, const struct block_key *b)
{
	if (a->ovl != b->ovl)
		return a->ovl < b->ovl ? -1 : 1;
	if (a->map != b->map)
		return a->map < b->map ? -1 : 1;
	return (a->caller > b->caller) - (a->caller < b->caller);
}

/* Whether case S can join the block that case S0 begins (block_key_of). */
static bool same_block(const struct mx_cs *s0, const struct mx_cs *s)
{
	struct block_key a = block_key_of(s0->f, s0->idx, &s0->c);
	struct block_key b = block_key_of(s->f, s->idx, &s->c);

	return block_key_cmp(&a, &b) == 0;
}

/* The per-case state of a block (MX_BLOCK cases, megabytes: paths of
 * PATH_MAX), in memory a fork does not share (MADV_DONTFORK): the caller
 * process of each block reads its requests from a packed copy (batch.c),
 * and a fork that shared this memory would make every page the driver
 * writes next a copy-on-write fault (with a TLB shootdown while the
 * caller runs): eight pages or so a case. Without the advice only that
 * cost comes back. NULL when out of memory. */
static struct mx_cs *block_state(void)
{
	size_t len = MX_BLOCK * sizeof(struct mx_cs);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, len, MADV_DONTFORK);
	return p;
}

/* Runs the block that starts at SEL[0] (at most N cases): the consecutive
 * cases that can share a caller process (same_block, case_batchable).
 * Their fixtures are written in one pass, each case on its own
 * P<slot>/Q<slot>; their operations run in one caller process; each is
 * then observed and reported in order, as run_case() would. A case whose
 * caller crashed or hung is reported so; the block's later cases then run
 * one by one. Returns how many cases of SEL it reported (>= 1). */
static int run_block(struct mx_world *rw, const struct mx_space *sp, const int *sel, int n,
		     struct vt_expunges *x, struct vt_ktap *k, struct vt_coverage *cov, int *fails)
{
	enum { B_SKIP, B_SETUP_FAILED, B_READY };
	static struct mx_cs *cs;
	static char names[MX_BLOCK][512];
	static struct mx_batch_item items[MX_BLOCK];
	static int state[MX_BLOCK], item_of[MX_BLOCK], errs[MX_BLOCK];
	static const char *whats[MX_BLOCK];
	const struct vt_family *f0 = NULL;
	int m, t, idx, nitems = 0, got = 0, first = -1;
	struct vt_run fail;
	bool every = false;

	if (!cs && !(cs = block_state())) {
		const struct vt_family *f = mx_space_case(sp, sel[0], &idx);

		mx_case_name(f, idx, names[0], sizeof(names[0]));
		if (!run_case(rw, f, idx, k, names[0], cov))
			(*fails)++;
		return 1;
	}
	for (m = 0; m < n && m < MX_BLOCK; m++) {
		const struct vt_family *f = mx_space_case(sp, sel[m], &idx);

		if (m == 0)
			f0 = f;
		mx_case_name(f, idx, names[m], sizeof(names[m]));
		if (m && vt_expunged(x, f->test_id, names[m]))
			break;	/* matrix_run() reports it */
		case_model(rw, f, idx, m, names[m], &cs[m]);
		if (m && !same_block(&cs[0], &cs[m]))
			break;
		if (*mx_case_skip(rw, &cs[m].c, cs[m].map)) {
			state[m] = B_SKIP;
			continue;
		}
		if (!case_batchable(rw, &cs[m]))
			break;
		state[m] = B_READY;
	}
	if (m == 0) {
		/* a case that needs a caller process (or sysctls) of its own */
		if (!run_case(rw, f0, idx, k, names[0], cov))
			(*fails)++;
		return 1;
	}
	/* the fixtures of the whole block, as root, before any caller runs */
	for (t = 0; t < m; t++) {
		if (state[t] != B_READY)
			continue;
		whats[t] = "";
		if (case_fixtures(&cs[t], &whats[t]) < 0) {
			errs[t] = errno;
			state[t] = B_SETUP_FAILED;
			continue;
		}
		case_request(rw, &cs[t]);
		if (first < 0)
			first = t;
		item_of[t] = nitems;
		items[nitems].q = &cs[t].q;
		items[nitems].umask = cs[t].c.umask;
		items[nitems].rep = &cs[t].rep;
		nitems++;
	}
	/* an erofs lower layer: the key of the tree staged, so that a block
	 * staging the same tree mounts the image made for it before */
	if (nitems && cs[first].c.ovl && (cs[first].c.ovl_layers & VT_OVL_LOWER_EROFS)) {
		mx_erofs_key_reset(&rw->ovl_erofs);
		for (t = 0; t < m; t++) {
			if (state[t] == B_SETUP_FAILED)
				mx_erofs_key_drop(&rw->ovl_erofs);	/* staged in part */
			else if (state[t] == B_READY)
				mx_erofs_key_add(&rw->ovl_erofs, cs[t].slot, &cs[t].c.obj,
						 &cs[t].c.other);
		}
	}
	/* the overlay world: one overlay for the block, on its fixtures */
	if (nitems && cs[first].c.ovl) {
		const char *why = mx_ovl_mount(rw, cs[first].map, cs[first].c.ovl_layers);

		if (why) {
			for (t = 0; t < m; t++)
				if (state[t] == B_READY) {
					state[t] = B_SETUP_FAILED;
					whats[t] = why;
					errs[t] = 0;
				}
			nitems = 0;
		}
	}
	/* every operation of the block in one caller process, which works
	 * from the block's mount root when every case goes through it */
	if (nitems) {
		const char *root = cs[first].mroot;

		for (t = first; t < m && root; t++)
			if (state[t] == B_READY && strcmp(cs[t].mroot, root) != 0)
				root = NULL;
		got = mx_run_batch(&cs[first].who, root, items, nitems, MX_CASE_TIMEOUT_S, &fail,
				   &every);
	}
	mx_ovl_unmount(rw);	/* the observation reads the layers' disk */
	for (t = 0; t < m; t++) {
		struct mx_cs *s = &cs[t];
		bool ok = true;

		if (state[t] == B_SKIP) {
			vt_ktap_result(k, VT_SKIP, names[t], mx_case_skip(rw, &s->c, s->map));
			continue;
		}
		if (state[t] == B_SETUP_FAILED) {
			ok = case_setup_failed(rw, names[t], whats[t], errs[t], k);
		} else if (item_of[t] < got) {
			memset(&s->run, 0, sizeof(s->run));
			s->run.status = VT_RAN;
			s->run.ret = items[item_of[t]].ret;
			ok = case_verdict(rw, s, k, cov);
		} else if (item_of[t] == got || every) {
			/* the case the caller was running when it died or hung */
			s->run = fail;
			ok = case_verdict(rw, s, k, cov);
		} else {
			/* after a crash or hang: alone, as without blocks */
			vt_fx_remove(s->p);
			vt_fx_remove(s->qd);
			ok = run_case(rw, s->f, s->idx, k, names[t], cov);
		}
		if (!ok)
			(*fails)++;
		vt_fx_remove(s->p);
		vt_fx_remove(s->qd);
	}
	fflush(k->out);
	return m;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The operations of N requests as WHO, in one child: returns the seconds
 * spent inside the operations alone (no fork, no credential switch), or
 * a negative value if the child failed. */
static double floor_ops(const struct vt_caller *who, struct mx_cs **ss, int n)
{
	struct vt_caller c = *who;
	double spent = -1;
	int pfd[2], status, k;
	pid_t pid;

	c.set_umask = false;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char msg[256];
		double sum = 0, t0;

		close(pfd[0]);
		if (vt_caller_become(&c, msg, sizeof(msg)) < 0)
			_exit(1);
		for (k = 0; k < n; k++) {
			umask(ss[k]->c.umask);
			t0 = now_s();
			vt_exec_op(&ss[k]->q, &ss[k]->rep, sizeof(ss[k]->rep));
			sum += now_s() - t0;
		}
		_exit(write(pfd[1], &sum, sizeof(sum)) == (ssize_t)sizeof(sum) ? 0 : 1);
	}
	close(pfd[1]);
	if (read(pfd[0], &spent, sizeof(spent)) != (ssize_t)sizeof(spent))
		spent = -1;
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return spent;
}

/* --floor (bench/matrix): what the program's cases must do and nothing
 * else, timed: each case's fixture system calls as root (writing P, P/o,
 * Q, P/t and removing them again), its operation as its caller through
 * its mount, and its observation (the result read back, P/o looked up).
 * Not timed: the model, the comparison, KTAP, and the processes and
 * credential switches (one caller process per block, as the matrix). A
 * skipped case must do nothing and costs nothing. Prints one line. */
static int matrix_floor(const struct mx_space *sp, const char *base_name)
{
	struct mx_cs *cs = calloc(MX_BLOCK, sizeof(*cs)), *ready[MX_BLOCK];
	double fix = 0, ops = 0, obs = 0, t0, spent;
	struct mx_world w;
	const char *why, *what;
	int i = 0, m, t, n, idx, caller;

	memset(&w, 0, sizeof(w));
	if (!cs)
		return 2;
	why = mx_world_setup(&w, base_name);
	if (why || w.optowner) {
		mx_world_teardown(&w);
		printf("floor: not measured here: %s\n", why ? why : "option-owner worlds");
		return 4;
	}
	while (i < sp->total) {
		int pair0 = -1;

		for (m = 0, n = 0; m < MX_BLOCK && i + m < sp->total; m++) {
			const struct vt_family *f = mx_space_case(sp, i + m, &idx);
			struct mx_cs *s = &cs[m];

			if (m && idx / vt_family_local_count(f) != pair0)
				break;
			pair0 = idx / vt_family_local_count(f);
			memset(&s->c, 0, sizeof(s->c));
			vt_family_make(f, idx % vt_family_local_count(f), &s->c);	/* the case, not the model */
			s->f = f;
			s->idx = idx;
			vt_family_pair(f, pair0, &s->map, &caller);
			s->slot = m;
			case_paths(&w, s);
			/* the overlay world is not timed here (its mounts per block) */
			if (!*mx_case_skip(&w, &s->c, s->map) && !s->c.ovl)
				ready[n++] = s;
		}
		i += m;
		t0 = now_s();
		for (t = 0; t < n; t++)
			if (case_fixtures(ready[t], &what) < 0) {
				printf("floor: fixture failed: %s: %s\n", what, vt_errname(errno));
				mx_world_teardown(&w);
				return 1;
			}
		fix += now_s() - t0;
		for (t = 0; t < n; t++)
			case_request(&w, ready[t]);
		if (n && (spent = floor_ops(&ready[0]->who, ready, n)) < 0) {
			printf("floor: the caller process failed\n");
			mx_world_teardown(&w);
			return 1;
		}
		ops += n ? spent : 0;
		t0 = now_s();
		for (t = 0; t < n; t++) {
			struct mx_cs *s = ready[t];
			struct vt_minode disk;
			struct stat st;
			char path[4400];

			if (*mx_result_name(&s->c.op)) {
				snprintf(path, sizeof(path), "%s/%s", s->c.op.cross_dir ? s->qd : s->p,
					 mx_result_name(&s->c.op));
				vt_fx_read(path, &disk);
			}
			snprintf(path, sizeof(path), "%s/o", s->p);
			lstat(path, &st);
		}
		obs += now_s() - t0;
		t0 = now_s();
		for (t = 0; t < n; t++) {
			vt_fx_remove(ready[t]->p);
			vt_fx_remove(ready[t]->qd);
		}
		fix += now_s() - t0;
	}
	mx_world_teardown(&w);
	free(cs);
	printf("floor %d cases: fixtures %.3f s, operations %.3f s, observation %.3f s, "
	       "total %.3f s\n", sp->total, fix, ops, obs, fix + ops + obs);
	return fflush(stdout) == 0 ? 0 : 2;
}

/* The sample's order of running. Its few hundred cases are spread over
 * nearly as many (family, mount idmap, caller) pairs, so in id order
 * nearly every block (run_block) would hold one case and start a caller
 * process for it. Ordered by the key of same_block instead, a block holds
 * every case of one caller (of one overlay), and a few dozen caller
 * processes run the sample. Within a group the id order stays; the
 * results are reported in this order. False when out of memory. */
struct sample_pos {
	struct block_key key;
	int pos, id;
};

static int sample_pos_cmp(const void *a, const void *b)
{
	const struct sample_pos *x = a, *y = b;
	int c = block_key_cmp(&x->key, &y->key);

	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static bool group_by_caller(const struct mx_space *sp, int *sel, int nsel)
{
	struct sample_pos *v = calloc((size_t)nsel + 1, sizeof(*v));
	int i;

	if (!v)
		return false;
	for (i = 0; i < nsel; i++) {
		int idx;
		const struct vt_family *f = mx_space_case(sp, sel[i], &idx);
		struct vt_mcase c;

		memset(&c, 0, sizeof(c));
		vt_family_make(f, idx % vt_family_local_count(f), &c);
		v[i].key = block_key_of(f, idx, &c);
		v[i].pos = i;
		v[i].id = sel[i];
	}
	qsort(v, (size_t)nsel, sizeof(*v), sample_pos_cmp);
	for (i = 0; i < nsel; i++)
		sel[i] = v[i].id;
	free(v);
	return true;
}

static const char *strip_prefix(const char *id)
{
	/* accept "matrix/NNN/<id>" as well as "<id>" */
	size_t n = strlen(suite_test);

	if (strncmp(id, suite_test, n) == 0 && id[n] == '/')
		return id + n + 1;
	return id;
}

/* exec-probe lives next to the test program (fixture.h) */
static void set_probe_path(const char *argv0)
{
	static char probe[4200];
	char d[4096];

	snprintf(d, sizeof(d), "%s", argv0);
	snprintf(probe, sizeof(probe), "%s/exec-probe", dirname(d));
	vt_fx_probe_path = probe;
}

static int matrix_run(const struct mx_space *sp, bool sample, const char *base_name, int argc,
		      char **argv)
{
	static char nm[512], self[4096], note[600];
	const char *only = argc > 1 ? argv[1] : getenv("VT_CASE");
	const char *shard = getenv("VT_SHARD"), *seed = getenv("VT_SEED"), *why;
	const char *covpath = getenv("VT_RULE_COVERAGE"), *sample_how = NULL;
	int *sel, nsel = 0, i, fails = 0, si = 1, sn = 1;
	struct vt_coverage cov;
	struct vt_world_facts facts;
	struct vt_expunges x;
	struct vt_ktap k;
	struct mx_world w;

	snprintf(self, sizeof(self), "%s", argv[0]);
	set_probe_path(argv[0]);
	{
		static char st[600];
		char *b = basename(self);

		snprintf(st, sizeof(st), "matrix/%s", b);
		suite_test = st;
	}
	if (argc > 1 && strcmp(argv[1], "--list-cases") == 0) {
		for (i = 0; i < sp->total; i++) {
			int idx;
			const struct vt_family *f = mx_space_case(sp, i, &idx);

			mx_case_name(f, idx, nm, sizeof(nm));
			puts(nm);
		}
		return 0;
	}
	if (shard && *shard && (sscanf(shard, "%d/%d", &si, &sn) != 2 || sn < 1 || si < 1 || si > sn)) {
		fprintf(stderr, "VT_SHARD must be i/n with 1 <= i <= n\n");
		return 2;
	}
	sel = calloc((size_t)sp->total, sizeof(*sel));
	if (!sel)
		return 2;
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	vt_ktap_init(&k, stdout, 0);
	k.lazy = true;	/* flushed a block at a time (run_block) */
	memset(&w, 0, sizeof(w));
	memset(&cov, 0, sizeof(cov));
	if (vt_expunges_load(&x, note, sizeof(note)) < 0) {
		/* bad input: before anything is built */
		vt_ktap_header(&k, 0);
		vt_ktap_diag(&k, "%s", note);
		return 2;
	}
	note[0] = 0;
	{
		int nbreak;
		const char *brk = vt_mut_env(&nbreak);

		/* bad input: before anything is built */
		if (brk && nbreak < 0) {
			vt_ktap_header(&k, 0);
			vt_ktap_diag(&k, "VT_MODEL_BREAK=%s names no model mutant (runner/vfsidmap-tool "
				     "mutants lists them)", brk);
			fflush(stdout);
			return 2;
		}
	}
	why = mx_world_setup(&w, base_name);
	if (why) {
		mx_world_teardown(&w);
		vt_ktap_header(&k, -1);
		vt_ktap_skip_all(&k, why);
		return 4;
	}
	mx_world_facts(&w, &facts);
	if (sample && !(only && *only)) {
		int n = mx_sample_for_world(&w, sp, &x, sel, note, sizeof(note), &sample_how);

		if (n < 0) {
			mx_world_teardown(&w);
			vt_ktap_header(&k, 0);
			vt_ktap_diag(&k, "%s", note[0] ? note : "sample: out of memory");
			return 2;
		}
		/* the shard applies to the sample */
		for (i = 0; i < n; i++)
			if (i % sn == si - 1)
				sel[nsel++] = sel[i];
		if (!(seed && *seed) && !group_by_caller(sp, sel, nsel)) {
			mx_world_teardown(&w);
			vt_ktap_header(&k, 0);
			vt_ktap_diag(&k, "sample: out of memory");
			return 2;
		}
	} else {
		for (i = 0; i < sp->total; i++) {
			if (i % sn != si - 1)
				continue;
			if (only && *only) {
				int idx;
				const struct vt_family *f = mx_space_case(sp, i, &idx);

				mx_case_name(f, idx, nm, sizeof(nm));
				if (strcmp(nm, strip_prefix(only)) != 0)
					continue;
			}
			sel[nsel++] = i;
		}
	}
	if (seed && *seed) {
		unsigned long long s = strtoull(seed, NULL, 0) * 6364136223846793005ULL + 1;

		for (i = nsel - 1; i > 0; i--) {
			int j, t;

			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			j = (int)((s >> 33) % (unsigned long long)(i + 1));
			t = sel[i];
			sel[i] = sel[j];
			sel[j] = t;
		}
	}
	if (only && *only && nsel == 0) {
		mx_world_teardown(&w);
		vt_ktap_header(&k, 0);
		vt_ktap_diag(&k, "no case named %s in %s", only, suite_test);
		return 1;
	}
	vt_ktap_header(&k, nsel);
	vt_ktap_diag(&k, "%s on %s: %d of %d cases (posixacl=%d fs.protected_symlinks/hardlinks/"
		     "fifos/regular=%d/%d/%d/%d%s%s)",
		     suite_test, w.fstype, nsel, sp->total, w.posixacl,
		     w.sysctl_orig[0], w.sysctl_orig[1], w.sysctl_orig[2], w.sysctl_orig[3],
		     getenv("VT_MODEL_BREAK") ? " VT_MODEL_BREAK=" : "",
		     getenv("VT_MODEL_BREAK") ? getenv("VT_MODEL_BREAK") : "");
	if (note[0])
		vt_ktap_diag(&k, "%s", note);
	if (sample_how)
		vt_ktap_diag(&k, "sample %s", sample_how);
	for (i = 0; i < nsel;) {
		int idx;
		const struct vt_family *f = mx_space_case(sp, sel[i], &idx);
		const char *why_skip;

		mx_case_name(f, idx, nm, sizeof(nm));
		why_skip = vt_expunged(&x, f->test_id, nm);
		if (why_skip) {
			char msg[1100];

			snprintf(msg, sizeof(msg), "expunged: %s", why_skip);
			vt_ktap_result(&k, VT_SKIP, nm, msg);
			i++;
			continue;
		}
		/* --case: the one case alone, exactly as it ever ran */
		if (nsel == 1) {
			if (!run_case(&w, f, idx, &k, nm, &cov))
				fails++;
			i++;
			continue;
		}
		i += run_block(&w, sp, sel + i, nsel - i, &x, &k, &cov, &fails);
	}
	mx_world_teardown(&w);
	vt_ktap_diag(&k, "%d of %d cases mismatched", fails, nsel);
	{
		char sum[2600];

		vt_coverage_summary(&cov, &facts, sum, sizeof(sum));
		vt_ktap_diag(&k, "rule coverage: %s", sum);
	}
	if (covpath && *covpath && vt_coverage_write(&cov, &facts, covpath) < 0)
		vt_ktap_diag(&k, "cannot write the rule coverage to %s: %s", covpath, vt_errname(errno));
	free(sel);
	fflush(stdout);
	return fails ? 1 : 0;
}

/* --list-mutants, --match-mutants SPEC (break.h): what the model this
 * program links can break; -1 if ARGV asks neither. */
static int mutant_option(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--list-mutants") == 0)
		return vt_mp_print_list(stdout) == 0 ? 0 : 2;
	if (argc == 3 && strcmp(argv[1], "--match-mutants") == 0)
		return vt_mut_print_matches(argv[2], stdout) == 0 ? 0 : 2;
	return -1;
}

/* A family option-owner worlds cannot hold: nothing to list, the whole test notrun. */
static int matrix_not_here(const char *why, int argc, char **argv)
{
	struct vt_ktap k;

	if (argc > 1 && strcmp(argv[1], "--list-cases") == 0)
		return 0;
	vt_ktap_init(&k, stdout, 0);
	vt_ktap_header(&k, -1);
	vt_ktap_skip_all(&k, why);
	fflush(stdout);
	return 4;
}

int vt_matrix_main(const struct vt_family *f, int argc, char **argv)
{
	const char *why = NULL;
	const struct vt_fs_row *row = vt_fs_row(getenv("FSTYP"));
	const struct vt_family *const one[1] = {
		/* the family's form for where this filesystem's owners come from */
		f = row && row->owner == VT_OWNER_MOUNT_OPTIONS ? mx_family_form(f, row->owner, &why) : f
	};
	struct mx_space sp;
	int r = mutant_option(argc, argv);

	if (r >= 0)
		return r;
	if (!f)
		return matrix_not_here(why ? why : "this family has no form for owners from mount "
				       "options (lib/matrix/optowner_families.c)", argc, argv);
	sp = (struct mx_space){ one, 1, vt_family_ncases(f), { 0 } };
	if (argc == 2 && strcmp(argv[1], "--floor") == 0) {
		set_probe_path(argv[0]);
		return matrix_floor(&sp, f->name);
	}
	return matrix_run(&sp, false, f->name, argc, argv);
}

int vt_matrix_sample_main(const struct vt_family *const *fams, int nfam, int argc, char **argv)
{
	const struct vt_family *fat[16];
	struct mx_space sp = { fams, nfam, 0, { 0 } };
	const char *why;
	int i, n = 0;

	/* --mutation-score [--fs FSTYPE] [--tsv PATH] [SELECTION]: the scorer;
	 * --list-sample [--fs FSTYPE]: the sample's cases in the assumed world */
	bool score = argc > 1 && strcmp(argv[1], "--mutation-score") == 0;
	bool list_sample = argc > 1 && strcmp(argv[1], "--list-sample") == 0;
	const char *fstype = "tmpfs", *select = NULL, *tsv = NULL;

	if (nfam < 1 || nfam > 16)
		return 2;
	/* --family-forms: each family's form per owner source of the table
	 * (unit/test-matrix-forms, unit/test-matrix-family-forms.sh); 1 if one is missing */
	if (argc == 2 && strcmp(argv[1], "--family-forms") == 0) {
		n = mx_family_forms(fams, nfam, stdout);
		return fflush(stdout) == 0 && n == 0 ? 0 : 1;
	}
	if ((i = mutant_option(argc, argv)) >= 0)
		return i;
	/* --check-sample-env: do VT_SAMPLE_WITHOUT and _MUTANT name a rule
	 * and a mutant? (./check asks before a run: bad input) */
	if (argc == 2 && strcmp(argv[1], "--check-sample-env") == 0)
		return mx_sample_env_main();
	if (argc > 1 && (strcmp(argv[1], "--sample-table") == 0 ||
			 strcmp(argv[1], "--check-sample-table") == 0 ||
			 strcmp(argv[1], "--sample-source") == 0))
		unsetenv("FSTYP");	/* the space below: the owners-in-inode one */
	if (list_sample && !(argc == 2 || (argc == 4 && strcmp(argv[2], "--fs") == 0))) {
		fprintf(stderr, "vfsidmap: usage: --list-sample [--fs FSTYPE]\n");
		return 2;
	}
	if (list_sample) {
		fstype = argc == 4 ? argv[3] : getenv("FSTYP") ? getenv("FSTYP") : "tmpfs";
		score = true;	/* the same checks of --fs */
	}
	for (i = 2; score && !list_sample && i < argc; i++) {
		if ((strcmp(argv[i], "--fs") == 0 || strcmp(argv[i], "--tsv") == 0) && i + 1 < argc) {
			*(argv[i][2] == 'f' ? &fstype : &tsv) = argv[i + 1];
			i++;
		} else if (argv[i][0] != '-' && !select) {
			select = argv[i];
		} else {
			fprintf(stderr, "vfsidmap: mutation-score: unexpected argument '%s' (usage: "
				"mutation-score [--fs FSTYPE] [--tsv PATH] [quick|all|matrix/NNN|family])\n",
				argv[i]);
			return 2;
		}
	}
	if (score) {
		/* an assumed world (mx_assumed_world): a table filesystem whose
		 * owners are in the inode, with what its row lacks, or one whose
		 * owners come from mount options (vt_optowner_fs) */
		const struct vt_fs_row *row = vt_fs_row(fstype);

		if (!row || (row->owner != VT_OWNER_INODE && !vt_optowner_fs(fstype))) {
			fprintf(stderr, "vfsidmap: %s: --fs: '%s' is not a filesystem of the table "
				"with owners in the inode or from mount options (lib/fs/fs_table.c)\n",
				list_sample ? "sample" : "mutation-score", fstype);
			return 2;
		}
		setenv("FSTYP", fstype, 1);
	}
	if (vt_optowner_fs(getenv("FSTYP"))) {
		/* the option-owner forms; a family they cannot hold leaves the sample */
		vt_optowner_use(vt_optowner_fs(getenv("FSTYP")));
		n = 0;
		for (i = 0; i < nfam; i++)
			if ((fat[n] = vt_optowner_family(fams[i], &why)))
				n++;
		sp.fams = fat;
		sp.nfam = nfam = n;
	}
	for (i = 0; i < nfam; i++) {
		sp.base[i] = sp.total;
		sp.total += vt_family_ncases(sp.fams[i]);
	}
	if (argc > 1 && strcmp(argv[1], "--sample-table") == 0)
		return mx_sample_table_main(&sp, argc - 2, argv + 2);
	if (argc > 1 && strcmp(argv[1], "--check-sample-table") == 0)
		return mx_sample_table_check_main(&sp, argc - 2, argv + 2);
	if (argc > 1 && strcmp(argv[1], "--sample-source") == 0)
		return mx_sample_source_main(&sp, argc - 2, argv + 2);
	if (list_sample)
		return mx_list_sample(&sp, fstype);
	if (score)
		return mx_matrix_score(&sp, fstype, select, tsv);
	return matrix_run(&sp, true, "sample", argc, argv);
}
