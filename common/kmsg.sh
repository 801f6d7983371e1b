# Kernel trouble per test, as xfstests checks dmesg: a marker line into the
# kernel log (/dev/kmsg) before and after each test, the log between the
# markers saved as NNN.dmesg in the test's results, and scanned for what a
# kernel prints when it is in trouble. A hit fails the test with the lines,
# unless a noise pattern (expunge/dmesg/noise, VT_DMESG_NOISE) matches it.
# Without a usable kernel log (no /dev/kmsg to write or to read) the
# check is off with a notice on the terminal and in check.log, never a
# silent pass.

VT_KMSG_OK=0
VT_KMSG_WHY="not probed"
VT_KMSG_TAG=""
# What a kernel in trouble prints (lib/bug.c, kernel/panic.c __warn,
# arch fault handlers, mm/kasan, lib/ubsan.c, kernel/locking/lockdep.c,
# kernel/hung_task.c, kernel/rcu stall warnings).
VT_KMSG_TROUBLE='WARNING:|BUG:|Oops|KASAN|UBSAN|kernel BUG|general protection fault|Unable to handle kernel|possible circular locking|possible recursive locking|inconsistent lock state|INFO: task .* blocked for more than|rcu: INFO: .* detected stalls|self-detected stall'

# Where the kernel log is read from (a test may point it elsewhere). One
# named in the environment must be the kernel log (vt_kmsg_validate); one
# that does not exist stands for a machine without /dev/kmsg (the run
# says the log is not checked).
VT_KMSG_DEV_GIVEN=${VT_KMSG_DEV:+1}
VT_KMSG_DEV=${VT_KMSG_DEV:-/dev/kmsg}
# check's open VT_KMSG_DEV is fd 5, at the record after the last test's;
# the executor and the tests do not get it (run.sh, fs.sh: 5<&-).
VT_KMSG_RFD_PID=""  # the process that opened it (a -j worker opens its own)

# Opens VT_KMSG_DEV for reading as fd 5 of this process (a -j worker's
# subshell must not move its parent's position). A fresh open starts at
# the oldest record (devkmsg_open); the first read goes through the
# buffer once, every later one only through what came since.
vt_kmsg_open() {
	[ "$VT_KMSG_RFD_PID" = "$BASHPID" ] && return 0
	# (an open of a FIFO would wait for a writer for ever)
	if [ -e "$VT_KMSG_DEV" ] && [ ! -c "$VT_KMSG_DEV" ]; then
		VT_KMSG_OPEN_ERR="not a character device"
		return 1
	fi
	if ! { exec 5<"$VT_KMSG_DEV"; } 2>/dev/null; then
		VT_KMSG_OPEN_ERR="cannot open it for reading"
		[ -e "$VT_KMSG_DEV" ] || VT_KMSG_OPEN_ERR="no such file"
		return 1
	fi
	VT_KMSG_RFD_PID=$BASHPID
}

# Once per run: can we write a marker and read it back? It is read from
# /dev/kmsg as each test's log is (runner/kmsg-cut.h).
vt_kmsg_begin() {
	local probe
	VT_KMSG_OK=0
	if ! { echo "vfsidmap: probe $$" >/dev/kmsg; } 2>/dev/null; then
		VT_KMSG_WHY="cannot write to /dev/kmsg"
	elif ! vt_kmsg_open; then
		VT_KMSG_WHY="cannot read the kernel log ($VT_KMSG_DEV: $VT_KMSG_OPEN_ERR)"
	elif ! probe=$("$VT_TOOL" kmsg-cut --probe "vfsidmap: probe $$" <&5 2>&1); then
		if [ -n "$probe" ]; then
			VT_KMSG_WHY="cannot read the kernel log ($VT_KMSG_DEV: ${probe##*: })"
		else
			VT_KMSG_WHY="a line written to /dev/kmsg does not show in $VT_KMSG_DEV"
		fi
	else
		VT_KMSG_OK=1 VT_KMSG_WHY=""
	fi
	# the noise patterns, once per run
	vt_kmsg_noise >"${VT_RUNDIR:?}/kmsg.noise"
	if [ "$VT_KMSG_OK" = 0 ]; then
		echo "KERNEL LOG    -- not checked per test: $VT_KMSG_WHY"
		echo "kernel log: not checked per test: $VT_KMSG_WHY" >>"${VT_STAGE:?}/check.log"
	fi
}

