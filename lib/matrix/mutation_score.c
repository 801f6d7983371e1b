/* The offline mutation scorer (vfsidmap-tool mutation-score): which model
 * mutants a selection of cases kills, from the model alone. */
#include "matrix/mutation_score.h"
#include "matrix/axes.h"
#include "matrix/case_model.h"
#include "matrix/sample_choice.h"
#include "model/break.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Model functions no matrix world reaches that a hand-written test asks
 * against a world of its own (its own filesystem image). */
static const char *own_world_test(const struct vt_mpoint *p)
{
	if (strstr(p->func, "fscrypt"))
		return " (FS_IOC_SET_ENCRYPTION_POLICY: idmapped/007 asks it on an ext4 -O encrypt "
		       "image of its own, which the matrix does not make)";
	if (strstr(p->file, "coredump_rules"))
		return " (do_coredump: idmapped/009 dumps cores through idmapped mounts, which the "
		       "matrix does not)";
	if (strstr(p->file, "fhandle_rules"))
		return " (open_by_handle_at: idmapped/010 asks it, which the matrix does not)";
	return strstr(p->file, "optowner") ? " (option-owner worlds only)" : "";
}

/* Why mutant K survives every case of the space (it is equivalent in this
 * world), from what the analysis saw. */
static void equivalence_reason(const struct mx_mutants *mu, const struct mx_mstats *ms, int k, char *buf,
			       size_t len)
{
	const struct vt_mpoint *p = vt_mp_get(mu->point[k]);

	if (!ms->reached[k] && p->kind == VT_MPK_GUARD)
		snprintf(buf, len, "the refusal never happens: no case of this world is refused by "
			 "%s in %s%s", p->kfn, p->func, own_world_test(p));
	else if (!ms->reached[k])
		snprintf(buf, len, "not reached: no case of this world evaluates %s in %s%s", p->kfn,
			 p->func, own_world_test(p));
	else if (!ms->differs[k] && mu->op[k] == VT_MOP_IDENTITY)
		snprintf(buf, len, "reached in %u cases, but there the translation is the identity "
			 "on every id it is given", ms->reached[k]);
	else if (!ms->differs[k] && mu->op[k] == VT_MOP_SWAP)
		snprintf(buf, len, "reached in %u cases, but there the uid and the gid helper give "
			 "the same id", ms->reached[k]);
	else if (!ms->differs[k] && mu->op[k] == VT_MOP_FS_INIT && p->kind == VT_MPK_SBNS &&
		 strncmp(p->kfn, "ns_capable", 10) == 0)
		/* cap_capable: the owner of a namespace holds every capability
		 * in it, whatever its own set */
		snprintf(buf, len, "reached in %u cases, but in each %s over the filesystem's "
			 "s_user_ns answers as over the initial namespace: no caller of these "
			 "cases holds the capability over one of them only (s_user_ns is another "
			 "namespace only on the userns maps, which filesystems with "
			 "FS_USERNS_MOUNT have; there a caller that owns nsfs without holding the "
			 "capability itself, or one inside nsfs, would tell them apart)",
			 ms->reached[k], p->kfn);
	else if (!ms->differs[k] && mu->op[k] == VT_MOP_FS_INIT && p->kind == VT_MPK_SBNS)
		snprintf(buf, len, "reached in %u cases, but there %s over the filesystem's "
			 "s_user_ns decides as over the initial namespace (the userns maps, "
			 "where it may not, exist on filesystems with FS_USERNS_MOUNT only)",
			 ms->reached[k], p->kfn);
	else if (!ms->differs[k] && mu->op[k] == VT_MOP_FS_INIT)
		snprintf(buf, len, "reached in %u cases, but there the filesystem's s_user_ns "
			 "translates every id it is given as the initial namespace would (the "
			 "userns maps, where it does not, exist on filesystems with "
			 "FS_USERNS_MOUNT only)", ms->reached[k]);
	else if (!ms->differs[k] && mu->op[k] == VT_MOP_OTHER_LAYER)
		snprintf(buf, len, "reached in %u cases, but there both overlay layers translate "
			 "every id alike (the same idmap on both)", ms->reached[k]);
	else if (!ms->differs[k] && mu->op[k] == VT_MOP_PAST_END)
		snprintf(buf, len, "reached in %u cases, but there no id looked up is the one past "
			 "an extent's end", ms->reached[k]);
	else if (!ms->differs[k])
		snprintf(buf, len, "reached in %u cases, but there the scope is the same with and "
			 "without the mount's idmap", ms->reached[k]);
	else
		snprintf(buf, len, "its value differs in %u of the %u cases reaching it, but no "
			 "outcome the matrix observes changes (a later rule decides the same)",
			 ms->differs[k], ms->reached[k]);
}

