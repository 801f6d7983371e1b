#!/bin/bash
# Replay: ids that --list-cases prints, taken from every
# suite (several matrix families, the sample, the sysctl family, api,
# idmapped, regress, and the vfat forms as --fs vfat lists them), each run
# with ./check --case, must run exactly that one case; ids that do not
# exist, or --case with other tests, are refused (exit 2) before anything
# is made; and the replay lines that real failures print (matrix
# mismatches forced by VT_MODEL_BREAK, a run from a local.config section,
# a hand-written test's failure) are copied and run as printed, through
# bash -c, and must run that one case again with the same outcome.
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
echo "1..11"
unit_workdir replay
unset VT_MODEL_BREAK VT_ALLOW_SYSCTL RESULT_BASE
cd "$top" || exit 1

# The results of one --case run: did it run exactly case ID of its test
# (plan 1..1, one result line naming it)? Sets WHY when not.
ran_exactly() { # results-dir id fs
	local res=$1 id=$2 fs=$3 test case ktap
	test=$(echo "$id" | cut -d/ -f1-2)
	case=${id#"$test"/}
	ktap=$res/$fs/$test.ktap
	WHY=""
	[ -f "$ktap" ] || { WHY="no $ktap"; return 1; }
	[ "$(sed -n 2p "$ktap")" = "1..1" ] || { WHY="plan $(sed -n 2p "$ktap")"; return 1; }
	[ "$(grep -cE '^(not )?ok [0-9]+ ' "$ktap")" = 1 ] || { WHY="not one result"; return 1; }
	local got
	got=$(grep -E '^(not )?ok 1 ' "$ktap" | sed -e 's/^\(not \)\{0,1\}ok 1 //' -e 's/ # SKIP .*//')
	[ "$got" = "$case" ] || { WHY="the result is not $case: $got"; return 1; }
}

# --- a sample of listed ids, run on tmpfs: the first and the last of each
# (each is a whole ./check run: a few seconds, minutes on a loaded machine)
pick() { awk '{ l[NR] = $0 } END { print l[1]; print l[NR] }' | sort -u; }
ids=()
for t in matrix/002 matrix/007 matrix/011 matrix/012 api/001 api/008 idmapped/001 idmapped/004 regress/005 regress/011; do
	mapfile -t -O ${#ids[@]} ids < <(./check --list-cases "$t" | pick)
done
bad=""
for id in "${ids[@]}"; do
	rm -rf "$work/r"
	./check --case "$id" --fs tmpfs --results "$work/r" >"$work/o" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || ! ran_exactly "$work/r" "$id" tmpfs; then
		bad+=" [$id: exit $rc ${WHY:-}]"
	fi
done
check_ '[ ${#ids[@]} -ge 18 ] && [ -z "$bad" ]' \
	"${#ids[@]} listed ids of matrix/002,007,011,012, api, idmapped, regress each run exactly their case on tmpfs${bad:+:$bad}"

# --- the vfat forms: listed with --fs vfat, accepted there (run, or notrun
# with the reason when this kernel has no vfat), refused elsewhere
vids=()
for t in matrix/002 matrix/007 matrix/011; do
	mapfile -t -O ${#vids[@]} vids < <(./check --list-cases --fs vfat "$t" | pick)
done
bad=""
for id in "${vids[@]}"; do
	rm -rf "$work/r"
	./check --case "$id" --fs vfat --results "$work/r" >"$work/o" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		bad+=" [$id: exit $rc]"
	elif ! ran_exactly "$work/r" "$id" vfat && ! grep -q '\[not run\] kernel .* has no vfat' "$work/o"; then
		bad+=" [$id: ${WHY:-}]"
	fi
done
vfat_note=$(grep -q 'has no vfat' "$work/o" && echo "notrun here: no vfat in this kernel" || echo "run on vfat")
check_ '[ ${#vids[@]} -ge 6 ] && [ -z "$bad" ]' \
	"${#vids[@]} vfat ids as --list-cases --fs vfat prints them are accepted with --fs vfat ($vfat_note)${bad:+:$bad}"
./check --case "${vids[0]}" --fs tmpfs --results "$work/r2" >"$work/o" 2>&1
rc=$?
check_ '[ $rc -eq 2 ] && grep -q "no such case" "$work/o" && [ ! -e "$work/r2" ]' \
	"a vfat form with --fs tmpfs: no such case, exit $rc, no results"

# --- refused before anything is made
./check --case matrix/002/chown/no-such-case --fs ext4 --results "$work/r3" >"$work/o" 2>&1
rc=$?
made=$(find "$work/runs" -mindepth 1 | head -n 3 | tr '\n' ' ')
check_ '[ $rc -eq 2 ] && grep -q "no such case .matrix/002/chown/no-such-case." "$work/o" && [ ! -e "$work/r3" ] && [ -z "$made" ]' \
	"an id the test does not list: 'no such case', exit $rc, no image, run directory or results${made:+ (made: $made)}"
./check --case "${ids[0]}" api/001 --fs tmpfs >"$work/o" 2>&1
rc1=$?
./check --case "${ids[0]}" -g quick --fs tmpfs >"$work/o2" 2>&1
rc2=$?
check_ '[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && grep -q "one case alone" "$work/o" && grep -q "one case alone" "$work/o2"' \
	"--case with a test name or -g: refused, exit $rc1 and $rc2"

# --- replay lines of real failures, run as printed
# The first replay line of a run's terminal output, and what it names.
first_line() { sed -n 's/^ *#  *reproduce: //p' "$1" | head -n 1; }
line_id() { sed -n 's/.* --case \([^ ]*\) .*/\1/p' <<<"$1"; }

# (a) a matrix mismatch: a wrong chown rule (VT_MODEL_BREAK) in the model
VT_MODEL_BREAK=chown-skip-mount-translation ./check --fs tmpfs --shard 1/200 --results "$work/a" matrix/002 >"$work/a.out" 2>&1
line=$(first_line "$work/a.out")
id=$(line_id "$line")
echo "# printed: $line"
rm -rf "$work/ra"
WHY=""
(cd "$top" && RESULT_BASE=$work/ra bash -c "$line") >"$work/ra.out" 2>&1
rc=$?
check_ '[ -n "$id" ] && [ $rc -eq 1 ] && ran_exactly "$work/ra" "$id" tmpfs && grep -q "^not ok 1 " "$work/ra/tmpfs/matrix/002.ktap"' \
	"a matrix mismatch's replay line, run as printed, fails that one case again (exit $rc${WHY:+, $WHY})"
case $line in VT_MODEL_BREAK=chown-skip-mount-translation\ *) envok=0 ;; *) envok=1 ;; esac
rm -rf "$work/rb"
(cd "$top" && RESULT_BASE=$work/rb bash -c "${line#VT_MODEL_BREAK=* }") >/dev/null 2>&1
rc=$?
check_ '[ $envok -eq 0 ] && [ $rc -eq 0 ] && ran_exactly "$work/rb" "$id" tmpfs' \
	"the line carries VT_MODEL_BREAK: without it the same case passes (the model's rule is the kernel's; exit $rc)"

# (b) from a local.config section, check called from elsewhere: the line
# names the config and section and calls check by its full path
printf '[one]\nFSTYP=tmpfs\n\n[two]\nFSTYP=tmpfs\n' >"$work/local.config"
(cd "$work" && VT_MODEL_BREAK=from-vfsuid-nop "$top/check" -c local.config -s two --shard 1/10 --results "$work/b" matrix/011) >"$work/b.out" 2>&1
line=$(first_line "$work/b.out")
id=$(line_id "$line")
echo "# printed: $line"
rm -rf "$work/rc"
WHY=""
(cd / && RESULT_BASE=$work/rc bash -c "$line") >"$work/rc.out" 2>&1
rc=$?
check_ '[[ "$line" == *" -c $work/local.config -s two --fs tmpfs"* ]] && [[ "$line" == *"$top/check --case "* ]] && [ $rc -eq 1 ] && ran_exactly "$work/rc" "$id" two && grep -q "^SECTION *-- two" "$work/rc.out"' \
	"a config run's replay line names -c CONFIG -s SECTION and check's path; run as printed from / it replays that case in that section (exit $rc${WHY:+, $WHY})"

# (c) a hand-written test's failure (selftest/004 fails a case on purpose)
./check --fs tmpfs --results "$work/c" selftest/004 >"$work/c.out" 2>&1
line=$(first_line "$work/c.out")
echo "# printed: $line"
rm -rf "$work/rd"
WHY=""
(cd "$top" && RESULT_BASE=$work/rd bash -c "$line") >"$work/rd.out" 2>&1
rc=$?
check_ '[ "$(line_id "$line")" = selftest/004/fails-on-purpose ] && [ $rc -eq 1 ] && ran_exactly "$work/rd" selftest/004/fails-on-purpose tmpfs' \
	"a hand-written test's replay line (test library), run as printed, runs that one case again (exit $rc${WHY:+, $WHY})"

# --- --list-cases --fs lists each filesystem's forms
n_plain=$(./check --list-cases matrix/002 | wc -l)
n_vfat=$(./check --list-cases --fs vfat matrix/002 | wc -l)
n_both=$(./check --list-cases --fs tmpfs,vfat matrix/002 | wc -l)
check_ '[ "$n_both" -eq $((n_plain + n_vfat)) ] && [ "$n_vfat" -gt 0 ]' \
	"--list-cases --fs tmpfs,vfat lists both forms once each ($n_plain + $n_vfat = $n_both)"

left=$(find "$work/runs" "$work/tmp" -mindepth 1 -maxdepth 1 | tr '\n' ' ')
left+=$(findmnt -rn -o TARGET | grep -F "$work" | tr '\n' ' ')
check_ '[ -z "$left" ]' "nothing left behind${left:+ (left: $left)}"
