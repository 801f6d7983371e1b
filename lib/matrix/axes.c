/* The shared axes: seven mount idmaps and twenty-two callers. */
#include "matrix/axes.h"

#include <stdio.h>

#define ALLCAPS (~0ULL)

/* uid/gid 1000 holding exactly capability BIT (text form CAPS) */
#define ONECAP(name, ns, caps, bit) { name, ns, 1000, 1000, 0, { 0 }, caps, VT_CAPBIT(bit), false, 0, 0, 0 }

#define NOCAPS_MASK                                                                      \
	(VT_CAPBIT(5) | VT_CAPBIT(6) | VT_CAPBIT(7) | VT_CAPBIT(8) | VT_CAPBIT(9) |      \
	 VT_CAPBIT(10) | VT_CAPBIT(12) | VT_CAPBIT(13) | VT_CAPBIT(15) | VT_CAPBIT(18) |  \
	 VT_CAPBIT(19) | VT_CAPBIT(VT_CAP_SYS_ADMIN) | VT_CAPBIT(27) | VT_CAPBIT(VT_CAP_SETFCAP))

const struct vt_map_axis vt_map_axes[] = {
	{ "none", NULL },
	{ "shift10000", "b:0:10000:65536" },
	{ "noroot", "b:1:1:65536" },		/* identity without 0 */
	{ "single", "b:1000:2000:1" },		/* one id: disk 1000 seen as 2000 */
	{ "split", "u:0:10000:65536,g:0:20000:65536" },
	{ "swap", "b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534" },
	{ "multi", "b:0:10000:1000,b:1000:21000:1000,b:3000:3000:1000" },
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
};
const int vt_caller_axis_count = sizeof(vt_caller_axes) / sizeof(vt_caller_axes[0]);

struct vt_mns vt_model_ns0, vt_model_ns1;
struct vt_midmap vt_model_maps[sizeof(vt_map_axes) / sizeof(vt_map_axes[0])];

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
	for (i = 0; i < vt_map_axis_count; i++) {
		vt_model_maps[i].name = vt_map_axes[i].name;
		vt_model_maps[i].nop = vt_map_axes[i].spec == NULL;
		if (vt_map_axes[i].spec &&
		    vt_mapping_parse(vt_map_axes[i].spec, &vt_model_maps[i].map, err, errlen) < 0)
			return -1;
	}
	return 0;
}
