/* One caller process for a block of cases (see batch.h). */
#include "matrix/batch.h"

#include "util/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the caller process hands back, in memory it shares with the
 * driver (MAP_SHARED, made before the fork): no write, poll or read a
 * case, and no wakeup of the driver either, which sleeps until the
 * caller exits or has made no progress for the timeout. DONE counts the
 * items whose reply is complete: the caller fills r[k] and only then
 * stores DONE = k + 1 (release), so a caller that dies while writing
 * r[k] leaves it unread, and DONE names the item that was running. */
struct batch_shared {
	int started;		/* the head below is final */
	int setup_err;
	char msg[256];
	int done;
	struct batch_reply {
		int ret;
		struct vt_exec_reply rep;
	} r[];
};

static struct batch_shared *shm;
static int shm_items;

static bool shared_for(int n)
{
	size_t len = sizeof(*shm) + (size_t)n * sizeof(shm->r[0]);
	void *p;

	if (shm && n <= shm_items)
		return true;
	if (shm)
		munmap(shm, sizeof(*shm) + (size_t)shm_items * sizeof(shm->r[0]));
	shm = NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return false;
	shm = p;
	shm_items = n;
	return true;
}

static int progress(void)
{
	return __atomic_load_n(&shm->started, __ATOMIC_ACQUIRE) + __atomic_load_n(&shm->done, __ATOMIC_ACQUIRE);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits for PID to exit, killing it when it makes no progress (a new
 * head or reply) for TIMEOUT_S seconds. *STATUS: its wait status.
 * Returns true when it was killed for that. A pidfd (Linux 5.3) wakes us
 * when it exits; without one, WNOHANG every few milliseconds. */
static bool wait_caller(pid_t pid, int timeout_s, int *status)
{
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434	/* the same on every architecture */
#endif
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), last = -1, p;
	double quiet_since = now_s(), t;
	bool hung = false;

	for (;;) {
		if (pidfd >= 0) {
			struct pollfd pf = { .fd = pidfd, .events = POLLIN };

			if (poll(&pf, 1, 250) > 0)
				break;
		} else {
			pid_t w = waitpid(pid, status, WNOHANG);

			if (w == pid)
				goto reaped;
			if (w < 0 && errno != EINTR)
				break;
			usleep(2000);
		}
		p = progress();
		t = now_s();
		if (p != last) {
			last = p;
			quiet_since = t;
		} else if (t - quiet_since >= timeout_s) {
			hung = true;
			kill(pid, SIGKILL);
			break;
		}
	}
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
reaped:
	if (pidfd >= 0)
		close(pidfd);
	return hung;
}

/* The block's requests, packed for the caller process: each item's
 * operation, umask and four paths (NUL-terminated) one after another. The
 * caller reads only this, so the driver may keep its per-case state in
 * memory the fork does not share (driver.c: MADV_DONTFORK), and the
 * driver's writes there, while the caller runs and after, cost no
 * copy-on-write fault. */
static char *pack;
static size_t pack_cap;

static size_t str_put(char *out, const char *s)
{
	size_t n = strlen(s) + 1;

	if (out)
		memcpy(out, s, n);
	return n;
}

static size_t pack_item(char *out, const struct mx_batch_item *it)
{
	const struct vt_exec_req *q = it->q;
	size_t off = 0;

	if (out) {
		memcpy(out, &q->op, sizeof(q->op));
		memcpy(out + sizeof(q->op), &it->umask, sizeof(it->umask));
	}
	off = sizeof(q->op) + sizeof(it->umask);
	off += str_put(out ? out + off : NULL, q->dir);
	off += str_put(out ? out + off : NULL, q->path);
	off += str_put(out ? out + off : NULL, q->path2);
	off += str_put(out ? out + off : NULL, q->result);
	return off;
}

static bool pack_items(const struct mx_batch_item *items, int n)
{
	size_t need = 0, off = 0;
	int k;

	for (k = 0; k < n; k++)
		need += pack_item(NULL, &items[k]);
	if (need > pack_cap) {
		char *p = realloc(pack, need);

		if (!p)
			return false;
		pack = p;
		pack_cap = need;
	}
	for (k = 0; k < n; k++)
		off += pack_item(pack + off, &items[k]);
	return true;
}

