/* The matrix driver (see matrix.h): shared world, per-case reset, run,
 * observe, compare with the model, KTAP. Honours --list-cases, a case id
 * as argv[1] or VT_CASE, VT_SHARD="i/n" (1 <= i <= n: cases whose index
 * modulo n is i-1) and VT_SEED (run the selected cases in a shuffled,
 * seed-determined order; ids do not change). */
#include "matrix/axes.h"
#include "matrix/case_model.h"
#include "matrix/compare.h"
#include "matrix/coverage.h"
#include "matrix/executor.h"
#include "matrix/fixture.h"
#include "matrix/matrix.h"
#include "matrix/mutation_score.h"
#include "matrix/sample_choice.h"
#include "matrix/sample_table.h"
#include "matrix/vfat_fixture.h"
#include "matrix/world_setup.h"
#include "model/break.h"
#include "report/ktap.h"
#include "report/replay.h"
#include "testlib/expunge_list.h"
#include "util/errname.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *suite_test = "matrix/???";

static bool run_case(struct mx_world *rw, const struct vt_family *f, int idx, struct vt_ktap *k,
		     const char *name, struct vt_coverage *cov)
{
	int local = idx % f->local_count, pair = idx / f->local_count;
	int map = pair / vt_caller_axis_count, caller = pair % vt_caller_axis_count;
	const struct vt_caller_axis *ca = &vt_caller_axes[caller];
	struct vt_mcase c;
	struct vt_world w;
	struct vt_expect e;
	struct vt_exec_req q;
	struct vt_exec_reply rep;
	struct vt_caller who = vt_caller_user(ca->uid, ca->gid);
	struct vt_minode disk;
	struct mx_report r = { .off = 0 };
	static char replay[8192];
	const char *what = "", *p, *qd, *mroot;
	char path[4300], whotext[512];
	struct vt_run run;
	struct vt_trace tr;
	struct stat st;
	bool obj_exists;
	int g;

	(void)local;
	mx_model_case(rw, f, idx, &c, &w, &e, &tr);
	/* P, Q and the mount's root: the case's vfat world, or the shared disk */
	p = c.vfat ? vt_vfat_p(c.vfat - 1) : rw->p;
	qd = c.vfat ? vt_vfat_q(c.vfat - 1) : rw->q;
	mroot = c.vfat ? vt_vfat_mnt(c.vfat - 1, map) : rw->mnt[map];
	if (*mx_case_skip(rw, &c)) {
		vt_ktap_result(k, VT_SKIP, name, mx_case_skip(rw, &c));
		return true;
	}
	{
		const char *why = mx_apply_sysctls(rw, &c);

		if (why) {
			vt_ktap_result(k, VT_SKIP, name, why);
			return true;
		}
	}

	/* reset the object state on disk */
	vt_fx_remove(p);
	if (qd[0])
		vt_fx_remove(qd);
	if (vt_fx_write(p, &c.dir, &what) < 0)
		goto setup_failed;
	if (c.dir2.exists && vt_fx_write(qd, &c.dir2, &what) < 0)
		goto setup_failed;
	if (c.obj.exists) {
		snprintf(path, sizeof(path), "%s/o", p);
		if (vt_fx_write(path, &c.obj, &what) < 0)
			goto setup_failed;

	}
	if (c.other.exists) {
		snprintf(path, sizeof(path), "%s/t", c.op.cross_dir ? qd : p);
		if (vt_fx_write(path, &c.other, &what) < 0)
			goto setup_failed;
	}

	/* the operation, as the caller, through the mount */
	memset(&q, 0, sizeof(q));
	q.op = c.op;
	snprintf(q.dir, sizeof(q.dir), "%s/p", mroot);
	snprintf(q.path, sizeof(q.path), "%s/%s", q.dir,
		 ((c.op.op <= VT_OP_SYMLINK || c.op.op == VT_OP_MKNOD_CHR) && !c.op.on_existing)
		 ? "n" : "o");
	if (c.op.cross_dir)
		snprintf(q.path2, sizeof(q.path2), "%s/q/%s", mroot, c.op.to_other ? "t" : "n");
	else
		snprintf(q.path2, sizeof(q.path2), "%s/%s", q.dir, c.op.to_other ? "t" : "n");
	if (*mx_result_name(&c.op) && c.op.op != VT_OP_UNLINK && c.op.op != VT_OP_RMDIR)
		snprintf(q.result, sizeof(q.result), "%s/%s",
			 c.op.cross_dir ? mroot : q.dir,
			 c.op.cross_dir ? (c.op.to_other ? "q/t" : "q/n") : mx_result_name(&c.op));
	who.userns_fd = rw->ns_fd[ca->ns];
	who.userns_desc = ca->ns == VT_NS_INIT ? NULL : ca->ns == VT_NS_CHILD ? "ns0 " VT_NS0_SPEC
										 : "ns1 " VT_NS1_SPEC " in ns0";
	who.ngroups = ca->ngroups;
	for (g = 0; g < ca->ngroups; g++)
		who.groups[g] = ca->groups[g];
	who.caps = ca->caps;
	who.bset_drop = ca->bset_drop;
	if (ca->fsids) {
		who.fsuid = ca->fsuid;
		who.fsgid = ca->fsgid;
	}
	who.umask = c.umask;
	who.set_umask = true;
	run = vt_run_as(&who, vt_exec_op, &q, &rep, sizeof(rep));
	vt_caller_describe(&who, whotext, sizeof(whotext));
	if (run.status != VT_RAN) {
		mx_say(&r, "  caller %s did not run: %s\n", whotext, run.msg);
		r.diffs++;
	} else {
		snprintf(path, sizeof(path), "%s/%s", c.op.cross_dir ? qd : p,
			 mx_result_name(&c.op));
		if (*mx_result_name(&c.op))
			vt_fx_read(path, &disk);
		else
			memset(&disk, 0, sizeof(disk));
		snprintf(path, sizeof(path), "%s/o", p);
		obj_exists = lstat(path, &st) == 0;
		mx_compare(&r, &w, &c, &e, run.ret, &rep, &disk, obj_exists, &st);
		/* the case ran: the rules it decided are covered (pass or fail) */
		vt_coverage_add(cov, &tr, e.err);
	}
	if (r.diffs) {
		char head[8192];
		struct mx_report h = { .off = 0 };

		mx_say(&h, "MISMATCH %s\n", name);
		mx_say(&h, "  fs %s, mount idmap %s (%s), caller %s (model caps %#llx)\n", rw->fstype,
		    vt_map_axes[map].name, vt_map_axes[map].spec ? vt_map_axes[map].spec : "plain mount",
		    whotext, (unsigned long long)ca->capmask);
		if (c.vfat)
			mx_say(&h, "  vfat world %s: mounted -o %s\n", vt_vfat_worlds[c.vfat - 1].name,
			    vt_vfat_worlds[c.vfat - 1].options);
		mx_describe_inode(&h, "P", &c.dir);
		mx_describe_inode(&h, "P/o", &c.obj);
		if (c.dir2.exists)
			mx_describe_inode(&h, "Q", &c.dir2);
		mx_describe_inode(&h, c.op.cross_dir ? "Q/t" : "P/t", &c.other);
		mx_op_args_text(&h, &c.op);
		mx_say(&h, "  model: %s (%s)\n", vt_errname(e.err), e.rule ? e.rule : "");
		if (!e.err && e.result.exists)
			mx_describe_inode(&h, "expected result", &e.result);
		if (!run.ret && run.status == VT_RAN && disk.exists)
			mx_describe_inode(&h, "actual result", &disk);
		memcpy(head, h.buf, h.off + 1);
		vt_ktap_diag(k, "%s%s  reproduce: %s", head, r.buf,
			     vt_replay_line(replay, sizeof(replay), suite_test, name, rw->fstype));
	}
	vt_ktap_result(k, r.diffs ? VT_FAIL : VT_PASS, name, NULL);
	return r.diffs == 0;

setup_failed:
	vt_ktap_diag(k, "setup of %s failed: %s: %s", name, what, vt_errname(errno));
	vt_ktap_diag(k, "  reproduce: %s",
		     vt_replay_line(replay, sizeof(replay), suite_test, name, rw->fstype));
	vt_ktap_result(k, VT_FAIL, name, NULL);
	return false;
}

