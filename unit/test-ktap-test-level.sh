#!/bin/bash
# A test that fails as a whole, not in a case, as the kernel's own KTAP
# parser reads results.ktap (tools/testing/kunit/kunit.py parse, which
# counts the leaves of the tree and never a parent's own result): for each
# kind the run's only failure is the test-level one, and kunit.py must
# count it as a failed leaf "test-level:TYPE" and exit non-zero, with
# nothing crashed (a nested plan with results missing) and no parse error.
# The kinds: a kernel warning in the kernel log (selftest/004's
# kernel-warning case), an fsck finding (an ext4 TEST_DEV whose root link
# count debugfs made wrong, as unit/test-kernel-checks.sh does), a leak
# (selftest/003), a timeout (selftest/002 hangs, -T 2) and a crash
# (selftest/001); then a case failure and a test-level one in one test,
# and -j 2 over two sections. For each, check's counts agree with
# kunit.py's ("Cases: P passed, F failed" and "Test-level failures: L":
# kunit.py's passed is P, its failed F + L), results.ktap is whole
# (unit/ktap-parse.awk: no nested plan without its results) and result.xml
# keeps one testcase with the failure's type. Last, vfsidmap-tool
# ktap-nest on made-up streams (a line cut off, a subtest left open, no
# plan, a SKIP plan, "#" in a reason) gives documents both parsers read
# whole. kunit.py as unit/kunit.sh finds it; without it the test skips.
# Needs root (check mounts, loop devices, /dev/kmsg); TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts, loop devices, /dev/kmsg"
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP no python3 for kunit.py"
	exit 0
fi
unit_workdir ktap-tl
. "$src/unit/kunit.sh"
if ! kunit_find; then
	echo "1..0 # SKIP no kernel source for kunit.py: set KSFT_KERNEL_SELFTESTS to a kernel tree's tools/testing/selftests, or install linux-source-X.Y"
	exit 0
fi
echo "1..16"
echo "# kunit.py: $kunit (from $kunit_from)"
unset VT_DMESG_NOISE
export PATH=$PATH:/sbin:/usr/sbin
cd "$top" || exit 1

# run KIND TYPE CHECK-ARGS...: ./check with CHECK-ARGS (results in
# $work/KIND), kunit.py parse on its results.ktap; sets rc krc, kunit.py's
# kp kf kc ks ke, check's cp cf cs and tl (its test-level failures).
run() {
	local kind=$1 type=$2
	shift 2
	r=$work/$kind
	./check --results "$r" "$@" >"$r.out" 2>&1
	rc=$?
	python3 "$kunit" parse "$r/results.ktap" >"$r.kunit" 2>&1
	krc=$?
	read -r kp kf kc ks ke <<<"$(kunit_counts "$r.kunit")"
	read -r cp cf cs <<<"$(sed -n 's/^Cases: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$r.out")"
	tl=$(sed -n 's/^Test-level failures: \([0-9]*\) .*/\1/p' "$r.out")
	tl=${tl:-0}
	awk -f "$src/unit/ktap-parse.awk" "$r/results.ktap" >"$r.parse" 2>&1
	arc=$?
	echo "# $kind: check exit $rc, cases $cp passed, $cf failed, $cs skipped, test-level $tl;" \
		"kunit.py exit $krc: $(grep -o 'Ran [0-9]* tests*:.*' "$r.kunit")"
	grep -E 'ERROR|CRASHED|FAILED|Traceback' "$r.kunit" | head -n 5 | sed 's/^/#   kunit.py: /'
}

# The checks of one test run that failed as a whole: kunit.py's failed
# leaf and exit status; the counts and the documents.
expect() { # kind type test
	local kind=$1 type=$2 test=$3 plan
	check_ '[ $rc -eq 1 ] && [ $krc -ne 0 ] && [ "${kf:-0}" -ge 1 ] && [ "$kc$ke" = 00 ] &&
		grep -q "\[FAILED\] test-level:$type\$" "$r.kunit"' \
		"$kind: kunit.py counts a failed leaf test-level:$type and exits non-zero, nothing crashed, no error (check exit $rc, kunit.py exit $krc: passed ${kp:-?} failed ${kf:-?} crashed ${kc:-?} errors ${ke:-?})"
	plan=$((cp + cf + cs + tl))
	check_ '[ "$tl" = 1 ] && [ "${cp:-x}" = "$kp" ] && [ "$kf" = $((cf + tl)) ] && [ $arc -eq 0 ] &&
		grep -q "^sub depth=1 result=not-ok plan=$plan pass=$cp fail=$((cf + tl)) skip=$cs name=$test\$" "$r.parse" &&
		grep -q "Test-level failures: 1\$" "$r/check.log" &&
		grep -q "tests=\"1\" failures=\"1\" errors=\"0\"" "$r/result.xml" && grep -q "<failure type=\"$type\"" "$r/result.xml"' \
		"$kind: check says $cp cases passed, $cf failed and $tl test-level failure, as kunit.py counts; results.ktap whole (ktap-parse.awk exit $arc, the nested plan $plan its results); result.xml one testcase failed ($type)"
	[ $arc -eq 0 ] || sed 's/^/#   /' "$r.parse" | head -n 3
}

