/* What a case did against what the model expects, and the text of a
 * mismatch. Internal to lib/matrix. */
#ifndef VT_MX_COMPARE_H
#define VT_MX_COMPARE_H

#include "matrix/executor.h"
#include "matrix/matrix.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct mx_report {
	char buf[8192];
	size_t off;
	int diffs;
};

void mx_say(struct mx_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The name the result of OP lives under ("o", "n", "t" or ""). */
const char *mx_result_name(const struct vt_mop_args *a);
void mx_describe_inode(struct mx_report *r, const char *name, const struct vt_minode *i);
void mx_op_args_text(struct mx_report *r, const struct vt_mop_args *a);
/* Adds to R every difference between expectation E and what was seen. */
void mx_compare(struct mx_report *r, const struct vt_world *w, const struct vt_mcase *c,
		const struct vt_expect *e, int err, const struct vt_exec_reply *rep,
		const struct vt_minode *disk, bool obj_exists, const struct stat *obj_st);
/* What a kernel doing exactly what B says shows mx_compare(). */
void mx_observe(const struct vt_world *w, const struct vt_mcase *c, const struct vt_expect *b,
		struct vt_exec_reply *rep, struct vt_minode *disk, bool *obj_exists,
		struct stat *st);

#endif
