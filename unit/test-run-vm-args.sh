#!/bin/bash
# run/vm's command line (TAP), without booting anything: every bad input is
# one line on stderr and exit status 2; --help is exit 0; a file that is not
# a bzImage is an infrastructure failure (3, or 125 with --bisect); nothing
# is left in the work directory's base.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
vm=$top/run/vm
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi; }

base=$(mktemp -d /tmp/vfsidmap-vmargs.XXXXXX)
trap 'rm -rf "$base"' EXIT
notkernel=$base/not-a-kernel
echo "just text" >"$notkernel"

# expect_usage NAME ARGS...: exit 2 and exactly one line on stderr
expect_usage() {
	local name=$1 err rc lines
	shift
	err=$(TMPDIR=$base "$vm" "$@" 2>&1 >/dev/null)
	rc=$?
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ $rc = 2 ] && [ "$lines" = 1 ]; then
		ok 0 "$name"
	else
		echo "# run/vm $*: exit $rc, stderr ($lines lines):"; printf '%s\n' "$err" | sed 's/^/#   /'
		ok 1 "$name"
	fi
}

echo "1..41"
expect_usage "no arguments" 
expect_usage "unknown option" --kernel "$notkernel" --frobnicate
expect_usage "positional before --" --kernel "$notkernel" -g quick
expect_usage "--kernel without value" --kernel
expect_usage "--kernel empty" --kernel ""
expect_usage "--kernel missing file" --kernel "$base/nope"
expect_usage "--accel bad" --kernel "$notkernel" --accel fast
expect_usage "--mem not a number" --kernel "$notkernel" --mem lots
expect_usage "--mem too small" --kernel "$notkernel" --mem 16
expect_usage "--cpus zero" --kernel "$notkernel" --cpus 0
expect_usage "--timeout not a number" --kernel "$notkernel" --timeout 1h
expect_usage "--timeout=value form checked" --kernel "$notkernel" --timeout=-5
expect_usage "--modules missing dir" --kernel "$notkernel" --modules "$base/nomods"
expect_usage "check -E missing file" --kernel "$notkernel" -- -E "$base/noexpunge"
expect_usage "check --results without value" --kernel "$notkernel" -- -g quick --results
mkdir -p "$base/precious" && touch "$base/precious/file"
expect_usage "check --results on a directory that is not results" --kernel "$notkernel" -- --results "$base/precious"
ok $([ -e "$base/precious/file" ] && echo 0 || echo 1) "that directory is untouched"
rm -rf "$base/precious"
# ./check --mutation-score publishes its TSV as check's own (listed in the
# manifest), so run/vm takes that directory, with a user's file added
# since: on to the bzImage check (exit 3), not refused (2).
mkdir -p "$base/scored"
"$top/check" --mutation-score quick --fs tmpfs --results "$base/scored" >/dev/null 2>&1; rc=$?
ok $([ $rc = 0 ] && [ -s "$base/scored/mutation-score.tsv" ] && [ "$(tr '\0' '\n' <"$base/scored/.vfsidmap-results")" = mutation-score.tsv ] &&
	[ -z "$(ls -A "$base" | grep '^\.vfsidmap-stage\.scored\|^scored\.')" ] && echo 0 || echo 1) \
	"--mutation-score publishes its TSV listed as check's, leaves no staging (rc $rc)"
echo mine >"$base/scored/user-file"
TMPDIR=$base "$vm" --kernel "$notkernel" -- --results "$base/scored" -g quick >/dev/null 2>&1; rc=$?
ok $([ $rc = 3 ] && echo 0 || echo 1) "a results directory written by --mutation-score is taken by run/vm: exit 3 at the bzImage (got $rc)"
rm -rf "$base/scored"
# --gcov BUILD: the build directory of a gcov kernel, checked before anything is built.
expect_usage "--gcov without value" --kernel "$notkernel" --gcov
expect_usage "--gcov missing directory" --kernel "$notkernel" --gcov "$base/nobuild"
mkdir -p "$base/plainbuild" && printf 'CONFIG_64BIT=y\n# CONFIG_GCOV_KERNEL is not set\n' >"$base/plainbuild/.config"
expect_usage "--gcov on a build without CONFIG_GCOV_KERNEL=y" --kernel "$notkernel" --gcov "$base/plainbuild"
mkdir -p "$base/gcovbuild" && printf 'CONFIG_DEBUG_FS=y\nCONFIG_GCOV_KERNEL=y\n' >"$base/gcovbuild/.config"
TMPDIR=$base "$vm" --kernel "$notkernel" --gcov="$base/gcovbuild" -- -g quick >/dev/null 2>&1; rc=$?
ok $([ $rc = 3 ] && echo 0 || echo 1) "--gcov=BUILD of a gcov build is accepted: on to the bzImage check, exit 3 (got $rc)"
rm -rf "$base/plainbuild" "$base/gcovbuild"

