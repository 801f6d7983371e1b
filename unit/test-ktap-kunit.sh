#!/bin/bash
# results.ktap and the kselftest tree's output read by the kernel's own KTAP
# parser (tools/testing/kunit/kunit.py parse), not by ours: a run with a
# passing test, a skipped one, a crashing one and real matrix mismatches
# (VT_MODEL_BREAK), then run_kselftest.sh of `make kselftest-install` on a
# passing, a skipped and a failing test. kunit.py comes from the kernel tree
# of KSFT_KERNEL_SELFTESTS (its ../kunit), else from the newest
# /usr/src/linux-source-*.tar.xz (Debian's linux-source-X.Y), extracted
# into a temporary directory (unit/kunit.sh); with neither the test is
# skipped, saying so.
# Needs root (check mounts); TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP no python3 for kunit.py"
	exit 0
fi

unit_workdir kunit
. "$src/unit/kunit.sh"
if ! kunit_find; then
	echo "1..0 # SKIP no kernel source for kunit.py: set KSFT_KERNEL_SELFTESTS to a kernel tree's tools/testing/selftests, or install linux-source-X.Y"
	exit 0
fi
from=$kunit_from
echo "1..10"
echo "# kunit.py: $kunit (from $from)"

# --- results.ktap of a real run: pass (api/001), skip (idmapped/003 is
# about vfat), crash (selftest/001), matrix mismatches (a wrong chown rule).
VT_MODEL_BREAK=chown-skip-mount-translation "$top/check" --fs tmpfs --shard 1/200 --results "$work/r" \
	api/001 idmapped/003 selftest/001 matrix/002 >"$work/check.out" 2>&1
rc=$?
python3 "$kunit" parse "$work/r/results.ktap" >"$work/kunit.out" 2>&1
krc=$?
check_ '[ $rc -eq 1 ] && ! grep -q Traceback "$work/kunit.out" && grep -q "Testing complete" "$work/kunit.out"' \
	"kunit.py parse reads results.ktap of a failing run through to the end (check exit $rc, kunit.py exit $krc)"
grep -q "Testing complete" "$work/kunit.out" || tail -n 15 "$work/kunit.out" | sed 's/^/# /'
read -r kp kf kc ks ke <<<"$(kunit_counts "$work/kunit.out")"
read -r cp cf cs <<<"$(sed -n 's/^Cases: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$work/check.out")"
tl=$(sed -n 's/^Test-level failures: \([0-9]*\) .*/\1/p' "$work/check.out")
echo "# kunit.py: passed $kp failed $kf crashed $kc skipped $ks errors $ke; check: cases $cp passed, $cf failed, $cs skipped, test-level failures ${tl:-0}"
# kunit_parser.py counts the leaves: a test's own cases, or the test itself
# when it has none (idmapped/003: "1..0 # SKIP", one skipped). selftest/001
# planned one case and died before its result: its nested plan is the
# results it wrote plus one leaf, test-level:crash, which kunit.py counts
# as failed, as check counts it among its test-level failures.
check_ '[ "${cp:-x}" = "$kp" ] && [ "$kp" -gt 0 ] && [ "$cf" -gt 0 ] && [ "${tl:-x}" = 1 ] && [ "$kf" = $((cf + tl)) ] && [ "$ks" = $((cs + 1)) ] && [ "$kc" = 0 ]' \
	"kunit.py counts what check counts: $kp passed, $kf failed (the mismatches and selftest/001's crash), $ks skipped, $kc crashed"
missing=""
for t in api/001 idmapped/003 selftest/001 matrix/002; do
	grep -q "tmpfs:$t" "$work/kunit.out" || missing+=" $t"
done
check_ '[ -z "$missing" ]' "kunit.py names every test of the run${missing:+ (not:$missing)}"
check_ 'grep -q "^.*\[FAILED\] tmpfs:matrix/002 " "$work/kunit.out" && grep -q "FAILED\] tmpfs:selftest/001" "$work/kunit.out" && grep -q "FAILED\] test-level:crash$" "$work/kunit.out" && grep -q "PASSED\] tmpfs:api/001 " "$work/kunit.out" && grep -q "SKIPPED\] tmpfs:idmapped/003" "$work/kunit.out" && [ $krc -ne 0 ]' \
	"kunit.py: matrix/002 failed, selftest/001 failed (its leaf test-level:crash), api/001 passed, idmapped/003 skipped; exit $krc"

