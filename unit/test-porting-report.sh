#!/bin/bash
# ./check --report porting (TAP): the mapping in common/porting.rows covers
# every case of the idmapped group and has no dead line (and that rule can
# fail); bad input is exit 2; a small real tmpfs run gives a report with
# every row and no failure; a crafted results directory with a known
# mismatch, a test-level failure, a skipped case and a notrun test gives
# exactly those verdicts, the first mismatch's text and its replay line; a
# row no test covers says so; a filesystem that cannot be idmapped makes
# every row "not applicable" with the probe's own words; the HTML is well
# formed (xmllint) and self-contained; the installed tree (what run/vm
# boots) reports from results alone.
set -u
. "$(dirname "$0")/tap-status.sh"
has() { grep -qF -- "$2" "$1" || { echo "# $1 lacks: $2"; return 1; }; }
# The table line of row TITLE in report MD.
row() { grep -F "| $2 |" "$1"; }
verdict_is() { row "$1" "$2" | grep -qF "| **$3** |" || { echo "# row '$2' in $1: $(row "$1" "$2" | cut -c1-300)"; return 1; }; }

tmp=$(mktemp -d /tmp/vfsidmap-porting.XXXXXX)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
ROWS=$top/common/porting.rows
nrows=$(grep -c '^row ' "$ROWS")
coverage() { VT_TOP=$top bash -c '. "$VT_TOP/common/options.sh"; . "$VT_TOP/common/porting.sh"; vt_porting_coverage "$1"' _ "$1"; }

