# Rule coverage (lib/matrix/coverage.h): every matrix test appends, per
# model rule, how many of its cases the rule decided each way to
# <results>/<section>/<suite>/NNN.rules (VT_RULE_COVERAGE). At the end of
# a section they are summed into <section>/rule-coverage.tsv, appended to
# results/rule-coverage.tsv (one row per section and rule) and summed up in
# a line on the terminal and in check.log; --rule-coverage also prints the
# table.

VT_RULE_COVERAGE_TABLE=${VT_RULE_COVERAGE_TABLE:-0}

vt_coverage_begin() {
	printf 'section\tfstype\trule\tkind\tallow\tdeny\tstatus\tnot-expressible\n' \
		>"${VT_STAGE:?}/rule-coverage.tsv" || vt_write_failed "${VT_STAGE:?}/rule-coverage.tsv"
}

# The .rules files of one section, summed: one row per rule, "slug kind
# allow deny status na". status: both, allow-only, deny-only, never;
# allow+n/a (deny+n/a) when the other direction cannot happen in this world
# (named, with the reason, in the last column): complete, but not "both".
# One awk writes the section's rule-coverage.tsv (header and rows), appends
# the rows with the section and filesystem in front to the run's, and
# prints the summary line (a find, sort, sed and two more awks a section
# before: forks are dear in run/vm's TCG guest). The files are
# <section>/<suite>/NNN.rules, taken in C-locale order by the glob.
vt_coverage_section() { # run index, section results dir
	local i=$1 dir=$2 line f files=() rc
	[ -d "$dir" ] || return 0
	for f in "$dir"/*/*.rules; do [ -f "$f" ] && files+=("$f"); done
	[ ${#files[@]} -gt 0 ] || return 0
	line=$(exec awk -F'\t' -v out="$dir/rule-coverage.tsv" -v all="${VT_STAGE:?}/rule-coverage.tsv" \
		-v pre="${VT_S_NAME[$i]}	${VT_S_FS[$i]}	" -v table="$VT_RULE_COVERAGE_TABLE" '
	!($1 in kind) { order[n++] = $1; kind[$1] = $2; na_a[$1] = $5; na_d[$1] = $6 }
	{ a[$1] += $3; d[$1] += $4 }
	END {
		printf "rule\tkind\tallow\tdeny\tstatus\tnot-expressible\n" >out
		for (i = 0; i < n; i++) {
			r = order[i]
			if (kind[r] == "outcome") st = (a[r] > 0) ? "both" : "never"
			else {
				ok_a = a[r] > 0 || na_a[r] != "-"; ok_d = d[r] > 0 || na_d[r] != "-"
				st = ok_a && ok_d ? "both" : ok_a ? "allow-only" : ok_d ? "deny-only" : "never"
				# complete, but only because a way cannot happen here
				if (st == "both" && !(a[r] > 0 && d[r] > 0)) st = a[r] > 0 ? "allow+n/a" : d[r] > 0 ? "deny+n/a" : "n/a"
			}
			na = ""
			if (na_a[r] != "-") na = "allow: " na_a[r]
			if (na_d[r] != "-" && kind[r] != "outcome") na = na (na != "" ? "; " : "") "deny: " na_d[r]
			row = sprintf("%s\t%s\t%d\t%d\t%s\t%s", r, kind[r], a[r], d[r], st, na)
			print row >out
			print pre row >>all
			if (kind[r] != "outcome") {
				total++
				if (st == "both") both++
				else if (st ~ /n\/a$/) nas++
				else gaps = gaps " " r "(" st ")"
			} else {
				ototal++; if (st == "both") oboth++
			}
			if (table == 1) tab = tab sprintf("  %-62s %-7s %7d %7d  %-10s %s\n", r, kind[r], a[r], d[r], st, na)
		}
		if (close(out) != 0 || close(all) != 0) exit 3
		printf "%d of %d decision rules decided both ways, %d in every way this world can express (rule-coverage.tsv says why), %d with a gap; %d of %d outcomes reached%s%s\n",
			both, total, nas, total - both - nas, oboth, ototal, gaps != "" ? "; gaps:" : "", gaps
		printf "%s", tab
	}' "${files[@]}")
	rc=$?
	if [ $rc != 0 ]; then
		vt_write_failed "$dir/rule-coverage.tsv"
		return 0
	fi
	# a part of the cases (--case, --shard) decides a part of the rules:
	# every other one would show as a gap. The tables are written all the
	# same; the summary says what they cover instead of listing gaps.
	if [ -n "${VT_CASE:-}" ] || [ -n "${VT_SHARD:-}" ]; then
		line="not summed: ${VT_CASE:+--case $VT_CASE}${VT_SHARD:+--shard $VT_SHARD} runs a part of the cases, rule coverage is for whole runs (rule-coverage.tsv has this run's counts)"
		echo "Rule coverage on ${VT_S_NAME[$i]}: $line"
		vt_log "rule coverage ${VT_S_NAME[$i]}: $line"
		echo ""
		return 0
	fi
	echo "Rule coverage on ${VT_S_NAME[$i]}: ${line%%$'\n'*}"
	vt_log "rule coverage ${VT_S_NAME[$i]}: ${line%%$'\n'*}"
	[[ "$line" == *$'\n'* ]] && printf '%s\n' "${line#*$'\n'}"
	echo ""
}
