# While a test runs: a status line on a terminal ("matrix/002 12,345/23,100
# cases 1,830/s"), from the counts the test's KTAP writer puts in
# VT_PROGRESS (lib/report/progress.c). Not a terminal (CI logs): nothing.
# After it: check.time, xfstests' file of "test seconds" lines (passing
# runs only), kept across runs in the results directory, and the last
# time printed before the new one as xfstests does ("001 12s ... 11s").

VT_PROGRESS_FILE=""
declare -A VT_LAST_TIME=()

# Standard output going away (./check ... | head, a log reader that quit)
# must not end the run: bash would die of SIGPIPE at its next line, with
# the results left unpublished. With SIGPIPE caught (not ignored: the
# executor and the tests start with it at its default) the write fails
# with EPIPE instead, once, and from then on the terminal's lines go to
# /dev/null: the run goes on, publishes its results and ends with its own
# status. Stderr goes too when it is the same pipe. (SIGPIPE is no signal
# runner/vfsidmap-supervise takes for check: it comes from check's own
# write, in that builtin, never from outside at an unknown instant.)
vt_stdout_guard() {
	trap vt_stdout_gone PIPE
}

vt_stdout_gone() {
	if [ -p /dev/fd/1 ] || [ -S /dev/fd/1 ]; then
		[[ /dev/fd/2 -ef /dev/fd/1 ]] && exec 2>/dev/null
		exec >/dev/null
	elif [ -p /dev/fd/2 ] || [ -S /dev/fd/2 ]; then
		exec 2>/dev/null
	fi
}

# On a terminal, the file the test writes its counts to; else "".
vt_progress_prepare() {
	VT_PROGRESS_FILE=""
	[ -t 1 ] && [ "${VT_NO_PROGRESS:-0}" != 1 ] || return 0
	VT_PROGRESS_FILE="${VT_RUNDIR:?}/progress"
	: >"$VT_PROGRESS_FILE" && chmod 0666 "$VT_PROGRESS_FILE" || VT_PROGRESS_FILE=""
}

vt_thousands() { # number -> VT_TH with "," every three digits
	local n=$1 out=""
	while [ ${#n} -gt 3 ]; do out=",${n: -3}$out" n=${n:0:${#n}-3}; done
	VT_TH=$n$out
}

# Waits for the executor (VT_CHILD), drawing the status line meanwhile;
# the exit status in VT_RC.
vt_progress_wait() { # test
	if [ -n "$VT_PROGRESS_FILE" ]; then
		local start=${EPOCHREALTIME/[.,]/} now done total rate d t r
		while kill -0 "$VT_CHILD" 2>/dev/null; do
			sleep 0.5
			done="" total=""
			read -r done total <"$VT_PROGRESS_FILE" 2>/dev/null
			[[ "$done" =~ ^[0-9]+$ ]] && [[ "$total" =~ ^[0-9]+$ ]] || continue
			now=${EPOCHREALTIME/[.,]/}
			rate=$(( done * 1000000 / (now - start + 1) ))
			vt_thousands "$done"; d=$VT_TH
			vt_thousands "$total"; t=$VT_TH
			vt_thousands "$rate"; r=$VT_TH
			printf '\r\033[K%-14s %s/%s cases %s/s' "$1" "$d" "$t" "$r"
		done
		printf '\r\033[K'
		: >"$VT_PROGRESS_FILE"
	fi
	wait "$VT_CHILD"
	VT_RC=$?
}

# The times of the last runs: the results directory's check.time, then the
# section's own (a section is one filesystem: its times are its own).
vt_times_load() { # section-result-dir
	local t s
	VT_LAST_TIME=()
	for f in "${VT_RESULT_DIR:?}/check.time" "$1/check.time"; do
		[ -r "$f" ] || continue
		while read -r t s; do
			[[ "$s" =~ ^[0-9]+$ ]] && VT_LAST_TIME[$t]=$s
		done <"$f"
	done
	return 0
}

# "12s" when TEST has a time from an earlier run, else "".
vt_times_last() { # test -> VT_LAST
	VT_LAST=${VT_LAST_TIME[$1]+${VT_LAST_TIME[$1]}s}
}

# Records a passing run's whole seconds for the section's check.time and
# the results directory's (merged: one line per test, the latest time).
# Kept in memory and written once, at the end of the section
# (vt_times_flush): a sort and a rename per test cost forks, and the
# staging is published only after the section's loop is left anyway.
# Only a run of every case of the test is its time: a --case or --shard
# run is a part of it (a one-case run took 0s), and recording that would
# make the next full run's "last time" and -j's ordering by time wrong.
declare -A VT_TIMES_NEW=()
vt_times_record() { # section-result-dir test seconds
	[ -z "${VT_CASE:-}" ] && [ -z "${VT_SHARD:-}" ] || return 0
	VT_TIMES_NEW[$2]=$3
}

# Writes the times recorded since the last flush into the section's
# check.time and the run's, in this run's staging (published with the
# rest, common/results.sh).
vt_times_flush() { # section-result-dir
	local f t
	[ ${#VT_TIMES_NEW[@]} -gt 0 ] || return 0
	mkdir -p "$1" || { vt_write_failed "$1"; return 1; }
	for f in "$1/check.time" "${VT_STAGE:?}/check.time"; do
		{
			# the earlier lines of the tests recorded now go
			if [ -r "$f" ]; then
				awk 'NR == FNR { t[$0] = 1; next } !($1 in t)' <(printf '%s\n' "${!VT_TIMES_NEW[@]}") "$f"
			fi
			for t in "${!VT_TIMES_NEW[@]}"; do echo "$t ${VT_TIMES_NEW[$t]}"; done
		} | sort >"$f.tmp" && mv -f "$f.tmp" "$f" ||
			{ vt_rm "$f.tmp"; vt_write_failed "$f"; return 1; }
	done
	VT_TIMES_NEW=()
}
