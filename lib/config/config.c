#include "config.h"
#include "fs/fs_table.h"

#include "fs/fs_table.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const key_names[VT_CFG_NKEYS] = {
	[VT_CFG_FSTYP] = "FSTYP",
	[VT_CFG_TEST_DEV] = "TEST_DEV",
	[VT_CFG_TEST_DIR] = "TEST_DIR",
	[VT_CFG_SCRATCH_DEV] = "SCRATCH_DEV",
	[VT_CFG_SCRATCH_MNT] = "SCRATCH_MNT",
	[VT_CFG_MKFS_OPTIONS] = "MKFS_OPTIONS",
	[VT_CFG_MOUNT_OPTIONS] = "MOUNT_OPTIONS",
	[VT_CFG_TEST_TIMEOUT] = "TEST_TIMEOUT",
	[VT_CFG_RESULT_BASE] = "RESULT_BASE",
	[VT_CFG_TEST_DIR_MOUNTED] = "TEST_DIR_MOUNTED",
};

/* Variables xfstests reads from local.config (its README, "Additional
 * Setup" and "Misc", README.config-sections, README.overlay, common/config)
 * that mean nothing here: external log/realtime devices, scratch pools,
 * tape devices, fsck and dump knobs, stress tool options, load and time
 * factors, overlay bases, reporting. */
static const char *const xfstests_keys[] = {
	"TEST_FS_MOUNT_OPTS", "FSCK_OPTIONS", "TEST_LOGDEV", "TEST_RTDEV",
	"SCRATCH_LOGDEV", "SCRATCH_RTDEV", "USE_EXTERNAL", "SCRATCH_DEV_POOL",
	"TAPE_DEV", "RMT_TAPE_DEV", "RMT_IRIXTAPE_DEV", "TEST_XFS_REPAIR_REBUILD",
	"TEST_XFS_SCRUB_REBUILD", "TEST_XFS_SCRUB", "FORCE_XFS_CHECK_PROG",
	"DUMP_CORRUPT_FS", "DUMP_COMPRESSOR", "KEEP_DMESG", "USE_KMEMLEAK",
	"FSSTRESS_AVOID", "FSX_AVOID", "COREDUMP_COMPRESSOR", "TEST_FS_MODULE_RELOAD",
	"MODPROBE_PATIENT_RM_TIMEOUT_SECONDS", "KCONFIG_PATH", "REPORT_GCOV",
	"LOAD_FACTOR", "TIME_FACTOR", "SOAK_DURATION", "DISABLE_UDF_TEST",
	"LOGWRITES_DEV", "PERF_CONFIGNAME", "MIN_FSSIZE", "DIFF_LENGTH",
	"IDMAPPED_MOUNTS", "REPORT_VARS_FILE", "CANON_DEVS", "RECREATE_TEST_DEV",
	"LARGE_SCRATCH_DEV", "SCRATCH_DEV_EMPTY_SPACE", "QA_CHECK_FS", "TIMESTAMP",
	"UDF_MKFS_OPTIONS", "FUSE_SUBTYP", "UNIONMOUNT_TESTSUITE",
	"OVERLAY_FSCK_OPTIONS", "OVERLAY_MOUNT_OPTIONS", "OVL_BASE_FSTYP",
	"OVL_BASE_TEST_DEV", "OVL_BASE_TEST_DIR", "OVL_BASE_SCRATCH_DEV",
	"OVL_BASE_SCRATCH_MNT", "OVL_BASE_MOUNT_OPTIONS", "OVL_UPPER", "OVL_LOWER",
	"OVL_WORK", "OVL_MNT", "HOST_OPTIONS", "SOAK_PASSES", "SOAK_PROC",
	"SOAK_STRESS",
};

int vt_config_xfstests_key(const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(xfstests_keys) / sizeof(xfstests_keys[0]); i++)
		if (strlen(xfstests_keys[i]) == len && memcmp(xfstests_keys[i], key, len) == 0)
			return 1;
	return 0;
}

static void note_ignored(struct vt_config *cfg, const char *key, size_t len, int line)
{
	int i;

	for (i = 0; i < cfg->nignored; i++)
		if (strlen(cfg->ignored[i].key) == len && memcmp(cfg->ignored[i].key, key, len) == 0)
			return;
	if (cfg->nignored >= VT_CFG_MAX_IGNORED || len >= sizeof(cfg->ignored[0].key))
		return;
	snprintf(cfg->ignored[cfg->nignored].key, sizeof(cfg->ignored[0].key), "%.*s", (int)len, key);
	cfg->ignored[cfg->nignored++].line = line;
}

