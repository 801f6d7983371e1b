#!/bin/bash
# Reliability of the runner, as TAP: each defect found by trying
# ./check as a new user would, reproduced against the built tree, with the
# fixed behaviour asserted. Runs in a private mount namespace (the tiny
# full filesystem is mounted there only) with a private VT_RUN_BASE, so no
# other run on the machine is touched. Needs root.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "${srcdir:-$top}" && pwd)   # the sources (a VPATH build: elsewhere)
cd "$top"
n=0 failed=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else
		echo "not ok $n $2"; failed=$((failed + 1))
		[ -f "${T:-/nonexistent}/o" ] && tail -n 5 "$T/o" | sed 's/^/# /'
	fi
}
PLAN=105
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	echo "1..$PLAN"
	for i in $(seq $PLAN); do echo "ok $i # SKIP needs root and unshare"; done
	exit 0
fi
if [ -z "${VT_REL_PRIVATE:-}" ]; then
	VT_REL_PRIVATE=1 exec unshare -m --propagation private "$0" "$@"
fi
echo "1..$PLAN"

T=$(mktemp -d /var/tmp/vfsidmap-reliability.XXXXXX)
chmod 0755 "$T"   # test callers are not root: they must reach the mount point
cleanup() {
	umount -l "$T/full" 2>/dev/null
	umount -l "$T/mp" 2>/dev/null
	umount -l "$T/small" 2>/dev/null
	umount -l "$T/below/m" 2>/dev/null
	rm -rf --one-file-system "$T"
}
trap cleanup EXIT
export VT_RUN_BASE="$T/base"
mkdir "$VT_RUN_BASE"
tool=$top/runner/vfsidmap-tool
xsd=$top/doc/junit.xsd
valid_xml() { xmllint --noout --schema "$xsd" "$1" 2>/dev/null; }
sums() { (cd "$1" && find . -path ./.staging.\* -prune -o -path ./.lock -prune -o -type f -print0 | sort -z | xargs -0r sha256sum); }
wait_until() { # seconds command...
	local t=$1; shift
	for _ in $(seq $((t * 10))); do "$@" && return 0; sleep 0.1; done
	return 1
}
# processes of ours left behind: executors and tests running from this tree
# with our run base
leftovers() { pgrep -f "$VT_RUN_BASE" >/dev/null 2>&1; }
no_leftovers() { ! leftovers; }
executor_pids() { pgrep -f "runner/vfsidmap-exec .*--mnt $VT_RUN_BASE" 2>/dev/null; }
executors_at_least() { [ "$(executor_pids | wc -l)" -ge "$1" ]; }
# The executor check started, not its namespace init (a fork of it with the
# same command line). Not the lowest pid: pid_max is 32768 on a 2-core
# machine and pids wrap during make check, so the init can have the lower
# pid (CI killed the init once: 'namespace init killed', tests 41-44 failed).
outer_executor_pid() {
	local e all
	all=" $(executor_pids | tr '\n' ' ') "
	for e in $(executor_pids); do
		case $all in *" $(ps -o ppid= -p "$e" | tr -d ' ') "*) ;; *) echo "$e"; return 0 ;; esac
	done
	return 1
}
no_tool_on_fifo() { ! pgrep -f "vfsidmap-tool config $T/fifo" >/dev/null; }
lock_holder_is() { grep -q "^pid $1," "$2/.lock" 2>/dev/null; }

# ---------------------------------------------------------- run directories
# 1-4: a directory that is not proven a dead run's is never removed
mkdir "$VT_RUN_BASE/vfsidmap.mybackup" && echo precious >"$VT_RUN_BASE/vfsidmap.mybackup/data"
touch -d '1 hour ago' "$VT_RUN_BASE/vfsidmap.mybackup"
mkdir "$VT_RUN_BASE/vfsidmap.oldstyle" && echo 1 >"$VT_RUN_BASE/vfsidmap.oldstyle/pid" && : >"$VT_RUN_BASE/vfsidmap.oldstyle/lock"
touch -d '1 hour ago' "$VT_RUN_BASE/vfsidmap.oldstyle"
mkdir "$VT_RUN_BASE/vfsidmap.results"
./check --fs tmpfs --results "$VT_RUN_BASE/vfsidmap.results" idmapped/001 >"$T/o" 2>&1; rc=$?
# a crafted dead run: marker naming a start time no process has, lock free
mkdir "$VT_RUN_BASE/vfsidmap.$$.deadrn" && : >"$VT_RUN_BASE/vfsidmap.$$.deadrn/lock"
printf 'vfsidmap run directory (check)\npid=%s\nstarttime=1\nboot_id=%s\n' "$$" "$(cat /proc/sys/kernel/random/boot_id)" \
	>"$VT_RUN_BASE/vfsidmap.$$.deadrn/vfsidmap-run"
# a live run's marker (this shell's real start time) with its lock free
mkdir "$VT_RUN_BASE/vfsidmap.$$.livern" && : >"$VT_RUN_BASE/vfsidmap.$$.livern/lock"
st=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
printf 'vfsidmap run directory (check)\npid=%s\nstarttime=%s\nboot_id=%s\n' "$$" "$st" "$(cat /proc/sys/kernel/random/boot_id)" \
	>"$VT_RUN_BASE/vfsidmap.$$.livern/vfsidmap-run"
# runs killed between mkdir and the marker (vfsidmap.PID.XXXXXX): PID gone
# and only the first steps' files in it -> removed; anything more, or PID
# alive -> kept
sleep 0 & deadpid=$!; wait $deadpid
u1=$VT_RUN_BASE/vfsidmap.$deadpid.unfin1 u2=$VT_RUN_BASE/vfsidmap.$deadpid.unfin2 u3=$VT_RUN_BASE/vfsidmap.$$.unfin3
mkdir "$u1" "$u2" "$u3" && : >"$u1/lock" && : >"$u2/lock" && : >"$u3/lock"
printf 'vfsidmap run directory (check)\npid=%s\n' "$deadpid" >"$u1/vfsidmap-run.tmp"
echo precious >"$u2/data"
./check --fs tmpfs --results "$T/r0" idmapped/001 >"$T/o2" 2>&1
ok $([ $rc = 0 ] && [ "$(cat "$VT_RUN_BASE/vfsidmap.mybackup/data")" = precious ] && [ -d "$VT_RUN_BASE/vfsidmap.oldstyle" ]; echo $?) \
	"an old vfsidmap.* directory without the marker survives (backup, older check's run)"
