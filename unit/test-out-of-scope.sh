#!/bin/bash
# tests/out-of-scope.tsv (made by make from `PROGRAM --out-of-scope`,
# lib/testlib/testlib.c) and check's use of it (common/run.sh): a run the
# filesystem table rules out is notrun without starting the executor, and
# its reason is the one the test gives when it is started (TAP).
#  1 the table has the runs the fs table rules out that are known by hand:
#    btrfs/001 (needs subvolumes: VT_FSF_SUBVOLUME) on ext4, idmapped/003
#    (owners from mount options) on tmpfs, idmapped/007 (an ext4 image of
#    its own) on xfs; none on the filesystems they are for
#  2 every line of the table is what the test itself says, started as
#    check starts it (FSTYP, TEST_DIR): notrun, exit 4, "1..0 # SKIP" and
#    the same reason (root only: the test says "needs root" first)
#  3 ./check gives the run notrun with that reason and starts no executor:
#    no NNN.full, no NNN.ktap; a run that is not in the table still goes
#    to the executor
set -u
. "$(dirname "$0")/tap.sh"
echo "1..3"
table=$top/tests/out-of-scope.tsv

has() { awk -F '\t' -v t="$1" -v fs="$2" '$1 == t && $2 == fs { f = 1 } END { exit !f }' "$table"; }
odd=$(awk -F '\t' 'NF != 3 || index($3, "not for " $2 ": ") != 1' "$table" 2>&1)
check_ '[ -s "$table" ] && has btrfs/001 ext4 && has idmapped/003 tmpfs && has idmapped/007 xfs &&
	! has btrfs/001 btrfs && ! has idmapped/003 vfat && ! has idmapped/007 ext4 && ! has api/001 tmpfs &&
	[ -z "$odd" ]' \
	"the table: btrfs/001 on ext4, idmapped/003 on tmpfs, idmapped/007 on xfs; not on their own filesystems; every line TEST, FS, \"not for FS: ...\""

if [ "$(id -u)" -ne 0 ]; then
	skip "the tests' own reasons: needs root"
	skip "check's shortcut: needs root"
	exit 0
fi
unit_workdir out-of-scope
mkdir -p "$work/dir"
bad=""
while IFS=$'\t' read -r t fs why; do
	out=$(FSTYP=$fs TEST_DIR=$work/dir VT_TEST_ID=$t "$top/tests/$t" 2>&1)
	rc=$?
	[ "$rc" = 4 ] && [ "$out" = "KTAP version 1"$'\n'"1..0 # SKIP $why" ] || bad+=" $t on $fs (exit $rc)"
done <"$table"
check_ '[ -z "$bad" ] && [ -z "$(ls -A "$work/dir")" ]' \
	"$(wc -l <"$table") lines: each is the test's own notrun and reason, and it wrote nothing to TEST_DIR${bad:+; differ:$bad}"

why=$(awk -F '\t' '$1 == "btrfs/001" && $2 == "tmpfs" { print $3 }' "$table")
out=$("$top/check" --results "$work/res" --fs tmpfs btrfs/001 api/009 2>&1)
rc=$?
check_ '[ $rc = 0 ] && grep -qxF "btrfs/001 notrun 0s (0ms) $why" "$work/res/check.log" &&
	[ ! -e "$work/res/tmpfs/btrfs/001.full" ] && [ ! -e "$work/res/tmpfs/btrfs/001.ktap" ] &&
	grep -q "^api/009 pass " "$work/res/check.log" && [ -s "$work/res/tmpfs/api/009.full" ]' \
	"check: btrfs/001 on tmpfs notrun with the table's reason, no executor (no 001.full, 001.ktap); api/009 ran (exit $rc)"
