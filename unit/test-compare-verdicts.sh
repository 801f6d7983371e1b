#!/bin/bash
# run/compare-verdicts (host vs guest parity): same verdicts exit 0; a
# test that differs is named and exits 1; shards of one run merge (fail
# wins over pass, pass over notrun); a directory without check.log is bad
# usage (exit 2). Crafted check.logs, no root needed. TAP.
set -u
src=$(cd "${srcdir:-.}" && pwd)
cv=$src/run/compare-verdicts
work=$(mktemp -d /tmp/vt-cv.XXXXXX)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi; }
echo "1..5"
log() { # dir lines...
	mkdir -p "$1"; local d=$1; shift
	{ echo "run started x"; printf '%s\n' "$@"; } >"$d/check.log"
}
log "$work/h" "SECTION ext4 FSTYP=ext4 (image)" "api/001 pass 0s" "api/005 pass 0s" "matrix/001 pass 3s" \
	"SECTION tmpfs FSTYP=tmpfs (mount)" "api/001 pass 0s"
log "$work/g" "SECTION ext4 FSTYP=ext4 (image)" "api/001 pass 0s" "api/005 notrun 0s (112ms) open_tree_attr() ENOSYS" "matrix/001 pass 9s" \
	"SECTION tmpfs FSTYP=tmpfs (mount)" "api/001 pass 0s"
log "$work/s1" "SECTION ext4 FSTYP=ext4 (image)" "api/001 pass 0s" "api/005 pass 0s" "matrix/001 pass 4s" \
	"SECTION tmpfs FSTYP=tmpfs (mount)" "api/001 notrun 0s"
log "$work/s2" "SECTION ext4 FSTYP=ext4 (image)" "api/001 pass 0s" "api/005 pass 0s" "matrix/001 fail 4s" \
	"SECTION tmpfs FSTYP=tmpfs (mount)" "api/001 pass 0s"

"$cv" "$work/h" "$work/h" >"$work/o1"; rc=$?
[ $rc = 0 ] && grep -qx "4 tests with the same verdict, 0 differ" "$work/o1"; ok $? "a run against itself: the same verdicts, exit 0 (exit $rc)"
"$cv" "$work/h" "$work/g" >"$work/o2"; rc=$?
[ $rc = 1 ] && grep -q "^ext4	api/005	pass	notrun	DIFFERS	open_tree_attr() ENOSYS$" "$work/o2" && grep -qx "3 tests with the same verdict, 1 differ" "$work/o2"
ok $? "a test notrun on one side is named with its reason, exit 1 (exit $rc)"
"$cv" "$work/h" "$work/s1" "$work/s2" >"$work/o3"; rc=$?
[ $rc = 1 ] && grep -q "^ext4	matrix/001	pass	fail	DIFFERS" "$work/o3" && ! grep -q "tmpfs	api/001" "$work/o3"
ok $? "shards merge: a failure in one shard fails the test, a pass in one shard beats a notrun in another"
"$cv" --all "$work/h" "$work/h" | grep -c "	same" | grep -qx 4; ok $? "--all prints every test"
"$cv" "$work/h" "$work/nosuch" >/dev/null 2>"$work/e"; rc=$?
[ $rc = 2 ] && grep -q "no check.log" "$work/e"; ok $? "a directory that is not a results directory: exit 2 with the reason"
[ $failed = 0 ]
