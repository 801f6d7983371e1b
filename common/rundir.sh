# The per-run directory: $VT_RUN_BASE/vfsidmap.XXXXXX holding the images,
# the mount point and a lock held for the life of the run. A run that died
# (even by SIGKILL) leaves its directory with nobody holding the lock: the
# next run removes it, detaches loop devices backed by its images, and says
# so. Mounts never reach the host's namespace (each test has its own).
#
# What may be removed is proven, never guessed from a name: a run
# directory carries the marker file "vfsidmap-run" (owner pid, its start
# time from /proc/PID/stat field 22, the boot id), written only after the
# directory's lock is held. A directory without the marker is never
# touched, whatever its name or age; one with it is removed only when its
# lock is free and its owner (pid + start time + boot) is gone.
#
# The one window before the marker exists (a SIGKILL between mkdir and the
# marker's rename) is closed by the name: a run makes
# vfsidmap.PID.XXXXXX. Such a directory without a marker is removed only
# when PID is not running and it holds nothing but what those first steps
# write (an empty "lock", a "vfsidmap-run.tmp" naming that PID): no data
# can be lost by that, and anything else keeps it untouched.

VT_RUN_BASE=${VT_RUN_BASE:-/var/tmp}
VT_RUNDIR=""
VT_CHILD=""
VT_INTERRUPTED=0
VT_SIGNAL=""
VT_RUN_MARKER=vfsidmap-run

# Start time of PID in clock ticks since boot (proc(5), /proc/PID/stat
# field 22); the comm field (2) may hold spaces and parentheses, so count
# from the last ')'.
vt_proc_starttime() { # pid -> prints it, or fails
	local stat rest
	{ IFS= read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
	rest=${stat##*) }
	set -- $rest
	[ $# -ge 20 ] || return 1
	echo "${20}"
}

vt_boot_id() { # (read: no cat process, dear in a TCG guest)
	local id
	{ IFS= read -r id </proc/sys/kernel/random/boot_id; } 2>/dev/null && [ -n "$id" ] || id=unknown
	echo "$id"
}

# The marker's text for this process (check's own pid: $BASHPID in a
# subshell would differ, and the marker names the owner of the lock).
vt_run_marker_text() {
	local st
	st=$(vt_proc_starttime $$) || return 1
	printf 'vfsidmap run directory (check)\npid=%s\nstarttime=%s\nboot_id=%s\n' \
		"$$" "$st" "$(vt_boot_id)"
}

# Is the owner named by marker FILE still running? Unreadable or foreign
# markers count as alive: when in doubt, touch nothing.
vt_marker_owner_alive() { # marker file
	local pid="" st="" boot="" line
	while IFS= read -r line; do
		case "$line" in
		pid=*) pid=${line#pid=} ;;
		starttime=*) st=${line#starttime=} ;;
		boot_id=*) boot=${line#boot_id=} ;;
		esac
	done <"$1" || return 0
	[[ "$pid" =~ ^[0-9]+$ ]] && [[ "$st" =~ ^[0-9]+$ ]] && [ -n "$boot" ] || return 0
	[ "$boot" = "$(vt_boot_id)" ] || return 1   # another boot: every process of it is gone
	[ "$(vt_proc_starttime "$pid")" = "$st" ]
}

# Refuses a base that is not an existing absolute directory: it is never
# created (a typo would leave a tree behind).
vt_run_base_check() {
	case "$VT_RUN_BASE" in
	/*) ;;
	*) echo "check: VT_RUN_BASE='$VT_RUN_BASE' must be an absolute path" >&2; return 2 ;;
	esac
	if [ ! -d "$VT_RUN_BASE" ]; then
		echo "check: VT_RUN_BASE=$VT_RUN_BASE is not an existing directory (it is not created)" >&2
		return 2
	fi
	if [ ! -w "$VT_RUN_BASE" ]; then
		echo "check: VT_RUN_BASE=$VT_RUN_BASE is not writable" >&2
		return 2
	fi
}

# The suite's unprivileged callers (uids 1000, 1001, 70000, ... in the init
# user namespace) walk the checkout (exec probes, helpers) and VT_RUN_BASE
# (the mount points) by path, so every directory from / down to each must
# be searchable by others (path_lookupat -> may_lookup -> inode_permission
# MAY_EXEC; an idmapped mount below does not change the directories above
# it). A tree below a 0700 `mktemp -d` otherwise fails every unprivileged
# case as if the kernel were wrong; refuse it here, before anything is built.
vt_searchable_check() { # dir...
	local top real dir mode rc=0
	local -a dirs
	for top in "$@"; do
		real=$(readlink -f -- "$top") || { echo "check: cannot resolve $top" >&2; return 2; }
		dirs=()
		dir=$real
		while [ -n "$dir" ]; do
			dirs+=("$dir")
			dir=${dir%/*}
		done
		dirs+=(/)
		while read -r mode dir; do
			# stat's %a is octal; the last digit holds the others' bits.
			if (( (8#$mode & 1) == 0 )); then
				echo "check: $dir (mode $mode) is not searchable by other users, so the suite's unprivileged callers cannot reach $top; chmod o+x $dir, or use a checkout / VT_RUN_BASE below searchable directories" >&2
				rc=2
			fi
		done < <(stat -L -c '%a %n' -- "${dirs[@]}")
	done
	return $rc
}

vt_detach_loops_under() { # dir -> prints the devices it detached
	local bf dev
	for bf in /sys/block/loop*/loop/backing_file; do
		[ -r "$bf" ] || continue
		case "$(cat "$bf" 2>/dev/null)" in
		"$1"/*)
			dev=/dev/$(basename "$(dirname "$(dirname "$bf")")")
			losetup -d "$dev" 2>/dev/null && echo "$dev"
			;;
		esac
	done
}

# A run directory whose owner died before writing its marker (see the top):
# remove it if it holds only the first steps' files, else leave it.
vt_heal_unfinished_rundir() { # dir
	local d=$1 pid f
	pid=${d##*/vfsidmap.}
	pid=${pid%%.*}
	[[ "$pid" =~ ^[0-9]+$ ]] || return 0
	[ -d "/proc/$pid" ] && return 0
	for f in "$d"/* "$d"/.[!.]* "$d"/..?*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		case "${f##*/}" in
		lock) [ -f "$f" ] && [ ! -L "$f" ] && [ ! -s "$f" ] || return 0 ;;
		"$VT_RUN_MARKER.tmp")
			[ -f "$f" ] && [ ! -L "$f" ] && [ "$(stat -c %s "$f")" -lt 4096 ] || return 0
			grep -qx "pid=$pid" "$f" || return 0 ;;
		*) return 0 ;;
		esac
	done
	(
		if [ -e "$d/lock" ]; then exec 7<"$d/lock" && flock -n 7 || exit 1; fi
		rm -f "$d/lock" "$d/$VT_RUN_MARKER.tmp" && rmdir "$d" &&
			echo "check: cleaned up after a run (pid $pid) killed while creating $d" >&2
	)
	return 0
}

