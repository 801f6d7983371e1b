/* The shared axes: seven mount idmaps and twenty-two callers every family
 * crosses, and the wide axes (one map, two callers) the families that
 * translate ids cross as well (axes.h). */
#include "matrix/axes.h"
#include "matrix/matrix.h"

#include <stdio.h>
#include <string.h>

#define ALLCAPS (~0ULL)

/* uid/gid 1000 holding exactly capability BIT (text form CAPS) */
#define ONECAP(name, ns, caps, bit) { name, ns, 1000, 1000, 0, { 0 }, caps, VT_CAPBIT(bit), false, 0, 0, 0 }

#define NOCAPS_MASK                                                                      \
	(VT_CAPBIT(5) | VT_CAPBIT(6) | VT_CAPBIT(7) | VT_CAPBIT(8) | VT_CAPBIT(9) |      \
	 VT_CAPBIT(10) | VT_CAPBIT(12) | VT_CAPBIT(13) | VT_CAPBIT(15) | VT_CAPBIT(18) |  \
	 VT_CAPBIT(19) | VT_CAPBIT(VT_CAP_SYS_ADMIN) | VT_CAPBIT(27) | VT_CAPBIT(VT_CAP_SETFCAP))

const struct vt_map_axis vt_map_axes[] = {
	{ "none", NULL, false },
	{ "shift10000", "b:0:10000:65536", false },
	{ "noroot", "b:1:1:65536", false },		/* identity without 0 */
	{ "single", "b:1000:2000:1", false },		/* one id: disk 1000 seen as 2000 */
	{ "split", "u:0:10000:65536,g:0:20000:65536", false },
	{ "swap", "b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", false },
	{ "multi", "b:0:10000:1000,b:1000:21000:1000,b:3000:3000:1000", false },
	/* wide. "sparse": seven uid extents, so the kernel keeps
	 * them sorted and looks ids up by bsearch (more than
	 * UID_GID_MAP_MAX_BASE_EXTENTS = 5: map_id_range_down_max,
	 * map_id_up_max), written unsorted, with gaps between them; the ids
	 * the fixtures and callers use sit on their edges: disk 1000 is the
	 * last id of 999:10999:2 (seen as 11000, the kuid of ns0's and ns2's
	 * uid 1000) and disk 1001 the id after it (its own extent), kuid
	 * 10000 (ns0-root, ns2-root) the first of 10000:10000:999, disk 70000
	 * the id after 69999:69999:1 (unmapped, as on every other map), disk
	 * 0 a one-id extent. The gid map differs (three extents: the linear
	 * lookup): disk gid 1000 is seen as 1001, disk gid 1001 and mount gid
	 * 1000 map to nothing, so a uid helper used for a gid (or the
	 * reverse) gives another id, or a valid id for an invalid one, on
	 * every fixture owner but root. */
	{ "sparse", "u:69999:69999:1,u:20000:2000:1,u:10000:10000:999,u:999:10999:2,"
		    "u:2000:1000:1,u:1001:1001:1,u:0:0:1,"
		    "g:0:0:1,g:1000:1001:1,g:1002:1002:68998", false },
	/* wide: a tmpfs whose superblock belongs to the
	 * user namespace nsfs (VT_NSFS_SPEC), made inside it (fsopen,
	 * fsconfig, fsmount by its root in a mount namespace it owns) and
	 * handed to the initial root; "userns" is that mount itself, plain,
	 * "userns-shift10000" an idmapped mount of it (its idmap applies to
	 * nsfs's ids: make_vfsuid(idmap, fs_userns, kuid) maps
	 * from_kuid(nsfs, kuid)). Appended last: no other case id changes. */
	{ "userns", NULL, true },
	{ "userns-shift10000", "b:0:10000:65536", true },
};
const int vt_map_axis_count = sizeof(vt_map_axes) / sizeof(vt_map_axes[0]);

