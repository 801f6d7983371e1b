#!/bin/sh
# Meta-test: the matrix comparison can fail. Runs matrix/002 (chown) on a
# tmpfs with a deliberately wrong model rule (VT_MODEL_BREAK) and asserts
# that mismatches are reported, each with a reproducer line; then once
# with the right model, where the same program must report none.
# Needs root (vfsidmap-exec); TAP output for automake.
top=${top_builddir:-.}
exec_=$top/runner/vfsidmap-exec
prog=$top/tests/matrix/002
echo "1..3"
if [ "$(id -u)" -ne 0 ]; then
	echo "ok 1 # SKIP needs root"; echo "ok 2 # SKIP needs root"; echo "ok 3 # SKIP needs root"
	exit 0
fi
dir=$(mktemp -d /tmp/vt-break.XXXXXX)
chmod 755 "$dir"; mkdir "$dir/mnt"
run() {
	VT_SHARD=1/7 "$exec_" --fstype tmpfs --mnt "$dir/mnt" --timeout 300 --status "$dir/st" -- "$prog" >"$dir/out" 2>&1
}
VT_MODEL_BREAK=chown-skip-mount-translation run
n=$(grep -c '^not ok' "$dir/out")
if [ "$n" -gt 0 ]; then echo "ok 1 wrong chown rule is reported ($n mismatches)"; else echo "not ok 1 wrong chown rule went unnoticed"; fi
if grep -q '^# MISMATCH chown/' "$dir/out" && grep -q '^#   reproduce: ./check --case matrix/002/chown/' "$dir/out"; then
	echo "ok 2 mismatches name the case and the reproducer"
else
	echo "not ok 2 mismatch report lacks the case name or reproducer"
fi
unset VT_MODEL_BREAK
run
n=$(grep -c '^not ok' "$dir/out")
if [ "$n" -eq 0 ] && grep -q '^ok ' "$dir/out"; then echo "ok 3 the right model matches"; else echo "not ok 3 right model: $n mismatches"; fi
rm -rf "$dir"
