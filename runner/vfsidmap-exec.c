/* vfsidmap-exec: runs one test program in a world of its own.
 *
 *   vfsidmap-exec --fstype T --source S --mnt DIR [--mount-options O]
 *                 [--timeout SEC] [--status FILE] -- PROGRAM [ARGS...]
 *   vfsidmap-exec --fstype T --bind DIR2 --mnt DIR ... (an existing mount:
 *                 DIR2, a scratch directory of it, is bind-mounted on DIR;
 *                 T is its type as the mount table says, told to the test)
 *
 * The test gets a private mount namespace and a private pid namespace, with
 * the filesystem under test mounted at DIR inside them (an image file goes
 * through an autoclear loop device) and TEST_DIR/FSTYP in its environment.
 * Our child is the pid namespace's init; it reaps everything, enforces the
 * timeout and kills what is left. Both it and we die with our parent
 * (PR_SET_PDEATHSIG), and when the init of a pid namespace dies the kernel
 * kills every process in it: the namespaces, their mounts and with them the
 * loop device go away whatever happens to the runner, even SIGKILL.
 *
 * Exit status: 0 pass, 1 fail, 4 notrun, 124 timeout, 125 could not set up,
 * 128+N test killed by signal N. --status gets a one-line verdict. */
#include "util/errname.h"
#include "world/fsimage.h"
#include "leaks.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *status_path;
static char status_text[2048];

static void flush_status(void)
{
	FILE *f;

	if (!status_path)
		return;
	f = fopen(status_path, "we");
	if (!f)
		return;
	fprintf(f, "%s\n", status_text);
	fclose(f);
}

/* The one-line verdict (replaces the previous one). */
static void write_status(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(status_text, sizeof(status_text), fmt, ap);
	va_end(ap);
	flush_status();
}

static void usage_error(const char *msg)
{
	fprintf(stderr, "vfsidmap-exec: %s\n", msg);
	fprintf(stderr, "usage: vfsidmap-exec --fstype T {--source S | --bind DIR2} --mnt DIR "
			"[--mount-options O] [--timeout SEC] [--status FILE] -- PROGRAM [ARGS]\n");
	exit(2);
}

/* Die with the parent. A pid namespace's init sees getppid() == 0, so the
 * race "parent died before prctl" is closed with a pipe whose write end
 * only the parent holds: a hangup means it is gone. */
static void die_with_parent(int alive_fd)
{
	struct pollfd p = { .fd = alive_fd, .events = POLLIN };

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLIN)))
		_exit(125);
}

/* VT_KMSG_PHASES=1 (check's debug knob, common/kmsg.sh): a line
 * "vfsidmap: exec TAG PHASE" into the kernel log as each part of our work
 * ends (setup: namespaces, loop device, mount; test; teardown: what the
 * test left, the unmount, the loop device's release), so run/phase-times
 * can split the executor's time. TAG is the test's, from check's start
 * marker. */
static void phase(const char *what)
{
	const char *on = getenv("VT_KMSG_PHASES"), *tag = getenv("VT_KMSG_TAG");
	char line[128];
	int fd, n;

	if (!on || strcmp(on, "1") != 0 || !tag || !*tag)
		return;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "vfsidmap: exec %s %s\n", tag, what);
	if (n > 0 && (size_t)n < sizeof(line) && write(fd, line, (size_t)n) < 0)
		n = -1;
	close(fd);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Inside the new namespaces: mount, run, wait with a deadline, clean up. */
