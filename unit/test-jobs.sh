#!/bin/bash
# ./check -j N (common/jobs.sh), as TAP: sections side by side give the
# output and results of -j 1, section by section (terminal, check.log,
# results.ktap, result.xml, check.time, rule-coverage.tsv and every
# per-test file compared after normalising times, dates, pids, loop
# device numbers and the run directory; the kernel logs NNN.dmesg are
# left out: they hold what the other section's tests made the kernel
# print). results.ktap is read by the kernel's kunit.py parse, result.xml
# validated against doc/junit.xsd. Then what must keep holding: bad -j
# values exit 2 before anything is made; SIGTERM, SIGINT and SIGKILL of
# check end every worker and leave no process, loop device or mount;
# check's watchdog (-T) still ends a stopped executor; a write error still
# fails the run with the previous results untouched; a worker killed from
# outside never gives a green run. Needs root; runs in a private mount
# namespace (the small results filesystem is mounted there only) with a
# private VT_RUN_BASE.
set -u
. "$(dirname "$0")/tap.sh"
PLAN=44
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	echo "1..0 # SKIP needs root and unshare"
	exit 0
fi
if [ -z "${VT_JOBS_PRIVATE:-}" ]; then
	VT_JOBS_PRIVATE=1 exec unshare -m --propagation private "$0" "$@"
fi
unit_workdir jobs
echo "1..$PLAN"
cd "$top"
T=$work
trap 'umount -l "$T/small" 2>/dev/null; [ -n "${VT_KEEP:-}" ] || rm -rf --one-file-system "$T"' EXIT
xsd=$src/doc/junit.xsd
valid_xml() { xmllint --noout --schema "$xsd" "$1" 2>/dev/null; }
wait_until() { # seconds command...
	local t=$1; shift
	for _ in $(seq $((t * 10))); do "$@" && return 0; sleep 0.1; done
	return 1
}
leftovers() { pgrep -f "$VT_RUN_BASE" >/dev/null 2>&1; }
no_leftovers() { ! leftovers; }
executor_pids() { pgrep -f "runner/vfsidmap-exec .*--mnt $VT_RUN_BASE" 2>/dev/null; }
# the executors of selftest/002 (not those probing a filesystem), each
# counted twice: the executor and its namespace init
hang_executors_at_least() { [ "$(pgrep -f "runner/vfsidmap-exec .*--mnt $VT_RUN_BASE/.*tests/selftest/002" | wc -l)" -ge "$1" ]; }
# loop devices backed by a file under our run base, mounts below it (ours
# and the host's view: the executors' namespaces are gone with them)
no_loops() { ! grep -qs "^$VT_RUN_BASE/" /sys/block/loop*/loop/backing_file; }
no_mounts() { ! grep -q " $VT_RUN_BASE/" /proc/self/mountinfo; }
nothing_left() { no_leftovers && no_loops && no_mounts; }
sums() { (cd "$1" && find . -path ./.lock -prune -o -type f -print0 | sort -z | xargs -0r sha256sum); }

