# local.config: parsed by runner/vfsidmap-tool (no shell evaluation of the
# file), then turned into the list of runs: one per section, or, without a
# config, one per filesystem.

VT_TOOL="$VT_TOP/runner/vfsidmap-tool"
VT_CONFIG_SECTIONS=()
VT_SECTIONS=()
declare -A VT_S_NAME=() VT_S_FS=() VT_S_DEV=() VT_S_DIR=() VT_S_MKFS=() VT_S_MOPTS=() VT_S_TIMEOUT=()
declare -A VT_S_SCRATCH_DEV=()
declare -A VT_S_EXISTING=()  # 1: TEST_DIR is a mount the user made (TEST_DIR_MOUNTED=yes)
declare -A VT_S_CSECT=()  # the local.config section a run comes from (replay lines)

vt_load_config() {
	# VT_CONFIG_DIR: where vfsidmap-check was run from (runner/vfsidmap-check.in)
	local cdir=${VT_CONFIG_DIR:-$VT_TOP}
	if [ -z "$VT_CONFIG_FILE" ] && [ -f "$cdir/local.config" ]; then
		VT_CONFIG_FILE="$cdir/local.config"
	fi
	if [ -z "$VT_CONFIG_FILE" ]; then
		if [ ${#VT_SECTION_ARGS[@]} -gt 0 ] || [ ${#VT_EXCLUDE_SECTIONS[@]} -gt 0 ]; then
			echo "check: -s/-S given but there is no local.config" >&2
			return 2
		fi
		return 0
	fi
	local out
	out=$("$VT_TOOL" config "$VT_CONFIG_FILE" --sections) || return 2
	mapfile -t VT_CONFIG_SECTIONS <<<"$out"
	vt_config_result_base || return 2
	local s found seen=" "
	# -s a -s a would run the section twice under one name
	for s in ${VT_SECTION_ARGS[@]+"${VT_SECTION_ARGS[@]}"}; do
		if [[ "$seen" == *" $s "* ]]; then
			echo "check: -s $s is given twice: each section runs once" >&2
			return 2
		fi
		seen+="$s "
	done
	for s in ${VT_SECTION_ARGS[@]+"${VT_SECTION_ARGS[@]}"} ${VT_EXCLUDE_SECTIONS[@]+"${VT_EXCLUDE_SECTIONS[@]}"}; do
		found=0
		for out in "${VT_CONFIG_SECTIONS[@]}"; do [ "$out" = "$s" ] && found=1; done
		if [ "$found" = 0 ]; then
			echo "check: $VT_CONFIG_FILE has no section [$s]" >&2
			return 2
		fi
	done
}

# RESULT_BASE in local.config (xfstests): the results directory, unless
# --results or the environment's RESULT_BASE said otherwise. Read from the
# first section (keys before any header are every section's).
vt_config_result_base() {
	local vars FSTYP="" TEST_DEV="" TEST_DIR="" SCRATCH_DEV="" SCRATCH_MNT="" MKFS_OPTIONS=""
	local MOUNT_OPTIONS="" TEST_TIMEOUT="" RESULT_BASE="" TEST_DIR_MOUNTED=""
	vars=$("$VT_TOOL" config "$VT_CONFIG_FILE" --section "${VT_CONFIG_SECTIONS[0]}") || return 2
	eval "$vars"
	[ -z "$VT_RESULTS" ] && [ -n "$RESULT_BASE" ] && VT_RESULTS=$RESULT_BASE
	return 0
}

# --fs, else the filesystems of the table's default set (its default
# column, lib/fs/fs_table.c .default_run), in the table's order.
vt_fs_list_from_arg() {
	if [ -n "$VT_FS_ARG" ]; then
		local l
		IFS=, read -ra l <<<"$VT_FS_ARG"
		echo "${l[@]}"
	else
		vt_default_fs
	fi
}

vt_default_fs() {
	local rows row def list=()
	rows=$("$VT_TOOL" fs-table default) || return 2
	while IFS=$'\t' read -r row def; do
		[ "$def" = yes ] && list+=("$row")
	done <<<"$rows"
	echo "${list[@]}"
}

# Where each run's name came from (for the message when two collide).
declare -A VT_RUN_ORIGIN=()
vt_add_run() { # name fs dev dir mkfs mopts timeout scratch
	local i=${#VT_SECTIONS[@]}
	VT_SECTIONS+=("$i")
	VT_S_NAME[$i]=$1 VT_S_FS[$i]=$2 VT_S_DEV[$i]=$3 VT_S_DIR[$i]=$4
	VT_S_MKFS[$i]=$5 VT_S_TIMEOUT[$i]=$7 VT_S_SCRATCH_DEV[$i]=$8 VT_S_EXISTING[$i]=""
	local m=$6
	m=${m#-o }
	m=${m#-o}
	VT_S_MOPTS[$i]=$m
}

# Refuses a configured device or directory that is not safe to use.
vt_check_configured_paths() { # section dev dir scratch scratch_mnt
	local what
	for what in "$2" "$4"; do
		[ -n "$what" ] || continue
		"$VT_TOOL" device-free "$what" || { echo "check: section [$1]: refusing to use $what" >&2; return 2; }
	done
	for what in "$3" "$5"; do
		[ -n "$what" ] || continue
		if [ ! -d "$what" ]; then
			echo "check: section [$1]: $what is not a directory" >&2
			return 2
		fi
		if mountpoint -q "$what"; then
			echo "check: section [$1]: refusing $what: something is mounted on it" >&2
			return 2
		fi
	done
}

# The per-test timeout: -T, else TEST_TIMEOUT of the environment
# (VT_ENV_TIMEOUT, common/options.sh), else the section's TEST_TIMEOUT
# (the local.config value, validated by vfsidmap-tool), else 1200.
vt_plan_sections() {
	local timeout=${VT_TIMEOUT:-${VT_ENV_TIMEOUT:-1200}} fs fss
	fss=$(vt_fs_list_from_arg) || { echo "check: $VT_TOOL fs-table failed (run ./bootstrap)" >&2; return 2; }
	if [ -z "$VT_CONFIG_FILE" ]; then
		for fs in $fss; do
			vt_add_run "$fs" "$fs" "" "" "" "" "$timeout" ""
		done
		return 0
	fi
	local s sections=("${VT_CONFIG_SECTIONS[@]}")
	[ ${#VT_SECTION_ARGS[@]} -gt 0 ] && sections=("${VT_SECTION_ARGS[@]}")
	vt_drop_excluded_sections || return 2
	for s in ${sections[@]+"${sections[@]}"}; do
		local FSTYP="" TEST_DEV="" TEST_DIR="" SCRATCH_DEV="" SCRATCH_MNT="" MKFS_OPTIONS=""
		local MOUNT_OPTIONS="" TEST_TIMEOUT="" RESULT_BASE="" TEST_DIR_MOUNTED="" vars
		vars=$("$VT_TOOL" config "$VT_CONFIG_FILE" --section "$s") || return 2
		# The tool printed only KEY='value' lines for known keys, quoted.
		eval "$vars"
		if [ "$TEST_DIR_MOUNTED" = yes ]; then
			vt_existing_mount_section "$s" || return 2
			vt_run_name_free "$s" "section [$s]" || return 2
			vt_add_run "$s" "$FSTYP" "" "$TEST_DIR" "" "" "${VT_TIMEOUT:-${VT_ENV_TIMEOUT:-${TEST_TIMEOUT:-1200}}}" ""
			VT_S_EXISTING[${VT_SECTIONS[-1]}]=1
			VT_S_CSECT[${VT_SECTIONS[-1]}]=$s
			continue
		fi
		vt_check_configured_paths "$s" "$TEST_DEV" "$TEST_DIR" "$SCRATCH_DEV" "$SCRATCH_MNT" || return 2
		if [ -n "$TEST_DEV" ] && [ -z "$FSTYP" ]; then
			echo "check: section [$s]: TEST_DEV is set but FSTYP is not" >&2
			return 2
		fi
		# a filesystem mount(2) makes without a device (the table's
		# make column: mount-only)
		if [ -n "$TEST_DEV" ] && [ -n "$FSTYP" ] && [ "$(vt_fs_field "$FSTYP" make)" = mount-only ]; then
			echo "check: section [$s]: $FSTYP takes no TEST_DEV" >&2
			return 2
		fi
		local t=${VT_TIMEOUT:-${VT_ENV_TIMEOUT:-${TEST_TIMEOUT:-1200}}} name=$s
		if [ -n "$FSTYP" ]; then
			vt_run_name_free "$name" "section [$s]" || return 2
			vt_add_run "$name" "$FSTYP" "$TEST_DEV" "$TEST_DIR" "$MKFS_OPTIONS" "$MOUNT_OPTIONS" "$t" "$SCRATCH_DEV"
			VT_S_CSECT[${VT_SECTIONS[-1]}]=$s
		else
			for fs in $fss; do
				[ ${#sections[@]} -gt 1 ] && name="$s-$fs" || name=$fs
				vt_run_name_free "$name" "section [$s] on $fs (it sets no FSTYP: one run a filesystem, this one named $name)" ||
					return 2
				vt_add_run "$name" "$fs" "" "$TEST_DIR" "$MKFS_OPTIONS" "$MOUNT_OPTIONS" "$t" ""
				VT_S_CSECT[${VT_SECTIONS[-1]}]=$s
			done
		fi
	done
}

# A run's name is its results directory (RESULTS/NAME), its JUnit and
# KTAP ids and its image (RUNDIR/NAME.img): two runs of one name would
# overwrite each other's results and, with -j, share an image. A section
# without FSTYP makes names of its own (SECTION-FS), which can be another
# section's: refused, naming both, rather than renamed behind the user's
# back (a name that changes with the other sections present would move
# results and break -s, replay lines and comparisons between runs).
vt_run_name_free() { # name origin
	local i
	for i in ${VT_SECTIONS[@]+"${VT_SECTIONS[@]}"}; do
		[ "${VT_S_NAME[$i]}" = "$1" ] || continue
		echo "check: $VT_CONFIG_FILE: two runs would be named '$1': ${VT_RUN_ORIGIN[$1]} and $2; each run needs a name of its own (its results directory, JUnit ids and image): rename one of the sections" >&2
		return 2
	done
	VT_RUN_ORIGIN[$1]=$2
}

# TEST_DIR_MOUNTED=yes: TEST_DIR is a filesystem the user mounted (a FUSE
# server, ceph, NFS, or any other), tested as it is: the suite makes and
# removes a scratch directory in it and never mounts, makes or repairs the
# filesystem, so the keys that would do that are refused. FSTYP, if given,
# must be what the mount table says; else it is taken from there. Sets FSTYP.
vt_existing_mount_section() { # section (TEST_DIR, TEST_DEV... of the caller)
	local k type
	if [ -z "$TEST_DIR" ]; then
		echo "check: section [$1]: TEST_DIR_MOUNTED=yes needs TEST_DIR, the mounted directory to test" >&2
		return 2
	fi
	for k in TEST_DEV SCRATCH_DEV SCRATCH_MNT MKFS_OPTIONS MOUNT_OPTIONS; do
		if [ -n "${!k}" ]; then
			echo "check: section [$1]: TEST_DIR_MOUNTED=yes tests $TEST_DIR as it is mounted; $k makes no sense with it" >&2
			return 2
		fi
	done
	if [ ! -d "$TEST_DIR" ] || ! mountpoint -q "$TEST_DIR"; then
		echo "check: section [$1]: TEST_DIR_MOUNTED=yes but nothing is mounted on $TEST_DIR" >&2
		return 2
	fi
	type=$(findmnt -n -o FSTYPE --mountpoint "$TEST_DIR" 2>/dev/null | tail -n 1)
	if [ -z "$type" ]; then
		echo "check: section [$1]: cannot tell the filesystem type of $TEST_DIR (findmnt)" >&2
		return 2
	fi
	if [ -n "$FSTYP" ] && [ "$FSTYP" != "$type" ]; then
		echo "check: section [$1]: FSTYP=$FSTYP but $TEST_DIR is $type" >&2
		return 2
	fi
	FSTYP=$type
}

# -S SECTION (xfstests): leave the section out of "sections".
vt_drop_excluded_sections() {
	local kept=() s x drop
	for s in ${sections[@]+"${sections[@]}"}; do
		drop=0
		for x in ${VT_EXCLUDE_SECTIONS[@]+"${VT_EXCLUDE_SECTIONS[@]}"}; do [ "$s" = "$x" ] && drop=1; done
		[ "$drop" = 1 ] || kept+=("$s")
	done
	if [ ${#kept[@]} -eq 0 ]; then
		echo "check: -S left no section of $VT_CONFIG_FILE to run" >&2
		return 2
	fi
	sections=("${kept[@]}")
}

vt_dry_run() {
	local i t
	for i in "${VT_SECTIONS[@]}"; do
		echo "SECTION -- ${VT_S_NAME[$i]} (FSTYP=${VT_S_FS[$i]}${VT_S_DEV[$i]:+ TEST_DEV=${VT_S_DEV[$i]}})"
		for t in "${VT_SELECTED[@]}"; do
			local why
			vt_expunge_reason_var "${VT_S_FS[$i]}" "$t"   # no fork per test
			why=$VT_WHY
			if [ -n "$why" ]; then
				echo "  $t [expunged: $why]"
			else
				echo "  $t"
			fi
		done
	done
}
