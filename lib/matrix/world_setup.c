/* The matrix's shared world (world_setup.h): the tree on the filesystem
 * under test, its idmapped mounts, the callers' namespaces, and what the
 * world can express (probed, or assumed by the scorer). */
#include "matrix/world_setup.h"
#include "fs/fs_table.h"
#include "matrix/axes.h"
#include "matrix/executor.h"
#include "matrix/fixture.h"
#include "matrix/optowner_fixture.h"
#include "util/errname.h"
#include "util/safe_remove.h"
#include "world/fs_features.h"
#include "world/fsimage.h"
#include "world/idmapped_mount.h"
#include "world/sysctl.h"
#include "world/userns.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

const char *const vt_sysctl_names[VT_SYSCTL__COUNT] = {
	"fs/protected_symlinks", "fs/protected_hardlinks", "fs/protected_fifos",
	"fs/protected_regular",
};

/* RENAME_WHITEOUT as the initial root on the plain mount: filesystems
 * without whiteouts answer EINVAL. "" or the reason. */
static void probe_whiteout(const char *dir, char *why, size_t len)
{
	char a[4200], b[4200];
	int fd;

	snprintf(a, sizeof(a), "%s/wh-probe-a", dir);
	snprintf(b, sizeof(b), "%s/wh-probe-b", dir);
	*why = 0;
	fd = open(a, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, len, "whiteout probe: create: %s", vt_errname(errno));
		return;
	}
	close(fd);
	if (syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 1 << 2 /* RENAME_WHITEOUT */) < 0)
		snprintf(why, len, "renameat2(RENAME_WHITEOUT) as root on the plain mount: %s",
			 vt_errname(errno));
	unlink(a);
	unlink(b);
}

/* The bounding set of this process (inherited by the callers that stay
 * in the initial namespace), from /proc/self/status. */
static uint64_t read_bset(void)
{
	FILE *fp = fopen("/proc/self/status", "re");
	unsigned long long v = 0;
	char line[256];

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CapBnd: %llx", &v) == 1)
			break;
	fclose(fp);
	return v;
}

static bool probe_posixacl(const char *dir)
{
	uint16_t tag[3] = { VT_ACL_USER_OBJ, VT_ACL_GROUP_OBJ, VT_ACL_OTHER }, perm[3] = { 6, 4, 4 };
	uint32_t id[3] = { VT_ID_INVALID, VT_ID_INVALID, VT_ID_INVALID };
	char path[4200], buf[64];
	size_t len = vt_fx_acl_encode(tag, perm, id, 3, buf, sizeof(buf));
	bool ok;
	int fd;

	snprintf(path, sizeof(path), "%s/acl-probe", dir);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	close(fd);
	/* IS_POSIXACL: the fs accepts system.posix_acl_access at all */
	ok = lsetxattr(path, "system.posix_acl_access", buf, len, 0) == 0 || errno != EOPNOTSUPP;
	unlink(path);
	return ok;
}

/* The table's features the filesystem lacks, for a world of files with
 * owners in the inode (option-owner worlds are the model's: optowner_rules.c). */
static unsigned int table_lacks(const char *fstype, bool optowner)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);

	return r && !optowner ? ~r->supports & ((1u << VT_FSF__COUNT) - 1) : 0;
}

/* FIDEDUPERANGE of 0 bytes from a file onto itself as the initial root on
 * the plain mount: without ->remap_file_range vfs_dedupe_file_range
 * answers EOPNOTSUPP before any permission. "" or the reason. */
static void probe_dedupe(const char *dir, char *why, size_t len)
{
	char a[4200];
	int fd, r;

	snprintf(a, sizeof(a), "%s/dd-probe", dir);
	*why = 0;
	fd = open(a, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, len, "dedupe probe: create: %s", vt_errname(errno));
		return;
	}
	r = vt_exec_dedupe_self(fd);
	if (r)
		snprintf(why, len, "FIDEDUPERANGE of 0 bytes as root on the plain mount: %s (no "
			 "->remap_file_range: vfs_dedupe_file_range)", vt_errname(r));
	close(fd);
	unlink(a);
}