const struct vt_caller_axis vt_caller_axes[] = {
	{ "root", VT_NS_INIT, 0, 0, 0, { 0 }, NULL, ALLCAPS, false, 0, 0, 0 },
	{ "root-nocaps", VT_NS_INIT, 0, 0, 0, { 0 },
	  /* named one by one: "=ep" would ask for capabilities outside the
	   * bounding set of a container and fail */
	  "cap_kill,cap_setgid,cap_setuid,cap_setpcap,cap_linux_immutable,"
	  "cap_net_bind_service,cap_net_admin,cap_net_raw,cap_ipc_owner,cap_sys_chroot,"
	  "cap_sys_ptrace,cap_sys_admin,cap_mknod,cap_setfcap=ep",
	  NOCAPS_MASK, false, 0, 0, 0 },
	{ "u1000", VT_NS_INIT, 1000, 1000, 0, { 0 }, NULL, 0, false, 0, 0, 0 },
	{ "u1000-g1001", VT_NS_INIT, 1000, 1000, 1, { 1001 }, NULL, 0, false, 0, 0, 0 },
	{ "u1001", VT_NS_INIT, 1001, 1001, 0, { 0 }, NULL, 0, false, 0, 0, 0 },
	{ "u2000", VT_NS_INIT, 2000, 2000, 0, { 0 }, NULL, 0, false, 0, 0, 0 },
	{ "u11000-g11001", VT_NS_INIT, 11000, 11000, 1, { 11001 }, NULL, 0, false, 0, 0, 0 },
	{ "ns0-root", VT_NS_CHILD, 0, 0, 0, { 0 }, NULL, ALLCAPS, false, 0, 0, 0 },
	{ "ns0-u1000-g1001", VT_NS_CHILD, 1000, 1000, 1, { 1001 }, NULL, 0, false, 0, 0, 0 },
	{ "ns1-root", VT_NS_NESTED, 0, 0, 0, { 0 }, NULL, ALLCAPS, false, 0, 0, 0 },
	/* appended (case ids name the caller, so the others keep theirs):
	 * uid/gid 1000 whose fsuid/fsgid are 1001, as after setfsuid(2) by
	 * a file server: every owner and group check uses the fs ids */
	{ "u1000-fsuid1001", VT_NS_INIT, 1000, 1000, 0, { 0 }, NULL, 0, true, 1001, 1001, 0 },
	/* appended: uid/gid 1000 holding exactly one of the capabilities
	 * the VFS consults through capable_wrt_inode_uidgid() (CAP_CHOWN,
	 * CAP_FOWNER, CAP_FSETID) or generic_permission() (CAP_DAC_OVERRIDE,
	 * CAP_DAC_READ_SEARCH), in the initial namespace (kuid 1000) and in
	 * ns0 (kuid 11000): the capability counts only where the inode's
	 * owner (and group) in the mount's view map into the caller's
	 * namespace (privileged_wrt_inode_uidgid) */
	ONECAP("u1000+cap_chown", VT_NS_INIT, "cap_chown=ep", VT_CAP_CHOWN),
	ONECAP("u1000+cap_fowner", VT_NS_INIT, "cap_fowner=ep", VT_CAP_FOWNER),
	ONECAP("u1000+cap_dac_override", VT_NS_INIT, "cap_dac_override=ep", VT_CAP_DAC_OVERRIDE),
	ONECAP("u1000+cap_dac_read_search", VT_NS_INIT, "cap_dac_read_search=ep",
	       VT_CAP_DAC_READ_SEARCH),
	ONECAP("u1000+cap_fsetid", VT_NS_INIT, "cap_fsetid=ep", VT_CAP_FSETID),
	ONECAP("ns0-u1000+cap_chown", VT_NS_CHILD, "cap_chown=ep", VT_CAP_CHOWN),
	ONECAP("ns0-u1000+cap_fowner", VT_NS_CHILD, "cap_fowner=ep", VT_CAP_FOWNER),
	ONECAP("ns0-u1000+cap_dac_override", VT_NS_CHILD, "cap_dac_override=ep",
	       VT_CAP_DAC_OVERRIDE),
	ONECAP("ns0-u1000+cap_dac_read_search", VT_NS_CHILD, "cap_dac_read_search=ep",
	       VT_CAP_DAC_READ_SEARCH),
	ONECAP("ns0-u1000+cap_fsetid", VT_NS_CHILD, "cap_fsetid=ep", VT_CAP_FSETID),
	/* uid 1000 whose bounding set lacks CAP_NET_RAW, the capability the
	 * fixtures' security.capability permits: bprm_caps_from_vfs_caps()
	 * refuses the exec (EPERM) when a file-permitted bit is lost */
	{ "u1000-bset-no-net_raw", VT_NS_INIT, 1000, 1000, 0, { 0 }, NULL, 0, false, 0, 0,
	  VT_CAPBIT(VT_CAP_NET_RAW) },
	/* wide: ns2's uid and gid maps differ (VT_NS2_SPEC), so
	 * every make_kuid/from_kuid the rules apply to the caller's ids
	 * (fsuid, fsgid, groups, chown targets, ACL and fscaps ids, stat)
	 * gives another kernel id than its gid twin would */
	{ "ns2-root", VT_NS_SPLIT, 0, 0, 0, { 0 }, NULL, ALLCAPS, false, 0, 0, 0 },
	{ "ns2-u1000-g1001", VT_NS_SPLIT, 1000, 1000, 1, { 1001 }, NULL, 0, false, 0, 0, 0 },
};
const int vt_caller_axis_count = sizeof(vt_caller_axes) / sizeof(vt_caller_axes[0]);