ok $([ -f "$VT_RUN_BASE/vfsidmap.results/result.xml" ] && [ -f "$VT_RUN_BASE/vfsidmap.results/check.log" ]; echo $?) \
	"a results directory named vfsidmap.results survives the next run"
ok $([ ! -e "$VT_RUN_BASE/vfsidmap.$$.deadrn" ] && grep -q "cleaned up after a dead run (pid $$): removed $VT_RUN_BASE/vfsidmap.$$.deadrn" "$T/o2"; echo $?) \
	"a marked run directory whose owner is gone is removed, and said so"
ok $([ -d "$VT_RUN_BASE/vfsidmap.$$.livern" ]; echo $?) "a marked run directory whose owner (pid + start time) lives is kept"
ok $([ ! -e "$u1" ] && grep -q "killed while creating $u1" "$T/o2"; echo $?) \
	"a run killed before its marker: its directory (empty lock, marker.tmp, pid gone) is removed, and said so"
ok $([ "$(cat "$u2/data")" = precious ] && [ -f "$u3/lock" ]; echo $?) \
	"an unmarked vfsidmap.PID.* holding anything else, or whose PID runs, is kept"
rm -rf "$VT_RUN_BASE"/vfsidmap.*

# 5-8: VT_RUN_BASE: refused when relative or missing, never created
for base in relative/base "$T/missing/base"; do
	VT_RUN_BASE=$base ./check --fs tmpfs --results "$T/rb" idmapped/001 >"$T/o" 2>&1; rc=$?
	ok $([ $rc = 2 ] && grep -q "VT_RUN_BASE" "$T/o" && [ ! -e "$base" ] && [ ! -e "$T/rb" ]; echo $?) \
		"VT_RUN_BASE=$base: exit 2, nothing created"
done
# a base (or checkout) that the unprivileged callers cannot search: exit 2
# naming the directory, before any run directory or result is made
mkdir -m 700 "$T/closed"; mkdir "$T/closed/base"
VT_RUN_BASE=$T/closed/base ./check --fs tmpfs --results "$T/rb" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "$T/closed (mode 700) is not searchable by other users" "$T/o" && [ ! -e "$T/rb" ] \
	&& [ -z "$(ls -A "$T/closed/base")" ]; echo $?) "VT_RUN_BASE below a 0700 directory: exit 2, the directory named, nothing created"
chmod 711 "$T/closed"
VT_RUN_BASE=$T/closed/base ./check --fs tmpfs --results "$T/rb" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && grep -q '^1 passed, 0 failed' "$T/o"; echo $?) "the same base made searchable (0711): the run passes"
rm -rf "$T/closed" "$T/rb"
ok $(./check -h | grep -q VT_RUN_BASE; echo $?) "--help documents VT_RUN_BASE"
ok $(grep -q VT_RUN_BASE "$src/README.md"; echo $?) "README documents VT_RUN_BASE"

# ---------------------------------------------------------- a full results filesystem
# 9-13: tmpfs of 64 KiB in our private namespace, results on it
mkdir "$T/full"
mount -t tmpfs -o size=64k vfsidmap-rel "$T/full"
./check --fs tmpfs --results "$T/full/r" idmapped/001 >"$T/o" 2>&1; rc=$?
before=$(sums "$T/full/r")
fill=0
dd if=/dev/zero of="$T/full/fill" bs=1k 2>/dev/null
./check --fs tmpfs --results "$T/full/r" idmapped/001 selftest/001 >"$T/o" 2>&1; rc2=$?
ok $([ $rc = 0 ] && [ $rc2 = 2 ]; echo $?) "results on a full filesystem: exit 2 (the first run, with room, exit 0; got $rc, $rc2)"
ok $(grep -q "ERROR\|not writable" "$T/o" && ! grep -q "passed, 0 failed" "$T/o"; echo $?) "it says so loudly and claims no pass"
ok $([ "$(sums "$T/full/r")" = "$before" ] && ! ls -d "$T/full"/.vfsidmap-stage.r.* >/dev/null 2>&1; echo $?) \
	"the previous results are byte-identical, no staging left"
# room for the start but not for the whole run: fails in the middle
rm -f "$T/full/fill"
head -c $(( $(df --output=avail -B1 "$T/full" | tail -n 1) - 12288 )) /dev/zero >"$T/full/fill" 2>/dev/null
./check --fs tmpfs --results "$T/full/r" idmapped/001 idmapped/002 idmapped/003 selftest/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && [ "$(sums "$T/full/r")" = "$before" ]; echo $?) "full in the middle of a run: exit 2 ($rc), previous results byte-identical"
ok $(valid_xml "$T/full/r/result.xml"; echo $?) "the kept result.xml is still valid JUnit"
rm -f "$T/full/fill"
umount "$T/full"

# ---------------------------------------------------------- section names
# 14-19
for name in check.log .. . .hidden porting-ext4.md conformance.html; do
	printf '[%s]\nFSTYP=tmpfs\n' "$name" >"$T/sec.config"
	./check -c "$T/sec.config" --results "$T/rs" idmapped/001 >"$T/o" 2>&1; rc=$?
	ok $([ $rc = 2 ] && grep -q "bad section header" "$T/o" && [ ! -e "$T/rs" ]; echo $?) "section [$name] refused, exit 2, nothing created"
done

