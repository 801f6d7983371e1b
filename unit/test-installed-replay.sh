#!/bin/bash
# The installed command's replay lines: a failure of a run through
# vfsidmap-check (make install under a prefix) prints a line that calls
# vfsidmap-check again, not the install folder's check; the line, copied
# and run from another directory, replays that one case with its results
# in that directory's ./results, and nothing is written into the install
# folder. Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
echo "1..4"
unit_workdir instreplay
unset VT_MODEL_BREAK VT_ALLOW_SYSCTL RESULT_BASE
p=$work/prefix
$MAKE -s -C "$top" install prefix="$p" >"$work/install.log" 2>&1
rc=$?
mkdir "$work/one" "$work/two"
(cd "$work/one" && PATH="$p/bin:$PATH" VT_MODEL_BREAK=chown-skip-mount-translation \
	vfsidmap-check --fs tmpfs --shard 1/200 matrix/002) >"$work/one.out" 2>&1
rc1=$?
line=$(sed -n 's/^ *#  *reproduce: //p' "$work/one.out" | head -n 1)
id=$(sed -n 's/.* --case \([^ ]*\) .*/\1/p' <<<"$line")
echo "# printed: $line"
check_ '[ $rc -eq 0 ] && [ $rc1 -eq 1 ] && [[ "$line" == "VT_MODEL_BREAK=chown-skip-mount-translation vfsidmap-check --case "* ]]' \
	"a failure of vfsidmap-check prints a replay line calling vfsidmap-check (install exit $rc, run exit $rc1)"

(cd "$work/two" && PATH="$p/bin:$PATH" bash -c "$line") >"$work/two.out" 2>&1
rc2=$?
k=$work/two/results/tmpfs/matrix/002.ktap
check_ '[ $rc2 -eq 1 ] && [ -f "$k" ] && [ "$(sed -n 2p "$k")" = "1..1" ] && grep -q "^not ok 1 ${id#matrix/002/}\$" "$k"' \
	"the line run as printed from another directory fails that one case again, its results in that directory's ./results (exit $rc2)"
in_prefix=$(find "$p" \( -name results -o -name check.log -o -name check.time \) | tr '\n' ' ')
check_ '[ -z "$in_prefix" ]' "nothing is written into the install folder${in_prefix:+ (written: $in_prefix)}"

# called by its path (not on PATH): the line names that path
(cd "$work/one" && VT_MODEL_BREAK=chown-skip-mount-translation "$p/bin/vfsidmap-check" --fs tmpfs --shard 1/200 matrix/002) >"$work/p.out" 2>&1
line=$(sed -n 's/^ *#  *reproduce: //p' "$work/p.out" | head -n 1)
check_ '[[ "$line" == "VT_MODEL_BREAK=chown-skip-mount-translation $p/bin/vfsidmap-check --case "* ]]' \
	"called by its path, vfsidmap-check's replay line names that path (${line:0:160})"
