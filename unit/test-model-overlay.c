/* The overlay model (lib/model/overlay_model.c) on hand-worked cases: each
 * expectation is worked out here from the 6.12 source it names, not taken
 * from the model or a kernel. Layers: lower LOWER (disk 0-9999 shown as
 * 10000-19999, 30000 as itself), upper UPPER (0 as 0, disk 20000-29999 as
 * 10000-19999); the mounter is root without supplementary groups. */
#include "unit.h"
#include "model/overlay_model.h"
#include "util/errname.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define LOWER "b:0:10000:10000,b:30000:30000:1"
#define UPPER "b:0:0:1,b:20000:10000:10000"

static struct vt_midmap lower, upper;

static struct vt_mcred cred(uint32_t uid, uint32_t gid, int group, bool root)
{
	struct vt_mcred c;

	memset(&c, 0, sizeof(c));
	c.ns = &vt_init_ns;
	c.uid = c.fsuid = vt_cuid(uid);
	c.gid = c.fsgid = vt_cgid(gid);
	if (group >= 0) {
		c.ngroups = 1;
		c.groups[0] = vt_cgid((uint32_t)group);
	}
	c.caps = root ? ~0ULL : 0;
	return c;
}

static void world(struct vt_ovl_world *w, struct vt_mcred caller, mode_t mode, uint32_t uid,
		  uint32_t gid)
{
	memset(w, 0, sizeof(*w));
	w->lower_idmap = &lower;
	w->upper_idmap = &upper;
	w->caller = caller;
	w->mounter = cred(0, 0, -1, true);
	w->upper_root = vt_minode_make(S_IFDIR | 0777, 0, 0);
	w->lower_obj = vt_minode_make(S_IFREG | mode, uid, gid);
	w->overflowuid = w->overflowgid = 65534;
}

static void expect(const struct vt_ovl_expect *e, int want, const char *rule_has,
		   const char *what)
{
	char name[400];

	snprintf(name, sizeof(name), "%s: %s (got %s: %s)", what,
		 want ? vt_errname(want) : "success", e->err ? vt_errname(e->err) : "success",
		 e->rule ? e->rule : "");
	unit_check(e->err == want && (!rule_has || (e->rule && strstr(e->rule, rule_has))), name);
}

