# -j N: the sections (filesystems) of one iteration run side by side, up
# to N at a time, and come out as a run with -j 1 would give them.
#
# Each section runs in a worker: a subshell of check running
# vt_run_section as -j 1 does, with its own copies of the counters and
# with everything it would append to a file shared by all sections
# (check.log, results.ktap, result.xml's testcases, rule-coverage.tsv,
# check.time) and its per-test files in a staging of its own
# (STAGE/.jobs/I, on the results' filesystem), its terminal lines in files
# (RUNDIR/jobs/I/out, err) and check's scratch files (the test's output,
# the watchdog's FIFO, the probe's status) in RUNDIR/jobs/I
# (VT_WORKDIR). Its images are per section already (RUNDIR/SECTION.img,
# common/fs.sh); every test still gets its own mount and pid namespace
# from runner/vfsidmap-exec, so the mounts of two sections never meet.
# Sections that share a configured TEST_DEV, TEST_DIR or SCRATCH_DEV never
# run at the same time.
#
# check itself merges the finished sections in section order: the
# terminal lines (the first unfinished section's as they come), the
# shared files appended, KTAP results renumbered only when an earlier
# section was cut short, per-test files moved into the staging, counters
# added. Signals are forwarded to the workers, which end their test as
# -j 1 does; a worker whose check is gone (SIGKILL) is killed with its
# processes by its guard. What cannot be the same as with -j 1: the
# kernel log of a test holds what tests of other sections running at
# that moment made the kernel print (a WARNING fails each test that was
# running), and there is no status line.

VT_JOBS=""
VT_JOBS_MAX=1024
VT_WORKDIR=""

# The default of -j: the number of online CPUs.
vt_jobs_default() {
	local n
	[ -n "$VT_JOBS" ] && return 0
	n=$(nproc 2>/dev/null) || n=1
	[[ "$n" =~ ^[1-9][0-9]*$ ]] || n=1
	[ "$n" -le "$VT_JOBS_MAX" ] || n=$VT_JOBS_MAX
	VT_JOBS=$n
}

