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
	char old[32]; /* the value as read, newline included */
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

static bool read_value(const char *path, char *buf, size_t len, long *val)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok) {
		char *end;
		errno = 0;
		*val = strtol(buf, &end, 10);
		ok = errno == 0 && end != buf;
	}
	return ok;
}

static int write_value(const char *path, long val)
{
	char buf[32];
	int fd, n, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%ld\n", val);
	if (write(fd, buf, (size_t)n) != n)
		ret = -errno;
	close(fd);
	return ret;
}

/* Sets PATH to VAL after saving its first value (once per path). */
static const char *change(const char *path, const char *dotted, const char *old, long val,
			  char *why, size_t whylen)
{
	char now_text[32];
	long now;
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
	ret = write_value(path, val);
	if (ret == 0 && read_value(path, now_text, sizeof(now_text), &now) && now == val)
		return NULL;
	snprintf(why, whylen, "could not set %s=%ld (VT_ALLOW_SYSCTL=1): %s", dotted, val,
		 ret ? vt_errname(-ret) : "value did not stick");
	return why;
}

/* The value of /proc/sys/NAME must be VAL (AT_LEAST: >= VAL). */
static const char *need(const char *name, long val, bool at_least)
{
	static char why[512];
	const char *allow = getenv("VT_ALLOW_SYSCTL");
	char path[128], dotted[128], old[32];
	long cur;

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	snprintf(dotted, sizeof(dotted), "%s", name);
	for (char *p = dotted; *p; p++)
		if (*p == '/')
			*p = '.';
	if (!read_value(path, old, sizeof(old), &cur)) {
		snprintf(why, sizeof(why), "cannot read %s: %s", path, vt_errname(errno));
		return why;
	}
	if (at_least ? cur >= val : cur == val)
		return NULL;
	if (!allow || strcmp(allow, "1") != 0) {
		snprintf(why, sizeof(why),
			 "needs %s %s %ld, it is %ld (a global sysctl: not changed unless "
			 "VT_ALLOW_SYSCTL=1 says this machine is throw-away)",
			 dotted, at_least ? ">=" : "=", val, cur);
		return why;
	}
	return change(path, dotted, old, val, why, sizeof(why));
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
	char path[128], buf[32];
	long v;

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	return read_value(path, buf, sizeof(buf), &v) ? v : fallback;
}
