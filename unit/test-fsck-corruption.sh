#!/bin/bash
# The per-test fsck (common/fsck.sh) finds what a kernel bug would leave on
# a filesystem the suite made, and the next test gets a fresh image.
#  - xfs, btrfs: ./check runs api/001 and api/002 (both write: a directory
#    per case) on its own loop-backed image. A stand-in for the checker,
#    first in PATH, corrupts the image on its first call, then runs the real
#    checker: that call is the fsck step after api/001, so the corruption
#    is made after the test wrote, with its mount namespace and loop device
#    gone (the stand-in records that no loop device holds the image). The
#    test fails with the checker's finding on the terminal, in check.log,
#    in results.ktap and in result.xml (valid against doc/junit.xsd); the
#    image is made again, api/002 runs on it and passes, its fsck clean.
#  - vfat: this host's kernel may have no vfat, so no test can run on it;
#    the fsck step itself (vt_fsck_after) checks an image made by the
#    suite's own `vfsidmap-tool mkimage vfat`, clean and then with a
#    cluster marked in use that no file owns.
#  - A notrun test is not checked on its own (as xfstests): the check
#    after the next test covers it; the section's last started test
#    always is; a run never started (out of scope) is not named.
#  - Nothing is left behind: no run directory, image, mount or loop device.
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts, loop devices"
echo "1..10"
unit_workdir fsck
mkdir -p "$work/bin"
export PATH=$work/bin:$PATH:/sbin:/usr/sbin
cd "$top" || exit 1
xsd=$src/doc/junit.xsd
tool=$top/runner/vfsidmap-tool

# A stand-in NAME for the checker: on its first call with CHECK-ARGS it
# runs CORRUPT on the image (the last argument); every call runs the real
# checker. It logs each call: "call" and, before corrupting, the loop
# devices holding the image (none: the test's namespace is gone).
stand_in() { # name check-args-glob corrupt-function
	local real
	real=$(command -v "$1")
	{
		echo '#!/bin/bash'
		echo "log=$work/$1.log"
		echo 'img=${!#}'
		echo "case \"\$*\" in $2)"
		echo '	echo "call $img" >>"$log"'
		echo "	if [ ! -e \$log.done ]; then"
		echo '		echo "loop: [$(losetup -j "$img")]" >>"$log"'
		declare -f "$3"
		echo "		$3 \"\$img\" >>\"\$log\" 2>&1 && : >\"\$log.done\""
		echo '	fi ;;'
		echo 'esac'
		echo "exec $real \"\$@\""
	} >"$work/bin/$1"
	chmod +x "$work/bin/$1"
}

# xfs: the root directory's link count, 2 plus one per subdirectory
# (xfs_create/xfs_bumplink; the tests remove theirs), made 9; xfs_repair's
# phase 7 counts the links: "would have reset inode N nlinks from 9 to M".
corrupt_xfs() {
	local root
	root=$(xfs_db -r -c 'sb 0' -c 'p rootino' "$1" | sed -n 's/^rootino = //p')
	xfs_db -x -c "inode $root" -c 'p core.nlinkv2' -c 'write core.nlinkv2 9' "$1"
}

