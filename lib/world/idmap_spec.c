/* Mapping-spec parser and the two directions of an idmap lookup. */
#include "idmap_spec.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Strict unsigned 32-bit decimal; ids are decimal in uid_map too. */
static bool parse_u32(const char *s, size_t n, uint32_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || n > 10)
		return false;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool ranges_overlap(uint32_t a, uint32_t b, uint32_t count_a, uint32_t count_b)
{
	/* both ranges already known not to wrap */
	uint64_t a_end = (uint64_t)a + count_a, b_end = (uint64_t)b + count_b;
	return (uint64_t)a < b_end && (uint64_t)b < a_end;
}

static int add_extent(struct vt_idmap *map, const struct vt_extent *e, const char *what,
		      const char *tok, char *err, size_t errlen)
{
	unsigned int i;

	if (map->nr >= VT_MAX_EXTENTS)
		return fail(err, errlen, "mapping '%s': more than %d %s extents (kernel limit)",
			    tok, VT_MAX_EXTENTS, what);
	for (i = 0; i < map->nr; i++) {
		const struct vt_extent *o = &map->ext[i];
		if (ranges_overlap(e->first, o->first, e->count, o->count))
			return fail(err, errlen,
				    "mapping '%s': %s range %" PRIu32 "-%" PRIu32
				    " overlaps an earlier extent's range %" PRIu32 "-%" PRIu32,
				    tok, what, e->first, e->first + e->count - 1, o->first,
				    o->first + o->count - 1);
		if (ranges_overlap(e->lower, o->lower, e->count, o->count))
			return fail(err, errlen,
				    "mapping '%s': %s lower range %" PRIu32 "-%" PRIu32
				    " overlaps an earlier extent's lower range %" PRIu32 "-%" PRIu32,
				    tok, what, e->lower, e->lower + e->count - 1, o->lower,
				    o->lower + o->count - 1);
	}
	map->ext[map->nr++] = *e;
	return 0;
}

static int parse_extent(const char *tok, size_t len, struct vt_mapping *out, char *err,
			size_t errlen)
{
	char shown[96];
	const char *field[4];
	size_t flen[4];
	struct vt_extent e;
	size_t i, nf = 0, start = 0;
	char kind;

	snprintf(shown, sizeof(shown), "%.*s", (int)(len > 80 ? 80 : len), tok);
	for (i = 0; i <= len; i++) {
		if (i == len || tok[i] == ':') {
			if (nf == 4)
				return fail(err, errlen,
					    "mapping '%s': too many fields (want KIND:FIRST:LOWER:COUNT)",
					    shown);
			field[nf] = tok + start;
			flen[nf] = i - start;
			nf++;
			start = i + 1;
		}
	}
	if (nf != 4)
		return fail(err, errlen, "mapping '%s': want KIND:FIRST:LOWER:COUNT, e.g. b:0:1000:1",
			    shown);
	if (flen[0] != 1 || !strchr("ugb", field[0][0]))
		return fail(err, errlen, "mapping '%s': kind must be u, g or b", shown);
	kind = field[0][0];
	if (!parse_u32(field[1], flen[1], &e.first))
		return fail(err, errlen, "mapping '%s': FIRST is not a number in 0..4294967295", shown);
	if (!parse_u32(field[2], flen[2], &e.lower))
		return fail(err, errlen, "mapping '%s': LOWER is not a number in 0..4294967295", shown);
	if (!parse_u32(field[3], flen[3], &e.count))
		return fail(err, errlen, "mapping '%s': COUNT is not a number in 0..4294967295", shown);
	if (e.count == 0)
		return fail(err, errlen, "mapping '%s': COUNT must not be 0", shown);
	/* map_write(): (first + count) <= first rejects a wrap; so does the same
	 * test on lower_first. The last usable id is therefore 4294967294. */
	if ((uint32_t)(e.first + e.count) <= e.first)
		return fail(err, errlen, "mapping '%s': FIRST+COUNT overflows the 32-bit id space",
			    shown);
	if ((uint32_t)(e.lower + e.count) <= e.lower)
		return fail(err, errlen, "mapping '%s': LOWER+COUNT overflows the 32-bit id space",
			    shown);
	if (kind != 'g' && add_extent(&out->uid, &e, "uid", shown, err, errlen) < 0)
		return -1;
	if (kind != 'u' && add_extent(&out->gid, &e, "gid", shown, err, errlen) < 0)
		return -1;
	return 0;
}

int vt_mapping_parse(const char *spec, struct vt_mapping *out, char *err, size_t errlen)
{
	const char *p = spec;

	memset(out, 0, sizeof(*out));
	if (!spec)
		return fail(err, errlen, "mapping: empty spec");
	while (*p) {
		const char *end;

		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		end = p;
		while (*end && *end != ',' && !isspace((unsigned char)*end))
			end++;
		if (parse_extent(p, (size_t)(end - p), out, err, errlen) < 0)
			return -1;
		p = end;
	}
	if (out->uid.nr == 0 && out->gid.nr == 0)
		return fail(err, errlen, "mapping: no extents (want KIND:FIRST:LOWER:COUNT, e.g. b:0:1000:1)");
	return 0;
}

int vt_idmap_format(const struct vt_idmap *map, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < map->nr; i++) {
		int n = snprintf(buf + off, len - off, "%" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
				 map->ext[i].first, map->ext[i].lower, map->ext[i].count);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += (size_t)n;
	}
	return (int)off;
}

int vt_mapping_format(const struct vt_mapping *m, char *buf, size_t len)
{
	const struct vt_idmap *maps[2] = { &m->uid, &m->gid };
	size_t off = 0;
	int k;
	unsigned int i;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < 2; k++) {
		for (i = 0; i < maps[k]->nr; i++) {
			const struct vt_extent *e = &maps[k]->ext[i];
			int n = snprintf(buf + off, len - off,
					 "%s%c:%" PRIu32 ":%" PRIu32 ":%" PRIu32,
					 off ? "," : "", k ? 'g' : 'u', e->first, e->lower, e->count);
			if (n < 0 || (size_t)n >= len - off)
				return -ENOSPC;
			off += (size_t)n;
		}
	}
	return (int)off;
}

bool vt_idmap_down(const struct vt_idmap *map, uint32_t id, uint32_t *out)
{
	unsigned int i;

	for (i = 0; i < map->nr; i++) {
		const struct vt_extent *e = &map->ext[i];
		if (id >= e->first && (uint64_t)id < (uint64_t)e->first + e->count) {
			*out = e->lower + (id - e->first);
			return true;
		}
	}
	return false;
}

bool vt_idmap_up(const struct vt_idmap *map, uint32_t id, uint32_t *out)
{
	unsigned int i;

	for (i = 0; i < map->nr; i++) {
		const struct vt_extent *e = &map->ext[i];
		if (id >= e->lower && (uint64_t)id < (uint64_t)e->lower + e->count) {
			*out = e->first + (id - e->lower);
			return true;
		}
	}
	return false;
}
