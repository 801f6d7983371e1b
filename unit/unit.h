/* Minimal table-driven unit-test helpers: KTAP/TAP output for automake's
 * tap-driver, one result line per check. */
#ifndef VT_UNIT_H
#define VT_UNIT_H

#include "report/ktap.h"

#include <stdio.h>

static struct vt_ktap unit_ktap;
static int unit_failed;

static inline void unit_begin(int plan)
{
	vt_ktap_init(&unit_ktap, stdout, 0);
	vt_ktap_header(&unit_ktap, plan);
}

static inline int unit_check(int ok, const char *name)
{
	if (!ok)
		unit_failed++;
	vt_ktap_result(&unit_ktap, ok ? VT_PASS : VT_FAIL, name, NULL);
	return ok;
}

static inline void unit_skip(const char *name, const char *why)
{
	vt_ktap_result(&unit_ktap, VT_SKIP, name, why);
}

static inline int unit_end(void)
{
	return unit_failed ? 1 : 0;
}

#endif
