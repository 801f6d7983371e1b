#!/bin/bash
# Bad input that used to fail late (exit 1 after the tests ran, or only
# in the test that reads it) is exit 2 before anything is made (no
# results directory, no run directory, nothing left in TMPDIR):
#  1-2: --case with a newline (grep -F took it for two ids: the listed
#       half passed the check and the test ran the whole) or a tab
#  3-5: VT_SAMPLE_WITHOUT naming no rule, with the sample test and
#       without it; VT_SAMPLE_WITHOUT_MUTANT naming no mutant
#  6:   a rule that exists is accepted (dry run)
#  7:   MKFS_OPTIONS that mkfs refuses (ext4 -O no_such_feature): mkfs's
#       own words
#  8:   MOUNT_OPTIONS that the mount refuses (tmpfs -o no_such_opt): the
#       mount's failure
#  9:   of two ext4 sections, the one whose image (-b 1024) does not
#       mount with its options (-o bogus) is named
#  10:  options both tools take still run (tmpfs -o size=64m; ext4
#       -b 4096 with -o data=ordered), and nothing is left in TMPDIR
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
echo "1..10"
unit_workdir early-input
unset TEST_TIMEOUT RESULT_BASE VT_SAMPLE_WITHOUT VT_SAMPLE_WITHOUT_MUTANT VT_MODEL_BREAK
cd "$top" || exit 1
export PATH=$PATH:/sbin:/usr/sbin

run() { # check args...: stdout+stderr in $work/o, status in $rc
	timeout 300 ./check "$@" >"$work/o" 2>&1
	rc=$?
}
nothing_made() { # results dir
	[ ! -e "$1" ] && [ -z "$(ls -A "$work/runs")" ] && [ -z "$(ls -A "$work/tmp")" ]
}

# --- --case
run --fs tmpfs --case $'api/001/size-zero-einval\nsize-short-einval' --results "$work/c1"
check_ '[ $rc = 2 ] && grep -q "^check: --case wants suite/NNN/case, the case printable and without white space" "$work/o" && nothing_made "$work/c1"' \
	"--case with a newline: exit 2, nothing made (exit $rc)"
run --fs tmpfs --case $'api/001/size-zero-einval\t' --results "$work/c2"
check_ '[ $rc = 2 ] && grep -q "^check: --case wants" "$work/o" && nothing_made "$work/c2"' \
	"--case with a tab: exit 2, nothing made (exit $rc)"

# --- VT_SAMPLE_WITHOUT, VT_SAMPLE_WITHOUT_MUTANT
VT_SAMPLE_WITHOUT=garbage run --fs tmpfs --results "$work/s1" matrix/011
check_ '[ $rc = 2 ] && grep -qF "check: VT_SAMPLE_WITHOUT: no rule '"'garbage'"'" "$work/o" && nothing_made "$work/s1"' \
	"VT_SAMPLE_WITHOUT=garbage with the sample test: exit 2, nothing made (exit $rc)"
VT_SAMPLE_WITHOUT=garbage run --fs tmpfs --results "$work/s2" api/001
check_ '[ $rc = 2 ] && grep -qF "no rule '"'garbage'"'" "$work/o" && nothing_made "$work/s2"' \
	"VT_SAMPLE_WITHOUT=garbage without it: exit 2 as well (exit $rc)"
VT_SAMPLE_WITHOUT_MUTANT=no-such-mutant run --fs tmpfs --results "$work/s3" matrix/011
check_ '[ $rc = 2 ] && grep -qF "VT_SAMPLE_WITHOUT_MUTANT: no mutant '"'no-such-mutant'"'" "$work/o" && nothing_made "$work/s3"' \
	"VT_SAMPLE_WITHOUT_MUTANT=no-such-mutant: exit 2 (exit $rc)"
VT_SAMPLE_WITHOUT=check_sticky.victim-owner run -n --fs tmpfs matrix/011
check_ '[ $rc = 0 ] && grep -q "^  matrix/011" "$work/o"' "a rule that exists is taken (exit $rc)"

# --- MKFS_OPTIONS, MOUNT_OPTIONS
if command -v mkfs.ext4 >/dev/null; then
	printf '[e]\nFSTYP=ext4\nMKFS_OPTIONS="-O no_such_feature"\n' >"$work/mkfs.config"
	run -c "$work/mkfs.config" --results "$work/m1" api/001
	check_ '[ $rc = 2 ] && grep -qF "check: section e: MKFS_OPTIONS=\"-O no_such_feature\": ext4'"'"'s mkfs refuses them" "$work/o" && grep -q "no_such_feature" <(sed 1d "$work/o") && nothing_made "$work/m1"' \
		"MKFS_OPTIONS mkfs refuses: exit 2 with mkfs's words, nothing made (exit $rc)"
	[ $rc = 2 ] || sed 's/^/# /' "$work/o" | tail -n 4
else
	skip "mkfs.ext4 is not installed"
fi

printf '[t]\nFSTYP=tmpfs\nMOUNT_OPTIONS="-o no_such_opt"\n' >"$work/mount.config"
run -c "$work/mount.config" --results "$work/m2" api/001
check_ '[ $rc = 2 ] && grep -qF "check: section t: MOUNT_OPTIONS: the mount refuses -o no_such_opt" "$work/o" && grep -q "mount -t tmpfs .*-o no_such_opt failed: EINVAL" "$work/o" && nothing_made "$work/m2"' \
	"MOUNT_OPTIONS the mount refuses: exit 2 with the mount's failure, nothing made (exit $rc)"
[ $rc = 2 ] || sed 's/^/# /' "$work/o" | tail -n 4

if command -v mkfs.ext4 >/dev/null; then
	printf '[ok]\nFSTYP=ext4\n[bad]\nFSTYP=ext4\nMKFS_OPTIONS="-b 1024"\nMOUNT_OPTIONS="-o bogus"\n' >"$work/two.config"
	run -c "$work/two.config" --results "$work/m3" api/001
	check_ '[ $rc = 2 ] && grep -qF "check: section bad: MOUNT_OPTIONS: the mount refuses -o bogus (tried on a scratch ext4 image made with MKFS_OPTIONS=\"-b 1024\"" "$work/o" && nothing_made "$work/m3"' \
		"of two sections, the one whose image does not mount with its options is named (exit $rc)"
else
	skip "mkfs.ext4 is not installed"
fi

printf '[t]\nFSTYP=tmpfs\nMOUNT_OPTIONS="-o size=64m"\n' >"$work/good.config"
command -v mkfs.ext4 >/dev/null &&
	printf '[e]\nFSTYP=ext4\nMKFS_OPTIONS="-b 4096"\nMOUNT_OPTIONS="-o data=ordered"\n' >>"$work/good.config"
run -c "$work/good.config" --results "$work/m4" api/001
check_ '[ $rc = 0 ] && [ -f "$work/m4/t/api/001.ktap" ] && [ -z "$(ls -A "$work/tmp")" ]' \
	"options mkfs and mount take: the run passes, nothing left in TMPDIR (exit $rc)"
[ $rc = 0 ] || sed 's/^/# /' "$work/o" | tail -n 4