static int pid1(const char *fstype, const char *source, const char *mnt, const char *opts,
		bool bind, double timeout, char **argv)
{
	sigset_t chld;
	pid_t test;
	int status = 0, ret, code = -1;
	char leaks[1024];
	struct stat st;
	dev_t fs_dev;
	double deadline;

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		write_status("error: making / private failed: %s", vt_errname(errno));
		return 125;
	}
	/* A /proc for our pid namespace, so /proc/PID paths name our processes. */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		write_status("error: mounting /proc failed: %s", vt_errname(errno));
		return 125;
	}
	if (bind)
		ret = mount(source, mnt, NULL, MS_BIND, NULL) < 0 ? -errno : 0;
	else
		ret = vt_fs_mount(fstype, source, mnt, opts && *opts ? opts : NULL);
	if (ret < 0 && bind) {
		write_status("error: bind mount of %s on %s failed: %s", source, mnt, vt_errname(-ret));
		return 125;
	}
	if (ret < 0) {
		write_status("error: mount -t %s %s %s%s%s failed: %s", fstype, source, mnt,
			     opts && *opts ? " -o " : "", opts ? opts : "", vt_errname(-ret));
		return 125;
	}
	chmod(mnt, 0755);
	if (stat(mnt, &st) < 0) {
		write_status("error: stat %s failed: %s", mnt, vt_errname(errno));
		return 125;
	}
	fs_dev = st.st_dev;
	setenv("TEST_DIR", mnt, 1);
	setenv("FSTYP", fstype, 1);

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	phase("setup");
	test = fork();
	if (test < 0) {
		write_status("error: fork failed: %s", vt_errname(errno));
		return 125;
	}
	if (test == 0) {
		sigprocmask(SIG_UNBLOCK, &chld, NULL);
		setpgid(0, 0);
		execv(argv[0], argv);
		fprintf(stderr, "vfsidmap-exec: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(125);
	}
	deadline = now() + timeout;
	while (code < 0) {
		double left = deadline - now();
		struct timespec ts;
		pid_t pid;

		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			if (pid != test)
				continue; /* an orphan: reaped, nothing else */
			if (WIFSIGNALED(status)) {
				code = 128 + WTERMSIG(status);
				write_status("crashed: killed by SIG%s%s", vt_signame(WTERMSIG(status)),
					     WCOREDUMP(status) ? " (core dumped)" : "");
			} else {
				code = WEXITSTATUS(status);
				if (code == 125)
					write_status("error: test program could not be started");
				else
					write_status("%s", code == 0 ? "pass" : code == 4 ? "notrun" : "fail");
			}
			break;
		}
		if (code >= 0)
			break;
		if (left <= 0) {
			code = 124;
			write_status("timeout: killed after %.0f s", timeout);
			break;
		}
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		if (ts.tv_sec > 1) {
			ts.tv_sec = 1;
			ts.tv_nsec = 0;
		}
		sigtimedwait(&chld, NULL, &ts);
	}
	phase("test");
	/* Whatever the test left running in our pid namespace goes now. */
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	/* A test must clean up after itself; what it left is removed here and
	 * turns its verdict into a failure that says what it was. */
	if (vt_reap_leaks(mnt, fs_dev, leaks, sizeof(leaks)) > 0) {
		char said[sizeof(status_text)];

		memcpy(said, status_text, sizeof(said));
		if (code == 0 || code == 4) {
			write_status("fail: the test (which said %s) left behind: %s", said, leaks);
			code = 1;
		} else {
			write_status("%s; it also left behind: %s", said, leaks);
		}
	}
	umount2(mnt, MNT_DETACH);
	return code;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fstype", required_argument, NULL, 'f' },
		{ "source", required_argument, NULL, 's' },
		{ "bind", required_argument, NULL, 'b' },
		{ "mnt", required_argument, NULL, 'm' },
		{ "mount-options", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' },
		{ "status", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	const char *fstype = NULL, *source = "", *mnt = NULL, *mopts = NULL;
	bool bind = false;
	double timeout = 300;
	pid_t child;
	int c, status, alive[2];
	char *end;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'f': fstype = optarg; break;
		case 's': source = optarg; break;
		case 'b': source = optarg; bind = true; break;
		case 'm': mnt = optarg; break;
		case 'o': mopts = optarg; break;
		case 'S': status_path = optarg; break;
		case 't':
			timeout = strtod(optarg, &end);
			if (*end || timeout <= 0)
				usage_error("--timeout wants a positive number of seconds");
			break;
		default: usage_error("unknown option");
		}
	}
	if (!fstype || !mnt || optind >= argc)
		usage_error("--fstype, --mnt and a program are required");
	if (bind && (*source != '/' || (mopts && *mopts)))
		usage_error("--bind wants an absolute directory and no --mount-options");
	if (!bind && !vt_fstype_known(fstype))
		usage_error("unknown --fstype");
	if (!bind && vt_fstype_needs_device(fstype) && !*source)
		usage_error("--source is required for this filesystem");

	/* check runs with SIGINT, SIGTERM and SIGHUP ignored (its signals go
	 * to runner/vfsidmap-supervise, which sends SIGTERM to stop the
	 * test): the test's world takes the defaults back. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (unshare(CLONE_NEWNS | CLONE_NEWPID) < 0) {
		write_status("error: unshare(CLONE_NEWNS|CLONE_NEWPID) failed: %s",
			     vt_errname(errno));
		return 125;
	}
	if (pipe2(alive, O_CLOEXEC) < 0) {
		write_status("error: pipe failed: %s", vt_errname(errno));
		return 125;
	}
	child = fork();
	if (child < 0) {
		write_status("error: fork failed: %s", vt_errname(errno));
		return 125;
	}
	if (child == 0) {
		close(alive[1]);
		die_with_parent(alive[0]);
		close(alive[0]);
		_exit(pid1(fstype, source, mnt, mopts, bind, timeout, argv + optind));
	}
	close(alive[0]);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return 125;
	phase("teardown");
	if (WIFSIGNALED(status)) {
		write_status("error: namespace init killed by SIG%s", vt_signame(WTERMSIG(status)));
		return 125;
	}
	return WEXITSTATUS(status);
}
