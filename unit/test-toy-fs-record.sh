#!/bin/bash
# A filesystem is one record (lib/fs/fs_table.c): a toy row added at build
# time (unit/toy-fs-row.h, built into unit/toy-fs-tool through
# VT_FS_EXTRA_ROWS) reaches every consumer outside C, which ask
# `vfsidmap-tool fs-table` and keep no list of their own (TAP). The toy
# tree is the build tree with the toy tool as runner/vfsidmap-tool and one
# more file, expunge/toyfs. Nothing is mounted (no kernel has a toyfs):
# ./check runs dry (-n), run/build-kernel runs on a fake kernel tree whose
# make and merge_config.sh only record what they are given.
#  1: fs-table prints the toy's row with every column, and its own values
#  2: ./check -n --fs toyfs accepts it
#  3: ./check -n without --fs runs it (its row is in the default set)
#  4: ./check applies expunge/toyfs to it by name
#  5: the build's default expunge files (scripts/default-expunges) have it
#  6: common/fsck.sh runs the row's checker with the row's options
#  7: scripts/conformance-table places it where the row says (guest)
#  8: bootstrap installs the row's package
#  9: the kernel config fragment has the row's symbols, and
#     run/build-kernel merges them into the kernel's config
# 10: the C side: the row's fails_anyway and lists_raw_acl are answered
#     from the row (vt_fs_lack_errno through fs-table's columns)
set -u
. "$(dirname "$0")/tap-status.sh"
toy=$top/unit/toy-fs-tool
echo "1..10"
if [ ! -x "$toy" ]; then
	for i in 1 2 3 4 5 6 7 8 9 10; do ok 1 "unit/toy-fs-tool is not built (make check builds it)"; done
	exit 1
fi
work=$(mktemp -d /var/tmp/vt-toyfs.XXXXXX) || exit 1
trap 'rm -rf --one-file-system "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/runs" "$work/tmp"
export VT_RUN_BASE=$work/runs TMPDIR=$work/tmp
unset FSTYP VT_FS_ARG

# The toy tree: every entry of the build tree, by symlink, but these:
# check and bootstrap copied (they find the tree from their own path),
# runner/, run/, scripts/ and expunge/ real directories of symlinks (their
# scripts reach ../runner from their own directory), runner's tool the toy.
t=$work/tree
mkdir "$t"
for e in "$top"/* "$src"/bootstrap "$src"/scripts; do
	b=${e##*/}
	[ -e "$t/$b" ] && continue
	case $b in
	check|bootstrap) cp -p "$e" "$t/$b" ;;
	local.config|results) ;;
	runner|run|scripts|expunge)
		mkdir "$t/$b"
		for f in "$e"/*; do ln -s "$f" "$t/$b/${f##*/}"; done ;;
	*) ln -s "$e" "$t/$b" ;;
	esac
done
for d in runner run scripts expunge; do
	[ -d "$t/$d" ] || mkdir "$t/$d"
done
for f in "$src"/scripts/* "$src"/run/*; do
	d=${f%/*}; d=${d##*/}
	[ -e "$t/$d/${f##*/}" ] || ln -s "$f" "$t/$d/${f##*/}"
done
rm -f "$t/runner/vfsidmap-tool"
ln -s "$toy" "$t/runner/vfsidmap-tool"
echo 'idmapped/001 # the toy record has no idmapped/001' >"$t/expunge/toyfs"

# 1
row=$("$t/runner/vfsidmap-tool" fs-table | awk -F '\t' 'NR == 1 { nf = NF } $1 == "toyfs" && NF == nf')
names=$("$t/runner/vfsidmap-tool" fs-table names)
echo "# $row"
ok $([[ ",$names," == *,toyfs,* ]] && [[ "$row" == *$'\t'mkfs$'\t'mkfs.toyfs$'\t'toyfs-progs$'\t'CONFIG_TOYFS_FS$'\t'* ]] &&
	[[ "$row" == *$'\t'guest$'\t'yes$'\t'CONFIG_TOYFS_POSIX_ACL$'\t'yes ]] && echo 0 || echo 1) \
	"fs-table: the toy's row, complete, with its own values"
# 2
out=$("$t/check" -n --fs toyfs idmapped/002 2>&1); rc=$?
ok $([ $rc = 0 ] && grep -q '^SECTION -- toyfs (FSTYP=toyfs)$' <<<"$out" && echo 0 || echo 1) \
	"./check -n --fs toyfs accepts it (exit $rc)"
# 3
out=$("$t/check" -n idmapped/002 2>&1); rc=$?
ok $([ $rc = 0 ] && grep -q '^SECTION -- toyfs ' <<<"$out" && grep -q '^SECTION -- ext4 ' <<<"$out" && echo 0 || echo 1) \
	"./check -n without --fs runs the table's default set, the toy's row with it (exit $rc)"
