# The results directory: one run at a time, nothing half written, a run
# that did not finish never looks like one that did.
#
# - A lock (flock on RESULTS/.lock, which names the holder) admits one run:
#   a second one exits 2 and says who holds it.
# - Everything this run writes goes to RESULTS/.staging.XXXXXX (check.log
#   copied there first and appended to), and is renamed into RESULTS only
#   once complete and fsync'd: results.ktap, result.xml,
#   rule-coverage.tsv, check.log and each <section>/ directory.
# - RESULTS/run.incomplete is written first and removed last: while it is
#   there, the files next to it are not this run's complete results (it
#   says whose they are). After SIGKILL it stays; the next run says so in
#   check.log and on the terminal, and discards the dead run's staging.
# - A write error at any point (ENOSPC, EROFS, EIO, EACCES) stops the run:
#   exit 2, the staging is discarded, the previous files are untouched.
# - SIGINT/SIGTERM/SIGHUP: the partial results are published marked
#   incomplete (KTAP "Bail out!", a JUnit <error>, a check.log line) and
#   run.incomplete says so.

VT_RESULT_DIR=""
VT_STAGE=""
VT_WRITE_ERROR=""
VT_STAGE_MARKER=vfsidmap-staging
VT_DEAD_RUN_NOTE=""

vt_write_failed() { # what
	if [ -z "$VT_WRITE_ERROR" ]; then
		VT_WRITE_ERROR=$1
		echo "check: ERROR: writing $1 failed: the results of this run are lost, stopping (the previous results are left as they were)" >&2
	fi
	return 1
}

# Stdin to FILE: a temporary file next to it, fsync, rename.
vt_put() { # file
	local tmp="$1.tmp.$$"
	if cat >"$tmp" && sync -- "$tmp" && mv -f -- "$tmp" "$1"; then
		return 0
	fi
	rm -f -- "$tmp" 2>/dev/null
	vt_write_failed "$1"
}

vt_results_open() {
	local dir=${VT_RESULTS:-$VT_TOP/results} err holder s pid started
	# From here on a signal ends the run through the normal path (results
	# marked incomplete), also while the filesystems are being set up.
	trap 'vt_on_signal SIGINT' INT
	trap 'vt_on_signal SIGTERM' TERM
	trap 'vt_on_signal SIGHUP' HUP
	if [ -e "$dir" ] && [ ! -d "$dir" ]; then
		echo "check: results directory $dir exists and is not a directory" >&2
		return 2
	fi
	if [ ! -d "$dir" ]; then
		err=$(mkdir -p -- "$dir" 2>&1) || {
			echo "check: cannot create results directory $dir: ${err##*: }" >&2
			return 2
		}
	fi
	VT_RESULT_DIR=$(cd -- "$dir" && pwd -P) || return 2
	if ! { exec 8<>"$VT_RESULT_DIR/.lock"; } 2>/dev/null; then
		echo "check: results directory $VT_RESULT_DIR is not writable" >&2
		return 2
	fi
	if ! flock -n 8; then
		holder=$(head -n 1 "$VT_RESULT_DIR/.lock" 2>/dev/null | cut -c 1-300)
		echo "check: results directory $VT_RESULT_DIR is in use by another run (${holder:-holder unknown}); wait for it to end or give another --results" >&2
		exec 8>&-
		return 2
	fi
	if ! printf 'pid %s, started %s: ./check %s\n' "$$" "$(date -u +%FT%TZ)" "${VT_ARGV:0:200}" \
		>"$VT_RESULT_DIR/.lock" 2>/dev/null; then
		echo "check: results directory $VT_RESULT_DIR is not writable (writing .lock failed)" >&2
		return 2
	fi
	# We hold the lock: a staging directory still here is a dead run's.
	for s in "$VT_RESULT_DIR"/.staging.*; do
		[ -d "$s" ] && [ ! -L "$s" ] && [ -f "$s/$VT_STAGE_MARKER" ] || continue
		pid=$(sed -n 's/^pid=//p' "$s/$VT_STAGE_MARKER" | head -n 1)
		started=$(sed -n 's/^started=//p' "$s/$VT_STAGE_MARKER" | head -n 1)
		VT_DEAD_RUN_NOTE+="the run of pid ${pid:-?} started ${started:-?} did not finish (killed): its partial results were discarded"$'\n'
		rm -rf --one-file-system -- "$s"
	done
	[ -n "$VT_DEAD_RUN_NOTE" ] && printf 'check: %s' "$VT_DEAD_RUN_NOTE" >&2
	VT_STAGE=$(mktemp -d "$VT_RESULT_DIR/.staging.XXXXXX" 2>/dev/null) || {
		echo "check: results directory $VT_RESULT_DIR is not writable (cannot make a staging directory)" >&2
		VT_STAGE=""
		return 2
	}
	if ! printf 'pid=%s\nstarted=%s\n' "$$" "$(date -u +%FT%TZ)" >"$VT_STAGE/$VT_STAGE_MARKER" ||
		! mkdir "$VT_STAGE/.old" ||
		{ [ -f "$VT_RESULT_DIR/check.log" ] && ! cp -- "$VT_RESULT_DIR/check.log" "$VT_STAGE/check.log"; } ||
		{ [ -f "$VT_RESULT_DIR/check.time" ] && ! cp -- "$VT_RESULT_DIR/check.time" "$VT_STAGE/check.time"; } ||
		{ [ -f "$VT_RESULT_DIR/run.incomplete" ] && ! mv -f -- "$VT_RESULT_DIR/run.incomplete" "$VT_STAGE/.old/run.incomplete"; } ||
		! printf 'A run of ./check (pid %s, started %s) has not finished: the other files here are not its results (they are the previous run'"'"'s). Removed when the run completes.\n' \
			"$$" "$(date -u +%FT%TZ)" | vt_put "$VT_RESULT_DIR/run.incomplete" 2>/dev/null; then
		echo "check: results directory $VT_RESULT_DIR is not writable (setting up this run's files failed)" >&2
		vt_results_abort
		return 2
	fi
	VT_WRITE_ERROR=""
}