/* What matrix/013's ioctl and lease cases need (rw->no_fileattr,
 * rw->no_lease): the filesystem table says whether FSTYPE has
 * ->fileattr_set; fcntl_setlease is EINVAL while fs.leases-enable is 0. */
static void probe_fileops(struct mx_world *w)
{
	w->no_fileattr[0] = w->no_lease[0] = 0;
	if (w->optowner || !vt_fs_row(w->fstype) || !vt_fs_supports(w->fstype, VT_FSF_FILEATTR))
		snprintf(w->no_fileattr, sizeof(w->no_fileattr),
			 "%s has no ->fileattr_set (FS_IOC_SETFLAGS/FS_IOC_FSSETXATTR: ENOTTY)",
			 w->fstype);
	if (vt_sysctl_read("fs/leases-enable", 1) == 0)
		snprintf(w->no_lease, sizeof(w->no_lease),
			 "fs.leases-enable is 0 (fcntl_setlease: EINVAL)");
}

/* The overlay world's directories and user namespaces (mx_ovl_mount);
 * sets w->no_overlay where it cannot be. NULL, or why the setup failed. */
static const char *ovl_setup(struct mx_world *w)
{
	static char why[600];
	char d[4300];
	int i;

	for (i = 0; i < 16; i++)
		w->ovl_ns[i] = -1;
	if (w->optowner || !vt_fs_supports(w->fstype, VT_FSF_OVERLAY))
		return NULL;	/* fs_lacks: the cases say the table's reason */
	if (!vt_fstype_in_kernel("overlay")) {
		snprintf(w->no_overlay, sizeof(w->no_overlay),
			 "this kernel has no overlay filesystem (not in /proc/filesystems after "
			 "modprobe overlay)");
		return NULL;
	}
	snprintf(w->ovl_lower, sizeof(w->ovl_lower), "%s/ovl-l", w->disk);
	snprintf(w->ovl_up, sizeof(w->ovl_up), "%s/ovl-u", w->disk);
	snprintf(w->ovl_lmnt, sizeof(w->ovl_lmnt), "%s/ovl-lm", w->base);
	snprintf(w->ovl_umnt, sizeof(w->ovl_umnt), "%s/ovl-um", w->base);
	snprintf(w->ovl_merged, sizeof(w->ovl_merged), "%s/ovl-m", w->base);
	/* 0755 everywhere: every caller and the mounter pass them by their
	 * other bits, whatever the map (the model's assumption) */
	{
		const char *dirs[6] = { w->ovl_lower, w->ovl_up, NULL, NULL, w->ovl_lmnt,
					w->ovl_umnt };
		char up[4300], work[4300];

		snprintf(up, sizeof(up), "%s/upper", w->ovl_up);
		snprintf(work, sizeof(work), "%s/work", w->ovl_up);
		dirs[2] = up;
		dirs[3] = work;
		for (i = 0; i < 6; i++)
			if (mkdir(dirs[i], 0755) < 0 || chmod(dirs[i], 0755) < 0) {
				snprintf(why, sizeof(why), "mkdir %s: %s", dirs[i], vt_errname(errno));
				return why;
			}
		/* the overlay's root is the upper root: 1000:1000, an owner
		 * every map maps. The first lookup of a merged directory
		 * without an origin xattr marks its upper parent impure as the
		 * mounter through the upper idmap (ovl_lookup -> ovl_fix_origin
		 * -> ovl_set_impure_dir -> setxattr trusted.overlay.impure:
		 * may_write_xattr, HAS_UNMAPPED_ID -> EPERM, which fails the
		 * lookup); with an owner the map does not map the walk would be
		 * EPERM until an earlier mount had marked it, a history the
		 * model does not follow (tests/matrix/README.md) */
		if (chown(up, 1000, 1000) < 0) {
			snprintf(why, sizeof(why), "chown %s: %s", up, vt_errname(errno));
			return why;
		}
		snprintf(d, sizeof(d), "%s", w->ovl_merged);
		if (mkdir(d, 0755) < 0) {
			snprintf(why, sizeof(why), "mkdir %s: %s", d, vt_errname(errno));
			return why;
		}
	}
	for (i = 0; i < vt_map_axis_count && i < 16; i++) {
		if (!vt_map_axes[i].spec)
			continue;
		w->ovl_ns[i] = vt_userns_from_spec(-1, vt_map_axes[i].spec);
		if (w->ovl_ns[i] < 0) {
			snprintf(why, sizeof(why), "user namespace %s: %s", vt_map_axes[i].spec,
				 vt_errname(-w->ovl_ns[i]));
			return why;
		}
	}
	return NULL;
}

