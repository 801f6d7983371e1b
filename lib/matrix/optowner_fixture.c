/* The option-owner worlds of the matrix (optowner_fixture.h). */
#include "matrix/optowner_fixture.h"
#include "matrix/axes.h"
#include "util/errname.h"
#include "world/idmapped_mount.h"
#include "world/userns.h"
#include "world/optowner_world.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* allow_utime without the option: ~dmask & (S_IWGRP|S_IWOTH) (fat_fill_super,
 * exfat_fill_super) */
#define FAT(u, g, fm, dm, ut, ...) { .fs_uid = { u }, .fs_gid = { g }, .fs_fmask = fm, \
				     .fs_dmask = dm, .allow_utime = ut, __VA_ARGS__ }

/* Owners: 0, 1000 and 1001 (the callers' ids, swapped by the swap map),
 * uid 1000 with gid 1001 (a caller's supplementary group), and 70000,
 * which no mount idmap of the axis maps. Modes: the usual umask 022,
 * group-writable 002, everything 000, 027 (group r-x, others nothing),
 * files 0640 in 0755 directories (fmask 0137: others find but cannot
 * read them). quiet (fat only) and allow_utime once each. */
const struct vt_optowner_world vt_optowner_worlds[] = {
	{ "u0-g0-m022", "uid=0,gid=0,umask=0022", FAT(0, 0, 022, 022, 0) },
	{ "u1000-g1000-m022-utime002", "uid=1000,gid=1000,umask=0022,allow_utime=0002",
	  FAT(1000, 1000, 022, 022, 02) },
	{ "u1001-g1001-m002", "uid=1001,gid=1001,umask=0002", FAT(1001, 1001, 002, 002, 020) },
	{ "u1000-g1001-m000", "uid=1000,gid=1001,umask=0000", FAT(1000, 1001, 0, 0, 022) },
	{ "u70000-g70000-m022", "uid=70000,gid=70000,umask=0022", FAT(70000, 70000, 022, 022, 0) },
	{ "u1000-g1000-f137-d022-quiet", "uid=1000,gid=1000,fmask=0137,dmask=0022,quiet",
	  FAT(1000, 1000, 0137, 022, 0, .quiet = true) },
	{ "u0-g1000-m027", "uid=0,gid=1000,umask=0027", FAT(0, 1000, 027, 027, 0) },
};
const int vt_optowner_world_count = sizeof(vt_optowner_worlds) / sizeof(vt_optowner_worlds[0]);

#define MAX_WORLDS 8
#define MAX_MAPS 16

static char img_dir[4200];
static char disk[MAX_WORLDS][4200], pdir[MAX_WORLDS][4300], qdir[MAX_WORLDS][4300];
static char mnt[MAX_WORLDS][MAX_MAPS][4200];
static bool mounted[MAX_WORLDS][MAX_MAPS], disk_mounted[MAX_WORLDS], img_mounted;
static const struct vt_optowner_fs *in_use = &vt_optowner_vfat;
static struct vt_optowner_opts models[MAX_WORLDS];

void vt_optowner_use(const struct vt_optowner_fs *fs)
{
	in_use = fs ? fs : &vt_optowner_vfat;
}

const struct vt_optowner_fs *vt_optowner_current(void)
{
	return in_use;
}

const struct vt_optowner_opts *vt_optowner_model(int k)
{
	models[k] = vt_optowner_worlds[k].model;
	models[k].fs = in_use;
	/* msdos mounts with rodir unless told otherwise (fat_init_fs_context) */
	models[k].rodir = models[k].rodir || in_use->rodir_default;
	return &models[k];
}

const char *vt_optowner_world_missing(int k)
{
	static char why[200];

	/* exfat_param_specs has no quiet (nor rodir): mount(2) refuses it */
	if (vt_optowner_worlds[k].model.quiet && !in_use->has_quiet) {
		snprintf(why, sizeof(why), "%s has no quiet mount option (%s)", in_use->fstype,
			 in_use->source);	/* "fs/exfat: ..., exfat_param_specs" */
		return why;
	}
	return NULL;
}

void vt_optowner_resolve(const struct vt_world *w, struct vt_mop_args *a)
{
	/* what stat() shows the caller: from_kuid_munged(current_user_ns(),
	 * i_uid_into_vfsuid()) of an inode owned by uid=/gid= */
	vt_cuid_t su = vt_from_kuid_munged(
		w->cred.ns, vt_vfsuid_into_kuid(vt_make_vfsuid(w->idmap, w->fs_ns, w->optowner->fs_uid)),
		w->overflowuid);
	vt_cgid_t sg = vt_from_kgid_munged(
		w->cred.ns, vt_vfsgid_into_kgid(vt_make_vfsgid(w->idmap, w->fs_ns, w->optowner->fs_gid)),
		w->overflowgid);

	if (a->uid.val == VT_FAT_ID_SEEN)
		a->uid = su;
	else if (a->uid.val == VT_FAT_ID_NEXT)
		a->uid = vt_cuid(su.val + 1);
	if (a->gid.val == VT_FAT_ID_SEEN)
		a->gid = sg;
	else if (a->gid.val == VT_FAT_ID_NEXT)
		a->gid = vt_cgid(sg.val + 1);
}

