/* Setting a global sysctl for one test program and restoring it. */
#include "sysctl.h"

#include "util/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SAVED 8

struct saved {
	char path[128];
	char old[256]; /* the value as read, newline included (a string sysctl
			* such as kernel.core_pattern holds up to 127 bytes) */
	size_t len;
};

static struct saved saved[MAX_SAVED];
static volatile sig_atomic_t nsaved;
static pid_t owner;

/* Async-signal-safe: open/write/close only. Only the process that changed
 * the values restores them (forked cases and callers end with _exit, but a
 * stray exit() in a child must not restore early). */
static void restore_all(void)
{
	int i, fd;

	if (getpid() != owner)
		return;
	for (i = (int)nsaved - 1; i >= 0; i--) {
		fd = open(saved[i].path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, saved[i].old, saved[i].len) < 0) {
				/* nothing better to do in a handler */
			}
			close(fd);
		}
	}
	nsaved = 0;
}

static void on_signal(int sig)
{
	restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The first line of PATH, newline included, in BUF; false with errno
 * (a line longer than BUF is refused: it could not be restored exactly). */
static bool read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok && !strchr(buf, '\n')) {
		errno = ENAMETOOLONG;
		ok = false;
	}
	return ok;
}

static bool read_value(const char *path, char *buf, size_t len, long *val)
{
	bool ok = read_text(path, buf, len);

	if (ok) {
		char *end;
		errno = 0;
		*val = strtol(buf, &end, 10);
		ok = errno == 0 && end != buf;
	}
	return ok;
}

/* Writes TEXT (newline included) to PATH; 0 or -errno. */
static int write_text(const char *path, const char *text)
{
	size_t n = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, n) != (ssize_t)n)
		ret = -errno;
	close(fd);
	return ret;
}

/* Sets PATH to TEXT (newline included) after saving its first value OLD
 * (once per path). */
static const char *change(const char *path, const char *dotted, const char *old, const char *text,
			  char *why, size_t whylen)
{
	char now[256];
	int i, ret;

	for (i = 0; i < (int)nsaved && strcmp(saved[i].path, path) != 0; i++)
		;
	if (i == (int)nsaved) {
		if (nsaved >= MAX_SAVED) {
			snprintf(why, whylen, "too many sysctls to change (%s)", dotted);
			return why;
		}
		if (owner == 0) {
			owner = getpid();
			atexit(restore_all);
			signal(SIGTERM, on_signal);
			signal(SIGINT, on_signal);
			signal(SIGHUP, on_signal);
		}
		snprintf(saved[i].path, sizeof(saved[0].path), "%s", path);
		snprintf(saved[i].old, sizeof(saved[0].old), "%s", old);
		saved[i].len = strlen(old);
		nsaved++;
	}
	ret = write_text(path, text);
	if (ret == 0 && read_text(path, now, sizeof(now)) && strcmp(now, text) == 0)
		return NULL;
	snprintf(why, whylen, "could not set %s=%.*s (VT_ALLOW_SYSCTL=1): %s", dotted,
		 (int)strcspn(text, "\n"), text, ret ? vt_errname(-ret) : "value did not stick");
	return why;
}

/* "fs/protected_regular" -> "/proc/sys/fs/protected_regular" and the
 * dotted name for messages */
static void names(const char *name, char *path, size_t plen, char *dotted, size_t dlen)
{
	snprintf(path, plen, "/proc/sys/%s", name);
	snprintf(dotted, dlen, "%s", name);
	for (char *p = dotted; *p; p++)
		if (*p == '/')
			*p = '.';
}

static bool allowed(void)
{
	const char *allow = getenv("VT_ALLOW_SYSCTL");

	return allow && strcmp(allow, "1") == 0;
}

/* The value of /proc/sys/NAME must be VAL (AT_LEAST: >= VAL). */
static const char *need(const char *name, long val, bool at_least)
{
	static char why[512];
	char path[128], dotted[128], old[256], text[32];
	long cur;

	names(name, path, sizeof(path), dotted, sizeof(dotted));
	if (!read_value(path, old, sizeof(old), &cur)) {
		snprintf(why, sizeof(why), "cannot read %s: %s", path, vt_errname(errno));
		return why;
	}
	if (at_least ? cur >= val : cur == val)
		return NULL;
	if (!allowed()) {
		snprintf(why, sizeof(why),
			 "needs %s %s %ld, it is %ld (a global sysctl: not changed unless "
			 "VT_ALLOW_SYSCTL=1 says this machine is throw-away)",
			 dotted, at_least ? ">=" : "=", val, cur);
		return why;
	}
	snprintf(text, sizeof(text), "%ld\n", val);
	return change(path, dotted, old, text, why, sizeof(why));
}

const char *vt_sysctl_need_string(const char *name, const char *val)
{
	static char why[700];
	char path[128], dotted[128], old[256], text[256];
	size_t n = strlen(val);

	names(name, path, sizeof(path), dotted, sizeof(dotted));
	/* proc_dostring stops at a newline: a value holding one could not
	 * be written as it is */
	if (n + 2 > sizeof(text) || strchr(val, '\n')) {
		snprintf(why, sizeof(why), "%s: the value wanted is too long or holds a newline",
			 dotted);
		return why;
	}
	if (!read_text(path, old, sizeof(old))) {
		snprintf(why, sizeof(why), "cannot read %s: %s", path, vt_errname(errno));
		return why;
	}
	snprintf(text, sizeof(text), "%s\n", val);
	if (strcmp(old, text) == 0)
		return NULL;
	if (!allowed()) {
		snprintf(why, sizeof(why),
			 "needs %s = \"%s\", it is \"%.*s\" (a global sysctl: not changed unless "
			 "VT_ALLOW_SYSCTL=1 says this machine is throw-away)",
			 dotted, val, (int)strcspn(old, "\n"), old);
		return why;
	}
	return change(path, dotted, old, text, why, sizeof(why));
}

const char *vt_sysctl_need_min(const char *name, long min)
{
	return need(name, min, true);
}

const char *vt_sysctl_need_value(const char *name, long val)
{
	return need(name, val, false);
}

long vt_sysctl_read(const char *name, long fallback)
{
	char path[128], buf[256];
	long v;

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	return read_value(path, buf, sizeof(buf), &v) ? v : fallback;
}
