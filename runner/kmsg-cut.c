#include "kmsg-cut.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A record is "PRIO,SEQ,USEC,FLAGS[,...];TEXT\n" and then dictionary lines
 * (" KEY=VALUE\n"); TEXT has every byte below ' ', from 127 up and '\\'
 * as "\xNN" (msg_add_ext_text, kernel/printk/printk.c). One read() gives one
 * record; 8 KiB holds the longest (CONSOLE_EXT_LOG_MAX). */
#define VT_KMSG_RECORD 8192

struct record {
	unsigned long long usec;
	char text[VT_KMSG_RECORD]; /* decoded; may hold newlines */
};

static int hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parses the record in BUF (LEN bytes); false when it is not one. */
static bool parse(const char *buf, size_t len, struct record *r)
{
	const char *semi = memchr(buf, ';', len), *p, *e;
	char *o = r->text;
	unsigned fields = 0;

	if (!semi)
		return false;
	r->usec = 0;
	for (p = buf; p < semi; p++) {
		if (*p == ',') {
			fields++;
			continue;
		}
		if (fields == 2 && *p >= '0' && *p <= '9')
			r->usec = r->usec * 10 + (unsigned long long)(*p - '0');
	}
	e = memchr(semi + 1, '\n', len - (size_t)(semi + 1 - buf));
	if (!e)
		e = buf + len;
	for (p = semi + 1; p < e && o < r->text + sizeof(r->text) - 1; p++) {
		if (p[0] == '\\' && e - p >= 4 && p[1] == 'x' && hex(p[2]) >= 0 && hex(p[3]) >= 0) {
			*o++ = (char)(hex(p[2]) * 16 + hex(p[3]));
			p += 3;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return true;
}

/* Not this test's trouble: the fake warning of another run's selftest/004
 * (tests/selftest/004.c names its run's tag). */
static bool others_fake(const char *line, const char *tag)
{
	char own[256];

	if (!strstr(line, "vfsidmap-selftest fake warning (run "))
		return false;
	snprintf(own, sizeof(own), "(run %s)", tag ? tag : "");
	return strstr(line, own) == NULL;
}

/* Writes the record's lines, the first after the timestamp (STAMPED), and
 * the lines of trouble among them to HITS. */
static void keep(const struct vt_kmsg_cut *c, const regex_t *trouble, bool stamped,
		 unsigned long long usec, const char *text)
{
	const char *line = text;
	char stamp[48] = "";

	if (stamped)
		snprintf(stamp, sizeof(stamp), "[%5llu.%06llu] ", usec / 1000000, usec % 1000000);
	while (line) {
		const char *nl = strchr(line, '\n');
		int n = nl ? (int)(nl - line) : (int)strlen(line);
		char one[VT_KMSG_RECORD + 64];

		snprintf(one, sizeof(one), "%s%.*s", line == text ? stamp : "", n, line);
		fprintf(c->out, "%s\n", one);
		if (c->hits && regexec(trouble, one, 0, NULL, 0) == 0 && !others_fake(one, c->tag))
			fprintf(c->hits, "%s\n", one);
		line = nl ? nl + 1 : NULL;
	}
}

int vt_kmsg_cut(int fd, const struct vt_kmsg_cut *c)
{
	static struct record r;
	static char buf[VT_KMSG_RECORD + 1];
	/* what is read before the start marker, kept in case it never shows */
	struct { unsigned long long usec; char *text; } *pre = NULL;
	size_t npre = 0, cap = 0, i;
	regex_t trouble;
	bool on = false, found = false;
	int flags, ret = 0;

	if (regcomp(&trouble, c->trouble ? c->trouble : "$^", REG_EXTENDED | REG_NOSUB) != 0)
		return -EINVAL;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		ret = -errno;
		goto out;
	}
	for (;;) {
		ssize_t n = read(fd, buf, VT_KMSG_RECORD);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE)
			continue; /* records lost; the next read gives the oldest left */
		if (n < 0 && errno == EAGAIN)
			break;    /* the end of the log */
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		/* /dev/kmsg gives one whole record a read; anything else
		 * (/dev/zero, a tty, a file) is not the kernel log, and reading
		 * on would never end */
		if (!parse(buf, (size_t)n, &r)) {
			ret = -EBADMSG;
			break;
		}
		if (!c->end) {
			if (strcmp(r.text, c->start) == 0) {
				found = true;
				break;
			}
			continue;
		}
		if (strcmp(r.text, c->end) == 0) {
			found = true;
			break;
		}
		if (on) {
			keep(c, &trouble, true, r.usec, r.text);
		} else if (strcmp(r.text, c->start) == 0) {
			on = true;
			for (i = 0; i < npre; i++)
				free(pre[i].text);
			npre = 0;
		} else {
			if (npre == cap) {
				void *grown;

				cap = cap ? cap * 2 : 64;
				grown = realloc(pre, cap * sizeof(*pre));
				if (!grown) {
					ret = -ENOMEM;
					break;
				}
				pre = grown;
			}
			pre[npre].usec = r.usec;
			pre[npre].text = strdup(r.text);
			if (!pre[npre].text) {
				ret = -ENOMEM;
				break;
			}
			npre++;
		}
	}
	if (c->end && !on) {
		keep(c, &trouble, false, 0, "vfsidmap: the start marker is no longer in the kernel log (ring buffer overrun); what is left:");
		for (i = 0; i < npre; i++)
			keep(c, &trouble, true, pre[i].usec, pre[i].text);
	}
	for (i = 0; i < npre; i++)
		free(pre[i].text);
	free(pre);
	if (ret == 0 && !found)
		ret = 1;
out:
	regfree(&trouble);
	return ret;
}
