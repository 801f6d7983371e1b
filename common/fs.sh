# The filesystem of one run: is it in the kernel, are its tools there, make
# its image (or take the configured TEST_DEV), and can it be idmapped here.
# Sets VT_FS_SOURCE, VT_FS_MNT, and VT_FS_NOTRUN (a reason) or VT_FS_ERROR.

VT_EXEC="$VT_TOP/runner/vfsidmap-exec"

# One field of FS's row in the filesystem table (lib/fs/fs_table.c); from
# VT_FS_TABLE once vt_fs_table_load has read it.
vt_fs_field() { # fs field
	local rows row
	if [ -n "${VT_FS_TABLE["$1 $2"]+set}" ]; then
		printf '%s\n' "${VT_FS_TABLE["$1 $2"]}"
		return
	fi
	# one process, no awk (forks are dear in a TCG guest): rows "fs<TAB>value"
	rows=$(exec "$VT_TOOL" fs-table "$2") || return
	while [ -n "$rows" ]; do
		row=${rows%%$'\n'*}
		[ "${row%%$'\t'*}" = "$1" ] && printf '%s\n' "${row#*$'\t'}"
		[ "$rows" = "$row" ] && break
		rows=${rows#*$'\n'}
	done
}

# The whole table in one process, once a run: VT_FS_TABLE["fs field"] is
# the field as `vfsidmap-tool fs-table` prints it ("-" for empty). Call it
# in the shell that keeps the table, not in $(...).
declare -A VT_FS_TABLE=()
vt_fs_table_load() {
	local out row fs k
	local -a fields
	[ ${#VT_FS_TABLE[@]} -eq 0 ] || return 0
	out=$(exec "$VT_TOOL" fs-table) || return
	# header "name<TAB>field...", then a row per filesystem
	IFS=$'\t' read -ra fields <<<"${out%%$'\n'*}"
	out=${out#*$'\n'}
	while IFS= read -r row; do
		fs=${row%%$'\t'*}
		for ((k = 1; k < ${#fields[@]}; k++)); do
			row=${row#*$'\t'}
			VT_FS_TABLE["$fs ${fields[k]}"]=${row%%$'\t'*}
		done
	done <<<"$out"
}

vt_mkfs_package() {
	vt_fs_field "$1" package
}

vt_prepare_fs() { # run index
	local i=$1 fs=${VT_S_FS[$1]} out rc make
	VT_FS_SOURCE="" VT_FS_BIND="" VT_FS_NOTRUN="" VT_FS_ERROR=""
	VT_FS_MNT=${VT_S_DIR[$i]:-$VT_RUNDIR/mnt}
	if [ "$EUID" != 0 ]; then
		VT_FS_NOTRUN="needs root (mounts, loop devices and user namespaces)"
		return
	fi
	if [ -n "${VT_S_EXISTING[$i]:-}" ]; then
		vt_prepare_existing "$i"
		return
	fi
	if ! "$VT_TOOL" fs-in-kernel "$fs"; then
		VT_FS_NOTRUN="kernel $(uname -r) has no $fs filesystem (not in /proc/filesystems, modprobe $fs failed)"
		return
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
			VT_FS_SOURCE="${VT_RUNDIR:?}/${VT_S_NAME[$i]}.img"
			vt_rm "$VT_FS_SOURCE"
			if ! out=$(PATH="$PATH:/sbin:/usr/sbin" "$VT_TOOL" mkimage "$fs" "$VT_FS_SOURCE" "${VT_S_MKFS[$i]}" 2>&1); then
				VT_FS_ERROR="making the $fs image failed: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
				return
			fi
		fi
	fi
	# Mount it in a throw-away namespace and try an idmapped mount of it.
	out=$("$VT_EXEC" --fstype "$fs" --source "$VT_FS_SOURCE" --mnt "$VT_FS_MNT" \
		--mount-options "${VT_S_MOPTS[$i]}" --timeout 60 --status "${VT_WORKDIR:-${VT_RUNDIR:?}}/probe.status" \
		-- "$VT_TOOL" probe-idmap 2>&1 5<&- 8>&- 9>&-)
	rc=$?
	case $rc in
	0) ;;
	4) VT_FS_NOTRUN=$(echo "$out" | head -n 1) ;;
	*) VT_FS_ERROR="$(cat "${VT_WORKDIR:-${VT_RUNDIR:?}}/probe.status" 2>/dev/null) $out" ;;
	esac
}

# How the executor gets the filesystem of run I: its source and mount
# options, or the scratch directory of an existing mount to bind.
vt_exec_fs_args() { # run index -> VT_EXEC_FS (array)
	if [ -n "$VT_FS_BIND" ]; then
		VT_EXEC_FS=(--fstype "${VT_S_FS[$1]}" --bind "$VT_FS_BIND" --mnt "$VT_FS_MNT")
	else
		VT_EXEC_FS=(--fstype "${VT_S_FS[$1]}" --source "$VT_FS_SOURCE" --mnt "$VT_FS_MNT"
			--mount-options "${VT_S_MOPTS[$1]}")
	fi
}

# An existing mount (TEST_DIR_MOUNTED=yes): the tests get
# TEST_DIR/vfsidmap.PID.XXXXXX/root, bind-mounted in their namespace; the
# directory holds the marker vfsidmap-scratch, and the run directory lists
# it (scratch-dirs), so it is removed at the end of the run, or by the next
# run if this one dies. Nothing else of TEST_DIR is touched.
VT_SCRATCH_MARKER=vfsidmap-scratch
declare -A VT_S_SCRATCH=()
vt_prepare_existing() { # run index
	local i=$1 fs=${VT_S_FS[$1]} d out rc owner
	VT_FS_MNT=$VT_RUNDIR/mnt
	d=${VT_S_SCRATCH[$i]:-}
	if [ -z "$d" ] || [ ! -d "$d/root" ]; then
		if ! d=$(mktemp -d "${VT_S_DIR[$i]}/vfsidmap.$$.XXXXXX" 2>&1); then
			VT_FS_ERROR="cannot make a scratch directory in ${VT_S_DIR[$i]}: $d"
			return
		fi
		echo "$d" >>"${VT_RUNDIR:?}/scratch-dirs"
		VT_S_SCRATCH[$i]=$d
		if ! { vt_run_marker_text >"$d/$VT_SCRATCH_MARKER" && mkdir "$d/root" &&
			chmod 0755 "$d" "$d/root"; } 2>/dev/null; then
			VT_FS_ERROR="cannot write into the scratch directory $d of ${VT_S_DIR[$i]}"
			return
		fi
	fi
	VT_FS_BIND=$d/root
	out=$("$VT_EXEC" --fstype "$fs" --bind "$VT_FS_BIND" --mnt "$VT_FS_MNT" --timeout 60 \
		--status "${VT_WORKDIR:-${VT_RUNDIR:?}}/probe.status" -- "$VT_TOOL" probe-idmap 2>&1 5<&- 8>&- 9>&-)
	rc=$?
	case $rc in
	0) ;;
	4) VT_FS_NOTRUN="${VT_S_DIR[$i]} ($fs, mounted by the user): $(echo "$out" | head -n 1)"; return ;;
	*) VT_FS_ERROR="$(cat "${VT_WORKDIR:-${VT_RUNDIR:?}}/probe.status" 2>/dev/null) $out"; return ;;
	esac
	# What the kernel must do depends on what the filesystem stores: the
	# model knows that from the filesystem table only.
	owner=$(vt_fs_field "$fs" owner)
	if [ -z "$owner" ]; then
		VT_FS_NOTRUN="${VT_S_DIR[$i]} is $fs, which the filesystem table (lib/fs/fs_table.c) has no row for: the suite cannot tell what the kernel must do on it"
	elif [ "$owner" = image ]; then
		VT_FS_NOTRUN="${VT_S_DIR[$i]} is $fs, a read-only image: the suite tests images it makes from a tree of its own (lib/world/ro_image.c): use --fs $fs"
	elif [ "$owner" != inode ]; then
		VT_FS_NOTRUN="${VT_S_DIR[$i]} is $fs, whose owners come from its mount options ($owner); the suite builds such worlds by mounting images of its own: use --fs $fs"
	fi
}

# Removes the scratch directories listed in run directory DIR's
# scratch-dirs that carry the marker of the run that made them.
vt_remove_scratch_dirs() { # run dir
	local d
	[ -f "$1/scratch-dirs" ] || return 0
	while IFS= read -r d; do
		case "$d" in /*/vfsidmap.[0-9]*.??????) ;; *) continue ;; esac
		[ -f "$d/$VT_SCRATCH_MARKER" ] && [ ! -L "$d/$VT_SCRATCH_MARKER" ] && [ ! -L "$d" ] || continue
		cmp -s "$d/$VT_SCRATCH_MARKER" "$1/$VT_RUN_MARKER" || continue
		vt_rm -r "$d"
	done <"$1/scratch-dirs"
}