# btrfs: the root directory's i_size, which is twice the sum of its
# entries' name lengths (btrfs_add_link adds name_len * 2), made odd
# (12345); `btrfs check` compares it with the entries it finds: "root 5
# inode 256 errors 200, dir isize wrong". The fs tree leaf holding inode
# 256's INODE_ITEM is rewritten in every mirror (metadata is DUP by
# default), its crc32c checksum recomputed, so the tree reads as valid and
# only the size is wrong.
corrupt_btrfs() {
	local img=$1 leaf itemoff nodesize phys
	read -r leaf itemoff < <(btrfs inspect-internal dump-tree -t 5 "$img" |
		awk '/^leaf [0-9]+ items/ { leaf = $2 }
		     /key \(256 INODE_ITEM 0\) itemoff/ { for (i = 1; i < NF; i++) if ($i == "itemoff") print leaf, $(i + 1); exit }')
	nodesize=$(btrfs inspect-internal dump-super "$img" | awk '$1 == "nodesize" { print $2 }')
	phys=$(btrfs-map-logical -l "$leaf" "$img" | awk '$1 == "mirror" { print $6 }')
	echo "leaf $leaf itemoff $itemoff nodesize $nodesize physical $phys"
	[ -n "$leaf" ] && [ -n "$itemoff" ] && [ -n "$nodesize" ] && [ -n "$phys" ] || return 1
	# struct btrfs_leaf: a 101-byte header, item data at header + itemoff;
	# struct btrfs_inode_item: generation, transid, then size (offset 16);
	# the checksum (crc32c, csum_type 0) covers the block from byte 32 on.
	python3 - "$img" "$nodesize" $((101 + itemoff + 16)) $phys <<'EOF'
import struct, sys
table = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    table.append(c)
def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF
img, nodesize, off = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(img, "r+b") as f:
    for phys in map(int, sys.argv[4:]):
        f.seek(phys)
        blk = bytearray(f.read(nodesize))
        if struct.unpack_from("<I", blk, 0)[0] != crc32c(blk[32:]):
            sys.exit("the block at %d is not a valid tree block" % phys)
        print("size was", struct.unpack_from("<Q", blk, off)[0])
        struct.pack_into("<Q", blk, off, 12345)
        struct.pack_into("<I", blk, 0, crc32c(blk[32:]))
        f.seek(phys)
        f.write(blk)
EOF
}

# fs checker check-args-glob finding-regex
run_two() {
	local fs=$1 checker=$2 glob=$3 finding=$4 r=$work/$1 rc calls img
	if ! "$tool" fs-in-kernel "$fs" || ! command -v "$checker" >/dev/null ||
		! command -v "mkfs.$fs" >/dev/null || ! command -v python3 >/dev/null; then
		skip "$fs: no $fs in the kernel, or $checker, mkfs.$fs or python3 missing"
		skip "$fs: (as above)"
		skip "$fs: (as above)"
		return
	fi
	stand_in "$checker" "$glob" "corrupt_$fs"
	./check --fs "$fs" api/001 api/002 --results "$r" >"$r.out" 2>&1
	rc=$?
	calls=$(grep -c '^call ' "$work/$checker.log" 2>/dev/null)
	img=$(sed -n 's/^call //p' "$work/$checker.log" | head -n 1)
	check_ '[ $rc -eq 1 ] && [ -e "$work/$checker.log.done" ] && grep -q "^loop: \[\]$" "$work/$checker.log" &&
		grep -qE "^api/001 .*\[failed\] fsck after the test: $checker .* exit [1-9][0-9]*: .*$finding" "$r.out"' \
		"$fs: the image corrupted after api/001 wrote and was let go (no loop device held it): api/001 fails with the checker's finding (exit $rc)"
	[ $rc -eq 1 ] || sed 's/^/# /' "$r.out" | head -n 20
	check_ 'grep -qE "^api/001 fail .*fsck after the test: .*$finding" "$r/check.log" &&
		grep -qE "^# $fs:api/001: fsck after the test: .*$finding" "$r/results.ktap" && grep -q "^not ok 1 $fs:api/001$" "$r/results.ktap" &&
		grep -qE "<failure type=\"fsck\" message=\"fsck after the test: [^\"]*$finding" "$r/result.xml" &&
		xmllint --noout --schema "$xsd" "$r/result.xml" 2>/dev/null &&
		grep -qE "$finding" "$r/$fs/api/001.fsck" && grep -qE "^# fsck: .*$finding" "$r/$fs/api/001.out.bad"' \
		"$fs: the finding is in check.log, results.ktap, result.xml (valid JUnit), 001.fsck and 001.out.bad"
	check_ '[ "$calls" = 2 ] && grep -q "^ok 2 $fs:api/002$" "$r/results.ktap" && grep -q "^api/002 pass" "$r/check.log" &&
		[ "$(grep -c "^ok [0-9]" "$r/$fs/api/002.ktap")" = "$(sed -n "s/^1\.\.//p" "$r/$fs/api/002.ktap")" ] &&
		[ ! -e "$r/$fs/api/002.fsck" ] && grep -q "^FSCK .* ${img##*/} on $fs was found corrupted after api/001; made again for the next test$" "$r/check.log"' \
		"$fs: the image was made again: api/002 ran on it, passed, and its fsck found nothing (checker calls: $calls)"
}

run_two xfs xfs_repair '"-n -f "*' 'would have reset inode [0-9]+ nlinks from 9 to [0-9]+'
run_two btrfs btrfs '"check --readonly "*' 'root 5 inode 256 errors 200, dir isize wrong'

# --- a notrun test is not checked on its own, as in xfstests (its check
# skips _check_filesystems after a .notrun): the next check covers it and
# names it; the section's last test that is started is checked even when
# notrun. api/009 and api/012 are notrun here with the executor started
# (every case expunged by -E: the test skips each); btrfs/001 is notrun on
# xfs by the filesystem table (tests/out-of-scope.tsv) and never started,
# so nothing of it can have touched the image and it is not named. In
# this order (--exact-order) the stand-in corrupts at its first call,
# which must be the one after idmapped/002.
if "$tool" fs-in-kernel xfs && command -v xfs_repair >/dev/null && command -v mkfs.xfs >/dev/null; then
	# (run_two's stand-in, if it made one, is reused: a new one would find
	# itself first in PATH as the real checker)
	rm -f "$work/xfs_repair.log" "$work/xfs_repair.log.done"
	[ -x "$work/bin/xfs_repair" ] || stand_in xfs_repair '"-n -f "*' corrupt_xfs
	r=$work/xfs-notrun
	for t in api/009 api/012; do
		for c in $("tests/$t" --list-cases); do echo "$t/$c # all of it expunged for this test"; done
	done >"$work/all-cases.expunge"
	./check --fs xfs -E "$work/all-cases.expunge" --exact-order api/009 btrfs/001 idmapped/002 api/012 \
		--results "$r" >"$r.out" 2>&1
	rc=$?
	calls=$(grep -c '^call ' "$work/xfs_repair.log" 2>/dev/null)
	check_ '[ $rc -eq 1 ] && [ "$calls" = 2 ] && grep -qE "^api/009 notrun [0-9]+s \([1-9][0-9]*ms\)" "$r/check.log" &&
		grep -qE "^api/012 notrun [0-9]+s \([1-9][0-9]*ms\)" "$r/check.log" && grep -q "^btrfs/001 notrun 0s (0ms) not for xfs" "$r/check.log" &&
		grep -qE "^idmapped/002 fail .*fsck after the test: xfs_repair .*would have reset inode .*; the filesystem was last checked before api/009 \(notrun, not checked on their own\)" "$r/check.log" &&
		grep -q "^== also since the last check (notrun, not checked on their own): api/009$" "$r/xfs/idmapped/002.fsck"' \
		"xfs: the started notrun api/009 is not checked on its own; the check after idmapped/002 finds the corruption and names api/009 (not btrfs/001, never started); the last test (api/012, notrun) is checked (checker calls: $calls, exit $rc)"
	[ $rc -eq 1 ] || sed 's/^/# /' "$r.out" | head -n 20
else
	skip "xfs: no xfs in the kernel, or xfs_repair or mkfs.xfs missing"
fi

# --- vfat: the fsck step on the suite's image, without a vfat mount
vimg=$work/vfat.img
if ! command -v fsck.vfat >/dev/null || ! command -v mkfs.vfat >/dev/null; then
	skip "vfat: fsck.vfat or mkfs.vfat missing"
	skip "vfat: (as above)"
else
	"$tool" mkimage vfat "$vimg" "" >/dev/null 2>&1
	# vt_fsck_after as common/run.sh calls it after a test on section
	# "vfat"; remaking the image (vt_prepare_fs, common/fs.sh) mounts it,
	# which this kernel may not do: here it is recorded only.
	fsck_step() {
		VT_TOP=$top VT_STAGE=$work/stage VT_FS_SOURCE=$vimg VT_FS_ERROR="" VT_FS_NOTRUN="" \
			bash -c '
			declare -a VT_S_FS=(vfat) VT_S_NAME=(vfat) VT_S_DEV=("")
			vt_prepare_fs() { echo "remade $1"; }
			source "$VT_TOP/common/fsck.sh"
			vt_fsck_after 0 "$1"
			echo "fail=$VT_FSCK_FAIL"
			echo "note=$VT_FSCK_NOTE"' fsck-step "$1"
	}
	mkdir -p "$work/stage/vfat/api"
	fsck_step "$work/stage/vfat/api/001" >"$work/v1.out" 2>&1
	check_ 'grep -q "^fail=$" "$work/v1.out" && grep -q "^note=$" "$work/v1.out" && ! grep -q remade "$work/v1.out" && [ ! -e "$work/stage/vfat/api/001.fsck" ]' \
		"vfat: the suite's fresh image passes fsck.vfat -n"
	# The FAT: reserved sectors, then the FAT copies (BPB: bytes per sector
	# at 11, reserved sectors at 14, FAT copies at 16, sectors per FAT at 22;
	# 0 there means FAT32). Cluster 100's entry set to end-of-chain in every
	# copy: a cluster in use that no file owns, which fsck.fat reclaims
	# ("Reclaimed 1 unused cluster"; dosfstools check.c reclaim_free).
	u16() { od -An -t u2 -j "$2" -N 2 "$1" | tr -d ' '; }
	bps=$(u16 "$vimg" 11) res=$(u16 "$vimg" 14) spf=$(u16 "$vimg" 22)
	nfat=$(od -An -t u1 -j 16 -N 1 "$vimg" | tr -d ' ')
	if [ "$spf" != 0 ]; then entry='\xff\xff' width=2
	else spf=$(od -An -t u4 -j 36 -N 4 "$vimg" | tr -d ' ') entry='\xff\xff\xff\x0f' width=4; fi
	for k in $(seq 0 $((nfat - 1))); do
		printf "$entry" | dd of="$vimg" bs=1 seek=$(((res + k * spf) * bps + 100 * width)) conv=notrunc status=none
	done
	fsck_step "$work/stage/vfat/api/002" >"$work/v2.out" 2>&1
	check_ 'grep -q "^fail=fsck after the test: fsck.vfat -n .* exit 1: Reclaimed 1 unused cluster (.*)\. (see 002.fsck)$" "$work/v2.out" &&
		grep -q "^remade 0$" "$work/v2.out" && grep -q "^Reclaimed 1 unused cluster" "$work/stage/vfat/api/002.fsck" &&
		grep -q "^FSCK .* vfat.img on vfat was found corrupted after api/002; made again for the next test$" "$work/stage/check.log"' \
		"vfat: a cluster no file owns fails the step with fsck.vfat's finding, 002.fsck written, the image to be made again"
fi

left=$(find "$work/runs" "$work/tmp" -mindepth 1 -maxdepth 1 | tr '\n' ' ')
left+=$(findmnt -rn -o TARGET | grep -F "$work" | tr '\n' ' ')
left+=$(losetup -a 2>/dev/null | grep -F "$work" | tr '\n' ' ')
check_ '[ -z "$left" ]' "nothing left behind${left:+ (left: $left)}"
