#!/bin/bash
# make kselftest-install writes a kselftest install tree that runs the way
# kernel CI runs selftests: the tree's shape (every test of every group.list
# listed once, each an executable), DESTDIR, a strict KTAP parser
# (unit/ktap-parse.awk) that accepts good documents and rejects broken ones,
# then run_kselftest.sh on a failing, a passing and a skipping test on
# tmpfs with its output parsed and counted (root), and the kernel tree's
# own run_kselftest.sh and runner.sh driving the collection (root, and a
# kernel tree: KSFT_KERNEL_SELFTESTS, default the 6.12 tree in
# /var/tmp/kbuild). TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"
PARSE="awk -f $src/unit/ktap-parse.awk"
KSRC=${KSFT_KERNEL_SELFTESTS:-/var/tmp/kbuild/linux-source-6.12/tools/testing/selftests}
echo "1..16"

# The runs' temporary results and check's run directories go below $work,
# so what they leave is theirs alone (make check runs other tests alongside).
unit_workdir ksft

# --- the tree
K=$work/k
$MAKE -s -C "$top" kselftest-install KSFT_INSTALL_PATH="$K" >"$work/install.log" 2>&1
rc=$?
check_ '[ $rc -eq 0 ] && [ -x "$K/run_kselftest.sh" ] && [ -f "$K/kselftest/runner.sh" ] && [ -x "$K/kselftest/prefix.pl" ] && [ -x "$K/vfsidmap/suite/check" ] && grep -qx "timeout=[0-9]*" "$K/vfsidmap/settings"' \
	"make kselftest-install writes run_kselftest.sh, kselftest/, the suite and settings (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$work/install.log"

for list in "$top"/tests/*/group.list "$src"/tests/*/group.list; do
	[ -f "$list" ] || continue
	s=$(basename "$(dirname "$list")")
	awk -v s="$s" '$1 ~ /^[0-9][0-9][0-9]$/ { print "vfsidmap:" s "_" $1 }' "$list"
done | sort -u >"$work/want"
sort "$K/kselftest-list.txt" >"$work/have"
dups=$(uniq -d "$work/have" | tr '\n' ' ')
check_ '[ -s "$work/want" ] && cmp -s "$work/want" "$work/have" && [ -z "$dups" ]' \
	"kselftest-list.txt lists each of the $(wc -l <"$work/want") tests of tests/*/group.list exactly once${dups:+ (twice: $dups)}"
notexec=""
while IFS=: read -r coll t; do
	[ -x "$K/$coll/$t" ] || notexec="$notexec $coll/$t"
done <"$K/kselftest-list.txt"
check_ '[ -z "$notexec" ]' "every listed test is an executable in its collection${notexec:+ (not:$notexec)}"

$MAKE -s -C "$top" kselftest-install DESTDIR="$work/dest" KSFT_INSTALL_PATH=/opt/ksft >/dev/null 2>&1
check_ '[ -x "$work/dest/opt/ksft/vfsidmap/idmapped_001" ] && [ -x "$work/dest/opt/ksft/vfsidmap/suite/check" ] && [ ! -e /opt/ksft ] && cmp -s "$K/kselftest-list.txt" "$work/dest/opt/ksft/kselftest-list.txt"' \
	"DESTDIR is honoured: the tree lands below it, nothing outside"
rm -rf "$work/dest"

# --- the parser, on documents written out here
doc() { printf '%s\n' "$@" >"$work/doc"; }
parses() { $PARSE "$@" "$work/doc" >"$work/doc.out" 2>"$work/doc.err"; }
doc 'TAP version 13' '1..2' '# timeout set to 45' '# selftests: c: a' '# KTAP version 1' '# 1..1' \
	'#   KTAP version 1' '#   # Subtest: fs:x' '#   1..2' '#   ok 1 one' '#   ok 2 two # SKIP why' \
	'# ok 1 fs:x' 'ok 1 selftests: c: a' '# selftests: c: b' '# KTAP version 1' '# 1..1' '#   KTAP version 1' \
	'#   1..1' '# not ok 1 fs:y' 'not ok 2 selftests: c: b # exit=1'
