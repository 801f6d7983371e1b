/* Replay lines (replay.h). */
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Characters a shell word may hold without quotes. */
static int shell_safe(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/_.:=+,@%-", *s))
			return 0;
	return 1;
}

/* WORD as one shell word: bare when safe, else in single quotes with each
 * ' written as '\''. */
static void shell_word(char *dst, size_t len, const char *word)
{
	size_t o = 0;

	if (len == 0)
		return;
	if (shell_safe(word)) {
		snprintf(dst, len, "%s", word);
		return;
	}
#define PUT(c) do { if (o + 1 < len) dst[o++] = (c); } while (0)
	PUT('\'');
	for (; *word; word++) {
		if (*word == '\'') {
			PUT('\'');
			PUT('\\');
			PUT('\'');
			PUT('\'');
		} else {
			PUT(*word);
		}
	}
	PUT('\'');
#undef PUT
	dst[o] = '\0';
}

const char *vt_replay_line(char *buf, size_t len, const char *test, const char *case_name,
			   const char *fstype)
{
	const char *check = getenv("VT_REPLAY_CHECK"), *opts = getenv("VT_REPLAY_OPTS");
	char id[2048], word[4200];

	snprintf(id, sizeof(id), "%s/%s", test, case_name);
	shell_word(word, sizeof(word), id);
	if (check && *check && opts && *opts)
		snprintf(buf, len, "%s --case %s %s", check, word, opts);
	else
		snprintf(buf, len, "./check --case %s --fs %s", word, fstype ? fstype : "FSTYP");
	return buf;
}

const char *vt_replay_test_id(const char *argv0, char *buf, size_t len)
{
	const char *id = getenv("VT_TEST_ID"), *last, *p;

	if (id && *id) {
		snprintf(buf, len, "%s", id);
		return buf;
	}
	/* ".../tests/suite/NNN": the last two components */
	last = strrchr(argv0, '/');
	if (!last) {
		snprintf(buf, len, "SUITE/%s", argv0);
		return buf;
	}
	for (p = last - 1; p > argv0 && *p != '/'; p--)
		;
	if (*p == '/')
		p++;
	snprintf(buf, len, "%s", p);
	return buf;
}
