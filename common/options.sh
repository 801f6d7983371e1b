# Command line of ./check. Every flag is validated: a bad one is a single
# line on stderr and exit status 2, before anything is touched.

VT_GROUPS=()
VT_XGROUPS=()
VT_EXPUNGE_FILES=()
VT_SECTION_ARGS=()
VT_TEST_ARGS=()
VT_FS_ARG=""
VT_DRY_RUN=0
VT_LIST=0
VT_LIST_CASES=0
VT_TIMEOUT=""
VT_CASE=""
VT_SEED=""
VT_SHARD=""
VT_RESULTS=${RESULT_BASE:-}
VT_CONFIG_FILE=""
VT_VERBOSE=0
VT_DEFAULT_EXPUNGES=1

vt_usage() {
	cat <<'USAGE'
usage: ./check [options] [suite/NNN ...]

  -g GROUP       run the tests of GROUP (repeatable; default: auto)
  -x GROUP       leave out the tests of GROUP (repeatable)
  -E FILE        expunge file: lines "[fs:]suite/NNN[/case] [# reason]"; the files
                 in expunge/ named after a filesystem apply to it by default
  --no-default-expunges  do not apply expunge/<fstype>
  -s SECTION     run only this local.config section (repeatable)
  -c FILE        configuration file (default: ./local.config if present)
  --fs LIST      filesystems to run on, comma separated (default: all the
                 kernel can idmap of ext4,xfs,btrfs,tmpfs,vfat; the others of
                 `runner/vfsidmap-tool fs-table names` when named; ignored with a
                 config that sets FSTYP)
  -T SECONDS     per-test timeout (default 1200: the largest matrix family takes about 5 min in a TCG guest; or TEST_TIMEOUT)
  --results DIR  results directory (default: $RESULT_BASE, else ./results)
  -n             dry run: show what would run
  -l             list the tests with their groups and descriptions
  --list-cases   list the cases of the selected tests (suite/NNN/case)
  --case ID      run one case, ID = suite/NNN/case (from --list-cases)
  --seed N       seed for tests that sample (the matrix)
  --shard I/N    run the I-th of N shards of each test's cases (1-based)
  --rule-coverage  print the table of model rules each section decided, both
                 ways or not (the summary line is always printed; the table
                 is always in results/rule-coverage.tsv)
  --mutation-score [GROUP]  score the model's mutants offline (no mount):
                 which ones the cases of GROUP (quick: the sample; all; a
                 matrix test or family) kill, per --fs (default tmpfs);
                 table on the terminal, DIR/mutation-score.tsv; exit 1 if
                 a mutant some case kills survives GROUP
  -v             print each failure message on the terminal (default: first 5)
  --report porting  with --fs FSTYP (one): run the idmapped group and write
                 DIR/porting-FSTYP.md and .html; add --from-results to only
                 read an existing results directory (common/porting.sh)
  -h             this help

Exit status: 0 when nothing failed, 1 when a test failed, 2 on bad input.
USAGE
}

vt_bad() {
	echo "check: $*" >&2
	echo "check: see ./check -h" >&2
	return 2
}

