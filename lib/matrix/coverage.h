/* Rule coverage: which of the model's rules (lib/model/rule_table.h) the
 * cases of a run decided, in which direction. A rule's "allow" counts
 * the cases that succeeded with the rule allowing; its "deny" the cases
 * in which it denied (failed the operation, or for a branch took the
 * privilege away). A rule neither way the world can express is a gap. */
#ifndef VT_MATRIX_COVERAGE_H
#define VT_MATRIX_COVERAGE_H

#include "model/rule_ids.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vt_coverage {
	uint32_t allow[VT_R__COUNT], deny[VT_R__COUNT];
};

/* What the world under test can express (probed by the driver). */
struct vt_world_facts {
	bool posixacl, protected_hardlinks, whiteout, exec;
	bool protected_symlinks, protected_fifos, protected_regular;	/* can be on */
	bool sb_userns_init;	/* s_user_ns is the initial user namespace */
	bool optowner;	/* option-owner worlds (optowner_model.h) */
	bool read_only;	/* a read-only sb (readonly_rules.c) */
	bool fileattr, leases, dedupe;	/* matrix/013's ioctls and leases can run */
	bool atime;	/* matrix/013's read-atime cases can run */
	bool cachestat;	/* matrix/013's cachestat cases can run */
	/* FSTYP: a rule whose need is a feature its row in the filesystem
	 * table lacks is not expressible there, with the table's reason */
	const char *fstype;
};

/* Adds one case: its trace and its errno (the model's). */
void vt_coverage_add(struct vt_coverage *c, const struct vt_trace *t, int err);
/* The items a case adds, as the sampler counts them: bit 2r allow, 2r+1 deny. */
void vt_coverage_items(const struct vt_trace *t, int err, uint64_t *bits);
/* Why direction DENY (or allow) of R cannot happen in this world, or NULL. */
const char *vt_coverage_na(const struct vt_world_facts *f, enum vt_rule r, bool deny);
/* Appends "slug kind allow deny na-allow na-deny" lines to PATH (TSV). */
int vt_coverage_write(const struct vt_coverage *c, const struct vt_world_facts *f,
		      const char *path);
/* "D of N decision rules both ways (K not expressible here); gaps: ..." */
void vt_coverage_summary(const struct vt_coverage *c, const struct vt_world_facts *f, char *buf,
			 size_t len);

#endif