parses
check_ 'grep -qx "top version=TAP version 13 plan=2 pass=1 fail=1 skip=0 subtests=4 maxdepth=2" "$work/doc.out" && grep -qx "sub depth=2 result=not-ok plan=1 pass=0 fail=0 skip=0 truncated name=fs:y" "$work/doc.out" && grep -qx "sub depth=2 result=ok plan=2 pass=1 fail=0 skip=1 name=fs:x" "$work/doc.out"' \
	"the parser reads kselftest nesting ('# ') around KTAP nesting (indent) and counts each level"
bad_docs=0 rejected=0 missed=""
reject() { # what, lines...
	local what=$1
	shift
	doc "$@"
	bad_docs=$((bad_docs + 1))
	if parses; then missed="$missed [$what]"; else rejected=$((rejected + 1)); fi
}
reject "no version line" '1..1' 'ok 1 a'
reject "plan says 2, one result" 'KTAP version 1' '1..2' 'ok 1 a'
reject "numbering skips" 'KTAP version 1' '1..2' 'ok 1 a' 'ok 3 b'
reject "more results than planned" 'KTAP version 1' '1..1' 'ok 1 a' 'ok 2 b'
reject "no plan" 'KTAP version 1' 'ok 1 a'
reject "stray text" 'KTAP version 1' '1..1' 'hello' 'ok 1 a'
reject "blank line" 'KTAP version 1' '1..1' '' 'ok 1 a'
reject "subtest without result line" 'TAP version 13' '1..1' '# KTAP version 1' '# 1..1' '# ok 1 x'
reject "truncated subtest reported ok" 'TAP version 13' '1..1' '# KTAP version 1' '# 1..2' '# ok 1 x' 'ok 1 c'
reject "broken nested document" 'TAP version 13' '1..1' '# KTAP version 1' '# 1..1' '# ok 2 x' 'ok 1 c'
reject "Subtest before the nested version line" 'KTAP version 1' '1..1' '  # Subtest: x' '  KTAP version 1' '  1..1' '  ok 1 a' 'ok 1 x'
reject "two documents" 'KTAP version 1' '1..1' 'ok 1 a' 'KTAP version 1' '1..1' 'ok 1 b'
check_ '[ "$rejected" -eq "$bad_docs" ]' "the parser rejects $rejected of $bad_docs broken documents${missed:+ (accepted:$missed)}"

# --- running it (root: check needs mounts and user namespaces)
if [ "$(id -u)" -ne 0 ]; then
	for i in $(seq $((n + 1)) 15); do skip "running tests needs root"; done