/* Writes PATH atomically (PATH.tmp, then rename); -1 with errno. */
static int write_score_tsv(const char *path, const struct mx_space *sp, const struct mx_mutants *mu,
			   const struct mx_mstats *ms, const uint32_t *sel_kills)
{
	char tmp[4200], id[600], why[400], nm[512] = "";
	FILE *fp;
	int k, ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fp = fopen(tmp, "we");
	if (!fp)
		return -1;
	fprintf(fp, "mutant\tmodel_function\tkernel_function\tkilled_by_selection\tkilled_by_full\t"
		    "killing_case\tstatus\treason\n");
	for (k = 0; k < mu->n; k++) {
		const struct vt_mpoint *p = vt_mp_get(mu->point[k]);

		vt_mp_id(p, mu->op[k], id, sizeof(id));
		nm[0] = 0;
		why[0] = 0;
		if (ms->first_kill[k] >= 0) {
			int idx;
			const struct vt_family *f = mx_space_case(sp, ms->first_kill[k], &idx);

			mx_case_name(f, idx, nm, sizeof(nm));
			if (!sel_kills[k])
				snprintf(why, sizeof(why), "killed only outside the selection");
		} else {
			equivalence_reason(mu, ms, k, why, sizeof(why));
		}
		fprintf(fp, "%s\t%s\t%s\t%u\t%u\t%s\t%s\t%s\n", id, p->func, vt_mp_kernel_text(p),
			sel_kills[k], ms->kills[k], nm[0] ? nm : "-",
			sel_kills[k] ? "killed" : ms->kills[k] ? "survived" : "equivalent", why);
	}
	ok = !ferror(fp);
	if (fclose(fp) != 0)
		ok = 0;
	if (!ok || rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		errno = e ? e : EIO;
		return -1;
	}
	return 0;
}

/* vfsidmap-tool mutation-score: which model mutants the cases of SELECT
 * (the quick sample, a family, or every case) kill, computed from the
 * model alone in the assumed world of FSTYPE. Exit 0: every mutant that
 * some case of the space kills is killed by the selection; 1: some
 * survive; 2: bad input or no memory. */
