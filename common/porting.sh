# ./check --report porting --fs FSTYP [--results DIR] [--from-results] [check options]
#
# The porting report for a filesystem maintainer adding FS_ALLOW_IDMAP: one
# row per VFS operation family with its verdict, the kernel functions it
# depends on and the callbacks to translate (common/porting.rows, the data;
# common/porting.awk, the code). Without --from-results it runs ./check on
# that one filesystem (the idmapped group unless tests or groups are given)
# and writes DIR/porting-FSTYP.md and DIR/porting-FSTYP.html; with
# --from-results it only reads an existing DIR (e.g. what run/vm brought
# back from a guest). Exit status: 0 no row failed, 1 a row failed, 2 bad
# input or no results.
#
# check calls vt_porting_intercept "$@" before its own option parsing; it
# returns only when --report is not given, so the rest of check is unchanged.

VT_PORTING_ROWS=${VT_PORTING_ROWS:-$VT_TOP/common/porting.rows}

vt_porting_bad() {
	echo "check: $*" >&2
	echo "check: usage: ./check --report porting --fs FSTYP [--results DIR] [--from-results] [check options]" >&2
	exit 2
}

vt_porting_intercept() {
	local a kind="" from=0 rest=() have_report=0
	for a in "$@"; do [ "$a" = --report ] && have_report=1; done
	for a in "$@"; do [ "$a" = --from-results ] && [ "$have_report" = 0 ] \
		&& vt_porting_bad "--from-results goes with --report porting"; done
	[ "$have_report" = 1 ] || return 0
	# --report conformance: the table across filesystems (common/conformance.sh)
	local prev=""
	for a in "$@"; do [ "$prev" = --report ] && [ "$a" = conformance ] && vt_conformance_intercept "$@"; prev=$a; done
	while [ $# -gt 0 ]; do
		case "$1" in
		--report)
			[ $# -ge 2 ] && [ -n "$2" ] || vt_porting_bad "--report needs a value (known: porting, conformance)"
			[ "$2" = porting ] || vt_porting_bad "--report: unknown report '$2' (known: porting, conformance)"
			[ -z "$kind" ] || vt_porting_bad "--report given twice"
			kind=$2; shift 2 ;;
		--from-results) from=1; shift ;;
		--) rest+=("$@"); break ;;
		*) rest+=("$1"); shift ;;
		esac
	done
	# The other options are check's own: validate them the usual way.
	vt_parse_options ${rest[@]+"${rest[@]}"} || exit $?
	case "$VT_FS_ARG" in
	'') vt_porting_bad "--report porting needs --fs with exactly one filesystem" ;;
	*,*) vt_porting_bad "--report porting takes exactly one filesystem, got --fs $VT_FS_ARG" ;;
	esac
	[ "$VT_LIST" = 0 ] && [ "$VT_LIST_CASES" = 0 ] && [ "$VT_DRY_RUN" = 0 ] && [ -z "$VT_CASE" ] \
		|| vt_porting_bad "--report porting cannot be combined with -l, --list-cases, -n or --case"
	local dir=${VT_RESULTS:-$VT_TOP/results} status=0
	if [ "$from" = 0 ]; then
		local sel=0
		[ ${#VT_GROUPS[@]} -gt 0 ] || [ ${#VT_TEST_ARGS[@]} -gt 0 ] && sel=1
		if [ "$sel" = 0 ]; then
			"$VT_TOP/check" ${rest[@]+"${rest[@]}"} -g idmapped
		else
			"$VT_TOP/check" ${rest[@]+"${rest[@]}"}
		fi
		status=$?
		[ "$status" = 2 ] && exit 2
		[ "$status" = 130 ] && { echo "check: interrupted: no porting report" >&2; exit 130; }
		echo ""
	fi
	vt_porting_write "$VT_FS_ARG" "$dir"
	local rc=$?
	[ "$rc" = 2 ] && exit 2
	[ "$from" = 0 ] && exit "$status"
	exit "$rc"
}

# The section of DIR's last run that ran on FS: check.log's "SECTION name
# FSTYP=fs" lines of that run say which (a local.config section may have
# any name); without check.log, the section named FS.
vt_porting_section() { # fs dir
	local names s
	names=$(sed -n 's/^\(not \)\{0,1\}ok [0-9]* \([^: ]*\):.*/\2/p' "$2/results.ktap" | sort -u)
	if [ -f "$2/check.log" ]; then
		for s in $(awk '/^run started /{delete f} /^SECTION /{f[$2]=$3} END{for (s in f) print s, f[s]}' \
				"$2/check.log" | awk -v t="FSTYP=$1" '$2 == t {print $1}'); do
			echo "$names" | grep -qxF "$s" && { echo "$s"; return 0; }
		done
		return 1
	fi
	echo "$names" | grep -qxF "$1" && { echo "$1"; return 0; }
	return 1
}

# Writes DIR/porting-FS.md and .html from DIR; 0 no row failed, 1 a row
# failed, 2 no usable results.
vt_porting_write() { # fs dir
	local fs=$1 dir=$2 section out kernel
	if [ ! -f "$dir/results.ktap" ]; then
		echo "check: no results to report on: $dir/results.ktap does not exist (run ./check first, or give --results DIR)" >&2
		return 2
	fi
	dir=$(cd "$dir" && pwd)
	if ! section=$(vt_porting_section "$fs" "$dir"); then
		echo "check: $dir/results.ktap has no run on $fs (sections: $(sed -n 's/^\(not \)\{0,1\}ok [0-9]* \([^: ]*\):.*/\2/p' "$dir/results.ktap" | sort -u | tr '\n' ' '))" >&2
		return 2
	fi
	kernel=$(sed -n 's/^run started .* on \([^ ]*\) (.*/\1/p' "$dir/check.log" 2>/dev/null | tail -n 1)
	[ -n "$kernel" ] || kernel="(unknown: no check.log)"
	out=$(awk -f "$VT_TOP/common/porting.awk" -v mode=report -v fs="$fs" -v section="$section" \
		-v dir="$dir" -v md="$dir/porting-$fs.md" -v html="$dir/porting-$fs.html" \
		-v kernel="$kernel" -v date="$(date -u +%FT%TZ)" "$VT_PORTING_ROWS" "$dir/results.ktap") || return 2
	echo "Porting report for $fs:"
	echo "$out" | sed -n 's/^row \([^:]*\): \([^-]*\) - .*/  \1: \2/p'
	local counts
	counts=$(echo "$out" | sed -n 's/^rows //p')
	set -- $counts
	echo "Rows: $1 pass, $2 fail, $3 not applicable, $4 no test, $5 not run"
	echo "Report: $dir/porting-$fs.md, $dir/porting-$fs.html"
	[ "$2" = 0 ]
}

# Every case of every test in the idmapped group matches a map line, and
# every map line matches a case (unit/test-porting-report.sh). Prints the
# offenders; 0 when there are none.
vt_porting_coverage() { # rows-file
	local list
	list=$("$VT_TOP/check" -g idmapped --list-cases) || return 2
	echo "$list" | awk -f "$VT_TOP/common/porting.awk" -v mode=coverage "$1" -
}