# ---------------------------------------------------------- two runs, one results directory
# 18-25: the second exits 2 naming the first; then the first is interrupted
./check --fs tmpfs --results "$T/two" idmapped/001 >/dev/null 2>&1
prev=$(sums "$T/two")
setsid ./check --fs tmpfs -T 60 --results "$T/two" idmapped/001 selftest/002 idmapped/002 >"$T/first" 2>&1 &
first=$!
wait_until 30 lock_holder_is "$first" "$T/two"
wait_until 30 executors_at_least 2
./check --fs tmpfs --results "$T/two" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "in use by another run (pid $first," "$T/o"; echo $?) "a second run on the same results exits 2 naming the first's pid"
ok $([ -f "$T/two/run.incomplete" ] && grep -q "pid $first" "$T/two/run.incomplete"; echo $?) "while the first runs, run.incomplete says the files are not its results"
kill -TERM "$first"; wait "$first"; rc=$?
ok $([ $rc = 130 ]; echo $?) "the first, interrupted by SIGTERM, exits 130 ($rc)"
ok $(grep -q '^Bail out! run interrupted by SIGTERM' "$T/two/results.ktap"; echo $?) "interrupted: KTAP ends with Bail out!"
ok $(grep -q '<error type="interrupted" message="run interrupted by SIGTERM' "$T/two/result.xml" && valid_xml "$T/two/result.xml"; echo $?) \
	"interrupted: JUnit has an <error> and validates"
ok $(grep -q 'run interrupted by SIGTERM after .* results incomplete' "$T/two/check.log" && grep -q 'interrupted by SIGTERM' "$T/two/run.incomplete"; echo $?) \
	"interrupted: a check.log line and run.incomplete say so"
ok $(wait_until 10 no_leftovers; echo $?) "interrupted: no process of ours left"
ok $(./check --fs tmpfs --results "$T/two" idmapped/001 >/dev/null 2>&1 && [ ! -e "$T/two/run.incomplete" ]; echo $?) \
	"the next complete run removes run.incomplete"

# 26-28: interrupted during setup (making an ext4 image) is never a pass
setsid env --default-signal=INT ./check --fs ext4,tmpfs --results "$T/setup" idmapped/001 >"$T/o" 2>&1 &
p=$!
wait_until 30 lock_holder_is "$p" "$T/setup"
kill -INT "$p"; wait "$p"; rc=$?
ok $([ $rc = 130 ] && grep -q 'Bail out!' "$T/setup/results.ktap"; echo $?) "SIGINT during setup: exit 130 ($rc), Bail out!"
ok $(grep -q 'errors="[1-9]' "$T/setup/result.xml" && valid_xml "$T/setup/result.xml"; echo $?) "SIGINT during setup: JUnit counts an error"
ok $(! grep -q ' 0 failed' <(tail -n 1 "$T/setup/check.log") || grep -q 'interrupted' "$T/setup/check.log"; echo $?) \
	"SIGINT during setup: check.log marks it"

# 29-33: SIGKILL of check: the previous result.xml is not taken for this run's
./check --fs tmpfs --results "$T/kill" idmapped/001 >/dev/null 2>&1
prev=$(sums "$T/kill")
setsid ./check --fs tmpfs -T 60 --results "$T/kill" selftest/002 >"$T/o" 2>&1 &
p=$!
wait_until 30 executors_at_least 2
kill -KILL "$p"; wait "$p" 2>/dev/null
ok $([ "$(sums "$T/kill" | grep -v run.incomplete)" = "$prev" ] && grep -q "pid $p" "$T/kill/run.incomplete"; echo $?) \
	"after SIGKILL: previous files unchanged, run.incomplete names the killed run"
ok $(wait_until 15 no_leftovers; echo $?) "after SIGKILL: no process of ours left"
./check --fs tmpfs --results "$T/kill" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && grep -q "the run of pid $p .* did not finish (killed" "$T/o"; echo $?) "the next run says the killed run did not finish"
ok $(grep -q "the run of pid $p .* did not finish (killed" "$T/kill/check.log"; echo $?) "and writes it to check.log"
ok $([ ! -e "$T/kill/run.incomplete" ] && ! ls -d "$T"/.vfsidmap-stage.kill.* >/dev/null 2>&1 && [ -z "$(ls -A "$VT_RUN_BASE")" ]; echo $?) \
	"no staging, no run.incomplete, no run directory left"

# ---------------------------------------------------------- -T with the executor stopped
# 34-36
start=$(date +%s)
VT_WATCHDOG_GRACE=3 setsid ./check --fs tmpfs -T 3 --results "$T/stop" selftest/002 >"$T/o" 2>&1 &
p=$!
wait_until 30 executors_at_least 2
for e in $(executor_pids); do kill -STOP "$e"; done
wait "$p"; rc=$?
took=$(( $(date +%s) - start ))
ok $([ $rc = 1 ] && [ $took -le 20 ]; echo $?) "executor stopped: -T 3 still ends the test (took ${took}s, limit 3 + 3 s grace)"
ok $(grep -q 'timeout: killed after 6s (-T 3 + 3s grace, by check.s watchdog' "$T/o" &&
	grep -q '<failure type="timeout"' "$T/stop/result.xml"; echo $?) "reported honestly as check's watchdog timeout"
ok $(wait_until 10 no_leftovers; echo $?) "no stopped or hung process left"

# ---------------------------------------------------------- the executor killed
# 37-40: an error (not a failure), named by its signal
setsid ./check --fs tmpfs -T 60 --results "$T/exk" selftest/002 >"$T/o" 2>&1 &
p=$!
wait_until 30 executors_at_least 2
kill -KILL "$(outer_executor_pid)"
wait "$p"; rc=$?
ok $([ $rc = 1 ] && grep -q '\[error\] error: executor killed by SIGKILL' "$T/o"; echo $?) "killed executor: '[error] ... executor killed by SIGKILL', exit 1"
ok $(tail -n 2 "$T/o" | head -n 1 | grep -q '^Errors: 1 ' && tail -n 1 "$T/o" | grep -q '^0 passed, 1 failed, 0 skipped$'; echo $?) \
	"errors on their own line, then the summary (errors counted as failed) last"
