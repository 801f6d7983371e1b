/* matrix/013: single calls on an existing name that ask the mount's idmap
 * one question (lib/model/file_rules.c).
 *
 * access(2)/faccessat2 with and without AT_EACCESS: do_faccessat's
 * access_override_creds makes the fs ids the real ids and keeps
 * capabilities only for uid 0, so a uid-1000 caller holding
 * CAP_DAC_OVERRIDE is refused where its open() succeeds, and the
 * setfsuid caller is judged by its uid; chdir and fchdir (path_permission,
 * file_permission: MAY_EXEC through the mount, ENOTDIR for a file);
 * O_NOATIME on open (may_open) and by fcntl(F_SETFL) (setfl), both
 * inode_owner_or_capable; fcntl(F_SETLEASE, F_RDLCK) (vfs_setlease: the
 * owner through the mount or CAP_LEASE, then EINVAL for a directory);
 * FS_IOC_SETFLAGS and FS_IOC_FSSETXATTR writing back the values just read
 * (vfs_fileattr_set: inode_owner_or_capable); FIDEDUPERANGE of 0 bytes
 * onto an fd open for reading (may_dedupe_file: CAP_SYS_ADMIN, the owner
 * through the mount, or write permission through it; notrun where the
 * filesystem has no ->remap_file_range: tmpfs, ext4); read(2) of one byte
 * of a file whose atime is years old (atime_needs_update: no update when
 * the owner or the group has no mapping in the mount's idmap,
 * HAS_UNMAPPED_ID; notrun where root's read on the plain mount leaves the
 * atime alone: noatime); cachestat(2) on an fd open for reading
 * (can_do_cachestat: file_owner_or_capable or write permission through the
 * mount, else EPERM; notrun before Linux 6.5). Objects are files and
 * directories owned by mapped and unmapped ids (70000 maps nowhere), with
 * owner-, group- and other-only permissions, under every mount idmap and
 * caller of the shared axes (callers in and out of user namespaces).
 *
 * The overlay world ("overlay/" cases, appended): access (R_OK, W_OK,
 * AT_EACCESS), chdir, the owner checks, a 0-byte FIDEDUPERANGE (every
 * overlay file has ->remap_file_range: run on every filesystem with an
 * overlay), read-atime and cachestat on a lower P/o through an overlay on
 * idmapped layers (lib/model/overlay_fileops.c, tests/matrix/README.md). */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *name;
	uint32_t uid, gid;
} owners[] = {
	{ "0:0", 0, 0 }, { "1000:1000", 1000, 1000 }, { "1000:1001", 1000, 1001 },
	{ "1001:1001", 1001, 1001 }, { "70000:70000", 70000, 70000 },
};
#define NOWNERS 5

/* access(): R_OK and W_OK on files of each permission class; AT_EACCESS
 * (the effective credentials, as open) on owner-only files */
static const mode_t access_modes[] = { 0600, 0060, 0006 };
#define NACCESS_MODES 3
#define NACCESS (2 * NACCESS_MODES * NOWNERS + 2 * NOWNERS)
/* chdir: directories searchable by one class; and a file (ENOTDIR) */
static const mode_t dir_modes[] = { 0700, 0070, 0007 };
#define NDIR_MODES 3
#define NCHDIR (NDIR_MODES * NOWNERS + 1)
/* fchdir and access(X_OK): owner-only directories, and a file for fchdir */
#define NFCHDIR (NOWNERS + 1)
#define NACCESS_X NOWNERS
/* the owner checks: a file everybody may open, and directories */
static const enum vt_mop owner_ops[] = { VT_OP_OPEN_NOATIME, VT_OP_SETFL_NOATIME, VT_OP_SETLEASE,
					 VT_OP_SETFLAGS, VT_OP_FSSETXATTR };
