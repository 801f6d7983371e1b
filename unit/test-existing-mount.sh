#!/bin/bash
# TEST_DIR_MOUNTED=yes: a filesystem the user mounted is
# tested as it is, through a scratch directory the suite makes in it and
# removes; it is never mounted, made or repaired by the suite, and a mount
# that cannot be idmapped, or that the model does not know, is notrun with
# the reason. As TAP, in a private mount namespace (the "user's" mounts
# live there only) with a private VT_RUN_BASE. Needs root.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
PLAN=13
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	echo "1..$PLAN"
	for i in $(seq $PLAN); do echo "ok $i # SKIP needs root and unshare"; done
	exit 0
fi
if [ -z "${VT_EXM_PRIVATE:-}" ]; then
	VT_EXM_PRIVATE=1 exec unshare -m --propagation private "$0" "$@"
fi
echo "1..$PLAN"
n=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else
		echo "not ok $n $2"
		[ -f "$T/o" ] && tail -n 8 "$T/o" | sed 's/^/# /'
	fi
}
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
T=$(mktemp -d /var/tmp/vfsidmap-exm.XXXXXX)
chmod 0755 "$T"
cleanup() {
	for m in "$T"/m*; do umount -l "$m" 2>/dev/null; done
	rm -rf --one-file-system "$T"
}
trap cleanup EXIT
export VT_RUN_BASE="$T/base"
mkdir "$VT_RUN_BASE" "$T/m" "$T/mfuse" "$T/movl" "$T/mplain"
cfg() { # file, then KEY=value lines
	local f=$1; shift
	{ echo "[mine]"; printf '%s\n' "$@"; } >"$f"
}
# a scratch directory of ours (the user's own vfsidmap.1.abcdef aside)
scratch_left() { ls -d "$1"/vfsidmap.* 2>/dev/null | grep -qv "/vfsidmap.1.abcdef$"; }

# 1-3: a tmpfs the user mounted, with a file of the user's in it
mount -t tmpfs -o size=64m,mode=0755 usermnt "$T/m"
echo precious >"$T/m/userfile"
mkdir "$T/m/vfsidmap.1.abcdef" && echo mine >"$T/m/vfsidmap.1.abcdef/data"
cfg "$T/c1" "TEST_DIR=$T/m" "TEST_DIR_MOUNTED=yes"
./check -c "$T/c1" --results "$T/r1" idmapped/001 idmapped/002 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && grep -q '^2 passed, 0 failed, 0 skipped$' "$T/o" &&
	grep -q "FSTYP *-- tmpfs (mounted by the user on $T/m, used as it is)" "$T/o"; echo $?) \
	"an existing tmpfs mount: idmapped/001 and 002 run and pass on it (exit $rc)"
ok $([ "$(cat "$T/m/userfile")" = precious ] && [ "$(cat "$T/m/vfsidmap.1.abcdef/data")" = mine ] &&
	[ "$(ls -A "$T/m" | sort | tr '\n' ' ')" = "userfile vfsidmap.1.abcdef " ]; echo $?) \
	"the user's files are untouched, the scratch directory is gone, an unmarked vfsidmap.* stays"
ok $([ "$(findmnt -n -o SOURCE --mountpoint "$T/m")" = usermnt ] && [ -z "$(ls -A "$VT_RUN_BASE")" ]; echo $?) \
	"the user's mount is still there as it was; nothing left in VT_RUN_BASE"

# 4: a run killed mid-test leaves its scratch; the next run (any config)
# removes it. selftest/002 hangs on purpose, so the kill always lands
# mid-test (matrix/011 did once, until it ran in half a second).
./check -c "$T/c1" --results "$T/r2" selftest/002 >"$T/o" 2>&1 &
p=$!
for _ in $(seq 100); do scratch_left "$T/m" && [ -n "$(ls "$T/m"/vfsidmap.*.*/root 2>/dev/null)" ] && break; sleep 0.1; done
sleep 1
kill -KILL $p; wait $p 2>/dev/null
for _ in $(seq 50); do pgrep -f "$VT_RUN_BASE" >/dev/null || break; sleep 0.1; done
left=$(ls -d "$T/m"/vfsidmap.[0-9]*.* 2>/dev/null | grep -v abcdef)
./check --fs tmpfs --results "$T/r3" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ -n "$left" ] && [ ! -e "$left" ] && [ $rc = 0 ] && [ -d "$T/m/vfsidmap.1.abcdef" ]; echo $?) \
	"a SIGKILLed run's scratch directory in TEST_DIR (${left:-none seen}) is removed by the next run"

# 5-9: refused before anything is made, exit 2
bad() { # what, then config lines
	local what=$1; shift
	cfg "$T/cb" "$@"
	./check -c "$T/cb" --results "$T/rb" idmapped/001 >"$T/o" 2>&1; rc=$?
	ok $([ $rc = 2 ] && [ ! -e "$T/rb" ] && ! scratch_left "$T/mplain" && ! scratch_left "$T/m" &&
		grep -Eq "^(check|vfsidmap): " "$T/o"; echo $?) \
		"$what: exit 2 with a message, nothing made ($(grep -Em1 '^(check|vfsidmap): ' "$T/o" | cut -c1-100))"
}
bad "TEST_DIR_MOUNTED=yes on a directory nothing is mounted on" "TEST_DIR=$T/mplain" "TEST_DIR_MOUNTED=yes"
bad "TEST_DIR_MOUNTED=yes with MKFS_OPTIONS" "TEST_DIR=$T/m" "TEST_DIR_MOUNTED=yes" "MKFS_OPTIONS='-b 4096'"
bad "FSTYP that is not what is mounted" "TEST_DIR=$T/m" "TEST_DIR_MOUNTED=yes" "FSTYP=ext4"
bad "TEST_DIR_MOUNTED=maybe" "TEST_DIR=$T/m" "TEST_DIR_MOUNTED=maybe"
bad "a mounted TEST_DIR without TEST_DIR_MOUNTED=yes" "TEST_DIR=$T/m"

