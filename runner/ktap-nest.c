#include "ktap-nest.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One line of the test's stream, and what is written instead of it or
 * after it. */
struct line {
	char *text;
	char *repl;	/* written instead of text, at level repl_level */
	int repl_level;
	char *ins;	/* written after the line, at level ins_level */
	int ins_level;
};

/* A document open while the stream is read: the test's own (level 0) or
 * a subtest of it (level 1 on, one indentation step each). */
struct doc {
	long head;	 /* its last header line (version or "# Subtest:"), -1: ours */
	long plan;	 /* its plan line, -1: none yet */
	long planned;	 /* the count that plan line gives */
	long cnt;	 /* its results so far */
	char *name;	 /* from "# Subtest: NAME", or NULL */
	bool child_open; /* a subtest of it ended without its result line */
	char *child_name;
};

/* Lines written after the stream, each at its level. */
struct tail {
	int level;
	char *text;
};

struct nest {
	struct line *lines;
	size_t nlines;
	struct doc *docs;
	int depth; /* the innermost open document's level */
	struct tail *tail;
	size_t ntail;
	bool nomem;
};

static bool is_version(const char *s)
{
	return strcmp(s, "KTAP version 1") == 0 || strcmp(s, "TAP version 13") == 0 ||
	       strcmp(s, "TAP version 14") == 0 || (strncmp(s, "KTAP version ", 13) == 0 && s[13] >= '0' &&
							s[13] <= '9' && s[13 + strspn(s + 13, "0123456789")] == '\0');
}

/* "1..N" with N digits, and nothing or " ..." after it: N, else -1 */
static long plan_count(const char *s)
{
	size_t n;

	if (strncmp(s, "1..", 3) != 0)
		return -1;
	n = strspn(s + 3, "0123456789");
	if (n == 0 || (s[3 + n] != '\0' && s[3 + n] != ' '))
		return -1;
	return strtol(s + 3, NULL, 10);
}

/* "ok N..." or "not ok N..." with N digits */
static bool is_result(const char *s)
{
	if (strncmp(s, "not ", 4) == 0)
		s += 4;
	if (strncmp(s, "ok ", 3) != 0)
		return false;
	s += 3;
	return *s >= '0' && *s <= '9' && (s[strspn(s, "0123456789")] == '\0' || s[strspn(s, "0123456789")] == ' ');
}

static char *dup_printf(struct nest *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *dup_printf(struct nest *n, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0) {
		n->nomem = true;
		return NULL;
	}
	return s;
}

static void add_tail(struct nest *n, int level, char *text)
{
	struct tail *more;

	if (!text)
		return;
	more = realloc(n->tail, (n->ntail + 1) * sizeof(*more));
	if (!more) {
		free(text);
		n->nomem = true;
		return;
	}
	n->tail = more;
	n->tail[n->ntail].level = level;
	n->tail[n->ntail].text = text;
	n->ntail++;
}

static void push_doc(struct nest *n, long head)
{
	struct doc *more = realloc(n->docs, (size_t)(n->depth + 2) * sizeof(*more));

	if (!more) {
		n->nomem = true;
		return;
	}
	n->docs = more;
	n->depth++;
	memset(&n->docs[n->depth], 0, sizeof(n->docs[n->depth]));
	n->docs[n->depth].head = head;
	n->docs[n->depth].plan = -1;
}

/* The innermost document ends here: its parent owes its result line. */
static void pop_doc(struct nest *n)
{
	struct doc *d = &n->docs[n->depth], *p = &n->docs[n->depth - 1];

	free(p->child_name);
	p->child_open = true;
	p->child_name = d->name;
	d->name = NULL;
	free(d->child_name);
	n->depth--;
}