const char *vt_config_key_name(enum vt_config_key k)
{
	return (unsigned)k < VT_CFG_NKEYS ? key_names[k] : "?";
}

static int fail(char *err, size_t errlen, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (err && errlen)
		snprintf(err, errlen, "line %d: %s", line, msg);
	return -1;
}

/* Unquotes VALUE (RAW, N bytes) into OUT; refuses what a shell would expand. */
static int unquote(const char *raw, size_t n, char *out, size_t outlen, const char **why)
{
	size_t o = 0, i = 0;

	while (i < n) {
		char c = raw[i];

		if (c == '\'') {
			size_t j = i + 1;
			while (j < n && raw[j] != '\'')
				j++;
			if (j >= n)
				return *why = "unterminated ' quote", -1;
			if (o + (j - i - 1) >= outlen)
				return *why = "value too long", -1;
			memcpy(out + o, raw + i + 1, j - i - 1);
			o += j - i - 1;
			i = j + 1;
		} else if (c == '"') {
			size_t j = i + 1;
			while (j < n && raw[j] != '"') {
				if (raw[j] == '$' || raw[j] == '`' || raw[j] == '\\')
					return *why = "$, ` and \\ are not evaluated here: write the value out",
					       -1;
				if (o + 1 >= outlen)
					return *why = "value too long", -1;
				out[o++] = raw[j++];
			}
			if (j >= n)
				return *why = "unterminated \" quote", -1;
			i = j + 1;
		} else if (isspace((unsigned char)c)) {
			return *why = "unquoted white space in value", -1;
		} else if (strchr("$`\\;&|()<>*?[]{}~", c)) {
			return *why = "shell syntax in value is not evaluated here: quote or write the value out",
			       -1;
		} else {
			if (o + 1 >= outlen)
				return *why = "value too long", -1;
			out[o++] = c;
			i++;
		}
	}
	out[o] = '\0';
	return 0;
}

static int validate(enum vt_config_key k, const char *v, const char **why)
{
	switch (k) {
	case VT_CFG_FSTYP:
		if (!vt_fs_row(v)) {
			static char known[300];
			size_t i, o;

			/* the filesystems of the table (lib/fs/fs_table.c) */
			o = (size_t)snprintf(known, sizeof(known), "FSTYP must be one of");
			for (i = 0; i < vt_fs_table_count && o < sizeof(known); i++)
				o += (size_t)snprintf(known + o, sizeof(known) - o, "%s %s", i ? "," : "",
						      vt_fs_table[i].name);
			return *why = known, -1;
		}
		return 0;
	case VT_CFG_TEST_DEV:
	case VT_CFG_SCRATCH_DEV:
		if (*v && *v != '/')
			return *why = "a device must be an absolute path", -1;
		return 0;
	case VT_CFG_TEST_DIR:
	case VT_CFG_SCRATCH_MNT:
		if (*v && *v != '/')
			return *why = "a mount point must be an absolute path", -1;
		if (strcmp(v, "/") == 0)
			return *why = "a mount point must not be /", -1;
		return 0;
	case VT_CFG_TEST_TIMEOUT: {
		char *end;
		long t = strtol(v, &end, 10);
		if (!*v || *end || t <= 0 || t > 86400)
			return *why = "TEST_TIMEOUT must be a whole number of seconds, 1..86400", -1;
		return 0;
	}
	case VT_CFG_TEST_DIR_MOUNTED:
		/* TEST_DIR is a mount the user made, tested as it is */
		if (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0)
			return *why = "TEST_DIR_MOUNTED must be yes or no", -1;
		return 0;
	default:
		return 0;
	}
}

/* A section name becomes a directory of the results (RESULTS/NAME/): a
 * name, never a path ("." and ".." and anything starting with a dot), and
 * none of the files ./check keeps next to the section directories. */
static const char *const reserved_names[] = {
	"check.log", "results.ktap", "result.xml", "rule-coverage.tsv", "run.incomplete",
	"check.time", NULL,
};
/* ...nor a name the reports write there: --report porting writes
 * porting-FS.md/.html, --report conformance conformance.md/.html
 * (common/porting.sh, common/conformance.sh). */
static const char *const reserved_prefixes[] = { "porting-", "conformance.", NULL };

