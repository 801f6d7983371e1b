/* The overlay world's erofs lower layer (VT_OVL_LOWER_EROFS,
 * tests/matrix/README.md "The overlay world"): per block, an erofs image
 * made with mkfs.erofs from the block's staged lower tree (disk/ovl-l),
 * loop-mounted (SB_RDONLY: erofs_fc_fill_super) where mx_ovl_mount takes
 * the lower directory from. Internal to lib/matrix. */
#ifndef VT_MX_OVL_EROFS_H
#define VT_MX_OVL_EROFS_H

#include "matrix/matrix.h"

#include <stdbool.h>
#include <stddef.h>

struct mx_erofs {
	/* "" or why no erofs lower layer can be made here (every
	 * lower=erofs case is notrun with it) */
	char no_erofs[400];
	/* VT_FSF_* the images lack here (the probe: staged on the
	 * filesystem under test, not read back from the image) and why */
	unsigned int lacks;
	char lacks_why[400];
	char img[4200];	/* BASE/ovl-e.img, the block's image */
	char mnt[4200];	/* BASE/ovl-e, its mount */
	bool mounted;
	/* Images kept for blocks that stage the same lower tree again:
	 * every (map, caller) pair of a family stages the same cases at the
	 * same slots, so its blocks mount the image the first pair's block
	 * made (BASE/ovl-e.K.img) instead of running mkfs.erofs again (a
	 * sixth of a family's time). A kept image is known by its key, what
	 * the driver staged (mx_erofs_key_add). */
#define MX_EROFS_KEEP 4
	struct {
		unsigned char *key;
		size_t len;
	} kept[MX_EROFS_KEEP];
	int next_kept;
	unsigned char *key;	/* the tree the next mount stages, or NULL */
	size_t keylen, keycap;
	bool key_valid;
	bool img_kept;		/* the mounted image is a kept one */
};

/* Sets E up for the world in BASE (lower trees are staged in disk
 * directories of BASE, on FSTYPE): checks erofs and mkfs.erofs are here,
 * that the table lets mkfs.erofs read a tree of FSTYPE, and probes
 * what an image keeps of a staged tree (owners, setid bits, user.*,
 * trusted.*, ACLs, security.capability). NULL, or why the world setup
 * failed (a missing erofs is not that: it sets no_erofs). */
const char *mx_erofs_setup(struct mx_erofs *e, const char *base, const char *fstype);
/* What E is on FSTYPE as far as the filesystem table tells, without
 * trying (the build-time sample table's worlds, sample_table.c): no
 * erofs lower layer where mx_erofs_setup() would not try one. */
void mx_erofs_assume(struct mx_erofs *e, const char *fstype);
/* Makes the image of the staged tree LOWER and mounts it at E->mnt: NULL
 * or why not (nothing left behind). */
const char *mx_erofs_mount(struct mx_erofs *e, const char *lower);
/* Unmounts it and removes the image unless it is kept (the loop device
 * is autoclear). */
void mx_erofs_unmount(struct mx_erofs *e);
/* The key of the tree the next mx_erofs_mount finds staged: reset, then
 * for each lower P staged, its slot and the objects in it (P/o, P/t).
 * Without a key (reset and nothing added, or a block whose staging
 * failed somewhere: mx_erofs_key_drop) the image is made afresh. */
void mx_erofs_key_reset(struct mx_erofs *e);
void mx_erofs_key_add(struct mx_erofs *e, int slot, const struct vt_minode *obj,
		      const struct vt_minode *other);
void mx_erofs_key_drop(struct mx_erofs *e);
/* Removes the kept images and frees the keys (the world's teardown). */
void mx_erofs_forget(struct mx_erofs *e);
/* Why case C, which NEEDS (VT_FSF_* of its objects and operation), cannot
 * run on an erofs lower layer ("" if it can). */
const char *mx_erofs_skip(const struct mx_erofs *e, const struct vt_mcase *c, unsigned int needs);

#endif