/* Reads line I (the test's stream, at this nesting) into the state. */
static void read_line(struct nest *n, size_t i)
{
	const char *s = n->lines[i].text;
	struct doc *d;
	int q = 0;
	long c;

	/* indentation: one step per open document, and one more for a
	 * subtest that starts here */
	while (q <= n->depth && s[0] == ' ' && s[1] == ' ') {
		s += 2;
		q++;
	}
	if (q > n->depth) {
		/* a nested document starts with its version line (ktap.rst,
		 * "Nested tests"); anything else this deep is the test's own
		 * unknown line, kept as it is */
		if (is_version(s))
			push_doc(n, (long)i);
		return;
	}
	while (n->depth > q)
		pop_doc(n);
	d = &n->docs[n->depth];
	if (is_result(s)) {
		d->cnt++;
		d->child_open = false;
		return;
	}
	c = plan_count(s);
	if (c >= 0) {
		if (d->plan < 0 && d->cnt == 0) {
			d->plan = (long)i;
			d->planned = c;
		} else {
			/* a second plan (or one after results): a document has one */
			n->lines[i].repl = dup_printf(n, "# %s", s);
			n->lines[i].repl_level = q;
		}
		return;
	}
	if (strncmp(s, "# Subtest: ", 11) == 0 && d->head == (long)i - 1 && d->plan < 0 && !d->name) {
		d->name = strdup(s + 11);
		d->head = (long)i;
	}
}

/* Splits BUF (LEN bytes, NUL-terminated) into lines; *CUT: the last line
 * had no newline. */
static bool split_lines(struct nest *n, char *buf, size_t len, bool *cut)
{
	size_t cap = 0;
	char *p = buf, *end = buf + len;

	*cut = len > 0 && buf[len - 1] != '\n';
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (nl)
			*nl = '\0';
		if (n->nlines == cap) {
			struct line *more;

			cap = cap ? cap * 2 : 256;
			more = realloc(n->lines, cap * sizeof(*more));
			if (!more)
				return false;
			n->lines = more;
		}
		memset(&n->lines[n->nlines], 0, sizeof(n->lines[0]));
		n->lines[n->nlines++].text = p;
		if (!nl)
			break;
		p = nl + 1;
	}
	return true;
}

