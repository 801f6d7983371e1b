/* The quick sample chosen at build time (sample_table.h). The choice
 * (sample_choice.c) runs the model once per case and again per mutant
 * whose value differs there: about a million model runs, seconds on a
 * host and minutes in a TCG guest, for a result that depends only on the
 * model's code and a few facts of the world. make computes it for the
 * worlds below and links it into tests/matrix/011; a run looks its world
 * up and computes only when the table lacks it. */
#include "matrix/sample_table.h"
#include "fs/fs_table.h"
#include "matrix/axes.h"
#include "matrix/sample_choice.h"
#include "matrix/optowner_fixture.h"
#include "matrix/ovl_erofs.h"
#include "model/break.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *mx_linked_model_hash;
const struct mx_sample_table *mx_linked_sample_table;

/* The machines whose worlds the table holds: run/vm's guest (no
 * systemd; it may change the fs.protected_* values: VT_ALLOW_SYSCTL=1)
 * with a Debian kernel's defaults (symlinks and hardlinks 1: Debian's
 * "fs: Enable link security restrictions by default", fs/namei.c) and
 * with a mainline kernel's (all 0, run/build-kernel); a host with
 * systemd's 50-default.conf (1/1/1/2); this project's CI host (0/1/0/0,
 * a container whose bounding set lacks CAP_SYS_RESOURCE). The root's
 * bounding set of a kernel whose last capability is 40
 * (CAP_CHECKPOINT_RESTORE, 5.9 and later), the default overflow ids.
 * On each, every filesystem of the table the matrix runs on (fs_world()).
 * Any other world computes its sample. */
struct table_machine {
	int sysctl[VT_SYSCTL__COUNT];	/* symlinks, hardlinks, fifos, regular */
	int allowed;
	uint64_t bset_drop;		/* capabilities not in the bounding set */
	const char *what;
};
static const struct table_machine table_machines[] = {
	{ { 1, 1, 0, 0 }, 1, 0, "run/vm guest, Debian kernel" },
	{ { 0, 0, 0, 0 }, 1, 0, "run/vm guest, mainline kernel" },
	{ { 1, 1, 1, 2 }, 0, 0, "systemd host" },
	{ { 0, 1, 0, 0 }, 0, 1ULL << 24 /* CAP_SYS_RESOURCE */, "CI host" },
};
#define TABLE_CAP_LAST 40

