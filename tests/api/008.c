/* api/008: statmount() reports a mount's idmap.
 *
 * Since 6.15 statmount() (fs/namespace.c) can return STATMOUNT_MNT_UIDMAP
 * and STATMOUNT_MNT_GIDMAP: the mask bit is set only for an idmapped
 * mount, *_num counts the extents and the string area holds one
 * "first lower count" entry per extent, NUL-separated, with lower
 * translated into the caller's user namespace (statmount_mnt_idmap() in
 * fs/mnt_idmapping.c); an extent that does not resolve there is left out.
 * STATMOUNT_MNT_BASIC's mnt_attr carries MOUNT_ATTR_IDMAP
 * (mnt_to_attr_flags). The whole test is notrun when statmount() is
 * missing (ENOSYS) or does not list UIDMAP in its supported mask. */
#include "testlib/testlib.h"
#include "api_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUFSZ 8192

static uint64_t mnt_unique_id(const char *path, int *err)
{
	struct statx stx;

	*err = 0;
	if (statx(AT_FDCWD, path, 0, VT_STATX_MNT_ID_UNIQUE, &stx) < 0) {
		*err = errno;
		return 0;
	}
	if (!(stx.stx_mask & VT_STATX_MNT_ID_UNIQUE)) {
		*err = EOPNOTSUPP;
		return 0;
	}
	return stx.stx_mnt_id;
}

static const char *need_statmount(const char *fstype, const char *dir)
{
	static char why[200];
	struct vt_statmount *sm = calloc(1, BUFSZ);
	uint64_t id;
	int err;

	(void)fstype;
	if (!sm)
		return "out of memory";
	id = mnt_unique_id(dir, &err);
	if (err) {
		free(sm);
		snprintf(why, sizeof(why), "statx(STATX_MNT_ID_UNIQUE) unavailable: %s", vt_errname(err));
		return why;
	}
	if (vt_statmount(id, VT_STATMOUNT_SUPPORTED_MASK, sm, BUFSZ, 0) < 0) {
		err = errno;
		free(sm);
		snprintf(why, sizeof(why), "statmount(STATMOUNT_SUPPORTED_MASK) failed: %s (6.15+)",
			 vt_errname(err));
		return why;
	}
	if (!(sm->mask & VT_STATMOUNT_SUPPORTED_MASK) ||
	    !(sm->supported_mask & VT_STATMOUNT_MNT_UIDMAP)) {
		free(sm);
		return "statmount() does not support STATMOUNT_MNT_UIDMAP (6.15+)";
	}
	free(sm);
	return NULL;
}

/* statmount of the mount at PATH with the idmap bits; NULL on failure. */
static struct vt_statmount *sm_of(struct vt_ctx *ctx, const char *path)
{
	struct vt_statmount *sm = calloc(1, BUFSZ);
	uint64_t id;
	int err;

	if (!sm)
		return NULL;
	id = mnt_unique_id(path, &err);
	if (err || vt_statmount(id, VT_STATMOUNT_MNT_BASIC | VT_STATMOUNT_MNT_UIDMAP |
					     VT_STATMOUNT_MNT_GIDMAP,
				sm, BUFSZ, 0) < 0) {
		vt_fail(ctx, "statmount(%s): %s", path, vt_errname(err ? err : errno));
		free(sm);
		return NULL;
	}
	return sm;
}

/* Compares the NUM NUL-separated entries at STR with WANT ("a|b"). */
static void expect_entries(struct vt_ctx *ctx, const char *what, const char *str, unsigned num,
			   const char *want)
{
	char got[512] = "";
	size_t off = 0;
	unsigned i;

	for (i = 0; i < num && off < sizeof(got) - 1; i++) {
		size_t l = strlen(str);
		snprintf(got + off, sizeof(got) - off, "%s%s", i ? "|" : "", str);
		off = strlen(got);
		str += l + 1;
	}
	if (strcmp(got, want))
		vt_fail(ctx, "%s: expected \"%s\", got \"%s\" [rule: statmount_mnt_idmap: "
			"\"first lower count\" relative to the caller]", what, want, got);
}

static void idmapped(struct vt_ctx *ctx)
{
	char src[4096], mnt[4096];
	struct vt_statmount *sm;

	if (!vt_mkdir(ctx, "src", 0755, 0, 0, src, sizeof(src)) ||
	    !vt_idmapped_at(ctx, src, "u:1000:2000:5,u:0:100000:10,g:1000:3000:1", "mnt", mnt,
			    sizeof(mnt)))
		return;
	vt_scene(ctx, "%s idmapped u:1000:2000:5,u:0:100000:10,g:1000:3000:1", mnt);
	sm = sm_of(ctx, mnt);
	if (!sm)
		return;
	vt_expect_eq(ctx, "STATMOUNT_MNT_UIDMAP in mask", !!(sm->mask & VT_STATMOUNT_MNT_UIDMAP), 1,
		     "statmount: idmapped mount reports its uid map");
	vt_expect_eq(ctx, "STATMOUNT_MNT_GIDMAP in mask", !!(sm->mask & VT_STATMOUNT_MNT_GIDMAP), 1,
		     "statmount: idmapped mount reports its gid map");
	vt_expect_eq(ctx, "MOUNT_ATTR_IDMAP in mnt_attr", !!(sm->mnt_attr & VT_MOUNT_ATTR_IDMAP), 1,
		     "mnt_to_attr_flags: is_idmapped_mnt");
	if (vt_expect_eq(ctx, "mnt_uidmap_num", sm->mnt_uidmap_num, 2, "two uid extents"))
		/* Extents in the order the kernel keeps them: map_write sorts
		 * nothing for <= 5 extents, so as written. Caller is init: lower
		 * unchanged. */
		expect_entries(ctx, "uid map entries", sm->str + sm->mnt_uidmap, sm->mnt_uidmap_num,
			       "1000 2000 5|0 100000 10");
	if (vt_expect_eq(ctx, "mnt_gidmap_num", sm->mnt_gidmap_num, 1, "one gid extent"))
		expect_entries(ctx, "gid map entries", sm->str + sm->mnt_gidmap, sm->mnt_gidmap_num,
			       "1000 3000 1");
	free(sm);
}

