#!/bin/sh
# run_kselftest.sh: run the tests of a kselftest install tree, as kernel CI
# runs selftests. vfsidmap-kselftest-runner (see kselftest/README.md).
#
# The tree: kselftest-list.txt (one "COLLECTION:TEST" a line), a directory
# per collection holding its test executables (and an optional "settings"
# file), and kselftest/runner.sh, which runs one collection and prints its
# TAP document. Options are kselftest's; bad input exits 2. Exit status: 0
# when every test run passed or skipped, 1 when one failed.
set -u
BASE_DIR=$(cd "$(dirname "$0")" && pwd -P)
export BASE_DIR
LIST=$BASE_DIR/kselftest-list.txt
me=run_kselftest.sh

usage() {
	cat <<EOF
Usage: $me [OPTIONS]
  -s | --summary                 only result lines here, test output in output.log
  -p | --per-test-log            each test's output in /tmp/TEST
  -t | --test COLLECTION:TEST    run TEST from COLLECTION (repeatable)
  -c | --collection COLLECTION   run every test of COLLECTION (repeatable)
  -l | --list                    list the COLLECTION:TEST entries
  -d | --dry-run                 print what would run, run nothing
  -n | --netns                   run each test in a network namespace of its own
  -o | --override-timeout SECS   per-test timeout instead of each collection's settings
  -h | --help                    this text
EOF
}
bad() {
	echo "$me: $*" >&2
	echo "$me: -h lists the options" >&2
	exit 2
}

if [ ! -r "$LIST" ]; then
	echo "$me: cannot read the list of tests $LIST (make kselftest-install writes it)" >&2
	exit 2
fi
# Every line is COLLECTION:TEST, with a TEST that names a file below COLLECTION.
bad_line=$(awk '!/^[A-Za-z0-9._+-]+(\/[A-Za-z0-9._+-]+)*:[A-Za-z0-9._+-]+$/ { print NR ": " $0; exit }' "$LIST")
[ -z "$bad_line" ] || { echo "$me: $LIST line $bad_line: not COLLECTION:TEST" >&2; exit 2; }

. "$BASE_DIR/kselftest/runner.sh"

tests="" collections="" dryrun=0
while [ $# -gt 0 ]; do
	case $1 in
	-s | --summary) logfile=$BASE_DIR/output.log ;;
	-p | --per-test-log | --per_test_log) per_test_logging=1 ;;
	-t | --test | -c | --collection | -o | --override-timeout)
		[ $# -ge 2 ] || bad "$1 wants an argument"
		case $1 in
		-t | --test)
			case $2 in *:*) ;; *) bad "$1 wants COLLECTION:TEST, got '$2'" ;; esac
			tests="$tests $2" ;;
		-c | --collection) collections="$collections $2" ;;
		*)
			case $2 in '' | *[!0-9]* | 0*) bad "$1 wants a positive number of seconds, got '$2'" ;; esac
			kselftest_override_timeout=$2 ;;
		esac
		shift ;;
	-l | --list) cat "$LIST"; exit 0 ;;
	-d | --dry-run) dryrun=1 ;;
	-n | --netns)
		command -v unshare >/dev/null 2>&1 || bad "$1 needs unshare(1)"
		RUN_IN_NETNS=1 ;;
	-h | --help) usage; exit 0 ;;
	*) bad "unknown option '$1'" ;;
	esac
	shift
done
[ "$logfile" = /dev/stdout ] || [ -z "$per_test_logging" ] || bad "-s and -p exclude each other"

# The selected lines, in the list's order, each once.
for c in $collections; do
	awk -F: -v c="$c" '$1 == c { found = 1 } END { exit !found }' "$LIST" \
		|| bad "no collection '$c' in $LIST"
done
for t in $tests; do
	grep -qxF "$t" "$LIST" || bad "no test '$t' in $LIST"
done
selected=$(awk -v tests="$tests" -v colls="$collections" '
	BEGIN { all = (tests == "" && colls == "")
		n = split(tests, t, " "); for (i = 1; i <= n; i++) want[t[i]] = 1
		n = split(colls, c, " "); for (i = 1; i <= n; i++) coll[c[i]] = 1 }
	!seen[$0]++ { split($0, f, ":"); if (all || ($0 in want) || (f[1] in coll)) print }' "$LIST")

if [ "$dryrun" = 1 ]; then
	printf '%s\n' "$selected"
	exit 0
fi
[ "$logfile" = /dev/stdout ] || : >"$logfile"

status=0
for coll in $(printf '%s\n' "$selected" | awk -F: '!seen[$1]++ { print $1 }'); do
	[ -w /dev/kmsg ] && echo "kselftest: Running tests in $coll" >>/dev/kmsg
	# shellcheck disable=SC2046 # one word per test name
	(cd "$BASE_DIR/$coll" && run_many $(printf '%s\n' "$selected" | awk -F: -v c="$coll" '$1 == c { print $2 }')) \
		|| status=1
done
exit $status
