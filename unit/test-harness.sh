#!/bin/bash
# Harness self-tests (TAP): the runner's behaviour with tests that crash,
# hang and leak on purpose (group "selftest"), with check itself killed by
# SIGKILL and SIGTERM mid-run, and with bad input. After each, the loop
# devices, the mount table and the process list must be as before.
set -u
. "$(dirname "$0")/tap-status.sh"
cd "$top"

PLAN=22
echo "1..$PLAN"
if [ "$(id -u)" != 0 ]; then
	for i in $(seq $PLAN); do skip "harness self-test $i" "needs root"; done
	exit 0
fi

out=$(mktemp -d /tmp/vfsidmap-harness.XXXXXX)
chmod 755 "$out"   # check refuses a tree or VT_RUN_BASE others cannot search
trap 'rm -rf "$out"' EXIT
# run directories of our own: other runs on this machine are not ours
mkdir "$out/runs"
export VT_RUN_BASE="$out/runs"
state() { # what must be unchanged by a run: the loop devices and mounts
	# of this script's runs, all below $out (the machine's other jobs attach
	# and mount their own meanwhile: `make distcheck` failed on one)
	losetup -a 2>/dev/null | grep -F "$out" | sort
	awk '{print $5}' /proc/self/mountinfo | grep -F "$out" | sort
}
# on a mismatch, what differs (TAP comments)
state_diff() { [ "$(state)" = "$before" ] || diff <(echo "$before") <(state) | sed 's/^/# /'; }
# Processes of the hanging test started by this script: they inherit our
# private VT_RUN_BASE (other runs on the machine, make -j2's other tests
# included, may run the same test).
hung_pids() {
	local p
	for p in $({ pgrep -f vt-selftest-hang; pgrep vt-selftest-ha; } 2>/dev/null | sort -u); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qxF "VT_RUN_BASE=$VT_RUN_BASE" && echo "$p"
	done
}
hung() { [ -n "$(hung_pids)" ]; }
wait_until() { # seconds command...
	local t=$1; shift
	for _ in $(seq $((t * 10))); do "$@" && return 0; sleep 0.1; done
	return 1
}
no_hung() { ! hung; }
rundirs() { ls -d "$VT_RUN_BASE"/vfsidmap.* 2>/dev/null; }
before=$(state)
dirs_before=$(rundirs)

# 1-3: a crash
./check --results "$out/r" --fs tmpfs selftest/001 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 1 ]; echo $?) "a crashing test makes check exit 1"
ok $(grep -q 'selftest/001 .*\[failed\] crashed: killed by SIGSEGV' "$out/o"; echo $?) "the crash is reported with its signal"
ok $(grep -q 'not ok 1 tmpfs:selftest/001' "$out/r/results.ktap" && grep -q '<failure type="crash" message="crashed: killed by SIGSEGV' "$out/r/result.xml"; echo $?) "the crash is in the KTAP stream and the JUnit XML"

# 4-6: a hang, with a child that ignores SIGTERM and left the process group
start=$(date +%s)
./check --results "$out/r" --fs tmpfs -T 2 selftest/002 >"$out/o" 2>&1; rc=$?
took=$(( $(date +%s) - start ))
ok $([ $rc = 1 ] && grep -q 'timeout: killed after 2s' "$out/o"; echo $?) "a hanging test fails as a timeout"
ok $([ $took -lt 30 ]; echo $?) "the timeout is enforced (took ${took}s with -T 2)"
ok $(no_hung; echo $?) "no process of the hung test survives"

# 7-9: leaks on purpose
./check --results "$out/r" --fs tmpfs,ext4 selftest/003 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 1 ]; echo $?) "a test that leaks fails"
ok $([ "$(grep -c 'left behind: .*/leak mount /dev/loop[0-9]* (detached)' "$out/o")" = 2 ]; echo $?) "the leaked mount and loop device are named, on tmpfs and ext4"
ok $([ "$(state)" = "$before" ]; echo $?) "loop devices and mount table are as before"
state_diff

