/* The reference FUSE server's connection: the mount it makes, INIT, the
 * request loop, replies and the request log (fuse_server.h). */
#include "fuse/fuse_server.h"
#include "util/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_WRITE (128 * 1024)
/* a WRITE of MAX_WRITE with its header and arguments (fuse_dev_do_read
 * wants room for the largest request: max_write plus FUSE_HEADER_OVERHEAD) */
#define REQ_BUF (MAX_WRITE + 8192)

int vt_fuse_server_start(struct vt_fuse_server *s, const struct vt_fuse_server_opts *o)
{
	char opts[256];
	struct stat st;
	int root, ret;

	memset(s, 0, sizeof(*s));
	s->devfd = -1;
	s->allow_idmap = o->allow_idmap;
	snprintf(s->mountpoint, sizeof(s->mountpoint), "%s", o->mountpoint);
	s->log = fopen(o->log_path, "we");
	if (!s->log) {
		ret = -errno;
		fprintf(stderr, "vfsidmap-fuse-server: open log %s: %s\n", o->log_path, strerror(-ret));
		return ret;
	}
	root = open(o->backing, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || fstat(root, &st) < 0) {
		ret = -errno;
		fprintf(stderr, "vfsidmap-fuse-server: backing directory %s: %s\n", o->backing,
			strerror(-ret));
		if (root >= 0)
			close(root);
		return ret;
	}
	ret = vt_fuse_nodes_init(&s->nodes, root);
	if (ret < 0) {
		close(root);
		return ret;
	}
	/* non-blocking: the loop waits in ppoll, where a signal can end it */
	s->devfd = open("/dev/fuse", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (s->devfd < 0) {
		ret = -errno;
		fprintf(stderr, "vfsidmap-fuse-server: open /dev/fuse: %s\n", strerror(-ret));
		return ret;
	}
	/* default_permissions: the kernel checks permissions itself, and a
	 * server's FUSE_ALLOW_IDMAP counts only with it (process_init_reply) */
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=%o,user_id=0,group_id=0,default_permissions,allow_other", s->devfd,
		 st.st_mode & S_IFMT);
	/* suid and dev allowed: a test may exec or open what it made */
	if (mount("vfsidmap-fuse", o->mountpoint, "fuse.vfsidmap", 0, opts) < 0) {
		ret = -errno;
		fprintf(stderr, "vfsidmap-fuse-server: mount %s (%s): %s\n", o->mountpoint, opts,
			strerror(-ret));
		return ret;
	}
	s->mounted = true;
	return 0;
}

void vt_fuse_server_close(struct vt_fuse_server *s)
{
	if (s->devfd >= 0)
		close(s->devfd);
	s->devfd = -1;
	vt_fuse_nodes_free(&s->nodes);
	if (s->log)
		fclose(s->log);
	s->log = NULL;
}

static void fault(struct vt_fuse_server *s, const char *what)
{
	fprintf(stderr, "vfsidmap-fuse-server: server error: %s\n", what);
	if (s->log) {
		fprintf(s->log, "server-error: %s\n", what);
		fflush(s->log);
	}
}

