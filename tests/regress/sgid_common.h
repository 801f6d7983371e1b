/* Shared scene for the setgid regression tests: src/ owned 1000:1000 on
 * disk, mode given, mounted with b:1000:2000:1000 (disk 1000+n is seen as
 * 2000+n). Helpers run an operation as a caller and report mode bits. */
#ifndef VT_REGRESS_SGID_COMMON_H
#define VT_REGRESS_SGID_COMMON_H

#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define SGID_MAP "b:1000:2000:1000"

struct sgid_w {
	char src[4096], mnt[4096];
};

static inline bool sgid_make(struct vt_ctx *ctx, struct sgid_w *w, mode_t dirmode)
{
	if (!vt_mkdir(ctx, "src", dirmode, 1000, 1000, w->src, sizeof(w->src)) ||
	    !vt_idmapped_at(ctx, w->src, SGID_MAP, "mnt", w->mnt, sizeof(w->mnt)))
		return false;
	vt_scene(ctx, "%s idmapped %s over %s (dir 1000:1000 mode %o on disk)", w->mnt, SGID_MAP,
		 w->src, (unsigned)dirmode);
	return true;
}

static inline long sgid_mode(const char *p)
{
	struct stat st;
	return lstat(p, &st) < 0 ? -1 : (long)(st.st_mode & 07777);
}

/* Expect permission bits GOT (from sgid_mode(); -1: stat failed) to be
 * WANT; a failure prints both in octal, the way modes are read. */
static inline bool sgid_expect_mode(struct vt_ctx *ctx, const char *what, long got, long want,
				    const char *rule)
{
	if (got == want)
		return true;
	if (got < 0)
		vt_fail(ctx, "%s: expected mode %#lo, could not stat it [rule: %s]", what, want,
			rule);
	else
		vt_fail(ctx, "%s: expected mode %#lo, got %#lo [rule: %s]", what, want, got, rule);
	return false;
}

#endif
