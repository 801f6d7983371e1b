/* The file a dumping process's core goes to when kernel.core_pattern is a
 * plain relative name (fs/coredump.c do_coredump, Linux 6.12, the branch
 * for a process of SUID_DUMP_USER: need_suid_safe false), with the
 * dumping task's cwd P in an idmapped mount (w->idmap). */
#ifndef VT_MODEL_COREDUMP_H
#define VT_MODEL_COREDUMP_H

#include "model/world_model.h"

struct vt_core_expect {
	/* the errno that stopped the dump before a file was created
	 * (do_unlinkat of an old file failed, then filp_open's O_EXCL:
	 * EEXIST; may_create: EOVERFLOW, EACCES); 0 otherwise */
	int err;
	enum vt_rule rule_id;	/* the deciding rule (rule_table.h) */
	const char *rule;
	bool old_gone;		/* the old file P/o was unlinked (do_unlinkat) */
	bool created;		/* filp_open created a new file P/o: CORE */
	bool written;		/* the dump went into it (else it stays empty:
				 * "cannot preserve file owner/permissions") */
	struct vt_minode core;	/* the new file's on-disk state */
};

/* W: the dumping task (w->cred, its umask), the directory P (w->dir),
 * and the name the pattern gives, P/o (w->obj: an old file or not
 * existing). Pure. */
void vt_model_coredump(const struct vt_world *w, struct vt_core_expect *out);

#endif
