#!/bin/bash
# xfstests' habits (TAP): the option letters ./check shares with xfstests'
# check and mean the same there (-r, --exact-order, -i, -I, -L, -X, -e, -S,
# -b, -g all, globs), an xfstests local.config, -E with other suites'
# names, check.time and the status line while a test runs. The selection
# is read from -n (dry run); -i/-I/-L, check.time and the status line from
# real runs on tmpfs (root).
set -u
. "$(dirname "$0")/tap-status.sh"
cd "$top"
PLAN=31
echo "1..$PLAN"

out=$(mktemp -d /tmp/vfsidmap-xopts.XXXXXX)
chmod 755 "$out"   # check refuses a tree or VT_RUN_BASE others cannot search
trap 'rm -rf "$out"' EXIT
# a run base must exist (check never creates one); test callers that are
# not root must reach the mount point below it
chmod 755 "$out"
mkdir "$out/base"
export VT_RUN_BASE="$out/base"
order() { ./check -n --fs tmpfs "$@" 2>/dev/null | sed -n 's/^  \([a-z]*\/[0-9]*\).*/\1/p' | tr '\n' ' '; }

# 1-4: -r: shuffled with a printed seed; the same seed gives the same order
a=$(order -r --seed 11 'api/*') b=$(order -r --seed 11 'api/*') c=$(order -r --seed 12 'api/*')
sorted=$(order 'api/*')
ok $([ -n "$a" ] && [ "$a" = "$b" ]; echo $?) "-r --seed 11 twice: the same order ($a)"
ok $([ "$a" != "$c" ] && [ "$a" != "$sorted" ]; echo $?) "-r with seeds 11 and 12 and without -r: three orders"
ok $([ "$(printf '%s\n' $a | sort | tr '\n' ' ')" = "$sorted" ]; echo $?) "-r runs the same tests, only the order changes"
seed=$(./check -n --fs tmpfs -r 'api/*' | sed -n 's/^randomized order: seed \([0-9]*\) .*/\1/p')
ok $([ -n "$seed" ] && [ "$(order -r --seed "$seed" 'api/*')" = "$(./check -n --fs tmpfs -r --seed "$seed" 'api/*' | sed -n 's/^  \([a-z]*\/[0-9]*\).*/\1/p' | tr '\n' ' ')" ]; echo $?) \
	"-r prints its seed (got '$seed') and --seed with it repeats the order"

# 5-6: --exact-order; -r with it is bad input
ok $([ "$(order --exact-order regress/003 api/002 regress/001)" = "regress/003 api/002 regress/001 " ] &&
	[ "$(order regress/003 api/002 regress/001)" = "api/002 regress/001 regress/003 " ]; echo $?) \
	"--exact-order keeps the order given; without it the order is sorted"
./check -n -r --exact-order api/001 >/dev/null 2>&1
ok $([ $? = 2 ]; echo $?) "-r with --exact-order: exit 2"

