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
#include "util/syscalls.h"
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

/* OP (0 or a negative errno) on a new file DIR/NAME opened read-write, as
 * the initial root on the plain mount; "" in WHY, or "WHAT: <errno>
 * (HINT)". The file is removed. */
static void probe_on_new_file(const char *dir, const char *name, int (*op)(int fd),
			      const char *what, const char *hint, char *why, size_t len)
{
	char a[4200];
	int fd, r;

	snprintf(a, sizeof(a), "%s/%s", dir, name);
	*why = 0;
	fd = open(a, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, len, "%s: create: %s", what, vt_errname(errno));
		return;
	}
	r = op(fd);
	if (r)
		snprintf(why, len, "%s: %s (%s)", what, vt_errname(r), hint);
	close(fd);
	unlink(a);
}

/* FIDEDUPERANGE of 0 bytes from a file onto itself as the initial root on
 * the plain mount: without ->remap_file_range vfs_dedupe_file_range
 * answers EOPNOTSUPP before any permission. "" or the reason. */
static void probe_dedupe(const char *dir, char *why, size_t len)
{
	probe_on_new_file(dir, "dd-probe", vt_exec_dedupe_self,
			  "FIDEDUPERANGE of 0 bytes as root on the plain mount",
			  "no ->remap_file_range: vfs_dedupe_file_range", why, len);
}

/* Does a read as the initial root on the plain mount update an old atime
 * (read-atime cases)? Not on a noatime mount (atime_needs_update:
 * MNT_NOATIME, IS_NOATIME). "" or the reason. */
static void probe_atime(const char *dir, char *why, size_t len)
{
	struct timespec t[2] = { { VT_FX_OLD_ATIME, 0 }, { 0, UTIME_OMIT } };
	struct stat st;
	char a[4200], c;
	int fd;

	snprintf(a, sizeof(a), "%s/at-probe", dir);
	*why = 0;
	fd = open(a, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, len, "atime probe: create: %s", vt_errname(errno));
		return;
	}
	if (write(fd, "x", 1) != 1 || futimens(fd, t) < 0 || pread(fd, &c, 1, 0) != 1 ||
	    fstat(fd, &st) < 0)
		snprintf(why, len, "atime probe: %s", vt_errname(errno));
	else if (st.st_atim.tv_sec == VT_FX_OLD_ATIME)
		snprintf(why, len, "a read as root on the plain mount left an old atime alone "
			 "(noatime: atime_needs_update)");
	close(fd);
	unlink(a);
}

/* cachestat(2) as the initial root on the plain mount: ENOSYS on a
 * kernel before 6.5 or without CONFIG_CACHESTAT_SYSCALL. */