ok $(grep -q '<error type="harness" message="error: executor killed by SIGKILL"' "$T/exk/result.xml" &&
	grep -q 'errors="1"' "$T/exk/result.xml" && grep -q 'failures="0"' "$T/exk/result.xml" && valid_xml "$T/exk/result.xml"; echo $?) \
	"JUnit: <error>, not <failure>; valid"
ok $(grep -q '^# error: tmpfs:selftest/002: error: executor killed by SIGKILL' "$T/exk/results.ktap" &&
	grep -q 'selftest/002 error ' "$T/exk/check.log"; echo $?) "KTAP '# error:' and check.log 'error'"

# ---------------------------------------------------------- bad inputs
# 41-56: exit 2 with a message, before anything is made, and no hang
mkfifo "$T/fifo"
mkdir "$T/adir"
bad() { # message-regex args...
	local re=$1; shift
	rm -rf "$T/rbad"
	timeout 20 ./check --results "$T/rbad" "$@" >"$T/o" 2>&1; rc=$?
	[ $rc = 2 ] && grep -Eq "$re" "$T/o" && [ ! -e "$T/rbad" ] && [ -z "$(ls -A "$VT_RUN_BASE")" ]
}
for f in "$T/adir" "$T/fifo" /dev/zero; do
	ok $(bad "not a regular file" -c "$f" idmapped/001; echo $?) "-c $f: exit 2, no hang"
	ok $(bad "not a regular file" -E "$f" idmapped/001; echo $?) "-E $f: exit 2, no hang"
done
ok $(bad "shard wants" --shard 1/2147483648 idmapped/001; echo $?) "--shard N > INT_MAX refused"
ok $(bad "shard wants" --shard 1/1000001 idmapped/001; echo $?) "--shard N > 1000000 refused"
ok $(bad "no test is in group 'nosuchgroup'" -x nosuchgroup; echo $?) "unknown -x group refused"
ok $(bad "'tmpfs' given twice" --fs tmpfs,tmpfs idmapped/001; echo $?) "duplicate --fs refused"
ok $(bad "unknown test ''" idmapped/001 ''; echo $?) "an empty test name refused (fuzz-check found a bash error)"
rm -rf "$T/rbad"
./check --results /proc/vfsidmap-x --fs tmpfs idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "cannot create results directory" "$T/o"; echo $?) "--results /proc/x: exit 2 before running"
./check --results /proc/tty --fs tmpfs idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "is not writable\|holds files check did not write" "$T/o" && [ -z "$(ls -A "$VT_RUN_BASE")" ]; echo $?) "--results /proc/tty (exists, not check's, not writable): exit 2 before running"
ok $(bad "unknown report format" -R html idmapped/001; echo $?) "-R with an unknown format refused"
# a config tool killed with check leaves no orphan
( x=$("$tool" config "$T/fifo" --sections); echo "$x" ) &
sub=$!
wait_until 10 pgrep -f "vfsidmap-tool config $T/fifo" >/dev/null
kill -TERM "$sub"; wait "$sub" 2>/dev/null
ok $(wait_until 5 no_tool_on_fifo; echo $?) "the config tool dies with its caller (no orphan)"
: <>"$T/fifo"

# 57-58: not root
chmod 0755 "$T"
mkdir "$T/tree" && cp -a check common runner tests expunge "$T/tree/" && chmod -R o+rX "$T/tree" && chmod 0777 "$T"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env VT_RUN_BASE="$VT_RUN_BASE" "$T/tree/check" "$@"; }
nobody --results "$T/nobody" --fs tmpfs idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "must be run as root" "$T/o" && [ ! -e "$T/nobody" ]; echo $?) "not root: exit 2, a clear line, nothing made"
nobody -l >/dev/null 2>&1 && nobody -n --fs tmpfs idmapped/001 >/dev/null 2>&1 &&
	nobody --list-cases idmapped/001 >/dev/null 2>&1 && nobody -h >/dev/null 2>&1; rc=$?
ok $rc "not root: -l, -n, --list-cases and -h still work"

# 59: bytes that are not UTF-8 cannot break result.xml: in a config value
# the mount refuses they are bad input, found before the run (exit 2,
# nothing made); on the command line they reach result.xml, made valid
printf '[bytes]\nFSTYP=tmpfs\nMOUNT_OPTIONS=size=1m,x\xff\xfe\x01y\n' >"$T/bytes.config"
./check -c "$T/bytes.config" --results "$T/bytes" idmapped/001 >"$T/o" 2>&1; rc=$?
./check -e "$(printf 'x\xff\xfe\x01y/001')" --fs tmpfs --results "$T/bytes2" idmapped/001 >>"$T/o" 2>&1; rc2=$?
ok $([ $rc = 2 ] && [ ! -e "$T/bytes" ] && [ $rc2 = 0 ] && valid_xml "$T/bytes2/result.xml" &&
	grep -q 'name="command" value="[^"]*\./check -e x' "$T/bytes2/result.xml"; echo $?) \
	"non-UTF-8 bytes: in a config value refused before the run (exit $rc), on the command line result.xml valid (exit $rc2)"

# 60: --shard splits a hand-written test's cases, together all of them
all=$(./check --list-cases idmapped/001 | wc -l)
./check --fs tmpfs --results "$T/s1" --shard 1/2 idmapped/001 >/dev/null 2>&1
./check --fs tmpfs --results "$T/s2" --shard 2/2 idmapped/001 >/dev/null 2>&1
c1=$(grep -c '^  ok [0-9]' "$T/s1/results.ktap"); c2=$(grep -c '^  ok [0-9]' "$T/s2/results.ktap")
ok $([ $((c1 + c2)) = "$all" ] && [ "$c1" -gt 0 ] && [ "$c2" -gt 0 ]; echo $?) "--shard 1/2 + 2/2 of idmapped/001: $c1 + $c2 cases = $all"