# 7-10: globs and -g all, -g SUITE/GROUP
ok $([ "$(order 'matrix/01?')" = "matrix/010 matrix/011 matrix/012 matrix/013 " ]; echo $?) "matrix/01? is matrix/010-013"
n004=$(ls tests/*/004.c 2>/dev/null | wc -l)
ok $([ "$n004" -gt 1 ] && [ "$(order '*/004' | wc -w)" = "$n004" ]; echo $?) "*/004: one test of each of the $n004 suites that have a 004 ($(order '*/004'))"
all=$(order -g all) ntests=$(cat tests/*/group.list | grep -c '^[0-9]')
ok $([ "$(echo "$all" | wc -w)" = "$ntests" ] && [[ "$all" == *selftest/001* ]]; echo $?) "-g all: all $ntests tests, the selftest group too"
want=$(awk '/^[0-9]/ && / quick / { printf "api/%s ", $1 }' tests/api/group.list)
ok $([ -n "$want" ] && [ "$(order -g api/quick)" = "$want" ]; echo $?) "-g api/quick: the quick tests of api only"
./check -n 'zz/*' >"$out/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "no test matches 'zz/\*'" "$out/o"; echo $?) "a glob that matches nothing: exit 2"

# 12-15: -e, -X
ok $([ "$(order -e api/001,api/00? 'api/*')" = "api/010 api/011 api/012 " ]; echo $?) "-e api/001,api/00? leaves them out"
./check -n -e generic/001,api/001 api/001 api/002 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && grep -q "name(s) of suites vfsidmap does not have (generic/001): ignored" "$out/o"; echo $?) "-e generic/001: a notice, not an error"
./check -n -e api/999 api/001 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "no test matches 'api/999'" "$out/o"; echo $?) "-e api/999 (our suite, no such test): exit 2"
mkdir "$out/tree" && cp -a check common runner tests "$out/tree/"
printf '# left out here\n001 00[23]\n' >"$out/tree/tests/api/my.exclude"
printf '011\n' >"$out/tree/tests/matrix/my.exclude"
got=$("$out/tree/check" -n --fs tmpfs -X my.exclude 'api/00?' 'matrix/01?' | sed -n 's/^  \([a-z]*\/[0-9]*\).*/\1/p' | tr '\n' ' ')
ok $([ "$got" = "api/004 api/005 api/006 api/007 api/008 api/009 matrix/010 matrix/012 matrix/013 " ]; echo $?) \
	"-X my.exclude: tests/api/my.exclude and tests/matrix/my.exclude apply to their suites"

# 16-18: -S, local.config with xfstests keys, -E with other suites' names
cat >"$out/local.config" <<'EOF'
export TEST_DIR=
RESULT_BASE=/nonexistent/only-read-by-a-real-run
TEST_FS_MOUNT_OPTS="-o logbsize=$LOGBSIZE"
KEEP_DMESG=yes
[one]
FSTYP=tmpfs
[two]
FSTYP=tmpfs
EOF
./check -n -c "$out/local.config" -S one api/001 >"$out/o" 2>"$out/e"; rc=$?
ok $([ $rc = 0 ] && ! grep -q 'SECTION -- one' "$out/o" && grep -q 'SECTION -- two' "$out/o"; echo $?) "-S one runs section two only"
ok $([ "$(grep -c 'is an xfstests key vfsidmap does not use: ignored' "$out/e")" = 2 ] &&
	grep -q 'local.config:3: TEST_FS_MOUNT_OPTS is an xfstests key' "$out/e"; echo $?) \
	"xfstests keys of local.config: one notice each, with the line"
printf 'FSTYP=tmpfs\nNOBODY_KNOWS=1\n' >"$out/bad.config"
./check -n -c "$out/bad.config" api/001 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "line 2: unknown key 'NOBODY_KNOWS'" "$out/o"; echo $?) "a key nobody knows: exit 2"
printf 'generic/001 # a shared list\nxfs/123\napi/002\n' >"$out/shared.exclude"
./check -n --fs tmpfs -E "$out/shared.exclude" api/001 api/002 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && grep -q 'shared.exclude: 2 name(s) of suites vfsidmap does not have (generic/001 xfs/123): ignored' "$out/o" &&
	grep -q 'api/002 \[expunged' "$out/o"; echo $?) "-E with generic/001 and xfs/123: a notice; api/002 still expunged"
printf 'api/999\n' >"$out/ours.exclude"
./check -n -E "$out/ours.exclude" api/001 >"$out/o" 2>&1
ok $([ $? = 2 ] && grep -q "unknown test 'api/999'" "$out/o"; echo $?) "-E naming api/999 (our suite): exit 2"

# 21: expunge/kernel/M.N applies on an M.N kernel (this machine's series),
# to the filesystem its entry names; --no-default-expunges leaves it out
series=$(sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p' /proc/sys/kernel/osrelease)
kx=$top/expunge/kernel/$series
[ -f "$kx" ] || kx=$src/expunge/kernel/$series
if [ -f "$kx" ]; then
	good=0
	while read -r name _; do
		case $name in ''|'#'*) continue ;; esac
		fs=${name%%:*} t=${name#*:}
		./check -n --fs "$fs" "$t" >"$out/o" 2>&1 || good=1
		grep -q "^  $t .*expunged: $series" "$out/o" || { good=1; sed 's/^/# /' "$out/o"; }
		./check -n --no-default-expunges --fs "$fs" "$t" >"$out/o" 2>&1 || good=1
		grep -q "expunged" "$out/o" && good=1
	done <"$kx"
	ok $good "expunge/kernel/$series applies on this $series kernel, and not with --no-default-expunges"
else
	skip "expunge/kernel/M.N" "no expunge file for this kernel series ($series)"
fi

# 22-31: real runs (root)
if [ "$(id -u)" != 0 ]; then
	for i in $(seq $((n + 1)) $PLAN); do skip "real run $i" "needs root"; done
	exit $((failed > 0))
fi
r="$out/r"
./check --fs tmpfs --results "$r" -i 3 api/001 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && [ "$(grep -c '^api/001 .* ok' "$out/o")" = 3 ] && grep -q '^1\.\.3$' "$r/results.ktap" &&
	[ "$(grep -c '^ok [0-9]* tmpfs:api/001' "$r/results.ktap")" = 3 ]; echo $?) "-i 3: three runs, three results in results.ktap"
