/* api/012: io_uring IORING_OP_OPENAT with O_CREAT through an idmapped mount.
 *
 * io_openat_prep() forces an O_CREAT open to the io-wq worker
 * (io_openat_force_async, io_uring/openclose.c), which runs it with the
 * credentials captured when the request was queued (io_prep_async_work:
 * req->creds = get_current_cred(); io_wq_submit_work overrides to them).
 * io_openat2() then calls do_filp_open(), the path openat(2) takes, so
 * the mount's idmap rules are those of open(O_CREAT) (fs/namei.c):
 * may_o_create() refuses a caller whose fsuid/fsgid has no mapping through
 * the mount (fsuidgid_has_mapping -> EOVERFLOW) and the new inode is owned
 * by mapped_fsuid()/mapped_fsgid() (inode_init_owner), i.e. the caller's
 * fsuid mapped back through the mount (b:1000:1001:1: 1001 -> 1000 on
 * disk). The ring is driven with raw io_uring_setup/io_uring_enter, no
 * liburing. notrun when the kernel has no io_uring (ENOSYS), when it is
 * disabled for the caller (kernel.io_uring_disabled: EPERM) or lacks
 * IORING_OP_OPENAT (EINVAL), probed as the case's caller on the plain
 * mount. */
#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAP "b:1000:1001:1"

/* One IORING_OP_OPENAT(AT_FDCWD, PATH, O_CREAT|O_EXCL|O_WRONLY, 0644) on a
 * fresh ring; returns 0 or the errno (of the setup, or the CQE's). */
static int uring_creat(void *arg, void *data, size_t len)
{
	struct io_uring_params p;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	size_t sq_len, cq_len;
	void *sq, *cq;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask, idx;
	int ring, ret, res;

	memset(&p, 0, sizeof(p));
	ring = (int)syscall(__NR_io_uring_setup, 4, &p);
	if (ring < 0)
		return errno;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sq_len = cq_len = sq_len > cq_len ? sq_len : cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
		  IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED) {
		ret = errno;
		close(ring);
		return ret;
	}
	cq = sq;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
			  IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED) {
			ret = errno;
			close(ring);
			return ret;
		}
	}
	sqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
	if (sqes == MAP_FAILED) {
		ret = errno;
		close(ring);
		return ret;
	}
	sq_tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	sq_mask = (unsigned int *)((char *)sq + p.sq_off.ring_mask);
	sq_array = (unsigned int *)((char *)sq + p.sq_off.array);
	cq_head = (unsigned int *)((char *)cq + p.cq_off.head);
	cq_tail = (unsigned int *)((char *)cq + p.cq_off.tail);
	cq_mask = (unsigned int *)((char *)cq + p.cq_off.ring_mask);
	cqes = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes);

	idx = *sq_tail & *sq_mask;
	memset(&sqes[idx], 0, sizeof(sqes[idx]));
	sqes[idx].opcode = IORING_OP_OPENAT;
	sqes[idx].fd = AT_FDCWD;
	sqes[idx].addr = (uint64_t)(uintptr_t)arg;
	sqes[idx].len = 0644;
	sqes[idx].open_flags = O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC;
	sq_array[idx] = idx;
	__atomic_store_n(sq_tail, *sq_tail + 1, __ATOMIC_RELEASE);

	ret = (int)syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0);
	if (ret < 0) {
		ret = errno;
		close(ring);
		return ret;
	}
	if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head) {
		close(ring);
		return ENODATA; /* no completion: cannot happen with min_complete 1 */
	}
	res = cqes[*cq_head & *cq_mask].res;
	__atomic_store_n(cq_head, *cq_head + 1, __ATOMIC_RELEASE);
	close(ring);
	if (res >= 0) {
		close(res);
		return 0;
	}
	return -res;
}

struct scene {
	char src[4096], mnt[4096];
};

/* src/ (1000:1000, 0755) and the mount over it. */
static bool make_scene(struct vt_ctx *ctx, struct scene *s)
{
	if (!vt_owned_dir(ctx, "src", 0755, 0644, 1000, 1000, s->src, sizeof(s->src)) ||
	    !vt_idmapped_at(ctx, s->src, MAP, "mnt", s->mnt, sizeof(s->mnt)))
		return false;
	vt_scene(ctx, "mount %s idmapped %s over %s (1000:1000, 0755)", s->mnt, MAP, s->src);
	return true;
}

