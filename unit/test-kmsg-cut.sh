#!/bin/bash
# vfsidmap-tool kmsg-cut (runner/kmsg-cut.h): a test's part of the kernel
# log read from one open /dev/kmsg, on from where the last read left it,
# as check reads it after each test (common/kmsg.sh). Lines are written
# into the real kernel log here, each with this run's own words:
#  - --probe finds a line written after the open;
#  - the lines between a start and an end record come out as dmesg prints
#    them ("[secs.usecs] text"), a record with a newline as two lines,
#    the lines of trouble in the hits file, another run's selftest fake
#    warning not among them;
#  - the next cut has none of the first cut's lines (the position moved on);
#  - without the start record: a line saying so, then what was read;
#    without the end record: exit 1; a log that cannot be read: exit 2;
#  - check's form of test-files (with the five kmsg-cut arguments) writes
#    NNN.dmesg as well, says how the cut went on a fourth digest line and
#    removes OUT.rules and OUT.status (the next test must not find them).
# Needs root (/dev/kmsg); TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "writes and reads /dev/kmsg"
echo "1..7"
unit_workdir kmsg-cut
tool=$top/runner/vfsidmap-tool
me="vt-unit-kmsg-$$"
# Other runs of ./check on this machine read this log too: no line here
# matches what they take for trouble (common/kmsg.sh; a selftest fake
# warning without "WARNING:" matches none of theirs either); the trouble
# of these cuts is this run's own word.
trouble="$me-TROUBLE|fake warning"
# (with its newline: a record without one stays open for a continuation,
# unread, until the next one comes)
kmsg() { printf '%s\n' "$1" >/dev/kmsg; }

exec 5</dev/kmsg
kmsg "$me probe"
"$tool" kmsg-cut --probe "$me probe" <&5 >"$work/p.out" 2>&1; rp=$?
check_ '[ $rp = 0 ] && [ ! -s "$work/p.out" ]' "--probe finds the line written after the open, prints nothing (exit $rp)"

kmsg "$me A start"
kmsg "$me hello $me-TROUBLE one"
kmsg "vfsidmap-selftest fake warning (run other-1)"
kmsg "vfsidmap-selftest fake warning (run $me-tag)"
printf '%s\n%s\n' "$me two" "lines" >"$work/two"
# one write, one record with a newline inside (\x0a in /dev/kmsg)
dd if="$work/two" of=/dev/kmsg bs=4096 status=none
kmsg "$me A end"
kmsg "$me after A"
"$tool" kmsg-cut "$me A start" "$me A end" "$me-tag" "$trouble" "$work/a.hits" <&5 >"$work/a.out" 2>&1; ra=$?
# (other runs on this machine may write into the log meanwhile: only
# this run's lines are counted)
check_ '[ $ra = 0 ] && [ "$(grep -c "$me" "$work/a.out")" = 3 ] && grep -q "(run other-1)" "$work/a.out" &&
	grep -qE "^\[ *[0-9]+\.[0-9]{6}\] $me hello $me-TROUBLE one$" "$work/a.out" &&
	grep -qE "^\[ *[0-9]+\.[0-9]{6}\] $me two$" "$work/a.out" && grep -qx "lines" "$work/a.out" &&
	! grep -q "A start\|A end\|after A" "$work/a.out"' \
	"the lines between the markers, as dmesg prints them, a record with a newline as two lines (exit $ra)"
[ $ra = 0 ] || sed 's/^/# /' "$work/a.out"
check_ '[ "$(grep -c "$me" "$work/a.hits")" = 2 ] && grep -q "hello $me-TROUBLE one" "$work/a.hits" &&
	grep -q "(run $me-tag)" "$work/a.hits" && ! grep -q "other-1" "$work/a.hits"' \
	"hits: the trouble line and this run's fake warning, not another run's"

kmsg "$me B start"
kmsg "$me in B"
kmsg "$me B end"
"$tool" kmsg-cut "$me B start" "$me B end" "$me-tag" "$trouble" "$work/b.hits" <&5 >"$work/b.out" 2>&1; rb=$?
check_ '[ $rb = 0 ] && [ "$(grep -c "$me" "$work/b.out")" = 1 ] && grep -q "$me in B$" "$work/b.out" && ! grep -q "$me" "$work/b.hits"' \
	"the next cut reads on from the first's end: only B's line (exit $rb)"

kmsg "$me C between"
kmsg "$me C end"
"$tool" kmsg-cut "$me C start" "$me C end" "$me-tag" "$trouble" "$work/c.hits" <&5 >"$work/c.out" 2>&1; rc=$?
check_ '[ $rc = 0 ] && [ "$(head -n 1 "$work/c.out")" = "vfsidmap: the start marker is no longer in the kernel log (ring buffer overrun); what is left:" ] &&
	grep -q "$me C between$" "$work/c.out" && ! grep -q "in B" "$work/c.out"' \
	"no start record: said so, then what was read since the last cut (exit $rc)"

kmsg "$me D start"
"$tool" kmsg-cut "$me D start" "$me D end" "$me-tag" "$trouble" "$work/d.hits" <&5 >/dev/null 2>&1; rd=$?
"$tool" kmsg-cut --probe "$me probe" </dev/null >/dev/null 2>&1; rn=$?
"$tool" kmsg-cut --probe "$me probe" <"$work" >"$work/e.out" 2>&1; re=$?
check_ '[ $rd = 1 ] && [ $rn = 1 ] && [ $re = 2 ] && grep -q "reading the kernel log" "$work/e.out"' \
	"no end record: exit $rd (1); an empty log: exit $rn (1); a directory: exit $re (2) with the reason"
printf 'KTAP version 1\n1..1\nok 1 x\n' >"$work/o.ktap"
: >"$work/o.stderr"
echo rules >"$work/o.rules"
echo pass >"$work/o.status"
kmsg "$me F start"
kmsg "$me $me-TROUBLE in F"
kmsg "$me F end"
digest=$("$tool" test-files "$work/o" "$work/f" "hdr
" "$me F start" "$me F end" "$me-tag" "$trouble" "$work/f.hits" <&5 2>"$work/f.err"); rf=$?
check_ '[ $rf = 0 ] && [ "$(sed -n 4p <<<"$digest")" = 0 ] && [ "$(sed -n 1p <<<"$digest")" = "0 1 1 1 0 0" ] &&
	grep -q "$me $me-TROUBLE in F$" "$work/f.dmesg" && [ "$(grep -c "$me" "$work/f.dmesg")" = 1 ] && grep -q "$me-TROUBLE in F" "$work/f.hits" &&
	cmp -s "$work/o.ktap" "$work/f.ktap" && [ -s "$work/f.rules" ] && [ ! -e "$work/o.rules" ] && [ ! -e "$work/o.status" ] && [ -e "$work/o.ktap" ]' \
	"test-files with the kernel log: NNN.dmesg, the hits, digest line 4 \"0\", OUT.rules and OUT.status removed (exit $rf)"
[ $rf = 0 ] || { echo "# $digest"; sed 's/^/# /' "$work/f.err"; }
exec 5<&-
