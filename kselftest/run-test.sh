#!/bin/bash
# run-test.sh SUITE/NNN: one vfsidmap test as a kselftest. Every executable
# of the vfsidmap collection (idmapped_001, ...) is a two-line wrapper that
# calls this with its test; kselftest runs those with no arguments, from
# their directory, and knows nothing of ./check, FSTYP or local.config.
#
# It runs the installed suite's ./check (suite/, next to this file) for that
# one test, on tmpfs unless VFSIDMAP_FSTYP says otherwise, with results in
# a temporary directory, and prints check's results.ktap (a KTAP document:
# one result per filesystem, the test's own KTAP nested under it) with
# check's terminal lines as "# " diagnostics after the plan. Exit status:
# 0 passed, 1 failed, 4 skipped (every result a SKIP: not run), 2 bad input.
#
# Environment (all optional):
#   VFSIDMAP_FSTYP         filesystems, as ./check --fs (default tmpfs)
#   VFSIDMAP_TEST_TIMEOUT  ./check -T; default: the runner's exported
#                          kselftest_timeout less a tenth and 10 s for
#                          check's setup, so check's own timeout (which
#                          names the test and tears the world down) fires first
#   VFSIDMAP_RESULTS       keep check's results there instead of removing them
#   VFSIDMAP_CHECK_OPTS    more ./check options (e.g. "-E my-expunges")
#   VFSIDMAP_ALL=1         also run tests outside group auto (the harness's
#                          selftest group, which misbehaves on purpose)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
suite=$here/suite
me=run-test.sh

bad() { echo "$me: $*" >&2; exit 2; }
is_seconds() { [[ $1 =~ ^[1-9][0-9]{0,5}$ ]]; }

[ $# -eq 1 ] || bad "usage: $me SUITE/NNN (one test, named as ./check names it)"
test=$1
[[ $test =~ ^[a-z]+/[0-9]{3}$ ]] || bad "'$test' is not a test name (want SUITE/NNN, e.g. idmapped/001)"
[ -x "$suite/check" ] || bad "no installed suite at $suite (make kselftest-install writes it)"
groups=$(awk -v n="${test#*/}" '$1 == n { $1 = ""; print; found = 1 } END { exit !found }' \
	"$suite/tests/${test%/*}/group.list" 2>/dev/null) \
	|| bad "no test $test in $suite/tests/${test%/*}/group.list"

fs=${VFSIDMAP_FSTYP:-tmpfs}
T=${VFSIDMAP_TEST_TIMEOUT:-}
if [ -n "$T" ]; then
	is_seconds "$T" || bad "VFSIDMAP_TEST_TIMEOUT wants a whole number of seconds, got '$T'"
elif [ -n "${kselftest_timeout:-}" ]; then
	is_seconds "$kselftest_timeout" || bad "kselftest_timeout wants a whole number of seconds, got '$kselftest_timeout'"
	T=$((kselftest_timeout - kselftest_timeout / 10 - 10))
	[ "$T" -ge 1 ] || T=1
fi
read -r -a extra <<<"${VFSIDMAP_CHECK_OPTS:-}"

if [[ " $groups " != *" auto "* ]] && [ "${VFSIDMAP_ALL:-0}" != 1 ]; then
	echo "KTAP version 1"
	echo "1..0 # SKIP $test is not in group auto (groups:$groups); VFSIDMAP_ALL=1 runs it"
	exit 4
fi

# check's terminal output goes next to its results directory, not into it:
# check takes only a new, an empty or its own results directory
work=$(mktemp -d "${TMPDIR:-/tmp}/vfsidmap-ksft.XXXXXX") || bad "mktemp failed"
trap 'rm -rf -- "$work"' EXIT
out=$work/check.out
if [ -n "${VFSIDMAP_RESULTS:-}" ]; then
	res=$VFSIDMAP_RESULTS
	mkdir -p "$res" || bad "cannot create VFSIDMAP_RESULTS=$res"
	# (kept there with the results once check is done)
	trap 'cp -- "$out" "$res/check.out" 2>/dev/null; rm -rf -- "$work"' EXIT
	# a results.ktap there now is an earlier run's, never this one's
	rm -f "$res/results.ktap"
else
	res=$work/results
fi

# Each kselftest KTAP document is whole: a caller's KSFT_TAP_LEVEL would make
# test programs built against kselftest.h leave out their version line.
unset KSFT_TAP_LEVEL
"$suite/check" --results "$res" --fs "$fs" ${T:+-T "$T"} "${extra[@]}" "$test" >"$out" 2>&1 &
pid=$!
stopped=""
trap 'stopped=1; kill -TERM "$pid" 2>/dev/null' TERM INT HUP
wait "$pid"
rc=$?
# A signal interrupts wait: wait for check itself (it cleans up on SIGTERM).
while kill -0 "$pid" 2>/dev/null; do wait "$pid"; rc=$?; done

diagnostics() { tr -d '\r' <"$out" | awk 'NF { print "# check: " $0 }'; }
# After a failure: the failed runs' stderr (their KTAP is above), and where
# the files check names went.
failure_details() {
	local full
	for full in "$res"/*/"${test%/*}/${test#*/}.full"; do
		[ -f "$full" ] || continue
		sed -n '/^== stderr$/,$p' "$full" | tr -d '\r' | awk -v f="${full#"$res"/}" \
			'NR == 1 { print "# " f ": stderr:"; next } NF { print "#   " $0 }'
	done
	[ -n "${VFSIDMAP_RESULTS:-}" ] \
		|| echo "# check's results were in a temporary directory, now removed: VFSIDMAP_RESULTS=DIR keeps them"
}

ktap=$res/results.ktap
plan=$(sed -n '2s/^1\.\.\([0-9][0-9]*\)$/\1/p' "$ktap" 2>/dev/null)
nres=$(grep -cE '^(not )?ok [0-9]+ ' "$ktap" 2>/dev/null)
if [ -n "$plan" ] && [ "$plan" -gt 0 ] && [ "${nres:-0}" -eq "$plan" ]; then
	head -n 2 "$ktap"
	diagnostics
	tail -n +3 "$ktap"
	nfail=$(grep -c '^not ok ' "$ktap")
	nskip=$(grep -cE '^ok [0-9]+ .* # SKIP' "$ktap")
	[ "$rc" -eq 0 ] || [ "$nfail" -gt 0 ] || echo "# check exited $rc"
	if [ "$nfail" -gt 0 ] || [ "$rc" -ne 0 ]; then
		failure_details
		exit 1
	fi
	if [ "$nskip" -eq "$plan" ]; then exit 4; fi
	exit 0
fi

# No whole results.ktap: check refused its input, died or was stopped.
if [ -n "$stopped" ]; then why="stopped by a signal"
elif [ "$rc" -eq 2 ]; then why="bad input (check exit 2)"
else why="check exited $rc without a whole results.ktap"; fi
echo "KTAP version 1"
echo "1..1"
diagnostics
echo "not ok 1 vfsidmap:$test # $why"
[ "$rc" -eq 2 ] && [ -z "$stopped" ] && exit 2
exit 1