else
	VFSIDMAP_ALL=1 "$K/run_kselftest.sh" -t vfsidmap:selftest_001 -t vfsidmap:idmapped_001 -t vfsidmap:idmapped_003 \
		2>&1 | cat >"$work/run.out"
	rc=${PIPESTATUS[0]}
	$PARSE "$work/run.out" >"$work/run.sum" 2>"$work/run.err"
	prc=$?
	check_ '[ $prc -eq 0 ] && [ $rc -eq 1 ]' \
		"run_kselftest.sh -t ... prints one well-formed TAP document and exits 1 for a failure (exit $rc)"
	[ $prc -eq 0 ] || { sed 's/^/# /' "$work/run.err"; tail -n 40 "$work/run.out" | sed 's/^/# /'; }
	check_ 'grep -qx "top version=TAP version 13 plan=3 pass=1 fail=1 skip=1 subtests=6 maxdepth=2" "$work/run.sum"' \
		"three tests: one passed, one failed, one skipped, each with its nested KTAP ($(tail -n 1 "$work/run.sum"))"
	check_ 'grep -qE "^sub depth=2 result=ok plan=5 pass=5 fail=0 skip=0 name=tmpfs:idmapped/001$" "$work/run.sum" && grep -qx "sub depth=1 result=ok plan=1 pass=1 fail=0 skip=0 name=selftests: vfsidmap: idmapped_001" "$work/run.sum"' \
		"idmapped_001 passes on tmpfs: its 5 cases nested under check's tmpfs:idmapped/001"
	check_ 'grep -qx "sub depth=1 result=not-ok plan=1 pass=0 fail=1 skip=0 name=selftests: vfsidmap: selftest_001 # exit=1" "$work/run.sum" && grep -q "killed by SIGSEGV" "$work/run.out"' \
		"selftest_001 (crashes on purpose) is not ok with exit=1, naming the signal"
	check_ 'grep -qx "sub depth=1 result=skip plan=1 pass=0 fail=0 skip=1 name=selftests: vfsidmap: idmapped_003 # SKIP" "$work/run.sum"' \
		"idmapped_003 (vfat only) exits 4: ok ... # SKIP"

	"$K/vfsidmap/selftest_001" >"$work/sk.out" 2>&1
	rc=$?
	check_ '[ $rc -eq 4 ] && $PARSE "$work/sk.out" | grep -qx "top version=KTAP version 1 plan=0 pass=0 fail=0 skip=0 subtests=0 maxdepth=0" && grep -q "VFSIDMAP_ALL=1" "$work/sk.out"' \
		"without VFSIDMAP_ALL a test outside group auto skips (exit $rc), saying how to run it"
	VFSIDMAP_FSTYP=nosuchfs "$K/vfsidmap/idmapped_001" >"$work/bad.out" 2>&1
	rc=$?
	check_ '[ $rc -eq 2 ] && $PARSE "$work/bad.out" | grep -q "fail=1" && grep -q "unknown filesystem" "$work/bad.out"' \
		"a bad VFSIDMAP_FSTYP exits 2 with a KTAP document naming check's complaint"

	# The kernel's runner: its run_kselftest.sh and kselftest/ as
	# `make -C tools/testing/selftests install` lays them out, our
	# collection installed into that tree.
	if [ -x "$KSRC/run_kselftest.sh" ] && [ -f "$KSRC/kselftest/runner.sh" ]; then
		KK=$work/kk
		mkdir -p "$KK"
		cp "$KSRC/run_kselftest.sh" "$KK/" && cp -r "$KSRC/kselftest" "$KK/"
		echo "other:t" >"$KK/kselftest-list.txt"
		$MAKE -s -C "$top" kselftest-install KSFT_INSTALL_PATH="$KK" >"$work/kk-install.log" 2>&1
		check_ 'cmp -s "$KSRC/run_kselftest.sh" "$KK/run_kselftest.sh" && cmp -s "$KSRC/kselftest/runner.sh" "$KK/kselftest/runner.sh" && grep -qx "other:t" "$KK/kselftest-list.txt" && grep -qx "vfsidmap:idmapped_004" "$KK/kselftest-list.txt"' \
			"installed into a kernel selftests tree, the kernel's runner and list entries are kept"
		"$KK/run_kselftest.sh" -t vfsidmap:idmapped_004 -t vfsidmap:idmapped_002 2>&1 | cat >"$work/kk.out"
		$PARSE "$work/kk.out" >"$work/kk.sum" 2>"$work/kk.err"
		prc=$?
		check_ '[ $prc -eq 0 ] && grep -qx "top version=TAP version 13 plan=2 pass=2 fail=0 skip=0 subtests=4 maxdepth=2" "$work/kk.sum" && grep -q "^# timeout set to 1800$" "$work/kk.out"' \
			"the kernel's run_kselftest.sh and runner.sh run the collection: 2 of 2 pass, settings honoured, output well formed"
		[ $prc -eq 0 ] || { sed 's/^/# /' "$work/kk.err"; tail -n 30 "$work/kk.out" | sed 's/^/# /'; }
	else
		skip "no kernel selftests tree at $KSRC (KSFT_KERNEL_SELFTESTS)"
		skip "no kernel selftests tree at $KSRC (KSFT_KERNEL_SELFTESTS)"
	fi
fi

left=$(find "$work/tmp" "$work/runs" -mindepth 1 -maxdepth 1 | tr '\n' ' ')
left+=$(findmnt -rn -o TARGET | grep -F "$work" | tr '\n' ' ')
left+=$(grep -lF "$work" /sys/block/loop*/loop/backing_file 2>/dev/null | tr '\n' ' ')
check_ '[ -z "$left" ]' "no temporary results, run directories, mounts or loop devices left behind${left:+ (left: $left)}"
