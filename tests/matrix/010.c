/* matrix/010: exec of setuid, setgid and file-capability binaries through
 * idmapped mounts.
 *
 * A copy of exec-probe with the case's owner (0:0, 1000:1000, 70000:70000
 * on disk), mode (S_ISUID, S_ISGID with and without S_IXGRP, both) and
 * security.capability (v2; v3 with rootid 0, 10000 = ns0's root, 70000)
 * is exec'd by the case's caller through the case's mount (attached with
 * move_mount: mnt_may_suid, §B.6.8); the probe reports its uids, gids and
 * capability sets. Guards bprm_fill_uid (the owner in the mount's view;
 * ignored when it has no mapping in the caller's namespace; S_ISGID only
 * with S_IXGRP), get_vfs_caps_from_disk (file caps ignored when the rootid
 * does not own the caller's namespace or an ancestor) and the resulting
 * sets of cap_bprm_creds_from_file / handle_privileged_root. The probe
 * also reports its dumpability and the owner of its /proc/self/status:
 * would_dump (fs/exec.c) makes an exec of a file the caller cannot read
 * through the mount (inode_permission(MAY_READ) with the mount's idmap:
 * the exec-only 0711 and group-readable 0751 copies) non-dumpable and
 * moves mm->user_ns up to a namespace privileged over the file through
 * the mount (privileged_wrt_inode_uidgid), which task_dump_owner shows as
 * the owner of /proc/self/status. Expected values come from lib/model
 * (exec_rules.c).
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): a lower copy of exec-probe (setuid, setgid, fcaps v2, v3 rootid
 * 10000 and 70000, exec-only 0711) of each owner exec'd through an
 * overlay whose layers are mounts idmapped with the case's map: the plain
 * exec rules on the overlay inode (owner through the lower idmap,
 * ovl_copyattr; the overlay's own mount, not nosuid), the mounter's
 * MAY_EXEC and MAY_READ (ovl_open_realfile) on the real file through the
 * lower idmap, and the capability as ovl_xattr_get hands it on
 * (cap_inode_getsecurity as the mounter through the lower idmap: the
 * rootid converted, EOVERFLOW when it has no id): overlay_model.c
 * op_exec. */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const struct {
	const char *name;
	uint32_t uid, gid;
} owners[] = {
	{ "0:0", 0, 0 }, { "1000:1000", 1000, 1000 }, { "70000:70000", 70000, 70000 },
};
#define NOWNERS 3
static const struct {
	const char *name;
	mode_t mode;
	int fcaps_version;
	uint32_t rootid;
} files[] = {
	{ "suid-4755", 04755, 0, 0 },
	{ "sgid-2755", 02755, 0, 0 },
	{ "sgid-noxgrp-2745", 02745, 0, 0 },
	{ "suid-sgid-6755", 06755, 0, 0 },
	{ "plain-0755", 0755, 0, 0 },
	{ "fcaps-v2-0755", 0755, 2, 0 },
	{ "fcaps-v3-rootid0-0755", 0755, 3, 0 },
	{ "fcaps-v3-rootid10000-0755", 0755, 3, 10000 },
	{ "fcaps-v3-rootid70000-0755", 0755, 3, 70000 },
	{ "suid-fcaps-v2-4755", 04755, 2, 0 },
	/* appended (case ids keep their names): would_dump's read check */
	{ "xonly-0711", 0711, 0, 0 },
	{ "grpread-0751", 0751, 0, 0 },
};
#define NFILES 12

/* the overlay world: six of the files, the three owners */
static const int ovlfiles[] = { 0, 1, 5, 7, 8, 10 };	/* files[] */
#define NOVLFILES 6
/* the overlay world with an erofs lower layer (appended): the six files of
 * 0:0 (setuid root, setgid, fcaps v2 and v3 rootid 10000 and 70000 read
 * off the image's security.capability, exec-only) and the exec-only one of
 * 70000:70000 (the mounter's MAY_READ refused: EACCES); make_overlay's
 * index owner * NOVLFILES + file */
static const int ovl_erofs[] = { 0, 1, 2, 3, 4, 5, 2 * NOVLFILES + 5 };
#define NOVL_EROFS 7

static void make_overlay(int local, struct vt_mcase *c)
{
	int f = ovlfiles[local % NOVLFILES], o = local / NOVLFILES;

	c->ovl = true;
	c->dir = vt_fx_inode(S_IFDIR | 0755, 0, 0);
	c->obj = vt_fx_inode(S_IFREG | files[f].mode, owners[o].uid, owners[o].gid);
	c->obj.exec_probe = true;
	c->obj.nonempty = false;
	c->obj.fcaps.version = files[f].fcaps_version;
	c->obj.fcaps.rootid = vt_kuid(files[f].rootid);
	c->op.op = VT_OP_EXEC;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "overlay/op=exec/upper-p=0755-0:0/lower-o=%s-%s",
		 files[f].name, owners[o].name);
}

static void make_plain(int row, int inner, struct vt_mcase *c)
{
	int f = row % NFILES, o = row / NFILES;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | 0755, 0, 0);
	c->obj = vt_fx_inode(S_IFREG | files[f].mode, owners[o].uid, owners[o].gid);
	c->obj.exec_probe = true;
	c->obj.nonempty = false;
	c->obj.fcaps.version = files[f].fcaps_version;
	c->obj.fcaps.rootid = vt_kuid(files[f].rootid);
	c->op.op = VT_OP_EXEC;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=exec/file=%s-%s", files[f].name, owners[o].name);
}

/* may_open(MAY_EXEC): a directory or a fifo is EACCES */
static void make_not_reg(int row, int inner, struct vt_mcase *c)
{
	bool fifo = row > 0;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | 0755, 0, 0);
	c->obj = vt_fx_inode((fifo ? S_IFIFO : S_IFDIR) | 0755, 0, 0);
	c->op.op = VT_OP_EXEC;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=exec/file=%s-0755-0:0", fifo ? "fifo" : "dir");
}

/* would_dump's privileged_wrt_inode_uidgid asks for both the uid and the
 * gid: an exec-only file whose owner and group differ in whether they
 * map (70000 maps nowhere but through the shifts) */
static void make_half_mapped(int row, int inner, struct vt_mcase *c)
{
	bool uid_unmapped = row == 0;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | 0755, 0, 0);
	c->obj = vt_fx_inode(S_IFREG | 0711, uid_unmapped ? 70000 : 0, uid_unmapped ? 0 : 70000);
	c->obj.exec_probe = true;
	c->obj.nonempty = false;
	c->op.op = VT_OP_EXEC;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=exec/file=xonly-0711-%s",
		 uid_unmapped ? "70000:0" : "0:70000");
}

static void make_ovl(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay(row, c);
}

static void make_ovl_erofs(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay(ovl_erofs[row], c);
}

static const struct vt_fblock blocks[] = {
	{ NFILES * NOWNERS, make_plain, VT_FB_PLAIN },
	{ 2, make_not_reg, VT_FB_PLAIN },
	{ 2, make_half_mapped, VT_FB_PLAIN },
	{ NOVLFILES * NOWNERS, make_ovl, VT_FB_OVERLAY },
	{ NOVL_EROFS, make_ovl_erofs, VT_FB_LOWER_EROFS },
};

VT_MATRIX_FAMILY_WIDE(exec, "010", 1, blocks, VT_WIDE_CALLERS | VT_WIDE_USERNS_FEW)