const char *mx_ovl_mount(struct mx_world *w, int map)
{
	static char why[9000];
	char up[4300], opts[8600];
	const char *lower = w->ovl_lower, *upl = w->ovl_up;
	int r;

	if (w->ovl_mounted)
		mx_ovl_unmount(w);
	if (map < 0 || map >= 16 || !w->ovl_merged[0])
		return "no overlay world here";
	/* ofs->creator_cred is the mounter's: the model's has no groups */
	if (setgroups(0, NULL) < 0) {
		snprintf(why, sizeof(why), "setgroups(0): %s", vt_errname(errno));
		return why;
	}
	if (vt_map_axes[map].spec) {
		r = vt_idmapped_mount(w->ovl_lower, w->ovl_lmnt, w->ovl_ns[map], false);
		if (r < 0) {
			snprintf(why, sizeof(why), "idmapped mount %s of %s: %s", vt_map_axes[map].spec,
				 w->ovl_lower, vt_errname(-r));
			return why;
		}
		r = vt_idmapped_mount(w->ovl_up, w->ovl_umnt, w->ovl_ns[map], false);
		if (r < 0) {
			umount2(w->ovl_lmnt, MNT_DETACH);
			snprintf(why, sizeof(why), "idmapped mount %s of %s: %s", vt_map_axes[map].spec,
				 w->ovl_up, vt_errname(-r));
			return why;
		}
		lower = w->ovl_lmnt;
		upl = w->ovl_umnt;
	}
	snprintf(up, sizeof(up), "%s", upl);
	/* index, metacopy, redirect_dir off: a copy-up is a full copy and
	 * nothing else is written upstairs (the model's copy-up) */
	snprintf(opts, sizeof(opts),
		 "lowerdir=%s,upperdir=%s/upper,workdir=%s/work,index=off,metacopy=off,"
		 "redirect_dir=off", lower, up, up);
	if (mount("overlay", w->ovl_merged, "overlay", 0, opts) < 0) {
		snprintf(why, sizeof(why), "mount -t overlay -o %s %s: %s", opts, w->ovl_merged,
			 vt_errname(errno));
		if (vt_map_axes[map].spec) {
			umount2(w->ovl_umnt, MNT_DETACH);
			umount2(w->ovl_lmnt, MNT_DETACH);
		}
		return why;
	}
	w->ovl_mounted = true;
	return NULL;
}

void mx_ovl_unmount(struct mx_world *w)
{
	if (!w->ovl_mounted)
		return;
	/* the overlay first (its sb lets go of the layers), then the layers */
	if (umount2(w->ovl_merged, 0) < 0)
		umount2(w->ovl_merged, MNT_DETACH);
	umount2(w->ovl_umnt, MNT_DETACH);
	umount2(w->ovl_lmnt, MNT_DETACH);
	w->ovl_mounted = false;
}

