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
		>"$VT_STAGE/rule-coverage.tsv" || vt_write_failed "$VT_STAGE/rule-coverage.tsv"
}

# Sums the .rules files of one section: slug kind allow deny status na.
# status: both, allow-only, deny-only, never; allow+n/a (deny+n/a) when
# the other direction cannot happen in this world (named, with the reason,
# in the last column): complete, but not "both".
vt_coverage_sum() { # dir
	local files
	files=$(find "$1" -name '*.rules' -type f 2>/dev/null | sort)
	[ -n "$files" ] || return 1
	# shellcheck disable=SC2086
	awk -F'\t' '
	!($1 in kind) { order[n++] = $1; kind[$1] = $2; na_a[$1] = $5; na_d[$1] = $6 }
	{ a[$1] += $3; d[$1] += $4 }
	END {
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
			printf "%s\t%s\t%d\t%d\t%s\t%s\n", r, kind[r], a[r], d[r], st, na
		}
	}' $files
}

vt_coverage_section() { # run index, section results dir
	local i=$1 dir=$2 sum line
	[ -d "$dir" ] || return 0
	sum=$(vt_coverage_sum "$dir") || return 0
	{
		printf 'rule\tkind\tallow\tdeny\tstatus\tnot-expressible\n'
		printf '%s\n' "$sum"
	} >"$dir/rule-coverage.tsv" || vt_write_failed "$dir/rule-coverage.tsv"
	printf '%s\n' "$sum" | sed "s|^|${VT_S_NAME[$i]}	${VT_S_FS[$i]}	|" >>"$VT_STAGE/rule-coverage.tsv" ||
		vt_write_failed "$VT_STAGE/rule-coverage.tsv"
	line=$(printf '%s\n' "$sum" | awk -F'\t' '
		$2 != "outcome" { total++
			if ($5 == "both") both++
			else if ($5 ~ /n\/a$/) na++
			else gaps = gaps " " $1 "(" $5 ")" }
		$2 == "outcome" { ototal++; if ($5 == "both") oboth++ }
		END { printf "%d of %d decision rules decided both ways, %d in every way this world can express (rule-coverage.tsv says why), %d with a gap; %d of %d outcomes reached%s%s",
			both, total, na, total - both - na, oboth, ototal, gaps != "" ? "; gaps:" : "", gaps }')
	echo "Rule coverage on ${VT_S_NAME[$i]}: $line"
	vt_log "rule coverage ${VT_S_NAME[$i]}: $line"
	if [ "$VT_RULE_COVERAGE_TABLE" = 1 ]; then
		printf '%s\n' "$sum" | awk -F'\t' '{ printf "  %-62s %-7s %7d %7d  %-10s %s\n", $1, $2, $3, $4, $5, $6 }'
	fi
	echo ""
}
