#!/bin/bash
# What a filesystem's row lacks (lib/fs/fs_table.c) makes exactly the
# matrix cases that need it notrun (world_setup.c mx_case_skip), TAP.
# No root: nothing is mounted, matrix/011 lists the quick sample of the
# world a default mount would give (mx_assumed_world).
#  1: tmpfs's sample has cases that write, exec, use xattrs, file caps,
#     symlinks, on-disk ACLs, O_TMPFILE and RENAME_EXCHANGE (so 2 and 3
#     can fail).
#  2: hugetlbfs's has none that write, exec, use xattrs, file caps,
#     symlinks or on-disk ACLs (hugetlbfs_file_operations: no ->write_iter;
#     hugetlbfs_symlink fails; no xattr handlers, no SB_POSIXACL).
#  3: ntfs3's has no O_TMPFILE and no RENAME_EXCHANGE (no ->tmpfile;
#     ntfs_rename takes RENAME_NOREPLACE only), but has xattr cases.
#  4: a read-only image (erofs: owners baked in) is refused with exit 2:
#     the matrix's worlds are written (owners in the inode or from mount
#     options), an image's are not.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
prog=$top/tests/matrix/011
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi; }
echo "1..4"
tmp=$(mktemp -d /tmp/vfsidmap-lacks.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset VT_SAMPLE_WITHOUT VT_SAMPLE_WITHOUT_MUTANT VT_SAMPLE_COMPUTE VT_EXPUNGE VT_ALLOW_SYSCTL FSTYP

data='op=(write|exec)/'
xattr='op=(xattr-|fcaps-)'
links='op=symlink/|obj=(symlink|link)'
acl='-acl-'
count() { grep -cE -e "$1" "$tmp/$2"; }
for fs in tmpfs hugetlbfs ntfs3; do
	"$prog" --list-sample --fs $fs >"$tmp/$fs" 2>"$tmp/$fs.err" || echo "# $fs: exit $?: $(tail -n 1 "$tmp/$fs.err")"
	echo "# $fs: $(wc -l <"$tmp/$fs") cases; write/exec $(count "$data" $fs), xattr/fcaps" \
		"$(count "$xattr" $fs), symlink $(count "$links" $fs), on-disk ACL $(count "$acl" $fs)," \
		"tmpfile $(count 'op=tmpfile' $fs), exchange $(count 'op=rename-exchange' $fs)"
done
r=0
for p in "$data" "$xattr" "$acl" 'op=tmpfile' 'op=rename-exchange'; do
	[ "$(count "$p" tmpfs)" -gt 0 ] || { r=1; echo "# tmpfs: no case matches $p"; }
done
ok $r "tmpfs's sample has the cases the others lack"

r=0
[ "$(wc -l <"$tmp/hugetlbfs")" -gt 50 ] || r=1
for p in "$data" "$xattr" "$links" "$acl"; do
	[ "$(count "$p" hugetlbfs)" = 0 ] || { r=1; echo "# hugetlbfs: $(count "$p" hugetlbfs) cases match $p"; }
done
ok $r "hugetlbfs: no case needs write(2), xattrs, symlinks or an on-disk ACL"

r=0
[ "$(wc -l <"$tmp/ntfs3")" -gt 50 ] && [ "$(count "$xattr" ntfs3)" -gt 0 ] || r=1
for p in 'op=tmpfile' 'op=rename-exchange'; do
	[ "$(count "$p" ntfs3)" = 0 ] || { r=1; echo "# ntfs3: $(count "$p" ntfs3) cases match $p"; }
done
ok $r "ntfs3: no O_TMPFILE or RENAME_EXCHANGE case, xattr cases kept"

"$prog" --list-sample --fs erofs >"$tmp/x" 2>"$tmp/x.err"; rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/x" ] && grep -q "owners in the inode or from mount options" "$tmp/x.err"
ok $? "erofs (owners baked into an image) is refused with exit 2"
[ $failed = 0 ]