#define NOWNER_OPS 5
#define NOWNER_OBJS (NOWNERS + 2)
#define NOWNER (NOWNER_OPS * NOWNER_OBJS)
/* FIDEDUPERANGE onto an fd open for reading: files writable by the owner
 * only, by everybody, and readable by the owner only */
static const mode_t dedupe_modes[] = { 0644, 0666, 0400 };
#define NDEDUPE (3 * NOWNERS)
/* read-atime: the owners above, and an owner and a group of which only
 * one maps (HAS_UNMAPPED_ID asks for both) */
static const struct {
	const char *name;
	uint32_t uid, gid;
} atime_owners[] = { { "70000:1000", 70000, 1000 }, { "1000:70000", 1000, 70000 } };
#define NATIME (NOWNERS + 2)
/* cachestat: the dedupe files (writable by the owner only, by everybody,
 * readable by the owner only) */
#define NCACHESTAT (3 * NOWNERS)

static void access_case(int k, struct vt_mcase *c)
{
	int o, m, w;

	if (k < 2 * NACCESS_MODES * NOWNERS) {
		w = k % 2;
		o = (k / 2) % NOWNERS;
		m = k / 2 / NOWNERS;
		c->obj = vt_fx_inode(S_IFREG | access_modes[m], owners[o].uid, owners[o].gid);
	} else {
		k -= 2 * NACCESS_MODES * NOWNERS;
		w = k % 2;
		o = k / 2;
		c->op.eaccess = true;
		c->obj = vt_fx_inode(S_IFREG | 0600, owners[o].uid, owners[o].gid);
	}
	c->op.op = VT_OP_ACCESS;
	c->op.mode = w ? W_OK : R_OK;
	snprintf(c->what, sizeof(c->what), "op=access%s/mode=%s/obj=%04o-%s",
		 c->op.eaccess ? "-eaccess" : "", w ? "w" : "r", (unsigned)(c->obj.mode & 07777),
		 owners[o].name);
}

static void dir_case(enum vt_mop op, int k, struct vt_mcase *c, int nmodes)
{
	c->op.op = op;
	if (k == nmodes * NOWNERS) {
		c->obj = vt_fx_inode(S_IFREG | 0755, 1000, 1000);
		snprintf(c->what, sizeof(c->what), "op=%s/obj=file-0755-1000:1000", vt_mop_name(op));
		return;
	}
	c->obj = vt_fx_inode(S_IFDIR | dir_modes[k / NOWNERS], owners[k % NOWNERS].uid,
			     owners[k % NOWNERS].gid);
	snprintf(c->what, sizeof(c->what), "op=%s/obj=dir-%04o-%s", vt_mop_name(op),
		 (unsigned)dir_modes[k / NOWNERS], owners[k % NOWNERS].name);
}

/* A regular file of each dedupe_modes[] x owner (K), for an operation on
 * an fd the caller opens for reading (dedupe, cachestat). */
static void fd_mode_case(struct vt_mcase *c, enum vt_mop op, const char *opname, int k)
{
	c->op.op = op;
	c->obj = vt_fx_inode(S_IFREG | dedupe_modes[k / NOWNERS], owners[k % NOWNERS].uid,
			     owners[k % NOWNERS].gid);
	snprintf(c->what, sizeof(c->what), "op=%s/obj=%04o-%s", opname,
		 (unsigned)dedupe_modes[k / NOWNERS], owners[k % NOWNERS].name);
}

/* What every case has: P 0777 0:0, umask 022. */
static void common(struct vt_mcase *c)
{
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->umask = 022;
}

static void make_access(int k, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	access_case(k, c);
}

static void make_chdir(int k, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	dir_case(VT_OP_CHDIR, k, c, NDIR_MODES);
}

static void make_fchdir(int k, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	dir_case(VT_OP_FCHDIR, k, c, 1);
}

static void make_access_x(int k, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	c->op.op = VT_OP_ACCESS;
	c->op.mode = X_OK;
	c->obj = vt_fx_inode(S_IFDIR | 0700, owners[k].uid, owners[k].gid);
	snprintf(c->what, sizeof(c->what), "op=access/mode=x/obj=dir-0700-%s", owners[k].name);
}

