#!/bin/bash
# SIGINT and SIGTERM at random instants of a multi-section run (tmpfs and
# an ext4 image, three tests, -j 1 and -j 2 in turn), as TAP: after every
# one, nothing appeared outside the run's own directories (/, the results'
# parent, VT_RUN_BASE), nothing leaked (run directory, staging, loop
# device, mount, process), and the run either marked its results
# incomplete (run.incomplete, KTAP "Bail out!", exit 130), or had written
# them all before the signal came and says so, or was killed before it
# started (nothing made). VT_SIGNAL_INSTANTS instants (default 1000),
# VT_SIGNAL_SEED for the draw (default: the time; printed, to replay).
# Needs root. Runs in a private mount namespace with its own VT_RUN_BASE.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
if [ -z "${VT_SIGNALS_PRIVATE:-}" ]; then
	VT_SIGNALS_PRIVATE=1 exec unshare -m --propagation private "$0" "$@"
fi
# a background job of a non-interactive shell ignores SIGINT without
# job control (bash(1), JOB CONTROL): check must get it as a user's would
set -m
cd "$top" || exit 1

count=${VT_SIGNAL_INSTANTS:-1000}
seed=${VT_SIGNAL_SEED:-$(date +%s)}
[[ "$count" =~ ^[1-9][0-9]*$ ]] && [[ "$seed" =~ ^[0-9]+$ ]] || { echo "Bail out! VT_SIGNAL_INSTANTS / VT_SIGNAL_SEED: whole numbers"; exit 1; }
echo "1..6"
echo "# $count instants, seed $seed (VT_SIGNAL_SEED=$seed to draw them again)"

T=$(mktemp -d /var/tmp/vfsidmap-signals.XXXXXX)
chmod 0755 "$T"   # test callers are not root: they must reach the mount point
trap 'rm -rf --one-file-system "$T"' EXIT
export VT_RUN_BASE="$T/base"
mkdir "$VT_RUN_BASE" "$T/res"

# What lies where nothing may appear: /, the results' parent (but the
# instant's own results directory), the run base (empty).
snapshot() { ls -A /; echo --; ls -A "$T/res" | grep -v '^r$'; echo --; ls -A "$VT_RUN_BASE"; }
ours_running() { pgrep -f "$T/" >/dev/null 2>&1; }
our_loops() { losetup -a 2>/dev/null | grep -F "$T/"; }
our_mounts() { grep -F "$T/" /proc/self/mountinfo; }
before=$(snapshot)

