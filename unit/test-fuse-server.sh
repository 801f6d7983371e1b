#!/bin/bash
# runner/vfsidmap-fuse-server's life: it says ready after INIT, asks
# FUSE_ALLOW_IDMAP unless --no-allow-idmap, exits 0 when its filesystem
# is unmounted and on SIGTERM (detaching its mount first), and refuses a
# bad command line or backing directory with status 2. As TAP, in a
# private mount namespace. Needs root and /dev/fuse.
set -u
. "$(dirname "$0")/tap.sh"
PLAN=10
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || [ ! -c /dev/fuse ]; then
	echo "1..$PLAN"
	for i in $(seq $PLAN); do echo "ok $i # SKIP needs root, unshare and /dev/fuse"; done
	exit 0
fi
if [ -z "${VT_FUSE_PRIVATE:-}" ]; then
	VT_FUSE_PRIVATE=1 exec unshare -m --propagation private "$0" "$@"
fi
echo "1..$PLAN"
unit_workdir fuse-server
srv=$top/runner/vfsidmap-fuse-server
ALLOW_IDMAP=$((1 << 40))	# FUSE_ALLOW_IDMAP, include/uapi/linux/fuse.h (6.12)

# start [OPTION]: the server over $work/b at $work/m, log $work/log; waits
# for "ready" (5 s); $pid
start() {
	rm -f "$work/out" "$work/log"
	"$srv" "$@" "$work/b" "$work/m" "$work/log" >"$work/out" 2>"$work/err" &
	pid=$!
	for _ in $(seq 50); do
		grep -q '^ready$' "$work/out" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# ends PID within 5 s: its exit status in $rc
ends() {
	for _ in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || { wait "$pid"; rc=$?; return 0; }
		sleep 0.1
	done
	kill -KILL "$pid"
	wait "$pid"
	rc=killed
	return 1
}
init_flags() { sed -n 's/^op=INIT .* flags=\(0x[0-9a-f]*\) offered=\(0x[0-9a-f]*\).*/\1 \2/p' "$work/log"; }
mounted() { findmnt -n "$work/m" >/dev/null; }

mkdir "$work/b" "$work/m"
"$srv" >/dev/null 2>&1
check_ '[ $? = 2 ]' "no arguments: exit status 2"
"$srv" "$work/none" "$work/m" "$work/log" >/dev/null 2>"$work/err"
check_ '[ $? = 2 ] && grep -q "backing directory" "$work/err"' "a missing backing directory: status 2, said on stderr"

start
check_ '[ $? = 0 ] && mounted' "says ready with its mount made"
read -r flags offered < <(init_flags)
if [ $((offered & ALLOW_IDMAP)) -ne 0 ]; then
	check_ '[ $((flags & ALLOW_IDMAP)) -ne 0 ]' "asks FUSE_ALLOW_IDMAP the kernel offered"
else
	skip "this kernel does not offer FUSE_ALLOW_IDMAP (before 6.12)"
fi
echo hello >"$work/m/f"
check_ '[ "$(cat "$work/b/f")" = hello ]' "a file written through the mount is in the backing directory"
umount "$work/m"
ends
check_ '[ "$rc" = 0 ]' "exits 0 when its filesystem is unmounted (status $rc)"

start
kill -TERM "$pid"
ends
check_ '[ "$rc" = 0 ] && ! mounted' "SIGTERM: detaches its mount and exits 0 (status $rc)"
check_ '! grep -q "server error" "$work/err"' "no server error on stderr"

start --no-allow-idmap
read -r flags offered < <(init_flags)
check_ '[ $((flags & ALLOW_IDMAP)) -eq 0 ]' "--no-allow-idmap: INIT's reply lacks FUSE_ALLOW_IDMAP"
umount "$work/m"
ends
check_ '[ "$rc" = 0 ] && ! pgrep -f "$srv .*$work" >/dev/null' "nothing left running (status $rc)"
