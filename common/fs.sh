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

# MKFS_OPTIONS and MOUNT_OPTIONS of local.config, tried before the run:
# options mkfs or mount refuse are bad input (exit 2, with the tool's own
# words), not an error of every test after the run has begun. For each
# distinct filesystem and options of the planned runs, the image is made
# with MKFS_OPTIONS in a private temporary directory as vt_prepare_fs
# makes it (a configured TEST_DEV is never made: it is mounted itself, as
# each test mounts it), and the executor mounts it with MOUNT_OPTIONS in
# a mount namespace of its own, as for every test, running /bin/true
# there. A filesystem the kernel lacks, or whose mkfs is not installed,
# is left to the run (its tests are notrun). Needs root. The directory is
# named as the suite's own (vfsidmap.PID.XXXXXX: common/guard.sh) and
# removed before it returns. Returns 0, 2 (bad options) or 130 (a signal
# came: runner/vfsidmap-supervise stopped the trial, nothing is made).
VT_OPTS_TMP=""
vt_check_fs_options() {
	local i fs make mkfs key src out rc=0 true_bin status
	local -A tried=()
	true_bin=$(type -P true) || true_bin=/bin/true
	for i in "${VT_SECTIONS[@]}"; do
		# (a signal before any trial is the run's to handle, as without one)
		[ -n "$VT_OPTS_TMP" ] && vt_interrupted && { rc=130; break; }
		[ -z "${VT_S_EXISTING[$i]:-}" ] || continue
		[ -n "${VT_S_MKFS[$i]}${VT_S_MOPTS[$i]}" ] || continue
		fs=${VT_S_FS[$i]}
		key="$fs|${VT_S_DEV[$i]}|${VT_S_MKFS[$i]}|${VT_S_MOPTS[$i]}"
		[ -z "${tried[$key]+x}" ] || continue
		tried[$key]=1
		"$VT_TOOL" fs-in-kernel "$fs" || continue
		make=$(vt_fs_field "$fs" make)
		[ "$make" = image ] && [ -n "${VT_S_DEV[$i]}" ] && continue   # notrun (vt_prepare_fs)
		if [ -z "$VT_OPTS_TMP" ]; then
			VT_OPTS_TMP=$(mktemp -d "${TMPDIR:-/tmp}/vfsidmap.$$.XXXXXX") && mkdir "$VT_OPTS_TMP/mnt" || {
				echo "check: cannot make a temporary directory in ${TMPDIR:-/tmp} to try MKFS_OPTIONS and MOUNT_OPTIONS in" >&2
				rc=2
				break
			}
		fi
		src=""
		if [ "$make" = mkfs ] || [ "$make" = image ]; then
			src=${VT_S_DEV[$i]}
		fi
		if [ -z "$src" ] && { [ "$make" = mkfs ] || [ "$make" = image ]; }; then
			mkfs=$(vt_fs_field "$fs" mkfs)
			command -v "$mkfs" >/dev/null 2>&1 || [ -x "/sbin/$mkfs" ] || [ -x "/usr/sbin/$mkfs" ] || continue
			src=$VT_OPTS_TMP/$fs.img
			vt_rm "$src" || { rc=2; break; }
			if ! out=$(PATH="$PATH:/sbin:/usr/sbin" "$VT_TOOL" mkimage "$fs" "$src" "${VT_S_MKFS[$i]}" 2>&1); then
				echo "check: section ${VT_S_NAME[$i]}: MKFS_OPTIONS=\"${VT_S_MKFS[$i]}\": $fs's mkfs refuses them (tried on a scratch image):" >&2
				printf '%s\n' "$out" | sed 's/^/  /' >&2
				rc=2
				break
			fi
		fi
		out=$("$VT_EXEC" --fstype "$fs" --source "$src" --mnt "$VT_OPTS_TMP/mnt" \
			--mount-options "${VT_S_MOPTS[$i]}" --timeout 60 --status "$VT_OPTS_TMP/status" \
			-- "$true_bin" 2>&1 5<&- 8>&- 9>&-)
		status=""
		[ -r "$VT_OPTS_TMP/status" ] && IFS= read -r status <"$VT_OPTS_TMP/status"
		# only a refused mount is the options' doing; any other failure
		# of the executor is the run's to report, as it reports it now
		if [[ "$status" == "error: mount -t "* ]]; then
			if [ -n "${VT_S_MOPTS[$i]}" ]; then
				local on="a $fs mount"
				[ -n "$src" ] && on="a scratch $fs image${VT_S_MKFS[$i]:+ made with MKFS_OPTIONS=\"${VT_S_MKFS[$i]}\"}"
				[ -n "${VT_S_DEV[$i]}" ] && on="TEST_DEV ${VT_S_DEV[$i]}"
				echo "check: section ${VT_S_NAME[$i]}: MOUNT_OPTIONS: the mount refuses -o ${VT_S_MOPTS[$i]} (tried on $on, in a mount namespace of its own):" >&2
			else
				echo "check: section ${VT_S_NAME[$i]}: MKFS_OPTIONS=\"${VT_S_MKFS[$i]}\": an image made with them does not mount (tried on a scratch image, in a mount namespace of its own):" >&2
			fi
			printf '  %s\n' "${status#error: }" ${out:+"$out"} >&2
			rc=2
			break
		fi
		[ "$src" = "$VT_OPTS_TMP/$fs.img" ] && vt_rm "$src"
	done
	# (a signal during the last trial: its executor was stopped)
	[ "$rc" = 0 ] && [ -n "$VT_OPTS_TMP" ] && vt_interrupted && rc=130
	[ "$rc" = 130 ] &&
		echo "check: interrupted by $VT_SIGNAL while trying MKFS_OPTIONS and MOUNT_OPTIONS: nothing of the run was made" >&2
	if [ -n "$VT_OPTS_TMP" ]; then
		vt_rm -r "$VT_OPTS_TMP"
		VT_OPTS_TMP=""
	fi
	return $rc
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