# 61-62: xunit-quiet and the bounded system-out
./check --fs tmpfs --results "$T/q" -R xunit-quiet idmapped/001 >/dev/null 2>&1
ok $(! grep -q '<system-out>' "$T/q/result.xml" && valid_xml "$T/q/result.xml"; echo $?) "-R xunit-quiet: no system-out, valid"
head -c 300000 /dev/urandom >"$T/big"
"$tool" xml-text --max 65536 --see tmpfs/x/001.full <"$T/big" >"$T/big.xml"
size=$(stat -c %s "$T/big.xml")
ok $({ echo '<a>'; cat "$T/big.xml"; echo '</a>'; } | xmllint --noout - 2>/dev/null && [ "$size" -lt $((65536 * 3 + 200)) ] &&
	grep -q '\[\.\.\. [0-9]* bytes cut, see tmpfs/x/001.full\]' "$T/big.xml"; echo $?) \
	"system-out of random bytes: well-formed, cut at 64 KiB with a note ($size bytes)"

# 61-62: a real mismatch (the matrix with a deliberately wrong model rule,
# as unit/test-matrix-break.sh): a JUnit <failure type="mismatch"> whose
# message is the first mismatch and its replay line (which carries the
# VT_MODEL_BREAK of the run, common/replay.sh); system-out cut
VT_MODEL_BREAK=chown-skip-mount-translation ./check --fs tmpfs --shard 1/20 --results "$T/mm" matrix/002 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 1 ] && grep -q '<failure type="mismatch" message="MISMATCH chown/[^"]* | reproduce: VT_MODEL_BREAK=chown-skip-mount-translation ./check --case matrix/002/chown/[^"]* --fs tmpfs"' "$T/mm/result.xml" &&
	valid_xml "$T/mm/result.xml"; echo $?) "a mismatch: <failure type=\"mismatch\"> with the first mismatch and its replay line"
ok $(grep -q '\[\.\.\. [0-9]* bytes cut, see tmpfs/matrix/002.full\]' "$T/mm/result.xml" &&
	[ "$(stat -c %s "$T/mm/result.xml")" -lt 200000 ]; echo $?) "its system-out is cut at 64 KiB, pointing to NNN.full"

# ---------------------------------------------------------- publishing in one step
# 66-67: a mount point cannot be swapped: refused before anything runs
mkdir "$T/mp" && mount -t tmpfs -o size=1m vfsidmap-rel-mp "$T/mp"
./check --fs tmpfs --results "$T/mp" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "is a mount point" "$T/o" && [ -z "$(ls -A "$T/mp")" ] && [ -z "$(ls -A "$VT_RUN_BASE")" ]; echo $?) \
	"--results on a mount point: exit 2 ($rc), a clear line, nothing written"
umount "$T/mp"
mkdir -p "$T/below/m" && mount -t tmpfs -o size=1m vfsidmap-rel-mp "$T/below/m"
./check --fs tmpfs --results "$T/below" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "something is mounted below" "$T/o"; echo $?) "--results with a mount below it: exit 2 ($rc)"
umount "$T/below/m"

# 68-71: a directory of the user's own files, not check's (no manifest),
# is refused before anything is written into it: check replaces a
# results directory whole. One made for the results (empty) is taken, and
# then files the user adds next to check's stay (the same inode: carried
# over as a hard link); a file of theirs inside a section directory check
# replaces is kept aside, not deleted
mkdir -p "$T/theirs/sub" && echo notes >"$T/theirs/notes" && echo deep >"$T/theirs/sub/f"
./check --fs tmpfs --results "$T/theirs" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "holds files check did not write" "$T/o" && [ "$(ls -A "$T/theirs" | tr '\n' ' ')" = "notes sub " ] &&
	! ls -d "$T"/.vfsidmap-stage.theirs.* >/dev/null 2>&1 && [ -z "$(ls -A "$VT_RUN_BASE")" ]; echo $?) \
	"a directory of the user's files and no manifest: exit 2 ($rc), refused before anything is written into it"
mkdir "$T/mine"
./check --fs tmpfs --results "$T/mine" idmapped/001 >"$T/o" 2>&1
mkdir -p "$T/mine/sub" && echo notes >"$T/mine/notes" && echo deep >"$T/mine/sub/f"
ino=$(stat -c %i "$T/mine/notes")
./check --fs tmpfs --results "$T/mine" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && [ "$(cat "$T/mine/notes")" = notes ] && [ "$(stat -c %i "$T/mine/notes")" = "$ino" ] &&
	[ "$(cat "$T/mine/sub/f")" = deep ] && [ -f "$T/mine/result.xml" ] && ! ls -d "$T"/mine.kept-* "$T"/.vfsidmap-stage.mine.* >/dev/null 2>&1; echo $?) \
	"the user's files next to check's results: they stay, same inode; nothing left aside"
echo ours-not >"$T/mine/tmpfs/user-note"
old_ktap=$(stat -c %i "$T/mine/results.ktap")
./check --fs tmpfs --results "$T/mine" idmapped/002 >"$T/o" 2>&1; rc=$?
kept=$(ls -d "$T"/mine.kept-* 2>/dev/null | head -n 1)
ok $([ $rc = 0 ] && [ -n "$kept" ] && [ "$(cat "$kept/tmpfs/user-note")" = ours-not ] && grep -q "check: kept $kept" "$T/o"; echo $?) \
	"a user's file in a replaced section directory is kept aside ($kept) and said so"
