#!/bin/bash
# The installed suite is the whole suite: `make install` (what run/vm packs
# into the guest) holds every file ./check and the tests use at run time.
# Installs into a scratch DESTDIR, then runs ./check from that tree alone,
# chrooted in a private mount namespace that holds the host's system
# directories and the installed tree but not this source tree: listing,
# case listing, a dry run, and a sample of every test of -g idmapped on
# tmpfs (every setup path: matrix fixtures, exec-probe, expunge files).
# Then it removes one installed file a test needs and requires the run to
# fail, so the check can fail; and the installed matrix/011 carries its
# build-time sample table. Needs root; TAP for automake.
. "$(dirname "$0")/tap.sh"
echo "1..10"
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
	for i in 1 2 3 4 5 6 7 8 9 10; do echo "ok $i # SKIP needs root and unshare"; done
	exit 0
fi
work=$(mktemp -d /var/tmp/vt-install.XXXXXX)
[ -n "${VT_KEEP:-}" ] || trap 'rm -rf --one-file-system "$work"' EXIT
chmod 755 "$work"

$MAKE -s -C "$top" install DESTDIR="$work/inst" suitedir=/vfsidmap >"$work/install.log" 2>&1
check_ '[ -x "$work/inst/vfsidmap/check" ]' "make install DESTDIR= writes the suite"
S=$work/inst/vfsidmap

# Every test group.list names, every expunge file of the tree.
missing=""
for list in "$top"/tests/*/group.list; do
	suite=$(basename "$(dirname "$list")")
	[ -f "$S/tests/$suite/group.list" ] || missing="$missing tests/$suite/group.list"
	while read -r nnn _; do
		case $nnn in ''|'#'*) continue ;; esac
		[ -x "$S/tests/$suite/$nnn" ] || missing="$missing tests/$suite/$nnn"
		[ -f "$S/tests/$suite/$nnn.c" ] || missing="$missing tests/$suite/$nnn.c"
	done <"$list"
done
for f in $(find "$top/expunge" -type f | sort) "$top"/common/*.sh; do
	rel=${f#"$top"/}
	[ -f "$S/$rel" ] || missing="$missing $rel"
done
check_ '[ -z "$missing" ]' "every test, group list, expunge file and common/ script is installed${missing:+ (missing:$missing)}"

# A root with the system's directories and the installed suite only.
R=$work/root
mkdir -p "$R"/{proc,sys,dev,tmp,var/tmp,run,etc,usr,vfsidmap}
for top_dir in bin sbin lib lib32 lib64 libx32; do
	if [ -L "/$top_dir" ]; then ln -s "$(readlink "/$top_dir")" "$R/$top_dir"
	elif [ -d "/$top_dir" ]; then mkdir -p "$R/$top_dir"
	fi
done
chmod 755 "$R"
in_root() { # command... (run in the private root, cwd /vfsidmap)
	unshare -m --propagation private -- bash -c '
		R=$1; S=$2; shift 2
		# a mount of its own: the executor makes "/" private (MS_REC)
		mount --bind "$R" "$R" || exit 99
		for d in usr etc dev sys; do mount --rbind "/$d" "$R/$d" || exit 99; done
		for d in bin sbin lib lib32 lib64 libx32; do
			[ -d "/$d" ] && [ ! -L "/$d" ] && { mount --rbind "/$d" "$R/$d" || exit 99; }
		done
		mount -t proc proc "$R/proc" || exit 99
		mount -t tmpfs -o mode=1777 tmpfs "$R/tmp" || exit 99
		mount -t tmpfs -o mode=1777 tmpfs "$R/var/tmp" || exit 99
		mount --bind "$S" "$R/vfsidmap" || exit 99
		# pivot_root, not chroot: a chrooted process may not create user
		# namespaces (create_user_ns: current_chrooted() -> EPERM)
		mkdir -p "$R/.old" && cd "$R" && pivot_root . .old && umount -l /.old || exit 99
		# the caller'"'"'s VT_RUN_BASE and TMPDIR name directories of the
		# host, not of this root: the run base is the root'"'"'s /var/tmp
		unset VT_RUN_BASE TMPDIR
		exec /bin/bash -c "cd /vfsidmap && $*"
	' in-root "$R" "$S" "$@"
}

in_root './check -l -g idmapped' >"$work/l.out" 2>&1
check_ '[ $? -eq 0 ] && grep -q "^matrix/010 .*exec" "$work/l.out"' \
	"./check -l from the installed tree lists the tests with their descriptions"
host_cases=$("$top/tests/matrix/010" --list-cases | wc -l)
in_root './check --list-cases matrix/010' >"$work/lc.out" 2>&1
check_ '[ "$(wc -l <"$work/lc.out")" -eq "$host_cases" ]' \
	"--list-cases matrix/010 gives the host's $host_cases cases"
in_root './check -n -g idmapped --fs tmpfs' >"$work/n.out" 2>&1
check_ '[ $? -eq 0 ]' "dry run of -g idmapped"

# A sample of every case-based test: every test's world is built and torn
# down, and every matrix family reaches its fixtures (exec-probe copies).
in_root './check --fs tmpfs -g idmapped --shard 1/150 --results /tmp/res; rc=$?; cp -r /tmp/res /vfsidmap/.res; exit $rc' \
	>"$work/run.out" 2>&1
rc=$?
npass=$(grep -cE '^ok [0-9]+ tmpfs:[a-z]+/[0-9]+$' "$S/.res/results.ktap" 2>/dev/null)
check_ '[ $rc -eq 0 ] && [ "${npass:-0}" -ge 25 ]' \
	"./check --fs tmpfs -g idmapped --shard 1/150 passes from the installed tree alone (exit $rc, ${npass:-0} test runs passed)"
[ $rc -eq 0 ] || tail -n 30 "$work/run.out" | sed 's/^/# /'
nexec=$(grep -c '^ *ok [0-9]* exec/' "$S/.res/tmpfs/matrix/010.ktap" 2>/dev/null)
check_ '[ "${nexec:-0}" -gt 0 ] && ! grep -q "setup of .* failed" "$S"/.res/tmpfs/*/*.ktap' \
	"the exec family ran (${nexec:-0} cases passed), no setup failed"
rm -rf "$S/.res"

# The check can fail: without exec-probe the exec family must fail.
mv "$S/tests/matrix/exec-probe" "$work/exec-probe.away"
in_root './check --fs tmpfs matrix/010 --shard 1/150 --results /tmp/res; rc=$?; cat /tmp/res/tmpfs/matrix/010.full; exit $rc' >"$work/neg.out" 2>&1
rc=$?
check_ '[ $rc -eq 1 ] && grep -q "copy exec-probe: ENOENT" "$work/neg.out"' \
	"an install without exec-probe fails the exec family, naming it (exit $rc)"
mv "$work/exec-probe.away" "$S/tests/matrix/exec-probe"
# matrix/011's build-time sample table (lib/matrix/sample_table.h) is in
# the installed program and made from its own sources.
in_root './tests/matrix/011 --list-sample --fs tmpfs' >"$work/ls.out" 2>"$work/ls.err"
rc=$?
check_ '[ $rc -eq 0 ] && [ "$(wc -l <"$work/ls.out")" -gt 100 ] && grep -q "^# sample " "$work/ls.err" && ! grep -q "no build-time table\|made from other sources" "$work/ls.err"' \
	"the installed matrix/011 carries its sample table ($(grep '^# sample ' "$work/ls.err" | sed 's/^# //'))"
check_ '[ -z "$(findmnt -rn -o TARGET | grep -F "$work")" ]' "nothing of the private root stays mounted"
