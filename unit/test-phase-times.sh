#!/bin/bash
# run/phase-times: the sums it prints come from the kernel timestamps of
# check's marker lines (common/kmsg.sh), on a log written here by hand:
# two tests of section ext4 with every phase line, one of tmpfs without
# phase lines (only start/end), and a check.log giving the executor's ms.
# Also: a log without marker lines is an error (exit 1), a missing file
# a usage error (exit 2).
set -u
. "$(dirname "$0")/tap.sh"
echo "1..5"
unit_workdir phase-times
pt=$src/run/phase-times
cat >"$work/dmesg.log" <<'LOG'
[    1.000000] vfsidmap: phase ext4 - section
[    3.000000] vfsidmap: phase ext4 - prepare
[    3.500000] vfsidmap: run ext4 api/001 1-2 start
[    4.500000] vfsidmap: run ext4 api/001 1-2 end
[    4.800000] vfsidmap: phase ext4 api/001 kmsg
[    5.000000] vfsidmap: phase ext4 api/001 fsck
[    5.100000] vfsidmap: phase ext4 api/001 files
[    5.400000] vfsidmap: phase ext4 api/001 report
[    5.500000] loop0: some kernel line in between
[    6.000000] vfsidmap: run ext4 api/002 1-3 start
[    8.000000] vfsidmap: run ext4 api/002 1-3 end
[    8.300000] vfsidmap: phase ext4 api/002 kmsg
[    8.300000] vfsidmap: phase ext4 api/002 fsck
[    8.400000] vfsidmap: phase ext4 api/002 files
[    8.600000] vfsidmap: phase ext4 api/002 report
[    9.000000] vfsidmap: phase ext4 - coverage
[   10.000000] vfsidmap: run tmpfs api/001 2-4 start
[   10.700000] vfsidmap: run tmpfs api/001 2-4 end
[   11.000000] vfsidmap: run tmpfs api/002 2-5 start
[   11.500000] vfsidmap: run tmpfs api/002 2-5 end
LOG
cat >"$work/check.log" <<'LOG'
SECTION ext4 FSTYP=ext4
api/001 pass 0s (800ms)
api/002 pass 1s (1500ms)
SECTION tmpfs FSTYP=tmpfs
api/001 pass 0s (600ms)
api/002 pass 0s (400ms)
LOG
"$pt" "$work/dmesg.log" >"$work/a.out" 2>&1; ra=$?
"$pt" "$work/dmesg.log" "$work/check.log" >"$work/b.out" 2>&1; rb=$?
# columns: section tests span, then the phases in the order first seen
col() { awk -v s="$2" -v c="$3" '$1 == s { print $c }' "$1"; }
hdr=$(head -n 1 "$work/a.out")
check_ '[ $ra = 0 ] && [ "$hdr" = "$(printf "%-8s %5s %8s" section tests span)$(printf " %10s" prepare before test kmsg fsck files report coverage)" ] &&
	[ "$(col "$work/a.out" ext4 2)" = 2 ] && [ "$(col "$work/a.out" ext4 3)" = 8.0s ] &&
	[ "$(col "$work/a.out" ext4 4)" = 2.0s ] && [ "$(col "$work/a.out" ext4 5)" = 1.1s ] &&
	[ "$(col "$work/a.out" ext4 6)" = 3.0s ] && [ "$(col "$work/a.out" ext4 7)" = 0.6s ] &&
	[ "$(col "$work/a.out" ext4 8)" = 0.2s ] && [ "$(col "$work/a.out" ext4 9)" = 0.2s ] &&
	[ "$(col "$work/a.out" ext4 10)" = 0.5s ] && [ "$(col "$work/a.out" ext4 11)" = 0.4s ]' \
	"ext4: prepare 2.0, before 0.5+0.6 (from the last phase line to the start marker), test 1.0+2.0, kmsg 0.3+0.3, fsck 0.2+0, files 0.1+0.1, report 0.3+0.2, coverage 0.4"
[ $ra = 0 ] || sed 's/^/# /' "$work/a.out"
check_ '[ "$(col "$work/a.out" tmpfs 2)" = 2 ] && [ "$(col "$work/a.out" tmpfs 3)" = 1.5s ] &&
	[ "$(col "$work/a.out" tmpfs 5)" = 0.3s ] && [ "$(col "$work/a.out" tmpfs 6)" = 1.2s ] &&
	[ "$(col "$work/a.out" all 2)" = 4 ] && [ "$(col "$work/a.out" all 6)" = 4.2s ]' \
	"tmpfs without phase lines: test 0.7+0.5, before 0.3 (end to the next start); the all line sums both"
check_ '[ $rb = 0 ] && [ "$(col "$work/b.out" ext4 6)" = 2.3s ] && [ "$(col "$work/b.out" ext4 7)" = 0.7s ] &&
	[ "$(col "$work/b.out" tmpfs 6)" = 1.0s ] && [ "$(col "$work/b.out" tmpfs 7)" = 0.2s ]' \
	"with check.log the test splits into executor (its ms) and test-files (the rest): ext4 2.3 and 0.7, tmpfs 1.0 and 0.2"
[ $rb = 0 ] || sed 's/^/# /' "$work/b.out"
# the executor's own lines (runner/vfsidmap-exec.c) split its part of a
# test, found by the tag of the start marker; check.log's ms is not used then
cat >"$work/exec.log" <<'LOG'
[   20.000000] vfsidmap: run xfs api/001 7-1 start
[   20.400000] vfsidmap: exec 7-1 setup
[   21.400000] vfsidmap: exec 7-1 test
[   21.700000] vfsidmap: exec 7-1 teardown
[   21.800000] vfsidmap: run xfs api/001 7-1 end
[   22.000000] vfsidmap: run xfs api/002 7-2 start
[   22.500000] vfsidmap: run xfs api/002 7-2 end
LOG
printf 'SECTION xfs FSTYP=xfs\napi/001 pass 1s (1700ms)\napi/002 pass 0s (400ms)\n' >"$work/exec-check.log"
"$pt" "$work/exec.log" "$work/exec-check.log" >"$work/e.out" 2>&1; re=$?
ehdr=$(head -n 1 "$work/e.out")
check_ '[ $re = 0 ] && [ "$ehdr" = "$(printf "%-8s %5s %8s" section tests span)$(printf " %10s" exec-setup exec-test exec-teardown test-files before executor)" ] &&
	[ "$(col "$work/e.out" xfs 4)" = 0.4s ] && [ "$(col "$work/e.out" xfs 5)" = 1.0s ] && [ "$(col "$work/e.out" xfs 6)" = 0.3s ] &&
	[ "$(col "$work/e.out" xfs 7)" = 0.2s ] && [ "$(col "$work/e.out" xfs 8)" = 0.2s ] && [ "$(col "$work/e.out" xfs 9)" = 0.4s ]' \
	"exec lines: exec-setup 0.4, exec-test 1.0, exec-teardown 0.3, test-files 0.1+0.1 (api/002: its ms 0.4 as executor), before 0.2"
[ $re = 0 ] || sed 's/^/# /' "$work/e.out"
echo '[    1.0] nothing of ours' >"$work/none.log"
"$pt" "$work/none.log" >/dev/null 2>&1; rn=$?
"$pt" "$work/missing.log" >/dev/null 2>&1; rm=$?
check_ '[ $rn = 1 ] && [ $rm = 2 ]' "no marker lines: exit 1 ($rn); no such file: exit 2 ($rm)"