ok $([ "$(cd "$kept" && find . ! -type d)" = ./tmpfs/user-note ] && [ "$(stat -c %i "$T/mine/results.ktap")" != "$old_ktap" ] &&
	[ "$(cat "$T/mine/notes")" = notes ] && [ -f "$T/mine/tmpfs/idmapped/002.ktap" ] && [ ! -e "$T/mine/tmpfs/idmapped/001.ktap" ]; echo $?) \
	"only check's own old files (listed in .vfsidmap-results) were removed; the new results are in place"
ok $(tr '\0' '\n' <"$T/mine/.vfsidmap-results" | grep -qx results.ktap && ! tr '\0' '\n' <"$T/mine/.vfsidmap-results" | grep -q notes; echo $?) \
	"the manifest lists check's files, not the user's"
rm -rf "$kept"

# 72-73: the swap itself fails (EIO injected into the one renameat2 that
# names RESULTS): exit 2, and the previous results byte-identical: there
# is no moment at which some files are new and some old
if command -v strace >/dev/null; then
	prev=$(sums "$T/mine")
	strace -f -qq -o /dev/null -P "$T/mine" -e trace=renameat2 -e inject=renameat2:error=EIO \
		./check --fs tmpfs --results "$T/mine" idmapped/001 >"$T/o" 2>&1; rc=$?
	ok $([ $rc = 2 ] && grep -q "the swap with the new results: Input/output error" "$T/o" && tail -n 1 "$T/o" | grep -q 'ERROR.*exit 2'; echo $?) \
		"the swap fails with EIO: exit 2 ($rc), said last"
	ok $([ "$(sums "$T/mine")" = "$prev" ] && ! ls -d "$T"/.vfsidmap-stage.mine.* "$T"/mine.kept-* >/dev/null 2>&1; echo $?) \
		"the previous results byte-identical, no staging left"
else
	ok 0 "# SKIP strace not installed (apt-get install strace)"
	ok 0 "# SKIP strace not installed (apt-get install strace)"
fi