int mx_matrix_score(const struct mx_space *sp, const char *fstype, const char *select,
			const char *tsv)
{
	static char note[900], id[600], why[400];
	struct mx_world rw;
	struct vt_expunges x;
	struct mx_mutants mu;
	struct mx_mstats ms = { 0 };
	uint32_t *sel_kills;
	int *sample, *kills, nsample, k, g, fam = -1, nsel = 0, nkilled = 0, nsurv = 0, nequiv = 0;
	bool is_sample = false, is_full = false;
	uint8_t *seen;
	const char *selname, *why_not;

	if (!select || !*select || strcmp(select, "all") == 0 || strcmp(select, "matrix") == 0 ||
	    strcmp(select, "idmapped") == 0 || strcmp(select, "full") == 0) {
		is_full = true;
		selname = "every case of the matrix";
	} else if (strcmp(select, "quick") == 0 || strcmp(select, "matrix/011") == 0 ||
		   strcmp(select, "sample") == 0) {
		is_sample = true;
		selname = "the quick sample (matrix/011)";
	} else {
		for (k = 0; k < sp->nfam && fam < 0; k++)
			if (strcmp(select, sp->fams[k]->name) == 0 ||
			    strcmp(select, sp->fams[k]->test_id) == 0)
				fam = k;
		if (fam < 0) {
			fprintf(stderr, "vfsidmap: mutation-score: '%s' is no group, family or matrix "
				"test (quick, matrix/011, all, or one of:", select);
			for (k = 0; k < sp->nfam; k++)
				fprintf(stderr, " %s (%s)", sp->fams[k]->test_id, sp->fams[k]->name);
			fprintf(stderr, ")\n");
			return 2;
		}
		selname = sp->fams[fam]->test_id;
	}
	if ((why_not = mx_assumed_world(&rw, fstype))) {
		fprintf(stderr, "vfsidmap: mutation-score: %s\n", why_not);
		return 2;
	}
	if (vt_expunges_load(&x, note, sizeof(note)) < 0) {
		fprintf(stderr, "vfsidmap: mutation-score: %s\n", note);
		return 2;
	}
	vt_mut_clear();
	if (mx_mutants_init(&mu) < 0)
		return 2;
	ms.reached = calloc((size_t)mu.n + 1, sizeof(uint32_t));
	ms.differs = calloc((size_t)mu.n + 1, sizeof(uint32_t));
	ms.kills = calloc((size_t)mu.n + 1, sizeof(uint32_t));
	ms.first_kill = malloc(sizeof(int) * ((size_t)mu.n + 1));
	sel_kills = calloc((size_t)mu.n + 1, sizeof(uint32_t));
	sample = malloc(sizeof(int) * (size_t)sp->total);
	kills = malloc(sizeof(int) * ((size_t)mu.n + 1));
	seen = malloc((size_t)mu.npoints + 1);
	if (!ms.reached || !ms.differs || !ms.kills || !ms.first_kill || !sel_kills || !sample ||
	    !kills || !seen)
		return 2;
	for (k = 0; k < mu.n; k++)
		ms.first_kill[k] = -1;
	/* the whole space once: every candidate's kills (and the sample) */
	nsample = mx_choose_sample(&rw, sp, &x, sample, note, sizeof(note), &mu, &ms);
	if (nsample < 0) {
		fprintf(stderr, "vfsidmap: mutation-score: %s\n", note[0] ? note : "out of memory");
		return 2;
	}
	if (is_full) {
		memcpy(sel_kills, ms.kills, sizeof(uint32_t) * (size_t)mu.n);
		nsel = -1;
	} else {
		int n = is_sample ? nsample : sp->total;

		for (k = 0; k < n; k++) {
			struct vt_mcase c;
			struct vt_expect e;
			struct vt_trace tr;
			int idx, nk, j;
			const struct vt_family *f;

			g = is_sample ? sample[k] : k;
			f = mx_space_case(sp, g, &idx);
			if (!is_sample && f != sp->fams[fam])
				continue;
			memset(&c, 0, sizeof(c));
			vt_family_make(f, idx % vt_family_local_count(f), &c);
			{
				int map, caller;

				vt_family_pair(f, idx / vt_family_local_count(f), &map, &caller);
				if (*mx_case_skip(&rw, &c, map))
					continue;
			}
			mx_case_name(f, idx, note, sizeof(note));
			if (x.n && vt_expunged(&x, f->test_id, note))
				continue;
			nsel++;
			nk = mx_case_kills(&rw, f, idx, &mu, seen, kills, &c, &e, &tr, NULL);
			for (j = 0; j < nk; j++)
				sel_kills[kills[j]]++;
		}
	}
	for (k = 0; k < mu.n; k++) {
		if (sel_kills[k])
			nkilled++;
		else if (ms.kills[k])
			nsurv++;
		else
			nequiv++;
	}
	printf("Mutation score on %s (assumed world: posixacl=%d whiteout=%d exec=1 "
	       "fs.protected_symlinks/hardlinks/fifos/regular=%d/%d/%d/%d%s), %s",
	       fstype, rw.posixacl, !rw.no_whiteout[0], rw.sysctl_orig[0], rw.sysctl_orig[1],
	       rw.sysctl_orig[2], rw.sysctl_orig[3], rw.sysctl_allowed ? ", VT_ALLOW_SYSCTL=1" : "",
	       selname);
	if (nsel >= 0)
		printf(" (%d cases)", nsel);
	printf(":\n  %d mutants (%d mutation points): %d killed, %d survived, %d equivalent in this "
	       "world\n  score: %d of %d non-equivalent mutants killed (%.1f%%)\n",
	       mu.n, mu.npoints, nkilled, nsurv, nequiv, nkilled, nkilled + nsurv,
	       nkilled + nsurv ? 100.0 * nkilled / (nkilled + nsurv) : 100.0);
	printf("\n  %-22s %8s %7s %9s %11s\n", "model file", "mutants", "killed", "survived",
	       "equivalent");
	{
		const char *files[64];
		int nf = 0, f2, cnt[64][4];

		memset(cnt, 0, sizeof(cnt));
		for (k = 0; k < mu.n; k++) {
			const char *file = strrchr(vt_mp_get(mu.point[k])->file, '/');

			file = file ? file + 1 : vt_mp_get(mu.point[k])->file;
			for (f2 = 0; f2 < nf && strcmp(files[f2], file); f2++)
				;
			if (f2 == nf && nf < 64)
				files[nf++] = file;
			if (f2 < 64) {
				cnt[f2][0]++;
				cnt[f2][sel_kills[k] ? 1 : ms.kills[k] ? 2 : 3]++;
			}
		}
		for (f2 = 0; f2 < nf; f2++)
			printf("  %-22s %8d %7d %9d %11d\n", files[f2], cnt[f2][0], cnt[f2][1],
			       cnt[f2][2], cnt[f2][3]);
	}
	if (nsurv) {
		printf("\n  survivors (killed by the case named, outside the selection):\n");
		for (k = 0; k < mu.n; k++)
			if (!sel_kills[k] && ms.kills[k]) {
				int idx;
				const struct vt_family *f = mx_space_case(sp, ms.first_kill[k], &idx);

				vt_mp_id(vt_mp_get(mu.point[k]), mu.op[k], id, sizeof(id));
				mx_case_name(f, idx, note, sizeof(note));
				printf("    %s  (%s/%s)\n", id, f->test_id, note);
			}
	}
	if (nequiv) {
		printf("\n  equivalent in this world (no case of the whole matrix tells them apart):\n");
		for (k = 0; k < mu.n; k++)
			if (!ms.kills[k]) {
				vt_mp_id(vt_mp_get(mu.point[k]), mu.op[k], id, sizeof(id));
				equivalence_reason(&mu, &ms, k, why, sizeof(why));
				printf("    %s: %s\n", id, why);
			}
	}
	if (tsv && *tsv) {
		if (write_score_tsv(tsv, sp, &mu, &ms, sel_kills) < 0) {
			fprintf(stderr, "vfsidmap: mutation-score: cannot write %s: %s\n", tsv,
				strerror(errno));
			return 2;
		}
		printf("\n  written: %s\n", tsv);
	}
	fflush(stdout);
	mx_mutants_free(&mu);
	return nsurv ? 1 : 0;
}