static void plain(struct vt_ctx *ctx)
{
	char src[4096], mnt[4096];
	struct vt_statmount *sm;
	int fd;

	if (!vt_mkdir(ctx, "src", 0755, 0, 0, src, sizeof(src)) ||
	    !vt_mkdir(ctx, "mnt", 0755, 0, 0, mnt, sizeof(mnt)))
		return;
	fd = api_clone(src, 0);
	VT_SETUP(ctx, fd, "clone");
	VT_SETUP(ctx, api_attach(fd, mnt) ? -1 : 0, "attach");
	close(fd);
	vt_scene(ctx, "%s plain bind mount", mnt);
	sm = sm_of(ctx, mnt);
	if (!sm)
		return;
	vt_expect_eq(ctx, "STATMOUNT_MNT_UIDMAP in mask", !!(sm->mask & VT_STATMOUNT_MNT_UIDMAP), 0,
		     "statmount: not idmapped -> no uid map");
	vt_expect_eq(ctx, "STATMOUNT_MNT_GIDMAP in mask", !!(sm->mask & VT_STATMOUNT_MNT_GIDMAP), 0,
		     "statmount: not idmapped -> no gid map");
	vt_expect_eq(ctx, "MOUNT_ATTR_IDMAP in mnt_attr", !!(sm->mnt_attr & VT_MOUNT_ATTR_IDMAP), 0,
		     "mnt_to_attr_flags");
	free(sm);
}

struct seen {
	int err;
	uint64_t mask;
	uint32_t num;
	char entries[256];
};

static int statmount_in_ns(void *arg, void *data, size_t len)
{
	struct seen *s = data;
	struct vt_statmount *sm = calloc(1, BUFSZ);
	uint64_t id;
	int err;

	(void)len;
	if (!sm)
		return ENOMEM;
	id = mnt_unique_id(arg, &err);
	if (err)
		return err;
	if (vt_statmount(id, VT_STATMOUNT_MNT_UIDMAP, sm, BUFSZ, 0) < 0) {
		s->err = errno;
		return 0;
	}
	s->mask = sm->mask;
	s->num = sm->mnt_uidmap_num;
	if (sm->mnt_uidmap_num)
		snprintf(s->entries, sizeof(s->entries), "%s", sm->str + sm->mnt_uidmap);
	free(sm);
	return 0;
}

static void relative_to_caller(struct vt_ctx *ctx)
{
	char src[4096], mnt[4096];
	struct vt_caller c = vt_caller_root();
	struct seen s;
	struct vt_run r;
	int ns;

	if (!vt_mkdir(ctx, "src", 0755, 0, 0, src, sizeof(src)) ||
	    !vt_idmapped_at(ctx, src, "b:0:100000:100,b:500:7000:1", "mnt", mnt, sizeof(mnt)))
		return;
	/* Caller in userns b:0:100000:65536: lower 100000 -> 0 there; lower
	 * 7000 does not resolve and that extent is left out. */
	ns = vt_userns_from_spec(-1, "b:0:100000:65536");
	VT_SETUP(ctx, ns, "caller userns");
	c.userns_fd = ns;
	c.userns_desc = "b:0:100000:65536";
	vt_scene(ctx, "%s idmapped b:0:100000:100,b:500:7000:1; caller in b:0:100000:65536", mnt);
	memset(&s, 0, sizeof(s));
	r = vt_run_as(&c, statmount_in_ns, mnt, &s, sizeof(s));
	close(ns);
	if (!vt_expect_ran(ctx, &c, &r) ||
	    !vt_expect_errno(ctx, "statmount from the caller's userns", r.ret ? r.ret : s.err, 0,
			     "statmount"))
		return;
	vt_expect_eq(ctx, "STATMOUNT_MNT_UIDMAP in mask", !!(s.mask & VT_STATMOUNT_MNT_UIDMAP), 1,
		     "idmapped mount");
	vt_expect_eq(ctx, "mnt_uidmap_num", s.num, 1,
		     "statmount_mnt_idmap: extents not resolvable in the caller's ns are skipped");
	if (strcmp(s.entries, "0 0 100"))
		vt_fail(ctx, "uid map entry seen from the userns: expected \"0 0 100\", got \"%s\" "
			"[rule: statmount_mnt_idmap: lower via map_id_range_up(caller ns)]", s.entries);
}

static const struct vt_case cases[] = {
	{ "idmapped-mount-reports-uid-gid-map", idmapped },
	{ "plain-mount-reports-no-map", plain },
	{ "map-relative-to-caller-userns", relative_to_caller },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases, .require = need_statmount };
	return vt_test_main(&t, argc, argv);
}
