/* One caller process for a block of cases (see batch.h). */
#include "matrix/batch.h"

#include "util/errname.h"
#include "util/fd_io.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct batch_head {
	int setup_err;
	char msg[256];
};

struct batch_reply {
	int ret;
	struct vt_exec_reply rep;
};

/* A reply the parent cannot take ends the caller: it is gone or gave up. */
static void reply(int fd, const void *buf, size_t len)
{
	if (!vt_write_full(fd, buf, len))
		_exit(1);
}

/* 1: LEN bytes read; 0: end of file or error; -1: nothing for TIMEOUT_S s. */
static int read_full(int fd, void *buf, size_t len, int timeout_s)
{
	char *p = buf;

	while (len) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int r = poll(&pf, 1, timeout_s * 1000);

		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			return -1;
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		p += n;
		len -= (size_t)n;
	}
	return 1;
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

static const char *str_get(char *dst, const char *src)
{
	size_t n = strlen(src) + 1;

	memcpy(dst, src, n);
	return src + n;
}

static void child(const struct vt_caller *who, int n, int fd)
{
	static struct vt_exec_req q;
	const char *p = pack;
	struct batch_head head;
	struct batch_reply r;
	mode_t um;
	int k;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	memset(&head, 0, sizeof(head));
	head.setup_err = vt_caller_become(who, head.msg, sizeof(head.msg));
	reply(fd, &head, sizeof(head));
	if (head.setup_err)
		_exit(0);
	for (k = 0; k < n; k++) {
		memcpy(&q.op, p, sizeof(q.op));
		memcpy(&um, p + sizeof(q.op), sizeof(um));
		p += sizeof(q.op) + sizeof(um);
		p = str_get(q.dir, p);
		p = str_get(q.path, p);
		p = str_get(q.path2, p);
		p = str_get(q.result, p);
		umask(um);
		memset(&r, 0, sizeof(r));
		r.ret = vt_exec_op(&q, &r.rep, sizeof(r.rep));
		reply(fd, &r, sizeof(r));
	}
	_exit(0);
}

int mx_run_batch(const struct vt_caller *who, struct mx_batch_item *items, int n,
		 int timeout_s, struct vt_run *fail, bool *every)
{
	struct vt_caller c = *who;
	struct batch_head head;
	struct batch_reply r;
	int pfd[2], status = 0, got = 0, rd;
	bool hung = false;
	pid_t pid;

	*every = false;
	memset(fail, 0, sizeof(*fail));
	fail->status = VT_SETUP_FAILED;
	c.set_umask = false;
	if (!pack_items(items, n)) {
		snprintf(fail->msg, sizeof(fail->msg), "out of memory for the block's requests");
		*every = true;
		return 0;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(fail->msg, sizeof(fail->msg), "pipe failed: %s", vt_errname(errno));
		*every = true;
		return 0;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(fail->msg, sizeof(fail->msg), "fork failed: %s", vt_errname(errno));
		*every = true;
		close(pfd[0]);
		close(pfd[1]);
		return 0;
	}
	if (pid == 0) {
		close(pfd[0]);
		child(&c, n, pfd[1]);
	}
	close(pfd[1]);
	memset(&head, 0, sizeof(head));
	rd = read_full(pfd[0], &head, sizeof(head), timeout_s);
	if (rd == 1 && head.setup_err == 0) {
		for (; got < n; got++) {
			rd = read_full(pfd[0], &r, sizeof(r), timeout_s);
			if (rd != 1)
				break;
			items[got].ret = r.ret;
			*items[got].rep = r.rep;
		}
	}
	if (rd < 0) {
		hung = true;
		kill(pid, SIGKILL);
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
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
	} else if (rd == 1 && head.setup_err) {
		*every = true;
		snprintf(fail->msg, sizeof(fail->msg), "%s", head.msg[0] ? head.msg : "no reply");
	} else {
		snprintf(fail->msg, sizeof(fail->msg), "caller process sent no reply");
	}
	return got;
}