const char *vt_optowner_disk(int w)
{
	return disk[w];
}

const char *vt_optowner_p(int w)
{
	return pdir[w];
}

const char *vt_optowner_q(int w)
{
	return qdir[w];
}

const char *vt_optowner_mnt(int w, int map)
{
	return vt_map_axes[map].spec ? mnt[w][map] : disk[w];
}

void vt_optowner_teardown(void)
{
	int k, m;

	for (k = 0; k < MAX_WORLDS; k++) {
		for (m = 0; m < MAX_MAPS; m++)
			if (mounted[k][m] && umount2(mnt[k][m], MNT_DETACH) == 0)
				mounted[k][m] = false;
		if (disk_mounted[k] && umount2(disk[k], MNT_DETACH) == 0)
			disk_mounted[k] = false;
	}
	if (img_mounted && umount2(img_dir, MNT_DETACH) == 0)
		img_mounted = false;
}

/* World K: its FSTYPE at BASE/fatK/disk, then one idmapped mount per map
 * (user namespaces in NS, one per map). */
static const char *world_setup(const char *base, const char *fstype, int k, const int *ns,
			       char *why, size_t len)
{
	const struct vt_optowner_world *vw = &vt_optowner_worlds[k];
	char dir[4200], name[32];
	const char *what = "";
	int m, r;

	snprintf(dir, sizeof(dir), "%s/fat%d", base, k);
	if (mkdir(dir, 0755) < 0) {
		snprintf(why, len, "mkdir %s: %s", dir, vt_errname(errno));
		return why;
	}
	snprintf(disk[k], sizeof(disk[k]), "%s/disk", dir);
	snprintf(pdir[k], sizeof(pdir[k]), "%s/p", disk[k]);
	snprintf(qdir[k], sizeof(qdir[k]), "%s/q", disk[k]);
	snprintf(name, sizeof(name), "fat%d", k);
	r = vt_optowner_mount_new(img_dir, name, fstype, vw->options, disk[k], &what);
	if (r < 0) {
		snprintf(why, len, "%s world %s (-o %s): %s: %s", fstype, vw->name, vw->options,
			 what, r == -ENOEXEC ? "mkfs failed" : vt_errname(-r));
		return why;
	}
	disk_mounted[k] = true;
	for (m = 0; m < vt_map_axis_count && m < MAX_MAPS; m++) {
		/* the userns maps are of a tmpfs of their own: not here */
		if (!vt_map_axes[m].spec || vt_map_axes[m].sb_userns)
			continue;
		snprintf(mnt[k][m], sizeof(mnt[k][m]), "%s/m-%s", dir, vt_map_axes[m].name);
		if (mkdir(mnt[k][m], 0755) < 0) {
			snprintf(why, len, "mkdir %s: %s", mnt[k][m], vt_errname(errno));
			return why;
		}
		r = vt_idmapped_mount(disk[k], mnt[k][m], ns[m], false);
		if (r < 0) {
			snprintf(why, len, "idmapped mount %s of %s world %s: %s", vt_map_axes[m].spec,
				 fstype, vw->name, vt_errname(-r));
			return why;
		}
		mounted[k][m] = true;
	}
	return NULL;
}

const char *vt_optowner_setup(const char *base, const char *fstype, char *why, size_t len)
{
	int ns[MAX_MAPS], m, k, r;
	const char *err = NULL;

	vt_optowner_use(vt_optowner_fs(fstype));
	if (vt_optowner_world_count > MAX_WORLDS || vt_map_axis_count > MAX_MAPS) {
		snprintf(why, len, "%s worlds: more worlds or maps than the driver holds", fstype);
		return why;
	}
	snprintf(img_dir, sizeof(img_dir), "%s/img", base);
	r = vt_optowner_image_dir(img_dir);
	if (r < 0) {
		snprintf(why, len, "tmpfs for the %s images at %s: %s", fstype, img_dir,
			 vt_errname(-r));
		return why;
	}
	img_mounted = true;
	for (m = 0; m < vt_map_axis_count; m++) {
		ns[m] = -1;
		if (!vt_map_axes[m].spec || vt_map_axes[m].sb_userns || err)
			continue;
		ns[m] = vt_userns_from_spec(-1, vt_map_axes[m].spec);
		if (ns[m] < 0) {
			snprintf(why, len, "user namespace %s: %s", vt_map_axes[m].spec,
				 vt_errname(-ns[m]));
			err = why;
		}
	}
	/* a world the filesystem cannot have is not mounted; its cases are
	 * notrun (mx_case_skip) */
	for (k = 0; k < vt_optowner_world_count && !err; k++)
		if (!vt_optowner_world_missing(k))
			err = world_setup(base, fstype, k, ns, why, len);
	for (m = 0; m < vt_map_axis_count; m++)
		if (ns[m] >= 0)
			close(ns[m]);
	return err;
}