# 1-2: the mapping covers every case of the idmapped group; the rule bites.
out=$(coverage "$ROWS" 2>&1); rc=$?
[ $rc = 0 ] && [ -z "$out" ]; ok $? "every case of the idmapped group maps to a row, every map line is used"
[ $rc = 0 ] || echo "$out" | head -n 20 | sed 's/^/# /'
sed -e '/^map matrix\/009 /d' -e '/^map api\/012 /d' "$ROWS" >"$tmp/rows.holes"
echo "map api/001/no-such-case mount" >>"$tmp/rows.holes"
out=$(coverage "$tmp/rows.holes" 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q '^uncovered: matrix/009/xattr/' && echo "$out" | grep -q '^uncovered: api/012/' \
	&& echo "$out" | grep -q '^unused: map api/001/no-such-case'
ok $? "a test or matrix family mapping to no row, and a dead map line, fail the coverage check"

# 3: bad input is one message and exit 2, before anything runs.
bad=0
for args in "--report porting" "--report porting --fs tmpfs,ext4" "--report nosuch --fs tmpfs" \
	"--report porting --fs nosuchfs" "--from-results --fs tmpfs" "--report porting --fs tmpfs -l" \
	"--report porting --fs tmpfs --results $tmp/none --from-results"; do
	err=$("$top/check" $args 2>&1 >/dev/null); rc=$?
	if [ $rc != 2 ] || [ -z "$err" ]; then echo "# ./check $args: exit $rc, stderr '$err'"; bad=1; fi
done
ok $bad "bad --report input: a message and exit 2"

# 4-5: a small real run on tmpfs.
if [ "$(id -u)" != 0 ]; then
	skip "real tmpfs run: report with every row, no failure" "needs root"
	skip "real tmpfs run: HTML well formed" "needs root"
else
	"$top/check" --report porting --fs tmpfs --shard 1/60 --results "$tmp/real" >"$tmp/real.out" 2>&1; rc=$?
	md=$tmp/real/porting-tmpfs.md
	good=0
	[ $rc = 0 ] && [ -f "$md" ] && [ -f "$tmp/real/porting-tmpfs.html" ] || good=1
	[ "$(grep -c '^| .* | \*\*[a-z ]*\*\* | ' "$md" 2>/dev/null)" = "$nrows" ] || good=1
	grep -qF '| **fail** |' "$md" && good=1
	grep -qF '| **no test** |' "$md" && good=1
	for t in "chown and chgrp" "statx" "io_uring openat (IORING_OP_OPENAT)" "fileattr (FS_IOC_SETFLAGS, FS_IOC_FSSETXATTR)"; do
		verdict_is "$md" "$t" pass || good=1
	done
	[ $good = 0 ] || tail -n 25 "$tmp/real.out" | sed 's/^/# /'
	ok $good "real tmpfs run (--shard 1/60): $nrows rows, none failed, chown/statx/io_uring/fileattr pass"
	xmllint --html --noout "$tmp/real/porting-tmpfs.html" 2>"$tmp/x.err" && [ ! -s "$tmp/x.err" ] \
		&& xmllint --noout "$tmp/real/porting-tmpfs.html" 2>>"$tmp/x.err"
	rc=$?; [ $rc = 0 ] || sed 's/^/# /' "$tmp/x.err" | head
	ok $rc "real tmpfs run: HTML well formed (xmllint --html, and as XML)"
fi

# 6-10: a crafted results directory (section tmpfs).
c=$tmp/crafted
mkdir -p "$c/tmpfs/matrix" "$c/tmpfs/api" "$c/tmpfs/idmapped"
cat >"$c/check.log" <<'EOF'

run started 2026-01-01T00:00:00Z on 6.99.0-crafted (host)
command: ./check --fs tmpfs -g idmapped
SECTION tmpfs FSTYP=tmpfs (tmpfs)
EOF
cat >"$c/results.ktap" <<'EOF'
KTAP version 1
1..5
  # Subtest: tmpfs:matrix/002
not ok 1 tmpfs:matrix/002
  # Subtest: tmpfs:api/010
ok 2 tmpfs:api/010
  # Subtest: tmpfs:api/011
# tmpfs:api/011: timeout: killed after 300s (-T)
not ok 3 tmpfs:api/011
ok 4 tmpfs:idmapped/003 # SKIP scenario is about vfat (runs with FSTYP=vfat)
ok 5 tmpfs:regress/008 # SKIP expunged: crafted expunge reason
EOF
cat >"$c/tmpfs/matrix/002.ktap" <<'EOF'
KTAP version 1
1..3
# matrix/002 on tmpfs: 3 of 11550 cases (posixacl=1 protected_hardlinks=1)
ok 1 chown/map=none/caller=root/op=chown/obj=0644-0:0/to=-1:-1
# MISMATCH chown/map=swap/caller=u1000/op=chown/obj=0644-1000:1000/to=1001:-1
#   model: EPERM (chown_ok: <crafted> & "rule")
#   on-disk uid: expected 1000, actual 1001
#   reproduce: ./check --case matrix/002/chown/map=swap/caller=u1000/op=chown/obj=0644-1000:1000/to=1001:-1 --fs tmpfs
not ok 2 chown/map=swap/caller=u1000/op=chown/obj=0644-1000:1000/to=1001:-1
# MISMATCH chown/map=swap/caller=u1000/op=chown/obj=2745-1000:1001/to=-1:1000
#   reproduce: ./check --case matrix/002/chown/map=swap/caller=u1000/op=chown/obj=2745-1000:1001/to=-1:1000 --fs tmpfs
not ok 3 chown/map=swap/caller=u1000/op=chown/obj=2745-1000:1001/to=-1:1000
# 2 of 3 cases mismatched
EOF
cat >"$c/tmpfs/api/010.ktap" <<'EOF'
KTAP version 1
1..2
# probe FS_IOC_SETFLAGS FS_NODUMP_FL on the plain mount as init-userns uid=0 gid=0 groups=[] caps=all: no (ENOTTY)
ok 1 setflags-owner-through-mount # SKIP tmpfs has no FS_IOC_SETFLAGS FS_NODUMP_FL here (crafted)
ok 2 fssetxattr-owner-through-mount # SKIP tmpfs has no FS_IOC_FSSETXATTR FS_XFLAG_NODUMP here (crafted)
# totals: pass:0 fail:0 skip:2
EOF
cat >"$c/tmpfs/api/011.ktap" <<'EOF'
KTAP version 1
1..4
ok 1 owner-seen-through-mount
EOF
# A rows file with one more row that nothing maps to.
{ cat "$ROWS"; echo "row future a row without any test"; echo "  kernel: future_fn"; echo "  fs: ->future"; } >"$tmp/rows.future"
out=$(VT_PORTING_ROWS=$tmp/rows.future "$top/check" --report porting --fs tmpfs --results "$c" --from-results 2>&1); rc=$?
md=$c/porting-tmpfs.md
[ $rc = 1 ] && [ -f "$md" ]; ok $? "crafted results with a failure: exit 1 and a report (--from-results runs nothing)"
[ ! -e "$c/tmpfs/api/001.ktap" ] || echo "# --from-results ran tests"
good=0
verdict_is "$md" "chown and chgrp" fail || good=1
verdict_is "$md" "setgid inheritance and stripping" fail || good=1
has "$md" 'MISMATCH chown/map=swap/caller=u1000/op=chown/obj=0644-1000:1000/to=1001:-1' || good=1
has "$md" '  model: EPERM (chown_ok: <crafted> & "rule")' || good=1
has "$md" 'Replay: `./check --case matrix/002/chown/map=swap/caller=u1000/op=chown/obj=0644-1000:1000/to=1001:-1 --fs tmpfs`' || good=1
has "$md" 'Replay: `./check --case matrix/002/chown/map=swap/caller=u1000/op=chown/obj=2745-1000:1001/to=-1:1000 --fs tmpfs`' || good=1
row "$md" "chown and chgrp" | grep -qF '2 failed, 1 passed' || good=1
ok $good "the failing rows: verdict, the first mismatch's text and its replay line (chown, and setgid from the 2745 object)"
good=0
verdict_is "$md" "statx" fail || good=1
has "$md" 'api/011: timeout: killed after 300s (-T)' || good=1
has "$md" 'Replay: `./check --fs tmpfs api/011`' || good=1
ok $good "a test-level failure (timeout, no failing case) fails its row with the reason and a replay line"
good=0
verdict_is "$md" "fileattr (FS_IOC_SETFLAGS, FS_IOC_FSSETXATTR)" "not applicable" || good=1
row "$md" "fileattr (FS_IOC_SETFLAGS, FS_IOC_FSSETXATTR)" | grep -qF 'tmpfs has no FS_IOC_SETFLAGS FS_NODUMP_FL here (crafted)' || good=1
verdict_is "$md" "unlink, rename, link, sticky directories" "not applicable" || good=1
row "$md" "unlink, rename, link, sticky directories" | grep -qF 'regress/008: expunged: crafted expunge reason' || good=1
verdict_is "$md" "io_uring openat (IORING_OP_OPENAT)" "not run" || good=1
row "$md" "io_uring openat (IORING_OP_OPENAT)" | grep -qF 'no result in these results for api/012' || good=1
verdict_is "$md" "a row without any test" "no test" || good=1
row "$md" "a row without any test" | grep -qF 'no test in this suite yet' || good=1
grep -qF '| **pass** |' "$md" && good=1
ok $good "skipped cases and an expunged test: not applicable with the reason; tests without results: not run; no mapped test: 'no test in this suite yet'; nothing passes"
good=0
xmllint --html --noout "$c/porting-tmpfs.html" 2>"$tmp/x.err" && [ ! -s "$tmp/x.err" ] && xmllint --noout "$c/porting-tmpfs.html" 2>>"$tmp/x.err" || good=1
grep -qiE '(src|href)=|url\(|@import' "$c/porting-tmpfs.html" && { echo "# the HTML refers to something outside itself"; good=1; }
grep -qF '&lt;crafted&gt; &amp; &quot;rule&quot;' "$c/porting-tmpfs.html" || { echo "# HTML does not escape the failure text"; good=1; }
[ $good = 0 ] || sed 's/^/# /' "$tmp/x.err" | head
ok $good "crafted report: HTML well formed (xmllint), escaped, no external assets"

# 11: a filesystem the kernel will not idmap: the probe's words (the string
# runner/vfsidmap-tool prints, checked here so the fixture cannot drift).
why="vfat cannot be idmapped on this kernel (mount_setattr(MOUNT_ATTR_IDMAP) gives EINVAL)"
v=$tmp/noidmap
mkdir -p "$v"
printf '\nrun started 2026-01-01T00:00:00Z on 6.99.0-crafted (guest)\nSECTION vfat FSTYP=vfat (loop-backed image in /var/tmp/x)\n' >"$v/check.log"
{ echo "KTAP version 1"; i=0
  for t in $("$top/check" --fs vfat -g idmapped -n | sed -n 's/^  \([a-z]*\/[0-9]*\).*/\1/p'); do
	i=$((i + 1)); echo "ok $i vfat:$t # SKIP $why"
  done; } >"$v/results.ktap"
good=0
grep -qF '"%s cannot be idmapped on this kernel (mount_setattr(MOUNT_ATTR_IDMAP) gives EINVAL)\n"' "$src/runner/vfsidmap-tool.c" || { echo "# the probe's message changed: update this fixture"; good=1; }
"$top/check" --report porting --fs vfat --results "$v" --from-results >"$tmp/v.out" 2>&1 || good=1
[ "$(grep -c "| \*\*not applicable\*\* | $why" "$v/porting-vfat.md")" = "$nrows" ] || { echo "# not every row is 'not applicable: $why'"; good=1; }
has "$v/porting-vfat.md" "**vfat cannot be idmapped here:** $why" || good=1
ok $good "no FS_ALLOW_IDMAP: all $nrows rows not applicable with the probe's reason"

# 12: the same from a real run, where the kernel has no vfat at all.
if [ "$(id -u)" != 0 ]; then
	skip "real run on a filesystem the kernel lacks" "needs root"
elif grep -qw vfat /proc/filesystems || modinfo vfat >/dev/null 2>&1; then
	skip "real run on a filesystem the kernel lacks" "this kernel has vfat (run/vm covers it)"
else
	"$top/check" --report porting --fs vfat --results "$tmp/vfat" >"$tmp/vfat.out" 2>&1
	why=$(sed -n 's/^NOT RUN       -- //p' "$tmp/vfat.out" | head -n 1)
	[ -n "$why" ] && [ "$(grep -c "| \*\*not applicable\*\* | $why" "$tmp/vfat/porting-vfat.md")" = "$nrows" ]
	ok $? "real run, vfat missing from the kernel: every row not applicable with check's reason ('$why')"
fi

# 13: the installed tree (run/vm's guest has only it) reports from results.
if [ -n "${MAKE:-}" ] || command -v make >/dev/null 2>&1; then
	dest=$tmp/inst
	if ${MAKE:-make} -C "$top" -s install DESTDIR="$dest" suitedir=/vfsidmap >"$tmp/inst.out" 2>&1; then
		rm -f "$c/porting-tmpfs.md"
		"$dest/vfsidmap/check" --report porting --fs tmpfs --results "$c" --from-results >/dev/null 2>&1
		rc=$?
		[ $rc = 1 ] && verdict_is "$c/porting-tmpfs.md" "chown and chgrp" fail
		ok $? "the installed tree alone writes the report from results (exit $rc)"
	else
		sed 's/^/# /' "$tmp/inst.out" | tail -5
		ok 1 "make install for the installed-tree check"
	fi
else
	skip "installed tree" "no make"
fi

echo "1..$n"
[ $failed = 0 ]