/* Copies the string at SRC to DST, without its leading "ROOT/" when the
 * caller works from ROOT (ROOTLEN > 0); returns what follows SRC. */
static const char *str_get(char *dst, const char *src, const char *root, size_t rootlen)
{
	size_t n = strlen(src) + 1;

	if (rootlen && n > rootlen + 2 && src[rootlen] == '/' && memcmp(src, root, rootlen) == 0)
		memcpy(dst, src + rootlen + 1, n - rootlen - 1);
	else
		memcpy(dst, src, n);
	return src + n;
}

static void child(const struct vt_caller *who, int n, const char *root)
{
	static struct vt_exec_req q;
	const char *p = pack;
	mode_t um, cur = (mode_t)-1;
	size_t rootlen = 0;
	int k;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	shm->setup_err = vt_caller_become(who, shm->msg, sizeof(shm->msg));
	__atomic_store_n(&shm->started, 1, __ATOMIC_RELEASE);
	if (shm->setup_err)
		_exit(0);
	/* paths under ROOT are walked from it (the caller's cwd) instead of
	 * from / each time: the same lookups below ROOT, and ROOT's own
	 * components (searchable by every caller, or chdir fails and the
	 * paths stay absolute) once a block, not a dozen times a case */
	if (root && *root && chdir(root) == 0)
		rootlen = strlen(root);
	for (k = 0; k < n; k++) {
		struct batch_reply *r = &shm->r[k];

		memcpy(&q.op, p, sizeof(q.op));
		memcpy(&um, p + sizeof(q.op), sizeof(um));
		p += sizeof(q.op) + sizeof(um);
		p = str_get(q.dir, p, root, rootlen);
		p = str_get(q.path, p, root, rootlen);
		p = str_get(q.path2, p, root, rootlen);
		p = str_get(q.result, p, root, rootlen);
		if (um != cur)
			umask(cur = um);
		memset(r, 0, sizeof(*r));
		r->ret = vt_exec_op(&q, &r->rep, sizeof(r->rep));
		__atomic_store_n(&shm->done, k + 1, __ATOMIC_RELEASE);
	}
	_exit(0);
}

int mx_run_batch(const struct vt_caller *who, const char *root, struct mx_batch_item *items,
		 int n, int timeout_s, struct vt_run *fail, bool *every)
{
	struct vt_caller c = *who;
	int status = 0, got, k;
	bool hung;
	pid_t pid;

	*every = false;
	memset(fail, 0, sizeof(*fail));
	fail->status = VT_SETUP_FAILED;
	c.set_umask = false;
	if (!pack_items(items, n) || !shared_for(n)) {
		snprintf(fail->msg, sizeof(fail->msg), "out of memory for the block's requests");
		*every = true;
		return 0;
	}
	shm->started = 0;
	shm->setup_err = 0;
	shm->msg[0] = 0;
	shm->done = 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(fail->msg, sizeof(fail->msg), "fork failed: %s", vt_errname(errno));
		*every = true;
		return 0;
	}
	if (pid == 0)
		child(&c, n, root);
	hung = wait_caller(pid, timeout_s, &status);
	got = __atomic_load_n(&shm->done, __ATOMIC_ACQUIRE);
	if (got > n)
		got = n;
	for (k = 0; k < got; k++) {
		items[k].ret = shm->r[k].ret;
		*items[k].rep = shm->r[k].rep;
	}
	if (got == n)
		return n;
	if (hung) {
		snprintf(fail->msg, sizeof(fail->msg),
			 "caller process hung: no reply in %d s, killed", timeout_s);
	} else if (WIFSIGNALED(status)) {
		fail->status = VT_CRASHED;
		fail->sig = WTERMSIG(status);
		snprintf(fail->msg, sizeof(fail->msg), "caller process killed by SIG%s",
			 vt_signame(fail->sig));
	} else if (shm->started && shm->setup_err) {
		*every = true;
		snprintf(fail->msg, sizeof(fail->msg), "%s", shm->msg[0] ? shm->msg : "no reply");
	} else {
		snprintf(fail->msg, sizeof(fail->msg), "caller process sent no reply");
	}
	return got;
}
