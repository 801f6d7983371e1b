#!/bin/bash
# What a run records about itself, and what a partial run must not
# record: a --case or --shard run leaves check.time alone (only a run of
# every case of a test is its time); its rule coverage is one short line,
# not every rule as a gap; -v shows the matrix's whole mismatch block
# (head, world, model, replay line); check.log's "command:" line and
# result.xml's "command" property carry the environment that made the run
# (VT_MODEL_BREAK here). Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
echo "1..7"
unit_workdir records
unset VT_MODEL_BREAK VT_ALLOW_SYSCTL RESULT_BASE VT_SAMPLE_WITHOUT VT_SAMPLE_WITHOUT_MUTANT VT_SAMPLE_COMPUTE TEST_TIMEOUT
cd "$top" || exit 1
r=$work/r

# a full run of a test records its time (the control)
./check --fs tmpfs --results "$r" api/001 >"$work/full.out" 2>&1
rc=$?
check_ '[ $rc -eq 0 ] && grep -q "^api/001 [0-9]*$" "$r/check.time"' \
	"a full run of api/001 records its time in check.time (exit $rc)"

# one case and one shard of matrix/002, both passing, into the same results
id=$(./check --list-cases matrix/002 | sed -n 1p)
./check --fs tmpfs --results "$r" --case "$id" >"$work/case.out" 2>&1
rc1=$?
./check --fs tmpfs --results "$r" --shard 1/50 matrix/002 >"$work/shard.out" 2>&1
rc2=$?
times=$(cat "$r/check.time" "$r/tmpfs/check.time" 2>/dev/null | tr '\n' ' ')
check_ '[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && ! grep -q "^matrix/002 " "$r/check.time" "$r/tmpfs/check.time" && grep -q "^api/001 " "$r/check.time"' \
	"a --case and a --shard run of matrix/002 record no time for it (exit $rc1, $rc2; check.time: $times)"

covline() { grep '^Rule coverage on ' "$1"; }
c1=$(covline "$work/case.out") c2=$(covline "$work/shard.out")
check_ '[ -n "$c1" ] && [ ${#c1} -lt 300 ] && [ ${#c2} -lt 300 ] && [[ "$c1" != *gap* ]] && [[ "$c2" != *gap* ]] && [[ "$c1" == *"whole runs"* ]]' \
	"a partial run's rule coverage is one short line saying it is for whole runs (${#c1} and ${#c2} characters: ${c1:0:200})"

# a failing shard with -v, the model broken on purpose
VT_MODEL_BREAK=chown-skip-mount-translation ./check -v --fs tmpfs --shard 1/200 --results "$work/f" matrix/002 >"$work/f.out" 2>&1
rc=$?
head=$(grep -c '^    # MISMATCH ' "$work/f.out")
check_ '[ $rc -eq 1 ] && [ "$head" -ge 1 ] && grep -q "^    #   model: " "$work/f.out" && grep -q "^    #   fs tmpfs, mount idmap " "$work/f.out"' \
	"-v shows the matrix's mismatch block: its head, world and model lines (exit $rc, $head heads)"
plain=$(VT_MODEL_BREAK=chown-skip-mount-translation ./check --fs tmpfs --shard 1/200 --results "$work/g" matrix/002 2>&1 | grep -c '^    #   model: ')
check_ '[ "$plain" -eq 0 ]' "without -v the block is left out (the first lines only)"

cmd=$(sed -n 's/^command: //p' "$work/f/check.log")
# (VT_RUN_BASE of unit_workdir is there too: it is in the list)
check_ '[[ "$cmd" == VT_MODEL_BREAK=chown-skip-mount-translation\ *"./check -v --fs tmpfs --shard 1/200 --results $work/f matrix/002" ]]' \
	"check.log's command line carries the environment that made the run (${cmd})"
check_ 'grep -q "<property name=\"command\" value=\"VT_MODEL_BREAK=chown-skip-mount-translation .*./check -v " "$work/f/result.xml"' \
	"result.xml's command property carries it too"