# 4
out=$("$t/check" -n --fs toyfs,tmpfs idmapped/001 2>&1)
ok $(awk '/^SECTION -- toyfs/ { s = "t" } /^SECTION -- tmpfs/ { s = "m" }
	s == "t" && /idmapped\/001 \[expunged: the toy record/ { a = 1 }
	s == "m" && /^  idmapped\/001$/ { b = 1 } END { exit !(a && b) }' <<<"$out" && echo 0 || echo 1) \
	"./check applies expunge/toyfs to toyfs runs only"
# 5
out=$("$t/scripts/default-expunges" "$t/runner/vfsidmap-tool" "$t" 2>&1)
ok $(grep -q '^expunge/toyfs [0-9a-f]\{64\}$' <<<"$out" && grep -q '^expunge/xfs ' <<<"$out" && echo 0 || echo 1) \
	"the build's default expunge files include expunge/toyfs"
# 6
out=$(VT_TOP=$t VT_TOOL=$t/runner/vfsidmap-tool bash -c '
	. "$VT_TOP/common/fs.sh"; . "$VT_TOP/common/fsck.sh"
	vt_fsck_cmd toyfs /img/toy own; echo "${VT_FSCK[*]}|$VT_FSCK_QUIET|$VT_FSCK_NONE"' 2>&1)
ok $([ "$out" = 'fsck.toyfs -n /img/toy|^toyfs clean$|' ] && echo 0 || echo 1) \
	"common/fsck.sh checks toyfs with the row's checker (${out})"
# 7 (from $work, under timeout: a script without -n would take it for
# its OUT directory and start real runs)
out=$(cd "$work" && timeout 30 "$t/scripts/conformance-table" -n 2>&1); rc=$?
ok $([ $rc = 0 ] && grep -qx 'guest toyfs' <<<"$out" && ! grep -qx 'host toyfs' <<<"$out" &&
	grep -qx 'host ext4' <<<"$out" && echo 0 || echo 1) \
	"scripts/conformance-table runs toyfs in the guest, as its row says (exit $rc)"
# 8 (only a bootstrap that knows --fs-packages is run: another would
# configure and make in the toy tree, whose directories are the build's)
if grep -q -- '--fs-packages' "$t/bootstrap"; then
	out=$("$t/bootstrap" --fs-packages 2>&1); rc=$?
else
	out="bootstrap has no --fs-packages" rc=2
fi
ok $([ $rc = 0 ] && [[ " $out " == *" toyfs-progs "* ]] && [[ " $out " == *" e2fsprogs "* ]] && echo 0 || echo 1) \
	"bootstrap installs the row's package ($out)"
# 9: a fake kernel tree: make writes an empty .config for the base and a
# bzImage, merge_config.sh appends the fragments it is given
k=$work/kernel
mkdir -p "$k/src/scripts/kconfig" "$work/bin"
echo '# a kernel tree, as far as run/build-kernel looks' >"$k/src/Makefile"
cat >"$k/src/scripts/kconfig/merge_config.sh" <<'EOF'
#!/bin/sh
# merge_config.sh -m -O DIR BASE FRAGMENT...: the fragments appended
out=$3 base=$4
shift 4
cat "$@" >>"$base"
EOF
cat >"$work/bin/make" <<'EOF'
#!/bin/sh
for a; do case $a in O=*) b=${a#O=} ;; esac; last=$a; done
case $last in
tinyconfig|defconfig) : >"$b/.config" ;;
bzImage) mkdir -p "$b/arch/x86/boot" && : >"$b/arch/x86/boot/bzImage" ;;
esac
EOF
chmod +x "$k/src/scripts/kconfig/merge_config.sh" "$work/bin/make"
frag=$("$t/runner/vfsidmap-tool" fs-table kconfig-fragment)
out=$(PATH=$work/bin:$PATH "$t/run/build-kernel" "$k/src" "$k/out" 2>&1); rc=$?
ok $([ $rc = 0 ] && grep -qx 'CONFIG_TOYFS_FS=y' <<<"$frag" && grep -qx 'CONFIG_TOYFS_POSIX_ACL=y' <<<"$frag" &&
	grep -qx 'CONFIG_TOYFS_FS=y' "$k/out/build/.config" && grep -qx 'CONFIG_TOYFS_POSIX_ACL=y' "$k/out/build/.config" &&
	grep -qx 'CONFIG_EXT4_FS=y' "$k/out/build/.config" && echo 0 || echo 1) \
	"run/build-kernel merges the row's kconfig and kconfig_also (exit $rc)"
[ $rc = 0 ] || sed 's/^/# /' <<<"$out"
# 10
lacks=$("$t/runner/vfsidmap-tool" fs-lack toyfs symlink 2>&1)
ok $([ "$lacks" = "EROFS	toyfs_symlink: EROFS (a toy rule)" ] &&
	[ "$("$t/runner/vfsidmap-tool" fs-lack toyfs devnode | cut -f1)" = EPERM ] && echo 0 || echo 1) \
	"fails_anyway is the row's: toyfs's symlink fails with its own errno ($lacks)"
[ "$failed" = 0 ]
