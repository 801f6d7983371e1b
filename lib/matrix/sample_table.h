/* The quick sample's choice made at build time (sample_table.c): make
 * runs the set cover of sample_choice.c for the worlds listed there and
 * links the result into tests/matrix/011, so that a run does not re-run
 * the model for every mutant. A world missing from the table, or a table
 * made from other sources than the program's own, is never used: the
 * sample is then computed as before. Internal to lib/matrix. */
#ifndef VT_MX_SAMPLE_TABLE_H
#define VT_MX_SAMPLE_TABLE_H

#include "matrix/case_model.h"
#include "testlib/expunge_list.h"

#include <stdint.h>
#include <stdio.h>

/* Everything of a world the sample's choice depends on (besides the
 * model's code, named by the sources' hash): which cases are candidates
 * (those mx_case_skip() lets run and the expunge list keeps: whatever
 * fact of the filesystem, mount or machine took the others out), and
 * what the model world of each case reads (case_model.c model_world():
 * POSIX ACLs, the option-owner filesystem, the fs.protected_* values,
 * the overflow ids, the bounding set, fs.suid_dumpable). Two worlds with the same key get
 * the same sample from mx_choose_sample(). */
struct mx_sample_key {
	int fat, posixacl;
	int sysctl[VT_SYSCTL__COUNT];
	uint32_t overflowuid, overflowgid;
	uint64_t bset_init, cap_full;
	int suid_dump_user;	/* fs.suid_dumpable == 1 (SUID_DUMP_USER): 0 and 2 give the same exec outcomes */
	int raw_acl;		/* vt_fs_lists_raw_acl(): the overlay copy-up's ACLs (xfs) */
	/* VT_FSF_WHITEOUT and VT_FSF_TMPFILE bits the filesystem's row
	 * lacks: what the overlay model's upper layer falls back from
	 * (case_model.c: upper_no_whiteout, upper_no_tmpfile; ntfs3) */
	int ovl_upper_lacks;
	int total;		/* cases in the space */
	int nrun;		/* of them candidates: not skipped, not expunged */
	uint64_t run_hash;	/* FNV-1a of their indexes, ascending */
};

struct mx_sample_entry {
	struct mx_sample_key key;
	int n;			/* the sample's size */
	const int *sel;		/* its cases (indices in the space), ascending */
	const char *note;	/* what mx_choose_sample() said about it */
	const char *what;	/* the table's world it was made for (and how many others share it) */
};

struct mx_sample_table {
	const char *model_hash;	/* vt_sample_model_hash of the generating program */
	int n;
	const struct mx_sample_entry *e;
};

/* Set before main() by the files make writes for tests/matrix/011 and
 * 011-gen, NULL in every other program: the hash of the sources the model
 * and the case space are built from (011-hash.c), and the table
 * (011-table.c, in matrix/011 only). */
extern const char *mx_linked_model_hash;
extern const struct mx_sample_table *mx_linked_sample_table;

/* The quick sample for world RW: from the build-time table where it holds
 * this world and was made from these sources, else computed. *HOW says
 * which, and why not the table. Returns the size, or -1 (NOTE says why). */
int mx_sample_for_world(const struct mx_world *rw, const struct mx_space *sp,
			const struct vt_expunges *x, int *sel, char *note, size_t notelen,
			const char **how);

/* The table's C source for the worlds of sample_table.c (every
 * filesystem of the table the matrix runs on, on each machine listed
 * there, with and without the expunge files named after it), to FP.
 * SPACE and FAT_SPACE: the program's case space and its option-owner form.
 * 0, or -1 with a message on stderr. */
int mx_sample_table_write(FILE *fp, const struct mx_space *space, const struct mx_space *fat_space,
			  char **expunge_files, int nexpunge_files);

/* make check's proof (unit/test-sample-table.sh): for the table's worlds
 * numbered in WHICH (all if NWHICH is 0), the sample the table gives is
 * the one computed; on the first of them, a table made from other sources
 * is not used, and VT_SAMPLE_WITHOUT_MUTANT (if set) computes another
 * sample. Prints "ok: ..." / "not ok: ..." lines; 0, 1 (some not ok) or 2. */
int mx_sample_table_check(const struct mx_space *space, const struct mx_space *fat_space,
			  char **expunge_files, int nexpunge_files, const int *which, int nwhich);

/* tests/matrix/011's options (driver.c vt_matrix_sample_main(); SP: the
 * space of the owners-in-inode families, FSTYP unset): --sample-table
 * EXPUNGE_FILE... writes the table's C source; --check-sample-table
 * [--world N]... EXPUNGE_FILE... is mx_sample_table_check(). Exit codes. */
int mx_sample_table_main(const struct mx_space *sp, int nfiles, char **files);
int mx_sample_table_check_main(const struct mx_space *sp, int argc, char **argv);
/* --list-sample [--fs FSTYPE]: the sample's cases in the world a default
 * mount of FSTYPE gives here (SP: that fs's space). Exit code. */
int mx_list_sample(const struct mx_space *sp, const char *fstype);
/* --sample-source --fs FSTYPE [--acl] --protected S,H,F,R [--allow-sysctl]
 * [--bset-drop HEX] [--no-cachestat] [--expunge FILE]: whether the sample
 * of the world a default mount of FSTYPE (mounted with acl) gives on a
 * machine with those fs.protected_* values, VT_ALLOW_SYSCTL, bounding set
 * and kernel (without cachestat(2): before 6.5) (and
 * cap_last_cap 40, default overflow ids, fs.leases-enable 1) comes from
 * the build-time table; computes nothing. SP: as for --sample-table.
 * Prints "# sample ..." as a run would; 0 from the table, 1 not, 2 bad use. */
int mx_sample_source_main(const struct mx_space *sp, int argc, char **argv);

#endif
