#!/bin/bash
# Out of scope is not "not run" (TAP): a test or case notrun with a reason
# "not for FS: ..." (a need the filesystem table says FS never meets:
# lib/fs/fs_table.h VT_FS_SCOPE_PREFIX) does not count for its row in the
# porting report (common/porting.awk) or the conformance table
# (common/conformance.awk), while a real notrun (a kernel or machine that
# lacks something at run time) still makes the row partial. Crafted
# results for tmpfs, a small rows file; the prefix must name this
# filesystem, and the same notrun without it makes the row partial.
set -u
. "$(dirname "$0")/tap-status.sh"
tmp=$(mktemp -d /tmp/vfsidmap-scope.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/rows" <<'EOF'
row a a row one test checks, and one out of scope
row b a row one test checks, and one the kernel could not run
row c a row only out-of-scope tests and cases check
map api/001 a,b
map idmapped/003 a,c
map api/005 b
map btrfs/001 c
map api/002 c
EOF
# results DIR, with idmapped/003's reason $1
results() {
	local d=$tmp/$2
	mkdir -p "$d/tmpfs/api" "$d/tmpfs/idmapped" "$d/tmpfs/btrfs"
	cat >"$d/results.ktap" <<EOF
KTAP version 1
1..5
ok 1 tmpfs:api/001
ok 2 tmpfs:idmapped/003 # SKIP $1
ok 3 tmpfs:api/005 # SKIP open_tree_attr() is not implemented by this kernel (ENOSYS)
ok 4 tmpfs:btrfs/001 # SKIP not for tmpfs: tmpfs has no subvolume (crafted)
ok 5 tmpfs:api/002 # SKIP case-a: not for tmpfs: tmpfs has no write (crafted)
EOF
	printf 'KTAP version 1\n1..2\nok 1 case-a\nok 2 case-b\n' >"$d/tmpfs/api/001.ktap"
	printf 'KTAP version 1\n1..0 # SKIP %s\n' "$1" >"$d/tmpfs/idmapped/003.ktap"
	printf 'KTAP version 1\n1..2\nok 1 case-a # SKIP not for tmpfs: tmpfs has no write (crafted)\nok 2 case-b # SKIP not for tmpfs: tmpfs has no write (crafted)\n' >"$d/tmpfs/api/002.ktap"
	awk -f "$top/common/porting.awk" -v mode=report -v fs=tmpfs -v section=tmpfs -v dir="$d" \
		-v md="$d/porting-tmpfs.md" -v html="$d/porting-tmpfs.html" -v kernel=6.99-crafted \
		-v date=now "$tmp/rows" "$d/results.ktap" >"$d/out" 2>&1 || { echo "# porting.awk: $(cat "$d/out")"; return 1; }
	awk -f "$top/common/conformance.awk" -v md="$d/c.md" -v html="$d/c.html" -v date=now -v cmd=test \
		"$d/porting-tmpfs.md" >>"$d/out" 2>&1
}
cell() { grep -F "| $2 |" "$tmp/$1/c.md" | sed 's/^| [^|]* | //; s/ |$//'; }

results "not for tmpfs: it is about owners that come from mount options (crafted)" scoped; rc=$?
ok $rc "porting.awk and conformance.awk read the crafted results"
got=$(cell scoped "a row one test checks, and one out of scope")
ok $([ "$got" = "**pass**" ] && echo 0 || echo 1) "an out-of-scope test does not make a passed row partial (got '$got')"
grep -F "| a row one test checks, and one out of scope |" "$tmp/scoped/porting-tmpfs.md" | grep -qF 'out of scope on tmpfs' &&
	grep -F "| a row one test checks, and one out of scope |" "$tmp/scoped/porting-tmpfs.md" | grep -qF ': idmapped/003'
ok $? "the porting report still names the out-of-scope test in the row's evidence"
got=$(cell scoped "a row one test checks, and one the kernel could not run")
case $got in "**partial**: not run: api/005: open_tree_attr() is not implemented"*) r=0 ;; *) r=1 ;; esac
ok $r "a real notrun still makes the row partial, saying what (got '$got')"
got=$(cell scoped "a row only out-of-scope tests and cases check")
case $got in "**n/a**: out of scope on tmpfs"*"btrfs/001"*"2 cases"*) r=0 ;; *) r=1 ;; esac
ok $r "a row only out-of-scope tests and cases check is n/a, not partial or not run (got '$got')"
results "not for ext4: it is about owners that come from mount options (crafted)" other
results "it is about owners that come from mount options (crafted)" unscoped
a=$(cell other "a row one test checks, and one out of scope")
b=$(cell unscoped "a row one test checks, and one out of scope")
case $a/$b in "**partial**: not run: idmapped/003: not for ext4"*/"**partial**: not run: idmapped/003: it is about"*) r=0 ;; *) r=1 ;; esac
ok $r "the same notrun without the prefix, or naming another filesystem, makes the row partial (got '$a' and '$b')"
echo "1..$n"
[ "$failed" = 0 ]