# VT_KMSG_PHASES=1 (a debug knob, e.g. `run/vm --append VT_KMSG_PHASES=1`):
# a line "vfsidmap: phase SECTION TEST PHASE" into the kernel log as each
# part of check's work around a test ends, so that the kernel's timestamps
# (dmesg, run/vm's console) say where a run's wall time goes
# (run/phase-times sums them). Written outside the section's own test
# markers; under -j another section's lines land in a test's NNN.dmesg,
# as that section's kernel messages already do (they match no trouble
# pattern).
vt_phase() { # section test phase
	[ "${VT_KMSG_PHASES:-0}" = 1 ] && [ "$VT_KMSG_OK" = 1 ] || return 0
	echo "vfsidmap: phase $1 $2 $3" >/dev/kmsg 2>/dev/null
	return 0
}

vt_kmsg_mark() { # start|end section test
	[ "$VT_KMSG_OK" = 1 ] || return 0
	[ "$1" = start ] && VT_KMSG_TAG="$BASHPID-${EPOCHREALTIME/[.,]/}" && vt_kmsg_open
	echo "vfsidmap: run $2 $3 $VT_KMSG_TAG $1" >/dev/kmsg 2>/dev/null
}

# The noise patterns, comment lines and blank lines left out. The files of
# VT_DMESG_NOISE were found regular and small (vt_kmsg_validate); no more
# than VT_INPUT_MAX bytes of each is read.
vt_kmsg_noise() {
	local f files=()
	[ -r "$VT_TOP/expunge/dmesg/noise" ] && grep -vE '^[[:space:]]*(#|$)' "$VT_TOP/expunge/dmesg/noise"
	[ -n "${VT_DMESG_NOISE:-}" ] && IFS=: read -ra files <<<"$VT_DMESG_NOISE"
	for f in ${files[@]+"${files[@]}"}; do
		[ -f "$f" ] && [ -r "$f" ] && head -c "$VT_INPUT_MAX" -- "$f" | grep -vE '^[[:space:]]*(#|$)'
	done
	return 0
}

# Bad input, refused before anything is made (exit 2): a VT_DMESG_NOISE
# that names anything but regular files of at most VT_INPUT_MAX bytes (a
# FIFO or /dev/zero would hang the run or make it spin where it reads
# them), or patterns grep -E refuses (each test's trouble would then go
# unfiltered, or unseen); a VT_KMSG_DEV that exists and is not a character
# device (an open of a FIFO waits for ever). Whether a character device
# reads like the kernel log is asked as root (vt_kmsg_validate_dev).
vt_kmsg_validate() {
	local f files=() err
	if [ -n "${VT_DMESG_NOISE:-}" ]; then
		IFS=: read -ra files <<<"$VT_DMESG_NOISE"
		for f in ${files[@]+"${files[@]}"}; do
			if [ -z "$f" ]; then
				echo "check: VT_DMESG_NOISE='$VT_DMESG_NOISE' has an empty file name (wanted: FILE[:FILE...])" >&2
				return 2
			fi
			if ! vt_input_why "$f"; then
				echo "check: VT_DMESG_NOISE: '$f' $VT_INPUT_WHY (wanted: regular files of grep -E patterns, each of at most $VT_INPUT_MAX bytes)" >&2
				return 2
			fi
			# grep exits 2 on a pattern it cannot compile, 1 on no match
			err=$(head -c "$VT_INPUT_MAX" -- "$f" | grep -vE '^[[:space:]]*(#|$)' | grep -E -f - /dev/null 2>&1)
			if [ $? -gt 1 ]; then
				echo "check: VT_DMESG_NOISE: '$f' has a pattern grep -E refuses: ${err#grep: -:*: } (wanted: one grep -E pattern a line, # comments)" >&2
				return 2
			fi
		done
	fi
	if [ -n "$VT_KMSG_DEV_GIVEN" ] && [ -e "$VT_KMSG_DEV" ] && [ ! -c "$VT_KMSG_DEV" ]; then
		echo "check: VT_KMSG_DEV=$VT_KMSG_DEV is not a character device (wanted: /dev/kmsg, or a device that reads like it)" >&2
		return 2
	fi
	return 0
}

