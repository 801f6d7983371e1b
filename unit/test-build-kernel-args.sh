#!/bin/bash
# run/build-kernel's command line (TAP), without building anything: bad
# input is exit 2 before any file is written; --gcov refuses a source
# directory it did not unpack (it edits the tree's Makefiles).
set -u
. "$(dirname "$0")/tap-status.sh"
bk=$top/run/build-kernel
base=$(mktemp -d /tmp/vfsidmap-bkargs.XXXXXX)
trap 'rm -rf "$base"' EXIT
mkdir -p "$base/src/scripts/kconfig" && echo '# a kernel tree, as far as the script looks' >"$base/src/Makefile"
cp "$base/src/Makefile" "$base/Makefile.orig"

expect2() { # NAME ARGS...
	local name=$1 rc
	shift
	"$bk" "$@" >/dev/null 2>"$base/err"; rc=$?
	ok $([ $rc = 2 ] && [ -s "$base/err" ] && echo 0 || echo 1) "$name: exit 2 with a message (got $rc)"
}
echo "1..7"
expect2 "no arguments"
expect2 "one argument" "$base/src"
expect2 "unknown option" --frob "$base/src" "$base/out"
expect2 "-j not a number" -j x "$base/src" "$base/out"
expect2 "--base other than tinyconfig/defconfig" --base allyesconfig "$base/src" "$base/out"
expect2 "--gcov on a source directory" --gcov "$base/src" "$base/out"
ok $(cmp -s "$base/src/Makefile" "$base/Makefile.orig" && [ ! -e "$base/out" ] && echo 0 || echo 1) \
	"nothing written: the tree's Makefile unchanged, no OUTDIR"
[ $failed -eq 0 ]
