#!/bin/bash
# VT_MODEL_BREAK is input to ./check (common/replay.sh,
# vt_validate_model_break): each item must name a model mutant of at least
# one selected test, counted by the tests themselves (--match-mutants).
# A typo used to break nothing: every test passed and the run was green.
#  1:   a guard's id, "[rule]" and all, names its mutant (fnmatch alone
#       read the brackets as a set: the id named nothing)
#  2:   an unknown item: exit 2, the item named, no test listed
#  3-4: an xattr_rules.c mutant (api/001 does not link that model) is
#       accepted with api/001 and matrix/002 and refused with api/001
#       alone: the union over the selected tests decides, not one program
#  5:   a list with one good and one unknown item: exit 2 naming the unknown
#  6:   an alias inside a list is expanded (chown-skip-mount-translation);
#       a test that crashes when asked (selftest/001 does, on purpose)
#       counts as knowing no mutant, not as bad input
#  7:   --match-mutants counts what --list-mutants lists for a pattern
#  8:   a real run (not -n) refuses before anything is made: no results dir
set -u
. "$(dirname "$0")/tap-status.sh"
echo "1..8"
tmp=$(mktemp -d /tmp/vfsidmap-mbreak.XXXXXX)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
check=$top/check

run() { # spec, check args...: stdout+stderr in $tmp/out, status in $rc
	local spec=$1
	shift
	VT_MODEL_BREAK=$spec "$check" "$@" >"$tmp/out" 2>&1
	rc=$?
}

# a guard's id ("...guard[rule]#removed") names itself, though fnmatch()
# reads its brackets as a set
g=$("$top/tests/matrix/011" --list-mutants | cut -f1 | grep -m1 'guard\[')
got=$("$top/tests/matrix/011" --match-mutants "$g" | cut -f1)
ok "$([ -n "$g" ] && [ "$got" = 1 ]; echo $?)" "a guard's id, brackets and all, names its mutant ($g: $got)"

run no-such-mutant -n --fs tmpfs -g quick
ok "$([ $rc = 2 ] && grep -q "'no-such-mutant' names no model mutant" "$tmp/out" &&
	! grep -q '^SECTION' "$tmp/out"; echo $?)" "an unknown mutant is exit 2 before any test (rc=$rc)"

# api/001 links no xattr_rules.c (lib/model): one of its mutants must be
# accepted where api/001 runs beside matrix/002 and refused where it runs alone
xid=$("$top/tests/matrix/002" --list-mutants | cut -f1 | grep -m1 '^xattr_rules\.c:')
inapi=$("$top/tests/api/001" --match-mutants "$xid" | cut -f1)
run "$xid" -n --fs tmpfs api/001 matrix/002
ok "$([ -n "$xid" ] && [ "$inapi" = 0 ] && [ $rc = 0 ] && grep -q 'api/001' "$tmp/out"; echo $?)" \
	"$xid (not in api/001's model) is accepted where matrix/002 runs too (rc=$rc)"
run "$xid" -n --fs tmpfs api/001
ok "$([ $rc = 2 ] && grep -qF "'$xid' names no model mutant" "$tmp/out"; echo $?)" \
	"the same mutant is refused where only api/001 runs (rc=$rc)"

run 'attr_rules.c:*#identity,attr_rules.c:no_such_fn/*' -n --fs tmpfs matrix/002 idmapped/006
ok "$([ $rc = 2 ] && grep -qF "'attr_rules.c:no_such_fn/*' names" "$tmp/out" &&
	! grep -qF "'attr_rules.c:*#identity' names" "$tmp/out"; echo $?)" \
	"one unknown item of a list is named, the known one is not (rc=$rc)"

run "chown-skip-mount-translation,$xid" -n --fs tmpfs matrix/002 idmapped/006 selftest/001
ok "$([ $rc = 0 ]; echo $?)" "an alias inside a list is expanded, a test that crashes when asked (selftest/001) knows none (rc=$rc)"

pat='*/from_vfs[ug]id*#identity'
want=$("$top/tests/matrix/002" --list-mutants | cut -f1 | while read -r id; do
	[[ $id == $pat ]] && echo "$id"; done | wc -l)
got=$("$top/tests/matrix/002" --match-mutants "$pat" | cut -f1)
ok "$([ "$want" -gt 0 ] && [ "$got" = "$want" ]; echo $?)" \
	"--match-mutants counts what --list-mutants lists ($got of $want)"

if [ "$(id -u)" = 0 ]; then
	mkdir -p "$tmp/base"
	VT_RUN_BASE=$tmp/base VT_MODEL_BREAK=no-such-mutant "$check" --fs tmpfs \
		--results "$tmp/results" matrix/002 >"$tmp/out" 2>&1
	rc=$?
	ok "$([ $rc = 2 ] && [ ! -e "$tmp/results" ] && [ -z "$(ls -A "$tmp/base")" ]; echo $?)" \
		"a real run refuses before making results or run directories (rc=$rc)"
else
	skip "a real run refuses before making anything" "needs root"
fi
exit $((failed > 0))