static void probe_cachestat(const char *dir, char *why, size_t len)
{
	probe_on_new_file(dir, "cs-probe", vt_exec_cachestat, "cachestat(2) as root on the plain mount",
			  "before Linux 6.5, or CONFIG_CACHESTAT_SYSCALL off", why, len);
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

/* The userns maps' filesystem (axes.h: sb_userns): a new superblock of
 * the filesystem under test made inside nsfs (vt_fsmount_in_userns: its
 * root joins nsfs, unshares a mount namespace nsfs owns, runs fsopen,
 * fsconfig(FSCONFIG_CMD_CREATE) and fsmount; mount_capable() allows it
 * for FS_USERNS_MOUNT, fs/super.c), attached at BASE/us by the initial
 * root, and its idmapped mounts (can_idmap_mount, fs/namespace.c: the
 * initial root is ns_capable over nsfs, the idmap is not nsfs, the clone
 * of open_tree is in an anonymous mount namespace). Where the table says
 * the filesystem cannot be mounted in a user namespace, or building it
 * fails, w->no_userns_sb says why and those cases are notrun. */
static void setup_userns_world(struct mx_world *w)
{
	char *why = w->no_userns_sb;
	size_t len = sizeof(w->no_userns_sb);
	int i, mfd;

	w->us_disk[0] = 0;
	if (w->optowner || !vt_fs_supports(w->fstype, VT_FSF_USERNS_MOUNT)) {
		vt_fs_lack_why(w->fstype, VT_FSF_USERNS_MOUNT, why, len);
		return;
	}
	w->us_ns_fd = vt_userns_from_spec(-1, VT_NSFS_SPEC);
	if (w->us_ns_fd < 0) {
		snprintf(why, len, "user namespace nsfs %s: %s", VT_NSFS_SPEC,
			 vt_errname(-w->us_ns_fd));
		w->us_ns_fd = -1;
		return;
	}
	mfd = vt_fsmount_in_userns(w->us_ns_fd, w->fstype);
	if (mfd < 0) {
		snprintf(why, len, "%s made inside the user namespace nsfs (fsopen, fsconfig, "
			 "fsmount): %s", w->fstype, vt_errname(-mfd));
		return;
	}
	snprintf(w->us_disk, sizeof(w->us_disk), "%s/us", w->base);
	if (mkdir(w->us_disk, 0755) < 0 ||
	    vt_move_mount(mfd, "", AT_FDCWD, w->us_disk, VT_MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		snprintf(why, len, "attaching %s of nsfs at %s: %s", w->fstype, w->us_disk,
			 vt_errname(errno));
		close(mfd);
		rmdir(w->us_disk);
		w->us_disk[0] = 0;
		return;
	}
	close(mfd);
	/* its root is made by nsfs's root (kuid 0) with mode 1777: as disk/ */
	if (chmod(w->us_disk, 0755) < 0) {
		snprintf(why, len, "chmod %s: %s", w->us_disk, vt_errname(errno));
		return;
	}
	vt_fx_base_add(w->us_disk);	/* a walk from it (if it fails: from /) */
	for (i = 0; i < vt_map_axis_count; i++) {
		int r;

		if (!vt_map_axes[i].sb_userns)
			continue;
		if (!vt_map_axes[i].spec) {
			snprintf(w->mnt[i], sizeof(w->mnt[i]), "%s", w->us_disk);
			continue;
		}
		snprintf(w->mnt[i], sizeof(w->mnt[i]), "%s/m-%s", w->base, vt_map_axes[i].name);
		if (mkdir(w->mnt[i], 0755) < 0) {
			snprintf(why, len, "mkdir %s: %s", w->mnt[i], vt_errname(errno));
			return;
		}
		r = vt_idmapped_mount_spec(w->us_disk, w->mnt[i], vt_map_axes[i].spec, false);
		if (r < 0) {
			snprintf(why, len, "idmapped mount %s of the %s made in nsfs: %s",
				 vt_map_axes[i].spec, w->fstype, vt_errname(-r));
			return;
		}
	}
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
	w->ovl_upper_other_ns = -1;
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
	w->ovl_upper_other_ns = vt_userns_from_spec(-1, VT_OVL_UPPER_OTHER_SPEC);
	if (w->ovl_upper_other_ns < 0) {
		snprintf(why, sizeof(why), "user namespace %s: %s", VT_OVL_UPPER_OTHER_SPEC,
			 vt_errname(-w->ovl_upper_other_ns));
		return why;
	}
	return mx_erofs_setup(&w->ovl_erofs, w->base, w->fstype);
}

const char *mx_ovl_mount(struct mx_world *w, int map, int layers)
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
	/* VT_OVL_LOWER_EROFS: the lower layer is the image of the staged
	 * lower tree, mounted plain, idmapped below like the directory */
	if (layers & VT_OVL_LOWER_EROFS) {
		const char *ewhy = mx_erofs_mount(&w->ovl_erofs, w->ovl_lower);

		if (ewhy)
			return ewhy;
		lower = w->ovl_erofs.mnt;
	}
	if (vt_map_axes[map].spec) {
		r = vt_idmapped_mount(lower, w->ovl_lmnt, w->ovl_ns[map], false);
		if (r < 0) {
			snprintf(why, sizeof(why), "idmapped mount %s of %s: %s", vt_map_axes[map].spec,
				 lower, vt_errname(-r));
			mx_erofs_unmount(&w->ovl_erofs);
			return why;
		}
		lower = w->ovl_lmnt;
	}
	/* VT_OVL_UPPER_PLAIN: the upper layer and workdir are the directory
	 * itself (nop_mnt_idmap), the lower one goes through the map;
	 * VT_OVL_UPPER_OTHER: they go through VT_OVL_UPPER_OTHER_SPEC */
	if (layers == VT_OVL_UPPER_OTHER ||
	    (vt_map_axes[map].spec && layers != VT_OVL_UPPER_PLAIN)) {
		int ns = layers == VT_OVL_UPPER_OTHER ? w->ovl_upper_other_ns : w->ovl_ns[map];
		const char *spec = layers == VT_OVL_UPPER_OTHER ? VT_OVL_UPPER_OTHER_SPEC
								 : vt_map_axes[map].spec;

		r = vt_idmapped_mount(w->ovl_up, w->ovl_umnt, ns, false);
		if (r < 0) {
			if (lower == w->ovl_lmnt)
				umount2(w->ovl_lmnt, MNT_DETACH);
			mx_erofs_unmount(&w->ovl_erofs);
			snprintf(why, sizeof(why), "idmapped mount %s of %s: %s", spec, w->ovl_up,
				 vt_errname(-r));
			return why;
		}
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
		if (upl == w->ovl_umnt)
			umount2(w->ovl_umnt, MNT_DETACH);
		if (lower == w->ovl_lmnt)
			umount2(w->ovl_lmnt, MNT_DETACH);
		mx_erofs_unmount(&w->ovl_erofs);
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
	mx_erofs_unmount(&w->ovl_erofs);	/* and its image */
	w->ovl_mounted = false;
}

/* Builds the shared world; NULL or the reason the test cannot run. */
const char *mx_world_setup(struct mx_world *w, const char *base_name)
{
	static char why[512];
	const char *test_dir = getenv("TEST_DIR");
	int i;

	w->us_ns_fd = -1;

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
		/* ovl-e: the erofs lower layer's (below ovl-lm's idmapped one) */
		static const char *const stale[5] = { "us", "ovl-m", "ovl-um", "ovl-lm", "ovl-e" };
		char m[4200];

		for (i = 0; i < 5; i++) {
			snprintf(m, sizeof(m), "%s/%s", w->base, stale[i]);
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
	vt_fx_bases_drop();	/* a world's only (mx_world_teardown) */
	/* the fixtures' paths walked from the disk's descriptor; not in the
	 * option-owner worlds, whose filesystems are mounted in the base
	 * (vt_optowner_setup) and may cover a directory opened before them */
	if (!w->optowner && (i = vt_fx_base_add(w->disk)) < 0) {
		snprintf(why, sizeof(why), "open %s: %s", w->disk, vt_errname(-i));
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

		if (vt_map_axes[i].sb_userns)
			continue;	/* setup_userns_world() */
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
	setup_userns_world(w);
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
	probe_atime(w->disk, w->no_atime, sizeof(w->no_atime));
	probe_cachestat(w->disk, w->no_cachestat, sizeof(w->no_cachestat));
	probe_fileops(w);
	w->bset_init = read_bset();
	i = (int)vt_sysctl_read("kernel/cap_last_cap", 40);
	w->cap_full = i >= 63 ? ~0ULL : (1ULL << (i + 1)) - 1;
	w->suid_dumpable = (int)vt_sysctl_read("fs/suid_dumpable", 0);
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
	/* model_world: every fs the matrix mounts belongs to the initial ns
	 * but the userns maps' one, where there is one */
	f->sb_userns_init = rw->no_userns_sb[0] != 0;
	f->fileattr = !rw->no_fileattr[0];
	f->leases = !rw->no_lease[0];
	f->dedupe = !rw->no_dedupe[0];
	f->atime = !rw->no_atime[0];
	f->cachestat = !rw->no_cachestat[0];
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
	if (i->fcaps.version || i->security_xattr)
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
	case VT_OP_XATTR_SET_SECURITY: case VT_OP_XATTR_GET_SECURITY:
	case VT_OP_XATTR_REMOVE_SECURITY:
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

/* The first kernel id of inode I that the filesystem made in nsfs cannot
 * hold, or -1: an ACL_USER/ACL_GROUP id nsfs does not map (set_posix_acl:
 * posix_acl_valid(s_user_ns, acl), fs/posix_acl.c) or a v3 capability's
 * rootid it does not map (cap_convert_nscap: from_kuid(fs_ns, rootid) ==
 * -1 is EINVAL, security/commoncap.c), whoever writes them. Owners are
 * not among them: the initial root's chown through the plain mount is
 * checked by notify_change with vfsuid_has_fsmapping(&nop_mnt_idmap, ...),
 * which from_vfsuid() answers without asking s_user_ns (fs/attr.c,
 * fs/mnt_idmapping.c), so the fixture writes any owner. */
static int64_t unmapped_in_nsfs(const struct vt_minode *i)
{
	int k;

	if (!i->exists)
		return -1;
	for (k = 0; k < i->nacl + i->ndefacl; k++) {
		const struct vt_acl_kentry *a = k < i->nacl ? &i->acl[k] : &i->defacl[k - i->nacl];

		if (a->tag == VT_ACL_USER && !vt_kuid_has_mapping(&vt_model_nsfs, a->uid))
			return a->uid.val;
		if (a->tag == VT_ACL_GROUP && !vt_kgid_has_mapping(&vt_model_nsfs, a->gid))
			return a->gid.val;
	}
	if (i->fcaps.version == 3 && !vt_kuid_has_mapping(&vt_model_nsfs, i->fcaps.rootid))
		return i->fcaps.rootid.val;
	return -1;
}

/* Why a case on a userns map is notrun ("" if it runs): the filesystem
 * has no such superblock, or the case's objects hold an ACL entry or a
 * capability rootid its s_user_ns does not map, which no inode of it can
 * hold (unmapped_in_nsfs). */
static const char *userns_skip(const struct mx_world *rw, const struct vt_mcase *c)
{
	static char why[400];
	const struct vt_minode *inodes[4] = { &c->dir, &c->obj, &c->other, &c->dir2 };
	int k;

	if (!rw->optowner && vt_fs_supports(rw->fstype, VT_FSF_USERNS_MOUNT) && rw->no_userns_sb[0])
		return rw->no_userns_sb;
	if (rw->optowner || !vt_fs_supports(rw->fstype, VT_FSF_USERNS_MOUNT))
		return vt_fs_lack_why(rw->fstype, VT_FSF_USERNS_MOUNT, why, sizeof(why));
	for (k = 0; k < 4; k++) {
		int64_t id = unmapped_in_nsfs(inodes[k]);

		if (id >= 0) {
			snprintf(why, sizeof(why), "the case's objects hold an ACL entry or a "
				 "capability rootid of kernel id %lld, which the superblock's user "
				 "namespace (nsfs %s) does not map: no inode of that filesystem can "
				 "(posix_acl_valid, cap_convert_nscap refuse it)", (long long)id,
				 VT_NSFS_SPEC);
			return why;
		}
	}
	return "";
}

int mx_skip_map_class(int map)
{
	return (vt_map_sb_userns(map) ? MX_MAPC_SB_USERNS : 0) |
	       (vt_map_axes[map].spec ? MX_MAPC_IDMAP : 0);
}

const char *mx_case_skip(const struct mx_world *rw, const struct vt_mcase *c, int map)
{
	return mx_case_skip_class(rw, c, mx_skip_map_class(map));
}

/* Why case C on a map of class MAPC is skipped in this world ("" if it
 * runs). It sees the map only through MAPC: make_key()
 * (lib/matrix/sample_table.c) asks once a class, not once a map. */
const char *mx_case_skip_class(const struct mx_world *rw, const struct vt_mcase *c, int mapc)
{
	static char lack_why[300];
	bool sb_userns = mapc & MX_MAPC_SB_USERNS;

	if (sb_userns && *userns_skip(rw, c))
		return userns_skip(rw, c);
	/* mx_ovl_mount stacks directories of the filesystem under test; the
	 * userns maps name another superblock (nsfs's), which the overlay
	 * world does not take as a layer: its model would be of layers whose
	 * s_user_ns is not the one it assumes */
	if (c->ovl && sb_userns)
		return "not modelled: the overlay world's layers are the filesystem under test, "
		       "not the userns maps' superblock of nsfs (lib/matrix/world_setup.c)";

	if (c->optworld && vt_optowner_world_missing(c->optworld - 1))
		return vt_optowner_world_missing(c->optworld - 1);
	if ((c->op.op == VT_OP_SETFLAGS || c->op.op == VT_OP_FSSETXATTR) && rw->no_fileattr[0])
		return rw->no_fileattr;
	if (c->op.op == VT_OP_SETLEASE && rw->no_lease[0])
		return rw->no_lease;
	/* every overlay file has ->remap_file_range (ovl_remap_file_range),
	 * whatever its layers' filesystem */
	if (c->op.op == VT_OP_DEDUPE && !c->ovl && rw->no_dedupe[0])
		return rw->no_dedupe;
	if (c->op.op == VT_OP_READ_ATIME && rw->no_atime[0])
		return rw->no_atime;
	if (c->op.op == VT_OP_CACHESTAT && rw->no_cachestat[0])
		return rw->no_cachestat;
	if (c->ovl && rw->no_overlay[0])
		return rw->no_overlay;
	/* a map that is no idmap leaves both layers plain: the case is its
	 * both-layers twin's ("overlay/..." without "upper=plain/") */
	if (c->ovl && c->ovl_layers == VT_OVL_UPPER_PLAIN && !(mapc & MX_MAPC_IDMAP))
		return "the same overlay as the case without upper=plain: on this map neither "
		       "layer is idmapped (lib/matrix/world_setup.c mx_ovl_mount)";
	if (rw->fs_lacks & case_needs(c))
		return vt_fs_lack_why(rw->fstype, rw->fs_lacks & case_needs(c), lack_why,
				      sizeof(lack_why));
	if (*mx_erofs_skip(&rw->ovl_erofs, c, case_needs(c)))
		return mx_erofs_skip(&rw->ovl_erofs, c, case_needs(c));
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

	vt_fx_bases_drop();	/* before the filesystems they are on go */
	mx_ovl_unmount(w);
	mx_erofs_forget(&w->ovl_erofs);
	for (i = 0; i < 16; i++)
		if (w->ovl_ns[i] > 0) {
			close(w->ovl_ns[i]);
			w->ovl_ns[i] = -1;
		}
	if (w->ovl_upper_other_ns > 0) {
		close(w->ovl_upper_other_ns);
		w->ovl_upper_other_ns = -1;
	}
	for (i = 0; i < vt_map_axis_count && !w->optowner; i++)
		if (vt_map_axes[i].spec && w->mnt[i][0])
			umount2(w->mnt[i], MNT_DETACH);
	if (w->us_disk[0])
		umount2(w->us_disk, MNT_DETACH);
	if (w->us_ns_fd >= 0)
		close(w->us_ns_fd);
	w->us_ns_fd = -1;
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
	w->us_ns_fd = -1;
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
	/* the userns maps' filesystem: assumed built where the table allows it */
	if (w->optowner || !vt_fs_supports(fstype, VT_FSF_USERNS_MOUNT))
		vt_fs_lack_why(fstype, VT_FSF_USERNS_MOUNT, w->no_userns_sb, sizeof(w->no_userns_sb));
	if (w->optowner) {
		vt_optowner_use(w->optowner);
		snprintf(w->no_whiteout, sizeof(w->no_whiteout),
			 "%s has no RENAME_WHITEOUT (assumed, not probed)", fstype);
	}
	w->bset_init = read_bset();
	i = (int)vt_sysctl_read("kernel/cap_last_cap", 40);
	w->cap_full = i >= 63 ? ~0ULL : (1ULL << (i + 1)) - 1;
	w->suid_dumpable = (int)vt_sysctl_read("fs/suid_dumpable", 0);
	for (i = 0; i < VT_SYSCTL__COUNT; i++)
		w->sysctl_orig[i] = w->sysctl_cur[i] = (int)vt_sysctl_read(vt_sysctl_names[i], 0);
	w->sysctl_allowed = getenv("VT_ALLOW_SYSCTL") && strcmp(getenv("VT_ALLOW_SYSCTL"), "1") == 0;
	w->overflowuid = (uint32_t)vt_sysctl_read("kernel/overflowuid", 65534);
	w->overflowgid = (uint32_t)vt_sysctl_read("kernel/overflowgid", 65534);
	return NULL;
}