static uint64_t fnv_int(uint64_t h, int v)
{
	int b;

	for (b = 0; b < 4; b++) {
		h ^= (uint64_t)((unsigned int)v >> (8 * b)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Marks in OUT (sp->total bytes) every case of the space the expunge list
 * takes out: exactly those for which vt_expunged(x, its family's test id,
 * its name) holds, as mx_choose_sample() asks. An entry names a case as
 * "family/map=M/caller=C/what", alone or after "suite/NNN/" of the case's
 * family; each is parsed back to its cases and confirmed by
 * vt_expunged() itself. */
static void mark_expunged(const struct mx_space *sp, const struct vt_expunges *x, uint8_t *out)
{
	char pre[600], nm[600];
	int i, fi, m, cl, loc;

	for (i = 0; i < x->n; i++)
		for (fi = 0; fi < sp->nfam; fi++) {
			const struct vt_family *f = sp->fams[fi];
			const char *e = x->name[i];
			size_t tl = strlen(f->test_id), fl = strlen(f->name);
			int form;

			/* form 0: the bare name; form 1: after "TEST_ID/" */
			for (form = 0; form < 2; form++) {
				const char *rest = e;

				if (form == 1) {
					if (strncmp(e, f->test_id, tl) != 0 || e[tl] != '/')
						continue;
					rest = e + tl + 1;
				}
				if (strncmp(rest, f->name, fl) != 0 || rest[fl] != '/')
					continue;
				for (m = 0; m < vt_map_axis_count; m++)
					for (cl = 0; cl < vt_caller_axis_count; cl++) {
						size_t pl = (size_t)snprintf(pre, sizeof(pre), "%s/map=%s/caller=%s/",
									     f->name, vt_map_axes[m].name,
									     vt_caller_axes[cl].name);

						/* a pair the family does not cross has no case */
						if (strncmp(rest, pre, pl) != 0 ||
						    vt_family_pair_index(f, m, cl) < 0)
							continue;
						for (loc = 0; loc < vt_family_local_count(f); loc++) {
							struct vt_mcase c;
							int idx = vt_family_pair_index(f, m, cl) * vt_family_local_count(f) + loc;

							memset(&c, 0, sizeof(c));
							vt_family_make(f, loc, &c);
							if (strcmp(c.what, rest + pl) != 0)
								continue;
							mx_case_name(f, idx, nm, sizeof(nm));
							if (vt_expunged(x, f->test_id, nm))
								out[sp->base[fi] + idx] = 1;
						}
					}
			}
		}
}

/* The key of world RW with expunge list X; -1 if out of memory. The
 * candidates are found as mx_choose_sample() finds them: the cases
 * mx_case_skip() lets run, less those the expunge list takes out. */
static int make_key(const struct mx_world *rw, const struct mx_space *sp, const struct vt_expunges *x,
		    struct mx_sample_key *k)
{
	uint8_t *ex = calloc((size_t)sp->total + 1, 1);
	int g, i, fi;

	if (!ex)
		return -1;
	memset(k, 0, sizeof(*k));
	/* 0: owners in the inode; 1 + which option-owner filesystem (their
	 * operations differ: vt_optowner_all) */
	k->fat = 0;
	for (i = 0; rw->optowner && i < vt_optowner_count; i++)
		if (vt_optowner_all[i] == rw->optowner)
			k->fat = 1 + i;
	k->posixacl = rw->posixacl;
	for (i = 0; i < VT_SYSCTL__COUNT; i++)
		k->sysctl[i] = rw->sysctl_orig[i];
	k->overflowuid = rw->overflowuid;
	k->overflowgid = rw->overflowgid;
	k->bset_init = rw->bset_init;
	k->cap_full = rw->cap_full;
	k->suid_dump_user = rw->suid_dumpable == 1;
	/* a fact of the filesystem the overlay model reads (copy_up_acl):
	 * without it xfs's world shared ext4's sample, which xfs's model
	 * would not choose */
	k->raw_acl = rw->fstype && vt_fs_lists_raw_acl(rw->fstype);
	/* the row's facts the overlay model's upper layer reads (case_model.c
	 * ovl_model_case) */
	if (rw->fstype && vt_fs_row(rw->fstype))
		k->ovl_upper_lacks = (int)((VT_FSF_WHITEOUT | VT_FSF_TMPFILE) &
					   ~vt_fs_row(rw->fstype)->supports);
	k->total = sp->total;
	k->run_hash = 0xcbf29ce484222325ULL;
	if (x->n)
		mark_expunged(sp, x, ex);
	/* in case order, as mx_choose_sample() finds them; a case is
	 * (family, pair, local case), and whether it is skipped depends on
	 * the pair only through its map's class: asked once a local case and
	 * class (the families' local cases, a few thousand), not once a case
	 * (467,176: seconds of a TCG guest's time) */
	for (fi = 0; fi < sp->nfam; fi++) {
		const struct vt_family *f = sp->fams[fi];
		int npairs = vt_family_ncases(f) / vt_family_local_count(f), pair, loc, map, caller, cl;
		uint8_t *skip = malloc((size_t)vt_family_local_count(f) * MX_MAPC__COUNT + 1);
		bool asked[MX_MAPC__COUNT] = { false };

		if (!skip) {
			free(ex);
			return -1;
		}
		for (pair = 0; pair < npairs; pair++) {
			vt_family_pair(f, pair, &map, &caller);
			cl = mx_skip_map_class(map);
			if (!asked[cl]) {
				for (loc = 0; loc < vt_family_local_count(f); loc++) {
					struct vt_mcase c;

					memset(&c, 0, sizeof(c));
					vt_family_make(f, loc, &c);
					skip[cl * vt_family_local_count(f) + loc] = *mx_case_skip_class(rw, &c, cl) != 0;
				}
				asked[cl] = true;
			}
			for (loc = 0; loc < vt_family_local_count(f); loc++) {
				g = sp->base[fi] + pair * vt_family_local_count(f) + loc;
				if (ex[g] || skip[cl * vt_family_local_count(f) + loc])
					continue;
				k->nrun++;
				k->run_hash = fnv_int(k->run_hash, g);
			}
		}
		free(skip);
	}
	free(ex);
	return 0;
}

/* The facts in which two keys differ, named in BUF ("" if none); their
 * number. */
static int key_diff(const struct mx_sample_key *a, const struct mx_sample_key *b, char *buf,
		    size_t len)
{
	size_t off = 0;
	int n = 0, i;

#define DIFF(cond, ...)                                                                  \
	do {                                                                             \
		if (cond) {                                                              \
			n++;                                                             \
			if (off < len)                                                   \
				off += (size_t)snprintf(buf + off, len - off, "%s", off ? "; " : ""); \
			if (off < len)                                                   \
				off += (size_t)snprintf(buf + off, len - off, __VA_ARGS__); \
		}                                                                        \
	} while (0)
	*buf = 0;
	DIFF(a->fat != b->fat, "option-owner filesystem %d, there %d", a->fat, b->fat);
	DIFF(a->posixacl != b->posixacl, "POSIX ACLs %d, there %d", a->posixacl, b->posixacl);
	for (i = 0; i < VT_SYSCTL__COUNT; i++)
		if (a->sysctl[i] != b->sysctl[i])
			break;
	DIFF(i < VT_SYSCTL__COUNT, "fs.protected_* %d/%d/%d/%d, there %d/%d/%d/%d", a->sysctl[0],
	     a->sysctl[1], a->sysctl[2], a->sysctl[3], b->sysctl[0], b->sysctl[1], b->sysctl[2],
	     b->sysctl[3]);
	DIFF(a->overflowuid != b->overflowuid || a->overflowgid != b->overflowgid,
	     "overflow ids %u:%u, there %u:%u", a->overflowuid, a->overflowgid, b->overflowuid,
	     b->overflowgid);
	DIFF(a->suid_dump_user != b->suid_dump_user, "fs.suid_dumpable 1 %d, there %d",
	     a->suid_dump_user, b->suid_dump_user);
	DIFF(a->raw_acl != b->raw_acl, "ACLs also listed raw (xfs's trusted.SGI_ACL_*) %d, there %d",
	     a->raw_acl, b->raw_acl);
	DIFF(a->ovl_upper_lacks != b->ovl_upper_lacks,
	     "an overlay upper layer without whiteouts/tmpfiles %#x, there %#x", a->ovl_upper_lacks,
	     b->ovl_upper_lacks);
	DIFF(a->bset_init != b->bset_init || a->cap_full != b->cap_full,
	     "bounding set %#llx of %#llx, there %#llx of %#llx", (unsigned long long)a->bset_init,
	     (unsigned long long)a->cap_full, (unsigned long long)b->bset_init,
	     (unsigned long long)b->cap_full);
	DIFF(a->total != b->total, "%d cases in the space, there %d", a->total, b->total);
	DIFF(a->total == b->total && (a->nrun != b->nrun || a->run_hash != b->run_hash),
	     "candidates (cases run here, not expunged) %d, there %d%s", a->nrun, b->nrun,
	     a->nrun == b->nrun ? ", not the same ones" : "");
#undef DIFF
	return n;
}

static bool same_key(const struct mx_sample_key *a, const struct mx_sample_key *b)
{
	char buf[8];

	return key_diff(a, b, buf, sizeof(buf)) == 0;
}

/* The cover as sample_choice.c makes it, with the mutants of this build
 * (and the rows of RC, if not NULL: sample_choice.h). */
static int compute_cached(const struct mx_world *rw, const struct mx_space *sp,
			  const struct vt_expunges *x, int *sel, char *note, size_t notelen,
			  struct mx_row_cache *rc)
{
	struct mx_mutants mu;
	int n = -1, nbreak;
	const char *brk = vt_mut_env(&nbreak);

	/* the sample is the right model's choice, whatever VT_MODEL_BREAK
	 * then makes the cases expect */
	vt_mut_clear();
	if (mx_mutants_init(&mu) == 0)
		n = mx_choose_sample_cached(rw, sp, x, sel, note, notelen, &mu, NULL, rc);
	mx_mutants_free(&mu);
	if (brk)
		vt_mut_set(brk);
	return n;
}

static int compute(const struct mx_world *rw, const struct mx_space *sp, const struct vt_expunges *x,
		   int *sel, char *note, size_t notelen)
{
	return compute_cached(rw, sp, x, sel, note, notelen, NULL);
}

/* Whether two keys have the same model world (all but the candidates):
 * the rows of one serve the other (struct mx_row_cache). */
static bool same_model(const struct mx_sample_key *a, const struct mx_sample_key *b)
{
	return a->fat == b->fat && a->posixacl == b->posixacl &&
	       memcmp(a->sysctl, b->sysctl, sizeof(a->sysctl)) == 0 &&
	       a->overflowuid == b->overflowuid && a->overflowgid == b->overflowgid &&
	       a->bset_init == b->bset_init && a->cap_full == b->cap_full &&
	       a->suid_dump_user == b->suid_dump_user && a->raw_acl == b->raw_acl &&
	       a->ovl_upper_lacks == b->ovl_upper_lacks &&
	       a->total == b->total;
}

int mx_sample_for_world(const struct mx_world *rw, const struct mx_space *sp,
			const struct vt_expunges *x, int *sel, char *note, size_t notelen,
			const char **how)
{
	const struct mx_sample_table *t = mx_linked_sample_table;
	const char *env;
	struct mx_sample_key k;
	int i;

	*how = "computed at run time";
	if (!t) {
		*how = "computed at run time (this program has no build-time table)";
	} else if ((env = getenv("VT_SAMPLE_COMPUTE")) && strcmp(env, "1") == 0) {
		*how = "computed at run time (VT_SAMPLE_COMPUTE=1)";
	} else if (((env = getenv("VT_SAMPLE_WITHOUT")) && *env) ||
		   ((env = getenv("VT_SAMPLE_WITHOUT_MUTANT")) && *env)) {
		*how = "computed at run time (VT_SAMPLE_WITHOUT or VT_SAMPLE_WITHOUT_MUTANT is set)";
	} else if (!mx_linked_model_hash || strcmp(t->model_hash, mx_linked_model_hash) != 0) {
		/* made from other sources: a stale table is never used */
		*how = "computed at run time (the build-time table was made from other sources)";
	} else if (make_key(rw, sp, x, &k) == 0) {
		static char miss[1200];
		char d[600];
		int nd, best = 1 << 30;

		for (i = 0; i < t->n; i++)
			if (same_key(&t->e[i].key, &k)) {
				memcpy(sel, t->e[i].sel, sizeof(int) * (size_t)t->e[i].n);
				snprintf(note, notelen, "%s", t->e[i].note);
				*how = "from the build-time table (tests/matrix/011-table.c)";
				return t->e[i].n;
			}
		/* what keeps it out: the nearest world of the table */
		*how = "computed at run time (this world is not in the build-time table)";
		for (i = 0; i < t->n; i++) {
			nd = key_diff(&k, &t->e[i].key, d, sizeof(d));
			if (nd < best) {
				best = nd;
				snprintf(miss, sizeof(miss), "computed at run time (this world is not in "
					 "the build-time table; nearest, %s: %s)", t->e[i].what, d);
				*how = miss;
			}
		}
	}
	return compute(rw, sp, x, sel, note, notelen);
}

/* A C string literal of S. */
static void put_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			fprintf(fp, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, fp);
	}
	fputc('"', fp);
}

/* Reads an expunge file as ./check lists it (expunge/xfs: a case id, then
 * blanks and a comment) into X, in the form ./check gives the test. */
static int load_expunge_file(const char *path, struct vt_expunges *x)
{
	FILE *fp = fopen(path, "re");
	char line[1200];

	memset(x, 0, sizeof(*x));
	if (!fp) {
		fprintf(stderr, "sample table: %s: cannot read\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *s = line + strspn(line, " \t");
		size_t len = strcspn(s, " \t\n#");

		if (!len || *s == '#')
			continue;
		s[len] = 0;
		x->name = realloc(x->name, sizeof(char *) * (size_t)(x->n + 1));
		x->why = realloc(x->why, sizeof(char *) * (size_t)(x->n + 1));
		if (!x->name || !x->why || !(x->name[x->n] = strdup(s)))
			abort();
		x->why[x->n++] = (char *)"listed";
	}
	fclose(fp);
	return 0;
}

/* Whether the matrix runs on row R: owners in the inode (not a
 * read-only image), or worlds it builds from mount options. */
static bool matrix_row(const struct vt_fs_row *r)
{
	return r->owner == VT_OWNER_INODE ||
	       (r->owner == VT_OWNER_MOUNT_OPTIONS && vt_optowner_fs(r->name));
}

/* Whether row R has POSIX ACLs only when mounted with the option acl:
 * a mount variant of its row names it (ntfs3: SB_POSIXACL only from
 * ntfs_fs_parse_param). A default mount then has none. */
static bool acl_by_option(const struct vt_fs_row *r)
{
	const char *s = r->mount_variants;

	if (!(r->supports & VT_FSF_POSIX_ACL))
		return false;
	while (*s) {
		size_t n = strcspn(s, ";,");

		if (n == 3 && strncmp(s, "acl", 3) == 0)
			return true;
		s += n;
		s += *s ? 1 : 0;
	}
	return false;
}

/* The world a mount of FSTYPE (with the option acl if ACL, for a row
 * that needs it) gives on machine M, as mx_world_setup() would probe it,
 * answered by the filesystem table: POSIX ACLs, RENAME_WHITEOUT and
 * FIDEDUPERANGE as its row says; setuid exec allowed (check mounts
 * without nosuid), fs.leases-enable 1 (its default). NULL or why not. */
static const char *fs_world(struct mx_world *rw, const char *fstype, bool acl,
			    const struct table_machine *m)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);
	const char *why;
	int k;

	if (!r || !matrix_row(r))
		return "not a filesystem of the table the matrix runs on";
	why = mx_assumed_world(rw, fstype);
	if (why)
		return why;
	for (k = 0; k < VT_SYSCTL__COUNT; k++)
		rw->sysctl_orig[k] = rw->sysctl_cur[k] = m->sysctl[k];
	rw->sysctl_allowed = m->allowed;
	rw->cap_full = (1ULL << (TABLE_CAP_LAST + 1)) - 1;
	rw->bset_init = rw->cap_full & ~m->bset_drop;
	rw->overflowuid = rw->overflowgid = 65534;
	rw->no_lease[0] = 0;
	rw->no_exec[0] = 0;
	rw->suid_dumpable = 0;	/* the kernel's default (2, systemd's, decides the same) */
	if (rw->optowner)
		return NULL;	/* no ACLs, whiteouts or dedupe: mx_assumed_world */
	/* the overlay world's erofs lower layer: made where the table lets
	 * mkfs.erofs read a tree of the filesystem (mx_erofs_setup) */
	mx_erofs_assume(&rw->ovl_erofs, fstype);
	rw->posixacl = (r->supports & VT_FSF_POSIX_ACL) && (acl || !acl_by_option(r));
	rw->no_whiteout[0] = rw->no_dedupe[0] = 0;
	if (!(r->supports & VT_FSF_WHITEOUT))
		snprintf(rw->no_whiteout, sizeof(rw->no_whiteout),
			 "%s has no RENAME_WHITEOUT (lib/fs/fs_table.c)", fstype);
	if (!(r->supports & VT_FSF_DEDUPE))
		snprintf(rw->no_dedupe, sizeof(rw->no_dedupe),
			 "%s has no ->remap_file_range (lib/fs/fs_table.c)", fstype);
	return NULL;
}

