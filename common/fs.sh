# The filesystem of one run: is it in the kernel, are its tools there, make
# its image (or take the configured TEST_DEV), and can it be idmapped here.
# Sets VT_FS_SOURCE, VT_FS_MNT, and VT_FS_NOTRUN (a reason) or VT_FS_ERROR.

VT_EXEC="$VT_TOP/runner/vfsidmap-exec"

vt_mkfs_package() {
	case "$1" in
	ext4) echo e2fsprogs ;; xfs) echo xfsprogs ;; btrfs) echo btrfs-progs ;; vfat) echo dosfstools ;;
	esac
}

vt_prepare_fs() { # run index
	local i=$1 fs=${VT_S_FS[$1]} out rc
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
	if [ "$fs" != tmpfs ]; then
		if [ -n "${VT_S_DEV[$i]}" ]; then
			VT_FS_SOURCE=${VT_S_DEV[$i]}
		else
			if ! command -v "mkfs.$fs" >/dev/null 2>&1 && [ ! -x "/sbin/mkfs.$fs" ] && [ ! -x "/usr/sbin/mkfs.$fs" ]; then
				VT_FS_NOTRUN="mkfs.$fs is not installed (Debian package $(vt_mkfs_package "$fs"))"
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
