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
			lines+=$(printf '%s' "${VT_CASE_EXPUNGES["$1|$o"]:-}${VT_CASE_EXPUNGES["*|$o"]:-}" |
				sed "/./s|^|$o/|")
			[ -n "$lines" ] && [ "${lines: -1}" != $'\n' ] && lines+=$'\n'
		done
	fi
	[ -n "$lines" ] || return 0
	VT_EXPF="$VT_RUNDIR/expunge.$1.${2//\//_}"
	printf '%s' "$lines" >"$VT_EXPF"
}

vt_now_us() { VT_NOW=${EPOCHREALTIME/[.,]/}; }

vt_run_one() { # run-index test resdir
	local i=$1 t=$2 dir=$3 base rc start status reason expf
	base="$dir/${t##*/}"
	[ -d "$dir" ] || mkdir -p "$dir"
	rm -f "$base".*
	vt_case_expunge_file "${VT_S_FS[$i]}" "$t"
	expf=$VT_EXPF
	case_only=""
	[ -n "$VT_CASE" ] && case_only=${VT_CASE#"$t"/}
	vt_now_us
	start=$VT_NOW
	VT_TEST_ID="$t" VT_CASE="$case_only" VT_SEED="$VT_SEED" VT_SHARD="$VT_SHARD" VT_EXPUNGE="$expf" \
		VT_RULE_COVERAGE="$base.rules" VT_PROGRESS="$VT_PROGRESS_FILE" \
		"$VT_EXEC" --fstype "${VT_S_FS[$i]}" --source "$VT_FS_SOURCE" --mnt "$VT_FS_MNT" \
		--mount-options "${VT_S_MOPTS[$i]}" --timeout "${VT_S_TIMEOUT[$i]}" \
		--status "$base.status" -- "$VT_TOP/tests/$t" >"$base.ktap" 2>"$base.stderr" &
	VT_CHILD=$!
	vt_progress_wait "$t"
	rc=$VT_RC
	# A signal interrupts wait: wait for the executor to be gone for real.
	while kill -0 "$VT_CHILD" 2>/dev/null; do wait "$VT_CHILD"; rc=$?; done
	VT_CHILD=""
	vt_now_us
	# wall time in ms; VT_T_TIME in whole seconds for the terminal
	VT_T_MS=$(( (VT_NOW - start) / 1000 ))
	VT_T_TIME=$(( VT_T_MS / 1000 ))
	status=""
	[ -r "$base.status" ] && IFS= read -r status <"$base.status"
	[ -n "$status" ] || status="error: no status (executor exit $rc)"
	local stamp
	TZ=UTC printf -v stamp '%(%FT%TZ)T' -1
	{
		echo "== $t on ${VT_S_NAME[$i]} (FSTYP=${VT_S_FS[$i]}), $stamp, ${VT_T_MS}ms"
		echo "== status: $status (exit $rc)"
		echo "== KTAP"
		cat "$base.ktap"
		if [ -s "$base.stderr" ]; then
			echo "== stderr"
			cat "$base.stderr"
		fi
	} >"$base.full"
	rm -f "$base.status" "$base.stderr"
	reason=""
	case $rc in
	0) VT_T_RESULT=pass ;;
	4) VT_T_RESULT=notrun
	   reason=$(sed -n 's/^1\.\.0 # SKIP //p' "$base.ktap" | head -n 1)
	   # Every case skipped on its own: give the first case's reason.
	   [ -n "$reason" ] || reason=$(sed -n 's/^ *ok [0-9]* \([^ ]*\) # SKIP /\1: /p' "$base.ktap" | head -n 1)
	   [ -n "$reason" ] || reason="test said notrun" ;;
	124) VT_T_RESULT=fail; reason="timeout: killed after ${VT_S_TIMEOUT[$i]}s (-T)" ;;
	*) VT_T_RESULT=fail
	   if [ "$VT_INTERRUPTED" = 1 ]; then reason="interrupted"
	   elif [ "$rc" -gt 128 ] && [ "$rc" != 255 ]; then reason=$status
	   elif [ "$rc" != 1 ] || [ "$status" != fail ]; then reason=$status
	   fi ;;
	esac
	if [ "$VT_T_RESULT" = fail ]; then
		cp "$base.ktap" "$base.out.bad"
		[ -n "$reason" ] && echo "# $reason" >>"$base.out.bad"
	fi
	VT_T_REASON=$reason
	VT_T_KTAP="$base.ktap"
}

vt_run_section() { # run index
	local i=$1 t dir
	vt_prepare_fs "$i"
	vt_report_section "$i"
	dir="$VT_RESULT_DIR/${VT_S_NAME[$i]}"
	vt_times_load "$dir"
	# -i/-I: the later iterations keep the section's files (check.time)
	[ "$VT_ITER" -gt 1 ] || rm -rf "$dir"
	for t in "${VT_SELECTED[@]}"; do
		[ "$VT_INTERRUPTED" = 1 ] && break
		VT_T_TIME=0 VT_T_MS=0 VT_T_KTAP="" VT_T_REASON=""
		local why_expunged
		vt_expunge_reason_var "${VT_S_FS[$i]}" "$t"
		why_expunged=$VT_WHY
		if [ -n "$why_expunged" ]; then
			VT_T_RESULT=notrun VT_T_REASON="expunged: $why_expunged"
		elif [ -n "$VT_FS_NOTRUN" ]; then
			VT_T_RESULT=notrun VT_T_REASON=$VT_FS_NOTRUN
		elif [ -n "$VT_FS_ERROR" ]; then
			VT_T_RESULT=fail VT_T_REASON="setup: $VT_FS_ERROR"
		else
			vt_run_one "$i" "$t" "$dir/${t%/*}"
		fi
		vt_report_test "$i" "$t"
		[ "$VT_T_RESULT" = pass ] && vt_times_record "$dir" "$t" "$VT_T_TIME"
		[ "$VT_T_RESULT" = fail ] && [ -n "$VT_T_KTAP" ] && vt_loop_on_fail "$i" "$t" "$dir/${t%/*}"
	done
	vt_coverage_section "$i" "$dir"
}
