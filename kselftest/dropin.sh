#!/bin/sh
# dropin.sh SRCDIR BUILDDIR KERNEL_SRC: the work of `make kselftest-dropin`.
# Writes KERNEL_SRC/tools/testing/selftests/vfsidmap/: a Makefile in the
# kernel's lib.mk style (from dropin.mk, naming BUILDDIR, the vfsidmap
# build tree that builds the tests), run-test.sh, settings and one wrapper
# per test (SUITE_NNN, for every test of SRCDIR/tests/*/group.list). It
# writes nothing else in the kernel tree and refuses a directory there that
# it did not write. Exit 2 on bad input.
set -eu
me=kselftest-dropin
[ $# -eq 3 ] || { echo "$me: usage: dropin.sh SRCDIR BUILDDIR KERNEL_SRC" >&2; exit 2; }
src=$(cd "$1" && pwd) build=$2 ksrc=$3
sel=$ksrc/tools/testing/selftests
for f in lib.mk Makefile kselftest/runner.sh; do
	[ -f "$sel/$f" ] || { echo "$me: $sel/$f is missing: KERNEL_SRC=$ksrc is not a kernel tree with selftests" >&2; exit 2; }
done
case $build in /*) ;; *) echo "$me: BUILDDIR must be absolute, got '$build'" >&2; exit 2 ;; esac
case $build in *' '* | *'$'* | *'#'*) echo "$me: BUILDDIR '$build' has characters make cannot take" >&2; exit 2 ;; esac
dir=$sel/vfsidmap
marker="vfsidmap's \`make kselftest-dropin"
if [ -e "$dir" ] && ! grep -qF "$marker" "$dir/Makefile" 2>/dev/null; then
	echo "$me: $dir exists and was not written by vfsidmap: not touching it" >&2
	exit 2
fi
mkdir -p "$dir"
# Wrappers of an earlier drop-in go: a test since removed must not linger.
for f in "$dir"/*_[0-9][0-9][0-9]; do
	if [ -f "$f" ] && sed -n 2p "$f" | grep -q vfsidmap-kselftest-wrapper; then rm -f "$f"; fi
done
tests=""
for list in "$src"/tests/*/group.list; do
	s=$(basename "$(dirname "$list")")
	for nnn in $(awk '$1 ~ /^[0-9][0-9][0-9]$/ { print $1 }' "$list"); do
		printf '#!/bin/sh\n# vfsidmap-kselftest-wrapper: %s/%s (make kselftest-dropin)\nexec "$(dirname "$0")/run-test.sh" %s/%s\n' \
			"$s" "$nnn" "$s" "$nnn" >"$dir/${s}_$nnn"
		chmod 755 "$dir/${s}_$nnn"
		tests="$tests ${s}_$nnn"
	done
done
[ -n "$tests" ] || { echo "$me: no tests in $src/tests/*/group.list" >&2; exit 2; }
install -m 755 "$src/kselftest/run-test.sh" "$dir/run-test.sh"
install -m 644 "$src/kselftest/settings" "$dir/settings"
sed -e "s|@VFSIDMAP_BUILD@|$build|" -e "s|@VFSIDMAP_TESTS@|${tests# }|" "$src/kselftest/dropin.mk" >"$dir/Makefile.tmp"
mv -f "$dir/Makefile.tmp" "$dir/Makefile"
echo "$me: $dir written; run: make -C $sel TARGETS=vfsidmap run_tests"
