/* The overlay world's erofs lower layer (ovl_erofs.h). */
#include "matrix/ovl_erofs.h"
#include "fs/fs_table.h"
#include "matrix/fixture.h"
#include "util/errname.h"
#include "world/fsimage.h"
#include "world/ro_image.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* The probe's files: each holds one thing an image must keep for the
 * lower=erofs cases that need it (VT_FSF_*; 0: every case needs it). */
#define NPROBE 5
static const char *const probe_names[NPROBE] = { "owner", "user", "trusted", "acl", "fcaps" };
static const unsigned int probe_feature[NPROBE] = { 0, VT_FSF_XATTR_USER, VT_FSF_XATTR_TRUSTED,
						    VT_FSF_POSIX_ACL, VT_FSF_XATTR_SECURITY };

static struct vt_minode probe_inode(int k)
{
	/* 70000 needs an extended erofs inode (the compact one's i_uid is
	 * 16 bits: erofs_read_inode), 06755 the setid bits */
	struct vt_minode i = vt_fx_inode(S_IFREG | (k == 0 ? 06755 : 0640), 70000, 70000);

	if (k == 1)
		i.user_xattr = true;
	if (k == 2)
		i.trusted_xattr = true;
	if (k == 3)
		vt_fx_add_acl(&i, 1000, 70000, false);
	if (k == 4) {
		i.fcaps.version = 3;
		i.fcaps.rootid = vt_kuid(70000);
	}
	return i;
}

/* What the image kept of probe file K (staged as WANT), read back as GOT */
static bool probe_kept(int k, const struct vt_minode *want, const struct vt_minode *got)
{
	switch (k) {
	case 0:
		return got->exists && got->mode == want->mode && got->uid.val == want->uid.val &&
		       got->gid.val == want->gid.val;
	case 1: return got->user_xattr;
	case 2: return got->trusted_xattr;
	case 3: return got->nacl == want->nacl;
	default:
		return got->fcaps.version == 3 && got->fcaps.rootid.val == want->fcaps.rootid.val;
	}
}

/* Stages the probe below BASE/ovl-eprobe, makes and mounts its image and
 * reads each file back through the plain erofs mount. */
static void probe(struct mx_erofs *e, const char *base)
{
	char dir[4300], path[4400];
	bool staged[NPROBE];
	const char *what = "", *why;
	size_t n = 0;
	int k;

	snprintf(dir, sizeof(dir), "%s/ovl-eprobe", base);
	vt_fx_remove(dir);
	if (mkdir(dir, 0755) < 0) {
		snprintf(e->no_erofs, sizeof(e->no_erofs), "mkdir %s: %s", dir, vt_errname(errno));
		return;
	}
	/* a file the filesystem under test cannot hold (no ACLs, say) is
	 * not probed: its cases are notrun for that filesystem already */
	for (k = 0; k < NPROBE; k++) {
		struct vt_minode i = probe_inode(k);

		snprintf(path, sizeof(path), "%s/%s", dir, probe_names[k]);
		staged[k] = vt_fx_write(path, &i, &what) == 0;
	}
	why = mx_erofs_mount(e, dir);
	if (why) {
		snprintf(e->no_erofs, sizeof(e->no_erofs), "the probe's erofs image: %s", why);
		vt_fx_remove(dir);
		return;
	}
	for (k = 0; k < NPROBE; k++) {
		struct vt_minode want = probe_inode(k), got;

		if (!staged[k])
			continue;
		snprintf(path, sizeof(path), "%s/%s", e->mnt, probe_names[k]);
		vt_fx_read(path, &got);
		if (probe_kept(k, &want, &got))
			continue;
		if (!probe_feature[k]) {
			snprintf(e->no_erofs, sizeof(e->no_erofs),
				 "an erofs image made by mkfs.erofs here does not keep the staged "
				 "owner 70000:70000 and mode 06755 (read back: %u:%u %o)",
				 got.uid.val, got.gid.val, (unsigned)got.mode);
			break;
		}
		e->lacks |= probe_feature[k];
		n += (size_t)snprintf(e->lacks_why + n, sizeof(e->lacks_why) - n, "%s%s", n ? ", " : "",
				      vt_fs_feature_name(probe_feature[k]));
		if (n >= sizeof(e->lacks_why))
			n = sizeof(e->lacks_why) - 1;
	}
	mx_erofs_unmount(e);
	vt_fx_remove(dir);
	if (e->lacks) {
		char what_lacks[400];

		snprintf(what_lacks, sizeof(what_lacks), "%s", e->lacks_why);
		snprintf(e->lacks_why, sizeof(e->lacks_why),
			 "an erofs image of the staged tree does not read back its %s here (the "
			 "kernel's CONFIG_EROFS_FS_XATTR, _POSIX_ACL, _SECURITY, or mkfs.erofs "
			 "-x): the case's lower objects need it", what_lacks);
	}
}

