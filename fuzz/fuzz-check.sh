#!/bin/bash
# Fuzzing ./check as a whole (TAP): the command line and local.config
# together, not only the two parsers (fuzz/fuzz-*.c do those), then runs
# killed at random points and runs whose results filesystem fails.
#
#   fuzz/fuzz-check.sh [--seed S] [--inputs N] [--kills K] [--faults F]
#
# Inputs: random argv (options, values, bytes that are not UTF-8, shell
# syntax, paths to a directory, a FIFO, /dev/zero) and random config files
# fed to `./check -n`. Each must end with exit 0, 1 or 2 within 60 s, write
# no bash error text (syntax error, unbound variable, ...) on stderr,
# execute nothing from its input, and create nothing outside its sandbox.
# Kill points: real runs (tmpfs) hit by SIGKILL/SIGTERM/SIGINT after a
# random delay: no process, mount or run directory of ours survives, the
# results are either complete or marked incomplete (run.incomplete or
# "Bail out!"), result.xml always valid JUnit (doc/junit.xsd), and the next
# run is complete. Faults: the results filesystem (a private tmpfs) is
# filled to a random level (ENOSPC) or remounted read-only at a random
# moment (EROFS): the run either completes with valid results or exits 2
# leaving the previous results byte-identical (publishing is one swap of
# the whole directory, so old and new files are never mixed: a mixture
# is a misbehaviour). The counts are printed.
# Same seed, same inputs. Root (mounts, runs tests); a private mount
# namespace and VT_RUN_BASE.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
SEED=20 INPUTS=100 KILLS=8 FAULTS=8
while [ $# -gt 0 ]; do
	case "$1" in
	--seed) SEED=$2; shift 2 ;;
	--inputs) INPUTS=$2; shift 2 ;;
	--kills) KILLS=$2; shift 2 ;;
	--faults) FAULTS=$2; shift 2 ;;
	*) echo "usage: $0 [--seed S] [--inputs N] [--kills K] [--faults F]" >&2; exit 2 ;;
	esac
done
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	echo "1..3"
	for i in 1 2 3; do echo "ok $i # SKIP needs root and unshare"; done
	exit 0
fi
if [ -z "${VT_FUZZ_PRIVATE:-}" ]; then
	VT_FUZZ_PRIVATE=1 exec unshare -m --propagation private "$0" --seed "$SEED" --inputs "$INPUTS" --kills "$KILLS" --faults "$FAULTS"
