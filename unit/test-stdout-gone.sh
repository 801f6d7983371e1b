#!/bin/bash
# A run outlives its standard output: `./check ... | head -n 1` used to
# kill check with SIGPIPE at its next line, leaving the results directory
# with run.incomplete and nothing else. Now the terminal's lines are lost
# and nothing more:
#  1:   ./check --fs tmpfs api/001 --results R | head -n 1: check's exit
#       status is the run's (0), and R holds the complete results
#       (check.log, results.ktap, result.xml; no run.incomplete)
#  2:   the same with stderr into the pipe too (2>&1 | head -n 1)
#  3:   a failing run keeps its own status (1) through the pipe
#  4:   -j 2 with two sections: both sections' results
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
echo "1..4"
unit_workdir stdout-gone
unset TEST_TIMEOUT RESULT_BASE
cd "$top" || exit 1

complete() { # results dir, sections...
	local r=$1 s
	shift
	[ -f "$r/check.log" ] && [ -f "$r/result.xml" ] && [ ! -e "$r/run.incomplete" ] &&
		grep -q '</testsuite>' "$r/result.xml" && grep -q " passed, .* failed, .* skipped$" "$r/check.log" || return 1
	for s in "$@"; do
		grep -q "# Subtest: $s:" "$r/results.ktap" || return 1
	done
}

timeout 120 ./check --fs tmpfs api/001 --results "$work/r1" 2>"$work/e1" | head -n 1 >"$work/h1"
rc=${PIPESTATUS[0]}
check_ '[ $rc = 0 ] && [ "$(wc -l <"$work/h1")" = 1 ] && complete "$work/r1" tmpfs' \
	"| head -n 1: exit 0, the results complete (exit $rc)"
[ $rc = 0 ] || ls -A "$work/r1" | sed 's/^/# /'

timeout 120 ./check --fs tmpfs api/001 --results "$work/r2" 2>&1 | head -n 1 >"$work/h2"
rc=${PIPESTATUS[0]}
check_ '[ $rc = 0 ] && complete "$work/r2" tmpfs' "2>&1 | head -n 1: exit 0, the results complete (exit $rc)"

# selftest/002 hangs until -T: a failure
timeout 120 ./check --fs tmpfs -T 1 selftest/002 --results "$work/r3" 2>"$work/e3" | head -n 1 >"$work/h3"
rc=${PIPESTATUS[0]}
check_ '[ $rc = 1 ] && complete "$work/r3" tmpfs && grep -q "^selftest/002 fail" "$work/r3/check.log"' \
	"a failing run through the pipe: exit 1, its results complete (exit $rc)"

if command -v mkfs.ext4 >/dev/null || [ -x /sbin/mkfs.ext4 ]; then
	timeout 300 ./check --fs tmpfs,ext4 -j 2 api/001 --results "$work/r4" 2>"$work/e4" | head -n 1 >"$work/h4"
	rc=${PIPESTATUS[0]}
	check_ '[ $rc = 0 ] && complete "$work/r4" tmpfs ext4' "-j 2, two sections: exit 0, both sections' results (exit $rc)"
else
	skip "mkfs.ext4 is not installed"
fi