/* Builds the shared world; NULL or the reason the test cannot run. */
const char *mx_world_setup(struct mx_world *w, const char *base_name)
{
	static char why[512];
	const char *test_dir = getenv("TEST_DIR");
	int i;

	w->fstype = getenv("FSTYP");
	if (!w->fstype || !test_dir)
		return "FSTYP and TEST_DIR are not set: run through ./check or vfsidmap-exec";
	if (vt_axes_init(why, sizeof(why)) < 0)
		return why;
	/* The fixtures are files with chosen owners: a filesystem that stores
	 * none (fat_setattr, exfat_setattr) cannot hold them. Probed by
	 * trying. Those whose owners come from mount options have worlds of
	 * their own (optowner_fixture.h), chosen by the filesystem table. */
	w->optowner = vt_optowner_fs(w->fstype);
	if (vt_fs_no_owner_worlds(w->fstype))
		return vt_fs_no_owner_worlds(w->fstype);
	i = w->optowner ? 0 : vt_probe_owner_storage(test_dir);
	if (i < 0) {
		snprintf(why, sizeof(why), "%s stores no file owners (chown to 1000:1000 gives %s)",
			 w->fstype, i == -EOPNOTSUPP ? "no change" : vt_errname(-i));
		return why;
	}
	snprintf(w->base, sizeof(w->base), "%s/vtm-%s", test_dir, base_name);
	/* heal what a dead run left: mounts first, then the tree */
	for (i = 0; i < vt_map_axis_count; i++) {
		char m[4200];

		snprintf(m, sizeof(m), "%s/m-%s", w->base, vt_map_axes[i].name);
		umount2(m, MNT_DETACH);
	}
	{
		static const char *const ovl_mnts[3] = { "ovl-m", "ovl-um", "ovl-lm" };
		char m[4200];

		for (i = 0; i < 3; i++) {
			snprintf(m, sizeof(m), "%s/%s", w->base, ovl_mnts[i]);
			umount2(m, MNT_DETACH);
		}
	}
	vt_fx_remove(w->base);
	snprintf(w->disk, sizeof(w->disk), "%s/disk", w->base);
	if (mkdir(w->base, 0755) < 0 || mkdir(w->disk, 0755) < 0 || chmod(w->base, 0755) < 0 ||
	    chmod(w->disk, 0755) < 0) {
		snprintf(why, sizeof(why), "mkdir %s: %s", w->disk, vt_errname(errno));
		return why;
	}
	if (w->optowner) {
		if (vt_optowner_setup(w->base, w->fstype, why, sizeof(why)))
			return why;
		/* the probes below run on the first world's root (a world every
		 * such filesystem can have) */
		snprintf(w->disk, sizeof(w->disk), "%s", vt_optowner_disk(0));
	}
	if (!w->optowner) {
		snprintf(w->p, sizeof(w->p), "%s/p", w->disk);
		snprintf(w->q, sizeof(w->q), "%s/q", w->disk);
	}
	for (i = 0; i < vt_map_axis_count && !w->optowner; i++) {
		int ufd, r;

		if (!vt_map_axes[i].spec) {
			snprintf(w->mnt[i], sizeof(w->mnt[i]), "%s", w->disk);
			continue;
		}
		snprintf(w->mnt[i], sizeof(w->mnt[i]), "%s/m-%s", w->base, vt_map_axes[i].name);
		if (mkdir(w->mnt[i], 0755) < 0) {
			snprintf(why, sizeof(why), "mkdir %s: %s", w->mnt[i], vt_errname(errno));
			return why;
		}
		ufd = vt_userns_from_spec(-1, vt_map_axes[i].spec);
		if (ufd < 0) {
			snprintf(why, sizeof(why), "user namespace %s: %s", vt_map_axes[i].spec,
				 vt_errname(-ufd));
			return why;
		}
		r = vt_idmapped_mount(w->disk, w->mnt[i], ufd, false);
		close(ufd);
		if (r < 0) {
			snprintf(why, sizeof(why), "idmapped mount %s of %s on %s: %s",
				 vt_map_axes[i].spec, w->disk, w->fstype, vt_errname(-r));
			return why;
		}
	}
	w->ns_fd[VT_NS_INIT] = -1;
	w->ns_fd[VT_NS_CHILD] = vt_userns_from_spec(-1, VT_NS0_SPEC);
	if (w->ns_fd[VT_NS_CHILD] < 0)
		return "cannot create the callers' user namespace ns0";
	w->ns_fd[VT_NS_NESTED] = vt_userns_nested_by_root(w->ns_fd[VT_NS_CHILD], VT_NS1_SPEC);
	if (w->ns_fd[VT_NS_NESTED] < 0)
		return "cannot create the nested user namespace ns1";
	w->ns_fd[VT_NS_SPLIT] = vt_userns_from_spec(-1, VT_NS2_SPEC);
	if (w->ns_fd[VT_NS_SPLIT] < 0)
		return "cannot create the callers' user namespace ns2";
	{
		const char *ovl_why = ovl_setup(w);

		if (ovl_why)
			return ovl_why;
	}
	w->posixacl = !w->optowner && probe_posixacl(w->disk);	/* fat, exfat: no SB_POSIXACL */
	w->fs_lacks = table_lacks(w->fstype, w->optowner != NULL);
	probe_whiteout(w->disk, w->no_whiteout, sizeof(w->no_whiteout));
	if (w->optowner)
		snprintf(w->no_dedupe, sizeof(w->no_dedupe), "%s has no ->remap_file_range",
			 w->fstype);
	else
		probe_dedupe(w->disk, w->no_dedupe, sizeof(w->no_dedupe));
	probe_fileops(w);
	w->bset_init = read_bset();
	i = (int)vt_sysctl_read("kernel/cap_last_cap", 40);
	w->cap_full = i >= 63 ? ~0ULL : (1ULL << (i + 1)) - 1;
	{
		/* mnt_may_suid(): a nosuid mount ignores setuid and file caps,
		 * a noexec one refuses exec: nothing to test there */
		struct statvfs sv;

		w->no_exec[0] = 0;
		if (statvfs(w->disk, &sv) == 0 && (sv.f_flag & (ST_NOSUID | ST_NOEXEC)))
			snprintf(w->no_exec, sizeof(w->no_exec), "TEST_DIR is mounted %s",
				 (sv.f_flag & ST_NOSUID) ? "nosuid (mnt_may_suid is false)" : "noexec");
	}
	for (i = 0; i < VT_SYSCTL__COUNT; i++)
		w->sysctl_orig[i] = w->sysctl_cur[i] = (int)vt_sysctl_read(vt_sysctl_names[i], 0);
	w->sysctl_allowed = getenv("VT_ALLOW_SYSCTL") && strcmp(getenv("VT_ALLOW_SYSCTL"), "1") == 0;
	w->overflowuid = (uint32_t)vt_sysctl_read("kernel/overflowuid", 65534);
	w->overflowgid = (uint32_t)vt_sysctl_read("kernel/overflowgid", 65534);
	return NULL;
}