/* The table's reason no erofs image can be made of a tree staged on
 * FSTYPE, in E->no_erofs; false if there is none. */
static bool table_refuses(struct mx_erofs *e, const char *fstype)
{
	const struct vt_fs_row *r = vt_fs_row("erofs");

	return vt_fs_unprefixed_xattr_why(fstype, r ? r->mkfs : "mkfs.erofs", e->no_erofs,
					  sizeof(e->no_erofs)) != NULL;
}

void mx_erofs_assume(struct mx_erofs *e, const char *fstype)
{
	memset(e, 0, sizeof(*e));
	table_refuses(e, fstype);
}

const char *mx_erofs_setup(struct mx_erofs *e, const char *base, const char *fstype)
{
	static char why[4400];

	memset(e, 0, sizeof(*e));
	if (vt_ro_image_unavailable("erofs", e->no_erofs, sizeof(e->no_erofs)))
		return NULL;
	/* asked of the table, not tried: the build-time sample table
	 * (mx_erofs_assume) must find the world a run finds */
	if (table_refuses(e, fstype))
		return NULL;
	snprintf(e->img, sizeof(e->img), "%s/ovl-e.img", base);
	snprintf(e->mnt, sizeof(e->mnt), "%s/ovl-e", base);
	if (mkdir(e->mnt, 0755) < 0 || chmod(e->mnt, 0755) < 0) {
		snprintf(why, sizeof(why), "mkdir %s: %s", e->mnt, vt_errname(errno));
		return why;
	}
	probe(e, base);
	return NULL;
}

static void key_put(struct mx_erofs *e, const void *p, size_t n)
{
	if (!e->key_valid)
		return;
	if (e->keylen + n > e->keycap) {
		size_t cap = e->keycap ? e->keycap * 2 : 4096;
		unsigned char *k;

		while (cap < e->keylen + n)
			cap *= 2;
		k = realloc(e->key, cap);
		if (!k) {
			e->key_valid = false;	/* made afresh: slower, not wrong */
			return;
		}
		e->key = k;
		e->keycap = cap;
	}
	memcpy(e->key + e->keylen, p, n);
	e->keylen += n;
}

/* the inode as vt_fx_write writes it: every field (world_model.h) */
static void key_inode(struct mx_erofs *e, const struct vt_minode *i)
{
	uint32_t v[VT_MINODE_KEY_WORDS];

	key_put(e, v, (size_t)vt_minode_key(i, v) * sizeof(v[0]));
}

void mx_erofs_key_reset(struct mx_erofs *e)
{
	e->keylen = 0;
	e->key_valid = true;
}

void mx_erofs_key_add(struct mx_erofs *e, int slot, const struct vt_minode *obj,
		      const struct vt_minode *other)
{
	uint32_t s = (uint32_t)slot;

	key_put(e, &s, sizeof(s));
	key_inode(e, obj);
	key_inode(e, other);
}

void mx_erofs_key_drop(struct mx_erofs *e)
{
	e->key_valid = false;
}

static void kept_path(const struct mx_erofs *e, int k, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s.%d.img", (int)(strlen(e->img) - 4), e->img, k);
}

