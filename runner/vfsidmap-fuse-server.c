/* vfsidmap-fuse-server: the suite's reference FUSE server (lib/fuse/).
 *
 *   vfsidmap-fuse-server [--no-allow-idmap] BACKING MOUNTPOINT LOG
 *
 * Mounts a passthrough of the directory BACKING at MOUNTPOINT (type
 * fuse.vfsidmap, source vfsidmap-fuse), prints "ready" on stdout once it
 * has answered INIT, and serves it, logging every request to LOG. It asks
 * FUSE_ALLOW_IDMAP in its INIT reply unless --no-allow-idmap. It exits
 * when the filesystem is unmounted, and on SIGTERM or SIGINT after
 * detaching the mount (umount2 MNT_DETACH). Exit status: 0, 1 after a
 * server error (on stderr and in the log), 2 for a usage or setup error.
 * Lives with the runner's programs: tests start it, like vfsidmap-exec,
 * as a program next to theirs (tests/idmapped/011). */
#include "fuse/fuse_server.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static volatile sig_atomic_t stop;

/* After INIT: a request a test makes from now on was allocated after the
 * kernel processed the INIT reply. fs/fuse/dev.c fuse_get_req reads
 * SB_I_NOIDMAP before it waits for INIT, so a request that waited there
 * would carry the caller's ids even with FUSE_ALLOW_IDMAP. */
static void announce_ready(void)
{
	printf("ready\n");
	fflush(stdout);
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct vt_fuse_server_opts o = { .allow_idmap = true };
	struct vt_fuse_server s;
	struct sigaction sa;
	sigset_t block;
	int i = 1, ret;

	if (argc > 1 && strcmp(argv[1], "--no-allow-idmap") == 0) {
		o.allow_idmap = false;
		i++;
	}
	if (argc - i != 3) {
		fprintf(stderr, "usage: %s [--no-allow-idmap] BACKING MOUNTPOINT LOG\n", argv[0]);
		return 2;
	}
	o.backing = argv[i];
	o.mountpoint = argv[i + 1];
	o.log_path = argv[i + 2];
	/* the request's umask is applied per creation (FUSE_DONT_MASK) */
	umask(0);
	/* SIGTERM and SIGINT are taken only while the loop waits (ppoll) */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, NULL);
	if (vt_fuse_server_start(&s, &o) < 0) {
		vt_fuse_server_close(&s);
		return 2;
	}
	s.initialized = announce_ready;
	ret = vt_fuse_server_run(&s, &stop);
	vt_fuse_server_close(&s);
	return ret;
}
