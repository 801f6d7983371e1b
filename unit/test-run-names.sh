#!/bin/bash
# The name of a run (results directory RESULTS/NAME, JUnit and KTAP ids,
# image RUNDIR/NAME.img) is one run's only. A local.config section without
# FSTYP makes names of its own, SECTION-FS: beside a section literally
# named [SECTION-FS] two runs had one name (duplicate JUnit ids, one set of
# result files, with -j 2 one image). Refused, naming both sections:
#  1:   [a] (no FSTYP) and [a-tmpfs] with --fs tmpfs: exit 2 naming the
#       name and both sections, nothing made (no results, no run directory)
#  2:   the same with the sections taken the other way round (-s a-tmpfs
#       -s a), with -j 2
#  3:   a dry run (-n) is refused as well: it would list the name twice
#  4:   -s a -s a (one section twice, under one name): exit 2
#  5:   distinct names still run: [a] and [b-tmpfs], --fs tmpfs, -j 2,
#       results a-tmpfs/ and b-tmpfs/, each JUnit id once
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
echo "1..5"
unit_workdir run-names
unset TEST_TIMEOUT RESULT_BASE
cd "$top" || exit 1

run() { # check args...: stdout+stderr in $work/o, status in $rc
	timeout 120 ./check "$@" >"$work/o" 2>&1
	rc=$?
}
nothing_made() { # results dir
	[ ! -e "$1" ] && [ -z "$(ls -A "$work/runs")" ]
}

printf '[a]\n[a-tmpfs]\nFSTYP=tmpfs\n' >"$work/clash"
run -c "$work/clash" --fs tmpfs --results "$work/r1" api/001
check_ '[ $rc = 2 ] && grep -qF "two runs would be named '"'a-tmpfs'"': section [a] on tmpfs" "$work/o" && grep -qF "and section [a-tmpfs];" "$work/o" && nothing_made "$work/r1"' \
	"[a] without FSTYP beside [a-tmpfs]: exit 2 naming both, nothing made (exit $rc)"
[ $rc = 2 ] || sed 's/^/# /' "$work/o" | head -n 5

run -c "$work/clash" -s a-tmpfs -s a -j 2 --fs tmpfs --results "$work/r2" api/001
check_ '[ $rc = 2 ] && grep -qF "two runs would be named '"'a-tmpfs'"': section [a-tmpfs] and section [a] on tmpfs" "$work/o" && nothing_made "$work/r2"' \
	"the other way round (-s a-tmpfs -s a, -j 2): exit 2 naming both (exit $rc)"

run -n -c "$work/clash" --fs tmpfs api/001
check_ '[ $rc = 2 ] && ! grep -q "^SECTION" "$work/o"' "a dry run is refused too, nothing listed (exit $rc)"

run -c "$work/clash" -s a -s a --fs tmpfs --results "$work/r4" api/001
check_ '[ $rc = 2 ] && grep -qF -- "-s a is given twice" "$work/o" && nothing_made "$work/r4"' \
	"-s a -s a: exit 2, nothing made (exit $rc)"

printf '[a]\n[b-tmpfs]\nFSTYP=tmpfs\n' >"$work/fine"
run -c "$work/fine" -j 2 --fs tmpfs --results "$work/r5" api/001
# a JUnit id: classname and name
ids=$(grep -o '<testcase classname="[^"]*" name="[^"]*"' "$work/r5/result.xml" 2>/dev/null | sort)
dup=$(printf '%s\n' "$ids" | uniq -d)
check_ '[ $rc = 0 ] && [ -f "$work/r5/a-tmpfs/api/001.ktap" ] && [ -f "$work/r5/b-tmpfs/api/001.ktap" ] && [ "$(printf "%s\n" "$ids" | wc -l)" = 2 ] && [ -z "$dup" ]' \
	"distinct names run side by side, each with its results and JUnit id (exit $rc${dup:+, twice: $dup})"