/* RW on a kernel without cachestat(2): what mx_world_setup()'s probe
 * (world_setup.c probe_cachestat) finds there, ENOSYS. */
static void no_cachestat_world(struct mx_world *rw)
{
	snprintf(rw->no_cachestat, sizeof(rw->no_cachestat),
		 "cachestat(2) as root on the plain mount: ENOSYS (a kernel without it is assumed)");
}

/* The last component of PATH. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Whether expunge file FILE applies to FSTYPE by default: ./check applies
 * expunge/<fstype> to runs on it (common/tests.sh); a file named after
 * no filesystem of the table to every world. */
static bool file_applies(const char *file, const char *fstype)
{
	return strcmp(base_name(file), fstype) == 0 || !vt_fs_row(base_name(file));
}

/* World number I of the table (the order the table is written in): its
 * space, assumed world and expunge list. For each machine, each
 * filesystem of the table the matrix runs on (for a row whose ACLs need
 * the option acl: without and with it), without and with each expunge
 * file that applies to it. 1: there is one; 0: I is past the last; -1:
 * an expunge file cannot be read. */
static int table_world_of(int i, bool no_cachestat, const struct mx_space *space,
			  const struct mx_space *fat_space, char **files, int nfiles,
			  const struct mx_space **sp, struct mx_world *rw, struct vt_expunges *x,
			  char *what, size_t whatlen, int *count);

