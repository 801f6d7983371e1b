/* libFuzzer target: the mapping-spec parser. Beyond "no crash" it checks
 * the parser's promises: an accepted spec formats back to a spec that
 * parses to the same mapping, and an error is one non-empty line. */
#include "world/idmap_spec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct vt_mapping a, b;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[4096], err[300], text[16384];

	if (size >= sizeof(spec))
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	if (vt_mapping_parse(spec, &a, err, sizeof(err)) < 0) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	if (a.uid.nr > VT_MAX_EXTENTS || a.gid.nr > VT_MAX_EXTENTS)
		abort();
	if (vt_mapping_format(&a, text, sizeof(text)) < 0)
		return 0;
	if (vt_mapping_parse(text, &b, err, sizeof(err)) < 0 || memcmp(&a, &b, sizeof(a)) != 0)
		abort();
	return 0;
}
