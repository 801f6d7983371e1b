# Running the selected tests of one run (section or filesystem).

# Case-level expunges of TEST as the file the test library reads.
# A test in group matrix-sample runs cases of the other tests of its suite:
# it also gets their case expunges, as "suite/NNN/case<TAB>reason".
# Forks are dear in a TCG guest (run/vm): the per-test path below uses
# bash builtins where it can (EPOCHREALTIME, printf %()T, read).
vt_case_expunge_file() { # fs test -> VT_EXPF: path or ""
	VT_EXPF=""
	local lines=${VT_CASE_EXPUNGES["$1|$2"]:-}${VT_CASE_EXPUNGES["*|$2"]:-} o
	if vt_in_group "$2" matrix-sample; then
		for o in "${VT_ALL_TESTS[@]}"; do
			[ "$o" != "$2" ] && [ "${o%/*}" = "${2%/*}" ] || continue
			# most tests have no case expunges: no subshell and sed for them
			[ -n "${VT_CASE_EXPUNGES["$1|$o"]:-}${VT_CASE_EXPUNGES["*|$o"]:-}" ] || continue
			lines+=$(printf '%s' "${VT_CASE_EXPUNGES["$1|$o"]:-}${VT_CASE_EXPUNGES["*|$o"]:-}" |
				sed "/./s|^|$o/|")
			[ -n "$lines" ] && [ "${lines: -1}" != $'\n' ] && lines+=$'\n'
		done
	fi
	[ -n "$lines" ] || return 0
	VT_EXPF="${VT_WORKDIR:-${VT_RUNDIR:?}}/expunge.$1.${2//\//_}"
	printf '%s' "$lines" >"$VT_EXPF"
}

vt_now_us() { VT_NOW=${EPOCHREALTIME/[.,]/}; }

# check's own guard on -T, outside the test's namespaces: the executor's
# init enforces the timeout, but a stopped (SIGSTOP) or wedged executor
# cannot. At T + grace this kills the executor (SIGKILL works on stopped
# processes); its pid namespace init dies with it (PR_SET_PDEATHSIG) and
# with the init every process of the test. The flag file says it fired.
VT_WATCHDOG_GRACE=${VT_WATCHDOG_GRACE:-10}
VT_CHECK_PID=$$
vt_watchdog_start() { # pid seconds flag -> VT_WATCHDOG
	[ -p "${VT_WORKDIR:-${VT_RUNDIR:?}}/watchdog.fifo" ] || mkfifo "${VT_WORKDIR:-${VT_RUNDIR:?}}/watchdog.fifo" || return 0
	(
		# a FIFO nobody writes: read -t is a sleep without a fork
		exec 5<&- 8>&- 9>&- 3<>"${VT_WORKDIR:-${VT_RUNDIR:?}}/watchdog.fifo" </dev/null >/dev/null 2>&1
		left=$2
		while [ "$left" -gt 0 ]; do
			read -r -t 1 -u 3 _
			# check died (SIGKILL): nothing to guard, do not linger
			[ -d "/proc/$VT_CHECK_PID" ] || exit 0
			left=$((left - 1))
		done
		: >"$3"
		kill -KILL "$1"
	) &
	VT_WATCHDOG=$!
}

vt_watchdog_stop() {
	[ -n "${VT_WATCHDOG:-}" ] || return 0
	kill -KILL "$VT_WATCHDOG" 2>/dev/null
	wait "$VT_WATCHDOG" 2>/dev/null
	VT_WATCHDOG=""
}