# ---------------------------------------------------------- a full VT_RUN_BASE
# 74-77: a test's output and the executor's verdict go to VT_RUN_BASE
# first; a full one truncates them: never a pass, exit 2, said, the
# previous results byte-identical. idmapped/001 (lib/testlib) finds its
# own write error (exit 3); matrix/011's 23 KiB of KTAP leave no room for
# the executor's verdict.
./check --fs tmpfs --results "$T/sr" idmapped/001 >/dev/null 2>&1
prev=$(sums "$T/sr")
mkdir "$T/small" && mount -t tmpfs -o size=256k vfsidmap-rel-small "$T/small" && chmod 0755 "$T/small"
for tf in idmapped/001:4:"could not write all of its KTAP output" matrix/011:8:"verdict is missing"; do
	t=${tf%%:*} free=${tf#*:} free=${free%%:*} why=${tf#*:*:}
	rm -f "$T/small/fill"
	head -c $(( $(df --output=avail -B1 "$T/small" | tail -n 1) - free * 1024 )) /dev/zero >"$T/small/fill" 2>/dev/null
	VT_RUN_BASE=$T/small ./check --fs tmpfs --results "$T/sr" "$t" >"$T/o" 2>&1; rc=$?
	ok $([ $rc = 2 ] && grep -q "ERROR: writing the output of $t (.*$why.*VT_RUN_BASE=$T/small" "$T/o" && ! grep -q '^[1-9][0-9]* passed' "$T/o"; echo $?) \
		"VT_RUN_BASE full under $t ($free KiB left): exit 2 ($rc), '$why', no pass"
	ok $([ "$(sums "$T/sr")" = "$prev" ] && [ "$(ls -A "$T/small")" = fill ]; echo $?) \
		"the previous results byte-identical, nothing left in VT_RUN_BASE"
done
umount "$T/small"

# ---------------------------------------------------------- EIO and EACCES
# 78-80: EIO while the results are written: device-mapper (dm-error) is
# not in every kernel and a loop device over a full backing file gives
# ENOSPC (BLK_STS_NOSPC), not EIO; so fsync(2) fails with EIO by strace's
# fault injection from the second fsync of the run on: the first (the
# run.incomplete note at the start) goes through, every fsync of the
# results when they are published fails, as a failing disk's would.
if command -v strace >/dev/null; then
	mkdir -p "$T/eio"
	./check --fs tmpfs --results "$T/eio/r" idmapped/001 >"$T/o" 2>&1; rc0=$?
	prev=$(sums "$T/eio/r")
	strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:error=EIO:when=2+ \
		./check --fs tmpfs --results "$T/eio/r" idmapped/001 idmapped/002 >"$T/o" 2>&1; rc=$?
	ok $([ $rc0 = 0 ] && [ $rc = 2 ] && grep -q 'Input/output error' "$T/o" && tail -n 1 "$T/o" | grep -q '^check: ERROR.*exit 2'; echo $?) \
		"EIO from fsync while publishing: exit 2 ($rc0, $rc), 'Input/output error' said, the ERROR last"
	ok $([ "$(sums "$T/eio/r")" = "$prev" ] && ! ls -d "$T/eio"/.vfsidmap-stage.r.* >/dev/null 2>&1; echo $?) \
		"EIO: the previous results byte-identical, no staging left"
	strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:error=EIO \
		./check --fs tmpfs --results "$T/eio/r" idmapped/001 >"$T/o" 2>&1; rc=$?
	ok $([ $rc = 2 ] && grep -q 'not writable (setting up .*(Input/output error)' "$T/o" && [ "$(sums "$T/eio/r")" = "$prev" ]; echo $?) \
		"EIO from the first fsync: exit 2 ($rc) before any test, said, the previous results byte-identical"
else
	for _ in 1 2 3; do ok 0 "# SKIP EIO reproducer: strace not installed (apt-get install strace)"; done
fi

# 81-86: EACCES: check run as root without CAP_DAC_OVERRIDE and
# CAP_DAC_READ_SEARCH (capabilities(7): without them root is held to the
# mode bits like any owner), and the mode changed under the running run:
# first the staging it writes the results to, then the directory holding
# RESULTS and the staging (the swap renames in it: rename(2) EACCES).
nodac() { setpriv --inh-caps=-dac_override,-dac_read_search --bounding-set=-dac_override,-dac_read_search "$@"; }
staging_of() { ls -d "$1"/.vfsidmap-stage.r.* >/dev/null 2>&1; }
mkdir -p "$T/acc"
./check --fs tmpfs --results "$T/acc/r" idmapped/001 >/dev/null 2>&1
prev=$(sums "$T/acc/r")
for what in staging parent; do
	nodac ./check --fs tmpfs --results "$T/acc/r" idmapped/001 idmapped/002 idmapped/003 >"$T/o" 2>&1 &
	p=$!
	wait_until 30 staging_of "$T/acc"
	if [ $what = staging ]; then chmod 0500 "$T/acc"/.vfsidmap-stage.r.*; else chmod 0555 "$T/acc"; fi
	wait $p; rc=$?
	chmod 0755 "$T/acc"
	# (the tests' own summary may come first; the run's last word is the error)
	ok $([ $rc = 2 ] && grep -q 'Permission denied' "$T/o" && tail -n 1 "$T/o" | grep -q '^check: .*\(ERROR.*exit 2\|not writable\)'; echo $?) \
		"EACCES (mode of the $what changed mid-run, no DAC override): exit 2 ($rc), said last"
	ok $([ "$(sums "$T/acc/r")" = "$prev" ]; echo $?) "EACCES ($what): the previous results byte-identical"
	./check --fs tmpfs --results "$T/acc/r" idmapped/001 >"$T/o2" 2>&1; rc=$?
	ok $([ $rc = 0 ] && ! ls -d "$T/acc"/.vfsidmap-stage.r.* "$T/acc"/r.kept-* >/dev/null 2>&1; echo $?) \
		"EACCES ($what): the next run completes ($rc) and leaves no staging"
	prev=$(sums "$T/acc/r")
done

# 89-95: what lies next to a results directory is touched only when its
# marker proves it a run's of that directory (its own path, the results
# directory, its role); names alone prove nothing, and no results
# directory may be given the suite's reserved names
mkdir -p "$T/fr"
mark() { # dir results role
	printf 'path=%s\nresults=%s\nrole=%s\npid=1\nstarted=then\n' "$1" "$2" "$3" >"$1/.vfsidmap-staging"
}
# a dead run's staging of fr/r, and the previous results of fr/r that a
# run swapped out and did not prune (its manifest lists check's file)
mkdir "$T/fr/.vfsidmap-stage.r.dead01" "$T/fr/.vfsidmap-stage.r.oldr01"
mark "$T/fr/.vfsidmap-stage.r.dead01" "$T/fr/r" staging; echo partial >"$T/fr/.vfsidmap-stage.r.dead01/check.log"
mark "$T/fr/.vfsidmap-stage.r.oldr01" "$T/fr/r" old; : >"$T/fr/.vfsidmap-stage.r.oldr01/.lock"
echo x >"$T/fr/.vfsidmap-stage.r.oldr01/check.log"; printf 'check.log\0' >"$T/fr/.vfsidmap-stage.r.oldr01/.vfsidmap-results"
# look-alikes: no marker; a marker of another results directory; another
# directory's staging whose name starts like r's
mkdir "$T/fr/.vfsidmap-stage.r.user01" "$T/fr/.vfsidmap-stage.r.othr01" "$T/fr/.vfsidmap-stage.r.staging.b.live01"
echo mine >"$T/fr/.vfsidmap-stage.r.user01/notes"
mark "$T/fr/.vfsidmap-stage.r.othr01" "$T/fr/r.other" staging; echo theirs >"$T/fr/.vfsidmap-stage.r.othr01/check.log"
mark "$T/fr/.vfsidmap-stage.r.staging.b.live01" "$T/fr/r.staging.b" staging; echo live >"$T/fr/.vfsidmap-stage.r.staging.b.live01/check.log"
./check --fs tmpfs --results "$T/fr/r" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && [ ! -e "$T/fr/.vfsidmap-stage.r.dead01" ] && grep -q "the run of pid 1 started then did not finish" "$T/o"; echo $?) \
	"a dead run's staging, proven by its marker, is discarded and said so"
ok $([ ! -e "$T/fr/.vfsidmap-stage.r.oldr01" ] && ! ls -d "$T"/fr/r.kept-* >/dev/null 2>&1; echo $?) \
	"previous results swapped out and not pruned (marker role=old): check's files removed, nothing kept aside"
ok $([ "$(cat "$T/fr/.vfsidmap-stage.r.user01/notes")" = mine ] && [ "$(cat "$T/fr/.vfsidmap-stage.r.othr01/check.log")" = theirs ] &&
	[ "$(cat "$T/fr/.vfsidmap-stage.r.staging.b.live01/check.log")" = live ]; echo $?) \
	"look-alikes (no marker, another directory's marker, another directory's staging) untouched"
./check --fs tmpfs --results "$T/fr/.vfsidmap-stage.r.x" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "are the suite.s own" "$T/o" && [ ! -e "$T/fr/.vfsidmap-stage.r.x" ]; echo $?) \
	"a results directory named like a staging: exit 2 ($rc), nothing made"
# a shared directory (1777, like /tmp) with a process writing in it is never swapped
mkdir -m 1777 "$T/shared"
( for i in $(seq 200); do echo "$i" >"$T/shared/w.$i"; sleep 0.005; done ) &
wp=$!
./check --fs tmpfs --results "$T/shared" idmapped/001 >"$T/o" 2>&1; rc=$?
wait $wp
ok $([ $rc = 2 ] && grep -q "is writable by others" "$T/o" && [ "$(ls "$T/shared" | wc -l)" = 200 ] &&
	! ls -d "$T"/shared.kept-* "$T"/.vfsidmap-stage.shared.* >/dev/null 2>&1; echo $?) \
	"--results on a shared 1777 directory being written: exit 2 ($rc), all 200 of the writer's files where it wrote them"