# What differs between two runs whatever -j is: times, dates, pids, loop
# device numbers, the run directory's random name, the results directory
# and -j itself in the command line.
norm() { # file results-dir
	sed -E -e "s|$2|RESULTS|g" \
		-e 's/vfsidmap\.[0-9]+\.[A-Za-z0-9]{6}/RUNDIR/g' \
		-e 's|/dev/loop[0-9]+|/dev/loopN|g; s/\(loop[0-9]+\)/(loopN)/g' \
		-e 's/(^| )-j [0-9]+ /\1-j N /g' \
		-e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z?/DATE/g' \
		-e 's/pid [0-9]+/pid N/g' \
		-e 's/^([^ ]+ +)([0-9]+s)? \.\.\. +[0-9]+s /\1Ts ... Ts /' \
		-e 's/ [0-9]+s \([0-9]+ms\)/ Ts (Tms)/' \
		-e 's/, [0-9]+ms$/, Tms/' \
		-e 's/ in [0-9]+s$/ in Ts/' \
		-e 's/(time|timestamp)="[0-9T:.-]+"/\1="T"/g' "$1"
}
# check.time: "test seconds"
norm_times() { sed -E 's/^([^ ]+) [0-9]+$/\1 T/' "$1"; }
# Every file of results A equals B's (normalised); prints the first difference.
same_results() { # a b
	local f la lb
	la=$(cd "$1" && find . -type f ! -name .lock ! -name '*.dmesg' | sort)
	lb=$(cd "$2" && find . -type f ! -name .lock ! -name '*.dmesg' | sort)
	[ "$la" = "$lb" ] || { echo "# file lists differ:"; diff <(echo "$la") <(echo "$lb") | head -n 5 | sed 's/^/#   /'; return 1; }
	for f in $la; do
		case $f in
		*/.vfsidmap-results) cmp -s <(tr '\0' '\n' <"$1/$f" | sort) <(tr '\0' '\n' <"$2/$f" | sort) ;;
		*check.time) cmp -s <(norm_times "$1/$f") <(norm_times "$2/$f") ;;
		*) cmp -s <(norm "$1/$f" "$1") <(norm "$2/$f" "$2") ;;
		esac || { echo "# $f differs:"; diff <(norm "$1/$f" "$1") <(norm "$2/$f" "$2") | head -n 6 | sed 's/^/#   /'; return 1; }
	done
}
same_output() { # out-a results-a out-b results-b
	cmp -s <(norm "$1" "$2") <(norm "$3" "$4") && return 0
	echo "# terminal output differs:"; diff <(norm "$1" "$2") <(norm "$3" "$4") | head -n 8 | sed 's/^/#   /'
	return 1
}

# ---------------------------------------------------------- bad -j: 1-6
bad() { # args...
	rm -rf "$T/rbad"
	timeout 20 ./check --results "$T/rbad" "$@" >"$T/o" 2>&1; rc=$?
	[ $rc = 2 ] && grep -q "^check: -j wants a number of parallel runs from 1 to 1024, got" "$T/o" &&
		[ ! -e "$T/rbad" ] && [ -z "$(ls -A "$VT_RUN_BASE")" ]
}
for v in 0 -1 abc 99999999999 1025 ' 2'; do
	check_ 'bad -j "$v" --fs tmpfs api/001' "-j '$v': exit 2 with the message, nothing made"
done
./check --fs tmpfs api/001 -j >"$T/o" 2>&1; rc=$?
check_ '[ $rc = 2 ] && grep -q "option -j needs a value" "$T/o"' "-j without a value: exit 2"
check_ './check -h | grep -q "^  -j N "' "./check -h documents -j N"

# ---------------------------------------------------------- -j 1 and -j 2 give the same: 9-16
# three sections on two workers (the third waits for a slot); a pass, a
# notrun, a failure (selftest/003 leaks on purpose) and matrix/011, whose
# rule coverage goes to rule-coverage.tsv
sel=(--fs tmpfs,ext4,xfs api/001 idmapped/003 selftest/003 matrix/011)
nice ./check -j 1 --results "$T/r1" "${sel[@]}" >"$T/o1" 2>&1; rc1=$?
nice ./check -j 2 --results "$T/r2" "${sel[@]}" >"$T/o2" 2>&1; rc2=$?
check_ '[ $rc1 = 1 ] && [ $rc2 = 1 ]' "exit status: -j 1 $rc1, -j 2 $rc2 (selftest/003 fails on purpose: 1)"
check_ 'grep -q "^SECTION       -- xfs" "$T/o2" && [ "$(grep -c "^matrix/011 .* ok (" "$T/o2")" = 3 ]' "-j 2 ran all three sections"
check_ 'same_output "$T/o1" "$T/r1" "$T/o2" "$T/r2"' "terminal output of -j 2 is that of -j 1"
check_ 'same_results "$T/r1" "$T/r2"' "every results file of -j 2 (check.log, results.ktap, result.xml, check.time, rule-coverage.tsv, per-test) is that of -j 1"
check_ '[ "$(grep -c "^ok \|^not ok " "$T/r2/results.ktap")" = 12 ] && awk "/^(not )?ok [0-9]+ /{ n++; k = (\$1 == \"not\") ? \$3 : \$2; if (k != n) bad = 1 } END { exit bad }" "$T/r2/results.ktap"' \
	"results.ktap of -j 2: 12 top-level results numbered 1..12 in order"