/* What the world can express, for the coverage's "not expressible" column. */
void mx_world_facts(const struct mx_world *rw, struct vt_world_facts *f)
{
	f->posixacl = rw->posixacl;
	f->protected_hardlinks = rw->sysctl_orig[VT_SYSCTL_HARDLINKS] || rw->sysctl_allowed;
	f->protected_symlinks = rw->sysctl_orig[VT_SYSCTL_SYMLINKS] || rw->sysctl_allowed;
	f->protected_fifos = rw->sysctl_orig[VT_SYSCTL_FIFOS] || rw->sysctl_allowed;
	f->protected_regular = rw->sysctl_orig[VT_SYSCTL_REGULAR] || rw->sysctl_allowed;
	f->whiteout = !rw->no_whiteout[0];
	f->exec = !rw->no_exec[0];
	/* model_world: every fs the matrix mounts belongs to the initial ns */
	f->sb_userns_init = true;
	f->fileattr = !rw->no_fileattr[0];
	f->leases = !rw->no_lease[0];
	f->dedupe = !rw->no_dedupe[0];
	f->optowner = rw->optowner != NULL;
	f->fstype = rw->fstype;
	/* was left unset (driver.c's facts are on the stack): the matrix
	 * never runs on a read-only sb (mx_world_setup refuses images) */
	f->read_only = false;
}

/* What an inode of a case's world needs of the filesystem to be made. */
static unsigned int inode_needs(const struct vt_minode *i)
{
	unsigned int n = 0;

	if (!i->exists)
		return 0;
	if (S_ISLNK(i->mode))
		n |= VT_FSF_SYMLINK;
	if (S_ISFIFO(i->mode) || S_ISCHR(i->mode) || S_ISBLK(i->mode))
		n |= VT_FSF_DEVNODE;
	if (i->nacl || i->ndefacl)
		n |= VT_FSF_POSIX_ACL;
	if (i->fcaps.version)
		n |= VT_FSF_XATTR_SECURITY;
	if (i->user_xattr)
		n |= VT_FSF_XATTR_USER;
	if (i->trusted_xattr)
		n |= VT_FSF_XATTR_TRUSTED;
	if (i->nonempty || i->exec_probe)	/* vt_fx_write writes them */
		n |= VT_FSF_WRITE;
	if (i->mode & (S_ISUID | S_ISGID))
		n |= VT_FSF_SETID;
	return n;
}