fi
echo "1..3"
RANDOM=$SEED
W=$(mktemp -d /var/tmp/vfsidmap-fuzz.XXXXXX)
chmod 0755 "$W"
trap 'while mountpoint -q "$W/fs"; do umount -l "$W/fs" || break; done; rm -rf --one-file-system "$W"' EXIT
export VT_RUN_BASE="$W/base"
mkdir "$VT_RUN_BASE" "$W/box" "$W/adir"
mkfifo "$W/fifo"
xsd=$top/doc/junit.xsd
pick() { local a=("$@"); printf '%s' "${a[RANDOM % ${#a[@]}]}"; }
bytes() { # random bytes, some not UTF-8, no NUL (argv cannot hold one)
	local n=$((RANDOM % 12 + 1)) s="" i
	for ((i = 0; i < n; i++)); do s+=$(printf "\\x$(printf %x $((RANDOM % 255 + 1)))"); done
	printf '%s' "$s"
}
PWNED=$W/pwned
value() {
	case $((RANDOM % 24)) in
	0) printf '' ;; 1) pick quick idmapped auto matrix selftest nosuch all ;;
	2) pick tmpfs ext4 xfs btrfs vfat zfs tmpfs,tmpfs ext4,tmpfs , ",," ;;
	3) pick 1/2 2/2 0/1 3/2 1/1000000 1/1000001 1/9999999999999999999 a/b 1/ ;;
	4) pick 1 0 -1 99999999 1e3 " 5" 0x10 ;;
	5) printf '$(touch %s)' "$PWNED" ;; 6) printf '`touch %s`' "$PWNED" ;;
	7) pick idmapped/001 idmapped/999 api/001 matrix/002 ../../etc/passwd "api/*" "*" ;;
	8) pick idmapped/001/ownership-seen-through-mount idmapped/001/nosuch "matrix/002/a/b=c" ;;
	9) bytes ;; 10) printf '%s' "$W/cfg" ;; 11) printf '%s' "$W/exp" ;;
	12) pick /dev/zero "$W/fifo" "$W/adir" /nonexistent /proc/x /proc ;;
	13) printf '%s' "$W/box/results" ;; 14) pick xunit xunit-quiet html "" ;;
	15) head -c $((RANDOM % 3000 + 1)) /dev/zero | tr '\0' a ;;
	16) pick "-" "--" "-n" "-h" ;;
	*) pick idmapped/001 api/002 quick tmpfs 1/2 ;;
	esac
}
option() {
	pick -g -x -E -s -c -T -R --results --fs --case --seed --shard -n -l -v --list-cases \
		--no-default-expunges --rule-coverage --bogus -r -- -q ""
}
cfgline() {
	case $((RANDOM % 16)) in
	0) printf '[%s]' "$(pick default tmpfs a.b x-y .. . check.log results.ktap .hidden "a b" "" "$(bytes)")" ;;
	1) printf 'FSTYP=%s' "$(pick tmpfs ext4 zfs "" "'tmpfs'" '"tmpfs"' '$(id)')" ;;
	2) printf 'TEST_DIR=%s' "$(pick / /nonexistent relative "$W/adir" "$W/box")" ;;
	3) printf 'TEST_DEV=%s' "$(pick /dev/null /dev/zero relative "$W/fifo" "")" ;;
	4) printf 'MOUNT_OPTIONS=%s' "$(pick "-o size=1m" "size=1m" "\"a b\"" "$(bytes)")" ;;
	5) printf 'MKFS_OPTIONS=%s' "$(bytes)" ;;
	6) printf 'TEST_TIMEOUT=%s' "$(pick 1 0 -5 86401 abc 99999999999999999999)" ;;
	7) printf 'export FSTYP=tmpfs' ;; 8) printf 'UNKNOWN_KEY=1' ;; 9) printf 'RESULT_BASE=/tmp/x' ;;
	10) printf 'FSTYP=$(touch %s)' "$PWNED" ;; 11) printf '# comment %s' "$(bytes)" ;;
	12) head -c $((RANDOM % 5000)) /dev/zero | tr '\0' x ;;
	13) bytes ;; 14) printf '' ;;
	*) printf 'SCRATCH_MNT=%s' "$(pick /mnt "$W/adir" "")" ;;
	esac
}
bash_error='(line [0-9]+: |syntax error|unbound variable|command not found|integer expression expected|bad substitution|bad array subscript|No such file or directory$|ambiguous redirect|Segmentation fault|Aborted|core dumped|sanitizer)'

