#!/bin/bash
# matrix/011's sample chosen at build time (lib/matrix/sample_table.h), TAP.
# No root: nothing is mounted, the model alone is asked.
#  1: the table's sample is the computed one for run/vm's worlds (ext4,
#     xfs, btrfs, tmpfs with and without expunge/xfs, vfat; msdos and
#     exfat have worlds of their own); a table made
#     from other sources is not used; VT_SAMPLE_WITHOUT_MUTANT computes
#     another sample, also where the world is in the table.
#  2: --list-sample in this machine's world: the same cases whether taken
#     from the table or computed (VT_SAMPLE_COMPUTE=1), and it says which.
#  3: the program that writes the table has none and computes the same.
#  4: a world the table does not hold is computed, and says so.
#  5: the worlds run/vm's guest gives every filesystem of the table the
#     matrix runs on (./check's default ones among them), on a Debian and on
#     a mainline kernel, and those of a systemd host and of the CI host,
#     are in the table: a run there takes its sample from it; also on a
#     kernel without cachestat(2) (Debian 12's 6.1, tinyconfig's EXPERT).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
prog=$top/tests/matrix/011
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi; }
echo "1..5"
tmp=$(mktemp -d /tmp/vfsidmap-stab.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset VT_SAMPLE_WITHOUT VT_SAMPLE_WITHOUT_MUTANT VT_SAMPLE_COMPUTE VT_EXPUNGE VT_ALLOW_SYSCTL FSTYP

# 1: worlds 0, 2, 3 and 9 are the guest's on a Debian kernel: ext4, xfs
# with expunge/xfs, btrfs, ntfs3 (lib/matrix/sample_table.c table_world)
m='attr_rules.c:vt_setattr_copy/from_vfsuid#identity'
VT_SAMPLE_WITHOUT_MUTANT=$m "$prog" --check-sample-table --world 0 --world 2 --world 3 --world 9 \
	"$top/expunge/ntfs3" "$top/expunge/xfs" >"$tmp/check.out"; rc=$?
sed 's/^/# /' "$tmp/check.out"
[ $rc = 0 ] && [ "$(grep -c '^ok: ' "$tmp/check.out")" = 6 ] && ! grep -q '^not ok' "$tmp/check.out" &&
	grep -q '^ok: world 3 (btrfs on' "$tmp/check.out" && grep -q '^ok: world 9 (ntfs3 on' "$tmp/check.out"
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
# 5: the guest's facts. run/vm's init exports VT_ALLOW_SYSCTL=1 and runs
# ./check as PID 1's child: the whole bounding set. fs.protected_*: the
# kernel's defaults, no systemd to change them: Debian's kernel sets
# symlinks and hardlinks to 1 ("fs: Enable link security restrictions by
# default", fs/namei.c), mainline none (sysctl_protected_* are 0). The
# filesystems: every row of the filesystem table (./check's default set,
# the table's default column, among them), with the expunge files ./check
# applies (expunge/<fs>, common/tests.sh). --sample-source applies on its
# own what a run takes from the table instead of trying it
# (mx_erofs_assume: no erofs lower layer on a filesystem whose xattr names
# mkfs.erofs refuses, ntfs3), so a table whose worlds forget it fails here.
good=0
grep -q '^export VT_ALLOW_SYSCTL=1$' "$top/run/vm" || { good=1; echo "# run/vm no longer exports VT_ALLOW_SYSCTL=1"; }
mapfile -t default_fs < <("$top/runner/vfsidmap-tool" fs-table default | awk -F '\t' '$2 == "yes" { print $1 }')
[ ${#default_fs[@]} -ge 4 ] || { good=1; echo "# no default filesystems in the table (fs-table default)"; }
# Every row of the filesystem table (runner/vfsidmap-tool fs-table), not
# a list of names kept here: a row the matrix does not run on says so and
# is counted apart; a row with the mount variant "acl" also with it.
fss=()
while IFS=$'\t' read -r name _ _ _ _ _ _ _ _ variants _; do
	[ "$name" = name ] && continue
	fss+=("$name")
	case ";$variants;" in *";acl;"* | *";acl,"*) fss+=("$name+acl") ;; esac
done < <("$top/runner/vfsidmap-tool" fs-table)
[ ${#fss[@]} -ge 8 ] || { good=1; echo "# vfsidmap-tool fs-table lists ${#fss[@]} filesystems"; }
for fs in "${default_fs[@]}"; do
	case " ${fss[*]} " in *" $fs "*) ;; *) good=1; echo "# default filesystem $fs is not in the table" ;; esac
done
worlds=()
for fs in "${fss[@]}"; do
	for machine in "debian-guest 1,1,0,0 --allow-sysctl" "mainline-guest 0,0,0,0 --allow-sysctl" \
		"systemd-host 1,1,1,2" "ci-host 0,1,0,0 --bset-drop 0x1000000"; do
		worlds+=("$fs $machine")
	done
done
n5=0 outside=()
for w in "${worlds[@]}"; do
	read -r fs machine prot extra <<<"$w"
	args=(--fs "${fs%+acl}" --protected "$prot")
	[ "$fs" != "${fs%+acl}" ] && args+=(--acl)
	# shellcheck disable=SC2206
	[ -n "$extra" ] && args+=($extra)
	ex=()
	[ -f "$top/expunge/${fs%+acl}" ] && ex=(--expunge "$top/expunge/${fs%+acl}")
	for e in none "${ex[@]+yes}"; do
		[ "$e" = none ] && set -- || set -- "${ex[@]}"
		for cs in "" --no-cachestat; do
			"$prog" --sample-source "${args[@]}" $cs "$@" >"$tmp/src" 2>&1; rc=$?
			if [ $rc = 2 ] && grep -q 'not a filesystem of the table the matrix runs on' "$tmp/src"; then
				case " ${outside[*]-} " in *" $fs "*) ;; *) outside+=("$fs") ;; esac
				continue
			fi
			n5=$((n5 + 1))
			if [ $rc != 0 ] || ! grep -q '^# sample from the build-time table' "$tmp/src"; then
				good=1
				echo "# not in the table: $fs on the $machine${1:+ with $2}${cs:+ without cachestat}:"
				sed 's/^/#   /' "$tmp/src"
			fi
		done
	done
done
# and the check itself can fail: a world no machine of the table has
"$prog" --sample-source --fs btrfs --protected 2,1,0,0 --allow-sysctl >"$tmp/src" 2>&1; rc=$?
[ $rc = 1 ] && grep -q 'not in the build-time table' "$tmp/src" &&
	grep -q '^# nearest, .*fs.protected_\* 2/1/0/0, there' "$tmp/src" ||
	{ good=1; echo "# a world outside the table was not reported so:"; sed 's/^/#   /' "$tmp/src"; }
echo "# $n5 worlds of run/vm's guest, systemd and CI hosts looked up; not run by the matrix: ${outside[*]-none}"
ok $good "the guest's and the hosts' worlds of every filesystem are in the table"
[ $failed = 0 ]