static char *read_stream(FILE *in, size_t *len)
{
	size_t cap = 65536, got = 0, r;
	char *buf = malloc(cap + 1), *more;

	*len = 0;
	if (!buf)
		return NULL;
	if (in) {
		while ((r = fread(buf + got, 1, cap - got, in)) > 0) {
			got += r;
			if (got == cap) {
				more = realloc(buf, cap * 2 + 1);
				if (!more) {
					free(buf);
					return NULL;
				}
				buf = more;
				cap *= 2;
			}
		}
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

static void put_line(FILE *out, int level, const char *text)
{
	int i;

	fputs("  ", out);
	for (i = 0; i < level; i++)
		fputs("  ", out);
	fputs(text, out);
	fputc('\n', out);
}

/* The reason as diagnostic data of a result line: one line, no "#". */
static void put_data(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '#' ? '_' : (*s == '\n' || *s == '\r') ? ' ' : *s, out);
}

int vt_ktap_nest(FILE *in, const char *name, const struct vt_ktap_leaf *leaves, size_t nleaves,
		 FILE *out)
{
	struct nest n = { 0 };
	char *buf, *cut_text = NULL, *plan0 = NULL;
	size_t len, i, from = 0;
	bool cut = false;
	long total;
	int d, ret = 0;

	buf = read_stream(in, &len);
	n.docs = calloc(1, sizeof(*n.docs));
	if (!buf || !n.docs || !split_lines(&n, buf, len, &cut)) {
		n.nomem = true;
		goto write;
	}
	n.docs[0].head = -1;
	n.docs[0].plan = -1;
	if (cut) {
		cut_text = n.lines[n.nlines - 1].text;
		n.nlines--;
	}
	if (n.nlines > 0 && is_version(n.lines[0].text))
		from = 1;
	for (i = from; i < n.nlines && !n.nomem; i++)
		read_line(&n, i);
	/* the subtests the test died inside: each gets the plan of what it
	 * reported, and its result line */
	for (d = n.depth; d >= 0 && !n.nomem; d--) {
		struct doc *doc = &n.docs[d];

		if (doc->child_open)
			add_tail(&n, d, dup_printf(&n, "not ok %ld %s # the test ended before this subtest's result line",
						   ++doc->cnt, doc->child_name ? doc->child_name : "(unnamed)"));
		doc->child_open = false;
		if (d == 0)
			break;
		if (doc->plan >= 0 && doc->planned != doc->cnt) {
			n.lines[doc->plan].repl = dup_printf(&n, "1..%ld", doc->cnt);
			n.lines[doc->plan].repl_level = d;
		} else if (doc->plan < 0) {
			n.lines[doc->head].ins = dup_printf(&n, "1..%ld", doc->cnt);
			n.lines[doc->head].ins_level = d;
		}
		add_tail(&n, d - 1, dup_printf(&n, "not ok %ld %s # the test ended inside this subtest",
					       ++n.docs[d - 1].cnt, doc->name ? doc->name : "(unnamed)"));
		free(doc->name);
		free(doc->child_name);
		n.depth--;
	}
	if (cut_text && *cut_text)
		add_tail(&n, 0, dup_printf(&n, "# cut off: %s", cut_text));
	total = n.docs[0].cnt + (long)nleaves;
	if (n.docs[0].plan >= 0) {
		const char *was = n.lines[n.docs[0].plan].text + strspn(n.lines[n.docs[0].plan].text, " ");
		char now[32];

		snprintf(now, sizeof(now), "1..%ld", total);
		/* what the plan said is kept when it said more than the count:
		 * cases that never reported, or a SKIP directive */
		if (n.docs[0].planned != n.docs[0].cnt || (strchr(was, '#') && strcmp(was, now) != 0))
			add_tail(&n, 0, dup_printf(&n, "# the test's plan was \"%s\"; it reported %ld result%s",
						   was, n.docs[0].cnt, n.docs[0].cnt == 1 ? "" : "s"));
		if (strcmp(was, now) != 0) {
			n.lines[n.docs[0].plan].repl = dup_printf(&n, "%s", now);
			n.lines[n.docs[0].plan].repl_level = 0;
		}
	} else {
		plan0 = dup_printf(&n, "1..%ld", total);
	}
write:
	put_line(out, 0, from ? n.lines[0].text : "KTAP version 1");
	{
		char *sub = dup_printf(&n, "# Subtest: %s", name);

		put_line(out, 0, sub ? sub : "# Subtest: ?");
		free(sub);
	}
	if (n.nomem) {
		/* no memory to make it whole: a plan, the leaves and a word why */
		fprintf(out, "  1..%zu\n", nleaves + 1);
		put_line(out, 0, "# the test's output could not be read into memory");
		fputs("  not ok 1 test-level:harness # ERROR out of memory while reporting the test\n", out);
		for (i = 0; i < nleaves; i++)
			fprintf(out, "  not ok %zu test-level:%s\n", i + 2, leaves[i].type);
		goto done;
	}
	if (plan0)
		put_line(out, 0, plan0);
	for (i = from; i < n.nlines; i++) {
		if (n.lines[i].repl)
			put_line(out, n.lines[i].repl_level, n.lines[i].repl);
		else
			fprintf(out, "  %s\n", n.lines[i].text);
		if (n.lines[i].ins)
			put_line(out, n.lines[i].ins_level, n.lines[i].ins);
	}
	for (i = 0; i < n.ntail; i++)
		put_line(out, n.tail[i].level, n.tail[i].text);
	for (i = 0; i < nleaves; i++) {
		const char *dir = leaves[i].directive ? leaves[i].directive : "";
		const char *why = leaves[i].reason ? leaves[i].reason : "";

		fprintf(out, "  not ok %ld test-level:", n.docs[0].cnt + (long)i + 1);
		put_data(out, leaves[i].type);
		if (*dir || *why)
			fputs(" #", out);
		if (*dir)
			fprintf(out, " %s", dir);
		if (*why) {
			fputc(' ', out);
			put_data(out, why);
		}
		fputc('\n', out);
	}
done:
	if (fflush(out) != 0 || ferror(out))
		ret = -1;
	for (i = 0; i < n.nlines; i++) {
		free(n.lines[i].repl);
		free(n.lines[i].ins);
	}
	for (i = 0; i < n.ntail; i++)
		free(n.tail[i].text);
	if (n.docs) {
		free(n.docs[0].name);
		free(n.docs[0].child_name);
	}
	free(n.tail);
	free(n.lines);
	free(n.docs);
	free(plan0);
	free(buf);
	return ret;
}
