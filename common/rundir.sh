# The per-run directory: /var/tmp/vfsidmap.XXXXXX holding the images, the
# mount point and a lock held for the life of the run. A run that died
# (even by SIGKILL) leaves its directory with nobody holding the lock: the
# next run removes it, detaches loop devices backed by its images, and says
# so. Mounts never reach the host's namespace (each test has its own).

VT_RUN_BASE=${VT_RUN_BASE:-/var/tmp}
VT_RUNDIR=""
VT_CHILD=""
VT_INTERRUPTED=0

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

vt_heal_dead_runs() {
	local d lock owner loops
	for d in "$VT_RUN_BASE"/vfsidmap.*; do
		[ -d "$d" ] && [ ! -L "$d" ] || continue
		[ "$(stat -c %u "$d")" = "$(id -u)" ] || continue
		lock="$d/lock"
		if [ -e "$lock" ]; then
			flock -n "$lock" true 2>/dev/null || continue   # a live run holds it
		elif [ $(( $(date +%s) - $(stat -c %Y "$d") )) -lt 30 ]; then
			continue   # just being created by a run starting now
		fi
		owner=$(cat "$d/pid" 2>/dev/null || echo "?")
		loops=$(vt_detach_loops_under "$d" | tr '\n' ' ')
		rm -rf --one-file-system "$d"
		echo "check: cleaned up after a dead run (pid $owner): removed $d${loops:+, detached $loops}" >&2
	done
}

vt_on_signal() {
	VT_INTERRUPTED=1
	if [ -n "$VT_CHILD" ]; then
		# The executor dies; the pid namespace it leads dies with it.
		kill -TERM "$VT_CHILD" 2>/dev/null
	fi
}

vt_rundir_create() {
	mkdir -p "$VT_RUN_BASE" || return 2
	vt_heal_dead_runs
	VT_RUNDIR=$(mktemp -d "$VT_RUN_BASE/vfsidmap.XXXXXX") || return 2
	# Test callers are not root: they must be able to reach the mount point.
	chmod 0755 "$VT_RUNDIR"
	echo $$ >"$VT_RUNDIR/pid"
	exec 9>"$VT_RUNDIR/lock"
	flock -n 9 || { echo "check: cannot lock $VT_RUNDIR" >&2; return 2; }
	mkdir "$VT_RUNDIR/mnt"
	trap vt_on_signal INT TERM HUP
	trap vt_rundir_remove EXIT
}

vt_rundir_remove() {
	[ -n "$VT_RUNDIR" ] && [ -d "$VT_RUNDIR" ] || return 0
	local loops
	loops=$(vt_detach_loops_under "$VT_RUNDIR")
	[ -n "$loops" ] && echo "check: detached loop devices left by tests: $loops" >&2
	rm -rf --one-file-system "$VT_RUNDIR"
	exec 9>&-
	VT_RUNDIR=""
}
