#!/bin/bash
# Bad input that used to fail late (exit 1 after the tests ran, or only
# in the test that reads it) is exit 2 before anything is made (no
# results directory, no run directory, nothing left in TMPDIR):
#  1-2: --case with a newline (grep -F took it for two ids: the listed
#       half passed the check and the test ran the whole) or a tab
#  3-5: VT_SAMPLE_WITHOUT naming no rule, with the sample test and
#       without it; VT_SAMPLE_WITHOUT_MUTANT naming no mutant
#  6:   a rule that exists is accepted (dry run)
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
echo "1..6"
unit_workdir early-input
unset TEST_TIMEOUT RESULT_BASE VT_SAMPLE_WITHOUT VT_SAMPLE_WITHOUT_MUTANT VT_MODEL_BREAK
cd "$top" || exit 1
export PATH=$PATH:/sbin:/usr/sbin

run() { # check args...: stdout+stderr in $work/o, status in $rc
	timeout 300 ./check "$@" >"$work/o" 2>&1
	rc=$?
}
nothing_made() { # results dir
	[ ! -e "$1" ] && [ -z "$(ls -A "$work/runs")" ] && [ -z "$(ls -A "$work/tmp")" ]
}

# --- --case
run --fs tmpfs --case $'api/001/size-zero-einval\nsize-short-einval' --results "$work/c1"
check_ '[ $rc = 2 ] && grep -q "^check: --case wants suite/NNN/case, the case printable and without white space" "$work/o" && nothing_made "$work/c1"' \
	"--case with a newline: exit 2, nothing made (exit $rc)"
run --fs tmpfs --case $'api/001/size-zero-einval\t' --results "$work/c2"
check_ '[ $rc = 2 ] && grep -q "^check: --case wants" "$work/o" && nothing_made "$work/c2"' \
	"--case with a tab: exit 2, nothing made (exit $rc)"

# --- VT_SAMPLE_WITHOUT, VT_SAMPLE_WITHOUT_MUTANT
VT_SAMPLE_WITHOUT=garbage run --fs tmpfs --results "$work/s1" matrix/011
check_ '[ $rc = 2 ] && grep -qF "check: VT_SAMPLE_WITHOUT: no rule '"'garbage'"'" "$work/o" && nothing_made "$work/s1"' \
	"VT_SAMPLE_WITHOUT=garbage with the sample test: exit 2, nothing made (exit $rc)"
VT_SAMPLE_WITHOUT=garbage run --fs tmpfs --results "$work/s2" api/001
check_ '[ $rc = 2 ] && grep -qF "no rule '"'garbage'"'" "$work/o" && nothing_made "$work/s2"' \
	"VT_SAMPLE_WITHOUT=garbage without it: exit 2 as well (exit $rc)"
VT_SAMPLE_WITHOUT_MUTANT=no-such-mutant run --fs tmpfs --results "$work/s3" matrix/011
check_ '[ $rc = 2 ] && grep -qF "VT_SAMPLE_WITHOUT_MUTANT: no mutant '"'no-such-mutant'"'" "$work/o" && nothing_made "$work/s3"' \
	"VT_SAMPLE_WITHOUT_MUTANT=no-such-mutant: exit 2 (exit $rc)"
VT_SAMPLE_WITHOUT=check_sticky.victim-owner run -n --fs tmpfs matrix/011
check_ '[ $rc = 0 ] && grep -q "^  matrix/011" "$work/o"' "a rule that exists is taken (exit $rc)"