struct vt_mns vt_model_ns0, vt_model_ns1, vt_model_ns2, vt_model_nsfs;
struct vt_midmap vt_model_maps[sizeof(vt_map_axes) / sizeof(vt_map_axes[0])];
struct vt_midmap vt_model_ovl_upper_other;

int vt_axes_init(char *err, size_t errlen)
{
	int i;

	vt_model_ns0.name = "ns0";
	vt_model_ns0.parent = &vt_init_ns;
	vt_model_ns0.owner = vt_kuid(0);	/* made by the initial root */
	if (vt_mapping_parse(VT_NS0_SPEC, &vt_model_ns0.map, err, errlen) < 0)
		return -1;
	vt_model_ns1.name = "ns1";
	vt_model_ns1.parent = &vt_model_ns0;
	vt_model_ns1.owner = vt_kuid(10000);	/* made by ns0's root (kuid 10000) */
	if (vt_mapping_parse(VT_NS1_SPEC, &vt_model_ns1.map, err, errlen) < 0)
		return -1;
	vt_model_ns2.name = "ns2";
	vt_model_ns2.parent = &vt_init_ns;
	vt_model_ns2.owner = vt_kuid(0);
	if (vt_mapping_parse(VT_NS2_SPEC, &vt_model_ns2.map, err, errlen) < 0)
		return -1;
	vt_model_nsfs.name = "nsfs";
	vt_model_nsfs.parent = &vt_init_ns;
	vt_model_nsfs.owner = vt_kuid(0);	/* made by the initial root */
	if (vt_mapping_parse(VT_NSFS_SPEC, &vt_model_nsfs.map, err, errlen) < 0)
		return -1;
	for (i = 0; i < vt_map_axis_count; i++) {
		vt_model_maps[i].name = vt_map_axes[i].name;
		vt_model_maps[i].nop = vt_map_axes[i].spec == NULL;
		if (vt_map_axes[i].spec &&
		    vt_mapping_parse(vt_map_axes[i].spec, &vt_model_maps[i].map, err, errlen) < 0)
			return -1;
	}
	vt_model_ovl_upper_other.name = VT_OVL_UPPER_OTHER_NAME;
	if (vt_mapping_parse(VT_OVL_UPPER_OTHER_SPEC, &vt_model_ovl_upper_other.map, err, errlen) < 0)
		return -1;
	return 0;
}

