/* Deliberately wrong rules, switched on by the environment variable
 * VT_MODEL_BREAK, so that a meta-test can prove the matrix reports a wrong
 * expectation as a mismatch (a comparison that cannot fail proves nothing).
 *
 *   VT_MODEL_BREAK=chown-skip-mount-translation
 *       the model stores a chown target without from_vfsuid()
 *   VT_MODEL_BREAK=from-vfsuid-nop
 *       from_vfsuid() ignores every idmap (as if all mounts were plain)
 *   VT_MODEL_BREAK=fat-setattr-skip-mount-translation
 *       fat_setattr compares the mount-view chown target with uid=/gid=
 *       without from_vfsuid() (what its idmapped-mount port had to fix) */
#ifndef VT_MODEL_BREAK_H
#define VT_MODEL_BREAK_H

#include <stdbool.h>

enum vt_model_break {
	VT_BREAK_NONE = 0,
	VT_BREAK_CHOWN_SKIP_MOUNT_TRANSLATION,
	VT_BREAK_FROM_VFSUID_NOP,
	VT_BREAK_FAT_SETATTR_SKIP_MOUNT_TRANSLATION,
};

/* Is the named wrong rule switched on (read once from VT_MODEL_BREAK)? */
bool vt_model_broken(enum vt_model_break which);

#endif