/* World number I of the table: first every world of the machines with
 * cachestat(2), then each of them again on a kernel without it (before
 * 6.5, Debian 12's own 6.1, or CONFIG_CACHESTAT_SYSCALL off, which
 * tinyconfig's EXPERT does): matrix/013's cachestat cases are then
 * notrun, so the candidates differ. The worlds without come after, so
 * that the numbers of the others do not move. Returns as
 * table_world_of(). */
static int table_world(int i, const struct mx_space *space, const struct mx_space *fat_space,
		       char **files, int nfiles, const struct mx_space **sp, struct mx_world *rw,
		       struct vt_expunges *x, char *what, size_t whatlen)
{
	int n = 0, r = table_world_of(i, false, space, fat_space, files, nfiles, sp, rw, x, what,
				      whatlen, &n);

	if (r != 0)
		return r;
	return table_world_of(i - n, true, space, fat_space, files, nfiles, sp, rw, x, what,
			      whatlen, &n);
}

/* The table's world number I of the machines with (NO_CACHESTAT false)
 * or without cachestat(2). *COUNT: how many there are, when I is past the
 * last (0 returned). */
static int table_world_of(int i, bool no_cachestat, const struct mx_space *space,
			  const struct mx_space *fat_space, char **files, int nfiles,
			  const struct mx_space **sp, struct mx_world *rw, struct vt_expunges *x,
			  char *what, size_t whatlen, int *count)
{
	const int nm = (int)(sizeof(table_machines) / sizeof(table_machines[0]));
	const struct table_machine *m = NULL;
	const struct vt_fs_row *r = NULL;
	int mi, e = -1, acl = 0, n = 0;
	size_t ri;

	for (mi = 0; mi < nm && !m; mi++)
		for (ri = 0; ri < vt_fs_table_count && !m; ri++) {
			if (!matrix_row(&vt_fs_table[ri]))
				continue;
			for (acl = 0; acl <= (int)acl_by_option(&vt_fs_table[ri]) && !m; acl++)
				for (e = -1; e < nfiles && !m; e++) {
					if (e >= 0 && !file_applies(files[e], vt_fs_table[ri].name))
						continue;
					if (n++ == i) {
						m = &table_machines[mi];
						r = &vt_fs_table[ri];
					}
				}
		}
	if (!m) {
		*count = n;
		return 0;
	}
	acl--;
	e--;
	if (fs_world(rw, r->name, acl, m))
		return -1;
	if (no_cachestat)
		no_cachestat_world(rw);
	*sp = rw->optowner ? fat_space : space;
	memset(x, 0, sizeof(*x));
	if (e >= 0 && load_expunge_file(files[e], x) < 0)
		return -1;
	snprintf(what, whatlen, "%s%s on the %s (fs.protected_symlinks/hardlinks/fifos/regular="
		 "%d/%d/%d/%d%s, bounding set %#llx)%s%s", r->name, acl ? " -o acl" : "", m->what,
		 m->sysctl[0], m->sysctl[1], m->sysctl[2], m->sysctl[3],
		 m->allowed ? ", VT_ALLOW_SYSCTL=1" : "", (unsigned long long)rw->bset_init,
		 e >= 0 ? ", expunged: " : "", e >= 0 ? files[e] : "");
	if (no_cachestat) {
		size_t l = strlen(what);

		snprintf(what + l, whatlen - l, ", without cachestat(2)");
	}
	return 1;
}

