/* The matrix's shared world: the tree on the filesystem under test (or
 * option-owner worlds), one idmapped mount per map axis, the callers' user
 * namespaces, and what can be tested there. Internal to lib/matrix. */
#ifndef VT_MX_WORLD_SETUP_H
#define VT_MX_WORLD_SETUP_H

#include "matrix/axes.h"
#include "matrix/coverage.h"
#include "matrix/matrix.h"
#include "matrix/ovl_erofs.h"

struct vt_optowner_fs;

#include <stdbool.h>
#include <stdint.h>

struct mx_world {
	const char *fstype;
	char base[4096], disk[4096], p[4200], q[4200];
	char mnt[16][4200];	/* P's parent through each map's mount */
	int ns_fd[VT_NS__COUNT];	/* caller namespaces: -1 (init), ns0, ns1, ns2 */
	bool posixacl;
	/* fs.protected_*: as found, as now, and whether they may change */
	int sysctl_orig[VT_SYSCTL__COUNT], sysctl_cur[VT_SYSCTL__COUNT];
	bool sysctl_allowed;
	uint32_t overflowuid, overflowgid;
	uint64_t bset_init, cap_full;
	int suid_dumpable;	/* fs.suid_dumpable (exec_rules.c: dumpability) */
	char no_whiteout[200];	/* "": RENAME_WHITEOUT works; else why not */
	char no_exec[200];	/* "": setuid exec can be tested; else why not */
	/* matrix/013 (file_rules.c): "": the filesystem has ->fileattr_set
	 * (the fs table's VT_FSF_FILEATTR); "": fs.leases-enable is 1 */
	char no_fileattr[200];
	char no_lease[200];
	/* "": FIDEDUPERANGE reaches may_dedupe_file (->remap_file_range) */
	char no_dedupe[200];
	/* "": a read as root on the plain mount updates an old atime */
	char no_atime[200];
	/* "": cachestat(2) exists (root's call on the plain mount) */
	char no_cachestat[200];
	/* owners from mount options: the worlds of optowner_fixture.h
	 * instead of disk/, with these operations; NULL otherwise */
	const struct vt_optowner_fs *optowner;
	/* VT_FSF_* features the filesystem's row lacks (lib/fs/fs_table.c):
	 * cases needing one are notrun; 0 for owners from mount options,
	 * whose model has rules for what they lack (optowner_rules.c) */
	unsigned int fs_lacks;
	/* the userns maps (axes.h: sb_userns): the root of the tmpfs made
	 * inside nsfs, attached in the initial mount namespace, and nsfs's
	 * fd; "" and -1 where there is none. no_userns_sb: "" if that world
	 * was built, else why its cases are notrun */
	char us_disk[4096];
	int us_ns_fd;
	char no_userns_sb[400];
	/* the overlay world (c->ovl, mx_ovl_mount): "" or why its cases
	 * cannot run here; on the filesystem under test the lower root
	 * (disk/ovl-l, the cases' lower P<slot>) and the upper layer's
	 * parent (disk/ovl-u: upper/ holds the upper P<slot>, work/); the
	 * layers' idmapped mounts and the overlay while a block runs */
	char no_overlay[300];
	char ovl_lower[4200], ovl_up[4200], ovl_lmnt[4200], ovl_umnt[4200], ovl_merged[4200];
	int ovl_ns[16];	/* per map: the user namespace of its idmap (-1: none) */
	int ovl_upper_other_ns;	/* VT_OVL_UPPER_OTHER_SPEC's (-1: none) */
	bool ovl_mounted;
	/* the erofs lower layer of VT_OVL_LOWER_EROFS (ovl_erofs.h) */
	struct mx_erofs ovl_erofs;
};

/* Builds the shared world in TEST_DIR/vtm-BASE_NAME; NULL or the reason
 * the test cannot run. */
const char *mx_world_setup(struct mx_world *w, const char *base_name);
/* Undoes it: mounts detached, the tree removed. */
void mx_world_teardown(struct mx_world *w);
/* The world a default mount of FSTYPE gives, assumed without mounting
 * (the scorer's); NULL or why not. */
const char *mx_assumed_world(struct mx_world *w, const char *fstype);
/* What the world can express, for rule coverage. */
void mx_world_facts(const struct mx_world *rw, struct vt_world_facts *f);
/* Why case C, on the mount of map axis MAP, is skipped in this world
 * ("" if it runs). */
const char *mx_case_skip(const struct mx_world *rw, const struct vt_mcase *c, int map);
/* What of a mount idmap MAP the skip depends on: whether its objects are
 * on the userns superblock (vt_map_sb_userns) and whether it is an idmap
 * at all (a spec). Maps of one class skip a case alike. */
enum { MX_MAPC_SB_USERNS = 1, MX_MAPC_IDMAP = 2, MX_MAPC__COUNT = 4 };
int mx_skip_map_class(int map);
/* mx_case_skip() for a map of class MAPC. */
const char *mx_case_skip_class(const struct mx_world *rw, const struct vt_mcase *c, int mapc);
/* The overlay world for mount idmap MAP: the lower and upper layers
 * mounted idmapped with MAP (plain for "none"; LAYERS VT_OVL_UPPER_PLAIN:
 * the upper one plain whatever MAP, VT_OVL_UPPER_OTHER: idmapped with
 * VT_OVL_UPPER_OTHER_SPEC whatever MAP; VT_OVL_LOWER_EROFS: the lower one an
 * erofs image of the staged lower tree, ovl_erofs.h), the overlay on
 * rw->ovl_merged, mounted by this process (the initial root, no
 * supplementary groups). NULL or why not (nothing left mounted). */
const char *mx_ovl_mount(struct mx_world *rw, int map, int layers);
/* Takes it down again (the upper layer's entries stay for observation). */
void mx_ovl_unmount(struct mx_world *rw);
/* Sets the fs.protected_* values case C needs; NULL or why not. */
const char *mx_apply_sysctls(struct mx_world *rw, const struct vt_mcase *c);

#endif