static bool valid_section_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n >= sizeof(((struct vt_config_section *)0)->name) || s[0] == '.')
		return false;
	for (i = 0; reserved_names[i]; i++)
		if (strlen(reserved_names[i]) == n && memcmp(reserved_names[i], s, n) == 0)
			return false;
	for (i = 0; reserved_prefixes[i]; i++)
		if (n >= strlen(reserved_prefixes[i]) &&
		    memcmp(reserved_prefixes[i], s, strlen(reserved_prefixes[i])) == 0)
			return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	return true;
}

int vt_config_parse(const char *text, size_t len, struct vt_config *cfg, char *err,
		    size_t errlen)
{
	struct vt_config_section defaults, *cur = &defaults;
	size_t pos = 0;
	int line = 0;

	memset(cfg, 0, sizeof(*cfg));
	memset(&defaults, 0, sizeof(defaults));
	snprintf(defaults.name, sizeof(defaults.name), "default");
	while (pos < len) {
		const char *s = text + pos, *e, *eq;
		size_t n = 0;
		int k;

		line++;
		while (pos + n < len && text[pos + n] != '\n')
			n++;
		pos += n + 1;
		if (memchr(s, '\0', n))
			return fail(err, errlen, line, "NUL byte in file");
		e = s + n;
		while (s < e && isspace((unsigned char)*s))
			s++;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		if (s == e || *s == '#')
			continue;
		if (*s == '[') {
			struct vt_config_section *prev = cur;
			if (e[-1] != ']' || !valid_section_name(s + 1, (size_t)(e - s - 2)))
				return fail(err, errlen, line,
					    "bad section header (want [name] with letters, digits, _ - ., not starting with a dot, not a file name of the results directory such as check.log, porting-* or conformance.*)");
			for (k = 0; k < cfg->nsections; k++)
				if (strlen(cfg->sec[k].name) == (size_t)(e - s - 2) &&
				    memcmp(cfg->sec[k].name, s + 1, (size_t)(e - s - 2)) == 0)
					return fail(err, errlen, line, "section [%.*s] given twice",
						    (int)(e - s - 2), s + 1);
			if (cfg->nsections >= VT_CFG_MAX_SECTIONS)
				return fail(err, errlen, line, "more than %d sections",
					    VT_CFG_MAX_SECTIONS);
			cur = &cfg->sec[cfg->nsections++];
			*cur = *prev; /* xfstests: options carry over to the next section */
			snprintf(cur->name, sizeof(cur->name), "%.*s", (int)(e - s - 2), s + 1);
			continue;
		}
		if ((size_t)(e - s) > 7 && memcmp(s, "export", 6) == 0 && isspace((unsigned char)s[6])) {
			s += 7;
			while (s < e && isspace((unsigned char)*s))
				s++;
		}
		eq = memchr(s, '=', (size_t)(e - s));
		if (!eq)
			return fail(err, errlen, line, "want KEY=VALUE, a [section] or a # comment");
		for (k = 0; k < VT_CFG_NKEYS; k++)
			if (strlen(key_names[k]) == (size_t)(eq - s) &&
			    memcmp(key_names[k], s, (size_t)(eq - s)) == 0)
				break;
		if (k == VT_CFG_NKEYS && vt_config_xfstests_key(s, (size_t)(eq - s))) {
			note_ignored(cfg, s, (size_t)(eq - s), line);
			continue;
		}
		if (k == VT_CFG_NKEYS) {
			/* the list is key_names, the table the match above
			 * uses: a key added there is named here too */
			char known[256];
			size_t o = 0;

			known[0] = '\0';
			for (k = 0; k < VT_CFG_NKEYS && o < sizeof(known); k++)
				o += (size_t)snprintf(known + o, sizeof(known) - o, "%s%s",
						      k ? " " : "", key_names[k]);
			return fail(err, errlen, line, "unknown key '%.*s' (known: %s)",
				    (int)(eq - s > 64 ? 64 : eq - s), s, known);
		}
		{
			const char *why = NULL;
			if (unquote(eq + 1, (size_t)(e - eq - 1), cur->value[k], VT_CFG_MAX_VALUE,
				    &why) < 0 ||
			    validate((enum vt_config_key)k, cur->value[k], &why) < 0)
				return fail(err, errlen, line, "%s: %s", key_names[k], why);
		}
		cur->set |= 1u << k;
	}
	if (cfg->nsections == 0) {
		cfg->sec[0] = defaults;
		cfg->nsections = 1;
	}
	return 0;
}

const struct vt_config_section *vt_config_find(const struct vt_config *cfg, const char *name)
{
	int i;

	for (i = 0; i < cfg->nsections; i++)
		if (strcmp(cfg->sec[i].name, name) == 0)
			return &cfg->sec[i];
	return NULL;
}