/* PATH in a C comment: no comment's end in it. */
static void put_comment_text(FILE *fp, const char *s)
{
	for (; *s; s++)
		fputc(*s == '*' && s[1] == '/' ? '?' : *s, fp);
}

/* The sample computation of the table's entries, shared by the
 * processes that compute them. */
struct group_job {
	const struct mx_space *space, *fat_space;
	char **expunge_files;
	int nexpunge_files;
	const struct mx_sample_key *keys;
	const int *first;	/* an entry's first world */
	int nent;
	int **sels;		/* out: an entry's sample, */
	int *nsel;		/* its size */
	char **notes;		/* and its note */
};

/* Computes the entries of the model world of entry LEAD (LEAD and every
 * later entry of the same model, sharing one row cache) and writes each
 * to OUT as: entry, sample size, note length, note, sample. 0 or -1. */
static int compute_group(const struct group_job *g, int lead, FILE *out)
{
	static char note[1200], what[1200];
	int *sel = malloc(sizeof(int) * ((size_t)g->space->total + (size_t)g->fat_space->total + 1));
	struct mx_row_cache rc;
	int e, rc_err = 0;

	if (!sel)
		return -1;
	memset(&rc, 0, sizeof(rc));
	for (e = lead; e < g->nent && !rc_err; e++) {
		const struct mx_space *sp;
		struct vt_expunges x;
		struct mx_world rw;
		int n;
		size_t len;

		if (!same_model(&g->keys[g->first[e]], &g->keys[g->first[lead]]))
			continue;
		if (table_world(g->first[e], g->space, g->fat_space, g->expunge_files,
				g->nexpunge_files, &sp, &rw, &x, what, sizeof(what)) != 1) {
			rc_err = 1;
			break;
		}
		n = compute_cached(&rw, sp, &x, sel, note, sizeof(note), &rc);
		if (n < 0) {
			fprintf(stderr, "sample table: %s\n", note);
			rc_err = 1;
			break;
		}
		len = strlen(note);
		if (fwrite(&e, sizeof(e), 1, out) != 1 || fwrite(&n, sizeof(n), 1, out) != 1 ||
		    fwrite(&len, sizeof(len), 1, out) != 1 || fwrite(note, 1, len, out) != len ||
		    fwrite(sel, sizeof(int), (size_t)n, out) != (size_t)n)
			rc_err = 1;
	}
	mx_row_cache_free(&rc);
	free(sel);
	if (fflush(out) || ferror(out))
		rc_err = 1;
	return rc_err ? -1 : 0;
}

/* Reads what compute_group() wrote to IN into G. 0 or -1. */
static int read_group(const struct group_job *g, FILE *in)
{
	int e, n;
	size_t len;

	rewind(in);
	while (fread(&e, sizeof(e), 1, in) == 1) {
		if (e < 0 || e >= g->nent || g->sels[e] || fread(&n, sizeof(n), 1, in) != 1 ||
		    n < 0 || fread(&len, sizeof(len), 1, in) != 1 || len >= 1200)
			return -1;
		if (!(g->notes[e] = calloc(1, len + 1)) ||
		    !(g->sels[e] = malloc(sizeof(int) * ((size_t)n + 1))) ||
		    fread(g->notes[e], 1, len, in) != len ||
		    fread(g->sels[e], sizeof(int), (size_t)n, in) != (size_t)n)
			return -1;
		g->nsel[e] = n;
	}
	return ferror(in) ? -1 : 0;
}

/* A child's end: its pid and *STATUS, or 0 after 100 ms without one
 * (then, ten seconds after the last line in *SAID, a line that says how
 * far the table is, so that a build never sits silent that long). */
static pid_t wait_a_while(int *status, const struct timespec *t0, struct timespec *said, int done,
			  int ngroups, int nrun)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	struct timespec t;
	pid_t pid = waitpid(-1, status, WNOHANG);

	if (pid != 0)
		return pid;
	nanosleep(&tick, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t);
	if (t.tv_sec - said->tv_sec >= 10) {
		*said = t;
		fprintf(stderr, "sample table: %d/%d model worlds done, %d being computed (%ld s)\n",
			done, ngroups, nrun, (long)(t.tv_sec - t0->tv_sec));
	}
	return 0;
}

/* The model worlds' samples computed in up to as many processes as
 * there are online CPUs (VT_SAMPLE_TABLE_JOBS=N: N), each model world in
 * one process (its entries share their row cache), with a line on
 * standard error as each one ends: the whole takes about two minutes of
 * CPU, and make shows nothing else meanwhile. The table is the same
 * whatever the number of processes: each entry's sample depends on its
 * world alone. 0 or -1. */
