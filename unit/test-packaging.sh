#!/bin/bash
# Packaging (TAP): `make dist` makes a tarball without running the tests
# (a file named check is not a prerequisite of automake's check target),
# the tarball holds every tracked file and builds on its own; `make install`
# puts vfsidmap-check on PATH with its man page, and vfsidmap-check runs
# from anywhere with its results in the caller's ./results; the man page
# renders without warnings; the kernel-tree drop-in runs through the
# kernel's own `make -C tools/testing/selftests TARGETS=vfsidmap run_tests`.
#
# The drop-in needs a kernel tree's selftests: VFSIDMAP_KERNEL_SRC (a tree),
# else the newest /usr/src/linux-source-*.tar.xz (the needed files are
# extracted into a temporary directory); without either those checks skip.
set -u
. "$(dirname "$0")/tap-status.sh"
cd "$top"
MAKE=${MAKE:-make}
PLAN=16
echo "1..$PLAN"
work=$(mktemp -d /var/tmp/vfsidmap-pkg.XXXXXX)
chmod 755 "$work"   # check refuses a tree or VT_RUN_BASE others cannot search
trap 'rm -rf "$work"' EXIT
# a run base must exist (check never creates one); test callers that are
# not root must reach the mount point below it
chmod 755 "$work"
mkdir -p "$work/base"
export VT_RUN_BASE="$work/base"

# 1-4: make dist, then the tarball alone: configure, make, ./check -l
# (a name of its own in the build tree, moved away at once: make dist
# writes DISTDIR.tar.gz next to the Makefile)
dd=vfsidmap-pkgtest-$$
$MAKE -s dist distdir="$dd" >"$work/dist.log" 2>&1; rc=$?
mv -f "$dd.tar.gz" "$work/vfsidmap-dist.tar.gz" 2>/dev/null
ok $([ $rc = 0 ] && [ -s "$work/vfsidmap-dist.tar.gz" ] && [ ! -e "$dd" ]; echo $?) "make dist writes the tarball (exit $rc)"
ok $(! grep -qE '^(PASS|FAIL|SKIP|ERROR):|Testsuite summary' "$work/dist.log"; echo $?) "make dist does not run the test suite"
if command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	missing=$(comm -23 <(git ls-files | grep -v '^\.gitignore$' | sort) \
		<(tar tzf "$work/vfsidmap-dist.tar.gz" | sed "s|^$dd/||" | sort))
	ok $([ -z "$missing" ]; echo $?) "every tracked file is in the tarball${missing:+ (missing: $(echo $missing))}"
else
	skip "every tracked file is in the tarball" "not a git checkout"
