/* The matrix: every case is (mount idmap) x (caller) x (family-specific
 * object state and operation). A family (tests/matrix/NNN.c) describes its
 * own axis; the driver builds the shared world once (image, idmapped
 * mounts, user namespaces), and for each block of cases that share a
 * mount idmap and a caller writes every case's objects on disk, runs their
 * operations as the caller through the mount in one forked child, then
 * observes each result and compares it with the model. */
#ifndef VT_MATRIX_H
#define VT_MATRIX_H

#include "model/world_model.h"

#include <stddef.h>

enum vt_sysctl_id { VT_SYSCTL_SYMLINKS, VT_SYSCTL_HARDLINKS, VT_SYSCTL_FIFOS, VT_SYSCTL_REGULAR,
		   VT_SYSCTL__COUNT };
extern const char *const vt_sysctl_names[VT_SYSCTL__COUNT];	/* "fs/protected_symlinks" */

struct vt_mcase {
	/* set by the family */
	struct vt_minode dir, obj, other;	/* on-disk state: P, P/o, P/t */
	struct vt_minode dir2;			/* Q (cross-directory rename; t is Q/t) */
	/* the fs.protected_* values the case needs (set only in a throw-away
	 * machine, VT_ALLOW_SYSCTL=1); without: the values found at start */
	bool sysctl_set;
	int sysctl[VT_SYSCTL__COUNT];
	struct vt_mop_args op;
	mode_t umask;
	char what[160];				/* the family's part of the name */
	int optworld;	/* 1 + the option-owner world of the case (optowner_fixture.h), 0: none */
	/* the overlay world (world_setup.c, tests/matrix/README.md): the
	 * caller works through an overlay whose layers are mounts of the
	 * filesystem under test idmapped with the case's map; DIR is the
	 * upper P (the lower P is 0755 0:0), OBJ the lower P/o; modelled by
	 * overlay_model.c */
	bool ovl;
	/* the overlay world's layers (world_setup.c mx_ovl_mount): 0 both
	 * idmapped with the case's map; VT_OVL_UPPER_PLAIN the lower through
	 * the map and the upper not idmapped, so a lower and an upper real
	 * inode translate differently */
	int ovl_layers;
};
#define VT_OVL_UPPER_PLAIN 1
/* the lower layer an erofs image (world_setup.c mx_ovl_mount: made with
 * mkfs.erofs from the block's staged lower tree, loop-mounted, idmapped
 * with the case's map), the upper idmapped with it too */
#define VT_OVL_LOWER_EROFS 2
/* the lower layer through the case's map, the upper layer and workdir
 * through VT_OVL_UPPER_OTHER_SPEC (axes.h), another non-identity map
 * under which the mounter (the initial root) maps: "overlay/upper=rotate/".
 * The values are bits (world_setup.c tests VT_OVL_LOWER_EROFS with &), one
 * a case */
#define VT_OVL_UPPER_OTHER 4

/* The worlds a block of a family's cases runs in: the plain one, or the
 * overlay world with its layers set up one way (world_setup.c
 * mx_ovl_mount). The block's maker makes its cases as on the plain
 * world, or, for the overlay ones, as on the overlay world with both
 * layers idmapped with the case's map (names "overlay/..."); the block's
 * layers then set the case's world and name (vt_fx_ovl_*). */
enum vt_fblock_world {
	VT_FB_PLAIN,		/* as the maker leaves it */
	VT_FB_OVERLAY,		/* the overlay world, both layers idmapped */
	VT_FB_UPPER_PLAIN,	/* "overlay/upper=plain/": vt_fx_ovl_upper_plain */
	VT_FB_UPPER_OTHER,	/* "overlay/upper=rotate/": vt_fx_ovl_upper_other */
	VT_FB_LOWER_EROFS,	/* "overlay/lower=erofs/": vt_fx_ovl_lower_erofs */
	VT_FB_OVERLAY_FD,	/* "overlay/fd/": vt_fx_ovl_by_fd */
};

/* A block of a family's cases: ROWS rows, each crossed with the family's
 * CROSS values of its inner axis (one value when it has none). MAKE makes
 * row ROW (from 0 in the block) with inner value INNER. */
struct vt_fblock {
	int rows;
	void (*make)(int row, int inner, struct vt_mcase *c);
	enum vt_fblock_world world;
};

struct vt_family {
	const char *name;	/* operation family, the first part of a case id */
	const char *test_id;	/* the test that runs it alone: "matrix/002" */
	/* Its cases per (map, caller) pair, as a table of blocks walked in
	 * order (vt_family_make): local case number L is row L / CROSS, inner
	 * value L % CROSS, the rows numbered block after block. A block
	 * appended is a row of the table: the cases before it keep their
	 * numbers, and so their ids' order and the sample's indexes. */
	int cross;
	const struct vt_fblock *blocks;
	int nblocks;
	/* the wide axes it crosses too (axes.h: VT_MAP_AXES_BASE): 0, or
	 * VT_WIDE_MAPS, VT_WIDE_CALLERS, VT_WIDE_USERNS(_FEW) */
	unsigned int wide_axes;
};
#define VT_WIDE_MAPS 1u		/* the maps after the base ones */
#define VT_WIDE_CALLERS 2u	/* the callers after the base ones */
/* the userns maps only (axes.h), with the base callers: for the families
 * whose rules read s_user_ns but not the other wide axes' id shapes */