static int group_pool(const struct group_job *g)
{
	enum { MAXJOBS = 64 };
	struct {
		pid_t pid;
		int lead;
		FILE *f;
		struct timespec start;
	} run[MAXJOBS];
	int lead[256], ngroups = 0, done = 0, next = 0, nrun = 0, jobs, i, e, bad = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	const char *env = getenv("VT_SAMPLE_TABLE_JOBS");
	struct timespec t0, t, said;

	jobs = env && *env ? atoi(env) : cpus > 0 ? (int)cpus : 1;
	if (jobs < 1 || jobs > MAXJOBS) {
		fprintf(stderr, "sample table: VT_SAMPLE_TABLE_JOBS=%s: not a number from 1 to %d\n",
			env ? env : "", MAXJOBS);
		return -1;
	}
	for (e = 0; e < g->nent; e++) {
		for (i = 0; i < ngroups && !same_model(&g->keys[g->first[lead[i]]],
						       &g->keys[g->first[e]]); i++)
			;
		if (i == ngroups) {
			if (ngroups == (int)(sizeof(lead) / sizeof(lead[0])))
				return -1;
			lead[ngroups++] = e;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	said = t0;
	fprintf(stderr, "sample table: %d samples of %d model worlds, %d at a time\n", g->nent,
		ngroups, jobs);
	while ((done < ngroups || nrun) && !(bad && !nrun)) {
		int status;
		pid_t pid;

		while (!bad && next < ngroups && nrun < jobs) {
			FILE *f = tmpfile();

			if (!f) {
				perror("sample table: tmpfile");
				bad = 1;
				break;
			}
			fflush(NULL);
			pid = fork();
			if (pid < 0) {
				perror("sample table: fork");
				fclose(f);
				bad = 1;
				break;
			}
			if (pid == 0)
				_exit(compute_group(g, lead[next], f) ? 1 : 0);
			run[nrun].pid = pid;
			run[nrun].lead = next++;
			run[nrun].f = f;
			clock_gettime(CLOCK_MONOTONIC, &run[nrun].start);
			nrun++;
		}
		if (!nrun)
			break;
		pid = wait_a_while(&status, &t0, &said, done, ngroups, nrun);
		if (pid == 0)
			continue;
		if (pid < 0) {
			perror("sample table: wait");
			return -1;
		}
		for (i = 0; i < nrun && run[i].pid != pid; i++)
			;
		if (i == nrun)
			continue;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || read_group(g, run[i].f) < 0) {
			fprintf(stderr, "sample table: the model world of entry %d failed\n",
				lead[run[i].lead]);
			bad = 1;
		}
		fclose(run[i].f);
		done++;
		clock_gettime(CLOCK_MONOTONIC, &t);
		said = t;
		fprintf(stderr, "sample table: %d/%d model worlds done (%ld s; that of entry %d "
			"took %ld s)\n", done, ngroups, (long)(t.tv_sec - t0.tv_sec),
			lead[run[i].lead], (long)(t.tv_sec - run[i].start.tv_sec));
		run[i] = run[--nrun];
	}
	for (e = 0; !bad && e < g->nent; e++)
		if (!g->sels[e])
			bad = 1;
	return bad ? -1 : 0;
}

int mx_sample_table_write(FILE *fp, const struct mx_space *space, const struct mx_space *fat_space,
			  char **expunge_files, int nexpunge_files)
{
	static char note[1200], what[1200];
	int *sel = malloc(sizeof(int) * ((size_t)space->total + (size_t)fat_space->total + 1));
	enum { MAXW = 256 };
	static struct mx_sample_key keys[MAXW];
	static char *whats[MAXW];
	static int entry_of[MAXW], shared[MAXW], first[MAXW], nsel[MAXW];
	static int *sels[MAXW];
	static char *notes[MAXW];
	int nw, nent = 0, i, j, r;

	if (!sel || !mx_linked_model_hash)
		return -1;
	fprintf(fp, "/* Made by make (tests/matrix/local.mk): tests/matrix/011-gen --sample-table;\n"
		    " * the quick sample of each world of lib/matrix/sample_table.c. Do not edit. */\n"
		    "#include \"matrix/sample_table.h\"\n\n");
	/* the worlds' keys; a world whose key an earlier one has shares its
	 * sample (the choice depends on the key alone) */
	for (nw = 0;; nw++) {
		const struct mx_space *sp;
		struct vt_expunges x;
		struct mx_world rw;

		r = table_world(nw, space, fat_space, expunge_files, nexpunge_files, &sp, &rw, &x,
				what, sizeof(what));
		if (r == 0)
			break;
		if (r < 0 || nw == MAXW || make_key(&rw, sp, &x, &keys[nw]) < 0 ||
		    !(whats[nw] = strdup(what)))
			return -1;
		for (j = 0; j < nw && !same_key(&keys[j], &keys[nw]); j++)
			;
		if (j < nw) {
			entry_of[nw] = entry_of[j];
			shared[entry_of[j]]++;
		} else {
			entry_of[nw] = nent;
			shared[nent++] = 0;
		}
	}
	/* the samples, the entries of one model world together so that
	 * they share the rows of the cover (the costly part); the model
	 * worlds side by side, one process each (group_pool) */
	for (i = 0; i < nent; i++)
		for (j = 0; j < nw; j++)
			if (entry_of[j] == i) {
				first[i] = j;
				break;
			}
	{
		struct group_job job = { space, fat_space, expunge_files, nexpunge_files, keys,
					 first, nent, sels, nsel, notes };

		if (group_pool(&job) < 0)
			return -1;
	}
	for (i = 0; i < nent; i++) {
		fprintf(fp, "/* entry %d, the sample of:\n", i);
		for (j = first[i]; j < nw; j++)
			if (entry_of[j] == i) {
				fprintf(fp, " *   ");
				put_comment_text(fp, whats[j]);
				fprintf(fp, "\n");
			}
		fprintf(fp, " */\nstatic const int sel%d[] = {", i);
		for (j = 0; j < nsel[i]; j++)
			fprintf(fp, "%s%d", !j ? "\n\t" : j % 12 ? ", " : ",\n\t", sels[i][j]);
		fprintf(fp, "\n};\nstatic const char note%d[] = ", i);
		put_string(fp, notes[i]);
		fprintf(fp, ";\nstatic const char what%d[] = ", i);
		snprintf(note, sizeof(note), "%s%s", whats[first[i]],
			 shared[i] ? " and the worlds sharing its sample" : "");
		put_string(fp, note);
		fprintf(fp, ";\n\n");
		free(sels[i]);
		free(notes[i]);
	}
	fprintf(fp, "static const struct mx_sample_entry entries[] = {\n");
	for (i = 0; i < nw; i++) {
		const struct mx_sample_key *k = &keys[i];

		for (j = 0; j < i && entry_of[j] != entry_of[i]; j++)
			;
		if (j < i)
			continue;
		fprintf(fp, "\t{ { %d, %d, { %d, %d, %d, %d }, %uu, %uu, %#llxULL, %#llxULL,\n"
			"\t    %d, %d, %#x, %d, %d, %#llxULL },\n\t  sizeof(sel%d) / sizeof(int), sel%d, note%d, what%d },\n",
			k->fat, k->posixacl, k->sysctl[0], k->sysctl[1], k->sysctl[2], k->sysctl[3],
			k->overflowuid, k->overflowgid, (unsigned long long)k->bset_init,
			(unsigned long long)k->cap_full, k->suid_dump_user, k->raw_acl,
			k->ovl_upper_lacks, k->total, k->nrun,
			(unsigned long long)k->run_hash, entry_of[i], entry_of[i], entry_of[i],
			entry_of[i]);
	}
	fprintf(fp, "};\n\nstatic const struct mx_sample_table table = {\n\t\"%s\", %d, entries\n};\n\n"
		"static void __attribute__((constructor)) link_table(void)\n{\n"
		"\tmx_linked_sample_table = &table;\n}\n", mx_linked_model_hash, nent);
	fprintf(stderr, "sample table: %d worlds, %d samples computed\n", nw, nent);
	for (i = 0; i < nw; i++)
		free(whats[i]);
	free(sel);
	return ferror(fp) ? -1 : 0;
}

/* Same size, cases and note. */
static bool same_sample(const int *a, int na, const char *nota, const int *b, int nb, const char *notb)
{
	return na == nb && na >= 0 && memcmp(a, b, sizeof(int) * (size_t)na) == 0 &&
	       strcmp(nota, notb) == 0;
}

int mx_sample_table_check(const struct mx_space *space, const struct mx_space *fat_space,
			  char **expunge_files, int nexpunge_files, const int *which, int nwhich)
{
	static char note[1200], note2[1200], what[1200];
	size_t cap = (size_t)space->total + (size_t)fat_space->total + 1;
	int *sel = malloc(sizeof(int) * cap), *sel2 = malloc(sizeof(int) * cap);
	int i, n, n2, bad = 0, tested = 0, r;
	const char *how, *saved = mx_linked_model_hash;

	static char without_mut[600];

	if (!sel || !sel2)
		return 2;
	/* VT_SAMPLE_WITHOUT_MUTANT: tried on the first world only */
	snprintf(without_mut, sizeof(without_mut), "%s",
		 getenv("VT_SAMPLE_WITHOUT_MUTANT") ? getenv("VT_SAMPLE_WITHOUT_MUTANT") : "");
	unsetenv("VT_SAMPLE_WITHOUT_MUTANT");
	unsetenv("VT_SAMPLE_WITHOUT");
	unsetenv("VT_SAMPLE_COMPUTE");
	if (!mx_linked_sample_table) {
		printf("not ok: this program has no build-time table\n");
		return 1;
	}
	for (i = 0;; i++) {
		const struct mx_space *sp;
		struct vt_expunges x;
		struct mx_world rw;
		int w;

		r = table_world(i, space, fat_space, expunge_files, nexpunge_files, &sp, &rw, &x, what,
				sizeof(what));
		if (r == 0)
			break;
		if (r < 0)
			return 2;
		for (w = 0; w < nwhich && which[w] != i; w++)
			;
		if (nwhich && w == nwhich)
			continue;
		tested++;
		n = mx_sample_for_world(&rw, sp, &x, sel, note, sizeof(note), &how);
		n2 = compute(&rw, sp, &x, sel2, note2, sizeof(note2));
		if (strncmp(how, "from the build-time table", 25) != 0 ||
		    !same_sample(sel, n, note, sel2, n2, note2)) {
			printf("not ok: world %d (%s): the table's sample (%d cases, %s) is not the one "
			       "computed (%d cases)\n", i, what, n, how, n2);
			bad = 1;
		} else {
			printf("ok: world %d (%s): the table's sample is the computed one (%d cases)\n", i,
			       what, n);
		}
		if (tested > 1)
			continue;
		/* the guards, on the first world tested: a table made from other
		 * sources is not used; a sample with cases left out is computed */
		mx_linked_model_hash = "a-model-this-table-was-not-made-from";
		n = mx_sample_for_world(&rw, sp, &x, sel, note, sizeof(note), &how);
		mx_linked_model_hash = saved;
		if (!strstr(how, "made from other sources") || !same_sample(sel, n, note, sel2, n2, note2)) {
			printf("not ok: a table made from other sources was used (%s)\n", how);
			bad = 1;
		} else {
			printf("ok: a table made from other sources is not used: %s\n", how);
		}
		if (!without_mut[0])
			continue;
		setenv("VT_SAMPLE_WITHOUT_MUTANT", without_mut, 1);
		n = mx_sample_for_world(&rw, sp, &x, sel, note, sizeof(note), &how);
		unsetenv("VT_SAMPLE_WITHOUT_MUTANT");
		if (!strstr(how, "VT_SAMPLE_WITHOUT_MUTANT") || n < 0 ||
		    same_sample(sel, n, note, sel2, n2, note2)) {
			printf("not ok: VT_SAMPLE_WITHOUT_MUTANT did not change the sample (%s)\n", how);
			bad = 1;
		} else {
			printf("ok: VT_SAMPLE_WITHOUT_MUTANT gives another sample (%d cases), %s\n", n, how);
		}
	}
	if (!tested) {
		printf("not ok: no world of the table was tested\n");
		bad = 1;
	}
	free(sel);
	free(sel2);
	return bad;
}

/* The space of FAMS in its option-owner form into FAT (families they cannot hold
 * leave it). */
static void optowner_space(const struct vt_family *const *fams, int nfam, const struct vt_family **fat,
		       struct mx_space *sp)
{
	const char *why;
	int i, n = 0;

	for (i = 0; i < nfam; i++)
		if ((fat[n] = vt_optowner_family(fams[i], &why)))
			n++;
	*sp = (struct mx_space){ fat, n, 0, { 0 } };
	for (i = 0; i < n; i++) {
		sp->base[i] = sp->total;
		sp->total += vt_family_ncases(fat[i]);
	}
}

/* --sample-table EXPUNGE_FILE...: the build-time table (sample_table.h)
 * as C, on stdout. SP: the space of the owners-in-inode families. */
int mx_sample_table_main(const struct mx_space *sp, int nfiles, char **files)
{
	const struct vt_family *fat[16];
	struct mx_space fsp;

	/* the table holds the plain choice: nothing left out, no break */
	unsetenv("VT_SAMPLE_WITHOUT");
	unsetenv("VT_SAMPLE_WITHOUT_MUTANT");
	unsetenv("VT_SAMPLE_COMPUTE");
	optowner_space(sp->fams, sp->nfam, fat, &fsp);
	if (mx_sample_table_write(stdout, sp, &fsp, files, nfiles) < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "vfsidmap: --sample-table failed\n");
		return 2;
	}
	return 0;
}

