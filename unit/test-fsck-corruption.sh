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
#  - vfat, msdos, ext4, exfat, f2fs, ntfs3: this host's kernel may have
#    none of them but ext4, so no test can run on them; the fsck step
#    itself (vt_fsck_after) checks an image made by the suite's own
#    `vfsidmap-tool mkimage FS` with the checker of the filesystem's row
#    (lib/fs/fs_table.c): fresh, it passes; with a corruption the checker
#    must find, it fails the test with the finding; neither check writes
#    the image.
#  - tmpfs (no device) and erofs (a read-only image): their rows have no
#    checker, and the step says why, once in check.log, in each test's
#    note.
#  - A notrun test is not checked on its own (as xfstests): the check
#    after the next test covers it; the section's last started test
#    always is; a run never started (out of scope) is not named.
#  - Nothing is left behind: no run directory, image, mount or loop device.
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts, loop devices"
echo "1..22"
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

# --- the fsck step itself (vt_fsck_after, as common/run.sh calls it after
# a test) on images the suite makes (`vfsidmap-tool mkimage`), without a
# mount: this host's kernel may have none of these filesystems. Remaking
# the image (vt_prepare_fs, common/fs.sh) mounts it: here it is recorded
# only. After each test (BASE, in one shell as in a run), prints the
# failure reason, the note and the command it ran.
fsck_step() { # fs source base...
	VT_TOP=$top VT_TOOL=$tool VT_STAGE=$work/stage VT_FS_SOURCE=$2 VT_FS_ERROR="" VT_FS_NOTRUN="" \
		VT_T_RESULT=pass bash -c '
		set -u
		declare -a VT_S_FS=("$1") VT_S_NAME=("$1") VT_S_DEV=("") VT_S_DIR=("")
		source "$VT_TOP/common/fs.sh"
		vt_prepare_fs() { echo "remade $1"; }
		source "$VT_TOP/common/fsck.sh"
		for base in "${@:3}"; do
			vt_fsck_after 0 "$base"
			echo "fail=$VT_FSCK_FAIL"
			echo "note=$VT_FSCK_NOTE"
			echo "cmd=${VT_FSCK[*]}"
		done' fsck-step "$@"
}

# The corruptions, each one a checker must find, on the image (argument):
# FAT (vfat, msdos): the FAT follows the reserved sectors (BPB: bytes per
# sector at 11, reserved sectors at 14, FAT copies at 16, sectors per FAT
# at 22; 0 there means FAT32, its count at 36). Cluster 100's entry set to
# end-of-chain in every copy: a cluster in use that no file owns, which
# fsck.fat reclaims ("Reclaimed 1 unused cluster"; dosfstools check.c
# reclaim_free).
u16() { od -An -t u2 -j "$2" -N 2 "$1" | tr -d ' '; }
u8() { od -An -t u1 -j "$2" -N 1 "$1" | tr -d ' '; }
u32() { od -An -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
poke() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; } # image offset bytes
corrupt_fat() {
	local bps res spf nfat entry width k
	bps=$(u16 "$1" 11) res=$(u16 "$1" 14) spf=$(u16 "$1" 22) nfat=$(u8 "$1" 16)
	if [ "$spf" != 0 ]; then entry='\xff\xff' width=2
	else spf=$(u32 "$1" 36) entry='\xff\xff\xff\x0f' width=4; fi
	for k in $(seq 0 $((nfat - 1))); do
		poke "$1" $(((res + k * spf) * bps + 100 * width)) "$entry"
	done
}
corrupt_vfat() { corrupt_fat "$1"; }
corrupt_msdos() { corrupt_fat "$1"; }
# ext4: the root directory's link count (inode 2: 2 plus one per
# subdirectory, lost+found) made 9; debugfs's sif writes the inode with
# its checksum; e2fsck pass 4 counts the links: "Inode 2 ref count is 9,
# should be 3".
corrupt_ext4() { debugfs -w -R "sif <2> links_count 9" "$1" 2>/dev/null; }
# exfat: the root directory's FAT entry (FatOffset at 80, in sectors of
# 2^BytesPerSectorShift (108); FirstClusterOfRootDirectory at 96), an
# end of chain on a fresh image, made to point at cluster 5000, which is
# free: "the cluster chain of root is broken" (exfatprogs fsck.c).
corrupt_exfat() {
	local fat=$(($(u32 "$1" 80) << $(u8 "$1" 108))) root
	root=$(u32 "$1" 96)
	poke "$1" $((fat + root * 4)) '\x88\x13\x00\x00'
}
# f2fs: the root inode (nid and ino 3 on a fresh image: the node footer,
# the last 24 bytes of its 4 KiB block, starts with nid and ino) has
# i_links at byte 12 (struct f2fs_inode: i_mode, i_advise, i_inline,
# i_uid, i_gid, i_links); 2 made 9: "ino: 0x3 i_links: 9, real links: 2".
corrupt_f2fs() {
	python3 - "$1" <<'EOF'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    blk, n = 0, 0
    while True:
        b = f.read(4096)
        if len(b) < 4096:
            break
        if struct.unpack_from("<H", b, 0)[0] == 0o40755 and struct.unpack_from("<II", b, 4096 - 24) == (3, 3):
            print("root inode in block", blk, "i_links", struct.unpack_from("<I", b, 12)[0])
            f.seek(blk * 4096 + 12)
            f.write(struct.pack("<I", 9))
            f.seek((blk + 1) * 4096)
            n += 1
        blk += 1
    sys.exit(0 if n == 1 else "%d root inode blocks" % n)
EOF
}
# ntfs3 (mkfs.ntfs): the boot sector gives the cluster of $MFTMirr (u64 at
# 0x38; bytes per sector at 11, sectors per cluster at 13); the sequence
# number (0x10) of its copy of record 0 changed: "$MFTMirr does not match
# $MFT (record 0)" (ntfs-3g ntfsfix.c, fix_mftmirr).
corrupt_ntfs3() {
	local mirr
	mirr=$(od -An -t u8 -j $((0x38)) -N 8 "$1" | tr -d ' ')
	poke "$1" $((mirr * $(u16 "$1" 11) * $(u8 "$1" 13) + 0x10)) '\x07'
}