./check --fs tmpfs --results "$r" -I 3 selftest/001 api/001 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 1 ] && [ "$(grep -c '^selftest/001 ' "$out/o")" = 1 ] && grep -q 'Stopped in iteration 1 of 3 after tmpfs' "$out/o" &&
	grep -q '^1\.\.2$' "$r/results.ktap" && [ "$(grep -c '^\(not \)\?ok ' "$r/results.ktap")" = 2 ]; echo $?) \
	"-I 3 with a failing test: one iteration, and the KTAP plan says the 2 results written"
./check --fs tmpfs --results "$r" -L 2 selftest/001 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 1 ] && [ "$(grep -c 'rerun [12] of 2: fail' "$out/o")" = 2 ] &&
	grep -q 'selftest/001 aggregate results across 3 runs: fail=3 (100.0%)' "$out/o"; echo $?) "-L 2: two reruns of a failing test and the aggregate"
ok $([ -f "$r/tmpfs/selftest/001.out.bad" ] && [ -f "$r/tmpfs/selftest/001.out.bad.rerun2" ] &&
	[ "$(grep -c '^not ok' "$r/results.ktap")" = 1 ]; echo $?) "-L: the first run's files under their names, the reruns' as .rerunK; one result counted"
./check --fs tmpfs --results "$r" -L 2 api/001 >"$out/o" 2>&1
ok $(! grep -q rerun "$out/o"; echo $?) "-L: a passing test is not rerun"

# check.time: "test seconds", kept, the last time shown before the new one
rm -rf "$r"
./check --fs tmpfs --results "$r" api/001 api/002 selftest/001 >"$out/o" 2>&1
passed=$(awk '$2 == "pass" { print $1 }' "$r/check.log" | sort | tr '\n' ' ')
ok $([ "$(awk '{print $1}' "$r/check.time" | tr '\n' ' ')" = "$passed" ] && [[ "$passed" == *api/001* ]] &&
	[[ "$passed" != *selftest* ]] && awk '$2 !~ /^[0-9]+$/ {exit 1}' "$r/check.time" &&
	[ -f "$r/tmpfs/check.time" ]; echo $?) "check.time: one 'test seconds' line per passing test ($passed)"
grep -E '^(api|selftest)/' "$out/o" | sed 's/^/# /'
echo "api/001 977" >"$r/tmpfs/check.time"
./check --fs tmpfs --results "$r" api/001 >"$out/o" 2>&1
ok $(grep -q '^api/001 *977s \.\.\. *[0-9]*s ok' "$out/o"; echo $?) "the last time from check.time is printed before the new one ($(grep '^api/001' "$out/o"))"
ok $(! grep -q '977' "$r/check.time"; echo $?) "check.time holds the new time after the run"

# status line: none without a terminal, one on a terminal (script(1))
./check --fs tmpfs --results "$r" matrix/011 >"$out/o" 2>&1
ok $(! grep -q $'\r' "$out/o" && ! grep -q 'cases [0-9,]*/s' "$out/o"; echo $?) "not a terminal: no status line"
if command -v script >/dev/null; then
	script -qec "./check --fs tmpfs --results $r matrix/011" "$out/typescript" >/dev/null 2>&1
	ok $(tr '\r' '\n' <"$out/typescript" | grep -aqE '^.\[Kmatrix/011 +[0-9,]+/[0-9,]+ cases [0-9,]+/s'; echo $?) \
		"on a terminal: 'matrix/011 N/TOTAL cases R/s' drawn in place"
else
	skip "status line on a terminal" "no script(1)"
fi

[ "$n" = "$PLAN" ] || echo "# planned $PLAN, ran $n"
exit $((failed > 0))
