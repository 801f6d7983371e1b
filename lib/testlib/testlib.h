/* The library a test program is written against.
 *
 * A test is a table of cases. The library owns everything around them:
 * it checks the environment (root, TEST_DIR from the runner), gives each
 * case a fresh directory, runs each case in its own child so that a crash
 * fails that case only, prints KTAP and sets the exit status the runner
 * reads (0 pass, 1 fail, 4 notrun; kselftest's KSFT_SKIP). A case body
 * reads as the scenario: build the world, act as a caller, assert. */
#ifndef VT_TESTLIB_H
#define VT_TESTLIB_H

#include "fs/fs_table.h"
#include "report/ktap.h"
#include "testlib/simple_ops.h"
#include "util/errname.h"
#include "world/caller.h"
#include "world/fsimage.h"
#include "world/idmap_spec.h"
#include "world/idmapped_mount.h"
#include "world/userns.h"
#include "world/fs_features.h"
#include "model/world_model.h"

#include <stdbool.h>
#include <sys/types.h>

#define VT_EXIT_PASS 0
#define VT_EXIT_FAIL 1
#define VT_EXIT_NOTRUN 4
#define VT_EXIT_OUTPUT 3 /* stdout (the KTAP) could not be written */

struct vt_ctx {
	const char *fstype;	/* FSTYP of the filesystem under test */
	const char *test_dir;	/* its mount point (TEST_DIR) */
	char dir[4096];		/* this case's own directory, empty, mode 0755 */
	struct vt_ktap *ktap;
	int failures;
	bool skipped;
	char skip_reason[512];
	char scene[1024];	/* what the world is, for failure messages */
	/* Owners come from mount options (the filesystem table's
	 * VT_OWNER_MOUNT_OPTIONS: vfat, msdos, exfat); worlds with owners
	 * are then mounts made by vt_owned_dir. */
	bool option_owners;
	bool optowner_images;	/* vt_owned_dir mounted its images' tmpfs */
	/* a read-only image: the baked tree is at "<test_dir>/<entry path>"
	 * (world/ro_image.h); dir is on a tmpfs of the library's */
	bool read_only;
};

struct vt_case {
	const char *name;
	void (*run)(struct vt_ctx *ctx);
};

struct vt_test {
	const struct vt_case *cases;
	/* Optional: called once before the cases; returns NULL to go on or a
	 * reason for the whole test to be notrun. */
	const char *(*require)(const char *fstype, const char *test_dir);
	/* Set for tests that do not need idmapped mounts to work on TEST_DIR
	 * (API tests of failure paths); others are notrun when the probe fails. */
	bool no_idmap_probe;
	/* What the test needs of the filesystem, as data (LTP's .needs_*):
	 * where the owners of its files come from (default: files of chosen
	 * owners it writes, VT_FSNEED_OWNED_WORLDS) and the features
	 * (VT_FSF_*) every case uses. The library asks the filesystem table
	 * (vt_fs_unmet) before the cases and gives notrun with the table's
	 * reason: "not for FSTYP: ..." (out of scope) when the filesystem can
	 * never meet it. VT_FSNEED_IMAGE_TREE tests read the tree baked into a
	 * read-only image (world/ro_image.h); their case directories are on
	 * a tmpfs the library mounts over the image's VT_RO_SCRATCH. */
	struct vt_fs_needs needs;
	/* A test that makes a filesystem image of its own (an ext4 made with
	 * -O encrypt) runs once, in the section of FSTYPE; HOW names how it
	 * makes it (vt_own_image_section gives the reason elsewhere). Data,
	 * like .needs: both are decided from the tables alone, so ./check
	 * reads the answers that `PROGRAM --out-of-scope` prints at build
	 * time (tests/out-of-scope.tsv) instead of starting the test. */
	struct {
		const char *fstype, *how;
	} own_image;
};

int vt_test_main(const struct vt_test *t, int argc, char **argv);

