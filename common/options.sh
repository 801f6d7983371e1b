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
VT_ENV_TIMEOUT=""   # TEST_TIMEOUT of the environment, validated
VT_CASE=""
VT_CASE_TEST=""
VT_SEED=""
VT_SHARD=""
VT_RESULTS=${RESULT_BASE:-}
VT_CONFIG_FILE=""
VT_VERBOSE=0
VT_DEFAULT_EXPUNGES=1
VT_INPUT_MAX=1048576   # -c, -E and VT_DMESG_NOISE files: bytes
VT_SHARD_MAX=1000000
# xfstests' order and repetition flags (check -h of xfstests)
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
                 in expunge/ named after a filesystem apply to it by default,
                 expunge/kernel/M.N on an M.N kernel
  --no-default-expunges  do not apply expunge/<fstype> and expunge/kernel/M.N
  -s SECTION     run only this local.config section (repeatable)
  -S SECTION     leave out this local.config section (repeatable)
  -c FILE        configuration file (default: local.config next to check if
                 present; for vfsidmap-check: ./local.config). Keys xfstests
                 knows and vfsidmap does not use are ignored with a notice
  --fs LIST      filesystems to run on, comma separated (default: all the
                 kernel can idmap of the table's default set, those marked yes
                 by `runner/vfsidmap-tool fs-table default`; the others of
                 `runner/vfsidmap-tool fs-table names` when named; ignored with a
                 config that sets FSTYP)
  -j N           run up to N sections (filesystems) side by side (default:
                 the number of online CPUs, nproc); the output and results
                 are those of -j 1, section by section; -j 1 runs one
                 after the other (doc/running.md: "Parallel runs")
  -T SECONDS     per-test timeout, 1 to 999999 (default: $TEST_TIMEOUT, else
                 TEST_TIMEOUT of the local.config section, else 1200; the
                 largest matrix family, matrix/007 on ext4, took 856 s of
                 TCG guest time, two shards summed, on 2 shared cores,
                 2026-12-04: run/README.md)
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
  --case ID      run one case alone, ID = suite/NNN/case as --list-cases prints
                 it (with --fs, the forms of those filesystems); an ID that is
                 not listed, or test names or -g with it: exit 2
  --seed N       seed for tests that sample (the matrix) and for -r
  --shard I/N    run the I-th of N shards of each test's cases (1-based,
                 N <= 1000000): case number k (from 0, in --list-cases
                 order) runs in shard k % N + 1; every test honours it
  -R FORMAT      JUnit report: xunit (default; result.xml with each test's
                 KTAP, cut at 64 KiB, as system-out) or xunit-quiet (no
                 system-out)
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

Tests are SUITE/NNN or globs over them ('api/*', 'matrix/01?', '*/001'):
quote them so the shell does not expand them.

Environment:
  RESULT_BASE    results directory (as --results)
  TEST_TIMEOUT   per-test timeout in seconds, 1 to 999999 (as -T, which wins
                 over it; it wins over TEST_TIMEOUT of local.config); set
                 to anything else, empty included: exit 2
  VT_NO_PROGRESS=1  no status line even on a terminal (run/vm sets it)
  VT_RUN_BASE    where run directories (images, mount point, lock) are
                 made: an existing absolute directory, default /var/tmp; a
                 run directory is $VT_RUN_BASE/vfsidmap.PID.XXXXXX with a
                 "vfsidmap-run" marker, and only such directories of dead
                 runs are ever removed. It and the checkout must be
                 searchable by others (o+x on every directory above
                 them): the test callers are not root; check refuses
                 them otherwise (exit 2)

Runs as root only (mounts, loop devices, user namespaces); -h, -l, -n and
--list-cases work for anyone. One run per results directory at a time: a
second one exits 2 naming the first. While a run is going (or after it
was killed) RESULTS/run.incomplete says the files there are not its
complete results.