# -j for the guest's check: its --cpus when several and the user gave no -j
guest_args() { TMPDIR=$base "$vm" --kernel "$notkernel" --print-check-args "$@" 2>&1 | tr '\n' ' '; }
a=$(guest_args --cpus 4 -- -g quick --fs ext4)
ok $([ "$a" = "-j 4 --results /tmp/results -g quick --fs ext4 " ] && echo 0 || echo 1) "--cpus 4: the guest's check gets -j 4 ($a)"
a=$(guest_args --cpus 1 -- -g quick)
ok $([ "$a" = "--results /tmp/results -g quick " ] && echo 0 || echo 1) "--cpus 1: no -j ($a)"
a=$(guest_args --cpus 4 -- -j 1 -g quick)
ok $([ "$a" = "--results /tmp/results -j 1 -g quick " ] && echo 0 || echo 1) "--cpus 4 with check's -j 1: the user's -j alone ($a)"
# the guest's --results comes before the user's words: after a "--" of
# theirs check takes every word as a test name
a=$(guest_args --cpus 1 -- -g quick -- api/001)
ok $([ "$a" = "--results /tmp/results -g quick -- api/001 " ] && echo 0 || echo 1) "a user's -- keeps the guest's --results an option ($a)"

out=$("$vm" --help 2>&1); rc=$?
case $out in *"usage: run/vm"*) ;; *) rc=99 ;; esac
ok $rc "--help prints usage, exit 0"

TMPDIR=$base "$vm" --kernel "$notkernel" -- -g quick >/dev/null 2>&1; rc=$?
ok $([ $rc = 3 ] && echo 0 || echo 1) "not a bzImage: exit 3 (got $rc)"
# --aslr (keep user-space randomization under TCG) is a flag without a value
TMPDIR=$base "$vm" --aslr --kernel "$notkernel" -- -g quick >/dev/null 2>&1; rc=$?
ok $([ $rc = 3 ] && echo 0 || echo 1) "--aslr is accepted: on to the bzImage check, exit 3 (got $rc)"
expect_usage "--aslr takes no value" --kernel "$notkernel" --aslr=1
TMPDIR=$base "$vm" --bisect --kernel "$notkernel" >/dev/null 2>&1; rc=$?
ok $([ $rc = 125 ] && echo 0 || echo 1) "not a bzImage with --bisect: exit 125 (got $rc)"
# A fake bzImage (boot header with a version string) and a module tree
# without the modules a run needs: found before anything boots.
fake=$base/fake-bzImage
head -c 1024 /dev/zero >"$fake"
printf 'HdrS' | dd of="$fake" bs=1 seek=514 conv=notrunc 2>/dev/null
printf '\x00\x01' | dd of="$fake" bs=1 seek=526 conv=notrunc 2>/dev/null   # version at 0x100 + 0x200
printf '9.9.9-fake (nobody@nowhere) #1\0' | dd of="$fake" bs=1 seek=768 conv=notrunc 2>/dev/null
mkdir -p "$base/mods/9.9.9-fake"
: >"$base/mods/9.9.9-fake/modules.dep"
tools=yes
for t in qemu-system-x86_64 cpio depmod; do PATH=$PATH:/usr/sbin:/sbin command -v $t >/dev/null || tools="no $t"; done
if [ "$tools" != yes ] || [ ! -x "$top/runner/vfsidmap-exec" ]; then
	for what in "missing modules: exit 3" "missing modules with --bisect: exit 125" "work directory removed"; do
		n=$((n + 1)); echo "ok $n $what # SKIP needs qemu, cpio, depmod and a built tree ($tools)"
	done