# 10-14: check killed with SIGKILL mid-run
setsid ./check --results "$out/k" --fs ext4 -T 120 selftest/002 >"$out/o" 2>&1 &
cpid=$!
wait_until 30 hung
ok $? "the hanging test started"
kill -9 "$cpid"; wait "$cpid" 2>/dev/null
ok $(wait_until 10 no_hung; echo $?) "SIGKILL of check: the test's processes die with it"
wait_until 10 bash -c '[ "$(losetup -a 2>/dev/null | grep -cF "$1")" = 0 ]' - "$out"
ok $([ "$(state)" = "$before" ]; echo $?) "SIGKILL of check: no loop device or mount is left"
state_diff
dead=$(comm -13 <(echo "$dirs_before") <(rundirs) | head -n 1)
./check --results "$out/r" --fs tmpfs selftest/001 >"$out/o" 2>&1
ok $(grep -q "cleaned up after a dead run (pid [0-9]*): removed $dead" "$out/o"; echo $?) "the next check removes the dead run's directory and says so"
ok $([ -n "$dead" ] && [ ! -e "$dead" ]; echo $?) "the dead run's directory is gone"

# 15-17: check stopped with SIGTERM mid-run
setsid ./check --results "$out/t" --fs tmpfs -T 120 selftest/002 >"$out/o" 2>&1 &
cpid=$!
wait_until 30 hung
kill -TERM "$cpid"; wait "$cpid"; rc=$?
ok $([ $rc = 130 ] && grep -q Interrupted "$out/o"; echo $?) "SIGTERM: check stops, says so, exits 130"
ok $(wait_until 10 no_hung; echo $?) "SIGTERM: no process of the test survives"
ok $([ "$(rundirs)" = "$dirs_before" ] && [ "$(state)" = "$before" ]; echo $?) "SIGTERM: run directory, loop devices and mounts cleaned"
state_diff
[ "$(rundirs)" = "$dirs_before" ] || diff <(echo "$dirs_before") <(rundirs) | sed 's/^/# /'

# 18-21: bad input is one clear line and exit 2, nothing touched
./check --bogus >"$out/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "unknown option '--bogus'" "$out/o"; echo $?) "unknown flag: exit 2"
./check --fs zfs >"$out/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "unknown filesystem 'zfs'" "$out/o"; echo $?) "unknown filesystem: exit 2"
printf 'FSTYP=ext4\nTEST_DEV=%s\n' "$(findmnt -no SOURCE / | head -n 1)" >"$out/mounted.config"
./check -c "$out/mounted.config" >"$out/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "refusing: it is mounted on /" "$out/o"; echo $?) "a mounted TEST_DEV is refused"
printf 'FSTYP=ext4\nSCRATCH_FOO=1\n' >"$out/bad.config"
./check -c "$out/bad.config" >"$out/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q "line 2: unknown key 'SCRATCH_FOO'" "$out/o"; echo $?) "unknown config key: exit 2 with the line"

# 22: not root: refused with a clear line, exit 2, nothing created (a
# green "everything notrun" would hide a misconfigured CI job)
# (on a copy of the built runner: the work tree may not be reachable by 65534)
chmod 0777 "$out"
mkdir "$out/tree" && cp -a check common runner tests "$out/tree/" && chmod -R o+rX "$out/tree"
setpriv --reuid=65534 --regid=65534 --clear-groups env VT_RUN_BASE="$out/base" \
	"$out/tree/check" --results "$out/nobody" --fs tmpfs idmapped/001 >"$out/o" 2>&1; rc=$?
ok $([ $rc = 2 ] && grep -q 'check: must be run as root' "$out/o" && [ ! -e "$out/nobody" ]; echo $?) "not root: refused, exit 2, no results directory made"

[ "$n" = "$PLAN" ] || echo "# planned $PLAN, ran $n"
exit $((failed > 0))