skip2() { skip "$1"; skip "$1 (as above)"; }

# --- kernel log: the case passes, a WARNING line lands between the markers
run kernel-log kernel-log --fs tmpfs --case selftest/004/kernel-warning
if grep -q '^KERNEL LOG *-- not checked' "$r.out"; then
	skip2 "kernel-log: the kernel log is not readable here"
else
	expect kernel-log kernel-log tmpfs:selftest/004
fi

# --- fsck: the root directory's link count made wrong (3 links: ".", ".."
# and lost+found's ".."); e2fsck -fn's pass 4 finds it after the test
img=$work/ext4.img
if command -v mkfs.ext4 >/dev/null && command -v debugfs >/dev/null && runner/vfsidmap-tool fs-in-kernel ext4; then
	truncate -s 64M "$img"
	mkfs.ext4 -q -F "$img" >/dev/null 2>&1
	debugfs -w -R "sif <2> links_count 9" "$img" >/dev/null 2>&1
	printf '[dev]\nFSTYP=ext4\nTEST_DEV=%s\n' "$img" >"$work/local.config"
	run fsck fsck -c "$work/local.config" --case api/001/size-zero-einval
	expect fsck fsck dev:api/001
else
	skip2 "fsck: no ext4 in the kernel, or mkfs.ext4 or debugfs missing"
fi

# --- leak: selftest/003 says pass and leaves a mount and a loop device
run leak leak --fs tmpfs selftest/003
if grep -q 'cannot make an ext4 image here' "$r/tmpfs/selftest/003.ktap" 2>/dev/null; then
	skip2 "leak: selftest/003 cannot make its ext4 image here"
else
	expect leak leak tmpfs:selftest/003
fi

# --- timeout: selftest/002 planned one case and hangs; -T 2 kills it
run timeout timeout --fs tmpfs -T 2 selftest/002
expect timeout timeout tmpfs:selftest/002
check_ 'grep -q "^  not ok 1 test-level:timeout # TIMEOUT killed after 2s" "$r/results.ktap" && grep -q "^  # the test.s plan was \"1\.\.1\"; it reported 0 results$" "$r/results.ktap"' \
	"timeout: the leaf carries ktap.rst's TIMEOUT directive; the plan the test wrote is kept as a diagnostic line"

# --- crash: selftest/001 planned one case and dies by SIGSEGV
run crash crash --fs tmpfs selftest/001
expect crash crash tmpfs:selftest/001

# --- a failed case and a test-level failure in one test: both counted
run both kernel-log --fs tmpfs selftest/004
if grep -q '^KERNEL LOG *-- not checked' "$r.out"; then
	skip "case and test-level failure: the kernel log is not readable here"
else
	check_ '[ $krc -ne 0 ] && [ "$cf" = 1 ] && [ "$tl" = 1 ] && [ "$kf" = 2 ] && [ "$kp" = "$cp" ] && [ $arc -eq 0 ] &&
		grep -q "\[FAILED\] fails-on-purpose" "$r.kunit" && grep -q "\[FAILED\] test-level:kernel-log" "$r.kunit"' \
		"selftest/004 whole: its failed case and its kernel-log failure are two failed leaves (kunit.py failed ${kf:-?}, check $cf + $tl)"
fi

