#!/bin/bash
# TEST_TIMEOUT in the environment (./check -h: "per-test timeout in
# seconds (as -T)"):
#  1:   it is the per-test timeout: selftest/002 hangs on purpose and is
#       killed after TEST_TIMEOUT=3 seconds, not the default 1200
#  2-6: a value that is no number of seconds from 1 to 999999 (abc, -5,
#       0x, empty, 0) is exit 2 naming the value, before anything is made
#       (no results directory, no run directory)
#  7:   -T wins over it (-T 2, TEST_TIMEOUT=100: killed after 2 s)
#  8:   it wins over TEST_TIMEOUT of the local.config section
#  9:   without it, the section's TEST_TIMEOUT counts
# A hang these runs failed to stop is stopped after 60 s (timeout), so a
# broken timeout fails here instead of holding make check for 20 minutes.
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
echo "1..9"
unit_workdir timeout-env
unset TEST_TIMEOUT RESULT_BASE
cd "$top" || exit 1

# ./check with a guard: stdout+stderr in $work/o, status in $rc, seconds in $took
run() { # env-assignment-or-empty, check args...
	local e=$1 start
	shift
	start=$SECONDS
	if [ -n "$e" ]; then
		env "$e" timeout 60 ./check "$@" >"$work/o" 2>&1
	else
		timeout 60 ./check "$@" >"$work/o" 2>&1
	fi
	rc=$?
	took=$((SECONDS - start))
}
nothing_made() { # results dir
	[ ! -e "$1" ] && [ -z "$(ls -A "$work/runs")" ]
}

run TEST_TIMEOUT=3 --fs tmpfs --results "$work/r1" selftest/002
check_ '[ $rc = 1 ] && [ $took -lt 30 ] && grep -q "selftest/002 .*timeout: killed after 3s" "$work/o"' \
	"TEST_TIMEOUT=3: the hanging test is killed after 3 s (exit $rc, ${took}s)"

for v in abc -5 0x "" 0; do
	run "TEST_TIMEOUT=$v" --fs tmpfs --results "$work/bad" api/001
	check_ '[ $rc = 2 ] && grep -qF "TEST_TIMEOUT (environment) wants a whole number of seconds from 1 to 999999, got '"'$v'"'" "$work/o" && nothing_made "$work/bad"' \
		"TEST_TIMEOUT='$v': exit 2 naming it, nothing made (exit $rc)"
done

run TEST_TIMEOUT=100 -T 2 --fs tmpfs --results "$work/r2" selftest/002
check_ '[ $rc = 1 ] && grep -q "selftest/002 .*timeout: killed after 2s" "$work/o"' \
	"-T 2 wins over TEST_TIMEOUT=100 (exit $rc, ${took}s)"

printf '[t]\nFSTYP=tmpfs\nTEST_TIMEOUT=100\n' >"$work/c100"
run TEST_TIMEOUT=3 -c "$work/c100" --results "$work/r3" selftest/002
check_ '[ $rc = 1 ] && grep -q "selftest/002 .*timeout: killed after 3s" "$work/o"' \
	"TEST_TIMEOUT=3 wins over the section's TEST_TIMEOUT=100 (exit $rc, ${took}s)"

printf '[t]\nFSTYP=tmpfs\nTEST_TIMEOUT=2\n' >"$work/c2"
run "" -c "$work/c2" --results "$work/r4" selftest/002
check_ '[ $rc = 1 ] && grep -q "selftest/002 .*timeout: killed after 2s" "$work/o"' \
	"without it the section's TEST_TIMEOUT=2 counts (exit $rc, ${took}s)"