# two results directories whose names nest (a, a.staging.b): two live runs,
# neither touches the other's staging
mkdir -p "$T/nest"
setsid ./check --fs tmpfs -T 60 --results "$T/nest/a.staging.b" selftest/002 idmapped/001 >"$T/o2" 2>&1 &
p=$!
wait_until 30 executors_at_least 2
./check --fs tmpfs --results "$T/nest/a" idmapped/001 >"$T/o" 2>&1; rc=$?
kill -TERM "$p"; wait "$p"
ok $([ $rc = 0 ] && ! grep -q "did not finish" "$T/o" "$T/o2" && grep -q "interrupted by SIGTERM" "$T/nest/a.staging.b/run.incomplete" &&
	[ -f "$T/nest/a/result.xml" ] && [ -f "$T/nest/a.staging.b/result.xml" ]; echo $?) \
	"runs into nest/a and nest/a.staging.b side by side: each publishes its own, neither is told the other did not finish"

# 98-110: one test whose output is short is that test's error, the others
# keep theirs; mountinfo's escapes; a results lock held by what a dead run
# left; a loop device still in use; an empty vfsidmap.* directory; a file
# publishing cannot carry over
./check --fs tmpfs --results "$T/one" idmapped/001 selftest/005 idmapped/002 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 1 ] && [ ! -e "$T/one/run.incomplete" ] && grep -q '^idmapped/001 pass' "$T/one/check.log" && grep -q '^idmapped/002 pass' "$T/one/check.log" &&
	grep -q 'selftest/005.*output incomplete: 1 of 3 results' "$T/o" && ! grep -q 'ERROR' "$T/o"; echo $?) \
	"a test that exits 0 with short KTAP: its error, exit 1 ($rc), the other tests' results published"
mkdir -p "$T/sp ace/r/m" && mount -t tmpfs -o size=1m vfsidmap-rel-sp "$T/sp ace/r/m"
./check --fs tmpfs --results "$T/sp ace/r" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "something is mounted below" "$T/o"; echo $?) "--results with a mount below it, its path with a space (mountinfo \\040): exit 2 ($rc)"
umount "$T/sp ace/r/m"
./check --fs tmpfs --results "$T/orph" idmapped/001 >/dev/null 2>&1
sleep 0 & gone=$!; wait $gone
printf 'pid %s, started then: ./check\n' "$gone" >"$T/orph/.lock"
flock "$T/orph/.lock" sleep 3 &
holder=$!
sleep 0.3
start=$(date +%s)
./check --fs tmpfs --results "$T/orph" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && grep -q "still locked by what the dead run of pid $gone left running" "$T/o" && [ $(( $(date +%s) - start )) -ge 2 ]; echo $?) \
	"a results lock held by a process a dead run left: waited for, then the run goes on ($rc)"
wait $holder
busy=$VT_RUN_BASE/vfsidmap.$gone.busy01
mkdir -p "$busy" "$T/bm" && : >"$busy/lock"
printf 'vfsidmap run directory (check)\npid=%s\nstarttime=1\nboot_id=%s\n' "$gone" "$(cat /proc/sys/kernel/random/boot_id)" >"$busy/vfsidmap-run"
truncate -s 64M "$busy/x.img" && mkfs.ext4 -q -F "$busy/x.img" && dev=$(losetup -f --show "$busy/x.img") && mount "$dev" "$T/bm"
./check --fs tmpfs --results "$T/orph" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && [ -d "$busy" ] && grep -q "left $busy with loop devices still in use ($dev" "$T/o" && ! grep -q "detached $dev" "$T/o"; echo $?) \
	"a dead run's loop device still in use (mounted): not reported detached, its directory kept"
umount "$T/bm"
./check --fs tmpfs --results "$T/orph" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && [ ! -e "$busy" ] && [ -z "$(losetup -j "$busy/x.img" 2>/dev/null)" ] && grep -q "removed $busy" "$T/o"; echo $?) \
	"once unmounted, the next run removes it, the loop device gone"
mkdir "$VT_RUN_BASE/vfsidmap.$gone.empty1"
./check --fs tmpfs --results "$T/orph" idmapped/001 >"$T/o" 2>&1; rc=$?
ok $([ $rc = 0 ] && [ -d "$VT_RUN_BASE/vfsidmap.$gone.empty1" ]; echo $?) "an empty vfsidmap.PID.XXXXXX (no lock: not proven a run's) is left"
rmdir "$VT_RUN_BASE/vfsidmap.$gone.empty1"
if chattr +i "$T/orph/check.time" 2>/dev/null; then
	./check --fs tmpfs --results "$T/orph" idmapped/001 idmapped/002 >"$T/o" 2>&1; rc=$?
	chattr -i "$T/orph/check.time"
	ok $([ $rc = 2 ] && grep -q "check.time (or a file in it) cannot be carried over" "$T/o" && ! grep -q '^idmapped/00' "$T/o" &&
		! ls -d "$T"/.vfsidmap-stage.orph.* >/dev/null 2>&1 && [ ! -e "$T/orph/run.incomplete" ]; echo $?) \
		"an immutable file in the results directory: exit 2 ($rc) before any test, nothing left"
else
	ok 0 "# SKIP chattr +i not supported here"
fi

# 105: check started with descriptors 0-3 open and 4 free (the memfd of
# the supervisor then is 4 itself, close-on-exec until handed over)
( exec 3</dev/null 4>&-; ./check -n --fs tmpfs idmapped/001 >"$T/o" 2>&1 ); rc=$?
ok $([ $rc = 0 ]; echo $?) "check started with fd 3 open and fd 4 free runs supervised ($rc)"

[ "$n" = "$PLAN" ] || { echo "# planned $PLAN, ran $n"; failed=$((failed + 1)); }
exit $((failed > 0))
