/* The axes shared by every family: mount idmaps and callers, each with its
 * real-world form (mapping spec, vt_caller) and its model form. */
#ifndef VT_MATRIX_AXES_H
#define VT_MATRIX_AXES_H

#include "model/world_model.h"
#include "world/caller.h"

struct vt_map_axis {
	const char *name;
	const char *spec;	/* NULL: the plain mount */
	/* the mount is of a second tmpfs whose superblock belongs to the user
	 * namespace VT_NSFS_SPEC (s_user_ns: the model's fs_ns), made from
	 * inside it; only filesystems the table marks VT_FSF_USERNS_MOUNT
	 * have it, elsewhere its cases are notrun */
	bool sb_userns;
};

enum vt_caller_ns { VT_NS_INIT, VT_NS_CHILD, VT_NS_NESTED, VT_NS_SPLIT, VT_NS__COUNT };

struct vt_caller_axis {
	const char *name;
	enum vt_caller_ns ns;
	uint32_t uid, gid;
	int ngroups;
	uint32_t groups[4];
	const char *caps;	/* cap_from_text; NULL: all for uid 0, none otherwise */
	uint64_t capmask;	/* the same set, for the model */
	bool fsids;		/* fsuid/fsgid differ from uid/gid (setfsuid) */
	uint32_t fsuid, fsgid;
	uint64_t bset_drop;	/* dropped from the bounding set (PR_CAPBSET_DROP) */
};

extern const struct vt_map_axis vt_map_axes[];
extern const int vt_map_axis_count;
extern const struct vt_caller_axis vt_caller_axes[];
extern const int vt_caller_axis_count;

/* The callers' user namespaces: ns0 is a child of the initial namespace,
 * ns1 a child of ns0. */
#define VT_NS0_SPEC "b:0:10000:65536"
#define VT_NS1_SPEC "b:0:1000:1000"
/* ns2, a child of the initial namespace whose uid and gid maps differ
 * (a uid helper used for a gid, or the reverse, gives another
 * kernel id only in such a namespace) */
#define VT_NS2_SPEC "u:0:10000:65536,g:0:20000:65536"

/* nsfs, the s_user_ns of the userns maps' filesystem (a child of the
 * initial namespace, made by its root). Its uid and gid maps both hold
 * the kernel ids the fixtures are owned by (0, 1000, 1001, 70000) and
 * ns0-root's (10000), and none of 20000 and above (ns2's gids); they
 * differ on the others: kuid 11000 (ns0's and ns1's users, u11000) is
 * mapped, kgid 11000 and 11001 are not; kgid 2000 (u2000) is, kuid 2000
 * is not. So each half of fsuidgid_has_mapping() refuses some caller on
 * its own. Not as themselves: kuid 1000 is nsfs's 1, 70000 its 5 (inside
 * the idmap b:0:10000:65536, which 70000 is not), 1001 its 100000
 * (outside it, which 1001 is not), 10000 its 3000, 11000 its 1000 (so
 * that through userns-shift10000 ns0's uid 1000 is kuid 11000 again, and
 * the inode 1000 is seen as 10001, not as 11000). So every translation
 * that takes s_user_ns for the initial namespace (make_vfsuid:
 * from_kuid(fs_userns, kuid) before the idmap; from_vfsuid:
 * make_kuid(fs_userns, ...) after it) gives another id, or a valid id
 * for an invalid one, through userns-shift10000; and nsfs's own checks
 * (fsuidgid_has_mapping, posix_acl_valid, cap_convert_nscap) refuse the
 * ids it lacks on the plain mount too (notify_change only through the
 * idmapped one: on &nop_mnt_idmap from_vfsuid() never asks s_user_ns,
 * so a chown there to an id nsfs lacks is not EOVERFLOW). Six
 * extents a map: more than UID_GID_MAP_MAX_BASE_EXTENTS, the kernel's
 * sorted lookup. */
#define VT_NSFS_SPEC "u:0:0:1,u:1:1000:1,u:5:70000:1,u:1000:11000:1,u:3000:10000:1," \
		     "u:100000:1001:1,g:0:0:1,g:1:1000:1,g:5:70000:1,g:2000:2000:1," \
		     "g:3000:10000:1,g:100000:1001:1"

/* The overlay world's other upper map (matrix.h VT_OVL_UPPER_OTHER,
 * "overlay/upper=rotate/"): the lower layer has the case's map,
 * the upper layer and workdir this one. Mount id 0 is disk 0 (uid and
 * gid), so the mounter, the initial root, maps through it and the overlay
 * is writable (ovl_workdir_create); disk 1000:1000 (the upper root's
 * owner, whose impure xattr the mounter sets: may_write_xattr) is mapped.
 * Otherwise it translates the fixtures' owners and the callers' ids unlike
 * every map of the axis: the uids rotate (disk 1000 is seen as 1001, 1001
 * as 2000, 2000 as 1000), disk 70000, which no map of the axis maps, is
 * seen as 11000 (ns0's uid 1000; u11000-g11001), and the gid map differs
 * from the uid map (disk gid 1000 is itself, 1001 is 11001): a lower file
 * of 1000:1000 copied up by way of "none" is 2000:1000 on the upper disk, a
 * file ns0's user creates is 70000:70000 there, and one u2000 or ns0's root
 * creates has no upper id (EOVERFLOW). */
#define VT_OVL_UPPER_OTHER_NAME "rotate"
#define VT_OVL_UPPER_OTHER_SPEC "u:0:0:1,u:1000:1001:1,u:1001:2000:1,u:2000:1000:1," \
				"u:70000:11000:1,g:0:0:1,g:1000:1000:1,g:1001:11001:1," \
				"g:70000:11000:1"
extern struct vt_midmap vt_model_ovl_upper_other;

/* Is MAP one of the maps of the filesystem in nsfs? */
static inline bool vt_map_sb_userns(int map) { return vt_map_axes[map].sb_userns; }

/* Model forms (filled once by vt_axes_init). */
extern struct vt_mns vt_model_ns0, vt_model_ns1, vt_model_ns2, vt_model_nsfs;
extern struct vt_midmap vt_model_maps[];
int vt_axes_init(char *err, size_t errlen);

/* The axes every family crosses: the first VT_MAP_AXES_BASE maps and the
 * first VT_CALLER_AXES_BASE callers. The ones after them (uid and gid maps
 * that differ, a map of more than five extents, callers in ns2) are
 * crossed only by the families whose struct vt_family sets wide_axes,
 * the ones whose rules translate ids (create, chown, setattr, permission,
 * acl, fscaps; exec, the costliest per case, only ns2's callers), which
 * keeps the whole matrix's time in bounds. The other families (chmod,
 * delete, xattr, protected, fileops) cross the userns maps alone
 * (VT_WIDE_USERNS), exec with five base callers (VT_WIDE_USERNS_FEW):
 * each reads s_user_ns somewhere (i_user_ns in the owner and group
 * translations, fsuidgid_has_mapping, mnt_may_suid). */
#define VT_MAP_AXES_BASE 7
#define VT_CALLER_AXES_BASE 22
struct vt_family;
/* The (map, caller) pairs F crosses; its case IDX is in pair
 * IDX / local_count. */
int vt_family_npairs(const struct vt_family *f);
int vt_family_ncases(const struct vt_family *f);
void vt_family_pair(const struct vt_family *f, int pair, int *map, int *caller);
/* The pair of F for MAP and CALLER, -1 if F does not cross them. */
int vt_family_pair_index(const struct vt_family *f, int map, int caller);

#endif
