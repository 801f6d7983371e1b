# kselftest/runner.sh: run the tests of one collection the way kselftest's
# runner does, and print one TAP document for them. vfsidmap-kselftest-runner
# (make kselftest-install keeps a runner without this marker: a kernel
# tree's, into which it merges the vfsidmap collection).
#
# Sourced by run_kselftest.sh with BASE_DIR set to the install tree; the
# caller then runs `cd COLLECTION && run_many TEST...`. The interface is
# kselftest's, so that either runner can drive either tree:
#   - output: "TAP version 13", "1..N", then per test "# selftests: DIR:
#     TEST", the test's output with "# " in front of every line, and
#     "ok N selftests: DIR: TEST" (exit 0), "... # SKIP" (exit 4),
#     "not ok N ... # TIMEOUT S seconds" (killed at the timeout) or
#     "not ok N ... # exit=RC";
#   - DIR/settings: "timeout=SECONDS" (default 45), overridden by
#     kselftest_override_timeout; the timeout in force is exported to the
#     test as kselftest_timeout;
#   - logfile (where test output and the timeout line go; default stdout),
#     per_test_logging (each test's output in /tmp/TEST instead),
#     RUN_IN_NETNS (each test in a network namespace of its own);
#   - KSELFTEST_<TEST>_ARGS: arguments for TEST (upper case, [^A-Z0-9_] as _).
# It leaves set -u to the caller (kselftest's run_kselftest.sh reads unset
# positional parameters after sourcing its runner); every expansion here is
# safe under set -u.

if [ -z "${BASE_DIR:-}" ]; then
	echo "runner.sh: BASE_DIR (the kselftest install tree) must be set before sourcing" >&2
	exit 2
fi
skip_rc=4
timeout_rc=124
logfile=/dev/stdout
per_test_logging=
RUN_IN_NETNS=
kselftest_default_timeout=45
kselftest_override_timeout=${kselftest_override_timeout:-}
export skip_rc timeout_rc logfile per_test_logging RUN_IN_NETNS kselftest_default_timeout

# Standard input to the log. logfile=/dev/stdout is written through the
# standard output itself: reopening /dev/stdout when it is a regular file
# gives a second file offset, and the lines overwrite each other.
vt_ksft_log() {
	if [ "$logfile" = /dev/stdout ]; then cat; else cat >>"$logfile"; fi
}

# "# " before every line, unbuffered when perl is there.
vt_ksft_prefix() {
	if [ -x /usr/bin/perl ] && [ -r "$BASE_DIR/kselftest/prefix.pl" ]; then
		/usr/bin/perl "$BASE_DIR/kselftest/prefix.pl"
	else
		awk '{ print "# " $0; fflush() }'
	fi
}

# The timeout of the tests in directory $1: its settings file's timeout=,
# else the default. A malformed settings line is an error (return 1).
vt_ksft_timeout() {
	local settings="$BASE_DIR/$1/settings" line key value t="$kselftest_default_timeout"
	if [ -r "$settings" ]; then
		while IFS= read -r line || [ -n "$line" ]; do
			case $line in '' | '#'*) continue ;; esac
			key=${line%%=*} value=${line#*=}
			if [ "$key" = "$line" ]; then
				echo "# $settings: not key=value: '$line'"
				return 1
			fi
			case $key in
			timeout)
				case $value in
				'' | *[!0-9]* | 0*) echo "# $settings: timeout wants a positive number of seconds, got '$value'"
					return 1 ;;
				esac
				t=$value ;;
			*) ;; # other kselftest settings do not concern this runner
			esac
		done <"$settings"
	fi
	echo "$t"
}

# run_one DIR TEST NUM: prints the test's result line; returns 1 unless it
# passed or skipped.
vt_ksft_run_one() {
	local dir="$1" test="$2" num="$3" name hdr t var args rcfile rc
	name=$(basename "$test")
	hdr="selftests: $dir: $name"
	if ! t=$(vt_ksft_timeout "$dir"); then
		echo "$t"
		echo "not ok $num $hdr # bad settings"
		return 1
	fi
	if [ -n "$kselftest_override_timeout" ]; then
		t=$kselftest_override_timeout
		echo "# overriding timeout to $t" | vt_ksft_log
	else
		echo "# timeout set to $t" | vt_ksft_log
	fi
	kselftest_timeout=$t
	export kselftest_timeout
	echo "# $hdr"
	if [ ! -e "$test" ]; then
		echo "# Warning: file $test is missing!"
		echo "not ok $num $hdr"
		return 1
	fi
	if [ ! -x "$test" ]; then
		echo "# Warning: file $test is not executable"
		echo "not ok $num $hdr"
		return 1
	fi
	var=KSELFTEST_$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]' | tr -c 'A-Z0-9_' '_')_ARGS
	eval "args=\${$var:-}"
	rcfile=$(mktemp "${TMPDIR:-/tmp}/ksft-rc.XXXXXX") || { echo "not ok $num $hdr # mktemp"; return 1; }
	# The exit status crosses the pipe in a file; timeout(1) kills the
	# test's whole process group at the limit (124).
	# shellcheck disable=SC2086 # $args: the test's words, as kselftest splits them
	(
		cd "$(dirname "$test")" || exit 1
		set --
		[ -n "$RUN_IN_NETNS" ] && set -- unshare --net --
		[ -x /usr/bin/timeout ] && set -- "$@" /usr/bin/timeout --kill-after=10 "$t"
		[ -x /usr/bin/stdbuf ] && set -- "$@" /usr/bin/stdbuf --output=L
		"$@" "./$name" $args 2>&1
		echo $? >"$rcfile"
	) | vt_ksft_prefix | vt_ksft_log
	rc=$(cat "$rcfile")
	rm -f "$rcfile"
	case ${rc:-x} in
	0) echo "ok $num $hdr" ;;
	"$skip_rc") echo "ok $num $hdr # SKIP" ;;
	"$timeout_rc") echo "not ok $num $hdr # TIMEOUT $t seconds"; return 1 ;;
	*) echo "not ok $num $hdr # exit=${rc:-unknown}"; return 1 ;;
	esac
	return 0
}

# run_many TEST...: from the collection's directory; returns 1 if a test
# failed.
run_many() {
	local dir="${PWD#"$BASE_DIR"/}" num=0 failed=0 test
	echo "TAP version 13"
	echo "1..$#"
	for test in "$@"; do
		num=$((num + 1))
		if [ -n "$per_test_logging" ]; then
			logfile=/tmp/$(basename "$test")
			: >"$logfile"
		fi
		vt_ksft_run_one "$dir" "$test" "$num" || failed=1
	done
	return $failed
}
