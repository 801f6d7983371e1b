/* The matrix on filesystems whose owners come from the mount options
 * (vfat, msdos, exfat: optowner_model.h). They store no owners, so their
 * worlds are not fixtures chowned into place but mounts: the worlds axis
 * is a set of images of the filesystem under test the driver makes, each
 * mounted with its own uid=/gid=/masks/quiet/allow_utime and then through
 * every mount idmap of the shared axis. The owner axis of such a case is
 * its world's option ids; its object state is what these filesystems can
 * hold (a file, a read-only file, a directory). On such an FSTYP every
 * family of tests/matrix runs its option-owner form (optowner_families.c)
 * over these worlds, and the sample (matrix/011) samples those. The
 * worlds and case ids are the same on all three; a world needing an
 * option the filesystem lacks (exfat: quiet) is not mounted and its cases
 * are notrun with the reason. */
#ifndef VT_MATRIX_OPTOWNER_FIXTURE_H
#define VT_MATRIX_OPTOWNER_FIXTURE_H

#include "matrix/matrix.h"
#include "model/optowner_model.h"

#include <stdbool.h>
#include <stddef.h>

struct vt_optowner_world {
	const char *name;	/* in case ids: "fat=NAME/..." (stable) */
	const char *options;	/* the mount options */
	struct vt_optowner_opts model;	/* the same, as fill_super leaves them (fs unset) */
};

extern const struct vt_optowner_world vt_optowner_worlds[];
extern const int vt_optowner_world_count;

/* The filesystem the worlds are of (default vfat: the sample table's
 * assumed world); set by the driver from FSTYP. */
void vt_optowner_use(const struct vt_optowner_fs *fs);
const struct vt_optowner_fs *vt_optowner_current(void);
/* World K's options for the model, with the filesystem in use. */
const struct vt_optowner_opts *vt_optowner_model(int k);
/* Why world K cannot be had on the filesystem in use (an option it lacks),
 * or NULL. */
const char *vt_optowner_world_missing(int k);

/* The option-owner form of family F (optowner_families.c): same name and
 * test; NULL with *WHY set for a family no such world can hold a case of.
 * Every family of the matrix has one or says why not (unit/test-matrix-forms, unit/test-matrix-family-forms.sh). */
const struct vt_family *vt_optowner_family(const struct vt_family *f, const char **why);
/* Is F (a generic family, by name) known to optowner_families.c, with a
 * form or a reason? */
bool vt_optowner_family_known(const char *name, const char **why);

/* Chown targets of such cases, named by what the caller sees: the owner
 * (group) stat() shows it through the mount, or the id after it. The
 * driver turns them into ids before the model and the caller see the
 * case (vt_optowner_resolve). */
#define VT_FAT_ID_SEEN 0xfffffff0u
#define VT_FAT_ID_NEXT 0xfffffff1u
void vt_optowner_resolve(const struct vt_world *w, struct vt_mop_args *a);

/* The driver's side. Under BASE (an empty directory): a tmpfs for the
 * images, every world's filesystem FSTYPE mounted at BASE/fatK/disk and
 * idmapped through every map of the axis at BASE/fatK/m-MAP. NULL or the
 * reason the matrix cannot run here. */
const char *vt_optowner_setup(const char *base, const char *fstype, char *why, size_t len);
/* Detaches everything vt_optowner_setup mounted (idempotent). */
void vt_optowner_teardown(void);
/* World W's root on the plain mount, P and Q (the second parent of the
 * cross-directory renames) on it, and its root through map M. */
const char *vt_optowner_disk(int w);
const char *vt_optowner_p(int w);
const char *vt_optowner_q(int w);
const char *vt_optowner_mnt(int w, int map);

#endif