# check_, and on a failure the first lines of FILEs as TAP comments
check_show() { # condition name file...
	local c=$1 m=$2
	shift 2
	if eval "$c"; then ok "$m"; else nok "$m"; sed 's/^/# /' "$@" | head -n 8; fi
}

# fs checker mkfs finding-regex: a fresh image passes the row's checker,
# the corrupted one fails the test with its finding; neither check writes
# the image (its sha256 before and after).
image_step() {
	local fs=$1 checker=$2 finding=$4 img=$work/$1.img st=$work/stage/$1/api sum
	if ! command -v "$checker" >/dev/null || ! command -v "$3" >/dev/null; then
		skip "$fs: $checker or $3 missing"
		skip "$fs: (as above)"
		return
	fi
	mkdir -p "$st"
	rm -f "$img"
	"$tool" mkimage "$fs" "$img" "" >/dev/null 2>&1
	sum=$(sha256sum <"$img")
	fsck_step "$fs" "$img" "$st/001" >"$work/$fs.1.out" 2>&1
	check_show 'grep -q "^fail=$" "$work/$fs.1.out" && grep -q "^note=$" "$work/$fs.1.out" && ! grep -q remade "$work/$fs.1.out" &&
		grep -q "^cmd=$checker .*$img$" "$work/$fs.1.out" && [ ! -e "$st/001.fsck" ] && [ "$(sha256sum <"$img")" = "$sum" ]' \
		"$fs: the suite's fresh image passes the row's checker ($(sed -n 's/^cmd=//p' "$work/$fs.1.out")), which does not write it" \
		"$work/$fs.1.out"
	corrupt_"$fs" "$img" >>"$work/$fs.corrupt" 2>&1
	sum=$(sha256sum <"$img")
	fsck_step "$fs" "$img" "$st/002" >"$work/$fs.2.out" 2>&1
	check_show 'grep -qE "^fail=fsck after the test: $checker .* exit [1-9][0-9]*: .*$finding.* \(see 002.fsck\)$" "$work/$fs.2.out" &&
		grep -q "^remade 0$" "$work/$fs.2.out" && grep -qE "$finding" "$st/002.fsck" && [ "$(sha256sum <"$img")" = "$sum" ] &&
		grep -q "^FSCK .* $fs.img on $fs was found corrupted after api/002; made again for the next test$" "$work/stage/check.log"' \
		"$fs: the corrupted image fails the step with the checker's finding ($(sed -n 's/^fail=fsck after the test: \(.*exit [0-9]*\).*/\1/p' "$work/$fs.2.out")), 002.fsck written, the image to be made again, not written by the check" \
		"$work/$fs.2.out" "$work/$fs.corrupt"
}
mkdir -p "$work/stage"
image_step vfat fsck.vfat mkfs.vfat 'Reclaimed 1 unused cluster'
image_step msdos fsck.vfat mkfs.vfat 'Reclaimed 1 unused cluster'
image_step ext4 e2fsck mkfs.ext4 'Inode 2 ref count is 9, should be 3'
image_step exfat fsck.exfat mkfs.exfat 'the cluster chain of root is broken'
image_step f2fs fsck.f2fs mkfs.f2fs 'ino: 0x3 i_links: 9, real links: 2'
image_step ntfs3 ntfsfix mkfs.ntfs '\$MFTMirr does not match \$MFT \(record 0\)'

# --- a filesystem whose row has no checker says so, once per section in
# check.log and in each test's note: tmpfs (no device) and erofs (a
# read-only image: an empty file stands in, no checker reads it)
for fs in tmpfs erofs; do
	src=""
	[ "$fs" = tmpfs ] || { src=$work/$fs.img; : >"$src"; }
	reason=$("$tool" fs-table no_fsck 2>/dev/null | sed -n "s/^$fs\t//p")
	: >"$work/stage/check.log"
	fsck_step "$fs" "$src" "$work/stage/$fs/api/001" "$work/stage/$fs/api/002" >"$work/$fs.1.out" 2>&1
	check_show '[ -n "$reason" ] && [ "$reason" != - ] &&
		[ "$(grep -cxF "note=fsck skipped: $fs has no checker: $reason" "$work/$fs.1.out")" = 2 ] &&
		[ "$(grep -cx "fail=" "$work/$fs.1.out")" = 2 ] && [ "$(grep -cx "cmd=" "$work/$fs.1.out")" = 2 ] &&
		[ "$(grep -cxF "FSCK          -- not checked on $fs: $fs has no checker: $reason" "$work/stage/check.log")" = 1 ]' \
		"$fs: not checked, and the run says why: the row's reason in check.log once and in each test's note (${reason:-no reason in the row})" \
		"$work/$fs.1.out" "$work/stage/check.log"
done

left=$(find "$work/runs" "$work/tmp" -mindepth 1 -maxdepth 1 | tr '\n' ' ')
left+=$(findmnt -rn -o TARGET | grep -F "$work" | tr '\n' ' ')
left+=$(losetup -a 2>/dev/null | grep -F "$work" | tr '\n' ' ')
check_ '[ -z "$left" ]' "nothing left behind${left:+ (left: $left)}"
