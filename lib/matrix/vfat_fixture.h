/* The matrix on vfat. vfat stores no owners (vfat_model.h), so its worlds
 * are not fixtures chowned into place but mounts: the vfat worlds axis is
 * a set of vfat images the driver makes, each mounted with its own
 * uid=/gid=/masks/quiet/allow_utime and then through every mount idmap of
 * the shared axis. The owner axis of a vfat case is its world's option
 * ids; its object state is what vfat can hold (a file, a read-only file,
 * a directory). On FSTYP=vfat every family of tests/matrix runs its vfat
 * counterpart (vfat_families.c) over these worlds, and the sample
 * (matrix/011) samples those. */
#ifndef VT_MATRIX_VFAT_FIXTURE_H
#define VT_MATRIX_VFAT_FIXTURE_H

#include "matrix/matrix.h"
#include "model/vfat_model.h"

#include <stdbool.h>
#include <stddef.h>

struct vt_vfat_world {
	const char *name;	/* in case ids: "fat=NAME/..." */
	const char *options;	/* the mount options */
	struct vt_fat_opts model;	/* the same, as fat_fill_super leaves them */
};

extern const struct vt_vfat_world vt_vfat_worlds[];
extern const int vt_vfat_world_count;

/* Is FSTYPE vfat (NULL: no)? */
bool vt_vfat_fstype(const char *fstype);

/* The vfat counterpart of family F (vfat_families.c): same name and test;
 * NULL with *WHY set for a family no vfat world can hold a case of. */
const struct vt_family *vt_vfat_family(const struct vt_family *f, const char **why);

/* Chown targets of vfat cases, named by what the caller sees: the owner
 * (group) stat() shows it through the mount, or the id after it. The
 * driver turns them into ids before the model and the caller see the
 * case (vt_vfat_resolve). */
#define VT_FAT_ID_SEEN 0xfffffff0u
#define VT_FAT_ID_NEXT 0xfffffff1u
void vt_vfat_resolve(const struct vt_world *w, struct vt_mop_args *a);

/* The driver's side. Under BASE (an empty directory): a tmpfs for the
 * images, every world's vfat mounted at BASE/fatK/disk and idmapped
 * through every map of the axis at BASE/fatK/m-MAP. NULL or the reason
 * the matrix cannot run here. */
const char *vt_vfat_setup(const char *base, char *why, size_t len);
/* Detaches everything vt_vfat_setup mounted (idempotent). */
void vt_vfat_teardown(void);
/* World W's root on the plain mount, P and Q (the second parent of the
 * cross-directory renames) on it, and its root through map M. */
const char *vt_vfat_disk(int w);
const char *vt_vfat_p(int w);
const char *vt_vfat_q(int w);
const char *vt_vfat_mnt(int w, int map);

#endif
