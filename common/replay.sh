# Replaying one case: --case validated against the test's own list of
# cases, and what a failure's replay line needs to run that case again the
# way this run ran it (lib/report/replay.c prints the line).

# The environment variables that change a case's outcome, as the tests
# read them: VT_ALLOW_SYSCTL (lib/world/sysctl.c: may the protected_*
# sysctls be changed) and VT_MODEL_BREAK (lib/model/break.c: a rule of the
# model turned wrong on purpose). Not VT_SEED or VT_SHARD: they order and
# split a run's cases, one case alone runs the same without them (a shard
# that does not hold the case would even leave it out).
VT_REPLAY_ENV_VARS=(VT_ALLOW_SYSCTL VT_MODEL_BREAK)
# The environment that made a run, as check.log's "command:" line and
# result.xml's "command" property show it in front of ./check: the
# variables above, the sample's (lib/matrix/sample_choice.c: a sample
# computed without a mutant, or computed at run time) and those check reads
# for its options (./check -h, "Environment"). One list: add a variable
# here and both places show it.
VT_RUN_ENV_VARS=("${VT_REPLAY_ENV_VARS[@]}" VT_SAMPLE_WITHOUT VT_SAMPLE_WITHOUT_MUTANT
	VT_SAMPLE_COMPUTE TEST_TIMEOUT RESULT_BASE VT_RUN_BASE)
VT_RUN_ENV=""
# VT_RUN_ENV: "NAME=value " (shell-quoted) for each of VT_RUN_ENV_VARS
# set in check's environment; taken before check sets anything itself.
vt_run_env_take() {
	local e q
	VT_RUN_ENV=""
	for e in "${VT_RUN_ENV_VARS[@]}"; do
		# exported ones only: check's own defaults (VT_RUN_BASE) are
		# shell variables, not the caller's environment
		[[ $(declare -p "$e" 2>/dev/null) =~ ^declare\ -[a-zA-Z-]*x ]] || continue
		printf -v q '%q' "${!e}"
		VT_RUN_ENV+="$e=$q "
	done
}
# The command line of this run as check.log and result.xml show it.
vt_run_command() { # -> VT_RUN_COMMAND
	VT_RUN_COMMAND="${VT_RUN_ENV}./check ${VT_ARGV:-}"
}
VT_REPLAY_CHECK=""
declare -A VT_S_REPLAY=()

# The case ids TEST lists on FS (empty: without FSTYP). A test's ids can
# depend on the filesystem (the matrix lists its vfat forms on vfat).
vt_test_cases() { # test fs
	local bin
	bin=$(vt_test_binary "$1")
	if [ ! -x "$bin" ]; then
		echo "check: $1 is not built" >&2
		return 2
	fi
	if [ -n "$2" ]; then
		FSTYP=$2 timeout 60 "$bin" --list-cases
	else
		env -u FSTYP timeout 60 "$bin" --list-cases
	fi | sed "s|^|$1/|"
}