vt_parse_options() {
	while [ $# -gt 0 ]; do
		case "$1" in
		-g|-x|-E|-s|-c|-T|--results|--fs|--case|--seed|--shard)
			[ $# -ge 2 ] || { vt_bad "option $1 needs a value"; return 2; }
			[ -n "$2" ] || { vt_bad "option $1 needs a non-empty value"; return 2; }
			case "$1" in
			-g) local g; IFS=, read -ra g <<<"$2"; VT_GROUPS+=("${g[@]}") ;;
			-x) local x; IFS=, read -ra x <<<"$2"; VT_XGROUPS+=("${x[@]}") ;;
			-E) [ -r "$2" ] || { vt_bad "expunge file '$2' cannot be read"; return 2; }
			    VT_EXPUNGE_FILES+=("$2") ;;
			-s) VT_SECTION_ARGS+=("$2") ;;
			-c) [ -r "$2" ] || { vt_bad "config file '$2' cannot be read"; return 2; }
			    VT_CONFIG_FILE=$2 ;;
			-T) [[ "$2" =~ ^[1-9][0-9]{0,5}$ ]] || { vt_bad "-T wants a whole number of seconds, got '$2'"; return 2; }
			    VT_TIMEOUT=$2 ;;
			--results) VT_RESULTS=$2 ;;
			--fs) VT_FS_ARG=$2 ;;
			--case) [[ "$2" =~ ^[a-z0-9_-]+/[0-9]{3}/.+$ ]] || { vt_bad "--case wants suite/NNN/case, got '$2'"; return 2; }
			    VT_CASE=$2 ;;
			--seed) [[ "$2" =~ ^[0-9]{1,10}$ ]] || { vt_bad "--seed wants a number, got '$2'"; return 2; }
			    VT_SEED=$2 ;;
			--shard) [[ "$2" =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] \
				|| { vt_bad "--shard wants I/N with 1 <= I <= N, got '$2'"; return 2; }
			    VT_SHARD=$2 ;;
			esac
			shift 2 ;;
		-n) VT_DRY_RUN=1; shift ;;
		-l) VT_LIST=1; shift ;;
		-v) VT_VERBOSE=1; shift ;;
		--list-cases) VT_LIST_CASES=1; shift ;;
		--no-default-expunges) VT_DEFAULT_EXPUNGES=0; shift ;;
		--rule-coverage) VT_RULE_COVERAGE_TABLE=1; shift ;;
		--mutation-score) VT_MUTATION_SCORE=1; shift ;;
		-h|--help) vt_usage; exit 0 ;;
		--) shift; VT_TEST_ARGS+=("$@"); break ;;
		-*) vt_bad "unknown option '$1'"; return 2 ;;
		*) VT_TEST_ARGS+=("$1"); shift ;;
		esac
	done
	if [ -n "$VT_FS_ARG" ]; then
		local f list known
		known=$("$VT_TOOL" fs-table names) || { vt_bad "vfsidmap-tool fs-table failed (run ./bootstrap)"; return 2; }
		IFS=, read -ra list <<<"$VT_FS_ARG"
		for f in "${list[@]}"; do
			case ",$known," in
			*",$f,"*) [ -n "$f" ] ;;
			*) false ;;
			esac || { vt_bad "--fs: unknown filesystem '$f' (known: $known)"; return 2; }
		done
	fi
	if [ -n "$VT_CASE" ]; then
		VT_TEST_ARGS+=("${VT_CASE%/*}")
	fi
	[ "${VT_MUTATION_SCORE:-0}" = 1 ] && { vt_mutation_score; exit $?; }
	return 0
}

# --mutation-score: forwarded to vfsidmap-tool (the model alone; no mount)
vt_mutation_score() {
	local res=${VT_RESULTS:-$VT_TOP/results} sel=${VT_GROUPS[0]:-${VT_TEST_ARGS[0]:-quick}}
	local fs out rc=0 r list
	IFS=, read -ra list <<<"${VT_FS_ARG:-tmpfs}"
	mkdir -p "$res" || { vt_bad "cannot create the results directory $res"; return 2; }
	for fs in "${list[@]}"; do
		out=$res/mutation-score.tsv
		if [ ${#list[@]} -gt 1 ]; then
			mkdir -p "$res/$fs" || return 2
			out=$res/$fs/mutation-score.tsv
		fi
		"$VT_TOP/runner/vfsidmap-tool" mutation-score --fs "$fs" --tsv "$out" "$sel"
		r=$?
		[ $r -gt $rc ] && rc=$r
	done
	return $rc
}

vt_require_built() {
	local f
	for f in runner/vfsidmap-exec runner/vfsidmap-tool; do
		if [ ! -x "$VT_TOP/$f" ]; then
			echo "check: $f is not built: run ./bootstrap first" >&2
			return 2
		fi
	done
}
