/* Starting and stopping the reference FUSE server for a test
 * (fuse_world.h). */
#include "world/fuse_world.h"
#include "util/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int vt_fuse_server_path(char *buf, size_t len)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0)
		return -errno;
	self[n] = '\0';
	snprintf(buf, len, "%s/../../runner/vfsidmap-fuse-server", dirname(self));
	return access(buf, X_OK) < 0 ? -errno : 0;
}

/* waitpid with a deadline of MS milliseconds: the status, or -1 */
static int wait_for(pid_t pid, int ms, int *status)
{
	for (int t = 0; t <= ms; t += 10) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	return -1;
}

int vt_fuse_mount_start(struct vt_fuse_mount *m, const char *backing, const char *mountpoint,
			const char *log, bool allow_idmap, char *why, size_t whylen)
{
	char prog[4200], line[64];
	int p[2], ret, status;
	struct stat st;
	ssize_t n;
	pid_t pid;

	memset(m, 0, sizeof(*m));
	snprintf(m->mountpoint, sizeof(m->mountpoint), "%s", mountpoint);
	snprintf(m->log, sizeof(m->log), "%s", log);
	ret = vt_fuse_server_path(prog, sizeof(prog));
	if (ret < 0) {
		snprintf(why, whylen, "no server program %s: %s", prog, vt_errname(-ret));
		return ret;
	}
	if (pipe2(p, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "pipe: %s", vt_errname(errno));
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(p[0]);
		close(p[1]);
		snprintf(why, whylen, "fork: %s", vt_errname(-ret));
		return ret;
	}
	if (pid == 0) {
		char *argv[] = { prog, allow_idmap ? NULL : "--no-allow-idmap", NULL, NULL, NULL, NULL };
		int a = allow_idmap ? 1 : 2;

		argv[a] = (char *)backing;
		argv[a + 1] = (char *)mountpoint;
		argv[a + 2] = (char *)log;
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(2);
		/* setsid: a ^C at the runner's terminal goes to the test, not the server */
		setsid();
		execv(prog, argv);
		_exit(127);
	}
	close(p[1]);
	/* a server stuck before INIT must not hang the test: 10 s */
	{
		struct pollfd pf = { .fd = p[0], .events = POLLIN };

		n = poll(&pf, 1, 10000) == 1 ? read(p[0], line, sizeof(line) - 1) : -1;
	}
	close(p[0]);
	if (n <= 0 || strncmp(line, "ready", 5) != 0) {
		if (wait_for(pid, n < 0 ? 0 : 5000, &status) < 0) {
			/* SIGTERM first: the server detaches a mount it made */
			kill(pid, SIGTERM);
			if (wait_for(pid, 5000, &status) < 0) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				umount2(mountpoint, MNT_DETACH);
			}
		}
		snprintf(why, whylen, "%s did not start (exit status %d; its stderr says why)", prog,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -ECHILD;
	}
	m->pid = pid;
	/* "ready" comes once INIT is answered: the mount is usable */
	if (stat(mountpoint, &st) < 0) {
		ret = -errno;
		snprintf(why, whylen, "stat %s after the server mounted it: %s", mountpoint,
			 vt_errname(-ret));
		vt_fuse_mount_stop(m, line, sizeof(line));
		return ret;
	}
	return 0;
}

int vt_fuse_mount_stop(struct vt_fuse_mount *m, char *why, size_t whylen)
{
	int status = 0;

	why[0] = '\0';
	if (!m->pid)
		return 0;
	if (umount2(m->mountpoint, 0) < 0)
		snprintf(why, whylen, "umount %s: %s", m->mountpoint, vt_errname(errno));
	if (wait_for(m->pid, 5000, &status) < 0) {
		kill(m->pid, SIGTERM);
		if (wait_for(m->pid, 5000, &status) < 0) {
			kill(m->pid, SIGKILL);
			waitpid(m->pid, &status, 0);
			umount2(m->mountpoint, MNT_DETACH);
		}
		snprintf(why + strlen(why), whylen - strlen(why),
			 "%sthe server did not end when its filesystem was unmounted",
			 why[0] ? "; " : "");
		m->pid = 0;
		return -1;
	}
	m->pid = 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	snprintf(why, whylen, "the server died of signal %s", vt_signame(WTERMSIG(status)));
	return -1;
}

int vt_fuse_log_each(const char *log, void (*fn)(const struct vt_fuse_logrec *r, void *arg),
		     void *arg, int *server_errors, char *why, size_t whylen)
{
	FILE *f = fopen(log, "re");
	char line[1024];
	int n = 0;

	*server_errors = 0;
	if (!f) {
		snprintf(why, whylen, "open %s: %s", log, vt_errname(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		struct vt_fuse_logrec r;

		if (strncmp(line, "server-error:", 13) == 0) {
			if ((*server_errors)++ == 0)
				snprintf(why, whylen, "%s", line + 13);
			continue;
		}
		if (!vt_fuse_log_parse(line, &r)) {
			if ((*server_errors)++ == 0)
				snprintf(why, whylen, "a log line that does not parse: %s", line);
			continue;
		}
		fn(&r, arg);
		n++;
	}
	fclose(f);
	return n;
}