#define VT_WIDE_USERNS 4u
/* the userns maps with a few base callers (axes.c userns_few) */
#define VT_WIDE_USERNS_FEW 8u

/* main() of a matrix program: every case of one family. */
int vt_matrix_main(const struct vt_family *f, int argc, char **argv);
/* main() of the sample program: the smallest set of cases of all the
 * families, chosen by the model, that decides every rule both ways
 * (where the world can) with every mount idmap and caller in each family
 * (lib/matrix/sample.c). */
int vt_matrix_sample_main(const struct vt_family *const *fams, int nfam, int argc, char **argv);

/* tests/matrix/NNN.c: VT_MATRIX_FAMILY(chown, "002", count, make) defines
 * vt_family_chown and, unless the file is linked into the sample program
 * (VT_MATRIX_LINKED), main(). */
#ifdef VT_MATRIX_LINKED
#define VT_MATRIX_MAIN_(fam)
#else
#define VT_MATRIX_MAIN_(fam)                                                                  \
	int main(int argc, char **argv)                                                       \
	{                                                                                     \
		return vt_matrix_main(&fam, argc, argv);                                      \
	}
#endif
#define VT_NBLOCKS(b) ((int)(sizeof(b) / sizeof((b)[0])))
#define VT_MATRIX_FAMILY(id, nnn, cross, blocks)                                              \
	const struct vt_family vt_family_##id = { #id, "matrix/" nnn, (cross), (blocks),        \
						  VT_NBLOCKS(blocks), 0 };                        \
	VT_MATRIX_MAIN_(vt_family_##id)
/* the same, crossing the wide axes WIDE too (axes.h) */
#define VT_MATRIX_FAMILY_WIDE(id, nnn, cross, blocks, wide)                                   \
	const struct vt_family vt_family_##id = { #id, "matrix/" nnn, (cross), (blocks),        \
						  VT_NBLOCKS(blocks), (wide) };                   \
	VT_MATRIX_MAIN_(vt_family_##id)

/* F's cases per (map, caller) pair: CROSS times its blocks' rows. */
int vt_family_local_count(const struct vt_family *f);
/* F's local case LOCAL (< vt_family_local_count) into C: made by the
 * block it falls in, then set in that block's world. */
void vt_family_make(const struct vt_family *f, int local, struct vt_mcase *c);

extern const struct vt_family vt_family_create, vt_family_chown, vt_family_chmod,
	vt_family_permission, vt_family_acl, vt_family_fscaps, vt_family_delete,
	vt_family_setattr, vt_family_xattr, vt_family_exec, vt_family_protected, vt_family_fileops;

/* Helpers for families: an inode state. */
struct vt_minode vt_fx_inode(mode_t mode, uint32_t uid, uint32_t gid);
/* Adds an access ACL u::,u:UID:rw,g::,g:GID:r,m::,o:: consistent with the
 * inode's mode (the mask is the mode's group bits), so that setting it
 * leaves the mode unchanged (posix_acl_equiv_mode). */
void vt_fx_add_acl(struct vt_minode *i, uint32_t uid, uint32_t gid, bool default_acl);
/* Makes overlay case C (made as on the both-layers world, its name
 * "overlay/...") one of the world whose upper layer is not idmapped: its
 * name "overlay/upper=plain/...". */
void vt_fx_ovl_upper_plain(struct vt_mcase *c);
/* The same for the world whose upper layer is idmapped with
 * VT_OVL_UPPER_OTHER_SPEC: "overlay/upper=rotate/...". */
void vt_fx_ovl_upper_other(struct vt_mcase *c);

/* Makes overlay case C (an operation by path, its name "overlay/...") its
 * fd form: open(O_RDONLY) through the overlay, then the f* call on the fd
 * (the executor's on_fd); its name "overlay/fd/...". */
void vt_fx_ovl_by_fd(struct vt_mcase *c);

/* Makes overlay case C (made as on the both-layers world) one whose lower
 * layer is an erofs image of the staged lower tree: its name
 * "overlay/lower=erofs/...". */
void vt_fx_ovl_lower_erofs(struct vt_mcase *c);

/* The owners most families use: root, the common user, another user, and
 * 70000, which no mount idmap or caller namespace of the axes maps. */
struct vt_fx_owner {
	const char *name;	/* "1000:1000" */
	uint32_t uid, gid;
};
#define VT_FX_NOWNERS4 4
extern const struct vt_fx_owner vt_fx_owners4[VT_FX_NOWNERS4];

#endif
