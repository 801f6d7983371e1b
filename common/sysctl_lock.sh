# Tests that change a global sysctl run alone under -j.
#
# With VT_ALLOW_SYSCTL=1 (run/vm's guest) a test may change a global
# sysctl for its run and restore it at exit (lib/world/sysctl.c:
# matrix/012 sets each fs.protected_* value in turn, and so does
# matrix/011 for the 012 cases of its sample; regress/008 needs
# protected_regular >= 1). Every other test's world reads those values
# (world_setup.c reads fs.protected_* once, at its start, for the model).
# Sections side by side (-j, common/jobs.sh) would then read another
# section's temporary value, and two changers could restore each other's
# values in the wrong order and leave the machine changed. So, with -j
# and VT_ALLOW_SYSCTL=1, a test of the group "sysctl" holds
# RUNDIR/sysctl.lock exclusively while it runs and every other test holds
# it shared: a changer waits for the tests running beside it, and they
# for it. A turnstile taken first (RUNDIR/sysctl.turn) lets a waiting
# changer in before new sharers, so a stream of tests on the other
# sections cannot starve it. Without -j, or without VT_ALLOW_SYSCTL=1 (no
# test changes a sysctl then), nothing is locked and no process is spent.
#
# Each worker opens the files itself: flock(2) locks belong to an open
# file description, so one inherited from check would be shared by all
# workers. The executor and check's watchdog inherit the descriptor; both
# are gone (waited for, killed) before vt_sysctl_lock_drop closes it.

# A sharer keeps its shared lock from one test to the next (two flock
# processes a test fewer: forks are dear in run/vm's TCG guest, where this
# lock is on) until a changer says it waits: before its turnstile it
# writes 1 into RUNDIR/sysctl.want.PID (0 when its test is over), and a
# sharer that finds a 1 there before its next test lets go and takes the
# lock again through the turnstile, as without this. The changer still
# runs only once no sharer holds the lock (flock's own exclusion); it
# waits at most for the test a sharer is in and that sharer's work after
# it. vt_sysctl_lock_release lets go at the end of a section.
VT_SYSCTL_LOCK=""
VT_SL_FD="" VT_SL_TURN="" VT_SL_KEPT="" VT_SL_WANT=""
# The group whose tests run alone; unit/test-sysctl-lock.sh names another
# (selftest) to see the effect without changing a sysctl.
VT_SYSCTL_GROUP=${VT_SYSCTL_GROUP:-sysctl}

# Before the workers start: does this run lock, and where.
vt_sysctl_lock_prepare() {
	VT_SYSCTL_LOCK=""
	vt_jobs_parallel && [ "${VT_ALLOW_SYSCTL:-}" = 1 ] || return 0
	VT_SYSCTL_LOCK=$VT_RUNDIR/sysctl.lock
	{ : >"$VT_SYSCTL_LOCK" && : >"${VT_RUNDIR:?}/sysctl.turn"; } 2>/dev/null || {
		echo "check: cannot create $VT_SYSCTL_LOCK" >&2
		return 1
	}
}

# Waits until test T may run: alone if it is in the group "sysctl".
vt_sysctl_lock_take() { # test
	local mode=-s f w=0
	[ -n "$VT_SYSCTL_LOCK" ] || return 0
	vt_in_group "$1" "$VT_SYSCTL_GROUP" && mode=-x
	if [ -n "$VT_SL_KEPT" ]; then
		if [ $mode = -s ]; then
			for f in "${VT_SYSCTL_LOCK%.lock}".want.*; do
				[ -f "$f" ] && IFS= read -r w <"$f" 2>/dev/null && [ "$w" = 1 ] && break
				w=0
			done
			[ "$w" = 1 ] || return 0   # no changer waits: keep it
		fi
		vt_sysctl_lock_release
	fi
	if [ $mode = -x ]; then
		VT_SL_WANT="${VT_SYSCTL_LOCK%.lock}.want.$BASHPID"
		echo 1 >"$VT_SL_WANT" || return 1
	fi
	exec {VT_SL_TURN}<>"${VT_SYSCTL_LOCK%.lock}.turn" {VT_SL_FD}<>"$VT_SYSCTL_LOCK" || return 1
	if ! flock -x "$VT_SL_TURN" || ! flock $mode "$VT_SL_FD"; then
		exec {VT_SL_TURN}>&- {VT_SL_FD}>&-
		VT_SL_FD="" VT_SL_TURN=""
		vt_sysctl_lock_release
		return 1
	fi
	exec {VT_SL_TURN}>&-
	VT_SL_TURN=""
	[ $mode = -s ] && VT_SL_KEPT=1
	return 0
}

# After the test (its executor and watchdog gone): a changer lets go (and
# says it no longer waits); a sharer keeps its lock for its next test.
vt_sysctl_lock_drop() {
	[ -n "$VT_SL_FD" ] || return 0
	[ -n "$VT_SL_KEPT" ] && return 0
	vt_sysctl_lock_release
}

# Lets go whatever this worker holds (a section's end, a changer's turn).
vt_sysctl_lock_release() {
	if [ -n "$VT_SL_FD" ]; then
		exec {VT_SL_FD}>&-
		VT_SL_FD=""
	fi
	VT_SL_KEPT=""
	if [ -n "$VT_SL_WANT" ]; then
		echo 0 >"$VT_SL_WANT"
		VT_SL_WANT=""
	fi
	return 0
}
