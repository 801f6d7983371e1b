/* The matrix's batch runner (lib/matrix/batch.c): several operations in
 * one caller process, each under its own umask; a crash or a hang is
 * pinned on the item that was running and the items before it keep their
 * replies; credentials that cannot be assumed fail every item. Needs root
 * (the caller switch); skips otherwise. */
#include "unit.h"
#include "matrix/batch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLAN 9

static char dir[64] = "/tmp/vt-batch.XXXXXX";
static struct vt_exec_req reqs[3];
static struct vt_exec_reply reps[3];
static struct mx_batch_item items[3];

static void create_req(int k, const char *name, mode_t um)
{
	struct vt_exec_req *q = &reqs[k];

	memset(q, 0, sizeof(*q));
	q->op.op = VT_OP_OPEN_CREAT;
	q->op.mode = 0666;
	snprintf(q->dir, sizeof(q->dir), "%s", dir);
	snprintf(q->path, sizeof(q->path), "%s/%s", dir, name);
	memcpy(q->result, q->path, sizeof(q->result));	/* same size: both PATH_MAX */
	items[k].q = q;
	items[k].umask = um;
	items[k].rep = &reps[k];
	items[k].ret = -1;
}

static bool no_child_left(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

int main(void)
{
	struct vt_caller root = vt_caller_root(), bad = vt_caller_root();
	struct vt_run fail;
	bool every;
	char fifo[128];
	int got;

	unit_begin(PLAN);
	if (geteuid() != 0 || !mkdtemp(dir)) {
		for (int i = 0; i < PLAN; i++)
			unit_skip("batch", "needs root and /tmp");
		return 0;
	}
	/* open(2): the new file's mode is mode & ~umask, per item */
	create_req(0, "a", 022);
	create_req(1, "b", 077);
	create_req(2, "c", 0);
	got = mx_run_batch(&root, NULL, items, 3, 30, &fail, &every);
	unit_check(got == 3 && items[0].ret == 0 && items[1].ret == 0 && items[2].ret == 0,
		   "three operations, three replies");
	unit_check(reps[0].have_stat && (reps[0].mode & 07777) == 0644 &&
		   (reps[1].mode & 07777) == 0600 && (reps[2].mode & 07777) == 0666,
		   "each item runs under its own umask");

	/* a crash in item 1: item 0 keeps its reply, item 1 is named. The
	 * caller inherits a file size limit of 0: item 1's one-byte write
	 * to a file is killed by SIGXFSZ (setrlimit(2)); creating the empty
	 * files of items 0 and 2 writes no byte. The limit is ours only
	 * while the batch runs (this process writes no file meanwhile). */
	create_req(0, "d", 022);
	create_req(1, "a", 022);
	reqs[1].op.op = VT_OP_WRITE;
	reqs[1].result[0] = 0;
	create_req(2, "e", 022);
	{
		struct rlimit old, zero;

		getrlimit(RLIMIT_FSIZE, &old);
		zero = old;
		zero.rlim_cur = 0;
		setrlimit(RLIMIT_FSIZE, &zero);
		got = mx_run_batch(&root, NULL, items, 3, 30, &fail, &every);
		setrlimit(RLIMIT_FSIZE, &old);
	}
	unit_check(got == 1 && items[0].ret == 0 && !every, "a crash stops at the item running");
	unit_check(fail.status == VT_CRASHED && fail.sig == SIGXFSZ &&
		   strstr(fail.msg, "SIGXFSZ") != NULL, "the crash is reported with its signal");

	/* a hang in item 1 (open(O_RDONLY) of a fifo waits for a writer) */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	mkfifo(fifo, 0600);
	create_req(0, "f", 022);
	create_req(1, "fifo", 022);
	reqs[1].op.op = VT_OP_OPEN_READ;
	reqs[1].result[0] = 0;
	create_req(2, "g", 022);
	got = mx_run_batch(&root, NULL, items, 3, 1, &fail, &every);
	unit_check(got == 1 && !every && strstr(fail.msg, "hung") != NULL,
		   "a hang is pinned on the item running");
	unit_check(access(reqs[2].path, F_OK) < 0, "nothing after the hung item ran");
	unit_check(no_child_left(), "the hung caller was killed and reaped");

	/* credentials that cannot be assumed: every item fails the same way */
	bad.userns_fd = 1000;	/* not open: setns fails */
	create_req(0, "h", 022);
	got = mx_run_batch(&bad, NULL, items, 1, 30, &fail, &every);
	unit_check(got == 0 && every && fail.status == VT_SETUP_FAILED &&
		   strstr(fail.msg, "setns") != NULL, "a setup failure fails every item");
	unit_check(access(reqs[0].path, F_OK) < 0, "no operation ran without the credentials");

	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", dir);
	}
	return unit_end();
}