static const char *strip_prefix(const char *id)
{
	/* accept "matrix/NNN/<id>" as well as "<id>" */
	size_t n = strlen(suite_test);

	if (strncmp(id, suite_test, n) == 0 && id[n] == '/')
		return id + n + 1;
	return id;
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
	{
		static char probe[4200];
		char d[4096];

		snprintf(d, sizeof(d), "%s", argv[0]);
		snprintf(probe, sizeof(probe), "%s/exec-probe", dirname(d));
		vt_fx_probe_path = probe;
	}
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
	memset(&w, 0, sizeof(w));
	memset(&cov, 0, sizeof(cov));
	vt_expunges_load(&x);
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
	for (i = 0; i < nsel; i++) {
		int idx;
		const struct vt_family *f = mx_space_case(sp, sel[i], &idx);
		const char *why_skip;

		mx_case_name(f, idx, nm, sizeof(nm));
		why_skip = vt_expunged(&x, f->test_id, nm);
		if (why_skip) {
			char msg[1100];

			snprintf(msg, sizeof(msg), "expunged: %s", why_skip);
			vt_ktap_result(&k, VT_SKIP, nm, msg);
			continue;
		}
		if (!run_case(&w, f, idx, &k, nm, &cov))
			fails++;
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

/* A family vfat cannot hold: nothing to list, the whole test notrun. */
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
	const struct vt_family *const one[1] = {
		f = vt_vfat_fstype(getenv("FSTYP")) ? vt_vfat_family(f, &why) : f
	};
	struct mx_space sp;

	if (!f)
		return matrix_not_here(why, argc, argv);
	sp = (struct mx_space){ one, 1, f->local_count * vt_map_axis_count * vt_caller_axis_count, { 0 } };
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
	if (argc == 2 && strcmp(argv[1], "--list-mutants") == 0) {
		int nm = vt_mp_count(), b;
		char id[600];

		for (i = 0; i < nm; i++)
			for (b = 1; b <= (int)VT_MOP__ALL; b <<= 1)
				if (vt_mp_ops(vt_mp_get(i)) & (unsigned int)b) {
					const struct vt_mpoint *p = vt_mp_get(i);

					vt_mp_id(p, (unsigned int)b, id, sizeof(id));
					printf("%s\t%s\t%d\t%s\t%s\n", id, p->file, p->line, p->func,
					       vt_mp_kernel_text(p));
				}
		return fflush(stdout) == 0 ? 0 : 2;
	}
	if (argc > 1 && (strcmp(argv[1], "--sample-table") == 0 ||
			 strcmp(argv[1], "--check-sample-table") == 0))
		unsetenv("FSTYP");	/* the space below: the non-vfat one */
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
		if (strcmp(fstype, "tmpfs") && strcmp(fstype, "ext4") && strcmp(fstype, "xfs") &&
		    strcmp(fstype, "btrfs") && strcmp(fstype, "vfat")) {
			fprintf(stderr, "vfsidmap: %s: --fs: unknown filesystem '%s' "
				"(known: ext4,xfs,btrfs,tmpfs,vfat)\n",
				list_sample ? "sample" : "mutation-score", fstype);
			return 2;
		}
		setenv("FSTYP", fstype, 1);
	}
	if (vt_vfat_fstype(getenv("FSTYP"))) {
		/* the vfat counterparts; a family vfat cannot hold leaves the sample */
		for (i = 0; i < nfam; i++)
			if ((fat[n] = vt_vfat_family(fams[i], &why)))
				n++;
		sp.fams = fat;
		sp.nfam = nfam = n;
	}
	for (i = 0; i < nfam; i++) {
		sp.base[i] = sp.total;
		sp.total += sp.fams[i]->local_count * vt_map_axis_count * vt_caller_axis_count;
	}
	if (argc > 1 && strcmp(argv[1], "--sample-table") == 0)
		return mx_sample_table_main(&sp, argc - 2, argv + 2);
	if (argc > 1 && strcmp(argv[1], "--check-sample-table") == 0)
		return mx_sample_table_check_main(&sp, argc - 2, argv + 2);
	if (list_sample)
		return mx_list_sample(&sp, fstype);
	if (score)
		return mx_matrix_score(&sp, fstype, select, tsv);
	return matrix_run(&sp, true, "sample", argc, argv);
}