# Nothing of this run is published: the staging goes, the previous files
# (and a previous run.incomplete) are as they were.
vt_results_abort() {
	[ -n "$VT_STAGE" ] || return 0
	if [ -f "$VT_STAGE/.old/run.incomplete" ]; then
		mv -f -- "$VT_STAGE/.old/run.incomplete" "$VT_RESULT_DIR/run.incomplete" 2>/dev/null
	else
		rm -f -- "$VT_RESULT_DIR/run.incomplete"
	fi
	rm -rf --one-file-system -- "$VT_STAGE"
	VT_STAGE=""
}

# Renames this run's files into place, after fsync. Returns 1 on failure.
vt_results_publish() {
	local d name f
	[ -z "$VT_WRITE_ERROR" ] || return 1
	find "$VT_STAGE" -path "$VT_STAGE/.old" -prune -o -type f -print0 | xargs -0r sync -- ||
		{ vt_write_failed "$VT_STAGE (fsync)"; return 1; }
	for d in "$VT_STAGE"/*/; do
		[ -d "$d" ] || continue
		name=$(basename "$d")
		if [ -e "$VT_RESULT_DIR/$name" ]; then
			mv -T -- "$VT_RESULT_DIR/$name" "$VT_STAGE/.old/$name" || { vt_write_failed "$VT_RESULT_DIR/$name"; return 1; }
		fi
		mv -T -- "$d" "$VT_RESULT_DIR/$name" || { vt_write_failed "$VT_RESULT_DIR/$name"; return 1; }
	done
	for f in results.ktap result.xml rule-coverage.tsv check.time check.log; do
		[ -f "$VT_STAGE/$f" ] || continue
		mv -f -- "$VT_STAGE/$f" "$VT_RESULT_DIR/$f" || { vt_write_failed "$VT_RESULT_DIR/$f"; return 1; }
	done
	sync -- "$VT_RESULT_DIR" 2>/dev/null
	rm -rf --one-file-system -- "$VT_STAGE"
	VT_STAGE=""
}

# The end of a run: publish (complete or interrupted) or abort (write
# error). Prints the exit status check must use.
vt_results_close() { # status of the run
	local status=$1
	if [ -n "$VT_WRITE_ERROR" ] || ! vt_results_publish; then
		vt_results_abort
		echo "check: ERROR: this run's results could not be written ($VT_WRITE_ERROR); exit 2" >&2
		return 2
	fi
	if [ "${VT_REPORT_INCOMPLETE:-1}" = 1 ]; then
		printf 'The run of ./check (pid %s) was interrupted by %s after %s of %s test runs: results.ktap, result.xml and check.log here are its partial results, marked incomplete.\n' \
			"$$" "${VT_SIGNAL:-a signal}" "$VT_N" "$(( ${#VT_SECTIONS[@]} * ${#VT_SELECTED[@]} ))" |
			vt_put "$VT_RESULT_DIR/run.incomplete" || return 2
	elif [ "$VT_INTERRUPTED" = 1 ]; then
		echo "check: ${VT_SIGNAL:-a signal} came after every result was written: the results are complete" >&2
	fi
	if [ "${VT_REPORT_INCOMPLETE:-1}" = 0 ] && ! rm -f -- "$VT_RESULT_DIR/run.incomplete"; then
		echo "check: ERROR: removing $VT_RESULT_DIR/run.incomplete failed: the run is complete but marked incomplete; exit 2" >&2
		return 2
	fi
	return "$status"
}