/* io_uring and IORING_OP_OPENAT usable by C: an O_CREAT in a directory of
 * the plain mount C may write (a probe through the idmapped mount would
 * take a translation error for a missing feature). */
static bool require_uring(struct vt_ctx *ctx, const struct vt_caller *c)
{
	char dir[4096], path[4200];

	if (!vt_owned_dir(ctx, "probe", 0777, 0666, 0, 0, dir, sizeof(dir)))
		return false;
	snprintf(path, sizeof(path), "%s/p", dir);
	if (!vt_probe_feature(ctx, "io_uring IORING_OP_OPENAT(O_CREAT) on the plain mount", c,
			      uring_creat, path)) {
		vt_skip(ctx, "io_uring IORING_OP_OPENAT is not usable here by this caller "
			     "(no io_uring, kernel.io_uring_disabled, or no OPENAT: see the probe line)");
		return false;
	}
	return true;
}

static void create_through_mount(struct vt_ctx *ctx, struct vt_caller *c, const char *who,
				 const char *rule)
{
	char path[4200], disk[4200], what[400];
	struct scene s;
	struct vt_run r;

	if (!require_uring(ctx, c) || !make_scene(ctx, &s))
		return;
	snprintf(path, sizeof(path), "%s/new", s.mnt);
	snprintf(disk, sizeof(disk), "%s/new", s.src);
	r = vt_run_as(c, uring_creat, path, NULL, 0);
	if (!vt_expect_ran(ctx, c, &r))
		return;
	snprintf(what, sizeof(what), "IORING_OP_OPENAT(O_CREAT) as %s through the mount", who);
	/* may_o_create: fsuidgid_has_mapping (1001 -> 1000) holds; the dir's
	 * mount-view owner 1001 == fsuid gives write permission. */
	if (!vt_expect_errno(ctx, what, r.ret, 0, "io_openat2 -> do_filp_open -> may_o_create"))
		return;
	vt_expect_owner(ctx, disk, 1000, 1000, rule);
	vt_expect_owner(ctx, path, 1001, 1001, "make_vfsuid of the new inode (generic_fillattr)");
}

static void owner_is_mapped_fsuid(struct vt_ctx *ctx)
{
	struct vt_caller u1001 = vt_caller_user(1001, 1001);

	create_through_mount(ctx, &u1001, "uid 1001",
			     "inode_init_owner: mapped_fsuid = from_vfsuid(M, 1001) = 1000");
}

static void owner_follows_fsuid_not_uid(struct vt_ctx *ctx)
{
	struct vt_caller c = vt_caller_user(1000, 1000);

	/* The request runs with the submitter's creds, fsuid included. */
	c.fsuid = 1001;
	c.fsgid = 1001;
	create_through_mount(ctx, &c, "uid 1000 with fsuid/fsgid 1001",
			     "req->creds = submitter's creds; inode_init_owner(mapped_fsuid(fsuid 1001)) = 1000");
}

static void unmapped_fsuid_eoverflow(struct vt_ctx *ctx)
{
	struct vt_caller root = vt_caller_root();
	char path[4200], disk[4200];
	struct scene s;
	struct vt_run r;
	struct stat st;

	if (!require_uring(ctx, &root) || !make_scene(ctx, &s))
		return;
	snprintf(path, sizeof(path), "%s/new", s.mnt);
	snprintf(disk, sizeof(disk), "%s/new", s.src);
	r = vt_run_as(&root, uring_creat, path, NULL, 0);
	if (!vt_expect_ran(ctx, &root, &r))
		return;
	/* fsuid 0 has no mapping back through b:1000:1001:1: EOVERFLOW before
	 * any permission check, even for root. */
	vt_expect_errno(ctx, "IORING_OP_OPENAT(O_CREAT) as root (fsuid 0 unmapped) through the mount",
			r.ret, EOVERFLOW, "may_o_create: !fsuidgid_has_mapping -> EOVERFLOW");
	vt_expect_eq(ctx, "no file created on disk", lstat(disk, &st) == 0, 0,
		     "refused before ->create");
}

static const struct vt_case cases[] = {
	{ "creat-owner-is-mapped-fsuid", owner_is_mapped_fsuid },
	{ "creat-owner-follows-fsuid-not-uid", owner_follows_fsuid_not_uid },
	{ "creat-unmapped-fsuid-eoverflow", unmapped_fsuid_eoverflow },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
