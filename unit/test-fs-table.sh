#!/bin/bash
# The filesystem table (lib/fs/fs_table.c) as everything else asks it (TAP):
# `vfsidmap-tool fs-table` prints one row per filesystem with every field;
# ./check --fs accepts exactly the table's names (exit 2 for another, before
# anything is built); bootstrap's package list is the table's packages;
# the kernel config fragment of the table has every filesystem's symbols
# and run/kernel.config none; run/vm's module and mkfs lists come from the
# table; no shell file keeps its own list of filesystems any more; every
# row says how the filesystem is checked without a write after each test,
# or why it is not (common/fsck.sh names none); a lacking operation gets
# the row's errno; each row says where it runs and if by default.
set -u
. "$(dirname "$0")/tap-status.sh"
tool=$top/runner/vfsidmap-tool

names=$("$tool" fs-table names)
IFS=, read -ra fss <<<"$names"

# 1: header + one row per name, each with every field of the header
out=$("$tool" fs-table)
nf=$(echo "$out" | head -n 1 | awk -F '\t' '{ print NF }')
rows=$(echo "$out" | tail -n +2 | awk -F '\t' -v nf="$nf" 'NF == nf' | wc -l)
ok $([ "$rows" = "${#fss[@]}" ] && [ "${#fss[@]}" -ge 10 ] && echo 0 || echo 1) \
	"fs-table: ${#fss[@]} filesystems, $rows complete rows"