/* The features case C needs: its world's inodes and its operation (an
 * operation the model decides on a filesystem without the feature, such
 * as an ACL set where !IS_POSIXACL, needs nothing here). */
static unsigned int case_needs(const struct vt_mcase *c)
{
	unsigned int n = inode_needs(&c->dir) | inode_needs(&c->obj) | inode_needs(&c->other) |
			 inode_needs(&c->dir2);

	if (c->ovl)
		n |= VT_FSF_OVERLAY;

	switch (c->op.op) {
	case VT_OP_SYMLINK: n |= VT_FSF_SYMLINK; break;
	case VT_OP_LINK: n |= VT_FSF_HARDLINK; break;
	case VT_OP_MKFIFO: case VT_OP_MKNOD_CHR: n |= VT_FSF_DEVNODE; break;
	case VT_OP_TMPFILE: n |= VT_FSF_TMPFILE; break;
	case VT_OP_FCAPS_SET: case VT_OP_FCAPS_GET: case VT_OP_FCAPS_REMOVE:
		n |= VT_FSF_XATTR_SECURITY; break;
	case VT_OP_XATTR_SET_USER: case VT_OP_XATTR_GET_USER: case VT_OP_XATTR_REMOVE_USER:
		n |= VT_FSF_XATTR_USER; break;
	case VT_OP_XATTR_SET_TRUSTED: case VT_OP_XATTR_GET_TRUSTED:
	case VT_OP_XATTR_REMOVE_TRUSTED:
		n |= VT_FSF_XATTR_TRUSTED; break;
	case VT_OP_RENAME_EXCHANGE: n |= VT_FSF_EXCHANGE; break;
	case VT_OP_RENAME_WHITEOUT: n |= VT_FSF_WHITEOUT; break;
	/* exec runs a copy of exec-probe the fixture writes */
	case VT_OP_WRITE: case VT_OP_EXEC: n |= VT_FSF_WRITE; break;
	default: break;
	}
	return n;
}

/* Why case LOCAL of F is skipped in this world ("" if it runs). */
const char *mx_case_skip(const struct mx_world *rw, const struct vt_mcase *c)
{
	static char lack_why[300];

	if (c->optworld && vt_optowner_world_missing(c->optworld - 1))
		return vt_optowner_world_missing(c->optworld - 1);
	if ((c->op.op == VT_OP_SETFLAGS || c->op.op == VT_OP_FSSETXATTR) && rw->no_fileattr[0])
		return rw->no_fileattr;
	if (c->op.op == VT_OP_SETLEASE && rw->no_lease[0])
		return rw->no_lease;
	if (c->op.op == VT_OP_DEDUPE && rw->no_dedupe[0])
		return rw->no_dedupe;
	if (c->ovl && rw->no_overlay[0])
		return rw->no_overlay;
	if (rw->fs_lacks & case_needs(c))
		return vt_fs_lack_why(rw->fstype, rw->fs_lacks & case_needs(c), lack_why,
				      sizeof(lack_why));
	/* a filesystem with ACLs mounted without them (ntfs3 without "acl":
	 * no SB_POSIXACL) cannot hold the world's ACLs; the ACL operations
	 * themselves are decided by the model (!IS_POSIXACL): only a world
	 * with an ACL on disk needs them */
	if (!rw->optowner && !rw->posixacl && (case_needs(c) & VT_FSF_POSIX_ACL)) {
		snprintf(lack_why, sizeof(lack_why), "the world has POSIX ACLs and %s is mounted "
			 "without them (setting system.posix_acl_access gave EOPNOTSUPP)",
			 rw->fstype);
		return lack_why;
	}
	if (c->op.op == VT_OP_RENAME_WHITEOUT && rw->no_whiteout[0])
		return rw->no_whiteout;
	if (c->op.op == VT_OP_EXEC && rw->no_exec[0])
		return rw->no_exec;
	if (c->sysctl_set && !rw->sysctl_allowed) {
		static char why[200];
		int k;

		for (k = 0; k < VT_SYSCTL__COUNT; k++)
			if (c->sysctl[k] != rw->sysctl_orig[k]) {
				snprintf(why, sizeof(why),
					 "needs %s = %d, it is %d (a global sysctl: changed only "
					 "where VT_ALLOW_SYSCTL=1)",
					 vt_sysctl_names[k] + 3, c->sysctl[k], rw->sysctl_orig[k]);
				return why;
			}
	}
	return "";
}