check_ 'valid_xml "$T/r2/result.xml" && grep -q "tests=\"12\" failures=\"3\" errors=\"0\" skipped=\"3\"" "$T/r2/result.xml"' "result.xml of -j 2 is valid JUnit (doc/junit.xsd) with 12 tests, 3 failures, 3 skipped"
kunit=""
if [ -n "${KSFT_KERNEL_SELFTESTS:-}" ] && [ -f "$KSFT_KERNEL_SELFTESTS/../kunit/kunit.py" ]; then
	kunit=$KSFT_KERNEL_SELFTESTS/../kunit/kunit.py
else
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
	if [ -n "$tarball" ] && command -v python3 >/dev/null; then
		mkdir "$T/ksrc"
		tar -xJf "$tarball" -C "$T/ksrc" --wildcards '*/tools/testing/kunit/*' 2>/dev/null
		kunit=$(find "$T/ksrc" -path '*/tools/testing/kunit/kunit.py' | head -n 1)
	fi
fi
if [ -n "$kunit" ]; then
	# kunit.py prints [hh:mm:ss] in front of each line
	kparse() { python3 "$kunit" parse "$1" 2>&1 | sed -E 's/^\[[0-9:]{8}\] //' >"$2"; norm "$2" "$3" >"$2.n"; }
	kparse "$T/r1/results.ktap" "$T/k1" "$T/r1"
	kparse "$T/r2/results.ktap" "$T/k2" "$T/r2"
	# selftest/003's leak in each of the three sections: a failed leaf
	# test-level:leak each (runner/ktap-nest.h), its one case passed
	check_ 'grep -q "Testing complete. Ran [0-9]* tests: passed: [0-9]*, failed: 3, skipped: 3" "$T/k2" && ! grep -q Traceback "$T/k2" && grep -q "\[FAILED\] xfs:selftest/003" "$T/k2" && [ "$(grep -c "\[FAILED\] test-level:leak$" "$T/k2")" = 3 ]' \
		"kunit.py parse reads the -j 2 results.ktap to the end: $(grep -o 'Ran [0-9]* tests.*' "$T/k2"), the failures named"
	check_ 'cmp -s "$T/k1.n" "$T/k2.n"' "kunit.py parse gives -j 2 the same report as -j 1"
else
	skip "kunit.py: no kernel source (linux-source-X.Y or KSFT_KERNEL_SELFTESTS)"
	skip "kunit.py: no kernel source"
fi

# ---------------------------------------------------------- -I and -i: 17-18
# -I 2 stops after the first section with a failure: the sections already
# running beside it are not part of the results, as with -j 1
sel=(-I 2 --fs tmpfs,ext4 api/001 selftest/003)
./check -j 1 --results "$T/i1" "${sel[@]}" >"$T/o1" 2>&1; rc1=$?
./check -j 2 --results "$T/i2" "${sel[@]}" >"$T/o2" 2>&1; rc2=$?
check_ '[ $rc1 = $rc2 ] && grep -q "^Stopped in iteration 1 of 2 after tmpfs" "$T/o2" && same_output "$T/o1" "$T/i1" "$T/o2" "$T/i2" && same_results "$T/i1" "$T/i2"' \
	"-I 2: -j 2 stops after the first section as -j 1 does (same output and results, exit $rc2)"
rm -rf "$T/i1" "$T/i2"
sel=(-i 2 --fs tmpfs,ext4 api/001 idmapped/001)
./check -j 1 --results "$T/i1" "${sel[@]}" >"$T/o1" 2>&1; rc1=$?
./check -j 2 --results "$T/i2" "${sel[@]}" >"$T/o2" 2>&1; rc2=$?
check_ '[ $rc1 = 0 ] && [ $rc2 = 0 ] && same_output "$T/o1" "$T/i1" "$T/o2" "$T/i2" && same_results "$T/i1" "$T/i2"' \
	"-i 2: two iterations with -j 2 give the output and results of -j 1"
rm -rf "$T/i1" "$T/i2"

