#!/bin/bash
# The kernel's side of each test can fail a test:
#  - a "WARNING:" line in the kernel log between the test's markers
#    (selftest/004's kernel-warning case writes one into /dev/kmsg, tagged
#    with its run) fails a test whose cases all passed, with the line, and
#    it is kept in NNN.dmesg; a noise pattern (VT_DMESG_NOISE) lets it pass;
#  - without a readable kernel log (VT_KMSG_DEV names no file) the run
#    says so (terminal, check.log);
#  - a corruption of the filesystem a test ran on fails that test with the
#    fsck output: an ext4 image given as TEST_DEV in a local.config, clean
#    first (the test passes), then with the root directory's link count
#    made wrong by debugfs (e2fsck pass 4 finds it; the image is ours).
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts, /dev/kmsg"
echo "1..9"
unit_workdir kchecks
unset VT_DMESG_NOISE
cd "$top" || exit 1

# --- kernel log
./check --case selftest/004/kernel-warning --fs tmpfs --results "$work/w" >"$work/w.out" 2>&1
rc=$?
d=$work/w/tmpfs/selftest
check_ '[ $rc -eq 1 ] && grep -q "^ok 1 kernel-warning$" "$d/004.ktap" && grep -q "selftest/004 .*\[failed\] kernel log: 1 line(s) of trouble during the test, first: WARNING: vfsidmap-selftest fake warning (run " "$work/w.out" && grep -q "^    kernel: .*WARNING: vfsidmap-selftest fake warning" "$work/w.out"' \
	"a WARNING in the kernel log during a test whose case passed fails it, with the line (exit $rc)"
[ $rc -eq 1 ] || sed 's/^/# /' "$work/w.out" | head -n 20
check_ 'grep -q "WARNING: vfsidmap-selftest fake warning" "$d/004.dmesg" && grep -q "^# kernel: .*WARNING: vfsidmap-selftest" "$d/004.out.bad" && grep -q "^selftest/004 fail .*kernel log:" "$work/w/check.log" && grep -q "^not ok 1 tmpfs:selftest/004" "$work/w/results.ktap"' \
	"the line is in 004.dmesg, 004.out.bad, check.log and results.ktap"

printf '# this test'"'"'s own fake warning\nvfsidmap-selftest fake warning\n' >"$work/noise"
VT_DMESG_NOISE=$work/noise ./check --case selftest/004/kernel-warning --fs tmpfs --results "$work/q" >"$work/q.out" 2>&1
rc=$?
check_ '[ $rc -eq 0 ] && grep -q "WARNING: vfsidmap-selftest fake warning" "$work/q/tmpfs/selftest/004.dmesg"' \
	"a line matching a noise pattern (VT_DMESG_NOISE) is kept in NNN.dmesg but does not fail the test (exit $rc)"

./check --case api/001/size-zero-einval --fs tmpfs --results "$work/c" >"$work/c.out" 2>&1
rc=$?
check_ '[ $rc -eq 0 ] && [ -f "$work/c/tmpfs/api/001.dmesg" ] && ! grep -q "KERNEL LOG" "$work/c.out"' \
	"a quiet test passes, its NNN.dmesg written (exit $rc)"

VT_KMSG_DEV=$work/no-kmsg ./check --case selftest/004/kernel-warning --fs tmpfs --results "$work/n" >"$work/n.out" 2>&1
rc=$?
check_ 'grep -q "^KERNEL LOG *-- not checked per test: cannot read the kernel log ($work/no-kmsg: no such file)" "$work/n.out" && grep -q "^kernel log: not checked per test: cannot read" "$work/n/check.log" && grep -q "kernel log not checked" "$work/n/tmpfs/selftest/004.full"' \
	"without a readable kernel log the run says so on the terminal, in check.log and in the test's .full (exit $rc)"

# --- fsck of the filesystem a test ran on
img=$work/ext4.img
truncate -s 64M "$img"
PATH=$PATH:/sbin:/usr/sbin mkfs.ext4 -q -F "$img" >/dev/null 2>&1
printf '[dev]\nFSTYP=ext4\nTEST_DEV=%s\n' "$img" >"$work/local.config"
./check -c "$work/local.config" --case api/001/size-zero-einval --results "$work/f1" >"$work/f1.out" 2>&1
rc=$?
check_ '[ $rc -eq 0 ] && [ ! -e "$work/f1/dev/api/001.fsck" ]' \
	"a clean ext4 TEST_DEV: the test passes, e2fsck -fn finds nothing (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$work/f1.out" | head -n 20
# The root directory holds ".", ".." and lost+found's "..": 3 links
# (ext4_add_entry/ext4_inc_count); 9 is wrong, e2fsck's pass 4 counts them.
PATH=$PATH:/sbin:/usr/sbin debugfs -w -R "sif <2> links_count 9" "$img" >/dev/null 2>&1
./check -c "$work/local.config" --case api/001/size-zero-einval --results "$work/f2" >"$work/f2.out" 2>&1
rc=$?
check_ '[ $rc -eq 1 ] && grep -q "^ok 1 size-zero-einval" "$work/f2/dev/api/001.ktap" && grep -q "\[failed\] fsck after the test: e2fsck -fn .* exit 4: Inode 2 ref count is 9, should be 3\." "$work/f2.out" && grep -qi "inode 2 ref count is 9" "$work/f2/dev/api/001.fsck" && grep -q "^# fsck: " "$work/f2/dev/api/001.out.bad"' \
	"after the root's link count is made wrong, the test fails with e2fsck's finding (exit $rc)"
[ $rc -eq 1 ] || sed 's/^/# /' "$work/f2.out" | head -n 20
# The suite read the device only: e2fsck -n changed nothing.
PATH=$PATH:/sbin:/usr/sbin e2fsck -fn "$img" >"$work/after" 2>&1
check_ 'grep -qi "inode 2 ref count is 9" "$work/after"' "the configured TEST_DEV was not repaired by the suite (read-only checks)"

left=$(find "$work/runs" "$work/tmp" -mindepth 1 -maxdepth 1 | tr '\n' ' ')
left+=$(findmnt -rn -o TARGET | grep -F "$work" | tr '\n' ' ')
left+=$(losetup -j "$img" 2>/dev/null | tr '\n' ' ')
check_ '[ -z "$left" ]' "nothing left behind${left:+ (left: $left)}"