else
err=$(TMPDIR=$base "$vm" --kernel "$fake" --modules "$base/mods" -- -g quick 2>&1 >/dev/null); rc=$?
case $err in *"9.9.9-fake has neither a module nor a built-in for: loop"*) ;; *) echo "# $err" | tail -n 2; rc="$rc (message)" ;; esac
ok $([ "$rc" = 3 ] && echo 0 || echo 1) "missing modules of the image's version: exit 3 (got $rc)"
TMPDIR=$base "$vm" --bisect --kernel "$fake" --modules "$base/mods" -- -g quick >/dev/null 2>&1; rc=$?
ok $([ $rc = 125 ] && echo 0 || echo 1) "missing modules with --bisect: exit 125 (got $rc)"
ls "$base" | grep -q '^vfsidmap-vm\.' && rc=1 || rc=0
ok $rc "the work directory is removed after a failure"
fi
rm -rf "$base/mods" "$fake"

# run/vm publishes the guest's results through check's one-step swap
# (common/results.sh vt_results_publish_tree), without booting: the
# previous results are replaced whole, a user's file is kept aside, and a
# failed swap leaves the previous results as they were.
ok $(grep -q 'vt_results_publish_tree "$NEW" "$RESULTS"' "$vm" && ! grep -q 'mindepth 1 -delete' "$vm" && echo 0 || echo 1) \
	"run/vm publishes with vt_results_publish_tree and no longer empties the results directory"
publish() { # from results [tool]
	( VT_TOP=$top; . "$top/common/results.sh"; VT_TOOL=${3:-$top/runner/vfsidmap-tool} VT_RESULTS_CARRY=0 VT_ARGV_LINE="run/vm (test)"
	  vt_results_publish_tree "$1" "$2" )
}
sums() { (cd "$1" && find . -path ./.lock -prune -o -type f -print0 | sort -z | xargs -0r sha256sum); }
mkdir -p "$base/g1/tmpfs" "$base/g1/vm" "$base/g2/vm"
echo "old ktap" >"$base/g1/results.ktap"; echo old >"$base/g1/tmpfs/001.out"; echo old >"$base/g1/vm/console.log"
echo "new ktap" >"$base/g2/results.ktap"; echo new >"$base/g2/vm/console.log"
publish "$base/g1" "$base/vmres" 2>"$base/err"; rc=$?
ok $([ $rc = 0 ] && [ "$(cat "$base/vmres/results.ktap")" = "old ktap" ] && [ -f "$base/vmres/tmpfs/001.out" ] && [ -z "$(ls -A "$base" | grep '^\.vmres\|^vmres\.')" ] && echo 0 || echo 1) \
	"first publish into a new directory: the guest's results, no staging left"
echo mine >"$base/vmres/user-file"
prev=$(sums "$base/vmres")
publish "$base/g2" "$base/vmres" /bin/false 2>"$base/err"; rc=$?
ok $([ $rc = 2 ] && grep -q 'could not be written' "$base/err" && [ "$(sums "$base/vmres")" = "$prev" ] && [ -z "$(ls -A "$base" | grep '^\.vmres\|^vmres\.')" ] && echo 0 || echo 1) \
	"the swap fails: exit 2 ($rc), the previous results byte-identical, no staging left"
publish "$base/g2" "$base/vmres" 2>"$base/err"; rc=$?
kept=$(ls -d "$base"/vmres.kept-* 2>/dev/null | head -n 1)
ok $([ $rc = 0 ] && [ "$(cat "$base/vmres/results.ktap")" = "new ktap" ] && [ ! -e "$base/vmres/tmpfs" ] && [ "$(cat "$base/vmres/vm/console.log")" = new ] && echo 0 || echo 1) \
	"the next publish replaces the previous results whole (no old file left beside the new)"
ok $([ -n "$kept" ] && [ "$(cd "$kept" && find . ! -type d)" = ./user-file ] && grep -q "kept $kept" "$base/err" && echo 0 || echo 1) \
	"the user's file is kept aside in $(basename "${kept:-none}"), not deleted; the old results are gone"
rm -rf "$base/g1" "$base/g2" "$base/vmres" "$base/err" "$kept"
left=$(ls -A "$base" | grep -v '^not-a-kernel$')
ok $([ -z "$left" ] && echo 0 || echo 1) "nothing left behind${left:+: $left}"
[ $failed = 0 ]
