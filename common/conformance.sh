# ./check --report conformance --from-results DIR [DIR...] [--results OUT]
#
# The conformance table across filesystems: for every filesystem that ran
# in each results DIR (check.log's SECTION lines; e.g. what run/vm brought
# back from a 6.12 guest, and a host run) it writes that filesystem's
# porting report (DIR/porting-FS.md, common/porting.sh), then one table
# with the filesystems as columns and the porting rows (operation
# families) as rows: OUT/conformance.md and OUT/conformance.html (OUT:
# --results, default ./results). Exit 0 no cell failed, 1 one did, 2 bad
# input. Nothing is run: it reads results only.

vt_conformance() { # dirs...
	local out=${VT_RESULTS:-$VT_TOP/results} d fs reports=() rc cmd
	[ $# -gt 0 ] || vt_porting_bad "--report conformance needs --from-results DIR [DIR...]"
	cmd="./check --report conformance --from-results $* --results $out"
	for d in "$@"; do
		[ -f "$d/results.ktap" ] && [ -f "$d/check.log" ] ||
			vt_porting_bad "--from-results $d: no results.ktap and check.log there"
		for fs in $(sed -n 's/^SECTION [^ ]* FSTYP=\([^ ]*\).*/\1/p' "$d/check.log" | awk '!seen[$0]++'); do
			vt_porting_write "$fs" "$d" >/dev/null
			rc=$?
			[ "$rc" = 2 ] && { echo "check: conformance: no usable results for $fs in $d" >&2; continue; }
			reports+=("$(cd "$d" && pwd)/porting-$fs.md")
		done
	done
	[ ${#reports[@]} -gt 0 ] || vt_porting_bad "--report conformance: no filesystem ran in $*"
	mkdir -p "$out" || exit 2
	awk -f "$VT_TOP/common/conformance.awk" -v md="$out/conformance.md.tmp" \
		-v html="$out/conformance.html.tmp" -v date="$(date -u +%FT%TZ)" -v cmd="$cmd" \
		"${reports[@]}"
	rc=$?
	[ "$rc" -le 1 ] || { rm -f "$out"/conformance.*.tmp; exit 2; }
	mv -f "$out/conformance.md.tmp" "$out/conformance.md" &&
		mv -f "$out/conformance.html.tmp" "$out/conformance.html" || exit 2
	echo "Conformance table: $out/conformance.md, $out/conformance.html"
	exit "$rc"
}

# Called by vt_porting_intercept for --report conformance: its own small
# option set (results only, nothing runs); never returns.
vt_conformance_intercept() {
	local dirs=() from=0
	while [ $# -gt 0 ]; do
		case "$1" in
		--report) shift 2; from=0 ;;
		--from-results) from=1; shift ;;
		--results) [ $# -ge 2 ] || vt_porting_bad "--results needs a directory"
			VT_RESULTS=$2; from=0; shift 2 ;;
		-*) vt_porting_bad "--report conformance takes only --from-results DIR... and --results OUT, not $1" ;;
		*) [ "$from" = 1 ] || vt_porting_bad "--report conformance: '$1' is not after --from-results"
			dirs+=("$1"); shift ;;
		esac
	done
	vt_conformance ${dirs[@]+"${dirs[@]}"}
}