# 2: a field that does not exist is exit 2
"$tool" fs-table no-such-field >/dev/null 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "fs-table with an unknown field: exit 2"
# 3: every mkfs or image row names its mkfs and package; mount-only rows neither
bad=$("$tool" fs-table | tail -n +2 | awk -F '\t' '($2 == "mkfs" || $2 == "image") != ($3 != "-" && $4 != "-")')
ok $([ -z "$bad" ] && echo 0 || echo 1) "mkfs rows name mkfs and package, mount-only rows neither${bad:+: $bad}"
# 4: bootstrap installs exactly the table's packages: its --fs-packages
# (what it installs after the build), from a copy of it next to this
# build's tool, as in the source tree
want=$("$tool" fs-table package | cut -f2 | grep -v '^-$' | sort -u | tr '\n' ' ')
bt=$(mktemp -d /tmp/vfsidmap-fstable.XXXXXX) || exit 1
trap 'rm -rf "$bt"' EXIT
mkdir "$bt/runner" && cp -p "$src/bootstrap" "$bt/" && ln -s "$tool" "$bt/runner/vfsidmap-tool"
got=$("$bt/bootstrap" --fs-packages | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
ok $([ -n "$want" ] && [ "$want" = "$got" ] && ! grep -v '^[[:space:]]*#' "$src/bootstrap" | grep -q 'fs_table\.c' && echo 0 || echo 1) \
	"bootstrap's packages are the table's ($got)"
# 5: the kernel's filesystems come from the table alone: the fragment
# (fs-table kconfig-fragment) has every row's kconfig and kconfig_also,
# each once; run/kernel.config sets none of them; run/build-kernel merges
# the fragment
frag=$("$tool" fs-table kconfig-fragment)
missing="" dup=""
for k in $("$tool" fs-table kconfig | cut -f2 | grep -v '^-$') $("$tool" fs-table kconfig_also | cut -f2 | grep -v '^-$'); do
	grep -qx "$k=y" <<<"$frag" || missing="$missing $k"
done
dup=$(grep '^CONFIG_' <<<"$frag" | sort | uniq -d | tr '\n' ' ')
listed=""
for k in $(grep '^CONFIG_' <<<"$frag" | cut -d= -f1); do
	grep -qE "^(# )?$k[= ]" "$top/run/kernel.config" && listed="$listed $k"
done
ok $([ -z "$missing$dup$listed" ] && grep -q 'fs-table kconfig-fragment' "$top/run/build-kernel" && echo 0 || echo 1) \
	"the table's kconfig fragment has every row's symbols once, run/kernel.config none${missing:+ (missing:$missing)}${dup:+ (twice: $dup)}${listed:+ (in kernel.config:$listed)}"
# 6-7: --fs accepts each name (dry run) and refuses another with exit 2
rc_all=0
for f in "${fss[@]}"; do
	"$top/check" -n --fs "$f" >/dev/null 2>&1 || { echo "# ./check -n --fs $f: exit $?"; rc_all=1; }
done
ok $rc_all "./check -n --fs NAME accepts every table name"
out=$("$top/check" -n --fs ext4,nosuchfs 2>&1); rc=$?
ok $([ $rc = 2 ] && echo "$out" | grep -qF "known: $names" && echo 0 || echo 1) \
	"./check --fs nosuchfs: exit 2 naming the table's filesystems (got $rc)"
# 8: no list of filesystems left where the table answers: no table name
# in the code (comments aside) of the runner's shell files, bootstrap, the
# scripts that choose filesystems, the kernel config and the build files;
# run/vm mounts tmpfs for its own /tmp, so there only the old patterns
# (bench/matrix and .ci/run name the filesystems they time on purpose)
alt=$(echo "$names" | tr , '|')
hard=$(cd "$src" && for f in common/config.sh common/fs.sh common/fsck.sh common/report.sh \
	common/tests.sh bootstrap scripts/conformance-table scripts/default-expunges \
	run/build-kernel run/kernel.config Makefile.am tests/matrix/local.mk; do
	# (tests/btrfs is the btrfs suite's directory, not a list)
	grep -v '^[[:space:]]*#' "$f" | sed 's|tests/btrfs/||g' | grep -nwE "$alt" | sed "s|^|$f:|"
done; grep -nE 'ext4\|xfs\|btrfs|mkfs\.ext4 mke2fs mkfs\.xfs|ext4\) echo e2fsprogs' run/vm common/options.sh)
ok $([ -z "$hard" ] && echo 0 || echo 1) "no filesystem named in the code of the table's consumers${hard:+: $hard}"
# 9: every row has a read-only checker (its command has the image or
# device, %D, once) or says why it has none, never both; a row without a
# device (mount-only) has none
bad=$(paste <("$tool" fs-table make) <("$tool" fs-table fsck | cut -f2) <("$tool" fs-table no_fsck | cut -f2) |
	awk -F '\t' '{ d = gsub(/(^| )%D( |$)/, "&", $3) }
		($3 == "-") == ($4 == "-") || ($3 != "-" && d != 1) || ($2 == "mount-only" && $3 != "-") || NF != 4')
ok $([ -z "$bad" ] && [ "$("$tool" fs-table fsck | wc -l)" = "${#fss[@]}" ] && echo 0 || echo 1) \
	"every row has a checker (with %D once) or a reason for none, a row without a device none${bad:+: $bad}"
# 10: each checker's options say it does not write: the no-write option of
# its man page (e2fsck -n, xfs_repair -n, btrfs check --readonly, fsck.vfat
# -n, fsck.exfat -n, ntfsfix -n; fsck.f2fs --dry-run, from its --help)
checkers=$("$tool" fs-table fsck 2>&1) || checkers="fs-table fsck failed: $checkers"
bad=$(echo "$checkers" | awk -F '\t' 'NF != 2 || ($2 != "-" && $2 !~ / -f?n | --readonly | --dry-run /) { print $1 ": " $2 }')
ok $([ -z "$bad" ] && echo 0 || echo 1) "every checker runs with its no-write option${bad:+: $bad}"
# 11: common/fsck.sh takes the checker from the table: no filesystem named
# in its code (comments aside)
named=$(grep -v '^[[:space:]]*#' "$src/common/fsck.sh" | grep -nwE "$(echo "$names" | tr , '|')")
ok $([ -z "$named" ] && echo 0 || echo 1) "common/fsck.sh names no filesystem in its code${named:+: $named}"
# 12: run/vm copies every row's checker into the guest (common/fsck.sh
# names none, so the scan of its command words would not): its own
# FS_TABLE_FSCK line, run here, gives each checker program, and the tools
# it copies include them
VM_TOP=$top
fsck_progs=$("$tool" fs-table fsck | cut -f2 | grep -v '^-$' | cut -d' ' -f1 | sort -u | tr '\n' ' ')
got=$(cd "$src" && eval "$(grep '^FS_TABLE_FSCK=' run/vm)" && echo "${FS_TABLE_FSCK:-}")
ok $([ -n "$fsck_progs" ] && [ "$got" = "$fsck_progs" ] && grep -q '^modprobe .*\$FS_TABLE_FSCK' "$src/run/vm" && echo 0 || echo 1) \
	"run/vm copies the table's checkers into the guest (${got:-none})"

# 13: an operation a row lacks gets the row's own errno where the
# filesystem has the operation and fails it (fails_anyway: hugetlbfs),
# else the VFS's (vt_fs_lack_errno)
got=$("$tool" fs-lack hugetlbfs symlink | cut -f1),$("$tool" fs-lack hugetlbfs write | cut -f1),$("$tool" fs-lack hugetlbfs overlay | cut -f1),$("$tool" fs-lack hugetlbfs xattr_user | cut -f1),$("$tool" fs-lack vfat symlink | cut -f1),$("$tool" fs-lack tmpfs symlink)
ok $([ "$got" = "EINVAL,EINVAL,EINVAL,EOPNOTSUPP,EPERM,-" ] && echo 0 || echo 1) \
	"fs-lack: hugetlbfs's symlink, write and overlay fail with its own EINVAL, the rest as the VFS says ($got)"
# 14: each row says where the conformance table runs it and whether
# ./check runs it by default; the default set is not empty; only xfs
# lists its ACLs raw (xfs_xattr_put_listent)
bad=$(paste <("$tool" fs-table runs_on) <("$tool" fs-table default | cut -f2) <("$tool" fs-table lists_raw_acl | cut -f2) |
	awk -F '\t' '($2 != "host" && $2 != "guest") || ($3 != "yes" && $3 != "no") || NF != 4')
raw=$("$tool" fs-table lists_raw_acl | awk -F '\t' '$2 == "yes" { print $1 }' | tr '\n' ' ')
ok $([ -z "$bad" ] && "$tool" fs-table default | grep -q $'\tyes$' && [ "$raw" = "xfs " ] && echo 0 || echo 1) \
	"every row has runs_on host|guest and default yes|no, some default, xfs alone raw ACLs${bad:+: $bad}"
# 15: every symbol of the fragment is a config symbol of Linux 6.12 (its
# Kconfig files, from Debian's linux-source-6.12)
ksrc=/usr/src/linux-source-6.12.tar.xz
if [ -r "$ksrc" ]; then
	kc=$(mktemp -d /tmp/vfsidmap-kconfig.XXXXXX)
	tar -xJf "$ksrc" -C "$kc" --wildcards '*/fs/Kconfig' '*/fs/*/Kconfig' '*/mm/Kconfig' 2>/dev/null
	unknown=""
	for k in $(grep '^CONFIG_' <<<"$frag" | cut -d= -f1); do
		grep -rqE "^(menu)?config ${k#CONFIG_}\$" "$kc" || unknown="$unknown $k"
	done
	rm -rf "$kc"
	ok $([ -z "$unknown" ] && echo 0 || echo 1) "every symbol of the fragment is in 6.12's fs/ or mm/ Kconfig${unknown:+ (unknown:$unknown)}"
else
	skip "every symbol of the fragment is in 6.12's Kconfig" "no $ksrc"
fi

echo "1..$n"
[ "$failed" = 0 ]
