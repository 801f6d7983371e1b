/* VT_MODEL_BREAK: see break.h. The only place the model reads the
 * environment; everything else is pure. */
#include "model/break.h"

#include <stdlib.h>
#include <string.h>

bool vt_model_broken(enum vt_model_break which)
{
	static int cached = -1;

	if (cached < 0) {
		const char *s = getenv("VT_MODEL_BREAK");

		cached = VT_BREAK_NONE;
		if (s && strcmp(s, "chown-skip-mount-translation") == 0)
			cached = VT_BREAK_CHOWN_SKIP_MOUNT_TRANSLATION;
		else if (s && strcmp(s, "from-vfsuid-nop") == 0)
			cached = VT_BREAK_FROM_VFSUID_NOP;
		else if (s && strcmp(s, "fat-setattr-skip-mount-translation") == 0)
			cached = VT_BREAK_FAT_SETATTR_SKIP_MOUNT_TRANSLATION;
	}
	return which != VT_BREAK_NONE && cached == (int)which;
}
