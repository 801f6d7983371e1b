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
# xfstests' order and repetition flags (check -h of xfstests; issue 18)
VT_RANDOMIZE=0
VT_EXACT_ORDER=0
VT_ITERATIONS=1
VT_ISTOP=0
VT_LOOP_ON_FAIL=0
VT_SUBDIR_XFILES=()
VT_EXCLUDE_TESTS=()
VT_EXCLUDE_SECTIONS=()
VT_BRIEF=0

vt_usage() {
	cat <<'USAGE'
usage: ./check [options] [suite/NNN ...]

  -g GROUP       run the tests of GROUP (repeatable; default: auto)
  -x GROUP       leave out the tests of GROUP (repeatable)
  -g all         every test, whatever its groups (also the selftest group)
  -g SUITE/GROUP the tests of GROUP in tests/SUITE only (e.g. api/quick)
  -X NAME        exclude file: tests/SUITE/NAME, where it exists, lists tests
                 of that suite (NNN or globs, # comments) to leave out
  -e LIST        leave out these tests (comma or space separated; globs)
  -E FILE        expunge file: lines "[fs:]suite/NNN[/case] [# reason]"; the files
                 in expunge/ named after a filesystem apply to it by default
  --no-default-expunges  do not apply expunge/<fstype>
  -s SECTION     run only this local.config section (repeatable)
  -S SECTION     leave out this local.config section (repeatable)
  -c FILE        configuration file (default: local.config next to check if
                 present; for vfsidmap-check: ./local.config). Keys xfstests
                 knows and vfsidmap does not use are ignored with a notice
  --fs LIST      filesystems to run on, comma separated (default: all the
                 kernel can idmap of ext4,xfs,btrfs,tmpfs,vfat; ignored with a
                 config that sets FSTYP)
  -T SECONDS     per-test timeout (default 1200: the largest matrix family takes about 5 min in a TCG guest; or TEST_TIMEOUT)
  --results DIR  results directory (default: $RESULT_BASE, else RESULT_BASE of
                 local.config, else results/ next to check; for
                 vfsidmap-check: ./results). check.time there keeps each
                 test's last time, printed before the new one
  -r             randomize the test order (the seed is printed; --seed N
                 gives the same order again)
  --exact-order  run the tests in the order given on the command line
                 (default: sorted by suite and number)
  -i N           iterate: run the whole selection N times
  -I N           as -i N, but stop after the first section with a failure
  -L N           after a test fails, run it up to N more times and print
                 the aggregate (only the first run counts in the results)
  -b             brief summary: leave out the "Not run:" list
  -n             dry run: show what would run
  -l             list the tests with their groups and descriptions
  --list-cases   list the cases of the selected tests (suite/NNN/case)
  --case ID      run one case, ID = suite/NNN/case (from --list-cases)
  --seed N       seed for tests that sample (the matrix) and for -r
  --shard I/N    run the I-th of N shards of each test's cases (1-based)
  --rule-coverage  print the table of model rules each section decided, both
                 ways or not (the summary line is always printed; the table
                 is always in results/rule-coverage.tsv)
  -v             print each failure message on the terminal (default: first 5)
  --report porting  with --fs FSTYP (one): run the idmapped group and write
                 DIR/porting-FSTYP.md and .html; add --from-results to only
                 read an existing results directory (common/porting.sh)
  -h             this help

Tests are SUITE/NNN or globs over them ('api/*', 'matrix/01?', '*/001'):
quote them so the shell does not expand them.

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
		-g|-x|-E|-s|-c|-T|--results|--fs|--case|--seed|--shard|-i|-I|-L|-X|-e|-S)
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
			-i|-I|-L)
			    [[ "$2" =~ ^[0-9]{1,6}$ ]] || { vt_bad "$1 wants a number, got '$2'"; return 2; }
			    case "$1" in
			    -i) VT_ITERATIONS=$((10#$2)) VT_ISTOP=0 ;;
			    -I) VT_ITERATIONS=$((10#$2)) VT_ISTOP=1 ;;
			    -L) VT_LOOP_ON_FAIL=$((10#$2)) ;;
			    esac
			    [ "$1" = -L ] || [ "$VT_ITERATIONS" -ge 1 ] || { vt_bad "$1 wants at least 1, got '$2'"; return 2; } ;;
			-X) [[ "$2" != */* ]] || { vt_bad "-X names a file in each tests/SUITE/ directory, not a path: '$2' (for a path use -E)"; return 2; }
			    VT_SUBDIR_XFILES+=("$2") ;;
			-e) local e; IFS=', ' read -ra e <<<"$2"; VT_EXCLUDE_TESTS+=(${e[@]+"${e[@]}"}) ;;
			-S) VT_EXCLUDE_SECTIONS+=("$2") ;;
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
		-r) [ "$VT_EXACT_ORDER" = 0 ] || { vt_bad "-r and --exact-order exclude each other"; return 2; }
		    VT_RANDOMIZE=1; shift ;;
		--exact-order) [ "$VT_RANDOMIZE" = 0 ] || { vt_bad "-r and --exact-order exclude each other"; return 2; }
		    VT_EXACT_ORDER=1; shift ;;
		-b) VT_BRIEF=1; shift ;;
		-l) VT_LIST=1; shift ;;
		-v) VT_VERBOSE=1; shift ;;
		--list-cases) VT_LIST_CASES=1; shift ;;
		--no-default-expunges) VT_DEFAULT_EXPUNGES=0; shift ;;
		--rule-coverage) VT_RULE_COVERAGE_TABLE=1; shift ;;
		-h|--help) vt_usage; exit 0 ;;
		--) shift; VT_TEST_ARGS+=("$@"); break ;;
		-*) vt_bad "unknown option '$1'"; return 2 ;;
		*) VT_TEST_ARGS+=("$1"); shift ;;
		esac
	done
	if [ -n "$VT_FS_ARG" ]; then
		local f list
		IFS=, read -ra list <<<"$VT_FS_ARG"
		for f in "${list[@]}"; do
			case "$f" in
			ext4|xfs|btrfs|tmpfs|vfat) ;;
			*) vt_bad "--fs: unknown filesystem '$f' (known: ext4,xfs,btrfs,tmpfs,vfat)"; return 2 ;;
			esac
		done
	fi
	if [ -n "$VT_CASE" ]; then
		VT_TEST_ARGS+=("${VT_CASE%/*}")
	fi
	return 0
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