/* Describe the world for failure messages (replaces the previous scene). */
void vt_scene(struct vt_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Record a failure: prints "# FAIL: message" plus the scene. */
void vt_fail(struct vt_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Informational line in the KTAP stream. */
void vt_note(struct vt_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Mark the case skipped with a reason; the caller returns right after. */
void vt_skip(struct vt_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define VT_SKIP(ctx, ...)                  \
	do {                               \
		vt_skip((ctx), __VA_ARGS__); \
		return;                    \
	} while (0)

/* Setup that must work for the case to mean anything: on failure the case
 * fails with the step and errno named and the case body returns. */
#define VT_SETUP(ctx, expr, what)                                                         \
	do {                                                                              \
		if ((expr) < 0) {                                                         \
			vt_fail((ctx), "setup: %s failed: %s (%s:%d)", (what),            \
				vt_errname(errno), __FILE__, __LINE__);                   \
			return;                                                           \
		}                                                                         \
	} while (0)

/* Expect errno WANT (0: success) from an operation that gave GOT.
 * RULE names the kernel rule the expectation follows. */
bool vt_expect_errno(struct vt_ctx *ctx, const char *op, int got, int want, const char *rule);

/* Expect PATH (not following a final symlink) to be owned by UID:GID as
 * seen by the test process (the initial user namespace). */
bool vt_expect_owner(struct vt_ctx *ctx, const char *path, uid_t uid, gid_t gid,
		     const char *rule);

/* Expect an integer value. */
bool vt_expect_eq(struct vt_ctx *ctx, const char *what, long long got, long long want,
		  const char *rule);

/* Expect a caller run to have completed (not crashed, credentials assumed):
 * otherwise a failure naming the caller. */
bool vt_expect_ran(struct vt_ctx *ctx, const struct vt_caller *c, const struct vt_run *r);

/* A subdirectory of the case directory: "<ctx->dir>/<name>", created with
 * MODE (after umask 0) and owned by UID:GID. Returns the path in BUF. */
const char *vt_mkdir(struct vt_ctx *ctx, const char *name, mode_t mode, uid_t uid, gid_t gid,
		     char *buf, size_t len);

/* Creates a regular file with MODE owned by UID:GID (path in BUF). */
const char *vt_mkfile(struct vt_ctx *ctx, const char *name, mode_t mode, uid_t uid, gid_t gid,
		      char *buf, size_t len);
/* Both check the result with lstat: a filesystem that cannot hold the
 * owner or the mode (fat, exfat, where chmod may silently keep the old
 * mode: fat_sanitize_mode) fails the setup with what it got. */

/* A directory "<ctx->dir>/<name>" for files owned UID:GID: with mode
 * DMODE, where files made by vt_mkfile (and subdirectories by vt_mkdir)
 * with FMODE (DMODE) and the same owner can exist. On a filesystem that
 * stores owners it is vt_mkdir's directory; on one whose owners come
 * from mount options (vfat, msdos, exfat) it is a filesystem of the same
 * type of the suite's own mounted there with uid=UID,gid=GID,
 * dmask=~DMODE,fmask=~FMODE (optowner_world.h), so such a world's owner is
 * its mount's option ids. Fails the case (NULL) if it cannot be made. */
const char *vt_owned_dir(struct vt_ctx *ctx, const char *name, mode_t dmode, mode_t fmode,
			 uid_t uid, gid_t gid, char *buf, size_t len);
/* The same with mount options of the caller's (owners from mount options
 * only). */
const char *vt_optowner_dir(struct vt_ctx *ctx, const char *name, const char *options, char *buf,
			    size_t len);

/* The errno operation OP gets because the filesystem under test lacks it
 * (fat, exfat: no ->symlink, ->mknod, ->link, ->tmpfile;
 * lib/model/optowner_rules.c),
 * with the rule's text in *RULE; 0 if the filesystem has it. */
int vt_fs_lacks(const struct vt_ctx *ctx, enum vt_mop op, const char **rule);

/* Does the filesystem under test have every feature (VT_FSF_* bits of
 * lib/fs/fs_table.h) the case needs? If not, the case is skipped with
 * the table's reason ("not for FSTYP: ...": out of scope) and false
 * returned; the caller returns. Features every case needs belong in the
 * test's .needs instead. */
bool vt_need_fs(struct vt_ctx *ctx, unsigned int features);

/* For a test that makes a filesystem image of its own (an ext4 made with
 * -O encrypt; struct vt_test's .own_image): whatever the section's
 * filesystem, it runs once, in the section of IMAGE_FSTYPE. NULL there;
 * elsewhere the out-of-scope reason ("not for FSTYPE: ..."), naming HOW it
 * makes it. */
const char *vt_own_image_section(const char *fstype, const char *image_fstype, const char *how);

/* Idmapped bind mount of SOURCE at "<ctx->dir>/<name>" with mapping SPEC.
 * Fails the case (returns NULL) if the mount cannot be made. */
const char *vt_idmapped_at(struct vt_ctx *ctx, const char *source, const char *spec,
			   const char *name, char *buf, size_t len);

/* A tmpfs whose superblock belongs to the user namespace OWNER_NS (mounted
 * from inside it with fsmount()), attached at PATH (an existing directory),
 * on a kernel where tmpfs can be idmapped. Attaching first keeps the later
 * open_tree(OPEN_TREE_CLONE) working before 6.18, which refuses to clone a
 * detached fsmount() mount (__do_loopback: !check_mnt). Returns false when
 * the case was skipped (no tmpfs in a user namespace here, or no tmpfs
 * idmapping: 7a80e5b8c6fa, 6.3) or failed in setup; the caller returns. */
bool vt_userns_tmpfs_at(struct vt_ctx *ctx, int owner_ns, const char *path);

/* Is case NAME expunged (./check -E passes case-level entries in the file
 * named by VT_EXPUNGE, lines "case<TAB>reason")? Then WHY gets
 * "expunged: reason" and the case is reported as a skip, not run. */
bool vt_case_expunged(const char *name, char *why, size_t len);

/* A feature probe, run as the caller and through the path of the operation
 * it guards (never as host root on another mount: the probe would answer a
 * different question). FN returns 0 when the feature is there, else the
 * errno that says it is not. The answer is written to the KTAP stream
 * ("# probe ...: yes/no (ERRNO)"). Returns true when present. */
bool vt_probe_feature(struct vt_ctx *ctx, const char *feature, const struct vt_caller *c,
		      vt_caller_fn fn, void *arg);

#endif
