/* open_by_handle_at(2) through a mount (fs/fhandle.c handle_to_path,
 * may_decode_fh, vfs_dentry_acceptable; fs/exportfs/expfs.c
 * exportfs_decode_fh_raw, reconnect_path, reconnect_one; Linux 6.12) of
 * a handle name_to_handle_at gave for an inode T of the same filesystem. */
#ifndef VT_MODEL_FHANDLE_H
#define VT_MODEL_FHANDLE_H

#include "model/world_model.h"

#define VT_FH_MAX_DEPTH 8

struct vt_fh_world {
	const struct vt_world *w;	/* the caller, the mount's idmap, s_user_ns */
	struct vt_minode target;	/* T */
	/* T's ancestors, its parent first, the filesystem's root last */
	int nanc;
	struct vt_minode anc[VT_FH_MAX_DEPTH];
	/* where mountdirfd's dentry is: 0 T itself, k anc[k - 1], -1 not
	 * on T's path (a directory beside it) */
	int root_at;
	/* T's dentry is not in the dcache (a filesystem mounted afresh, no
	 * lookup since): fh_to_dentry gives a disconnected one */
	bool cold;
	bool o_directory;		/* O_DIRECTORY in the flags (opened O_RDONLY) */
	/* the caller's namespace owns the mount namespace the mount is in,
	 * which has no locked mounts under mountdirfd (capable_wrt_mount,
	 * has_locked_children) */
	bool own_mnt_ns;
};

/* The errno (0: an fd to T) and the deciding rule. Pure. */
void vt_model_open_by_handle(const struct vt_fh_world *f, struct vt_expect *e);

#endif