# --case ID: ID must be one the test lists for the filesystem of a run.
# Runs on a filesystem where the test has no such case are left out with a
# notice; none left: "no such case", exit 2, before anything is made.
vt_validate_case() {
	[ -n "$VT_CASE" ] || return 0
	local i fs keep=() left=() tried=()
	local -A listed=()
	[ -x "$(vt_test_binary "$VT_CASE_TEST")" ] || { echo "check: $VT_CASE_TEST is not built" >&2; return 2; }
	for i in "${VT_SECTIONS[@]}"; do
		fs=${VT_S_FS[$i]}
		if [ -z "${listed[$fs]+x}" ]; then
			tried+=("$fs")
			if vt_test_cases "$VT_CASE_TEST" "$fs" | grep -Fxq -- "$VT_CASE"; then
				listed[$fs]=1
			else
				listed[$fs]=0
			fi
		fi
		if [ "${listed[$fs]}" = 1 ]; then keep+=("$i"); else left+=("${VT_S_NAME[$i]}"); fi
	done
	if [ ${#keep[@]} -eq 0 ]; then
		echo "check: no such case '$VT_CASE' on ${tried[*]} (./check --list-cases $VT_CASE_TEST --fs FS lists the cases)" >&2
		return 2
	fi
	if [ ${#left[@]} -gt 0 ]; then
		echo "check: --case $VT_CASE: not a case on ${left[*]}: left out"
	fi
	VT_SECTIONS=("${keep[@]}")
}

# VT_MODEL_BREAK (lib/model/break.h): each of its items must name a model
# mutant of at least one test of the run. A test program knows only the
# mutants of the model files it links, so no single test can tell a typo
# from a mutant of another test; a typo would otherwise break nothing and
# every test would pass. Bad input: exit 2 before anything is made.
vt_validate_model_break() {
	[ -n "${VT_MODEL_BREAK:-}" ] || return 0
	local t bin out n item
	local -A named=()
	local -a order=()
	for t in "${VT_SELECTED[@]}"; do
		bin=$(vt_test_binary "$t")
		[ -x "$bin" ] || { echo "check: $t is not built" >&2; return 2; }
		# a test that cannot answer (selftest/001 crashes on purpose)
		# knows no mutant; its own run reports what is wrong with it
		out=$(timeout 60 "$bin" --match-mutants "$VT_MODEL_BREAK" 2>/dev/null) || continue
		while IFS=$'\t' read -r n item; do
			[ -n "$item" ] || continue
			[ -n "${named[$item]+x}" ] || { named[$item]=0; order+=("$item"); }
			named[$item]=$((named[$item] + n))
		done <<<"$out"
	done
	for item in "${order[@]}"; do
		if [ "${named[$item]}" = 0 ]; then
			echo "check: VT_MODEL_BREAK: '$item' names no model mutant of the selected tests (TEST --list-mutants, e.g. tests/matrix/011 --list-mutants, lists a test's)" >&2
			return 2
		fi
	done
}

# VT_SAMPLE_WITHOUT (a rule) and VT_SAMPLE_WITHOUT_MUTANT (a mutant) leave
# cases out of the quick sample (lib/matrix/sample_choice.h). A name that
# is neither failed the sample test after the run had begun; it is asked
# of a sample program (group matrix-sample) first: bad input, exit 2
# before anything is made, whether or not a sample test is selected.
vt_validate_sample_env() {
	[ -n "${VT_SAMPLE_WITHOUT:-}${VT_SAMPLE_WITHOUT_MUTANT:-}" ] || return 0
	local t bin out rc
	for t in "${VT_ALL_TESTS[@]}"; do
		vt_in_group "$t" matrix-sample || continue
		bin=$(vt_test_binary "$t")
		[ -x "$bin" ] || continue
		out=$(timeout 60 "$bin" --check-sample-env 2>&1)
		rc=$?
		[ "$rc" = 0 ] && return 0
		if [ "$rc" = 2 ]; then
			echo "check: ${out:-$t --check-sample-env refused VT_SAMPLE_WITHOUT or VT_SAMPLE_WITHOUT_MUTANT}" >&2
			return 2
		fi
	done
	return 0   # no sample program could answer: its own run will say
}

# What a replay line carries, per run: the check to call (with the
# environment in front) and its options (config and section, filesystem,
# expunge defaults). Passed to each test as VT_REPLAY_CHECK and
# VT_REPLAY_OPTS.
vt_replay_plan() {
	local e i o cfg
	VT_REPLAY_CHECK=""
	for e in "${VT_REPLAY_ENV_VARS[@]}"; do
		[ -n "${!e+x}" ] && VT_REPLAY_CHECK+="$e=$(printf '%q' "${!e}") "
	done
	if [ -n "${VT_CHECK_COMMAND:-}" ] && [ -x "$VT_CHECK_COMMAND" ]; then
		# run through the installed vfsidmap-check: the line calls it
		# (by its name when PATH finds this one), so that the replay's
		# results go to the caller's ./results as the run's did
		if [ "$(command -v vfsidmap-check 2>/dev/null)" = "$VT_CHECK_COMMAND" ]; then
			VT_REPLAY_CHECK+="vfsidmap-check"
		else
			VT_REPLAY_CHECK+=$(printf '%q' "$VT_CHECK_COMMAND")
		fi
	elif [ "$PWD" = "$VT_TOP" ]; then
		VT_REPLAY_CHECK+="./check"
	else
		VT_REPLAY_CHECK+=$(printf '%q' "$VT_TOP/check")
	fi
	cfg=""
	if [ -n "$VT_CONFIG_FILE" ]; then
		cfg=$(cd "$(dirname "$VT_CONFIG_FILE")" && pwd)/$(basename "$VT_CONFIG_FILE")
	fi
	for i in "${VT_SECTIONS[@]}"; do
		o=""
		[ -n "$cfg" ] && o+="-c $(printf '%q' "$cfg") -s $(printf '%q' "${VT_S_CSECT[$i]}") "
		o+="--fs ${VT_S_FS[$i]}"
		[ "$VT_DEFAULT_EXPUNGES" = 0 ] && o+=" --no-default-expunges"
		VT_S_REPLAY[$i]=$o
	done
}