static void make_dedupe(int k, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	fd_mode_case(c, VT_OP_DEDUPE, "dedupe", k);
}

static void make_atime(int k, int inner, struct vt_mcase *c)
{
	const char *nm = k < NOWNERS ? owners[k].name : atime_owners[k - NOWNERS].name;

	(void)inner;
	common(c);
	c->op.op = VT_OP_READ_ATIME;
	c->obj = k < NOWNERS ? vt_fx_inode(S_IFREG | 0644, owners[k].uid, owners[k].gid)
			     : vt_fx_inode(S_IFREG | 0644, atime_owners[k - NOWNERS].uid,
					   atime_owners[k - NOWNERS].gid);
	c->obj.nonempty = true;
	c->obj.old_atime = true;
	snprintf(c->what, sizeof(c->what), "op=read-atime/obj=0644-%s", nm);
}

static void make_cachestat(int k, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	fd_mode_case(c, VT_OP_CACHESTAT, "cachestat", k);
}

static void make_owner(int k, int inner, struct vt_mcase *c)
{
	int op = k % NOWNER_OPS, ob = k / NOWNER_OPS;

	(void)inner;
	common(c);
	c->op.op = owner_ops[op];
	if (ob < NOWNERS) {
		c->obj = vt_fx_inode(S_IFREG | 0644, owners[ob].uid, owners[ob].gid);
		snprintf(c->what, sizeof(c->what), "op=%s/obj=0644-%s",
			 vt_mop_name(owner_ops[op]), owners[ob].name);
	} else {
		/* directories: vfs_setlease's EINVAL after its owner test */
		int o = ob == NOWNERS ? 1 : 0;

		c->obj = vt_fx_inode(S_IFDIR | 0755, owners[o].uid, owners[o].gid);
		snprintf(c->what, sizeof(c->what), "op=%s/obj=dir-0755-%s",
			 vt_mop_name(owner_ops[op]), owners[o].name);
	}
}

/* The overlay world (appended: the other cases keep their ids): the calls
 * on a lower P/o through the overlay (lib/model/overlay_fileops.c), P/o a
 * lower file of MODE and owner (chdir: a lower directory); the upper P is
 * the family's 0777 0:0. */
