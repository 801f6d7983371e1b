# The filesystem of one run: is it in the kernel, are its tools there, make
# its image (or take the configured TEST_DEV), and can it be idmapped here.
# Sets VT_FS_SOURCE, VT_FS_MNT, and VT_FS_NOTRUN (a reason) or VT_FS_ERROR.

VT_EXEC="$VT_TOP/runner/vfsidmap-exec"

# One field of FS's row in the filesystem table (lib/fs/fs_table.c).
vt_fs_field() { # fs field
	"$VT_TOOL" fs-table "$2" | awk -F '\t' -v fs="$1" '$1 == fs { print $2 }'
}

vt_mkfs_package() {
	vt_fs_field "$1" package
}

vt_prepare_fs() { # run index
	local i=$1 fs=${VT_S_FS[$1]} out rc make
	VT_FS_SOURCE="" VT_FS_NOTRUN="" VT_FS_ERROR=""
	VT_FS_MNT=${VT_S_DIR[$i]:-$VT_RUNDIR/mnt}
	if [ "$(id -u)" != 0 ]; then
		VT_FS_NOTRUN="needs root (mounts, loop devices and user namespaces)"
		return
	fi
	if ! "$VT_TOOL" fs-in-kernel "$fs"; then
		VT_FS_NOTRUN="kernel $(uname -r) has no $fs filesystem (not in /proc/filesystems, modprobe $fs failed)"
		return
	fi
	if [ "$fs" = hugetlbfs ] && [ "$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)" = 0 ]; then
		# a hugetlbfs file's pages are huge pages; a machine with none
		# reserved gets some only where it is throw-away (VT_ALLOW_SYSCTL=1,
		# as the guest of run/vm), and keeps them
		if [ "${VT_ALLOW_SYSCTL:-0}" != 1 ] || ! echo 8 >/proc/sys/vm/nr_hugepages 2>/dev/null ||
			[ "$(cat /proc/sys/vm/nr_hugepages)" = 0 ]; then
			VT_FS_NOTRUN="hugetlbfs: no huge pages (vm.nr_hugepages is 0; the suite reserves some only where VT_ALLOW_SYSCTL=1)"
			return
		fi
	fi
	make=$(vt_fs_field "$fs" make)
	if [ "$make" = image ] && [ -n "${VT_S_DEV[$i]}" ]; then
		# a read-only image is made from the suite's staged tree
		# (lib/world/ro_image.c) into a file of its own
		VT_FS_NOTRUN="$fs is a read-only image the suite makes from its own tree; TEST_DEV (${VT_S_DEV[$i]}) is not used for it"
		return
	fi
	if [ "$make" = mkfs ] || [ "$make" = image ]; then
		if [ -n "${VT_S_DEV[$i]}" ]; then
			VT_FS_SOURCE=${VT_S_DEV[$i]}
		else
			local mkfs
			mkfs=$(vt_fs_field "$fs" mkfs)
			if ! command -v "$mkfs" >/dev/null 2>&1 && [ ! -x "/sbin/$mkfs" ] && [ ! -x "/usr/sbin/$mkfs" ]; then
				VT_FS_NOTRUN="$mkfs is not installed (Debian package $(vt_mkfs_package "$fs"))"
				return
			fi
			VT_FS_SOURCE="$VT_RUNDIR/${VT_S_NAME[$i]}.img"
			rm -f "$VT_FS_SOURCE"
			if ! out=$(PATH="$PATH:/sbin:/usr/sbin" "$VT_TOOL" mkimage "$fs" "$VT_FS_SOURCE" "${VT_S_MKFS[$i]}" 2>&1); then
				VT_FS_ERROR="making the $fs image failed: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
				return
			fi
		fi
	fi
	# Mount it in a throw-away namespace and try an idmapped mount of it.
	out=$("$VT_EXEC" --fstype "$fs" --source "$VT_FS_SOURCE" --mnt "$VT_FS_MNT" \
		--mount-options "${VT_S_MOPTS[$i]}" --timeout 60 --status "$VT_RUNDIR/probe.status" \
		-- "$VT_TOOL" probe-idmap 2>&1 8>&- 9>&-)
	rc=$?
	case $rc in
	0) ;;
	4) VT_FS_NOTRUN=$(echo "$out" | head -n 1) ;;
	*) VT_FS_ERROR="$(cat "$VT_RUNDIR/probe.status" 2>/dev/null) $out" ;;
	esac
}
