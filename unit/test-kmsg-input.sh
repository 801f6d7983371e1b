#!/bin/bash
# The kernel log's inputs (common/kmsg.sh) are read bounded and checked
# before anything is made. VT_DMESG_NOISE or VT_KMSG_DEV naming a FIFO or
# /dev/zero hung the run where it read them, deaf to SIGTERM:
#  1-4: VT_DMESG_NOISE naming a FIFO, /dev/zero, /proc/self/pagemap or a
#       file with a pattern grep -E refuses: exit 2 at once, naming it,
#       nothing made (no results, no run directory)
#  5-8: VT_KMSG_DEV naming a FIFO, a regular file, /dev/zero or /dev/null:
#       exit 2 at once, naming it, nothing made
#  9:   vfsidmap-tool kmsg-cut reading /dev/zero ends by itself (it read
#       for ever: the log check would hold check past any signal)
#  10:  good ones still run: a noise file and VT_KMSG_DEV=/dev/kmsg
# Each run is guarded (timeout), so a hang fails here instead of holding
# make check; whatever waits on the FIFO is let go afterwards.
# Needs root (/dev/kmsg); TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts, /dev/kmsg"
echo "1..10"
unit_workdir kmsg-input
unset TEST_TIMEOUT RESULT_BASE VT_DMESG_NOISE VT_KMSG_DEV
cd "$top" || exit 1
mkfifo "$work/fifo"
trap ': <>"$work/fifo"; [ -n "${VT_KEEP:-}" ] || rm -rf --one-file-system "$work"' EXIT

run() { # env-assignment, check args...: stdout+stderr in $work/o, status in $rc, seconds in $took
	local e=$1 start=$SECONDS
	shift
	# (a run the guard killed left its run directory: each starts from none)
	rm -rf --one-file-system "$work"/runs/*
	env "$e" timeout -s KILL 30 ./check "$@" >"$work/o" 2>&1
	rc=$?
	took=$((SECONDS - start))
	: <>"$work/fifo"
}
nothing_made() { # results dir
	[ ! -e "$1" ] && [ -z "$(ls -A "$work/runs")" ]
}

printf 'foo(\n' >"$work/badre"
for f in "$work/fifo" /dev/zero /proc/self/pagemap "$work/badre"; do
	run "VT_DMESG_NOISE=$f" --fs tmpfs --results "$work/n" api/001
	check_ '[ $rc = 2 ] && [ $took -lt 10 ] && grep -qF "check: VT_DMESG_NOISE: '"'$f'"'" "$work/o" && nothing_made "$work/n"' \
		"VT_DMESG_NOISE=$f: exit 2 at once naming it, nothing made (exit $rc, ${took}s)"
	[ $rc = 2 ] || sed 's/^/# /' "$work/o" | head -n 3
done

printf 'not a device\n' >"$work/regular"
for f in "$work/fifo" "$work/regular" /dev/zero /dev/null; do
	run "VT_KMSG_DEV=$f" --fs tmpfs --results "$work/k" api/001
	check_ '[ $rc = 2 ] && [ $took -lt 10 ] && grep -qF "check: VT_KMSG_DEV=$f is not" "$work/o" && nothing_made "$work/k"' \
		"VT_KMSG_DEV=$f: exit 2 at once naming it, nothing made (exit $rc, ${took}s)"
	[ $rc = 2 ] || sed 's/^/# /' "$work/o" | head -n 3
done

start=$SECONDS
timeout -s KILL 10 "$top/runner/vfsidmap-tool" kmsg-cut --probe "never written" </dev/zero >"$work/z" 2>&1
zrc=$?
check_ '[ $zrc = 2 ] && grep -q "no kernel log record" "$work/z"' \
	"kmsg-cut on /dev/zero stops by itself: not a kernel log record (exit $zrc, $((SECONDS - start))s)"

printf '# nothing of this run matches\nvfsidmap-unit-kmsg-input never printed\n' >"$work/noise"
VT_DMESG_NOISE=$work/noise VT_KMSG_DEV=/dev/kmsg timeout 60 ./check --fs tmpfs --results "$work/g" api/001 >"$work/o" 2>&1
rc=$?
check_ '[ $rc = 0 ] && [ -f "$work/g/tmpfs/api/001.dmesg" ] && ! grep -q "KERNEL LOG" "$work/o"' \
	"a noise file and VT_KMSG_DEV=/dev/kmsg: the run checks the log and passes (exit $rc)"