vt_heal_dead_runs() {
	local d marker owner loops
	for d in "$VT_RUN_BASE"/vfsidmap.*; do
		[ -d "$d" ] && [ ! -L "$d" ] || continue
		[ "$(stat -c %u "$d")" = "$(id -u)" ] || continue
		marker="$d/$VT_RUN_MARKER"
		[ -e "$marker" ] || [ -L "$marker" ] || { vt_heal_unfinished_rundir "$d"; continue; }
		# No marker: not proven ours (a backup, a results directory, a
		# run of an older check): never touched.
		[ -f "$marker" ] && [ ! -L "$marker" ] && [ -f "$d/lock" ] && [ ! -L "$d/lock" ] || continue
		vt_marker_owner_alive "$marker" && continue
		owner=$(sed -n 's/^pid=//p' "$marker" 2>/dev/null)
		# Hold its lock while removing: a live run holds it, and two
		# runs healing at once do not trip over each other.
		(
			exec 7<"$d/lock" || exit 1
			flock -n 7 || exit 1
			loops=$(vt_detach_loops_under "$d" | tr '\n' ' ')
			vt_remove_scratch_dirs "$d"
			rm -rf --one-file-system "$d"
			echo "check: cleaned up after a dead run (pid ${owner:-?}): removed $d${loops:+, detached $loops}" >&2
		)
	done
}

vt_on_signal() { # signal name
	VT_INTERRUPTED=1
	VT_SIGNAL=${VT_SIGNAL:-$1}
	if [ -n "$VT_CHILD" ]; then
		# The executor dies; the pid namespace it leads dies with it.
		kill -TERM "$VT_CHILD" 2>/dev/null
	fi
}

# The lock is taken before the marker exists: a directory with a marker
# and a free lock is one whose owner let go of it (died or is removing it).
vt_rundir_create() {
	local text
	vt_run_base_check || return 2
	vt_heal_dead_runs
	VT_RUNDIR=$(mktemp -d "$VT_RUN_BASE/vfsidmap.$$.XXXXXX") || return 2
	exec 9>"$VT_RUNDIR/lock" && flock -n 9 || {
		echo "check: cannot lock $VT_RUNDIR" >&2
		rm -rf --one-file-system "$VT_RUNDIR"; VT_RUNDIR=""; return 2
	}
	text=$(vt_run_marker_text) &&
		printf '%s\n' "$text" >"$VT_RUNDIR/$VT_RUN_MARKER.tmp" &&
		mv -f "$VT_RUNDIR/$VT_RUN_MARKER.tmp" "$VT_RUNDIR/$VT_RUN_MARKER" || {
		echo "check: cannot write the marker of $VT_RUNDIR" >&2
		rm -rf --one-file-system "$VT_RUNDIR"; VT_RUNDIR=""; return 2
	}
	echo $$ >"$VT_RUNDIR/pid"
	# Test callers are not root: they must be able to reach the mount point.
	chmod 0755 "$VT_RUNDIR"
	mkdir "$VT_RUNDIR/mnt"
	trap 'vt_on_signal SIGINT' INT
	trap 'vt_on_signal SIGTERM' TERM
	trap 'vt_on_signal SIGHUP' HUP
	trap vt_rundir_remove EXIT
}

vt_rundir_remove() {
	[ -n "$VT_RUNDIR" ] && [ -d "$VT_RUNDIR" ] || return 0
	local loops
	loops=$(vt_detach_loops_under "$VT_RUNDIR")
	[ -n "$loops" ] && echo "check: detached loop devices left by tests: $loops" >&2
	vt_remove_scratch_dirs "$VT_RUNDIR"
	rm -rf --one-file-system "$VT_RUNDIR"
	exec 9>&-
	VT_RUNDIR=""
}
