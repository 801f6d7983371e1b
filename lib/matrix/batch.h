/* A block of matrix cases run in one caller process: the credentials are
 * assumed once, then each case's operation runs in turn (its own umask,
 * its own objects) and its reply is complete in memory shared with the
 * driver before the next one starts, so a crash or hang is pinned on the
 * case that was running.
 * Internal to lib/matrix. */
#ifndef VT_MX_BATCH_H
#define VT_MX_BATCH_H

#include "matrix/executor.h"
#include "world/caller.h"

#include <sys/types.h>

/* One case of the block: the request, and the umask it runs under. */
struct mx_batch_item {
	const struct vt_exec_req *q;
	mode_t umask;
	/* filled in: the operation's return (0 or errno) and the reply */
	int ret;
	struct vt_exec_reply *rep;
};

/* Runs the N items as WHO (WHO's own umask is ignored) in one forked
 * child, which works from directory ROOT (NULL: none) when it can: paths
 * below it are then walked from there. Returns how many items replied (0..N). When fewer than N did,
 * *FAIL says why: VT_SETUP_FAILED with every item unrun (the credentials
 * could not be assumed: the same for every case; *EVERY set), or the item that was
 * running when the child crashed (VT_CRASHED), hung longer than
 * TIMEOUT_S seconds (killed; VT_SETUP_FAILED) or left without a reply. */
int mx_run_batch(const struct vt_caller *who, const char *root, struct mx_batch_item *items,
		 int n, int timeout_s, struct vt_run *fail, bool *every);

#endif
