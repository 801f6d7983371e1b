#!/bin/bash
# A test changing a global sysctl runs alone under -j (common/sysctl_lock.sh),
# as TAP.
#  1-4: the lock itself, without check: sharers run side by side; a test of
#       the exclusive group waits for them and they for it; a changer
#       waiting is let in before a sharer that comes after it (the
#       turnstile); without VT_ALLOW_SYSCTL=1, or without -j, nothing is
#       locked.
#  5-6: check -j 2 with VT_ALLOW_SYSCTL=1 runs two sections' tests of the
#       exclusive group one after the other (their NNN.full stamps and
#       times), and side by side without VT_ALLOW_SYSCTL. The exclusive
#       group is made "selftest" (VT_SYSCTL_GROUP) and the test selftest/002
#       (it hangs until -T), so that no sysctl of this machine is changed.
#  7-8: a sharer keeps its lock from test to test (no flock processes)
#       until a changer waits; then the changer runs between its tests.
set -u
. "$(dirname "$0")/tap.sh"
echo "1..8"
cd "$top"
lockdir=$(mktemp -d /tmp/vt-sysctl-lock.XXXXXX) || exit 1
trap 'rm -rf "$lockdir" ${work:+"$work"}' EXIT

# the functions as check has them
. "$src/common/tests.sh"
. "$src/common/jobs.sh"
. "$src/common/sysctl_lock.sh"
VT_TEST_GROUPS[x/001]=" auto quick "
VT_TEST_GROUPS[x/002]=" auto sysctl "
VT_SYSCTL_GROUP=sysctl
now() { date +%s.%N; }
# holder NAME TEST SECONDS: takes the lock for TEST, logs "NAME start T",
# holds it SECONDS, logs "NAME end T"
holder() {
	vt_sysctl_lock_take "$2" || { echo "$1 failed" >>"$lockdir/log"; return; }
	echo "$1 start $(now)" >>"$lockdir/log"
	sleep "$3"
	echo "$1 end $(now)" >>"$lockdir/log"
	vt_sysctl_lock_drop
}
at() { awk -v w="$1 $2" '$1 " " $2 == w { print $3 }' "$lockdir/log"; }
before() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

VT_RUNDIR=$lockdir VT_JOBS=2 VT_SECTIONS=(0 1) VT_ALLOW_SYSCTL=1
vt_sysctl_lock_prepare
check_ '[ "$VT_SYSCTL_LOCK" = "$lockdir/sysctl.lock" ] && [ -f "$VT_SYSCTL_LOCK" ]' \
	"with -j 2 and VT_ALLOW_SYSCTL=1 the run has a lock"

# 2: two sharers overlap; a changer that comes meanwhile waits for both
: >"$lockdir/log"
holder A x/001 1 & holder B x/001 1 &
sleep 0.3
holder W x/002 0.5 &
wait
good=0
before "$(at A start)" "$(at B end)" && before "$(at B start)" "$(at A end)" || good=1
before "$(at A end)" "$(at W start)" && before "$(at B end)" "$(at W start)" || good=1
grep -q failed "$lockdir/log" && good=1
[ $good = 0 ] || sed 's/^/# /' "$lockdir/log"
check_ '[ $good = 0 ]' "sharers run side by side; the exclusive test waits for both"

# 3: a changer holding the lock keeps a sharer out; a changer waiting for a
# sharer goes before a sharer that asks after it
: >"$lockdir/log"
holder A x/001 1 &
sleep 0.2
holder W x/002 0.6 &
sleep 0.2
holder B x/001 0.2 &
wait
good=0
before "$(at A end)" "$(at W start)" || good=1
before "$(at W end)" "$(at B start)" || good=1
grep -q failed "$lockdir/log" && good=1
[ $good = 0 ] || sed 's/^/# /' "$lockdir/log"
check_ '[ $good = 0 ]' "a waiting changer goes before a later sharer, and runs alone"

# 4: no lock without VT_ALLOW_SYSCTL=1, nor with one section or -j 1
good=0
for setting in "2 0 1" "1 1 1" "2 1 0"; do
	read -r VT_JOBS nsec allow <<<"$setting"
	VT_SECTIONS=(0); [ "$nsec" = 1 ] && VT_SECTIONS=(0 1)
	VT_ALLOW_SYSCTL=$allow
	vt_sysctl_lock_prepare
	[ -z "$VT_SYSCTL_LOCK" ] || { good=1; echo "# a lock with -j $VT_JOBS, ${#VT_SECTIONS[@]} sections, VT_ALLOW_SYSCTL=$allow"; }
	vt_sysctl_lock_take x/002 && [ -z "$VT_SL_FD" ] || good=1