fi
mkdir "$work/b" && tar xzf "$work/vfsidmap-dist.tar.gz" -C "$work/b"
(cd "$work/b/$dd" && ./configure -q && $MAKE -s -j2) >"$work/build.log" 2>&1; rc=$?
nt=$(cat tests/*/group.list | grep -c '^[0-9]')
ok $([ $rc = 0 ] && [ "$("$work/b/$dd/check" -l -g all | wc -l)" = "$nt" ]; echo $?) \
	"the tarball configures and builds alone, and its ./check lists all $nt tests (exit $rc)"
rm -rf "$work/b"

# 5-7: make install DESTDIR=...: the layout
$MAKE -s install DESTDIR="$work/dest" >"$work/inst.log" 2>&1; rc=$?
# (the make running make check puts -w in MAKEFLAGS: "Entering directory")
bindir=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $MAKE -s --no-print-directory -f Makefile -f - print-dirs \
	<<<'print-dirs: ; @echo DIRS $(bindir) $(suitedir) $(man1dir)' 2>/dev/null | sed -n 's/^DIRS //p')
read -r b s m <<<"$bindir"
ok $([ $rc = 0 ] && [ -x "$work/dest$b/vfsidmap-check" ] && [ -x "$work/dest$s/check" ] && [ -f "$work/dest$m/vfsidmap-check.1" ]; echo $?) \
	"make install DESTDIR=: bin/vfsidmap-check, the suite in $s, man1/vfsidmap-check.1"
ok $(grep -q "^exec '$s/check'" "$work/dest$b/vfsidmap-check"; echo $?) "vfsidmap-check runs the suite where it is installed, not under DESTDIR"
$MAKE -s uninstall DESTDIR="$work/dest" >/dev/null 2>&1
ok $([ -z "$(find "$work/dest" -type f)" ]; echo $?) "make uninstall DESTDIR= removes every file it installed"

# 8-11: installed under a prefix, vfsidmap-check from another directory
p="$work/prefix"
$MAKE -s install prefix="$p" >"$work/inst.log" 2>&1
mkdir "$work/cwd"
list=$(cd "$work/cwd" && PATH="$p/bin:$PATH" vfsidmap-check -l -g all 2>&1)
ok $([ "$(echo "$list" | wc -l)" = "$nt" ]; echo $?) "vfsidmap-check -l from another directory lists all $nt tests"
if [ "$(id -u)" = 0 ]; then
	(cd "$work/cwd" && PATH="$p/bin:$PATH" vfsidmap-check --fs tmpfs api/001) >"$work/o" 2>&1; rc=$?
	ok $([ $rc = 0 ] && [ -s "$work/cwd/results/results.ktap" ] && [ -f "$work/cwd/results/check.time" ]; echo $?) \
		"vfsidmap-check runs a test with its results in the caller's ./results (exit $rc)"
	ok $([ -z "$(find "$p" -name results -o -name check.log)" ]; echo $?) "nothing is written into the install folder"
else
	skip "vfsidmap-check runs a test" "needs root"
	skip "nothing is written into the install folder" "needs root"
fi
printf 'FSTYP=tmpfs\nRESULT_BASE=%s\n' "$work/rb" >"$work/cwd/local.config"
out=$(cd "$work/cwd" && PATH="$p/bin:$PATH" vfsidmap-check -n api/001 2>&1)
ok $(echo "$out" | grep -q 'SECTION -- default (FSTYP=tmpfs)'; echo $?) "vfsidmap-check reads ./local.config of the caller's directory"
rm -rf "$p" "$work/cwd"

# 12-13: the man page
if command -v groff >/dev/null; then
	warn=$(groff -man -Tutf8 -ww -z "$src/doc/vfsidmap-check.1" 2>&1)
	ok $([ -z "$warn" ]; echo $?) "groff -man -ww renders the man page without a warning${warn:+: $warn}"
	txt=$(groff -man -Tutf8 "$src/doc/vfsidmap-check.1" 2>/dev/null | col -b)
	miss=""
	for o in $(./check -h | grep -oE '^  (-[A-Za-z]|--[a-z-]+)' ); do
		echo "$txt" | grep -q -- "$o" || miss+=" $o"
	done
	ok $([ -z "$miss" ]; echo $?) "the man page describes every option of ./check -h${miss:+ (missing:$miss)}"
else
	skip "the man page renders" "no groff (Debian package groff-base)"
	skip "the man page has every option" "no groff"
fi

# 14-16: the kernel-tree drop-in through the kernel's own make and runner
ksrc=${VFSIDMAP_KERNEL_SRC:-}
if [ -z "$ksrc" ]; then
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
	if [ -n "$tarball" ]; then
		mkdir "$work/k"
		tar -xJf "$tarball" -C "$work/k" --wildcards '*/tools/testing/selftests/Makefile' \
			'*/tools/testing/selftests/lib.mk' '*/tools/testing/selftests/kselftest*' \
			'*/tools/testing/selftests/run_kselftest.sh' '*/scripts/subarch.include' 2>/dev/null
		ksrc=$(find "$work/k" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	fi
fi
if [ -z "$ksrc" ] || [ ! -f "$ksrc/tools/testing/selftests/lib.mk" ]; then
	for i in 1 2 3; do skip "kernel-tree drop-in $i" "no kernel tree (VFSIDMAP_KERNEL_SRC, /usr/src/linux-source-*.tar.xz)"; done
elif [ "$(id -u)" != 0 ]; then
	for i in 1 2 3; do skip "kernel-tree drop-in $i" "needs root"; done
else
	had=0; [ -e "$ksrc/tools/testing/selftests/vfsidmap" ] && had=1
	$MAKE -s kselftest-dropin KERNEL_SRC="$ksrc" >"$work/dropin.log" 2>&1; rc=$?
	ok $([ $rc = 0 ] && [ -x "$ksrc/tools/testing/selftests/vfsidmap/api_001" ] &&
		grep -q '^include \.\./lib\.mk$' "$ksrc/tools/testing/selftests/vfsidmap/Makefile"; echo $?) \
		"make kselftest-dropin KERNEL_SRC= writes tools/testing/selftests/vfsidmap (exit $rc)"
	make -C "$ksrc/tools/testing/selftests" TARGETS=vfsidmap VFSIDMAP_TESTS="api_001 idmapped_003" run_tests >"$work/ksft.out" 2>&1; rc=$?
	ok $([ $rc = 0 ] && grep -q '^ok 1 selftests: vfsidmap: api_001$' "$work/ksft.out" &&
		grep -q '^ok 2 selftests: vfsidmap: idmapped_003 # SKIP$' "$work/ksft.out" &&
		[ -x "$ksrc/tools/testing/selftests/vfsidmap/suite/check" ]; echo $?) \
		"make -C tools/testing/selftests TARGETS=vfsidmap run_tests: api_001 ok, idmapped_003 (vfat only) SKIP"
	VFSIDMAP_ALL=1 make -C "$ksrc/tools/testing/selftests" TARGETS=vfsidmap VFSIDMAP_TESTS=selftest_001 run_tests >"$work/ksft.out" 2>&1
	ok $(grep -q '^not ok 1 selftests: vfsidmap: selftest_001' "$work/ksft.out"; echo $?) \
		"a failing test (selftest/001 crashes on purpose) is 'not ok' in the kernel runner's TAP"
	# a drop-in this test made in the caller's tree goes again
	[ "$had" = 0 ] && [ -n "${VFSIDMAP_KERNEL_SRC:-}" ] && rm -rf "$ksrc/tools/testing/selftests/vfsidmap"
fi

[ "$n" = "$PLAN" ] || echo "# planned $PLAN, ran $n"
exit $((failed > 0))
