/* vfsidmap-supervise: receives check's signals so that bash never has to.
 *
 * usage: vfsidmap-supervise -- PROGRAM [ARGS...]
 *
 * bash runs a trap at points where its own parser state is not saved: a
 * SIGINT that lands while bash 5.2 is expanding a command substitution
 * fails with "interrupt trap: unexpected EOF while looking for matching
 * `)'", the signal is lost and the assignment that was being made is not
 * made, so a path variable stays empty and later writes land in "/". No
 * amount of care in the script closes that window, so check runs under
 * this process instead and sets no trap at all:
 *
 * - This process keeps the pid the caller started (check execs it), and
 *   takes SIGINT, SIGTERM and SIGHUP with sigwaitinfo (blocked, never a
 *   handler).
 * - PROGRAM (check's bash) runs with those three signals ignored, so no
 *   signal can reach bash's own code at any instant. Its fd 4 is a memfd;
 *   VT_SIGNAL_FD=4 tells it so. When a signal comes, its name is written
 *   there ("SIGINT\n"), and check reads it at the points where it decides
 *   whether to go on (between tests, sections, iterations): the run then
 *   ends through its normal path, its results published marked incomplete.
 * - The test running at that moment is stopped: every descendant of
 *   PROGRAM gets SIGTERM. Those that inherited the ignored dispositions
 *   (bash, its subshells, mv, cp, mkfs) are not affected; vfsidmap-exec
 *   restores the default and dies, and the pid namespace of the test it
 *   leads dies with it. The sweep repeats every 100 ms until PROGRAM ends,
 *   so an executor started just after the signal is stopped too.
 * - PROGRAM dies with this process (PR_SET_PDEATHSIG: SIGKILL), as check
 *   itself would have died from a SIGKILL.
 *
 * Exits with PROGRAM's status (128+N if a signal N killed it). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SIGNAL_FD 4

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	}
	return "a signal";
}

/* The parent of PID from /proc/PID/stat (proc(5): field 4; the comm
 * field 2 may hold spaces and parentheses, so count from the last ')'). */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd, ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return -1;
	return ppid;
}

/* SIGTERM to every descendant of ROOT (not ROOT: it ignores it anyway).
 * Processes are found by their parent links; the list is read again
 * until a pass finds nothing new, so a grandchild whose parent was seen
 * later in the directory is not missed. */
static void terminate_descendants(pid_t root)
{
	enum { MAX = 4096 };
	static pid_t tree[MAX];
	size_t n = 1, i, before;
	struct dirent *e;
	DIR *d;

	tree[0] = root;
	do {
		before = n;
		d = opendir("/proc");
		if (!d)
			return;
		while ((e = readdir(d)) && n < MAX) {
			char *end;
			long pid = strtol(e->d_name, &end, 10);
			pid_t ppid;

			if (*end || pid <= 0)
				continue;
			for (i = 0; i < n && tree[i] != (pid_t)pid; i++)
				;
			if (i < n)
				continue;
			ppid = parent_of((pid_t)pid);
			for (i = 0; i < n && tree[i] != ppid; i++)
				;
			if (i < n)
				tree[n++] = (pid_t)pid;
		}
		closedir(d);
	} while (n != before && n < MAX);
	for (i = 1; i < n; i++)
		kill(tree[i], SIGTERM);
}

static int status_of(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

int main(int argc, char **argv)
{
	sigset_t set;
	pid_t parent = getpid(), child;
	int memfd, got = 0;

	if (argc < 3 || strcmp(argv[1], "--") != 0) {
		fprintf(stderr, "usage: vfsidmap-supervise -- PROGRAM [ARGS...]\n");
		return 2;
	}
	memfd = memfd_create("vfsidmap-signal", MFD_CLOEXEC);
	if (memfd < 0) {
		perror("vfsidmap-supervise: memfd_create");
		return 2;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	/* blocked before the fork: a signal that comes at once is queued
	 * for sigwaitinfo below, never lost */
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) {
		perror("vfsidmap-supervise: sigprocmask");
		return 2;
	}
	child = fork();
	if (child < 0) {
		perror("vfsidmap-supervise: fork");
		return 2;
	}
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(137);
		/* memfd may be SIGNAL_FD itself (fds 0-3 open, 4 free): dup2
		 * then does nothing and the descriptor keeps its close-on-exec */
		if (memfd == SIGNAL_FD) {
			if (fcntl(memfd, F_SETFD, 0) != 0) {
				perror("vfsidmap-supervise: fcntl");
				_exit(2);
			}
		} else if (dup2(memfd, SIGNAL_FD) != SIGNAL_FD) {
			perror("vfsidmap-supervise: dup2");
			_exit(2);
		}
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		setenv("VT_SIGNAL_FD", "4", 1);
		{
			/* the pid the caller started, for what check tells users */
			char pid[24];

			snprintf(pid, sizeof(pid), "%d", (int)parent);
			setenv("VT_SUPERVISOR_PID", pid, 1);
		}
		execvp(argv[2], argv + 2);
		fprintf(stderr, "vfsidmap-supervise: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	for (;;) {
		struct timespec tick = { 0, 100 * 1000 * 1000 };
		siginfo_t si;
		int sig, wstatus;
		pid_t w;

		sig = got ? sigtimedwait(&set, &si, &tick) : sigwaitinfo(&set, &si);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			if (!got) {
				/* the first signal names the interruption */
				char line[16];
				int len = snprintf(line, sizeof(line), "%s\n", signal_name(sig));

				if (pwrite(memfd, line, (size_t)len, 0) != len)
					perror("vfsidmap-supervise: writing the signal");
			}
			got = 1;
		}
		while ((w = waitpid(child, &wstatus, WNOHANG)) < 0 && errno == EINTR)
			;
		if (w == child)
			return status_of(wstatus);
		if (got)
			terminate_descendants(child);
	}
}