# --- -j 2: the workers' test-level failures are added up as their cases are
run jobs crash --fs tmpfs,ext4 -j 2 selftest/001
check_ '[ $rc -eq 1 ] && [ "$tl" = 2 ] && [ "$kf" = 2 ] && [ "$kc$ke" = 00 ] && [ $arc -eq 0 ] &&
	[ "$(grep -c "^  not ok 1 test-level:crash # crashed: killed by SIGSEGV$" "$r/results.ktap")" = 2 ]' \
	"-j 2, two sections: 2 test-level failures, kunit.py failed ${kf:-?} (check exit $rc)"

# --- ktap-nest on made-up streams: each made whole
tool=$top/runner/vfsidmap-tool
n1=$work/nest1.ktap n2=$work/nest2.ktap n3=$work/nest3.ktap n4=$work/nest4.ktap
printf 'KTAP version 1\n1..3\nok 1 a\nok 2 b\nnot ok 3 c-was-being-wri' >"$n1"
printf 'KTAP version 1\n1..2\nok 1 a\n  KTAP version 1\n  # Subtest: inner\n  1..3\n  ok 1 i\n' >"$n2"
printf 'ok 1 a\nok 2 b\n' >"$n3"
printf 'KTAP version 1\n1..0 # SKIP nothing to do here\n' >"$n4"
{
	echo "KTAP version 1"
	echo "1..5"
	"$tool" ktap-nest t:cut "$n1" crash "" "crashed: killed by SIGKILL" && echo "not ok 1 t:cut"
	"$tool" ktap-nest t:open "$n2" timeout TIMEOUT "killed after 5s (-T)" && echo "not ok 2 t:open"
	"$tool" ktap-nest t:noplan "$n3" leak "" "left # SKIP behind: #1" && echo "not ok 3 t:noplan"
	"$tool" ktap-nest t:skip "$n4" fsck "" "fsck after the test: e2fsck -fn exit 4" && echo "not ok 4 t:skip"
	"$tool" ktap-nest t:none "" setup ERROR "setup: mkfs.ext4 failed" && echo "not ok 5 t:none"
} >"$work/nest.ktap"
python3 "$kunit" parse "$work/nest.ktap" >"$work/nest.kunit" 2>&1
krc=$?
read -r kp kf kc ks ke <<<"$(kunit_counts "$work/nest.kunit")"
awk -f "$src/unit/ktap-parse.awk" "$work/nest.ktap" >"$work/nest.parse" 2>&1
arc=$?
# passed: a, b (cut), a, i (open), a, b (noplan); failed: the five
# leaves (the open subtest's own "not ok" is a parent: not a leaf)
check_ '[ $krc -ne 0 ] && [ "$kp $kf $kc $ks $ke" = "6 5 0 0 0" ] && [ $arc -eq 0 ] && ! grep -q truncated "$work/nest.parse"' \
	"ktap-nest: a cut-off line, an open subtest, no plan, a SKIP plan, no stream: kunit.py reads 6 passed, 5 failed, nothing crashed, no error (got $kp $kf $kc $ks $ke, exit $krc); ktap-parse.awk accepts it (exit $arc)"
[ $arc -eq 0 ] || sed 's/^/#   /' "$work/nest.parse" | head -n 3
check_ 'grep -q "^  # cut off: not ok 3 c-was-being-wri$" "$work/nest.ktap" &&
	grep -q "^    1\.\.1$" "$work/nest.ktap" && grep -q "^  not ok 2 inner # the test ended inside this subtest$" "$work/nest.ktap" &&
	grep -q "^  not ok 3 test-level:leak # left _ SKIP behind: _1$" "$work/nest.ktap" && grep -q "\[FAILED\] test-level:leak$" "$work/nest.kunit" &&
	grep -q "^  # the test.s plan was \"1\.\.0 # SKIP nothing to do here\"; it reported 0 results$" "$work/nest.ktap" &&
	grep -q "^  not ok 1 test-level:setup # ERROR setup: mkfs.ext4 failed$" "$work/nest.ktap"' \
	"ktap-nest: the cut-off line kept as a diagnostic, the open subtest's plan set to its results and closed \"not ok\", \"#\" in a reason made \"_\" (no SKIP for kunit.py), the SKIP plan kept as a diagnostic, ERROR for a setup error"

left=$(find "$work/runs" "$work/tmp" -mindepth 1 -maxdepth 1 | tr '\n' ' ')
left+=$(findmnt -rn -o TARGET | grep -F "$work" | tr '\n' ' ')
left+=$(losetup -a 2>/dev/null | grep -F "$work" | tr '\n' ' ')
check_ '[ -z "$left" ]' "nothing left behind${left:+ (left: $left)}"
