/* The exec probe run (exec_probe.h). */
#include "world/exec_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static bool clear_inheritable(char *msg, size_t msglen)
{
	cap_t caps;
	bool ok = true;

	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	caps = cap_get_proc();
	if (!caps)
		return true;
	cap_clear_flag(caps, CAP_INHERITABLE);
	if (cap_set_proc(caps) < 0) {
		snprintf(msg, msglen, "clearing pI: %s", strerror(errno));
		ok = false;
	}
	cap_free(caps);
	return ok;
}

/* What the probe wrote to FD, up to LEN - 1 bytes, NUL-terminated (a
 * function of its own: nothing of it lives across the vfork) */
static void read_output(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = 0;
}

int vt_exec_probe(const char *path, struct vt_exec_creds *c, bool *have, char *msg,
		  size_t msglen)
{
	/* vfork(2): the child shares the caller's memory until it execs or
	 * exits, so it leaves execve's errno here (no pipe for it) */
	static volatile int exec_err;
	int out[2], status = 0, e;
	unsigned long long eff, prm;
	int dumpable;
	char buf[256];
	pid_t pid;

	*have = false;
	if (!clear_inheritable(msg, msglen))
		return 0;
	if (pipe2(out, O_CLOEXEC) < 0)
		return errno;
	exec_err = 0;
	/* vfork, not fork: the caller may be a big process, and the child
	 * only execs (or _exits): copying its page tables, and the
	 * copy-on-write faults after, cost more than the exec. The child
	 * has the caller's credentials either way (a task of its own) and
	 * execve gives the probe a new mm, so what it reports is the same. */
	pid = vfork();
	if (pid < 0) {
		e = errno;
		close(out[0]);
		close(out[1]);
		return e;
	}
	if (pid == 0) {
		char *argv[] = { (char *)path, NULL }, *envp[] = { NULL };

		if (dup2(out[1], 1) < 0)
			_exit(126);
		execve(path, argv, envp);
		exec_err = errno;
		_exit(127);
	}
	close(out[1]);
	/* the child has exec'd or exited: exec_err is final */
	e = exec_err;
	read_output(out[0], buf, sizeof(buf));
	close(out[0]);
	waitpid(pid, &status, 0);
	if (e)
		return e;
	if (sscanf(buf, "%u %u %u %u %u %u %llx %llx %d %u", &c->ruid, &c->euid, &c->suid, &c->rgid,
		   &c->egid, &c->sgid, &eff, &prm, &dumpable, &c->dump_owner) == 10) {
		c->cap_eff = eff;
		c->cap_prm = prm;
		c->dump_user = dumpable == 1;	/* SUID_DUMP_USER */
		*have = true;
	} else {
		snprintf(msg, msglen, "probe output \"%.60s\", status %#x", buf, (unsigned)status);
	}
	return 0;
}
