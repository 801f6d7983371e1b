#!/bin/bash
# Expunge files are read bounded: regular files of at most 1 MiB, counted
# as a read gives them (procfs says size 0 whatever it holds), else exit 2
# before anything is made. And the list a test program reads (VT_EXPUNGE,
# lib/testlib/expunge_list.c) is a regular file of bounded size, else the
# program says why and exits 2.
#  1:   -E /proc/self/pagemap (size 0, more than any reader wants) used to
#       spin: exit 2 at once, saying it gives more than the cap
#  2-4: -E /dev/zero, a FIFO, a directory: exit 2, nothing made
#  5:   -c /proc/self/pagemap: exit 2 with the same words
#  6:   a small regular -E file still expunges
#  7-9: a test program with VT_EXPUNGE=/dev/zero, a FIFO, /proc/self/pagemap
#       (hand-written api/001, the matrix sample 011): exit 2 naming
#       VT_EXPUNGE, at once and in little memory (it grew without end)
# Each run is guarded (timeout, and ulimit -v for the programs), so a
# missing bound fails here instead of hanging make check.
# Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "./check mounts"
echo "1..9"
unit_workdir expunge-input
unset TEST_TIMEOUT RESULT_BASE VT_EXPUNGE
cd "$top" || exit 1
mkfifo "$work/fifo"
mkdir "$work/dir"
# whatever waits on the FIFO (an open for reading blocks until a writer
# comes) is let go when this test ends
trap ': <>"$work/fifo"; [ -n "${VT_KEEP:-}" ] || rm -rf --one-file-system "$work"' EXIT

run() { # check args...: stdout+stderr in $work/o, status in $rc, seconds in $took
	local start=$SECONDS
	timeout -s KILL 20 ./check "$@" >"$work/o" 2>&1
	rc=$?
	took=$((SECONDS - start))
	: <>"$work/fifo"
}
nothing_made() { # results dir
	[ ! -e "$1" ] && [ -z "$(ls -A "$work/runs")" ]
}

run -E /proc/self/pagemap --fs tmpfs --results "$work/r1" api/001
check_ '[ $rc = 2 ] && [ $took -lt 10 ] && grep -qF "expunge file '"'/proc/self/pagemap'"' gives more than 1048576 bytes when read" "$work/o" && nothing_made "$work/r1"' \
	"-E /proc/self/pagemap: exit 2 at once, it gives more than the cap (exit $rc, ${took}s)"

for f in /dev/zero "$work/fifo" "$work/dir"; do
	run -E "$f" --fs tmpfs --results "$work/r2" api/001
	check_ '[ $rc = 2 ] && grep -qF "expunge file '"'$f'"' is not a regular file" "$work/o" && nothing_made "$work/r2"' \
		"-E $f: exit 2, not a regular file, nothing made (exit $rc)"
done

run -c /proc/self/pagemap --results "$work/r5" api/001
check_ '[ $rc = 2 ] && grep -qF "config file '"'/proc/self/pagemap'"' gives more than 1048576 bytes" "$work/o" && nothing_made "$work/r5"' \
	"-c /proc/self/pagemap: exit 2, it gives more than the cap (exit $rc)"

printf 'tmpfs:api/001/size-zero-einval # a reason of this test\n' >"$work/x"
run -E "$work/x" --fs tmpfs --results "$work/r6" api/001
check_ '[ $rc = 0 ] && grep -q "^ok 2 size-zero-einval # SKIP expunged: a reason of this test" "$work/r6/tmpfs/api/001.ktap"' \
	"a small regular -E file still expunges its case (exit $rc)"

# the test programs read VT_EXPUNGE before anything else they do
for f in /dev/zero "$work/fifo" /proc/self/pagemap; do
	bad=""
	for t in api/001 matrix/011; do
		start=$SECONDS
		(ulimit -v 1000000; FSTYP=tmpfs TEST_DIR=$work/dir VT_EXPUNGE=$f exec timeout -s KILL 20 "tests/$t") \
			>"$work/p.out" 2>"$work/p.err"
		prc=$?
		: <>"$work/fifo"
		grep -qF "VT_EXPUNGE=$f: " "$work/p.err" "$work/p.out" && [ $prc = 2 ] && [ $((SECONDS - start)) -lt 10 ] ||
			bad+=" $t (exit $prc)"
	done
	check_ '[ -z "$bad" ]' "VT_EXPUNGE=$f: api/001 and matrix/011 exit 2 naming it, at once${bad:+; not:$bad}"
done