/* Makes the fs.protected_* values what case C needs (the original ones
 * for a case that names none); NULL or why they could not be set. */
const char *mx_apply_sysctls(struct mx_world *rw, const struct vt_mcase *c)
{
	const int *want = c->sysctl_set ? c->sysctl : rw->sysctl_orig;
	int k;

	for (k = 0; k < VT_SYSCTL__COUNT; k++) {
		const char *why;

		if (want[k] == rw->sysctl_cur[k])
			continue;
		why = vt_sysctl_need_value(vt_sysctl_names[k], want[k]);
		if (why)
			return why;
		rw->sysctl_cur[k] = want[k];
	}
	return NULL;
}

/* A test leaves nothing behind: the idmapped mounts are detached and the
 * tree removed (the executor would otherwise report them as leaks). */
void mx_world_teardown(struct mx_world *w)
{
	int i;

	mx_ovl_unmount(w);
	for (i = 0; i < 16; i++)
		if (w->ovl_ns[i] > 0) {
			close(w->ovl_ns[i]);
			w->ovl_ns[i] = -1;
		}
	for (i = 0; i < vt_map_axis_count && !w->optowner; i++)
		if (vt_map_axes[i].spec)
			umount2(w->mnt[i], MNT_DETACH);
	if (w->optowner)
		vt_optowner_teardown();
	if (w->p[0])
		vt_fx_remove(w->p);
	if (w->q[0])
		vt_fx_remove(w->q);	/* heals what only it knows to heal */
	vt_safe_remove_tree(w->base);
}

/* The world a default mount of FSTYPE gives, without mounting anything
 * (the scorer's): POSIX ACLs, whiteouts and setuid exec where the fs has
 * them; the fs.protected_* sysctls, overflow ids and bounding set as this
 * machine has them (read from /proc once, not per case). The matrix's own
 * run probes these instead (mx_world_setup()). */
const char *mx_assumed_world(struct mx_world *w, const char *fstype)
{
	static char why[512];
	int i;

	memset(w, 0, sizeof(*w));
	if (vt_axes_init(why, sizeof(why)) < 0)
		return why;
	w->fstype = fstype;
	w->optowner = vt_optowner_fs(fstype);
	w->posixacl = !w->optowner;	/* tmpfs, ext4, xfs, btrfs mount with SB_POSIXACL */
	probe_fileops(w);
	snprintf(w->no_dedupe, sizeof(w->no_dedupe),
		 "FIDEDUPERANGE not probed in an assumed world (only a mounted one says whether "
		 "%s has ->remap_file_range)", fstype);
	w->fs_lacks = table_lacks(fstype, w->optowner != NULL);
	if (w->fs_lacks & VT_FSF_POSIX_ACL)
		w->posixacl = false;
	if (w->optowner) {
		vt_optowner_use(w->optowner);
		snprintf(w->no_whiteout, sizeof(w->no_whiteout),
			 "%s has no RENAME_WHITEOUT (assumed, not probed)", fstype);
	}
	w->bset_init = read_bset();
	i = (int)vt_sysctl_read("kernel/cap_last_cap", 40);
	w->cap_full = i >= 63 ? ~0ULL : (1ULL << (i + 1)) - 1;
	for (i = 0; i < VT_SYSCTL__COUNT; i++)
		w->sysctl_orig[i] = w->sysctl_cur[i] = (int)vt_sysctl_read(vt_sysctl_names[i], 0);
	w->sysctl_allowed = getenv("VT_ALLOW_SYSCTL") && strcmp(getenv("VT_ALLOW_SYSCTL"), "1") == 0;
	w->overflowuid = (uint32_t)vt_sysctl_read("kernel/overflowuid", 65534);
	w->overflowgid = (uint32_t)vt_sysctl_read("kernel/overflowgid", 65534);
	return NULL;
}