# The per-test files and what check needs of a test's KTAP come from one
# process, vfsidmap-tool test-files (runner/test-files.h), instead of a
# cat, a cp or two and an awk (forks are dear in run/vm's TCG guest):
# NNN.full, NNN.ktap and NNN.rules, and a digest of the KTAP that sets
# VT_KTAP_SKIPALL (1 when the document is "1..0 # SKIP"), VT_KTAP_PLAN
# (the first plan line's count, "" if none), VT_KTAP_GOT (top-level
# results), VT_KTAP_COUNTS ("passed failed skipped" top-level results),
# VT_KTAP_SKIP_REASON (the first "1..0 # SKIP" reason) and
# VT_KTAP_CASE_SKIP ("case: reason" of the first case skipped on its own).
# With the kernel log readable (common/kmsg.sh: VT_KMSG_ARGS set by
# vt_kmsg_end), the same process also writes NNN.dmesg and the lines of
# trouble (runner/kmsg-cut.h) and says in VT_KMSG_CUT how that went.
vt_test_files() { # out base header see
	local digest failed="" rc=0 xml=()
	# OUT.xml: the KTAP as JUnit's system-out, for vt_report_test (the
	# same process, instead of an xml-text a test)
	VT_T_XML=""
	# (emptied first: a file the tool cannot replace is never the last
	# test's; an empty one is not used)
	[ "$VT_REPORT_FORMAT" != xunit-quiet ] && { : >"$1.xml"; } 2>/dev/null &&
		xml=(--xml "$VT_SYSTEM_OUT_MAX" "$4")
	# exec: the command substitution's subshell becomes the tool (with
	# redirections bash would fork once more)
	if [ ${#VT_KMSG_ARGS[@]} -gt 0 ]; then
		digest=$(exec "$VT_TOOL" test-files "${xml[@]}" "$1" "$2" "$3" "${VT_KMSG_ARGS[@]}" <&5 2>"$1.failed") || rc=$?
	else
		digest=$(exec "$VT_TOOL" test-files "${xml[@]}" "$1" "$2" "$3" 2>"$1.failed") || rc=$?
	fi
	# (no OUT.xml when it could not be written: vt_report_test makes it)
	[ "$rc" = 0 ] && [ ${#xml[@]} -gt 0 ] && [ -s "$1.xml" ] && VT_T_XML=$1.xml
	# with the kernel log's arguments test-files removed OUT.status and
	# OUT.rules itself (no rm after the test)
	VT_OUT_CLEARED=0
	[ ${#VT_KMSG_ARGS[@]} -gt 0 ] && [ "$rc" = 0 ] && VT_OUT_CLEARED=1
	[ "$rc" = 0 ] ||
		{ [ -r "$1.failed" ] && IFS= read -r failed <"$1.failed"; vt_write_failed "${failed:-$2.full}"; }
	{
		read -r VT_KTAP_SKIPALL VT_KTAP_PLAN VT_KTAP_GOT VT_KTAP_COUNTS
		IFS= read -r VT_KTAP_SKIP_REASON
		IFS= read -r VT_KTAP_CASE_SKIP
		IFS= read -r VT_KMSG_CUT
	} <<<"$digest"
	[ "$VT_KTAP_PLAN" != - ] || VT_KTAP_PLAN=""
	[ -n "$VT_KTAP_COUNTS" ] || VT_KTAP_COUNTS="0 0 0"
}

# Why the output of a test that passed (or was notrun) is not whole, or
# nothing: a KTAP document states its plan ("1..N", top level) and then has
# N top-level results, or is "1..0 # SKIP" (KTAP, Documentation/dev-tools/
# ktap.rst); the executor writes its verdict (pass/notrun) to --status.
# The KTAP facts are vt_test_files'.
vt_output_short() { # ktap-file status -> VT_SHORT
	VT_SHORT=""
	case $2 in
	"error: no status"*) VT_SHORT="the executor's verdict is missing"; return 0 ;;
	esac
	[ -f "$1" ] || { VT_SHORT="no KTAP output"; return 0; }
	[ "$VT_KTAP_SKIPALL" = 1 ] && return 0
	[ -n "$VT_KTAP_PLAN" ] || { VT_SHORT="no KTAP plan line"; return 0; }
	[ "$VT_KTAP_GOT" = "$VT_KTAP_PLAN" ] || VT_SHORT="$VT_KTAP_GOT of $VT_KTAP_PLAN results"
}

# Does the run's scratch space (where a test's output goes first) take a
# write of 1 MiB, fsync'd? More than any test's verdict and the KTAP of a
# test cut short by a full filesystem: when this works, the space was not
# what cut the output short.
vt_run_base_takes_writes() {
	local f="${VT_WORKDIR:-${VT_RUNDIR:?}}/write-probe" ok=1
	{ head -c 1048576 /dev/zero >"$f" && sync -- "$f"; } 2>/dev/null || ok=0
	vt_rm "$f"
	[ $ok = 1 ]
}

# Per-test files go to the staging directory; a failed write is an error
# of the run (vt_write_failed), never a silent 0-byte file.
vt_run_one() { # run-index test resdir
	local i=$1 t=$2 dir=$3 base rc start status reason expf out limit flag sig f
	base="$dir/${t##*/}"
	[ -d "$dir" ] || mkdir -p "$dir" || { vt_write_failed "$dir"; return 1; }
	vt_case_expunge_file "${VT_S_FS[$i]}" "$t"
	expf=$VT_EXPF
	case_only=""
	[ -n "$VT_CASE" ] && case_only=${VT_CASE#"$t"/}
	# The test's output goes to the run directory first and is copied to
	# the results with its write checked.
	out="${VT_WORKDIR:-${VT_RUNDIR:?}}/test"
	flag="${VT_WORKDIR:-${VT_RUNDIR:?}}/watchdog.fired"
	# (left only by a test that did not get to its end, or, for status
	# and rules, when test-files did not remove them; out.ktap, .stderr
	# and .failed are truncated by their redirections; no rm otherwise)
	for f in "$out.status" "$out.rules" "$flag"; do
		[ -e "$f" ] && { vt_rm "$out".* "$flag"; break; }
	done
	# a test changing a global sysctl runs alone (common/sysctl_lock.sh)
	if ! vt_sysctl_lock_take "$t"; then
		vt_interrupted || vt_write_failed "$VT_SYSCTL_LOCK"
		return 1
	fi
	vt_exec_fs_args "$i"
	vt_now_us
	start=$VT_NOW
	vt_kmsg_mark start "${VT_S_NAME[$i]}" "$t"
	VT_KMSG_TAG="$VT_KMSG_TAG" VT_TEST_ID="$t" VT_CASE="$case_only" VT_SEED="$VT_SEED" VT_SHARD="$VT_SHARD" VT_EXPUNGE="$expf" \
		VT_RULE_COVERAGE="$out.rules" \
		VT_REPLAY_CHECK="$VT_REPLAY_CHECK" VT_REPLAY_OPTS="${VT_S_REPLAY[$i]}" \
		VT_PROGRESS="$VT_PROGRESS_FILE" \
		"$VT_EXEC" "${VT_EXEC_FS[@]}" --timeout "${VT_S_TIMEOUT[$i]}" \
		--status "$out.status" -- "$VT_TOP/tests/$t" >"$out.ktap" 2>"$out.stderr" 5<&- 8>&- 9>&- &
	VT_CHILD=$!
	limit=$(( VT_S_TIMEOUT[$i] + VT_WATCHDOG_GRACE ))
	vt_watchdog_start "$VT_CHILD" "$limit" "$flag"
	vt_progress_wait "$t"
	rc=$VT_RC
	# A signal interrupts wait: wait for the executor to be gone for real.
	while kill -0 "$VT_CHILD" 2>/dev/null; do wait "$VT_CHILD"; rc=$?; done
	VT_CHILD=""
	vt_watchdog_stop
	vt_sysctl_lock_drop
	vt_now_us
	# wall time in ms; VT_T_TIME in whole seconds for the terminal
	VT_T_MS=$(( (VT_NOW - start) / 1000 ))
	VT_T_TIME=$(( VT_T_MS / 1000 ))
	status=""
	[ -r "$out.status" ] && IFS= read -r status <"$out.status"
	if [ -z "$status" ]; then
		if [ "$rc" -gt 128 ] && sig=$(kill -l "$((rc - 128))" 2>/dev/null); then
			status="error: executor killed by SIG$sig"
		else
			status="error: no status (executor exit $rc)"
		fi
	fi
	local stamp
	TZ=UTC printf -v stamp '%(%FT%TZ)T' -1
	vt_kmsg_end "${VT_S_NAME[$i]}" "$t"
	# NNN.full: these lines, the KTAP, "== stderr" and the test's stderr
	# when it wrote any; NNN.ktap; NNN.rules when the test wrote rules
	vt_test_files "$out" "$base" "== $t on ${VT_S_NAME[$i]} (FSTYP=${VT_S_FS[$i]}), $stamp, ${VT_T_MS}ms
== status: $status (exit $rc)
== KTAP
" "${VT_S_NAME[$i]}/$t.full"
	vt_phase "${VT_S_NAME[$i]}" "$t" test-files
	reason=""
	VT_T_FAIL_TYPE="" VT_T_ERROR_TYPE=""
	if [ -e "$flag" ]; then
		# The executor did not stop the test itself (stopped or wedged).
		rc=124 status="timeout"
		VT_T_RESULT=fail VT_T_FAIL_TYPE=timeout
		reason="timeout: killed after ${limit}s (-T ${VT_S_TIMEOUT[$i]} + ${VT_WATCHDOG_GRACE}s grace, by check's watchdog: the executor did not stop the test)"
	else
	case $rc in
	0) VT_T_RESULT=pass ;;
	4) VT_T_RESULT=notrun
	   reason=$VT_KTAP_SKIP_REASON
	   # Every case skipped on its own: give the first case's reason.
	   [ -n "$reason" ] || reason=$VT_KTAP_CASE_SKIP
	   [ -n "$reason" ] || reason="test said notrun" ;;
	124) VT_T_RESULT=fail VT_T_FAIL_TYPE=timeout
	   reason="timeout: killed after ${VT_S_TIMEOUT[$i]}s (-T)" ;;
	*) VT_T_RESULT=fail
	   if vt_interrupted; then
		VT_T_RESULT=error VT_T_ERROR_TYPE=interrupted reason="interrupted by ${VT_SIGNAL:-a signal}"
	   elif [[ "$status" == error:* ]] || [ "$rc" = 125 ]; then
		# the executor or the setup broke: no verdict on the kernel
		VT_T_RESULT=error VT_T_ERROR_TYPE=harness reason=$status
	   elif [[ "$status" == crashed:* ]]; then
		VT_T_FAIL_TYPE=crash reason=$status
	   elif [[ "$status" == *"left behind"* ]]; then
		VT_T_FAIL_TYPE=leak reason=$status
	   elif [ "$rc" != 1 ] || [ "$status" != fail ]; then
		VT_T_RESULT=error VT_T_ERROR_TYPE=harness reason="test exit $rc: $status"
	   else
		VT_T_FAIL_TYPE=mismatch
	   fi ;;
	esac
	fi
	# The test's output and the executor's verdict are written under
	# VT_RUN_BASE first: a full or failing filesystem there truncates them,
	# and a pass or notrun must never rest on a truncated output. The run
	# could not test: exit 2 (vt_write_failed), the result an error.
	local short=""
	if [ "$rc" = 3 ]; then
		short="the test could not write all of its KTAP output (exit 3)"
	elif [ "$VT_T_RESULT" = pass ] || [ "$VT_T_RESULT" = notrun ]; then
		vt_output_short "$out.ktap" "$status"
		short=$VT_SHORT
	fi
	# Whose fault it is decides how far it reaches: if VT_RUN_BASE still
	# takes a write (vt_run_base_takes_writes), the test cut its own output
	# short: an error of that test, and the run goes on with the others;
	# else the run cannot trust any output it writes there: exit 2.
	if [ -n "$short" ]; then
		VT_T_RESULT=error VT_T_ERROR_TYPE=harness VT_T_FAIL_TYPE=""
		if vt_run_base_takes_writes; then
			reason="output incomplete: $short (VT_RUN_BASE=$VT_RUN_BASE takes writes: the test's own output is short)"
		else
			reason="output incomplete: $short (written under VT_RUN_BASE=$VT_RUN_BASE first: full or failing?)"
			vt_write_failed "the output of $t ($short; it is written under VT_RUN_BASE=$VT_RUN_BASE first, is that filesystem full or failing?)"
		fi
	fi
	# What the test itself came to, kept apart from what the kernel's side
	# adds below: each is a leaf of its own in results.ktap (vt_report_test).
	VT_T_OWN_FAIL=$VT_T_FAIL_TYPE VT_T_OWN_REASON=$reason
	# The kernel's side of the test: its log between the markers, and the
	# filesystem it leaves (common/kmsg.sh, common/fsck.sh). Trouble there
	# fails the test whatever it said; a broken harness stays an error.
	vt_kmsg_collect "${VT_S_NAME[$i]}" "$t" "$base"
	vt_phase "${VT_S_NAME[$i]}" "$t" kmsg
	vt_fsck_after "$i" "$base"
	vt_phase "${VT_S_NAME[$i]}" "$t" fsck
	local kernel="" kmsg=""
	if [ -n "$VT_KMSG_HITS" ]; then
		kmsg="kernel log: $(printf '%s\n' "$VT_KMSG_HITS" | wc -l) line(s) of trouble during the test, first: $(printf '%s\n' "$VT_KMSG_HITS" | head -n 1 | sed 's/^\[[ 0-9.]*\] //') (see ${base##*/}.dmesg)"
	fi
	kernel=$kmsg
	[ -n "$VT_FSCK_FAIL" ] && kernel+="${kernel:+; }$VT_FSCK_FAIL"
	if [ -n "$kernel" ] && [ "$VT_T_RESULT" != error ]; then
		# a test that failed on its own keeps its reason in front
		[ "$VT_T_RESULT" = fail ] && [ -z "$reason" ] && reason="$(grep -c '^not ok ' "$out.ktap") cases failed"
		VT_T_RESULT=fail
		[ -n "$VT_KMSG_HITS" ] && VT_T_FAIL_TYPE=${VT_T_FAIL_TYPE:-kernel-log}
		[ -n "$VT_FSCK_FAIL" ] && VT_T_FAIL_TYPE=${VT_T_FAIL_TYPE:-fsck}
		reason="${reason:+$reason; }$kernel"
		VT_T_KMSG_REASON=$kmsg VT_T_FSCK_REASON=$VT_FSCK_FAIL
	fi
	{
		[ -n "$VT_KMSG_HITS" ] && { echo "== kernel log trouble"; printf '%s\n' "$VT_KMSG_HITS"; }
		[ -n "$VT_FSCK_FAIL" ] && { echo "== fsck"; cat "$base.fsck"; }
		[ -n "$VT_KMSG_NOTE" ] && echo "== $VT_KMSG_NOTE"
		[ -n "$VT_FSCK_NOTE" ] && echo "== $VT_FSCK_NOTE"
		:
	} >>"$base.full" || vt_write_failed "$base.full"
	# a test whose log could not be read, once the run as a whole could: say so
	if [ "$VT_KMSG_OK" = 1 ] && [ -n "$VT_KMSG_NOTE" ]; then
		echo "note: $t on ${VT_S_NAME[$i]}: $VT_KMSG_NOTE"
		vt_log "note: $t on ${VT_S_NAME[$i]}: $VT_KMSG_NOTE"
	fi
	if [ "$VT_T_RESULT" = fail ] || [ "$VT_T_RESULT" = error ]; then
		{
			cat "$out.ktap" && if [ -n "$reason" ]; then echo "# $reason"; fi
			if [ -n "$VT_KMSG_HITS" ]; then printf '%s\n' "$VT_KMSG_HITS" | sed 's/^/# kernel: /'; fi
			if [ -n "$VT_FSCK_FAIL" ]; then sed 's/^/# fsck: /' "$base.fsck"; fi
		} >"$base.out.bad" || vt_write_failed "$base.out.bad"
	fi
	[ "$VT_OUT_CLEARED" = 1 ] || vt_rm "$out".*
	VT_T_REASON=$reason
	VT_T_KTAP="$base.ktap"
	# (the report counts the cases from the digest, not from the file again)
	VT_T_COUNTED=$VT_T_KTAP VT_T_COUNTS=$VT_KTAP_COUNTS
}

# The runs the filesystem table rules out, from tests/out-of-scope.tsv
# (made by make: Makefile.am, lib/testlib/testlib.c --out-of-scope):
# VT_OUT_OF_SCOPE["fs|suite/NNN"] = the reason the test itself would give.
# Read once a run. In a build tree (a Makefile next to check), where one
# program can be rebuilt alone and have other needs now, an entry counts
# only while the table is newer than the program; an installed tree
# (make install, run/vm) is installed whole, with no order of mtimes.
declare -A VT_OUT_OF_SCOPE=()
VT_OUT_OF_SCOPE_LOADED=0
vt_out_of_scope_load() {
	local f=$VT_TOP/tests/out-of-scope.tsv t fs why build=0
	[ "$VT_OUT_OF_SCOPE_LOADED" = 1 ] && return 0
	VT_OUT_OF_SCOPE_LOADED=1
	[ -f "$f" ] || return 0
	[ -f "$VT_TOP/Makefile" ] && build=1
	while IFS=$'\t' read -r t fs why; do
		[ -n "$why" ] && [ -x "$VT_TOP/tests/$t" ] || continue
		[ "$build" = 0 ] || [ ! "$VT_TOP/tests/$t" -nt "$f" ] || continue
		VT_OUT_OF_SCOPE["$fs|$t"]=$why
	done <"$f"
}

# Why test T never runs on run I's filesystem (VT_WHY), or nothing: an
# expunge list's reason ("expunged: ..."), else the table's.
vt_not_for_run_var() { # run-index test -> VT_WHY
	vt_expunge_reason_var "${VT_S_FS[$1]}" "$2"
	if [ -n "$VT_WHY" ]; then
		VT_WHY="expunged: $VT_WHY"
	else
		VT_WHY=${VT_OUT_OF_SCOPE["${VT_S_FS[$1]}|$2"]:-}
	fi
}

vt_run_section() { # run index
	local i=$1 t dir
	vt_phase "${VT_S_NAME[$i]}" - section
	vt_prepare_fs "$i"
	vt_phase "${VT_S_NAME[$i]}" - prepare
	vt_report_section "$i"
	dir="${VT_STAGE:?}/${VT_S_NAME[$i]}"
	VT_TIMES_NEW=()
	# check.time: the last published run's times; the section's file is
	# carried into this run's staging and updated there (common/progress.sh)
	vt_times_load "${VT_RESULT_DIR:?}/${VT_S_NAME[$i]}"
	if [ ! -f "$dir/check.time" ] && [ -f "${VT_RESULT_DIR:?}/${VT_S_NAME[$i]}/check.time" ]; then
		{ mkdir -p "$dir" && cp -- "${VT_RESULT_DIR:?}/${VT_S_NAME[$i]}/check.time" "$dir/check.time"; } ||
			vt_write_failed "$dir/check.time"
	fi
	# the last test that goes to the executor: checked even when notrun
	# (common/fsck.sh)
	local k
	vt_out_of_scope_load
	VT_FSCK_LAST=""
	for ((k = ${#VT_SELECTED[@]} - 1; k >= 0; k--)); do
		vt_not_for_run_var "$i" "${VT_SELECTED[$k]}"
		[ -n "$VT_WHY" ] || { VT_FSCK_LAST=${VT_SELECTED[$k]}; break; }
	done
	VT_FSCK_PENDING[$i]=""
	for t in "${VT_SELECTED[@]}"; do
		vt_interrupted && break
		[ -n "$VT_WRITE_ERROR" ] && break
		VT_T_TIME=0 VT_T_MS=0 VT_T_KTAP="" VT_T_XML="" VT_T_COUNTED="" VT_T_REASON="" VT_T_FAIL_TYPE="" VT_T_ERROR_TYPE="" VT_KMSG_HITS=""
		VT_T_OWN_FAIL="" VT_T_OWN_REASON="" VT_T_KMSG_REASON="" VT_T_FSCK_REASON=""
		# expunged, or ruled out by the filesystem table: no executor
		vt_not_for_run_var "$i" "$t"
		if [ -n "$VT_WHY" ]; then
			VT_T_RESULT=notrun VT_T_REASON=$VT_WHY
		elif [ -n "$VT_FS_NOTRUN" ]; then
			VT_T_RESULT=notrun VT_T_REASON=$VT_FS_NOTRUN
		elif [ -n "$VT_FS_ERROR" ]; then
			VT_T_RESULT=error VT_T_ERROR_TYPE=setup VT_T_REASON="setup: $VT_FS_ERROR"
		else
			vt_run_one "$i" "$t" "$dir/${t%/*}"
		fi
		[ -n "$VT_WRITE_ERROR" ] && break
		vt_phase "${VT_S_NAME[$i]}" "$t" files
		vt_report_test "$i" "$t"
		vt_phase "${VT_S_NAME[$i]}" "$t" report
		[ "$VT_T_RESULT" = pass ] && vt_times_record "$dir" "$t" "$VT_T_TIME"
		[ "$VT_T_RESULT" = fail ] && [ -n "$VT_T_KTAP" ] && vt_loop_on_fail "$i" "$t" "$dir/${t%/*}"
	done
	vt_sysctl_lock_release   # a sharer's lock, kept from test to test
	[ -n "$VT_WRITE_ERROR" ] || vt_times_flush "$dir"
	[ -n "$VT_WRITE_ERROR" ] || vt_coverage_section "$i" "$dir"
	vt_phase "${VT_S_NAME[$i]}" - coverage
	if [ -n "${VT_S_SCRATCH[$i]:-}" ]; then
		vt_rm -r "${VT_S_SCRATCH[$i]}"
		VT_S_SCRATCH[$i]=""
	fi
}