# ---------------------------------------------------------- signals: 19-30
# selftest/002 hangs (and a child ignoring SIGTERM) on both filesystems:
# two executors, each with its namespace init
for sig in TERM INT; do
	setsid env --default-signal=INT ./check -j 2 --fs tmpfs,ext4 -T 120 --results "$T/s$sig" selftest/002 >"$T/o" 2>&1 &
	p=$!
	wait_until 60 hang_executors_at_least 4
	kill -"$sig" "$p"; wait "$p"; rc=$?
	check_ '[ $rc = 130 ] && grep -q "^Bail out! run interrupted by SIG$sig after 2 of 2 test runs" "$T/s$sig/results.ktap"' \
		"SIG$sig with two sections running: exit 130 ($rc), both interrupted tests reported, Bail out!"
	check_ '[ "$(grep -c "error: .*selftest/002: interrupted by SIG$sig" "$T/s$sig/results.ktap")" = 2 ] && valid_xml "$T/s$sig/result.xml" && grep -q "errors=\"3\"" "$T/s$sig/result.xml"' \
		"SIG$sig: each section's test an interrupted error, result.xml valid"
	check_ 'grep -q "interrupted by SIG$sig" "$T/s$sig/run.incomplete"' "SIG$sig: run.incomplete says so"
	check_ 'wait_until 15 nothing_left' "SIG$sig: no process, loop device or mount of ours left"
done
setsid ./check -j 2 --fs tmpfs,ext4 -T 120 --results "$T/kill" selftest/002 >"$T/o" 2>&1 &
p=$!
wait_until 60 hang_executors_at_least 4
kill -KILL "$p"; wait "$p" 2>/dev/null
check_ 'wait_until 15 no_leftovers' "SIGKILL of check: its workers, executors and tests are gone (guards)"
check_ 'wait_until 5 no_loops && no_mounts' "SIGKILL of check: no loop device or mount left"
./check -j 2 --fs tmpfs,ext4 --results "$T/kill" api/001 >"$T/o" 2>&1; rc=$?
check_ '[ $rc = 0 ] && grep -q "the run of pid $p .* did not finish (killed" "$T/o" && [ -z "$(ls -A "$VT_RUN_BASE")" ] && ! ls -d "$T"/.vfsidmap-stage.kill.* >/dev/null 2>&1' \
	"the next run says the killed run did not finish; no run directory or staging left"
check_ 'nothing_left' "and nothing of ours is running"

# ---------------------------------------------------------- -T: 31-32
start=$(date +%s)
VT_WATCHDOG_GRACE=3 setsid ./check -j 2 --fs tmpfs,ext4 -T 3 --results "$T/stop" selftest/002 >"$T/o" 2>&1 &
p=$!
wait_until 60 hang_executors_at_least 4
for e in $(executor_pids); do kill -STOP "$e"; done
wait "$p"; rc=$?
took=$(( $(date +%s) - start ))
check_ '[ $rc = 1 ] && [ "$(grep -c "timeout: killed after 6s (-T 3 + 3s grace, by check.s watchdog" "$T/o")" = 2 ] && [ "$(grep -c "<failure type=\"timeout\"" "$T/stop/result.xml")" = 2 ]' \
	"executors stopped in both sections: check's watchdog ends each test (-T 3 + 3 s grace; exit $rc, ${took}s)"
check_ 'wait_until 15 nothing_left' "no stopped or hung process left"

# ---------------------------------------------------------- a worker killed: 33-35
setsid ./check -j 2 --fs tmpfs,ext4 -T 20 --results "$T/wk" selftest/002 >"$T/o" 2>&1 &
p=$!
wait_until 60 hang_executors_at_least 4
# the worker of the first section: the parent of its executor, a child of
# check's bash (which runs under runner/vfsidmap-supervise, pid $p)
e="" c=$(pgrep -P "$p" | head -n 1)
for x in $(pgrep -f "runner/vfsidmap-exec .*--mnt $VT_RUN_BASE/.*tests/selftest/002"); do
	pp=$(ps -o ppid= -p "$x" | tr -d ' ')
	[ -n "$c" ] && [ "$(ps -o ppid= -p "$pp" | tr -d ' ')" = "$c" ] && { e=$pp; break; }
done
[ -n "$e" ] && kill -KILL "$e"
wait "$p"; rc=$?
check_ '[ -n "$e" ] && [ $rc = 130 ] && grep -q "Bail out! run interrupted by the death of the worker of section" "$T/wk/results.ktap" && valid_xml "$T/wk/result.xml"' \
	"a worker killed from outside: the run is not green (exit $rc), results marked incomplete"
check_ 'grep -q "its worker ended (exit 137) before it could report" "$T/wk/check.log"' "check.log names the section whose worker died"
check_ 'wait_until 15 nothing_left' "nothing of that worker is left (its executor died with it)"