Exit status: 0 when nothing failed; 1 when a test failed or the setup or
the harness broke (an error); 2 on bad input, a results directory that
cannot be written (nothing of the run is kept, the previous results are
untouched), or not root; 130 when interrupted.
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
		-g|-x|-E|-s|-c|-T|-R|--results|--fs|--case|--seed|--shard|-i|-I|-L|-X|-e|-S|-j)
			[ $# -ge 2 ] || { vt_bad "option $1 needs a value"; return 2; }
			[ -n "$2" ] || { vt_bad "option $1 needs a non-empty value"; return 2; }
			case "$1" in
			-g) local g; IFS=, read -ra g <<<"$2"; VT_GROUPS+=("${g[@]}") ;;
			-x) local x; IFS=, read -ra x <<<"$2"; VT_XGROUPS+=("${x[@]}") ;;
			-E) vt_input_file "expunge file" "$2" || return 2
			    VT_EXPUNGE_FILES+=("$2") ;;
			-s) VT_SECTION_ARGS+=("$2") ;;
			-c) vt_input_file "config file" "$2" || return 2
			    VT_CONFIG_FILE=$2 ;;
			-R) case "$2" in
			    xunit|xunit-quiet) VT_REPORT_FORMAT=$2 ;;
			    *) vt_bad "-R: unknown report format '$2' (known: xunit, xunit-quiet)"; return 2 ;;
			    esac ;;
			-T) vt_seconds_ok "$2" || { vt_bad "-T wants a whole number of seconds from 1 to 999999, got '$2'"; return 2; }
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
			-j) [[ "$2" =~ ^[0-9]{1,9}$ ]] && [ "$((10#$2))" -ge 1 ] && [ "$((10#$2))" -le "$VT_JOBS_MAX" ] ||
				{ vt_bad "-j wants a number of parallel runs from 1 to $VT_JOBS_MAX, got '$2'"; return 2; }
			    VT_JOBS=$((10#$2)) ;;
			# (a case id is printable, without white space: a newline
			# would pass for two ids where the id is looked up)
			--case) [[ "$2" =~ ^([a-z0-9_-]+/[0-9]{3})/([[:graph:]]+)$ ]] ||
				{ vt_bad "--case wants suite/NNN/case, the case printable and without white space or control characters (as --list-cases prints it), got $(printf '%q' "$2")"; return 2; }
			    [ -z "$VT_CASE" ] || { vt_bad "--case is given twice: one case per run"; return 2; }
			    VT_CASE=$2 VT_CASE_TEST=${BASH_REMATCH[1]} ;;
			--seed) [[ "$2" =~ ^[0-9]{1,10}$ ]] || { vt_bad "--seed wants a number, got '$2'"; return 2; }
			    VT_SEED=$2 ;;
			--shard) [[ "$2" =~ ^([1-9][0-9]{0,6})/([1-9][0-9]{0,6})$ ]] &&
				[ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[2]}" -le "$VT_SHARD_MAX" ] \
				|| { vt_bad "--shard wants I/N with 1 <= I <= N <= $VT_SHARD_MAX, got '$2'"; return 2; }
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
		--mutation-score) VT_MUTATION_SCORE=1; shift ;;
		-h|--help) vt_usage; exit 0 ;;
		--) shift; VT_TEST_ARGS+=("$@"); break ;;
		-*) vt_bad "unknown option '$1'"; return 2 ;;
		*) VT_TEST_ARGS+=("$1"); shift ;;
		esac
	done
	# TEST_TIMEOUT in the environment: what -T takes (-T wins over it,
	# vt_plan_sections); a value that is no number of seconds is refused
	# rather than left to a default nobody asked for
	if [ -n "${TEST_TIMEOUT+x}" ]; then
		vt_seconds_ok "$TEST_TIMEOUT" || {
			vt_bad "TEST_TIMEOUT (environment) wants a whole number of seconds from 1 to 999999, got '$TEST_TIMEOUT'"
			return 2
		}
		VT_ENV_TIMEOUT=$TEST_TIMEOUT
	fi
	if [ -n "$VT_FS_ARG" ]; then
		local f list known seen=" "
		known=$("$VT_TOOL" fs-table names) || { vt_bad "vfsidmap-tool fs-table failed (run ./bootstrap)"; return 2; }
		IFS=, read -ra list <<<"$VT_FS_ARG"
		[ ${#list[@]} -gt 0 ] || { vt_bad "--fs: no filesystem in '$VT_FS_ARG'"; return 2; }
		for f in "${list[@]}"; do
			case ",$known," in
			*",$f,"*) [ -n "$f" ] ;;
			*) false ;;
			esac || { vt_bad "--fs: unknown filesystem '$f' (known: $known)"; return 2; }
			# a second run on the same filesystem would overwrite the first
			[[ "$seen" == *" $f "* ]] && { vt_bad "--fs: '$f' given twice"; return 2; }
			seen+="$f "
		done
	fi
	# --case runs one case: its test is the suite/NNN prefix, the case
	# the rest (case ids hold '/' themselves). Other tests or groups with
	# it would leave unclear what runs: refused.
	if [ -n "$VT_CASE" ]; then
		if [ ${#VT_TEST_ARGS[@]} -gt 0 ] || [ ${#VT_GROUPS[@]} -gt 0 ]; then
			vt_bad "--case runs one case alone: drop the test names and -g groups, or drop --case"
			return 2
		fi
		VT_TEST_ARGS+=("$VT_CASE_TEST")
	fi
	[ "${VT_MUTATION_SCORE:-0}" = 1 ] && { vt_mutation_score; exit $?; }
	return 0
}

# --mutation-score: forwarded to vfsidmap-tool (the model alone; no mount).
# The TSVs are published into the results directory like a run's files
# (common/results.sh: lock, staging, swap; listed in its manifest, the
# other entries carried over), so a later ./check or run/vm knows them
# for check's own and a write error loses nothing.
vt_mutation_score() {
	local res=${VT_RESULTS:-$VT_TOP/results} sel=${VT_GROUPS[0]:-${VT_TEST_ARGS[0]:-quick}}
	local fs out rc=0 r list tree
	IFS=, read -ra list <<<"${VT_FS_ARG:-tmpfs}"
	tree=$(mktemp -d "${TMPDIR:-/tmp}/vfsidmap-score.XXXXXX") ||
		{ vt_bad "cannot make a temporary directory for the mutation score"; return 2; }
	for fs in "${list[@]}"; do
		out=$tree/mutation-score.tsv
		if [ ${#list[@]} -gt 1 ]; then
			mkdir -p "$tree/$fs" || { rm -rf -- "$tree"; return 2; }
			out=$tree/$fs/mutation-score.tsv
		fi
		"$VT_TOP/runner/vfsidmap-tool" mutation-score --fs "$fs" --tsv "$out" "$sel" |
			sed "s|$tree/|$res/|"
		r=${PIPESTATUS[0]}
		[ $r -gt $rc ] && rc=$r
	done
	if [ $rc -lt 2 ] && ! VT_ARGV_LINE="./check --mutation-score $sel" vt_results_publish_tree "$tree" "$res"; then
		rc=2
	fi
	rm -rf -- "$tree"
	return $rc
}

# A per-test timeout as -T and TEST_TIMEOUT take it: 1 to 999999 seconds,
# digits only, no leading zero (no octal surprise in $(( ))).
vt_seconds_ok() { # value
	[[ "$1" =~ ^[1-9][0-9]{0,5}$ ]]
}

# -c, -E and VT_DMESG_NOISE read regular files of bounded size only: a
# directory, a FIFO or /dev/zero would hang the reader or make it spin. A
# procfs or sysfs file is regular and says size 0 whatever a read gives
# (/proc/self/pagemap gives more than any reader could take): what a read
# gives is counted, up to one byte past the cap; the readers stop at a
# cap too (vt_load_expunge_file at this one, vfsidmap-tool config at
# 16 MiB).
vt_input_why() { # path -> VT_INPUT_WHY: what is wrong with it, or ""
	local size n rc
	VT_INPUT_WHY=""
	if [ ! -e "$1" ]; then VT_INPUT_WHY="does not exist"
	elif [ ! -f "$1" ]; then VT_INPUT_WHY="is not a regular file"
	elif [ ! -r "$1" ]; then VT_INPUT_WHY="cannot be read"
	elif ! size=$(stat -L -c %s -- "$1" 2>/dev/null); then VT_INPUT_WHY="cannot be read"
	elif [ "$size" -gt "$VT_INPUT_MAX" ]; then VT_INPUT_WHY="is larger than $VT_INPUT_MAX bytes"
	else
		# (a failing read after the cap is past the cap too: pagemap
		# fails a read of a size not a multiple of 8)
		n=$(head -c "$((VT_INPUT_MAX + 1))" -- "$1" 2>/dev/null | wc -c; exit "${PIPESTATUS[0]}") && rc=0 || rc=$?
		if [ "${n:-0}" -gt "$VT_INPUT_MAX" ] || { [ "$rc" != 0 ] && [ "${n:-0}" -ge "$VT_INPUT_MAX" ]; }; then
			VT_INPUT_WHY="gives more than $VT_INPUT_MAX bytes when read (its size says $size: a procfs or sysfs file?)"
		elif [ "$rc" != 0 ]; then
			VT_INPUT_WHY="cannot be read (a read failed after ${n:-0} bytes)"
		fi
	fi
	[ -z "$VT_INPUT_WHY" ]
}

vt_input_file() { # what path
	vt_input_why "$2" && return 0
	vt_bad "$1 '$2' $VT_INPUT_WHY (wanted: a regular file of at most $VT_INPUT_MAX bytes)"
	return 2
}

# Running tests needs root: without it nothing could be tested and a
# green "everything notrun" would hide a misconfigured job (xfstests
# refuses too). Listing and dry runs work for anyone.
vt_require_root() {
	if [ "$EUID" != 0 ]; then
		echo "check: must be run as root (tests make mounts, loop devices and user namespaces); -h, -l, -n and --list-cases work without" >&2
		return 2
	fi
}

vt_require_built() {
	local f
	for f in runner/vfsidmap-exec runner/vfsidmap-tool runner/vfsidmap-supervise; do
		if [ ! -x "$VT_TOP/$f" ]; then
			echo "check: $f is not built: run ./bootstrap first" >&2
			return 2
		fi
	done
}
