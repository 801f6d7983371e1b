/* How a user-namespace fd is made: a child unshares CLONE_NEWUSER (after
 * joining PARENT_FD if nesting) and waits; a writer that lives in the parent
 * namespace writes the maps (user_namespaces(7): the writer must be in the
 * namespace or its parent and hold CAP_SETUID/CAP_SETGID there); we open
 * /proc/CHILD/ns/user, then let the child exit and reap it. */
#include "userns.h"
#include "util/syscalls.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

/* Writes the maps of PID; runs in the parent namespace. */
static int write_maps(pid_t pid, const struct vt_mapping *m)
{
	const struct vt_idmap *maps[2] = { &m->uid, &m->gid };
	const char *names[2] = { "uid_map", "gid_map" };
	char path[64], buf[VT_MAX_EXTENTS * 36 + 1];
	int i, ret;

	for (i = 0; i < 2; i++) {
		if (!maps[i]->nr)
			continue;
		if (vt_idmap_format(maps[i], buf, sizeof(buf)) < 0)
			return -ENOSPC;
		snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, names[i]);
		ret = write_file(path, buf);
		if (ret)
			return ret;
	}
	return 0;
}

static int wait_exit_code(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return -EINTR;
}

/* AS_ROOT: the holder becomes uid/gid 0 of PARENT_FD before unsharing,
 * so the new namespace is owned by the parent namespace's root. */
static int userns_create(int parent_fd, const struct vt_mapping *m, bool as_root)
{
	int ready[2], release[2];
	char c = 0, path[64];
	pid_t child, writer;
	int fd = -1, ret;

	if (pipe2(ready, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(release, O_CLOEXEC) < 0) {
		ret = -errno;
		close(ready[0]);
		close(ready[1]);
		return ret;
	}
	child = fork();
	if (child < 0) {
		ret = -errno;
		goto out_pipes;
	}
	if (child == 0) {
		/* The holder: dies with us, so a killed caller leaves nothing. */
		char status = 0;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		close(release[1]);
		if (parent_fd >= 0 && setns(parent_fd, CLONE_NEWUSER) < 0)
			status = (char)errno;
		else if (as_root && (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0))
			status = (char)errno;
		else if (unshare(CLONE_NEWUSER) < 0)
			status = (char)errno;
		if (write(ready[1], &status, 1) != 1)
			_exit(1);
		/* wait until the parent has opened our namespace */
		(void)!read(release[0], &status, 1);
		_exit(0);
	}
	close(ready[1]);
	ready[1] = -1;
	close(release[0]);
	release[0] = -1;
	if (read(ready[0], &c, 1) != 1) {
		ret = -ECHILD;
		goto out_child;
	}
	if (c) {
		ret = -(int)(unsigned char)c;
		goto out_child;
	}
	if (parent_fd < 0) {
		ret = write_maps(child, m);
	} else {
		/* The writer must live in the parent namespace. */
		writer = fork();
		if (writer < 0) {
			ret = -errno;
			goto out_child;
		}
		if (writer == 0) {
			int r;
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (setns(parent_fd, CLONE_NEWUSER) < 0)
				_exit(errno & 0xff);
			r = write_maps(child, m);
			_exit(r < 0 ? -r : 0);
		}
		ret = wait_exit_code(writer);
		ret = ret > 0 ? -ret : ret;
	}
	if (ret == 0) {
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)child);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			ret = -errno;
	}
out_child:
	close(release[1]);
	release[1] = -1;
	wait_exit_code(child);
out_pipes:
	if (ready[0] >= 0)
		close(ready[0]);
	if (ready[1] >= 0)
		close(ready[1]);
	if (release[0] >= 0)
		close(release[0]);
	if (release[1] >= 0)
		close(release[1]);
	return ret < 0 ? ret : fd;
}

int vt_userns_create(int parent_fd, const struct vt_mapping *m)
{
	return userns_create(parent_fd, m, false);
}

int vt_userns_nested_by_root(int parent_fd, const char *spec)
{
	struct vt_mapping m;
	char err[256];

	if (parent_fd < 0 || vt_mapping_parse(spec, &m, err, sizeof(err)) < 0)
		return -EINVAL;
	return userns_create(parent_fd, &m, true);
}

int vt_userns_from_spec(int parent_fd, const char *spec)
{
	struct vt_mapping m;
	char err[256];

	if (vt_mapping_parse(spec, &m, err, sizeof(err)) < 0)
		return -EINVAL;
	return vt_userns_create(parent_fd, &m);
}

/* fsconfig() of one "key=value" (FSCONFIG_SET_STRING) or "flag"
 * (FSCONFIG_SET_FLAG) option; 0 or -1 with errno. */
static int set_option(int fsfd, const char *opt)
{
	const char *eq = strchr(opt, '=');
	char key[256];

	if (!eq)
		return vt_fsconfig(fsfd, VT_FSCONFIG_SET_FLAG, opt, NULL, 0);
	if ((size_t)(eq - opt) >= sizeof(key)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(key, opt, (size_t)(eq - opt));
	key[eq - opt] = '\0';
	return vt_fsconfig(fsfd, VT_FSCONFIG_SET_STRING, key, eq + 1, 0);
}

/* The child half of vt_fsmount_in_userns_opts(): 0 or an errno. */
static int fsmount_child(int userns_fd, const char *fstype, const char *const *opts, int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct msghdr msg = { 0 };
	struct cmsghdr *cm;
	struct iovec iov;
	char byte = 0;
	int fsfd, mfd;

	if (setns(userns_fd, CLONE_NEWUSER) < 0 || setresgid(0, 0, 0) < 0 ||
	    setresuid(0, 0, 0) < 0 || unshare(CLONE_NEWNS) < 0)
		return errno;
	fsfd = vt_fsopen(fstype, VT_FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return errno;
	for (; opts && *opts; opts++)
		if (set_option(fsfd, *opts) < 0)
			return errno;
	if (vt_fsconfig(fsfd, VT_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return errno;
	mfd = vt_fsmount(fsfd, VT_FSMOUNT_CLOEXEC, 0);
	if (mfd < 0)
		return errno;
	iov.iov_base = &byte;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &mfd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : errno;
}

int vt_fsmount_in_userns(int userns_fd, const char *fstype)
{
	return vt_fsmount_in_userns_opts(userns_fd, fstype, NULL);
}

int vt_fsmount_in_userns_opts(int userns_fd, const char *fstype, const char *const *opts)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct msghdr msg = { 0 };
	struct cmsghdr *cm;
	struct iovec iov;
	char byte;
	int sv[2], fd = -1, ret;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(sv[0]);
		close(sv[1]);
		return ret;
	}
	if (pid == 0) {
		close(sv[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		_exit(fsmount_child(userns_fd, fstype, opts, sv[1]) & 0xff);
	}
	close(sv[1]);
	iov.iov_base = &byte;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	if (recvmsg(sv[0], &msg, MSG_CMSG_CLOEXEC) == 1 && (cm = CMSG_FIRSTHDR(&msg)) &&
	    cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	close(sv[0]);
	ret = wait_exit_code(pid);
	if (fd >= 0)
		return fd;
	return ret > 0 ? -ret : -ECHILD;
}