/* --check-sample-table [--world N]... EXPUNGE_FILE...: the table against
 * the computed samples (mx_sample_table_check()). */
int mx_sample_table_check_main(const struct mx_space *sp, int argc, char **argv)
{
	const struct vt_family *fat[16];
	struct mx_space fsp;
	int which[64], nwhich = 0;

	while (argc >= 2 && strcmp(argv[0], "--world") == 0 && nwhich < 64) {
		which[nwhich++] = atoi(argv[1]);
		argc -= 2;
		argv += 2;
	}
	optowner_space(sp->fams, sp->nfam, fat, &fsp);
	return mx_sample_table_check(sp, &fsp, argv, argc, which, nwhich);
}

/* --sample-source: where the sample of a described world would come
 * from (sample_table.h), without computing it. */
int mx_sample_source_main(const struct mx_space *sp, int argc, char **argv)
{
	const struct vt_family *fat[16];
	const struct mx_sample_table *t = mx_linked_sample_table;
	struct mx_space fsp;
	struct table_machine m = { { 0, 0, 0, 0 }, 0, 0, "machine described" };
	struct mx_sample_key k;
	struct vt_expunges x;
	struct mx_world rw;
	const char *fstype = NULL, *file = NULL, *why;
	static char d[600];
	int i, nd, best = 1 << 30, near = -1, acl = 0, protected = 0, no_cachestat = 0;

	for (i = 0; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		char end;

		if (strcmp(argv[i], "--fs") == 0 && v) {
			fstype = v;
			i++;
		} else if (strcmp(argv[i], "--acl") == 0) {
			acl = 1;
		} else if (strcmp(argv[i], "--allow-sysctl") == 0) {
			m.allowed = 1;
		} else if (strcmp(argv[i], "--no-cachestat") == 0) {
			no_cachestat = 1;
		} else if (strcmp(argv[i], "--protected") == 0 && v &&
			   sscanf(v, "%d,%d,%d,%d%c", &m.sysctl[0], &m.sysctl[1], &m.sysctl[2],
				  &m.sysctl[3], &end) == 4) {
			protected = 1;
			i++;
		} else if (strcmp(argv[i], "--bset-drop") == 0 && v &&
			   sscanf(v, "%" SCNx64 "%c", &m.bset_drop, &end) == 1) {
			i++;
		} else if (strcmp(argv[i], "--expunge") == 0 && v) {
			file = v;
			i++;
		} else {
			fprintf(stderr, "vfsidmap: usage: --sample-source --fs FSTYPE [--acl] --protected "
				"S,H,F,R [--allow-sysctl] [--bset-drop HEX] [--no-cachestat] [--expunge FILE]\n");
			return 2;
		}
	}
	if (!fstype || !protected) {
		fprintf(stderr, "vfsidmap: --sample-source needs --fs and --protected\n");
		return 2;
	}
	unsetenv("VT_SAMPLE_WITHOUT");
	unsetenv("VT_SAMPLE_WITHOUT_MUTANT");
	unsetenv("VT_SAMPLE_COMPUTE");
	why = fs_world(&rw, fstype, acl, &m);
	if (why) {
		fprintf(stderr, "vfsidmap: --sample-source: %s: %s\n", fstype, why);
		return 2;
	}
	if (no_cachestat)
		no_cachestat_world(&rw);
	/* what a run takes from the filesystem table instead of trying it
	 * (mx_erofs_setup asks the same), applied here on its own: a
	 * fs_world() that forgets a fact a run has then misses the table */
	mx_erofs_assume(&rw.ovl_erofs, fstype);
	optowner_space(sp->fams, sp->nfam, fat, &fsp);
	memset(&x, 0, sizeof(x));
	if ((file && load_expunge_file(file, &x) < 0) ||
	    make_key(&rw, rw.optowner ? &fsp : sp, &x, &k) < 0)
		return 2;
	if (!t || !mx_linked_model_hash || strcmp(t->model_hash, mx_linked_model_hash) != 0) {
		printf("# sample computed at run time (no build-time table of these sources)\n");
		return 1;
	}
	for (i = 0; i < t->n; i++) {
		if (same_key(&t->e[i].key, &k)) {
			printf("# sample from the build-time table (tests/matrix/011-table.c): %d of %d "
			       "cases (%d candidates), made for %s\n", t->e[i].n, k.total, k.nrun,
			       t->e[i].what);
			return 0;
		}
		nd = key_diff(&k, &t->e[i].key, d, sizeof(d));
		if (nd < best) {
			best = nd;
			near = i;
		}
	}
	printf("# sample computed at run time (this world is not in the build-time table; %d "
	       "candidates of %d cases)\n", k.nrun, k.total);
	if (near >= 0) {
		key_diff(&k, &t->e[near].key, d, sizeof(d));
		printf("# nearest, %s: %s\n", t->e[near].what, d);
	}
	return 1;
}

