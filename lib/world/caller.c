/* Assuming a caller's credentials in a child process.
 *
 * Order matters: join the user namespace (needs CAP_SYS_ADMIN, which the
 * initial root has over every namespace); set groups and gids while still
 * privileged; keep capabilities across setresuid (PR_SET_KEEPCAPS), raise
 * them again to set fsuid/fsgid, then install the final capability set. */
#include "caller.h"

#include "util/errname.h"
#include "util/fd_io.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct vt_caller vt_caller_root(void)
{
	struct vt_caller c = { .userns_fd = -1, .uid = 0, .gid = 0, .fsuid = VT_SAME,
			       .fsgid = VT_SAME };
	return c;
}

struct vt_caller vt_caller_user(uid_t uid, gid_t gid)
{
	struct vt_caller c = { .userns_fd = -1, .uid = uid, .gid = gid, .fsuid = VT_SAME,
			       .fsgid = VT_SAME };
	return c;
}

int vt_caller_describe(const struct vt_caller *c, char *buf, size_t len)
{
	size_t off = 0;
	int i, n;

#define ADD(...)                                                          \
	do {                                                              \
		n = snprintf(buf + off, off < len ? len - off : 0, __VA_ARGS__); \
		if (n > 0)                                                \
			off += (size_t)n;                                 \
	} while (0)
	if (c->userns_fd >= 0)
		ADD("userns(%s) ", c->userns_desc ? c->userns_desc : "?");
	else
		ADD("init-userns ");
	ADD("uid=%u gid=%u", (unsigned)c->uid, (unsigned)c->gid);
	if (c->fsuid != VT_SAME)
		ADD(" fsuid=%u", (unsigned)c->fsuid);
	if (c->fsgid != VT_SAME)
		ADD(" fsgid=%u", (unsigned)c->fsgid);
	ADD(" groups=[");
	for (i = 0; i < c->ngroups; i++)
		ADD("%s%u", i ? "," : "", (unsigned)c->groups[i]);
	ADD("] caps=%s", c->caps ? (*c->caps ? c->caps : "none")
				 : (c->uid == 0 ? "all" : "none"));
	if (c->bset_drop)
		ADD(" bset-dropped=%#llx", c->bset_drop);
	if (c->set_umask)
		ADD(" umask=%03o", (unsigned)c->umask);
#undef ADD
	return (int)off;
}

static int set_caps_text(const char *text)
{
	cap_t caps = cap_from_text(text);
	int ret;

	if (!caps)
		return -EINVAL;
	ret = cap_set_proc(caps);
	ret = ret < 0 ? -errno : 0;
	cap_free(caps);
	return ret;
}

/* Raise every permitted capability to effective. */
static int raise_permitted(void)
{
	cap_t caps = cap_get_proc();
	cap_value_t v;
	cap_flag_value_t on;
	int ret;

	if (!caps)
		return -errno;
	for (v = 0; v <= CAP_LAST_CAP; v++)
		if (cap_get_flag(caps, v, CAP_PERMITTED, &on) == 0 && on == CAP_SET)
			cap_set_flag(caps, CAP_EFFECTIVE, 1, &v, CAP_SET);
	ret = cap_set_proc(caps) < 0 ? -errno : 0;
	cap_free(caps);
	return ret;
}