/* Mounts image IMG at E->mnt: NULL or why not */
static const char *mount_image(struct mx_erofs *e, const char *img)
{
	static char why[4400];
	/* an autoclear loop device: it goes when the mount does, also when
	 * the test's mount namespace dies with it (vfsidmap-exec) */
	int r = vt_fs_mount("erofs", img, e->mnt, NULL);

	if (r < 0) {
		snprintf(why, sizeof(why), "mount -t erofs %s %s: %s", img, e->mnt, vt_errname(-r));
		return why;
	}
	e->mounted = true;
	return NULL;
}

const char *mx_erofs_mount(struct mx_erofs *e, const char *lower)
{
	static char why[9000];
	const char *what = "", *err;
	bool keyed = e->key_valid && e->keylen > 0;
	char img[4300];
	int r, k;

	if (e->mounted)
		mx_erofs_unmount(e);
	e->key_valid = false;	/* this mount's alone */
	e->img_kept = false;
	if (keyed)
		for (k = 0; k < MX_EROFS_KEEP; k++)
			if (e->kept[k].key && e->kept[k].len == e->keylen &&
			    memcmp(e->kept[k].key, e->key, e->keylen) == 0) {
				kept_path(e, k, img, sizeof(img));
				if (!mount_image(e, img)) {
					e->img_kept = true;
					return NULL;
				}
				/* gone or broken: made again below */
				free(e->kept[k].key);
				e->kept[k].key = NULL;
				unlink(img);
				break;
			}
	if (keyed) {
		k = e->next_kept;
		e->next_kept = (k + 1) % MX_EROFS_KEEP;
		free(e->kept[k].key);
		e->kept[k].key = NULL;
		kept_path(e, k, img, sizeof(img));
	} else {
		snprintf(img, sizeof(img), "%s", e->img);
	}
	unlink(img);	/* a dead block's, or the slot's last one */
	r = vt_ro_image_from_dir(img, "erofs", lower, NULL, -1, &what);
	if (r < 0) {
		snprintf(why, sizeof(why), "making the erofs image %s of %s: %s: %s", img, lower,
			 what, r == -ENOEXEC ? "failed" : vt_errname(-r));
		return why;
	}
	err = mount_image(e, img);
	if (err) {
		unlink(img);
		return err;
	}
	if (keyed && (e->kept[k].key = malloc(e->keylen))) {
		memcpy(e->kept[k].key, e->key, e->keylen);
		e->kept[k].len = e->keylen;
		e->img_kept = true;
	}
	return NULL;
}

void mx_erofs_unmount(struct mx_erofs *e)
{
	if (!e->mounted)
		return;
	if (umount2(e->mnt, 0) < 0)
		umount2(e->mnt, MNT_DETACH);
	if (!e->img_kept)
		unlink(e->img);
	e->mounted = false;
}

void mx_erofs_forget(struct mx_erofs *e)
{
	char img[4300];
	int k;

	mx_erofs_unmount(e);
	for (k = 0; k < MX_EROFS_KEEP; k++) {
		if (e->kept[k].key && e->img[0]) {
			kept_path(e, k, img, sizeof(img));
			unlink(img);
		}
		free(e->kept[k].key);
		e->kept[k].key = NULL;
	}
	free(e->key);
	e->key = NULL;
	e->keylen = e->keycap = 0;
	e->key_valid = false;
}

const char *mx_erofs_skip(const struct mx_erofs *e, const struct vt_mcase *c, unsigned int needs)
{
	if (!c->ovl || !(c->ovl_layers & VT_OVL_LOWER_EROFS))
		return "";
	if (e->no_erofs[0])
		return e->no_erofs;
	/* an ACL operation reads or copies up the lower ACL */
	if (c->op.op == VT_OP_ACL_GET || c->op.op == VT_OP_ACL_SET)
		needs |= VT_FSF_POSIX_ACL;
	if (e->lacks & needs)
		return e->lacks_why;
	return "";
}
