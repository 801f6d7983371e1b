/* The model's rules as ids (see rule_table.h) and the per-case trace of
 * the outcomes it decided, from which the matrix measures rule coverage. */
#ifndef VT_MODEL_RULE_IDS_H
#define VT_MODEL_RULE_IDS_H

#include "model/rule_table.h"

#include <stdbool.h>
#include <stdint.h>

enum vt_rule {
	VT_R_NONE = 0,
#define VT_RULE_ENUM(e, slug, kind, need, text) VT_R_##e,
	VT_RULE_TABLE(VT_RULE_ENUM)
#undef VT_RULE_ENUM
	VT_R__COUNT
};

enum vt_rule_kind { VT_RK_CHECK, VT_RK_BRANCH, VT_RK_OUTCOME };

enum vt_rule_need {
#define VT_NEED_ENUM(n, why) VT_NEED_##n,
	VT_RULE_NEEDS(VT_NEED_ENUM)
#undef VT_NEED_ENUM
	VT_NEED__COUNT
};

struct vt_rule_info {
	const char *slug;		/* stable id */
	enum vt_rule_kind kind;
	enum vt_rule_need need;
	const char *text;		/* the kernel function and what it decides */
};

const struct vt_rule_info *vt_rule_info(enum vt_rule r);
const char *vt_rule_kind_name(enum vt_rule_kind k);
const char *vt_rule_need_text(enum vt_rule_need n);
/* The rule with this slug, or VT_R_NONE. */
enum vt_rule vt_rule_by_slug(const char *slug);

/* Outcomes the model decided for one case: ev[rule] is a set of these. */
#define VT_EV_ALLOW 1
#define VT_EV_DENY 2
struct vt_trace {
	uint8_t ev[VT_R__COUNT];
};

#endif
