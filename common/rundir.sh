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
# field 22), of a process that has not ended (field 3, its state); the
# comm field (2) may hold spaces and parentheses, so count from the last
# ')'.
vt_proc_starttime() { # pid -> prints it, or fails
	local stat rest
	{ IFS= read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
	rest=${stat##*) }
	set -- $rest
	[ $# -ge 20 ] || return 1
	# a zombie (state Z, or X while it goes) has ended: its descriptors,
	# and with them its locks, are gone, though its parent did not reap
	# it yet (an init that reaps late)
	case $1 in Z | X) return 1 ;; esac
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

# Detaches the loop devices whose image lies under DIR (one of the
# suite's directories: vt_inside). LOOP_CLR_FD on a device still in use
# (its filesystem mounted somewhere) only sets autoclear and succeeds
# (drivers/block/loop.c, loop_clr_fd): the device stays until the last
# user lets go. So a device counts as detached only once its backing_file
# is gone; VT_LOOPS_DETACHED and VT_LOOPS_BUSY name them (space separated).
vt_detach_loops_under() { # dir
	local bf dev file n
	VT_LOOPS_DETACHED="" VT_LOOPS_BUSY=""
	vt_inside "$1/x" || return 0
	for bf in /sys/block/loop*/loop/backing_file; do
		[ -r "$bf" ] && IFS= read -r file <"$bf" 2>/dev/null || continue
		case "$file" in
		"$1"/*)
			dev=${bf#/sys/block/} dev=/dev/${dev%%/*}
			losetup -d "$dev" 2>/dev/null
			n=0
			while [ -e "$bf" ] && [ $n -lt 10 ]; do sleep 0.1; n=$((n + 1)); done
			if [ -e "$bf" ]; then
				VT_LOOPS_BUSY+="${VT_LOOPS_BUSY:+ }$dev"
			else
				VT_LOOPS_DETACHED+="${VT_LOOPS_DETACHED:+ }$dev"
			fi
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
	# an empty directory is not proven a run's: the lock is the first
	# thing a run writes (a run killed before even that leaves an empty
	# directory, which is left as it is)
	[ -f "$d/lock" ] && [ ! -L "$d/lock" ] || return 0
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
		vt_rm "$d/lock" "$d/$VT_RUN_MARKER.tmp" && rmdir -- "$d" &&
			echo "check: cleaned up after a run (pid $pid) killed while creating $d" >&2
	)
	return 0
}

vt_heal_dead_runs() {
	local d marker owner loops
	for d in "$VT_RUN_BASE"/vfsidmap.[0-9]*.??????; do
		# only the names runs make (vfsidmap.PID.XXXXXX): anything else
		# was not made by a run of this check
		vt_inside "$d" && [ -d "$d" ] && [ ! -L "$d" ] || continue
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
			vt_detach_loops_under "$d"
			vt_remove_scratch_dirs "$d"
			if [ -n "$VT_LOOPS_BUSY" ]; then
				# its image is still in use: the directory stays, for
				# a later run to try again
				echo "check: a dead run (pid ${owner:-?}) left $d with loop devices still in use ($VT_LOOPS_BUSY: mounted somewhere?); kept${VT_LOOPS_DETACHED:+, detached $VT_LOOPS_DETACHED}" >&2
				exit 0
			fi
			vt_rm -r "$d"
			echo "check: cleaned up after a dead run (pid ${owner:-?}): removed $d${VT_LOOPS_DETACHED:+, detached $VT_LOOPS_DETACHED}" >&2
		)
	done
}

# Signals: check sets no trap. It runs under runner/vfsidmap-supervise
# (see there why), with SIGINT, SIGTERM and SIGHUP ignored; the supervisor
# takes them, stops the running test, and writes the first one's name into
# the memfd at fd VT_SIGNAL_FD, which check reads here, at the points where
# it decides to go on. Reading it opens the memfd anew (/proc/self/fd), so
# every reader, -j's workers too, sees it from its start.
# (Read until a signal is known: a run stopped otherwise, by a -j worker
# that saw the signal first or died, still learns the signal's name.)
vt_interrupted() {
	local s=""
	if [ -z "$VT_SIGNAL" ] && [ -n "${VT_SIGNAL_FD:-}" ]; then
		{ IFS= read -r s <"/proc/self/fd/$VT_SIGNAL_FD"; } 2>/dev/null
		[ -z "$s" ] || { VT_INTERRUPTED=1; VT_SIGNAL=$s; }
	fi
	[ "$VT_INTERRUPTED" = 1 ]
}

# The lock is taken before the marker exists: a directory with a marker
# and a free lock is one whose owner let go of it (died or is removing it).
vt_rundir_create() {
	local text
	vt_run_base_check || return 2
	vt_heal_dead_runs
	VT_RUNDIR=$(mktemp -d "$VT_RUN_BASE/vfsidmap.$$.XXXXXX") || return 2
	exec 9>"${VT_RUNDIR:?}/lock" && flock -n 9 || {
		echo "check: cannot lock $VT_RUNDIR" >&2
		vt_rm -r "$VT_RUNDIR"; VT_RUNDIR=""; return 2
	}
	text=$(vt_run_marker_text) &&
		printf '%s\n' "$text" >"${VT_RUNDIR:?}/$VT_RUN_MARKER.tmp" &&
		mv -f "${VT_RUNDIR:?}/$VT_RUN_MARKER.tmp" "${VT_RUNDIR:?}/$VT_RUN_MARKER" || {
		echo "check: cannot write the marker of $VT_RUNDIR" >&2
		vt_rm -r "$VT_RUNDIR"; VT_RUNDIR=""; return 2
	}
	echo $$ >"${VT_RUNDIR:?}/pid"
	# Test callers are not root: they must be able to reach the mount point.
	chmod 0755 "$VT_RUNDIR"
	mkdir "${VT_RUNDIR:?}/mnt"
	trap vt_rundir_remove EXIT
}

vt_rundir_remove() {
	[ -n "$VT_RUNDIR" ] && [ -d "$VT_RUNDIR" ] || return 0
	vt_detach_loops_under "$VT_RUNDIR"
	[ -n "$VT_LOOPS_DETACHED" ] && echo "check: detached loop devices left by tests: $VT_LOOPS_DETACHED" >&2
	vt_remove_scratch_dirs "$VT_RUNDIR"
	if [ -n "$VT_LOOPS_BUSY" ]; then
		echo "check: loop devices left by tests are still in use ($VT_LOOPS_BUSY: mounted somewhere?): $VT_RUNDIR is kept, and the next run tries again" >&2
	else
		vt_rm -r "$VT_RUNDIR"
	fi
	exec 9>&-
	VT_RUNDIR=""
}
