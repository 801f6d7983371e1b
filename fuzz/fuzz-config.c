/* libFuzzer target: the local.config parser. Beyond "no crash": every
 * accepted file has at least one section, section names are unique, and
 * every set value is NUL-terminated within its buffer; an error names its
 * line on a single line. */
#include "config/config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct vt_config cfg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[600];
	int i, j, k;

	if (vt_config_parse((const char *)data, size, &cfg, err, sizeof(err)) < 0) {
		if (strncmp(err, "line ", 5) != 0 || strchr(err, '\n'))
			abort();
		return 0;
	}
	if (cfg.nsections < 1 || cfg.nsections > VT_CFG_MAX_SECTIONS)
		abort();
	for (i = 0; i < cfg.nsections; i++) {
		for (j = i + 1; j < cfg.nsections; j++)
			if (strcmp(cfg.sec[i].name, cfg.sec[j].name) == 0)
				abort();
		for (k = 0; k < VT_CFG_NKEYS; k++)
			if (memchr(cfg.sec[i].value[k], '\0', VT_CFG_MAX_VALUE) == NULL)
				abort();
	}
	return 0;
}