/* The callers VT_WIDE_USERNS_FEW crosses with the userns maps: exec's,
 * where mnt_may_suid() fails for every caller there (none is in nsfs),
 * so one of each kind of outcome suffices: nsfs's owner, who is not in it
 * (handle_privileged_root still applies), a user whose setuid-root exec
 * and file caps are ignored, ns0's root and user, and the caller whose
 * bounding set lacks the file's capability (an EPERM elsewhere, a
 * success there: the caps are never read). */
static bool userns_few(int caller)
{
	static const char *const names[] = { "root", "u1000", "ns0-root", "ns0-u1000-g1001",
					     "u1000-bset-no-net_raw" };
	size_t k;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (strcmp(vt_caller_axes[caller].name, names[k]) == 0)
			return true;
	return false;
}

/* Does a wide family cross MAP and CALLER? The base axes all; the sparse
 * map with every base caller; ns2's callers on the plain mount, the
 * shifted one, the split one (its maps are ns2's: the container whose
 * root owns the disk's 0) and the sparse one. VT_WIDE_USERNS alone: the
 * userns maps with every base caller, no other wide map;
 * VT_WIDE_USERNS_FEW: with the few base callers of userns_few() only. */
static bool crosses(unsigned int wide, int map, int caller)
{
	const char *mn = vt_map_axes[map].name;
	bool userns = vt_map_axes[map].sb_userns;

	if (map >= VT_MAP_AXES_BASE && !(wide & VT_WIDE_MAPS) &&
	    !(userns && (wide & (VT_WIDE_USERNS | VT_WIDE_USERNS_FEW))))
		return false;
	if (userns && !(wide & (VT_WIDE_MAPS | VT_WIDE_USERNS)))
		return caller < VT_CALLER_AXES_BASE && userns_few(caller);
	if (caller < VT_CALLER_AXES_BASE)
		return true;
	if (!(wide & VT_WIDE_CALLERS))
		return false;
	return strcmp(mn, "none") == 0 || strcmp(mn, "shift10000") == 0 ||
	       strcmp(mn, "split") == 0 || strcmp(mn, "sparse") == 0;
}

#define NPAIRS_MAX (sizeof(vt_map_axes) / sizeof(vt_map_axes[0]) * \
		    (sizeof(vt_caller_axes) / sizeof(vt_caller_axes[0])))

/* the pairs of each value of wide_axes, map-major */
static struct {
	int n;
	short map[NPAIRS_MAX], caller[NPAIRS_MAX];
} pairs[16];

static void pairs_init(void)
{
	int k, m, c;

	if (pairs[0].n)
		return;
	for (k = 0; k < 16; k++)
		for (m = 0; m < vt_map_axis_count; m++)
			for (c = 0; c < vt_caller_axis_count; c++)
				if (crosses((unsigned int)k, m, c)) {
					pairs[k].map[pairs[k].n] = (short)m;
					pairs[k].caller[pairs[k].n++] = (short)c;
				}
}

int vt_family_npairs(const struct vt_family *f)
{
	pairs_init();
	return pairs[f->wide_axes & 15].n;
}

int vt_family_ncases(const struct vt_family *f)
{
	return vt_family_npairs(f) * vt_family_local_count(f);
}

void vt_family_pair(const struct vt_family *f, int pair, int *map, int *caller)
{
	pairs_init();
	*map = pairs[f->wide_axes & 15].map[pair];
	*caller = pairs[f->wide_axes & 15].caller[pair];
}

int vt_family_pair_index(const struct vt_family *f, int map, int caller)
{
	int k;

	pairs_init();
	for (k = 0; k < pairs[f->wide_axes & 15].n; k++)
		if (pairs[f->wide_axes & 15].map[k] == map && pairs[f->wide_axes & 15].caller[k] == caller)
			return k;
	return -1;
}