# 10: a filesystem the suite cannot test there: notrun, with why (6.18 and
# 6.12 refuse to idmap overlayfs itself: EINVAL; one that can be idmapped
# but has no row in lib/fs/fs_table.c gets "has no row" the same way)
mkdir "$T/lower" "$T/upper" "$T/work"
if mount -t overlay -o "lowerdir=$T/lower,upperdir=$T/upper,workdir=$T/work" ovl "$T/movl" 2>/dev/null; then
	cfg "$T/c2" "TEST_DIR=$T/movl" "TEST_DIR_MOUNTED=yes"
	./check -c "$T/c2" --results "$T/r4" idmapped/001 >"$T/o" 2>&1; rc=$?
	ok $([ $rc = 0 ] && grep -Eq "not run\] $T/movl \(overlay, mounted by the user\): (overlay cannot be idmapped|.*has no row)" "$T/o" &&
		! scratch_left "$T/movl"; echo $?) "an overlay mount: notrun with the reason"
else
	skip "no overlay filesystem"
fi

# 11: a FUSE mount without default_permissions (fuse2fs): notrun, saying
# so (6.12 fs/fuse/inode.c process_init_reply idmaps FUSE only with
# default_permissions); a kernel before 6.12 has no FUSE idmapping at all
old_kernel=$(uname -r | awk -F. '{ print ($1 < 6 || ($1 == 6 && $2 < 12)) ? 1 : 0 }')
if [ "$old_kernel" = 1 ]; then
	fuse_no_dp="fuse.ext4 cannot be idmapped on this kernel .*since Linux 6.12"
	fuse_no_flag="fuse.vfsidmap cannot be idmapped on this kernel .*since Linux 6.12"
else
	fuse_no_dp="the FUSE mount \(fuse.ext4\) has no default_permissions"
	fuse_no_flag="the FUSE server \(fuse.vfsidmap\) did not ask FUSE_ALLOW_IDMAP in its INIT reply"
fi
if command -v fuse2fs >/dev/null && [ -e /dev/fuse ]; then
	truncate -s 32m "$T/fuse.img" && mkfs.ext4 -q -F "$T/fuse.img" &&
		fuse2fs -o fakeroot "$T/fuse.img" "$T/mfuse" >/dev/null 2>&1
	cfg "$T/c3" "TEST_DIR=$T/mfuse" "TEST_DIR_MOUNTED=yes"
	./check -c "$T/c3" --results "$T/r5" idmapped/001 >"$T/o" 2>&1; rc=$?
	ok $([ $rc = 0 ] && grep -Eq "not run.*$fuse_no_dp" "$T/o" && ! scratch_left "$T/mfuse"; echo $?) \
		"a FUSE mount (fuse2fs) without default_permissions: notrun, saying so"
	umount "$T/mfuse"
else
	skip "no fuse2fs (Debian package fuse2fs) or /dev/fuse"
fi

# 12: an ext4 the user mounted: tested, never fsck'ed or remade by the suite
truncate -s 64m "$T/e.img" && mkfs.ext4 -q -F "$T/e.img"
mkdir "$T/mext" && mount -o loop "$T/e.img" "$T/mext"
cfg "$T/c4" "TEST_DIR=$T/mext" "TEST_DIR_MOUNTED=yes" "FSTYP=ext4"
./check -c "$T/c4" --results "$T/r6" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && grep -q '^1 passed, 0 failed, 0 skipped$' "$T/o" &&
	[ -z "$(find "$T/r6" -name '*.fsck')" ] && ! scratch_left "$T/mext" &&
	[ "$(ls -A "$T/mext")" = lost+found ]; echo $?) \
	"an existing ext4 mount: idmapped/001 passes, no fsck of a filesystem the suite did not make, scratch gone"
umount "$T/mext"

# 13: a FUSE server that does not ask FUSE_ALLOW_IDMAP in its INIT reply
# (the suite's own, --no-allow-idmap; mounted with default_permissions):
# notrun blaming the server, not the kernel
if [ -e /dev/fuse ] && [ -x "$top/runner/vfsidmap-fuse-server" ]; then
	mkdir "$T/fb" "$T/mfs"
	"$top/runner/vfsidmap-fuse-server" --no-allow-idmap "$T/fb" "$T/mfs" "$T/fuse.log" >"$T/fuse.out" 2>&1 &
	fpid=$!
	for _ in $(seq 50); do grep -q '^ready$' "$T/fuse.out" 2>/dev/null && break; sleep 0.1; done
	cfg "$T/c5" "TEST_DIR=$T/mfs" "TEST_DIR_MOUNTED=yes"
	./check -c "$T/c5" --results "$T/r7" idmapped/001 >"$T/o" 2>&1; rc=$?
	ok $([ $rc = 0 ] && grep -Eq "not run.*$fuse_no_flag" "$T/o" && ! scratch_left "$T/mfs"; echo $?) \
		"a FUSE server that did not ask FUSE_ALLOW_IDMAP: notrun, blaming the server"
	umount "$T/mfs"
	wait "$fpid"
else
	skip "no /dev/fuse or runner/vfsidmap-fuse-server"
fi
