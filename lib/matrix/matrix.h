/* The matrix: every case is (mount idmap) x (caller) x (family-specific
 * object state and operation). A family (tests/matrix/NNN.c) describes its
 * own axis; the driver builds the shared world once (image, idmapped
 * mounts, user namespaces), and for each case resets the object state on
 * disk, runs the operation as the caller through the mount in a forked
 * child, observes the result, and compares it with the model. */
#ifndef VT_MATRIX_H
#define VT_MATRIX_H

#include "model/world_model.h"

#include <stddef.h>

struct vt_mcase {
	/* set by the family */
	struct vt_minode dir, obj, other;	/* on-disk state: P, P/o, P/t */
	struct vt_mop_args op;
	mode_t umask;
	char what[160];				/* the family's part of the name */
};

struct vt_family {
	const char *name;	/* operation family, the first part of a case id */
	int local_count;	/* cases per (map, caller) pair */
	void (*make)(int local, struct vt_mcase *c);
};

/* main() of a matrix program. */
int vt_matrix_main(const struct vt_family *f, int argc, char **argv);

/* Helpers for families: an inode state. */
struct vt_minode vt_fx_inode(mode_t mode, uint32_t uid, uint32_t gid);
/* Adds an access ACL u::,u:UID:rw,g::,g:GID:r,m::,o:: consistent with the
 * inode's mode (the mask is the mode's group bits), so that setting it
 * leaves the mode unchanged (posix_acl_equiv_mode). */
void vt_fx_add_acl(struct vt_minode *i, uint32_t uid, uint32_t gid, bool default_acl);

#endif