# A passing run: kunit.py exits 0.
"$top/check" --fs tmpfs --results "$work/p" api/001 regress/002 >/dev/null 2>&1
python3 "$kunit" parse "$work/p/results.ktap" >"$work/kunit-p.out" 2>&1
krc=$?
read -r kp kf kc ks ke <<<"$(kunit_counts "$work/kunit-p.out")"
check_ '[ $krc -eq 0 ] && [ "$kf" = 0 ] && [ "$kc" = 0 ] && [ "$kp" -gt 0 ] && grep -q "PASSED\] tmpfs:regress/002" "$work/kunit-p.out"' \
	"a passing run: kunit.py exits 0, $kp passed"

# --- the kselftest tree: its run_kselftest.sh output and one test's own
K=$work/k
$MAKE -s -C "$top" kselftest-install KSFT_INSTALL_PATH="$K" >"$work/install.log" 2>&1
VFSIDMAP_ALL=1 "$K/run_kselftest.sh" -t vfsidmap:selftest_001 -t vfsidmap:idmapped_001 -t vfsidmap:idmapped_003 \
	>"$work/ksft.out" 2>&1
python3 "$kunit" parse "$work/ksft.out" >"$work/kunit-ksft.out" 2>&1
krc=$?
read -r kp kf kc ks ke <<<"$(kunit_counts "$work/kunit-ksft.out")"
# kunit.py reads a kselftest runner's TAP at its top level (the tests'
# own output is "# " text to it): one result per test.
check_ '! grep -q Traceback "$work/kunit-ksft.out" && [ "$kp $kf $kc $ks" = "1 1 0 1" ] && [ $krc -ne 0 ]' \
	"run_kselftest.sh output: kunit.py reads 1 passed, 1 failed, 1 skipped (got $kp $kf $kc $ks, exit $krc)"
check_ 'grep -q "FAILED\] selftests: vfsidmap: selftest_001" "$work/kunit-ksft.out"' \
	"kunit.py reports selftest_001 (crashes on purpose) as failed"
"$K/vfsidmap/idmapped_001" >"$work/one.out" 2>&1
python3 "$kunit" parse "$work/one.out" >"$work/kunit-one.out" 2>&1
krc=$?
read -r kp kf kc ks ke <<<"$(kunit_counts "$work/kunit-one.out")"
want=$("$top/tests/idmapped/001" --list-cases | wc -l)
check_ '[ $krc -eq 0 ] && [ "$kp" = "$want" ] && [ "$kf$kc$ks" = 000 ] && grep -q "PASSED\] tmpfs:idmapped/001" "$work/kunit-one.out"' \
	"one kselftest test's own KTAP (idmapped_001): its nested document parses, $kp of its $want cases passed"

# --- the old order (Subtest before the nested version line) is what
# kunit.py fails on; our strict parser (unit/ktap-parse.awk) rejects it too.
printf '%s\n' 'KTAP version 1' '1..1' '  # Subtest: x' '  KTAP version 1' '  1..1' '  ok 1 a' 'ok 1 x' >"$work/old.ktap"
python3 "$kunit" parse "$work/old.ktap" >"$work/kunit-old.out" 2>&1
krc=$?
awk -f "$src/unit/ktap-parse.awk" "$work/old.ktap" >/dev/null 2>&1
arc=$?
check_ '[ $krc -ne 0 ] && [ $arc -ne 0 ]' \
	"'# Subtest:' before the nested version line: kunit.py fails (exit $krc), ktap-parse.awk rejects it (exit $arc)"

left=$(find "$work/tmp" "$work/runs" -mindepth 1 -maxdepth 1 | tr '\n' ' ')
left+=$(findmnt -rn -o TARGET | grep -F "$work" | tr '\n' ' ')
check_ '[ -z "$left" ]' "nothing left behind${left:+ (left: $left)}"
