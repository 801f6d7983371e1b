# Order and repetition, with xfstests' flags: -r (the seed is printed),
# -i/-I (iterations; -I stops after an iteration with a failure) and -L
# (a failing test runs again, the aggregate is printed). Option parsing is
# in options.sh, the ordering itself in tests.sh (vt_order_tests).

VT_ITER=1

# -r: say which seed gave this order, so that it can be repeated.
vt_announce_order() {
	[ "$VT_RANDOMIZE" = 1 ] || return 0
	local line="randomized order: seed $VT_ORDER_SEED (./check -r --seed $VT_ORDER_SEED repeats it)"
	echo "$line"
	[ -n "${VT_STAGE:-}" ] && vt_log "$line"
	return 0
}

# -I: what is left (sections, iterations) is not run. results.ktap planned
# it all (vt_report_begin): its plan becomes the number of results written,
# so the document stays whole.
vt_stop_iterating() {
	local line="Stopped in iteration $VT_ITER of $VT_ITERATIONS after ${VT_S_NAME[$section]}: a test failed (-I)"
	echo "$line"
	vt_log "$line"
	local k="${VT_STAGE:?}/results.ktap"
	[ -f "$k" ] || return 0
	grep -q "^1\.\.$VT_N\$" "$k" && return 0
	awk -v n="$VT_N" 'NR == 2 && /^1\.\.[0-9]+$/ { print "1.." n; next } { print }' "$k" >"$k.tmp" &&
		mv -f "$k.tmp" "$k" || { vt_write_failed "$k"; return 1; }
}

# The files of one run of a test, kept aside as run number K.
vt_stash_run() { # base k
	local f
	mkdir -p "${VT_WORKDIR:-${VT_RUNDIR:?}}/rerun" || return 1
	for f in "$1".*; do
		[ -f "$f" ] || continue
		cp -p "$f" "${VT_WORKDIR:-${VT_RUNDIR:?}}/rerun/$(basename "$f").rerun$2" || return 1
	done
}

# -L N: TEST just failed; run it up to N more times. Only the first run
# counts in the results (check.log, results.ktap, result.xml); each rerun
# gets a line on the terminal and in check.log, and its files are kept as
# NNN.full.rerunK, NNN.ktap.rerunK, ... The first run's files stay under
# their own names, so the failure report points at them.
vt_loop_on_fail() { # run-index test suite-result-dir
	local i=$1 t=$2 dir=$3 k base="$3/${2##*/}" f stats=(fail)
	[ "$VT_LOOP_ON_FAIL" -gt 0 ] || return 0
	vt_rm -r "${VT_WORKDIR:-${VT_RUNDIR:?}}/rerun"
	vt_stash_run "$base" 0 || return 0
	for ((k = 1; k <= VT_LOOP_ON_FAIL; k++)); do
		vt_interrupted && break
		vt_run_one "$i" "$t" "$dir"
		stats+=("$VT_T_RESULT")
		printf '%-14s rerun %d of %d: %s %ss%s\n' "$t" "$k" "$VT_LOOP_ON_FAIL" "$VT_T_RESULT" \
			"$VT_T_TIME" "${VT_T_REASON:+ ($VT_T_REASON)}"
		vt_log "$t rerun $k: $VT_T_RESULT ${VT_T_TIME}s${VT_T_REASON:+ $VT_T_REASON}"
		vt_stash_run "$base" "$k"
	done
	# The first run's files back under their names, the reruns' beside them.
	vt_rm "$base".*
	for f in "${VT_WORKDIR:-${VT_RUNDIR:?}}"/rerun/*; do
		[ -f "$f" ] || continue
		case "$f" in
		*.rerun0) cp -p "$f" "$dir/$(basename "${f%.rerun0}")" ;;
		*) cp -p "$f" "$dir/" ;;
		esac
	done
	vt_rm -r "${VT_WORKDIR:-${VT_RUNDIR:?}}/rerun"
	local line
	line=$(printf '%s\n' "${stats[@]}" | sort | uniq -c |
		awk -v n="${#stats[@]}" '{ printf "%s%s=%d (%.1f%%)", (NR > 1 ? ", " : ""), $2, $1, 100 * $1 / n }')
	echo "$t aggregate results across ${#stats[@]} runs: $line"
	vt_log "$t aggregate results across ${#stats[@]} runs: $line"
}
