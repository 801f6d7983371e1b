#!/bin/bash
# Rule coverage and the quick sample (TAP): matrix/011 on tmpfs decides
# every decision rule of lib/model/rule_table.h (with the option-owner rules it
# includes from optowner_rule_table.h) both ways, or in the one
# way the world can express with the reason written down; every family
# meets every mount idmap and every caller; the choice is deterministic;
# and the accounting can fail: a sample chosen without the cases that
# decide check_sticky.victim-owner shows that rule at 0 0, "never", and a
# gap in the summary line. Needs root (tmpfs, user namespaces).
set -u
. "$(dirname "$0")/tap-status.sh"
plan=6
echo "1..$plan"
if [ "$(id -u)" != 0 ]; then
	for i in $(seq 1 $plan); do echo "ok $i # SKIP needs root (mounts tmpfs, makes user namespaces)"; done
	exit 0
fi
tmp=$(mktemp -d /tmp/vfsidmap-cov.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The rules the model can decide, from the table itself (not from a run).
decisions=$(sed -n 's/^[[:space:]]*X(\([A-Z0-9_]*\), "\([^"]*\)", \(CHECK\|BRANCH\),.*/\2/p' \
	"$src"/lib/model/rule_table.h "$src"/lib/model/optowner_rule_table.h | sort)
ndec=$(printf '%s\n' "$decisions" | grep -c .)

# 1: a full sample run passes and reports the coverage in every place.
"$top/check" --fs tmpfs --results "$tmp/a" matrix/011 >"$tmp/a.out" 2>&1; rc=$?
tsv=$tmp/a/rule-coverage.tsv
good=0
[ $rc = 0 ] && [ -s "$tsv" ] && [ -s "$tmp/a/tmpfs/rule-coverage.tsv" ] || good=1
grep -q '^Rule coverage on tmpfs: ' "$tmp/a.out" || good=1
grep -q '^rule coverage tmpfs: ' "$tmp/a/check.log" || good=1
grep -q '^# rule coverage' "$tmp/a/tmpfs/matrix/011.ktap" || good=1
[ $good = 0 ] || tail -n 20 "$tmp/a.out" | sed 's/^/# /'
ok $good "matrix/011 on tmpfs passes; coverage on the terminal, in check.log, the KTAP and results/rule-coverage.tsv"

# 2: every decision rule of the table is in the file, both ways or n/a with a reason.
got=$(awk -F'\t' 'NR > 1 && $4 != "outcome" { print $3 }' "$tsv" | sort)
bad=$(awk -F'\t' 'NR > 1 && $4 != "outcome" && !($7 == "both" || ($7 ~ /n\/a$/ && $8 != "")) { print $3 " " $7 }' "$tsv")
good=0
[ "$got" = "$decisions" ] || { good=1; diff <(printf '%s\n' "$decisions") <(printf '%s\n' "$got") | sed 's/^/# /' | head; }
[ -z "$bad" ] || { good=1; printf '# %s\n' $bad | head -n 20; }
grep -q "0 with a gap" "$tmp/a.out" || good=1
ok $good "all $ndec decision rules decided both ways (or every way the world can, with the reason for the rest)"

# 3: every family meets every mount idmap and every caller.
cases=$(sed -n 's/^ok [0-9]* \([a-z]*\/map=[^/]*\/caller=[^/]*\)\/.*/\1/p' "$tmp/a/tmpfs/matrix/011.ktap" | sort -u)
space=$("$top/tests/matrix/011" --list-cases | sed -n 's/^\([a-z]*\/map=[^/]*\/caller=[^/]*\)\/.*/\1/p' | sort -u)
missing=""
for fam in $(printf '%s\n' "$space" | cut -d/ -f1 | sort -u); do
	for m in $(printf '%s\n' "$space" | grep "^$fam/" | cut -d/ -f2 | sort -u); do
		printf '%s\n' "$cases" | grep -q "^$fam/$m/" || missing="$missing $fam/$m"
	done
	for c in $(printf '%s\n' "$space" | grep "^$fam/" | cut -d/ -f3 | sort -u); do
		printf '%s\n' "$cases" | grep -q "^$fam/[^/]*/$c\$" || missing="$missing $fam/$c"
	done
done
[ -z "$missing" ]; ok $? "every family of the sample meets every mount idmap and every caller${missing:+ (missing:$missing)}"

# 4: the choice is deterministic.
"$top/check" --fs tmpfs --results "$tmp/b" matrix/011 >/dev/null 2>&1
cmp -s <(grep '^ok ' "$tmp/a/tmpfs/matrix/011.ktap") <(grep '^ok ' "$tmp/b/tmpfs/matrix/011.ktap")
ok $? "two runs choose the same cases in the same order"

# 5-6: the accounting can fail: leave out the cases that decide a rule.
VT_SAMPLE_WITHOUT=check_sticky.victim-owner "$top/check" --fs tmpfs --results "$tmp/c" matrix/011 >"$tmp/c.out" 2>&1
row=$(awk -F'\t' '$3 == "check_sticky.victim-owner"' "$tmp/c/rule-coverage.tsv")
[ "$(printf '%s\n' "$row" | cut -f5-7)" = "0	0	never" ]
ok $? "without its cases check_sticky.victim-owner shows 0 0 never (row: $row)"
grep -q 'gaps:.*check_sticky.victim-owner(never)' "$tmp/c.out" && ! grep -q '0 with a gap' "$tmp/c.out"
ok $? "the summary line names the gap"
[ $failed = 0 ]