RANDOM=$seed
outside="" leaked="" unmarked="" bashfault="" wrongrc=""
marked=0 late=0 early=0
for ((k = 0; k < count; k++)); do
	sig=INT jobs=1
	((k % 2)) && sig=TERM
	((k / 2 % 2)) && jobs=2
	# an instant from 0 to 0.6 s: a run here takes 0.3-1 s, so some
	# signals come after it ended
	delay=$((RANDOM % 600))
	printf -v delay '%d.%03d' $((delay / 1000)) $((delay % 1000))
	r=$T/res/r
	# A job started with & in a script has SIGINT ignored (job control
	# off, POSIX): a SIGINT before check's supervisor takes its signals
	# would be ignored as it is by any program. From a terminal SIGINT is
	# at its default: start it so (env --default-signal, coreutils 8.31).
	env --default-signal=INT ./check -j $jobs --fs tmpfs,ext4 --results "$r" api/001 idmapped/001 idmapped/002 >"$T/out" 2>&1 &
	p=$!
	sleep "$delay"
	# the summary line is printed before publishing: a signal after it
	# may find nobody reading it any more
	summary=0
	grep -qE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$T/out" && summary=1
	kill -"$sig" "$p" 2>/dev/null
	{ wait "$p"; } 2>/dev/null; rc=$?
	what="instant $k (SIG$sig at ${delay}s, -j $jobs, exit $rc)"
	# nothing of the run may outlive it
	for _ in $(seq 50); do ours_running || [ -n "$(our_loops)$(our_mounts)" ] || break; sleep 0.1; done
	ours_running && leaked+="$what: a process of the run is left: $(pgrep -af "$T/" | head -n 2 | tr '\n' ' ')"$'\n'
	[ -z "$(our_loops)" ] || leaked+="$what: loop device left: $(our_loops | head -n 1)"$'\n'
	[ -z "$(our_mounts)" ] || leaked+="$what: mount left: $(our_mounts | head -n 1)"$'\n'
	now=$(snapshot)
	[ "$now" = "$before" ] || outside+="$what: appeared: $(diff <(echo "$before") <(echo "$now") | grep '^>' | head -n 3 | tr '\n' ' ')"$'\n'
	if grep -q 'unexpected EOF\|syntax error\|INTERNAL ERROR\|command not found' "$T/out"; then
		bashfault+="$what: $(grep -m 1 'unexpected EOF\|syntax error\|INTERNAL ERROR\|command not found' "$T/out")"$'\n'
	fi
	if grep -q '^Interrupted: ' "$T/out"; then
		marked=$((marked + 1))
		if ! grep -q "interrupted by SIG$sig" "$r/run.incomplete" 2>/dev/null || ! tail -n 1 "$r/results.ktap" | grep -q '^Bail out! run interrupted by SIG'; then
			unmarked+="$what: said interrupted, but run.incomplete and results.ktap do not say SIG$sig"$'\n'
		fi
		[ $rc = 130 ] || wrongrc+="$what: interrupted, exit $rc (not 130)"$'\n'
	elif grep -q "came after every result was written" "$T/out" || { [ $summary = 1 ] && grep -qE '^[0-9]+ passed, ' "$T/out"; }; then
		late=$((late + 1))
		[ ! -e "$r/run.incomplete" ] && [ -f "$r/result.xml" ] ||
			unmarked+="$what: the results were complete before the signal, but are not published whole"$'\n'
		[ $rc = 0 ] || wrongrc+="$what: complete, exit $rc"$'\n'
	elif [ ! -s "$T/out" ] && [ ! -e "$r" ]; then
		# killed before check handed its signals to the supervisor
		early=$((early + 1))
		[ $rc -gt 128 ] || wrongrc+="$what: nothing made, exit $rc"$'\n'
	else
		unmarked+="$what: the signal was lost: neither marked incomplete nor after the end: $(tail -n 2 "$T/out" | tr '\n' ' ')"$'\n'
	fi
	rm -rf --one-file-system "$r"
done
echo "# $marked marked incomplete, $late after every result was written, $early before check started"
check_ '[ -z "$outside" ]' "nothing appeared outside the run's and the results' directories at any of $count instants"
[ -z "$outside" ] || printf '%s' "$outside" | head -n 5 | sed 's/^/# /'
check_ '[ -z "$leaked" ]' "no process, loop device, mount or run directory left at any instant"
[ -z "$leaked" ] || printf '%s' "$leaked" | head -n 5 | sed 's/^/# /'
check_ '[ -z "$unmarked" ]' "every interrupted run is marked incomplete (run.incomplete, Bail out!); every complete one is published whole"
[ -z "$unmarked" ] || printf '%s' "$unmarked" | head -n 5 | sed 's/^/# /'
check_ '[ -z "$bashfault" ]' "no shell fault and no refused removal in check's output"
[ -z "$bashfault" ] || printf '%s' "$bashfault" | head -n 5 | sed 's/^/# /'
check_ '[ -z "$wrongrc" ]' "exit 130 when interrupted, 0 when complete"
[ -z "$wrongrc" ] || printf '%s' "$wrongrc" | head -n 5 | sed 's/^/# /'
check_ '[ $marked -gt 0 ] && [ $late -gt 0 ]' "the instants fell both inside runs and after them ($marked, $late)"