static int send_reply(struct vt_fuse_server *s, uint64_t unique, int err, const void *data,
		      size_t len)
{
	struct vt_fuse_out_header oh = { .len = (uint32_t)(sizeof(oh) + (err ? 0 : len)),
					 .error = err, .unique = unique };
	struct iovec iov[2] = { { &oh, sizeof(oh) }, { (void *)data, err ? 0 : len } };

	if (writev(s->devfd, iov, 2) < 0) {
		/* ENOENT: the request was interrupted and is gone */
		if (errno == ENOENT)
			return 0;
		return -errno;
	}
	return 0;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* INIT: the flags the passthrough needs, and FUSE_ALLOW_IDMAP when asked
 * to, each only if the kernel offered it */
static int op_init(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_init_in *in = (const void *)rq->arg;
	struct vt_fuse_init_out *o = (void *)rp->data;
	uint64_t offered, want;

	/* 7.36 and later send the 64-byte argument (FUSE_INIT_EXT) */
	if (rq->arglen < 16) {
		snprintf(s->fault, sizeof(s->fault), "INIT: %zu argument bytes", rq->arglen);
		return -EPROTO;
	}
	offered = in->flags;
	if (rq->arglen >= sizeof(*in) && (in->flags & VT_FUSE_INIT_EXT))
		offered |= (uint64_t)in->flags2 << 32;
	rp->offered = offered;
	if (in->major != VT_FUSE_MAJOR) {
		snprintf(s->fault, sizeof(s->fault), "INIT: protocol %u.%u, this server speaks 7.x",
			 in->major, in->minor);
		return -EPROTO;
	}
	want = VT_FUSE_BIG_WRITES | VT_FUSE_DONT_MASK | VT_FUSE_POSIX_ACL | VT_FUSE_MAX_PAGES |
	       VT_FUSE_SETXATTR_EXT | VT_FUSE_INIT_EXT | VT_FUSE_CREATE_SUPP_GROUP;
	if (s->allow_idmap)
		want |= VT_FUSE_ALLOW_IDMAP;
	want &= offered;
	memset(o, 0, sizeof(*o));
	o->major = VT_FUSE_MAJOR;
	o->minor = min_u32(in->minor, VT_FUSE_MINOR);
	o->max_readahead = in->max_readahead;
	o->flags = (uint32_t)want;
	o->flags2 = (uint32_t)(want >> 32);
	o->max_background = 16;
	o->congestion_threshold = 12;
	o->max_write = MAX_WRITE;
	o->time_gran = 1;
	o->max_pages = MAX_WRITE / 4096;
	s->minor = o->minor;
	rp->flags = want;
	rp->len = sizeof(*o);
	return 0;
}

/* Splits the request in BUF (N bytes read) into RQ; false for a request
 * the server cannot read (its fault message set). */
static bool parse_request(struct vt_fuse_server *s, const char *buf, size_t n, struct vt_fuse_req *rq)
{
	const struct vt_fuse_in_header *h = (const void *)buf;
	size_t ext, off;

	memset(rq, 0, sizeof(*rq));
	if (n < sizeof(*h)) {
		snprintf(s->fault, sizeof(s->fault), "short read: %zu bytes, a header is %zu", n,
			 sizeof(*h));
		return false;
	}
	rq->h = h;
	if (h->len != n) {
		snprintf(s->fault, sizeof(s->fault), "%s unique %llu: header says %u bytes, read %zu",
			 vt_fuse_opname(h->opcode), (unsigned long long)h->unique, h->len, n);
		return false;
	}
	ext = (size_t)h->total_extlen * 8;
	if (ext > n - sizeof(*h)) {
		snprintf(s->fault, sizeof(s->fault), "%s unique %llu: %zu extension bytes in %zu",
			 vt_fuse_opname(h->opcode), (unsigned long long)h->unique, ext,
			 n - sizeof(*h));
		return false;
	}
	rq->arg = buf + sizeof(*h);
	rq->arglen = n - sizeof(*h) - ext;
	/* extensions: struct fuse_ext_header records, each SIZE bytes */
	for (off = 0; off + sizeof(struct vt_fuse_ext_header) <= ext;) {
		const struct vt_fuse_ext_header *xh = (const void *)(rq->arg + rq->arglen + off);

		if (xh->size < sizeof(*xh) || xh->size > ext - off) {
			snprintf(s->fault, sizeof(s->fault), "%s unique %llu: extension of %u bytes",
				 vt_fuse_opname(h->opcode), (unsigned long long)h->unique, xh->size);
			return false;
		}
		if (xh->type == VT_FUSE_EXT_GROUPS &&
		    xh->size >= sizeof(*xh) + sizeof(struct vt_fuse_supp_groups) + sizeof(uint32_t)) {
			const struct vt_fuse_supp_groups *g = (const void *)(xh + 1);

			if (g->nr_groups >= 1) {
				rq->has_supp = true;
				rq->supp = g->groups[0];
			}
		}
		off += xh->size;
	}
	return true;
}

static void log_request(struct vt_fuse_server *s, const struct vt_fuse_req *rq,
			const struct vt_fuse_reply *rp, int err)
{
	struct vt_fuse_logrec r = { 0 };

	snprintf(r.op, sizeof(r.op), "%s", vt_fuse_opname(rq->h->opcode));
	r.unique = rq->h->unique;
	r.nodeid = rq->h->nodeid;
	snprintf(r.name, sizeof(r.name), "%s", rp->name);
	r.uid = rq->h->uid;
	r.gid = rq->h->gid;
	r.pid = rq->h->pid;
	r.has_supp = rq->has_supp;
	r.supp = rq->supp;
	r.flags = rp->flags;
	r.offered = rp->offered;
	r.noreply = rp->none;
	r.err = -err;
	vt_fuse_log_write(s->log, &r);
}

int vt_fuse_server_run(struct vt_fuse_server *s, volatile sig_atomic_t *stop)
{
	static char buf[REQ_BUF];
	static char reply[REQ_BUF];
	sigset_t none;
	int faults = 0;

	sigemptyset(&none);
	while (!*stop) {
		struct pollfd p = { .fd = s->devfd, .events = POLLIN };
		struct vt_fuse_reply rp;
		struct vt_fuse_req rq;
		ssize_t n;
		int err;

		/* signals are blocked except while waiting here */
		if (ppoll(&p, 1, NULL, &none) < 0) {
			if (errno == EINTR)
				continue;
			snprintf(s->fault, sizeof(s->fault), "poll /dev/fuse: %s", vt_errname(errno));
			fault(s, s->fault);
			faults++;
			break;
		}
		n = read(s->devfd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR || errno == ENOENT)
				continue;
			if (errno == ENODEV) {
				/* the filesystem was unmounted: the kernel's end */
				s->mounted = false;
				break;
			}
			snprintf(s->fault, sizeof(s->fault), "read /dev/fuse: %s", vt_errname(errno));
			fault(s, s->fault);
			faults++;
			break;
		}
		s->fault[0] = '\0';
		if (!parse_request(s, buf, (size_t)n, &rq)) {
			fault(s, s->fault);
			faults++;
			/* a header we could read still gets an answer */
			if ((size_t)n >= sizeof(struct vt_fuse_in_header))
				send_reply(s, rq.h->unique, -EIO, NULL, 0);
			continue;
		}
		memset(&rp, 0, sizeof(rp));
		rp.data = reply;
		rp.cap = sizeof(reply);
		if (rq.h->opcode == VT_FUSE_INIT)
			err = op_init(s, &rq, &rp);
		else if (rq.h->opcode == VT_FUSE_DESTROY)
			err = 0;
		else
			err = vt_fuse_passthrough(s, &rq, &rp);
		if (err == -EPROTO && s->fault[0]) {
			fault(s, s->fault);
			faults++;
			err = -EIO;
		}
		log_request(s, &rq, &rp, err);
		if (!rp.none && (err = send_reply(s, rq.h->unique, err, rp.data, rp.len)) < 0) {
			snprintf(s->fault, sizeof(s->fault), "%s unique %llu: reply: %s",
				 vt_fuse_opname(rq.h->opcode), (unsigned long long)rq.h->unique,
				 vt_errname(-err));
			fault(s, s->fault);
			faults++;
		}
		if (rq.h->opcode == VT_FUSE_INIT && s->initialized) {
			s->initialized();
			s->initialized = NULL;
		}
	}
	if (s->mounted && umount2(s->mountpoint, MNT_DETACH) < 0) {
		snprintf(s->fault, sizeof(s->fault), "umount2 %s, MNT_DETACH: %s", s->mountpoint,
			 vt_errname(errno));
		fault(s, s->fault);
		faults++;
	}
	s->mounted = false;
	return faults ? 1 : 0;
}