int vt_caller_become(const struct vt_caller *c, char *msg, size_t len)
{
	uid_t fsuid = c->fsuid == VT_SAME ? c->uid : c->fsuid;
	gid_t fsgid = c->fsgid == VT_SAME ? c->gid : c->fsgid;
	int ret;

#define STEP(what, expr)                                                           \
	do {                                                                        \
		if ((expr) < 0) {                                                   \
			int e_ = errno;                                             \
			snprintf(msg, len, "%s failed: %s", what, vt_errname(e_));  \
			return -e_;                                                 \
		}                                                                   \
	} while (0)
	if (c->userns_fd >= 0)
		STEP("setns(user namespace)", setns(c->userns_fd, CLONE_NEWUSER));
	STEP("setgroups", setgroups((size_t)c->ngroups, c->groups));
	STEP("setresgid", setresgid(c->gid, c->gid, c->gid));
	STEP("prctl(PR_SET_KEEPCAPS)", prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	STEP("setresuid", setresuid(c->uid, c->uid, c->uid));
	ret = raise_permitted();
	if (ret < 0) {
		snprintf(msg, len, "raising capabilities failed: %s", vt_errname(-ret));
		return ret;
	}
	/* the bounding set is per cred and full after setns (set_cred_user_ns);
	 * dropping needs CAP_SETPCAP, still held here */
	for (int b = 0; b < 64; b++)
		if (c->bset_drop & (1ULL << b))
			STEP("prctl(PR_CAPBSET_DROP)", prctl(PR_CAPBSET_DROP, b, 0, 0, 0));
	/* setfsuid() reports the previous value, never an error: verify. */
	setfsgid(fsgid);
	if ((gid_t)setfsgid((gid_t)-1) != fsgid) {
		snprintf(msg, len, "setfsgid(%u) did not take effect", (unsigned)fsgid);
		return -EPERM;
	}
	setfsuid(fsuid);
	if ((uid_t)setfsuid((uid_t)-1) != fsuid) {
		snprintf(msg, len, "setfsuid(%u) did not take effect", (unsigned)fsuid);
		return -EPERM;
	}
	if (c->caps)
		ret = set_caps_text(*c->caps ? c->caps : "=");
	else
		ret = c->uid == 0 ? raise_permitted() : set_caps_text("=");
	if (ret < 0) {
		snprintf(msg, len, "cap_set_proc(%s) failed: %s", c->caps ? c->caps : "default",
			 vt_errname(-ret));
		return ret;
	}
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	if (c->set_umask)
		umask(c->umask);
#undef STEP
	return 0;
}

struct reply_head {
	int setup_err;
	int ret;
	char msg[256];
};

struct vt_run vt_run_as(const struct vt_caller *c, vt_caller_fn fn, void *arg, void *data,
			size_t datalen)
{
	struct vt_run run = { .status = VT_SETUP_FAILED };
	struct reply_head head;
	int pfd[2], status;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(run.msg, sizeof(run.msg), "pipe failed: %s", vt_errname(errno));
		return run;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(run.msg, sizeof(run.msg), "fork failed: %s", vt_errname(errno));
		close(pfd[0]);
		close(pfd[1]);
		return run;
	}
	if (pid == 0) {
		close(pfd[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		memset(&head, 0, sizeof(head));
		head.setup_err = vt_caller_become(c, head.msg, sizeof(head.msg));
		if (head.setup_err == 0)
			head.ret = fn(arg, data, datalen);
		/* a short write shows as "no reply" in the parent */
		if (vt_write_full(pfd[1], &head, sizeof(head)) && head.setup_err == 0 && data &&
		    datalen)
			vt_write_full(pfd[1], data, datalen);
		_exit(0);
	}
	close(pfd[1]);
	memset(&head, 0, sizeof(head));
	if (!vt_read_full(pfd[0], &head, sizeof(head))) {
		head.setup_err = -EIO;
		snprintf(head.msg, sizeof(head.msg), "caller process sent no reply");
	} else if (head.setup_err == 0 && data && datalen && !vt_read_full(pfd[0], data, datalen)) {
		head.setup_err = -EIO;
		snprintf(head.msg, sizeof(head.msg), "caller process sent a short reply");
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		run.status = VT_CRASHED;
		run.sig = WTERMSIG(status);
		snprintf(run.msg, sizeof(run.msg), "caller process killed by SIG%s",
			 vt_signame(run.sig));
		return run;
	}
	if (head.setup_err) {
		run.status = VT_SETUP_FAILED;
		snprintf(run.msg, sizeof(run.msg), "%s", head.msg[0] ? head.msg : "no reply");
		return run;
	}
	run.status = VT_RAN;
	run.ret = head.ret;
	return run;
}