# ---------------------------------------------------------- write errors: 36-39
# the results on a small tmpfs: room for the start of the run, not for all
mkdir "$T/small"
mount -t tmpfs -o size=256k vfsidmap-jobs "$T/small"
./check -j 2 --fs tmpfs,ext4 --results "$T/small/r" api/001 >"$T/o" 2>&1
before=$(sums "$T/small/r")
head -c $(( $(df --output=avail -B1 "$T/small" | tail -n 1) - 16384 )) /dev/zero >"$T/small/fill" 2>/dev/null
./check -j 2 --fs tmpfs,ext4 --results "$T/small/r" api/001 idmapped/001 matrix/011 selftest/001 >"$T/o" 2>&1; rc=$?
check_ '[ $rc = 2 ] && grep -q "check: ERROR: writing .* failed" "$T/o"' "results filesystem full during a -j 2 run: exit 2 ($rc), said"
check_ '[ "$(sums "$T/small/r")" = "$before" ] && valid_xml "$T/small/r/result.xml"' "the previous results byte-identical"
check_ '! ls -d "$T/small"/.vfsidmap-stage.r.* >/dev/null 2>&1 && [ -z "$(ls -A "$VT_RUN_BASE")" ]' "no staging, no run directory left"
check_ 'wait_until 15 nothing_left' "no worker or test left"
rm -f "$T/small/fill"
umount "$T/small"

# ---------------------------------------------------------- -j 1 is the old loop: 40-41
check_ '! VT_RUN_BASE=$VT_RUN_BASE bash -x ./check -j 1 --fs tmpfs,ext4 --results "$T/x1" api/001 2>&1 | grep -q "vt_jobs_run\|vt_job_start"' \
	"-j 1 never enters the workers' code"
check_ 'bash -x ./check -j 4 --fs tmpfs --results "$T/x2" api/001 2>&1 | grep -q "vt_jobs_parallel" && ! bash -x ./check -j 4 --fs tmpfs --results "$T/x3" api/001 2>&1 | grep -q "vt_job_start"' \
	"one section runs without workers whatever -j says"
# ---------------------------------------------------------- a shared TEST_DEV: 42-44
# Two sections on one TEST_DEV (an image file here) never run at the same
# time; two on different ones do. Watched from outside: the executors of
# selftest/002 (hangs until -T 3) mounting each image, polled every 0.1 s.
for d in dev1 dev2; do truncate -s 64M "$T/$d.img" && mkfs.ext4 -q -F "$T/$d.img"; done
printf '[a]\nFSTYP=ext4\nTEST_DEV=%s\n[b]\nFSTYP=ext4\nTEST_DEV=%s\n' "$T/dev1.img" "$T/dev1.img" >"$T/same.config"
printf '[a]\nFSTYP=ext4\nTEST_DEV=%s\n[b]\nFSTYP=ext4\nTEST_DEV=%s\n' "$T/dev1.img" "$T/dev2.img" >"$T/two.config"
most_at_once() { # config -> the most executors (with their inits) of selftest/002 seen at once
	local most=0 c
	./check -j 2 -c "$1" -T 3 --results "$T/dev" selftest/002 >"$T/o" 2>&1 &
	local p=$!
	while kill -0 "$p" 2>/dev/null; do
		c=$(pgrep -f "runner/vfsidmap-exec .*--source $T/dev[12].img .*tests/selftest/002" | wc -l)
		[ "$c" -gt "$most" ] && most=$c
		sleep 0.1
	done
	wait "$p"
	echo "$most"
}
m1=$(most_at_once "$T/same.config")
check_ '[ "$m1" = 2 ] && [ "$(grep -c "timeout: killed after 3s" "$T/o")" = 2 ]' "two sections on one TEST_DEV run one after the other with -j 2 (at most $m1 executor processes at once, 2 = one test)"
m2=$(most_at_once "$T/two.config")
check_ '[ "$m2" = 4 ]' "two sections on two TEST_DEVs run side by side (at most $m2 at once)"
check_ 'nothing_left && [ -z "$(ls -A "$VT_RUN_BASE")" ]' "nothing left after them"
[ "$n" = "$PLAN" ] || echo "# planned $PLAN, ran $n"