# As root, before the run: a character device named by VT_KMSG_DEV must
# read like /dev/kmsg: a line written to /dev/kmsg shows in it. It is
# read as check reads it, without blocking and bounded (runner/kmsg-cut.h:
# anything but a kernel log record ends the read), so /dev/zero, /dev/null
# or a tty are refused at once. Without a /dev/kmsg to write to, nothing
# can be asked: the run says the log is not checked.
vt_kmsg_validate_dev() {
	local mark="vfsidmap: check $$ asks whether VT_KMSG_DEV reads like the kernel log" out rc why
	[ -n "$VT_KMSG_DEV_GIVEN" ] && [ -c "$VT_KMSG_DEV" ] || return 0
	{ printf '%s\n' "$mark" >/dev/kmsg; } 2>/dev/null || return 0
	out=$(timeout 60 "$VT_TOOL" kmsg-cut --probe "$mark" "$VT_KMSG_DEV" 2>&1)
	rc=$?
	case $rc in
	0) return 0 ;;
	1) why="a line written to /dev/kmsg does not show in it" ;;
	124) why="reading it took more than 60 s" ;;
	*) why=${out#vfsidmap: kmsg-cut: } why=${why#reading the kernel log: } ;;
	esac
	echo "check: VT_KMSG_DEV=$VT_KMSG_DEV is not the kernel log: $why (wanted: /dev/kmsg, or a device that reads like it)" >&2
	return 2
}

# After the test: its end marker, and what vfsidmap-tool test-files needs
# to read the test's records (common/run.sh): VT_KMSG_ARGS, empty when the
# log is not read (VT_KMSG_NOTE says why). Reading in test-files' process
# saves a fork a test (forks are dear in a TCG guest); it reads only the
# records since the last test's (runner/kmsg-cut.h).
VT_KMSG_ARGS=()
vt_kmsg_end() { # section test
	VT_KMSG_ARGS=() VT_KMSG_NOTE="" VT_KMSG_CUT=""
	if [ "$VT_KMSG_OK" != 1 ]; then
		VT_KMSG_NOTE="kernel log not checked: $VT_KMSG_WHY"
		return 0
	fi
	vt_kmsg_mark end "$1" "$2"
	if ! vt_kmsg_open; then
		VT_KMSG_NOTE="kernel log not checked: $VT_KMSG_DEV: $VT_KMSG_OPEN_ERR"
		return 0
	fi
	# From the start marker to the end marker; a start marker the ring
	# buffer lost leaves what is there before the end marker, said so.
	# The lines of trouble go to kmsg.hits; a fake warning of another
	# run's selftest/004 names that run's tag: provably not this test's
	# kernel. (The file is overwritten by the next test and goes with
	# the run directory.)
	VT_KMSG_ARGS=("vfsidmap: run $1 $2 $VT_KMSG_TAG start" "vfsidmap: run $1 $2 $VT_KMSG_TAG end"
		"$VT_KMSG_TAG" "$VT_KMSG_TROUBLE" "${VT_WORKDIR:-${VT_RUNDIR:?}}/kmsg.hits")
}

# After test-files: VT_KMSG_HITS (the trouble lines, one a line) or
# VT_KMSG_NOTE (why the test's log could not be checked). The noise
# patterns are applied with grep -E, as the user wrote them, only to lines
# of trouble.
vt_kmsg_collect() { # section test base
	VT_KMSG_HITS=""
	[ ${#VT_KMSG_ARGS[@]} -gt 0 ] || return 0
	local hits=${VT_KMSG_ARGS[4]}
	VT_KMSG_ARGS=()
	case $VT_KMSG_CUT in
	0|1) ;;   # 1: no end marker (lost): what was there is in NNN.dmesg
	"") VT_KMSG_NOTE="kernel log not checked: vfsidmap-tool test-files did not read it"; return 0 ;;
	*) VT_KMSG_NOTE="kernel log not checked: ${VT_KMSG_CUT#error: }"; return 0 ;;
	esac
	if [ -s "$hits" ]; then
		if [ -s "${VT_RUNDIR:?}/kmsg.noise" ]; then
			VT_KMSG_HITS=$(grep -vE -f "${VT_RUNDIR:?}/kmsg.noise" "$hits")
		else
			VT_KMSG_HITS=$(<"$hits")
		fi
	fi
}