/* --list-sample: the sample's case names (as --list-cases names them) in
 * the world a default mount of FSTYPE gives on this machine
 * (mx_assumed_world(); VT_EXPUNGE read as a run reads it); how it was
 * chosen on stderr. */
int mx_list_sample(const struct mx_space *sp, const char *fstype)
{
	static char nm[512], note[600];
	struct mx_world w;
	struct vt_expunges x;
	const char *why = mx_assumed_world(&w, fstype), *how = NULL;
	int *sel = calloc((size_t)sp->total + 1, sizeof(int)), n, i;

	if (why || !sel) {
		fprintf(stderr, "vfsidmap: --list-sample: %s\n", why ? why : "out of memory");
		return 2;
	}
	if (vt_expunges_load(&x, note, sizeof(note)) < 0) {
		fprintf(stderr, "vfsidmap: --list-sample: %s\n", note);
		free(sel);
		return 2;
	}
	n = mx_sample_for_world(&w, sp, &x, sel, note, sizeof(note), &how);
	if (n < 0) {
		fprintf(stderr, "vfsidmap: --list-sample: %s\n", note);
		return 2;
	}
	for (i = 0; i < n; i++) {
		int idx;
		const struct vt_family *f = mx_space_case(sp, sel[i], &idx);

		mx_case_name(f, idx, nm, sizeof(nm));
		puts(nm);
	}
	fprintf(stderr, "# %s\n# sample %s\n", note, how);
	free(sel);
	return fflush(stdout) == 0 ? 0 : 2;
}