int main(void)
{
	struct vt_ovl_world w;
	struct vt_ovl_expect e;
	struct vt_minode o, real;
	char err[200];

	vt_mapping_parse(LOWER, &lower.map, err, sizeof(err));
	vt_mapping_parse(UPPER, &upper.map, err, sizeof(err));
	unit_begin(25);
	lower.name = "lower";
	upper.name = "upper";

	/* ovl_copyattr: the owner through the layer's idmap */
	real = vt_minode_make(S_IFREG | 0644, 1000, 3000);
	o = vt_ovl_inode(&lower, &real);
	unit_check(o.uid.val == 11000 && o.gid.val == 13000,
		   "ovl_copyattr: disk 1000:3000 through LOWER is 11000:13000");
	real = vt_minode_make(S_IFREG | 0644, 50000, 50000);
	o = vt_ovl_inode(&lower, &real);
	unit_check(!vt_kuid_valid(o.uid), "ovl_copyattr: disk 50000 through LOWER is INVALID_UID");

	/* stat: generic_fillattr through the layer, from_kuid_munged */
	world(&w, cred(12000, 12000, -1, false), 0644, 50000, 50000);
	vt_ovl_model(&w, VT_OVL_STAT, vt_cuid(0), vt_cgid(0), &e);
	unit_check(e.err == 0 && e.seen_uid.val == 65534 && e.seen_gid.val == 65534,
		   "stat of an owner LOWER does not map: overflowuid");

	/* the two checks of ovl_permission: a group member passes on the
	 * overlay inode (gid 1000 -> 11000, mode 0040), the root mounter is
	 * refused on the real one (not owner, not in the group, other ---, and
	 * CAP_DAC_READ_SEARCH does not reach an inode whose uid the layer does
	 * not map: capable_wrt_inode_uidgid) */
	world(&w, cred(12000, 12000, 11000, false), 0040, 50000, 1000);
	vt_ovl_model(&w, VT_OVL_OPEN_READ, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EACCES, "mounter", "read 50000:1000 0040 as a member of 11000");
	/* root as the caller is refused already on the overlay inode */
	world(&w, cred(0, 0, -1, true), 0040, 50000, 1000);
	vt_ovl_model(&w, VT_OVL_OPEN_READ, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EACCES, "caller", "read 50000:1000 0040 as root");
	/* root reads 0:0 0640 (10000 through LOWER, mapped): DAC override */
	world(&w, cred(0, 0, -1, true), 0640, 0, 0);
	vt_ovl_model(&w, VT_OVL_OPEN_READ, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "read 0:0 0640 as root");

	/* writes: copy-up by the mounter, owner through the upper idmap */
	world(&w, cred(11000, 11000, -1, false), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "write 1000:1000 0644 as 11000 (its owner through LOWER)");
	unit_check(e.upper && e.upper_uid.val == 21000 && e.upper_gid.val == 21000 &&
			   e.seen_uid.val == 11000,
		   "copy-up: 11000 stored through UPPER as 21000, seen as 11000");
	world(&w, cred(12000, 12000, -1, false), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EACCES, "caller", "write 1000:1000 0644 as 12000 (other r--)");
	world(&w, cred(12000, 12000, -1, false), 0666, 50000, 50000);
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EACCES, NULL, "write 50000 0666: HAS_UNMAPPED_ID on the overlay inode");
	world(&w, cred(12000, 12000, -1, false), 0666, 30000, 30000);
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EOVERFLOW, "ovl_set_attr",
	       "write 30000 0666: 30000 cannot be written through UPPER");
	unit_check(!e.upper, "a refused ovl_set_attr leaves no upper copy (workdir only)");
	/* a read-only lower: the mounter is asked for MAY_READ, no EROFS */
	world(&w, cred(11000, 11000, -1, false), 0644, 1000, 1000);
	w.lower_rdonly = true;
	vt_ovl_model(&w, VT_OVL_OPEN_WRITE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "write through the overlay to a file of a read-only lower");

	/* create: the caller's fsuid through the upper idmap */
	world(&w, cred(1000, 1000, -1, false), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_CREATE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EOVERFLOW, "fsuidgid_has_mapping", "create as 1000: UPPER does not map it");
	world(&w, cred(12000, 12000, -1, false), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_CREATE, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "create as 12000");
	unit_check(e.upper_uid.val == 22000 && e.upper_gid.val == 22000,
		   "created as 12000: stored through UPPER as 22000");

	/* chown: copy-up, then the mounter's notify_change through UPPER */
	world(&w, cred(0, 0, -1, true), 0644, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_CHOWN, vt_cuid(1000), vt_cgid(1000), &e);
	expect(&e, EOVERFLOW, NULL, "root chowns to 1000: UPPER cannot write it");
	unit_check(e.upper && e.upper_uid.val == 21000,
		   "the copy-up before the refused chown stays (21000)");
	vt_ovl_model(&w, VT_OVL_CHOWN, vt_cuid(12000), vt_cgid(13000), &e);
	expect(&e, 0, NULL, "root chowns to 12000:13000");
	unit_check(e.upper_uid.val == 22000 && e.upper_gid.val == 23000 && e.seen_uid.val == 12000,
		   "chowned: stored as 22000:23000, seen as 12000");
	world(&w, cred(12000, 12000, -1, false), 0666, 1000, 1000);
	vt_ovl_model(&w, VT_OVL_CHOWN, vt_cuid(12000), vt_cgid(12000), &e);
	expect(&e, EPERM, NULL, "12000 chowns 11000's file: chown_ok");

	/* unlink in a sticky root: may_delete on the overlay inodes */
	world(&w, cred(1000, 1000, -1, false), 0644, 1000, 1000);
	w.upper_root.mode = S_IFDIR | 01777;
	vt_ovl_model(&w, VT_OVL_UNLINK, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EPERM, NULL, "1000 unlinks its on-disk file, seen as 11000's: check_sticky");
	w.caller = cred(11000, 11000, -1, false);
	vt_ovl_model(&w, VT_OVL_UNLINK, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, 0, NULL, "11000 unlinks it");
	unit_check(e.whiteout && e.upper_uid.val == 0 && e.upper_gid.val == 0,
		   "the whiteout is the mounter's: 0 through UPPER is disk 0");
	world(&w, cred(0, 0, -1, true), 0644, 50000, 50000);
	vt_ovl_model(&w, VT_OVL_UNLINK, vt_cuid(0), vt_cgid(0), &e);
	expect(&e, EOVERFLOW, NULL, "root unlinks 50000's: may_delete, !vfsuid_valid");
	return unit_end();
}