static const struct {
	enum vt_mop op;
	int mode;	/* access: R_OK/W_OK; eaccess: AT_EACCESS */
	bool eaccess;
	mode_t obj;	/* type and mode of the lower P/o */
	uint32_t uid, gid;
} ovl_cases[] = {
	{ VT_OP_ACCESS, R_OK, false, S_IFREG | 0600, 1000, 1000 },
	{ VT_OP_ACCESS, W_OK, false, S_IFREG | 0600, 1000, 1000 },
	{ VT_OP_ACCESS, R_OK, false, S_IFREG | 0600, 70000, 70000 },
	{ VT_OP_ACCESS, W_OK, false, S_IFREG | 0600, 70000, 70000 },
	{ VT_OP_ACCESS, R_OK, false, S_IFREG | 0006, 0, 0 },
	{ VT_OP_ACCESS, W_OK, false, S_IFREG | 0006, 0, 0 },
	{ VT_OP_ACCESS, W_OK, true, S_IFREG | 0600, 1000, 1000 },
	{ VT_OP_CHDIR, 0, false, S_IFDIR | 0700, 1000, 1000 },
	{ VT_OP_CHDIR, 0, false, S_IFDIR | 0700, 70000, 70000 },
	{ VT_OP_CHDIR, 0, false, S_IFDIR | 0007, 0, 0 },
	{ VT_OP_OPEN_NOATIME, 0, false, S_IFREG | 0644, 1000, 1000 },
	{ VT_OP_OPEN_NOATIME, 0, false, S_IFREG | 0644, 70000, 70000 },
	{ VT_OP_SETFL_NOATIME, 0, false, S_IFREG | 0644, 1000, 1000 },
	{ VT_OP_SETFL_NOATIME, 0, false, S_IFREG | 0644, 70000, 70000 },
	{ VT_OP_SETLEASE, 0, false, S_IFREG | 0644, 1000, 1000 },
	{ VT_OP_SETLEASE, 0, false, S_IFREG | 0644, 70000, 70000 },
	{ VT_OP_SETFLAGS, 0, false, S_IFREG | 0644, 1000, 1000 },
	{ VT_OP_SETFLAGS, 0, false, S_IFREG | 0644, 70000, 70000 },
	{ VT_OP_FSSETXATTR, 0, false, S_IFREG | 0644, 1000, 1000 },
	{ VT_OP_FSSETXATTR, 0, false, S_IFREG | 0644, 70000, 70000 },
	{ VT_OP_DEDUPE, 0, false, S_IFREG | 0644, 1000, 1000 },
	{ VT_OP_DEDUPE, 0, false, S_IFREG | 0666, 70000, 70000 },
	{ VT_OP_READ_ATIME, 0, false, S_IFREG | 0644, 1000, 1000 },
	{ VT_OP_READ_ATIME, 0, false, S_IFREG | 0644, 70000, 70000 },
	{ VT_OP_READ_ATIME, 0, false, S_IFREG | 0644, 1000, 70000 },
	{ VT_OP_CACHESTAT, 0, false, S_IFREG | 0644, 1000, 1000 },
	{ VT_OP_CACHESTAT, 0, false, S_IFREG | 0666, 70000, 70000 },
};
#define NOVL ((int)(sizeof(ovl_cases) / sizeof(ovl_cases[0])))

static void ovl_case(int k, struct vt_mcase *c)
{
	char mode[16] = "";

	c->ovl = true;
	c->op.op = ovl_cases[k].op;
	c->op.mode = (mode_t)ovl_cases[k].mode;
	c->op.eaccess = ovl_cases[k].eaccess;
	c->obj = vt_fx_inode(ovl_cases[k].obj, ovl_cases[k].uid, ovl_cases[k].gid);
	if (c->op.op == VT_OP_READ_ATIME) {
		c->obj.nonempty = true;
		c->obj.old_atime = true;
	}
	if (c->op.op == VT_OP_ACCESS)
		snprintf(mode, sizeof(mode), "/mode=%s", ovl_cases[k].mode == W_OK ? "w" : "r");
	snprintf(c->what, sizeof(c->what), "overlay/op=%s%s%s/upper-p=0777-0:0/lower-o=%s%04o-%u:%u",
		 vt_mop_name(c->op.op), c->op.eaccess ? "-eaccess" : "", mode,
		 S_ISDIR(ovl_cases[k].obj) ? "dir-" : "", (unsigned)(ovl_cases[k].obj & 07777),
		 ovl_cases[k].uid, ovl_cases[k].gid);
}

static void make_overlay(int k, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	ovl_case(k, c);
}

static const struct vt_fblock blocks[] = {
	{ NACCESS, make_access, VT_FB_PLAIN },
	{ NCHDIR, make_chdir, VT_FB_PLAIN },
	{ NFCHDIR, make_fchdir, VT_FB_PLAIN },
	{ NACCESS_X, make_access_x, VT_FB_PLAIN },
	{ NDEDUPE, make_dedupe, VT_FB_PLAIN },
	{ NATIME, make_atime, VT_FB_PLAIN },
	{ NCACHESTAT, make_cachestat, VT_FB_PLAIN },
	{ NOWNER, make_owner, VT_FB_PLAIN },
	{ NOVL, make_overlay, VT_FB_OVERLAY },
};

VT_MATRIX_FAMILY_WIDE(fileops, "013", 1, blocks, VT_WIDE_USERNS)
