#!/bin/bash
# matrix/011's sample chosen at build time (lib/matrix/sample_table.h), TAP.
# No root: nothing is mounted, the model alone is asked.
#  1: the table's sample is the computed one for run/vm's worlds (tmpfs
#     with and without expunge/xfs, xfs, ext4; btrfs, vfat; msdos and
#     exfat have worlds of their own); a table made
#     from other sources is not used; VT_SAMPLE_WITHOUT_MUTANT computes
#     another sample, also where the world is in the table.
#  2: --list-sample in this machine's world: the same cases whether taken
#     from the table or computed (VT_SAMPLE_COMPUTE=1), and it says which.
#  3: the program that writes the table has none and computes the same.
#  4: a world the table does not hold is computed, and says so.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
prog=$top/tests/matrix/011
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi; }
echo "1..4"
tmp=$(mktemp -d /tmp/vfsidmap-stab.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset VT_SAMPLE_WITHOUT VT_SAMPLE_WITHOUT_MUTANT VT_SAMPLE_COMPUTE VT_EXPUNGE VT_ALLOW_SYSCTL FSTYP

# 1: worlds 0, 1, 8 and 16 are the guest's on a Debian kernel: tmpfs without
# and with expunge/xfs, xfs, ext4 (lib/matrix/sample_table.c table_world)
m='attr_rules.c:vt_setattr_copy/from_vfsuid#identity'
VT_SAMPLE_WITHOUT_MUTANT=$m "$prog" --check-sample-table --world 0 --world 1 --world 8 \
	--world 16 "$top/expunge/xfs" >"$tmp/check.out"; rc=$?
sed 's/^/# /' "$tmp/check.out"
[ $rc = 0 ] && [ "$(grep -c '^ok: ' "$tmp/check.out")" = 6 ] && ! grep -q '^not ok' "$tmp/check.out"
ok $? "the table's samples are the computed ones; a stale table and VT_SAMPLE_WITHOUT_MUTANT compute"

# 2: this machine's world, table or not
good=0
for fs in tmpfs vfat msdos exfat; do
	"$prog" --list-sample --fs $fs >"$tmp/t.$fs" 2>"$tmp/t.$fs.err" || good=1
	VT_SAMPLE_COMPUTE=1 "$prog" --list-sample --fs $fs >"$tmp/c.$fs" 2>"$tmp/c.$fs.err" || good=1
	cmp -s "$tmp/t.$fs" "$tmp/c.$fs" || { good=1; echo "# $fs: the table's sample is not the computed one"; }
	[ "$(wc -l <"$tmp/t.$fs")" -gt 100 ] || good=1
	grep -q '^# sample computed at run time (VT_SAMPLE_COMPUTE=1)$' "$tmp/c.$fs.err" || good=1
	grep -q '^# sample \(from the build-time table\|computed at run time (this world is not\)' "$tmp/t.$fs.err" || good=1
	echo "# $fs: $(wc -l <"$tmp/t.$fs") cases, $(tail -n 1 "$tmp/t.$fs.err" | sed 's/^# //')"
done
ok $good "--list-sample gives the same cases from the table as computed"

# 3: 011-gen (not installed) has no table
"$top/tests/matrix/011-gen" --list-sample --fs tmpfs >"$tmp/g" 2>"$tmp/g.err"
cmp -s "$tmp/g" "$tmp/c.tmpfs" && grep -q 'this program has no build-time table' "$tmp/g.err"
ok $? "the table's writer computes the same sample"

# 4: fs.protected_* as found here, but VT_ALLOW_SYSCTL=1 with an expunged
# case nobody lists by default: no world of the table
printf 'chown/map=none/caller=root/op=chown/obj=0644-0:0/to=-1:-1\tunit test\n' >"$tmp/ex"
VT_EXPUNGE=$tmp/ex VT_ALLOW_SYSCTL=1 "$prog" --list-sample --fs tmpfs >"$tmp/m" 2>"$tmp/m.err"; rc=$?
VT_EXPUNGE=$tmp/ex VT_ALLOW_SYSCTL=1 "$top/tests/matrix/011-gen" --list-sample --fs tmpfs >"$tmp/m2" 2>/dev/null
[ $rc = 0 ] && cmp -s "$tmp/m" "$tmp/m2" && grep -q 'this world is not in the build-time table' "$tmp/m.err"
ok $? "a world the table does not hold is computed"
[ $failed = 0 ]
