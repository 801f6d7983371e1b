/* The rule table as data (rule_ids.h). */
#include "model/rule_ids.h"

#include <string.h>

static const struct vt_rule_info table[VT_R__COUNT] = {
	[VT_R_NONE] = { "none", VT_RK_OUTCOME, VT_NEED_NONE, "" },
#define VT_RULE_ROW(e, slug, kind, need, text) [VT_R_##e] = { slug, VT_RK_##kind, VT_NEED_##need, text },
	VT_RULE_TABLE(VT_RULE_ROW)
#undef VT_RULE_ROW
};

static const char *const needs[VT_NEED__COUNT] = {
#define VT_NEED_ROW(n, why) [VT_NEED_##n] = why,
	VT_RULE_NEEDS(VT_NEED_ROW)
#undef VT_NEED_ROW
};

const struct vt_rule_info *vt_rule_info(enum vt_rule r)
{
	return &table[(unsigned)r < VT_R__COUNT ? r : VT_R_NONE];
}

const char *vt_rule_kind_name(enum vt_rule_kind k)
{
	return k == VT_RK_CHECK ? "check" : k == VT_RK_BRANCH ? "branch" : "outcome";
}

const char *vt_rule_need_text(enum vt_rule_need n)
{
	return (unsigned)n < VT_NEED__COUNT ? needs[n] : "";
}

enum vt_rule vt_rule_by_slug(const char *slug)
{
	int r;

	for (r = 1; r < VT_R__COUNT; r++)
		if (strcmp(table[r].slug, slug) == 0)
			return (enum vt_rule)r;
	return VT_R_NONE;
}