# ---------------------------------------------------------------- inputs
bad_inputs=0 tried=0 exit0=0 exit1=0 exit2=0 first_bad=""
for ((k = 0; k < INPUTS; k++)); do
	: >"$W/cfg"
	for ((l = RANDOM % 8; l > 0; l--)); do cfgline >>"$W/cfg"; echo >>"$W/cfg"; done
	printf '%s\n' "$(pick 'idmapped/001' 'tmpfs:idmapped/002 # reason' 'nosuch/001' "$(bytes)" '')" >"$W/exp"
	args=(-n)
	for ((a = RANDOM % 6; a > 0; a--)); do
		o=$(option); [ -n "$o" ] && args+=("$o")
		[ $((RANDOM % 3)) != 0 ] && args+=("$(value)")
	done
	[ $((RANDOM % 4)) = 0 ] && args+=("$(value)")
	before=$(cd "$W" && find box base -mindepth 1 | sort)
	{ cd "$W/box" && RESULT_BASE="$W/box/results" timeout -s KILL 60 "$top/check" "${args[@]}" >"$W/out" 2>"$W/err" </dev/null; } 2>/dev/null
	rc=$?
	cd "$top"
	tried=$((tried + 1))
	case $rc in 0) exit0=$((exit0 + 1)) ;; 1) exit1=$((exit1 + 1)) ;; 2) exit2=$((exit2 + 1)) ;; esac
	why=""
	case $rc in 0|1|2) ;; 137) why="hung (killed after 60 s)" ;; *) why="exit $rc" ;; esac
	# the config parser's own messages ("vfsidmap: FILE: line N: ...") name
	# a line of the input on purpose: not bash's
	[ -z "$why" ] && grep -av '^vfsidmap: ' "$W/err" | grep -Eaq "$bash_error" &&
		why="bash error text: $(grep -av '^vfsidmap: ' "$W/err" | grep -Ea "$bash_error" | head -n 1)"
	[ -z "$why" ] && [ -e "$PWNED" ] && why="executed input"
	[ -z "$why" ] && [ "$(cd "$W" && find box base -mindepth 1 | sort)" != "$before" ] && why="created files: $(cd "$W" && find box base -mindepth 1 | head -n 3 | tr '\n' ' ')"
	if [ -n "$why" ]; then
		bad_inputs=$((bad_inputs + 1))
		echo "# input $k: $why; argv:$(printf ' %q' "${args[@]}" | head -c 600); config: $(head -c 300 "$W/cfg" | od -An -c | tr -s ' \n' ' ' | head -c 300)"
		first_bad=1
		rm -f "$PWNED"; rm -rf "$W/box"/* "$VT_RUN_BASE"/*
	fi
done
echo "# inputs: $tried tried (seed $SEED): exit 0: $exit0, exit 1: $exit1, exit 2: $exit2; $bad_inputs misbehaved"
if [ "$bad_inputs" = 0 ]; then echo "ok 1 $tried command lines and configs: exit 0/1/2, no hang, no bash error, nothing executed or created"
else echo "not ok 1 $bad_inputs of $tried inputs misbehaved"; fi

# ---------------------------------------------------------------- kill points
valid_xml() { xmllint --noout --schema "$xsd" "$1" 2>/dev/null; }
complete_or_marked() { # results dir: complete, or saying it is not
	local d=$1 plan got
	[ -e "$d/results.ktap" ] || return 0
	[ -e "$d/run.incomplete" ] && return 0
	grep -q '^Bail out!' "$d/results.ktap" && return 0
	plan=$(sed -n '2s/^1\.\.//p' "$d/results.ktap")
	got=$(grep -c '^\(not \)\?ok [0-9]' "$d/results.ktap")
	[ "$plan" = "$got" ]
}
ours_left() { pgrep -f "$VT_RUN_BASE" >/dev/null 2>&1 || grep -q "$VT_RUN_BASE" /proc/self/mountinfo; }
bad_kills=0 kills=0 first_bad=""
for ((k = 0; k < KILLS; k++)); do
	sig=$(pick KILL TERM INT)
	delay_ms=$((RANDOM % 2500))
	setsid env --default-signal=INT ./check --fs tmpfs --results "$W/kr" idmapped/001 idmapped/002 >"$W/out" 2>&1 &
	p=$!
	sleep "$((delay_ms / 1000)).$(printf %03d $((delay_ms % 1000)))"
	kill -s "$sig" "$p" 2>/dev/null
	{ wait "$p"; } 2>/dev/null; rc=$?
	kills=$((kills + 1))
	for _ in $(seq 100); do ours_left || break; sleep 0.1; done
	why=""
	ours_left && why="a process or mount of the run is left"
	[ -z "$why" ] && [ -e "$W/kr/result.xml" ] && ! valid_xml "$W/kr/result.xml" && why="result.xml not valid JUnit"
	[ -z "$why" ] && ! complete_or_marked "$W/kr" && why="results neither complete nor marked incomplete"
	[ -z "$why" ] && [ "$rc" = 0 ] && [ -e "$W/kr/run.incomplete" ] && why="exit 0 with run.incomplete"
	if [ -z "$why" ]; then
		./check --fs tmpfs --results "$W/kr" idmapped/001 >"$W/out2" 2>&1; rc2=$?
		[ "$rc2" = 0 ] && [ ! -e "$W/kr/run.incomplete" ] && [ -z "$(ls -A "$VT_RUN_BASE")" ] &&
			! ls -d "$W"/.vfsidmap-stage.kr.* "$W"/kr.kept-* >/dev/null 2>&1 ||
			why="the next run is not clean (exit $rc2)"
	fi
	if [ -n "$why" ]; then
		bad_kills=$((bad_kills + 1))
		[ -z "$first_bad" ] && first_bad="SIG$sig after ${delay_ms}ms (exit $rc): $why"
	fi
done
echo "# kill points: $kills (SIGKILL/SIGTERM/SIGINT at 0-2.5 s); $bad_kills misbehaved${first_bad:+; first: $first_bad}"
if [ "$bad_kills" = 0 ]; then echo "ok 2 $kills runs killed at random points: nothing left, results complete or marked, next run clean"
else echo "not ok 2 $bad_kills of $kills kill points misbehaved"; fi

# ---------------------------------------------------------------- faults
sums() { (cd "$1" && find . -path ./.lock -prune -o -path "./.staging.*" -prune -o -type f -print0 | sort -z | xargs -0r sha256sum); }
bad_faults=0 faults=0 first_bad="" enospc=0 erofs=0 completed=0 refused=0 mixed=0
mkdir "$W/fs"
for ((k = 0; k < FAULTS; k++)); do
	mount -t tmpfs -o size=256k vfsidmap-fuzz "$W/fs"
	./check --fs tmpfs --results "$W/fs/r" idmapped/001 >/dev/null 2>&1
	prev=$(sums "$W/fs/r")
	kind=$(pick enospc erofs)
	if [ "$kind" = enospc ]; then
		enospc=$((enospc + 1))
		leave=$(( (RANDOM % 48) * 1024 ))
		avail=$(df --output=avail -B1 "$W/fs" | tail -n 1)
		[ "$avail" -gt "$leave" ] && head -c $((avail - leave)) /dev/zero >"$W/fs/fill" 2>/dev/null
		./check --fs tmpfs --results "$W/fs/r" idmapped/001 idmapped/002 >"$W/out" 2>&1; rc=$?
	else
		erofs=$((erofs + 1))
		delay_ms=$((RANDOM % 3000))
		./check --fs tmpfs --results "$W/fs/r" idmapped/001 idmapped/002 >"$W/out" 2>&1 &
		p=$!
		sleep "$((delay_ms / 1000)).$(printf %03d $((delay_ms % 1000)))"
		# the run keeps .lock open for writing, so the filesystem cannot go
		# read-only; a read-only bind mount over the filesystem's root
		# makes every later write through a path under it (the results,
		# the staging next to them, the swap) fail with EROFS
		mount --bind "$W/fs" "$W/fs" && mount -o remount,bind,ro "$W/fs" ||
			echo "# could not make $W/fs read-only"
		wait "$p"; rc=$?
	fi
	faults=$((faults + 1))
	why=""
	case $rc in
	2) refused=$((refused + 1))
	   # (run.incomplete: a read-only filesystem keeps this run's note)
	   if [ "$(sums "$W/fs/r" | grep -v ' ./run.incomplete$')" != "$(printf '%s\n' "$prev" | grep -v ' ./run.incomplete$')" ]; then
		mixed=$((mixed + 1))
		why="exit 2 but the previous results changed"
	   fi ;;
	0|1) completed=$((completed + 1))
	   { valid_xml "$W/fs/r/result.xml" && complete_or_marked "$W/fs/r" && [ ! -e "$W/fs/r/run.incomplete" ]; } ||
		why="exit $rc but the results are not complete and valid" ;;
	*) why="exit $rc" ;;
	esac
	ls -d "$W/fs"/.vfsidmap-stage.r.* >/dev/null 2>&1 && [ "$kind" = enospc ] && why="${why:+$why; }staging left"
	if [ -n "$why" ]; then
		bad_faults=$((bad_faults + 1))
		[ -z "$first_bad" ] && first_bad="$kind (exit $rc): $why: $(tail -n 2 "$W/out" | tr '\n' ' ')"
	fi
	while mountpoint -q "$W/fs"; do umount "$W/fs" || break; done
done
echo "# faults: $faults ($enospc ENOSPC at a random fill, $erofs EROFS at a random moment): $completed completed with valid results, $refused exit 2 ($mixed of them with old and new files mixed); $bad_faults misbehaved${first_bad:+; first: $first_bad}"
if [ "$bad_faults" = 0 ]; then echo "ok 3 $faults write faults: never a false pass, nothing lost"
else echo "not ok 3 $bad_faults of $faults write faults misbehaved"; fi
[ "$bad_inputs" = 0 ] && [ "$bad_kills" = 0 ] && [ "$bad_faults" = 0 ]