# Does this iteration run in workers?
vt_jobs_parallel() {
	[ "${VT_JOBS:-1}" -gt 1 ] && [ ${#VT_SECTIONS[@]} -gt 1 ]
}

# What a section must not share with a section running beside it: its
# configured devices and directories (resolved, so that two names of one
# device match). Sections of images the suite makes share nothing.
declare -A VT_JOB_KEYS=()
vt_jobs_keys() {
	local i p k
	for i in "${VT_SECTIONS[@]}"; do
		k=" "
		for p in "${VT_S_DEV[$i]}" "${VT_S_DIR[$i]}" "${VT_S_SCRATCH_DEV[$i]:-}"; do
			[ -n "$p" ] || continue
			k+="$(readlink -f -- "$p" 2>/dev/null || echo "$p") "
		done
		VT_JOB_KEYS[$i]=$k
	done
}

# ------------------------------------------------------------ the worker

# Runs section I in the background; its pid in VT_JOB_PID.
vt_job_start() { # run-index position first-N
	local i=$1 jd="${VT_RUNDIR:?}/jobs/$1" js="${VT_STAGE:?}/.jobs/$1" name=${VT_S_NAME[$1]}
	vt_rm -r "$jd" "$js"
	# (out and err exist before the worker starts: check may stream them
	# at once, before the worker has opened them)
	mkdir -p "$jd" "$js" && : >"$jd/out" && : >"$jd/err" || { vt_write_failed "$js"; return 1; }
	# the section's check.time of an earlier iteration is where -j 1
	# would find it
	if [ -f "${VT_STAGE:?}/$name/check.time" ]; then
		{ mkdir -p "$js/$name" && cp -- "${VT_STAGE:?}/$name/check.time" "$js/$name/check.time"; } ||
			{ vt_write_failed "$js/$name/check.time"; return 1; }
	fi
	( vt_job_worker "$i" "$jd" "$js" "$3" "$VT_JOB_TICK" ${VT_JOB_FD[@]+${VT_JOB_FD[@]}} ) &
	VT_JOB_PID=$!
}

vt_job_worker() { # run-index job-dir job-stage first-N fds-of-check...
	local i=$1 jd=$2 js=$3 first=$4 fd
	shift 4
	# check's own descriptors are not the section's (nor its tests')
	for fd in "$@"; do exec {fd}<&-; done
	# the locks stay with check alone (a worker outliving it must not
	# keep RESULTS locked)
	exec 6>&- 8>&- 9>&- </dev/null >"$jd/out" 2>"$jd/err"
	VT_STAGE=$js VT_WORKDIR=$jd VT_PROGRESS_FILE="" VT_WRITE_ERROR=""
	VT_N=$first VT_N_PASS=0 VT_N_FAIL=0 VT_N_SKIP=0 VT_N_ERR=0
	VT_C_PASS=0 VT_C_FAIL=0 VT_C_SKIP=0 VT_C_TL=0
	VT_FAILED_LIST=() VT_NOTRUN_LIST=() VT_ERROR_LIST=()
	: >"$js/check.log" && : >"$js/results.ktap" && : >"$js/.result.xml.part" && : >"$js/rule-coverage.tsv" ||
		vt_write_failed "$js"
	[ -n "$VT_WRITE_ERROR" ] || vt_run_section "$i"
	# what check adds to its own (printf %q: read back with eval)
	{
		printf 'J_N=%d J_PASS=%d J_FAIL=%d J_SKIP=%d J_ERR=%d J_CP=%d J_CF=%d J_CS=%d J_CT=%d\n' \
			"$((VT_N - first))" "$VT_N_PASS" "$VT_N_FAIL" "$VT_N_SKIP" "$VT_N_ERR" "$VT_C_PASS" "$VT_C_FAIL" "$VT_C_SKIP" "$VT_C_TL"
		vt_job_list J_FAILED ${VT_FAILED_LIST[@]+"${VT_FAILED_LIST[@]}"}
		vt_job_list J_NOTRUN ${VT_NOTRUN_LIST[@]+"${VT_NOTRUN_LIST[@]}"}
		vt_job_list J_ERRORS ${VT_ERROR_LIST[@]+"${VT_ERROR_LIST[@]}"}
		printf 'J_INTERRUPTED=%q J_FSCK_OFF=%q\n' "$VT_INTERRUPTED" "${VT_FSCK_OFF[$i]:-}"
		printf 'J_WRITE_ERROR=%q\n' "$VT_WRITE_ERROR"
	} >"$jd/state.tmp" || exit 3
	# (on its own too, for check to read without evaluating the state)
	if [ -n "$VT_WRITE_ERROR" ]; then printf '%s\n' "$VT_WRITE_ERROR" | tr '\n' ' ' >"$jd/write-error" || exit 3; fi
	mv -f -- "$jd/state.tmp" "$jd/state" || exit 3
	exit 0
}

vt_job_list() { # name elements... -> "name=(quoted elements)"
	local name=$1 e
	shift
	printf '%s=(' "$name"
	for e in "$@"; do printf '%q ' "$e"; done
	printf ')\n'
}

# Start time of PID (proc(5) field 22) without a fork -> VT_ST ("" if gone).
vt_job_starttime() { # pid
	local s
	VT_ST=""
	read -r s 2>/dev/null </proc/"$1"/stat || return 1
	s=${s##*) }
	set -- $s
	VT_ST=${20:-}
}

# Kills PID and every process below it, stopping each first so that none
# forks away meanwhile.
vt_job_kill_tree() { # pid
	local c
	kill -STOP "$1" 2>/dev/null || return 0
	for c in $(pgrep -P "$1" 2>/dev/null); do vt_job_kill_tree "$c"; done
	kill -KILL "$1" 2>/dev/null
}

# The guard of worker PID: when check is gone (SIGKILL) it kills the worker
# with its executor, test and tools; it ends with the worker.
vt_job_guard() { # worker-pid
	local w=$1 wst cst
	(
		exec 6>&- 8>&- 9>&- 3<>"${VT_RUNDIR:?}/jobs/tick" </dev/null >/dev/null 2>&1
		vt_job_starttime "$w"; wst=$VT_ST
		vt_job_starttime "$VT_CHECK_PID"; cst=$VT_ST
		[ -n "$wst" ] && [ -n "$cst" ] || exit 0
		while :; do
			vt_job_starttime "$w"; [ "$VT_ST" = "$wst" ] || exit 0
			vt_job_starttime "$VT_CHECK_PID"; [ "$VT_ST" = "$cst" ] || break
			read -r -t 1 -u 3 _
		done
		vt_job_kill_tree "$w"
	) &
	VT_JOB_GUARD=$!
}

# ------------------------------------------------------------ check's side

declare -A VT_JOB_FD=()   # run index -> "out-fd err-fd" while streaming

# Copies what section I's worker wrote to its terminal since the last call.
vt_job_stream() { # run-index
	local i=$1 fds line fd tgt
	if [ -z "${VT_JOB_FD[$i]:-}" ]; then
		exec {fd}<"${VT_RUNDIR:?}/jobs/$i/out" || return 0
		fds=$fd
		exec {fd}<"${VT_RUNDIR:?}/jobs/$i/err" || fd=""
		VT_JOB_FD[$i]="$fds $fd"
	fi
	read -r fd tgt <<<"${VT_JOB_FD[$i]}"
	# a line not finished yet is printed as far as it goes; the rest follows
	while IFS= read -r -u "$fd" line; do printf '%s\n' "$line"; done
	[ -z "$line" ] || printf '%s' "$line"
	[ -n "$tgt" ] || return 0
	while IFS= read -r -u "$tgt" line; do printf '%s\n' "$line" >&2; done
	[ -z "$line" ] || printf '%s' "$line" >&2
}

vt_job_stream_close() { # run-index
	local a b
	[ -n "${VT_JOB_FD[$1]:-}" ] || return 0
	read -r a b <<<"${VT_JOB_FD[$1]}"
	exec {a}<&-
	[ -z "$b" ] || exec {b}<&-
	unset 'VT_JOB_FD[$1]'
}

# A write of the merge: appends FILE to TARGET.
vt_job_append() { # file target
	[ -s "$1" ] || return 0
	cat -- "$1" >>"$2" || vt_write_failed "$2"
}

# Adds finished section I to this run as -j 1 would have written it.
vt_job_merge() { # run-index
	local i=$1 jd="${VT_RUNDIR:?}/jobs/$1" js="${VT_STAGE:?}/.jobs/$1" name=${VT_S_NAME[$1]} err f
	local J_N=0 J_PASS=0 J_FAIL=0 J_SKIP=0 J_ERR=0 J_CP=0 J_CF=0 J_CS=0 J_CT=0 J_WRITE_ERROR="" J_INTERRUPTED=0 J_FSCK_OFF=""
	local -a J_FAILED=() J_NOTRUN=() J_ERRORS=()
	vt_job_stream "$i"
	vt_job_stream_close "$i"
	# (the worker's state, written by printf %q)
	. "$jd/state"
	if [ -n "$J_WRITE_ERROR" ]; then
		VT_WRITE_ERROR=${VT_WRITE_ERROR:-$J_WRITE_ERROR}
		return 1
	fi
	vt_job_append "$js/check.log" "${VT_STAGE:?}/check.log"
	if [ "$VT_N" = "$VT_JOB_FIRST_N" ]; then
		vt_job_append "$js/results.ktap" "${VT_STAGE:?}/results.ktap"
	else
		# an earlier section was cut short (interrupted): the results are
		# numbered on from where it ended
		awk -v base="$((VT_N - VT_JOB_FIRST_N))" '
			/^ok [0-9]+ / { $2 = $2 + base } /^not ok [0-9]+ / { $3 = $3 + base } { print }' \
			"$js/results.ktap" >>"${VT_STAGE:?}/results.ktap" || vt_write_failed "${VT_STAGE:?}/results.ktap"
	fi
	vt_job_append "$js/.result.xml.part" "${VT_STAGE:?}/.result.xml.part"
	vt_job_append "$js/rule-coverage.tsv" "${VT_STAGE:?}/rule-coverage.tsv"
	# check.time: the tests this section passed get its times, one line
	# each, sorted (vt_times_record)
	if [ -s "$js/check.time" ]; then
		f="${VT_STAGE:?}/check.time"
		{
			[ -r "$f" ] && awk 'NR == FNR { t[$1] = 1; next } !($1 in t)' "$js/check.time" "$f"
			cat -- "$js/check.time"
		} | sort >"$f.tmp" && mv -f -- "$f.tmp" "$f" || { vt_rm "$f.tmp"; vt_write_failed "$f"; }
	fi
	# the section's own directory: moved in whole, or (an earlier
	# iteration's) files replaced one by one
	if [ -d "$js/$name" ]; then
		if [ ! -e "${VT_STAGE:?}/$name" ]; then
			err=$(mv -T -- "$js/$name" "${VT_STAGE:?}/$name" 2>&1) || vt_write_failed "${VT_STAGE:?}/$name (${err##*: })"
		else
			err=$(cp -a -f -- "$js/$name/." "${VT_STAGE:?}/$name/" 2>&1) || vt_write_failed "${VT_STAGE:?}/$name (${err##*: })"
		fi
	fi
	vt_rm -r "$js" "$jd"
	VT_N=$((VT_N + J_N)) VT_N_PASS=$((VT_N_PASS + J_PASS)) VT_N_FAIL=$((VT_N_FAIL + J_FAIL))
	VT_N_SKIP=$((VT_N_SKIP + J_SKIP)) VT_N_ERR=$((VT_N_ERR + J_ERR))
	VT_C_PASS=$((VT_C_PASS + J_CP)) VT_C_FAIL=$((VT_C_FAIL + J_CF)) VT_C_SKIP=$((VT_C_SKIP + J_CS))
	VT_C_TL=$((VT_C_TL + J_CT))
	VT_FAILED_LIST+=(${J_FAILED[@]+"${J_FAILED[@]}"})
	VT_NOTRUN_LIST+=(${J_NOTRUN[@]+"${J_NOTRUN[@]}"})
	VT_ERROR_LIST+=(${J_ERRORS[@]+"${J_ERRORS[@]}"})
	[ -n "$J_FSCK_OFF" ] && VT_FSCK_OFF[$i]=$J_FSCK_OFF
	[ "$J_INTERRUPTED" = 1 ] && VT_INTERRUPTED=1
	[ -z "$VT_WRITE_ERROR" ]
}

# Did section I's worker fail to write? Sets VT_WRITE_ERROR (the first).
vt_job_write_error() { # run-index
	local msg=""
	[ -f "${VT_RUNDIR:?}/jobs/$1/write-error" ] || return 1
	IFS= read -r msg <"${VT_RUNDIR:?}/jobs/$1/write-error"
	VT_WRITE_ERROR=${VT_WRITE_ERROR:-${msg:-a write of section ${VT_S_NAME[$1]}}}
}

# One iteration over VT_SECTIONS with up to VT_JOBS workers. Leaves
# "section" at the last section merged (vt_stop_iterating names it).
vt_jobs_run() {
	local n=${#VT_SECTIONS[@]} nsel=${#VT_SELECTED[@]} base=$VT_N next=0 head=0 k i p rc tick
	local -a pos_pid=() pos_st=() pos_guard=() pos_done=() pos_rc=() pos_sig=()
	local stop=0 busy running
	VT_JOB_RUNNING=()
	vt_jobs_keys
	mkdir -p "${VT_RUNDIR:?}/jobs" "${VT_STAGE:?}/.jobs" || { vt_write_failed "${VT_STAGE:?}/.jobs"; return; }
	[ -p "${VT_RUNDIR:?}/jobs/tick" ] || mkfifo "${VT_RUNDIR:?}/jobs/tick" || { vt_write_failed "${VT_RUNDIR:?}/jobs/tick"; return; }
	exec {tick}<>"${VT_RUNDIR:?}/jobs/tick"
	VT_JOB_TICK=$tick
	vt_sysctl_lock_prepare || { vt_write_failed "${VT_RUNDIR:?}/sysctl.lock"; return; }
	while [ $head -lt $n ]; do
		# start sections in order while there is room and nothing stops the run
		while [ $next -lt $n ] && [ ${#VT_JOB_RUNNING[@]} -lt "$VT_JOBS" ] && [ $stop = 0 ] &&
			! vt_interrupted && [ -z "$VT_WRITE_ERROR" ]; do
			i=${VT_SECTIONS[$next]}
			busy=0
			for ((k = head; k < next; k++)); do
				[ -z "${pos_done[$k]:-}" ] || continue
				for p in ${VT_JOB_KEYS[$i]}; do
					[[ "${VT_JOB_KEYS[${VT_SECTIONS[$k]}]}" == *" $p "* ]] && busy=1
				done
			done
			[ $busy = 0 ] || break
			vt_job_start "$i" "$next" "$((base + next * nsel))" || break
			pos_pid[$next]=$VT_JOB_PID
			vt_job_starttime "$VT_JOB_PID"
			pos_st[$next]=$VT_ST
			vt_job_guard "$VT_JOB_PID"
			pos_guard[$next]=$VT_JOB_GUARD
			VT_JOB_RUNNING+=("$VT_JOB_PID")
			next=$((next + 1))
		done
		# nothing started and nothing to wait for: the rest is not run
		[ $head -lt $next ] || break
		# reap the workers that ended; stop the others (once each) when
		# the run stops: a signal that came while a worker was being
		# started is passed on here
		running=()
		for ((k = head; k < next; k++)); do
			[ -z "${pos_done[$k]:-}" ] || continue
			# running: the pid is there and is still the worker (not a
			# process that got the pid after bash reaped the worker)
			vt_job_starttime "${pos_pid[$k]}"
			if kill -0 "${pos_pid[$k]}" 2>/dev/null && [ -z "${pos_st[$k]}" -o "$VT_ST" = "${pos_st[$k]}" ]; then
				running+=("${pos_pid[$k]}")
				# -I or a write error: the sections not merged yet are
				# not wanted (a signal needs nothing here: every worker
				# reads it as check does, and runner/vfsidmap-supervise
				# stops the tests)
				if [ $stop != 0 ] && [ -z "${pos_sig[$k]:-}" ]; then
					vt_job_kill_tree "${pos_pid[$k]}"
					pos_sig[$k]=1
				fi
				continue
			fi
			wait "${pos_pid[$k]}"; rc=$?
			kill -KILL "${pos_guard[$k]}" 2>/dev/null; wait "${pos_guard[$k]}" 2>/dev/null
			pos_done[$k]=1 pos_rc[$k]=$rc
			i=${VT_SECTIONS[$k]}
			if [ -f "${VT_RUNDIR:?}/jobs/$i/state" ] && vt_job_write_error "$i"; then
				# a write error stops the run at once (nothing is
				# published): its message now, the rest is not shown
				vt_job_stream_close "$i"
				cat -- "${VT_RUNDIR:?}/jobs/$i/err" >&2
				stop=1
			fi
		done
		VT_JOB_RUNNING=(${running[@]+"${running[@]}"})
		# merge the finished sections at the head, in order
		while [ $head -lt $next ] && [ -n "${pos_done[$head]:-}" ]; do
			i=${VT_SECTIONS[$head]}
			[ "$stop" != 0 ] || section=$i
			VT_JOB_FIRST_N=$((base + head * nsel))
			if [ "$stop" != 0 ]; then
				:   # after -I or a write error stopped the run: not wanted
			elif [ ! -f "${VT_RUNDIR:?}/jobs/$i/state" ]; then
				vt_job_stream "$i"; vt_job_stream_close "$i"
				if [ "${pos_rc[$head]}" = 3 ]; then
					vt_write_failed "${VT_RUNDIR:?}/jobs/$i/state"
				elif ! vt_interrupted; then
					# killed from outside (or bash died): not a result
					VT_INTERRUPTED=1
					VT_SIGNAL=${VT_SIGNAL:-"the death of the worker of section ${VT_S_NAME[$i]} (exit ${pos_rc[$head]})"}
				fi
				vt_log "section ${VT_S_NAME[$i]}: its worker ended (exit ${pos_rc[$head]}) before it could report: its results are not included"
			else
				vt_job_merge "$i" || stop=1
				if [ "$VT_ISTOP" = 1 ] && [ $((VT_N_FAIL + VT_N_ERR)) -gt 0 ]; then
					stop=2
				fi
			fi
			head=$((head + 1))
		done
		[ $head -lt $n ] || break
		[ $stop = 0 ] && [ $head -lt $next ] && vt_job_stream "${VT_SECTIONS[$head]}"
		read -r -t 0.2 -u "$tick" _
	done
	# -I: the sections not merged are not run (as with -j 1)
	for ((k = head; k < next; k++)); do vt_job_stream_close "${VT_SECTIONS[$k]}"; done
	exec {tick}<&-
	vt_rm -r "${VT_STAGE:?}/.jobs" "${VT_RUNDIR:?}/jobs"
	VT_JOB_RUNNING=()
	return 0
}