done
check_ '[ $good = 0 ]' "nothing is locked without -j, two sections and VT_ALLOW_SYSCTL=1"

# 5-6: check itself
if [ "$(id -u)" != 0 ]; then
	skip "check -j 2 runs the exclusive group's tests one after the other (needs root)"
	skip "and side by side without VT_ALLOW_SYSCTL=1 (needs root)"
	exit 0
fi
unit_workdir sysctl-lock
# END_SECONDS DURATION_MS of NNN.full's first line ("== T on S ..., STAMP,
# Nms"; the stamp is taken when the test has ended)
span() { # results section
	sed -n '1s/.*, \([0-9TZ:-]*\), \([0-9]*\)ms$/\1 \2/p' "$1/$2/selftest/002.full" |
		{ read -r stamp ms && echo "$(date -d "$stamp" +%s) $ms"; }
}
serial() { # results: did one section's 002 start after the other's ended?
	local a b
	a=$(span "$1" tmpfs) b=$(span "$1" ext4)
	[ -n "$a" ] && [ -n "$b" ] || return 2
	set -- $a $b
	[ "$1" -le "$3" ] || set -- "$3" "$4" "$1" "$2"
	# the later ended at least its duration after the earlier ended (whole
	# seconds: floor(x) - floor(y) >= floor(x - y))
	[ $(( $3 - $1 )) -ge $(( $4 / 1000 )) ] && [ "$4" -ge 2000 ]
}
VT_ALLOW_SYSCTL=1 VT_SYSCTL_GROUP=selftest ./check -j 2 -T 3 --fs tmpfs,ext4 \
	--results "$work/r1" selftest/002 >"$work/out1" 2>&1
serial "$work/r1"; rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$work/out1"
check_ '[ $rc = 0 ]' "check -j 2, VT_ALLOW_SYSCTL=1: the exclusive group's tests ran one after the other"
VT_ALLOW_SYSCTL=0 VT_SYSCTL_GROUP=selftest ./check -j 2 -T 3 --fs tmpfs,ext4 \
	--results "$work/r2" selftest/002 >"$work/out2" 2>&1
serial "$work/r2"; rc=$?
[ $rc = 1 ] || sed 's/^/# /' "$work/out2"
check_ '[ $rc = 1 ]' "without VT_ALLOW_SYSCTL=1 they ran side by side (the check above can fail)"

# 7-8: a sharer keeps its lock from one test to the next (no flock
# processes for the second) until a changer waits: then it lets go before
# its next test, and the changer runs between the two, alone.
VT_RUNDIR=$lockdir VT_JOBS=2 VT_SECTIONS=(0 1) VT_ALLOW_SYSCTL=1
rm -f "$lockdir"/sysctl.*
vt_sysctl_lock_prepare
mkdir -p "$lockdir/bin"
realflock=$(command -v flock)
printf '#!/bin/bash\necho "$BASHPID" >>%q\nexec %q "$@"\n' "$lockdir/flocks" "$realflock" >"$lockdir/bin/flock"
chmod +x "$lockdir/bin/flock"
two_tests() { # name gap-seconds: two sharer tests with a gap between them
	PATH=$lockdir/bin:$PATH
	vt_sysctl_lock_take x/001 || { echo "$1 failed" >>"$lockdir/log"; return; }
	echo "$1-1 start $(now)" >>"$lockdir/log"; sleep 0.5; echo "$1-1 end $(now)" >>"$lockdir/log"
	vt_sysctl_lock_drop
	sleep "$2"
	vt_sysctl_lock_take x/001 || { echo "$1 failed" >>"$lockdir/log"; return; }
	echo "$1-2 start $(now)" >>"$lockdir/log"; sleep 0.5; echo "$1-2 end $(now)" >>"$lockdir/log"
	vt_sysctl_lock_drop
	vt_sysctl_lock_release
}
: >"$lockdir/log"; : >"$lockdir/flocks"
two_tests S 0.3 &
wait
nflock=$(wc -l <"$lockdir/flocks")
check_ '[ "$nflock" = 2 ] && ! grep -q failed "$lockdir/log"' \
	"a sharer alone keeps its lock for its second test: 2 flock processes for two tests ($nflock)"
: >"$lockdir/log"
two_tests S 1.5 &
sleep 0.2
holder W x/002 0.5 &
wait
good=0
before "$(at S-1 end)" "$(at W start)" && before "$(at W end)" "$(at S-2 start)" || good=1
grep -q failed "$lockdir/log" && good=1
[ $good = 0 ] || sed 's/^/# /' "$lockdir/log"
check_ '[ $good = 0 ]' "a changer waiting while a sharer keeps its lock runs between the sharer's two tests, alone"
