# The results directory: one run at a time, nothing half written, a run
# that did not finish never looks like one that did.
#
# - A lock (flock on RESULTS/.lock, which names the holder) admits one run:
#   a second one exits 2 and says who holds it.
# - Everything this run writes goes to a sibling of RESULTS,
#   PARENT/.vfsidmap-stage.NAME.XXXXXX (check.log and check.time copied
#   there first and appended to). A results directory's name may not start
#   with ".vfsidmap-", so no user-chosen name has that form; and a staging
#   is recognised by its marker (.vfsidmap-staging: its own path and the
#   results directory it is for), never by its name alone, so one results
#   directory's run never touches another's staging.
# - Publishing is one step: once the staging holds the complete new
#   results (the entries of RESULTS this run does not replace are carried
#   over as hard links) and is fsync'd, it is swapped with RESULTS by
#   renameat2(RENAME_EXCHANGE) (vfsidmap-tool exchange); RESULTS gets a
#   marker first (role=old), so the swapped-out results are known as such.
#   A reader sees the old results or the new ones, never a mixture; a
#   failure before the swap leaves RESULTS as it was.
# - The swapped-out old results are removed only as far as check can prove
#   it wrote them: RESULTS/.vfsidmap-results lists (NUL-separated) every
#   file check published; a file of the old directory goes if that list
#   names it or if it is a hard link of the same file still in RESULTS
#   (carried over). Anything else (a file changed meanwhile) is kept in
#   PARENT/NAME.kept-XXXXXX and said so.
# - RESULTS must be the suite's own: new, or holding its manifest, or
#   empty; a directory with files check did not write and no manifest
#   (a user's directory, a shared one like /tmp) is refused, never
#   swapped, and so is one that others may write into (mode o+w).
# - RESULTS/run.incomplete is written first: while it is there, the files
#   next to it are not this run's complete results (it says whose they
#   are). After SIGKILL it stays; the next run says so in check.log and on
#   the terminal, and discards the dead run's staging.
# - A write error at any point (ENOSPC, EROFS, EIO, EACCES) stops the run:
#   exit 2, the staging is discarded, the previous files are untouched.
# - SIGINT/SIGTERM/SIGHUP: the partial results are published marked
#   incomplete (KTAP "Bail out!", a JUnit <error>, a check.log line) and
#   run.incomplete says so.
# RESULTS itself must not be a mount point (a mount point cannot be
# renamed) and nothing may be mounted below it (hard links cannot cross).

# (vt_rm; run/vm sources this file alone)
declare -F vt_rm >/dev/null || . "${BASH_SOURCE[0]%/*}/guard.sh"

# The pid a user knows the run by: the one they started, which is
# runner/vfsidmap-supervise's when check runs under it.
VT_PID=${VT_SUPERVISOR_PID:-$$}
VT_RESULT_DIR=""
VT_STAGE=""
VT_WRITE_ERROR=""
VT_STAGE_MARKER=.vfsidmap-staging   # in a staging: path=<its own path>, pid, started
VT_OLD_STAGE_MARKER=vfsidmap-staging # RESULTS/.staging.* of older checks
VT_STAGE_PREFIX=.vfsidmap-stage.     # PARENT/.vfsidmap-stage.NAME.XXXXXX
VT_RESULTS_LOCKED=""                 # set while this run holds RESULTS/.lock
VT_MANIFEST=.vfsidmap-results        # in RESULTS: the files check published
VT_PREV=.vfsidmap-old                # in the staging: the previous run.incomplete
VT_DEAD_RUN_NOTE=""

vt_write_failed() { # what
	if [ -z "$VT_WRITE_ERROR" ]; then
		VT_WRITE_ERROR=$1
		echo "check: ERROR: writing $1 failed: the results of this run are lost, stopping (the previous results are left as they were)" >&2
	fi
	return 1
}

# A file written whole in the staging becomes RESULTS/NAME by one rename
# (they are siblings on one filesystem): a write error leaves RESULTS
# without it, never with a part of it or a temporary file.
vt_move_into_results() { # file-in-staging name
	local err
	err=$(mv -f -- "$1" "${VT_RESULT_DIR:?}/$2" 2>&1) && return 0
	vt_write_failed "${VT_RESULT_DIR:?}/$2${err:+ (${err##*: })}"
}

# Stdin to FILE: a temporary file next to it, fsync, rename.
vt_put() { # file
	local tmp="$1.tmp.$$" err
	if err=$({ cat >"$tmp" && sync -- "$tmp" && mv -f -- "$tmp" "$1"; } 2>&1); then
		return 0
	fi
	vt_rm "$tmp" 2>/dev/null
	vt_write_failed "$1${err:+ (${err##*: })}"
}

# check's own bookkeeping in a results directory (top level): never
# carried over, never listed, always check's.
vt_results_control() { # relative path
	case "$1" in
	.lock | run.incomplete | "$VT_MANIFEST" | "$VT_MANIFEST".tmp.* | "$VT_STAGE_MARKER" | "$VT_PREV" | "$VT_PREV"/*) return 0 ;;
	esac
	return 1
}

# The lock is held, but its holder line names a run that is gone: what
# holds it is a command that run had started (its descendants inherit the
# descriptor), which ends on its own within seconds (mkfs, fsck, a sleep).
# Wait up to 15 s for it to let go, saying so; 0 if it did.
vt_results_lock_orphaned() { # dir (fd 8 open on its .lock)
	local line pid
	IFS= read -r line <"$1/.lock" 2>/dev/null || return 1
	[[ $line =~ ^pid\ ([0-9]+), ]] || return 1
	pid=${BASH_REMATCH[1]}
	[ ! -d "/proc/$pid" ] || return 1
	echo "check: results directory $1 is still locked by what the dead run of pid $pid left running; waiting up to 15 s for it to end" >&2
	flock -w 15 8
}

# fd 8 <- DIR/.lock, locked. Publishing swaps directories, so a lock file
# opened just before a run published may be the old results' one: it
# counts only if it is still the file at DIR/.lock once locked.
vt_results_lock() { # dir
	local dir=$1 holder try
	for try in 1 2 3 4 5; do
		if ! { exec 8<>"$dir/.lock"; } 2>/dev/null; then
			echo "check: results directory $dir is not writable" >&2
			return 2
		fi
		if ! flock -n 8 && ! vt_results_lock_orphaned "$dir"; then
			holder=$(head -n 1 "$dir/.lock" 2>/dev/null | cut -c 1-300)
			echo "check: results directory $dir is in use by another run (${holder:-holder unknown}); wait for it to end or give another --results" >&2
			exec 8>&-
			return 2
		fi
		# (/proc/self/fd: a minimal system, as run/vm's guest was, may have
		# no /dev/fd)
		[ "$(stat -L -c %d:%i /proc/self/fd/8 2>/dev/null)" = "$(stat -c %d:%i -- "$dir/.lock" 2>/dev/null)" ] && return 0
		exec 8>&-
	done
	echo "check: results directory $dir: its lock file keeps being replaced (runs publishing into it); try again" >&2
	return 2
}

# Removes what OLD (swapped-out or stranded results of RESULTS) provably
# holds of check's: files its manifest lists, check's bookkeeping, and
# hard links of files that RESULTS still has under the same name. What is
# left is kept as PARENT/NAME.kept-XXXXXX and named on stderr.
vt_results_prune() { # old directory
	local old=$1 rel id type kept
	local -A mine=() now=()
	if [ -f "$old/$VT_MANIFEST" ] && [ ! -L "$old/$VT_MANIFEST" ]; then
		while IFS= read -r -d '' rel; do mine[$rel]=1; done <"$old/$VT_MANIFEST"
	fi
	while IFS= read -r -d '' rel && IFS= read -r -d '' id; do
		now[$rel]=$id
	done < <(find "$VT_RESULT_DIR" -mindepth 1 -xdev -printf '%P\0%D:%i\0' 2>/dev/null)
	# the files in one rm and then the directories, deepest first, in one
	# rmdir (which leaves those not emptied): not a process a file
	local -a files=() dirs=()
	while IFS= read -r -d '' rel && IFS= read -r -d '' id && IFS= read -r -d '' type; do
		if [ "$type" = d ]; then
			dirs+=("$old/$rel")
		elif [ -n "${mine[$rel]:-}" ] || vt_results_control "$rel" || [ "${now[$rel]:-}" = "$id" ]; then
			files+=("$old/$rel")
		fi
	done < <(find "$old" -mindepth 1 -xdev -depth -printf '%P\0%D:%i\0%y\0' 2>/dev/null)
	[ ${#files[@]} -eq 0 ] || vt_rm "${files[@]}"
	[ ${#dirs[@]} -eq 0 ] || rmdir -- "${dirs[@]}" 2>/dev/null
	rmdir -- "$old" 2>/dev/null && return 0
	kept=$(mktemp -u "$VT_RESULT_DIR.kept-XXXXXX") &&
		mv -T -n -- "$old" "$kept" 2>/dev/null && [ ! -e "$old" ] || kept=$old
	echo "check: kept $kept: the previous contents of $VT_RESULT_DIR held files that check did not write (or an older check wrote without listing them) and that are not in the new results, e.g. $(cd "$kept" && find . -mindepth 1 ! -type d | head -n 3 | tr '\n' ' ')- nothing there was deleted; look through it and remove it yourself" >&2
}

# A results directory may not have a name of the suite's own directories
# (common/guard.sh): so none of those is ever a user's.
vt_results_name_free() { # path
	local name=${1%"${1##*[!/]}"}
	name=${name##*/}
	case $name in
	.vfsidmap-* | vfsidmap.[0-9]*.??????)
		echo "check: results directory $1: names like $name are the suite's own (its run and staging directories); give another name" >&2
		return 2 ;;
	esac
}

# VT_RESULT_DIR <- DIR (made if missing), canonical; refused when it is a
# mount point or has a mount below it.
vt_results_where() { # dir
	local dir=$1 err
	vt_results_name_free "$dir" || return 2
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
	if [ "$VT_RESULT_DIR" = / ]; then
		echo "check: results directory $dir is /: give a directory of its own (--results DIR)" >&2
		return 2
	fi
	vt_results_name_free "$VT_RESULT_DIR" || return 2
	if mountpoint -q -- "$VT_RESULT_DIR"; then
		echo "check: results directory $VT_RESULT_DIR is a mount point: check publishes results by swapping the directory with a complete sibling in one step, which a mount point cannot take part in; give a directory inside it (--results $VT_RESULT_DIR/results)" >&2
		return 2
	fi
	# (mountinfo escapes space, tab, newline and backslash as \ooo:
	# proc_pid_mountinfo(5), fs/proc_namespace.c show_mountinfo)
	if awk -v p="$VT_RESULT_DIR/" '
		function unescape(s,   out, i) {
			out = ""
			for (i = 1; i <= length(s); i++) {
				if (substr(s, i, 1) == "\\" && substr(s, i + 1, 3) ~ /^[0-7][0-7][0-7]$/) {
					out = out sprintf("%c", substr(s, i + 1, 1) * 64 + substr(s, i + 2, 1) * 8 + substr(s, i + 3, 1))
					i += 3
				} else
					out = out substr(s, i, 1)
			}
			return out
		}
		index(unescape($5), p) == 1 { f = 1 } END { exit !f }' /proc/self/mountinfo; then
		echo "check: something is mounted below results directory $VT_RESULT_DIR: check carries the entries it does not replace over to the new results as hard links, which cannot cross a mount; unmount it or give another --results" >&2
		return 2
	fi
	vt_results_own "$VT_RESULT_DIR" || return 2
}

# Is RESULTS the suite's own? New (made by vt_results_where), holding
# check's manifest, or empty but for check's own files; and not writable
# by others. Else exit 2, before anything is written into it.
vt_results_own() { # dir
	local d=$1 f mode
	mode=$(stat -c %a -- "$d") || return 2
	if (( (8#$mode & 8#002) != 0 )); then
		echo "check: results directory $d (mode $mode) is writable by others: check swaps a results directory whole when it publishes, which would take along what others write there; give a directory of its own" >&2
		return 2
	fi
	[ -f "$d/$VT_MANIFEST" ] && [ ! -L "$d/$VT_MANIFEST" ] && return 0
	for f in "$d"/* "$d"/.[!.]* "$d"/..?*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		case ${f##*/} in
		.lock | run.incomplete) ;;
		*)
			echo "check: results directory $d holds files check did not write (e.g. ${f##*/}) and no manifest of its own ($VT_MANIFEST): check replaces a results directory whole, so it takes only a new, an empty or its own; give another --results" >&2
			return 2 ;;
		esac
	done
	return 0
}

# KEY's value in the marker of a staging or of swapped-out results -> VT_MARK.
vt_stage_marker_get() { # dir key
	local line
	VT_MARK=""
	[ -f "$1/$VT_STAGE_MARKER" ] && [ ! -L "$1/$VT_STAGE_MARKER" ] || return 1
	while IFS= read -r line; do
		case $line in "$2="*) VT_MARK=${line#*=}; return 0 ;; esac
	done <"$1/$VT_STAGE_MARKER"
	return 0
}

# Holding the lock: what a dead run of RESULTS left next to it, known by
# its marker (its own path, RESULTS, its role), never by its name alone:
# its staging (discarded: that run did not finish), or the previous
# results it swapped out and did not prune. A directory of that name
# without such a marker is not proven to be a run's of RESULTS: left.
vt_results_heal() {
	local s pid started parent base role
	parent=${VT_RESULT_DIR%/*} base=${VT_RESULT_DIR##*/}
	for s in "$parent/$VT_STAGE_PREFIX$base".??????; do
		[ -d "$s" ] && [ ! -L "$s" ] || continue
		vt_stage_marker_get "$s" path && [ "$VT_MARK" = "$s" ] || continue
		vt_stage_marker_get "$s" results && [ "$VT_MARK" = "$VT_RESULT_DIR" ] || continue
		vt_stage_marker_get "$s" role; role=$VT_MARK
		if [ "$role" = staging ]; then
			vt_stage_marker_get "$s" pid; pid=$VT_MARK
			vt_stage_marker_get "$s" started; started=$VT_MARK
			VT_DEAD_RUN_NOTE+="the run of pid ${pid:-?} started ${started:-?} did not finish (killed, or its results could not be written): its partial results were discarded"$'\n'
			vt_rm -r "$s"
		elif [ "$role" = old ]; then
			vt_results_prune "$s"
		fi
	done
	# the staging of an older check, inside RESULTS
	for s in "${VT_RESULT_DIR:?}"/.staging.*; do
		[ -d "$s" ] && [ ! -L "$s" ] && [ -f "$s/$VT_OLD_STAGE_MARKER" ] || continue
		pid=$(sed -n 's/^pid=//p' "$s/$VT_OLD_STAGE_MARKER" | head -n 1)
		started=$(sed -n 's/^started=//p' "$s/$VT_OLD_STAGE_MARKER" | head -n 1)
		VT_DEAD_RUN_NOTE+="the run of pid ${pid:-?} started ${started:-?} did not finish (killed): its partial results were discarded"$'\n'
		vt_rm -r "$s"
	done
	# left in RESULTS by a swap that was not tidied up
	[ -f "${VT_RESULT_DIR:?}/$VT_STAGE_MARKER" ] && vt_rm "${VT_RESULT_DIR:?}/$VT_STAGE_MARKER"
	[ -d "${VT_RESULT_DIR:?}/$VT_PREV" ] && vt_rm -r "${VT_RESULT_DIR:?}/$VT_PREV"
	[ -n "$VT_DEAD_RUN_NOTE" ] && printf 'check: %s' "$VT_DEAD_RUN_NOTE" >&2
	return 0
}

# The lock of RESULTS, its holder line written.
vt_results_take() {
	vt_results_lock "$VT_RESULT_DIR" || return 2
	VT_RESULTS_LOCKED=1
	local holder started
	# (bash builtins: no date or cut process, dear in a TCG guest)
	TZ=UTC printf -v started '%(%FT%TZ)T' -1
	printf -v holder 'pid %s, started %s: %s' "$VT_PID" "$started" "${VT_ARGV_LINE:-./check ${VT_ARGV:-}}"
	if ! printf '%s\n' "${holder:0:300}" >"${VT_RESULT_DIR:?}/.lock" 2>/dev/null; then
		echo "check: results directory $VT_RESULT_DIR is not writable (writing .lock failed)" >&2
		return 2
	fi
}

# The marker of DIR, a staging (role staging) or the results that a swap
# is about to move there (role old, written into RESULTS before the swap):
# its own path, the results directory it belongs to, who made it.
vt_stage_marker_write() { # dir its-path role
	local started
	TZ=UTC printf -v started '%(%FT%TZ)T' -1
	printf 'path=%s\nresults=%s\nrole=%s\npid=%s\nstarted=%s\n' "$2" "$VT_RESULT_DIR" "$3" "$VT_PID" "$started" >"$1/$VT_STAGE_MARKER"
}

# VT_STAGE <- a new staging next to RESULTS, marked.
vt_results_stage() {
	local parent base err
	parent=${VT_RESULT_DIR%/*} base=${VT_RESULT_DIR##*/}
	VT_STAGE=$(mktemp -d "$parent/$VT_STAGE_PREFIX$base.XXXXXX" 2>/dev/null) || {
		echo "check: cannot make a staging directory next to results directory $VT_RESULT_DIR in $parent (check writes a run's results there and swaps them in when complete)" >&2
		VT_STAGE=""
		return 2
	}
	if ! err=$({ vt_stage_marker_write "${VT_STAGE:?}" "$VT_STAGE" staging &&
		mkdir "${VT_STAGE:?}/$VT_PREV" &&
		{ [ ! -f "${VT_RESULT_DIR:?}/run.incomplete" ] || cp -- "${VT_RESULT_DIR:?}/run.incomplete" "${VT_STAGE:?}/$VT_PREV/run.incomplete"; }; } 2>&1); then
		echo "check: results directory $VT_RESULT_DIR is not writable (writing the staging directory $VT_STAGE next to it failed: ${err##*: })" >&2
		vt_stage_discard
		return 2
	fi
}

# Publishing carries the entries of RESULTS over to the new results as
# hard links; an immutable or append-only file cannot be linked (vfs_link:
# EPERM) nor removed, so the run would fail at its end, its results lost.
# Tried now, on a copy of links in the staging, before any test runs.
vt_results_linkable() {
	local probe="${VT_STAGE:?}/.link-probe" e err
	mkdir -- "$probe" || return 1
	while IFS= read -r -d '' e; do
		vt_results_control "$e" && continue
		if ! err=$(cp -a -l -- "${VT_RESULT_DIR:?}/$e" "$probe/" 2>&1); then
			echo "check: results directory $VT_RESULT_DIR: $e (or a file in it) cannot be carried over to the new results as a hard link (${err##*: }; immutable or append-only? lsattr shows it): publishing would fail at the end of the run; fix it or give another --results" >&2
			vt_rm -r "$probe" 2>/dev/null
			return 1
		fi
	done < <(find "$VT_RESULT_DIR" -mindepth 1 -maxdepth 1 -printf '%P\0')
	# (a probe left in the staging would be published with the results)
	if ! err=$(vt_rm -r "$probe" 2>&1) || [ -e "$probe" ]; then
		# rm's own reason (Permission denied...), as every other refusal says
		err=${err##*: }
		echo "check: results directory $VT_RESULT_DIR is not writable (removing $probe from the staging next to it failed${err:+: $err})" >&2
		return 1
	fi
}

vt_results_open() {
	vt_results_where "${VT_RESULTS:-$VT_TOP/results}" || return 2
	TZ=UTC printf -v VT_UTC_START '%(%FT%TZ)T' -1
	vt_results_take || return 2
	vt_results_heal
	vt_results_stage || return 2
	vt_results_linkable || { vt_results_abort; return 2; }
	if { [ -f "${VT_RESULT_DIR:?}/check.log" ] && ! cp -- "${VT_RESULT_DIR:?}/check.log" "${VT_STAGE:?}/check.log"; } ||
		{ [ -f "${VT_RESULT_DIR:?}/check.time" ] && ! cp -- "${VT_RESULT_DIR:?}/check.time" "${VT_STAGE:?}/check.time"; } ||
		! vt_put "${VT_STAGE:?}/.run.incomplete.new" 2>/dev/null <<<"$(printf 'A run of ./check (pid %s, started %s) has not finished: the other files here are not its results (they are the previous run'"'"'s). Removed when the run completes.' \
			"$VT_PID" "$VT_UTC_START")" ||
		! vt_move_into_results "${VT_STAGE:?}/.run.incomplete.new" run.incomplete; then
		echo "check: results directory $VT_RESULT_DIR is not writable (setting up this run's files failed${VT_WRITE_ERROR:+: $VT_WRITE_ERROR})" >&2
		vt_results_abort
		return 2
	fi
	VT_WRITE_ERROR=""
}

# run/vm: publishes FROM (the guest's results and the vm's logs, complete)
# as RESULTS through the same lock, staging, swap and pruning as a run of
# check. 0, or 2 with a message (RESULTS then as it was).
vt_results_publish_tree() { # from results
	VT_WRITE_ERROR=""
	vt_results_where "$2" || return 2
	vt_results_take || return 2
	vt_results_heal
	vt_results_stage || return 2
	if ! cp -a -- "$1/." "${VT_STAGE:?}/" 2>/dev/null ||
		! { vt_stage_marker_write "${VT_STAGE:?}" "$VT_STAGE" staging; } 2>/dev/null; then
		vt_write_failed "$VT_STAGE (copying $1)"
	fi
	if [ -n "$VT_WRITE_ERROR" ] || ! vt_results_publish; then
		vt_results_abort
		echo "ERROR: the results could not be written to $VT_RESULT_DIR ($VT_WRITE_ERROR); it is left as it was" >&2
		return 2
	fi
}
# Nothing of this run is published: the staging goes, the previous files
# (and a previous run.incomplete) are as they were.
vt_results_abort() {
	[ -n "$VT_STAGE" ] || return 0
	exec 6>&-
	if [ -f "${VT_STAGE:?}/$VT_PREV/run.incomplete" ]; then
		vt_move_into_results "${VT_STAGE:?}/$VT_PREV/run.incomplete" run.incomplete 2>/dev/null
	else
		vt_rm "${VT_RESULT_DIR:?}/run.incomplete"
	fi
	vt_stage_discard
}

# A staging that cannot go (its directory not writable) keeps its marker
# where it can, so that the next run can tell it is a dead run's.
vt_stage_discard() {
	vt_rm -r "$VT_STAGE" 2>/dev/null ||
		{ [ ! -d "$VT_STAGE" ] || { vt_stage_marker_write "${VT_STAGE:?}" "$VT_STAGE" staging; } 2>/dev/null; }
	VT_STAGE=""
}

# The staging becomes RESULTS in one step. Returns 1 on failure (nothing
# published). Before the swap: the entries of RESULTS this run does not
# replace are carried over as hard links, the manifest is written,
# everything is fsync'd and the staging's own lock is held (fd 6) so that
# RESULTS/.lock stays ours across the swap.
vt_results_publish() {
	local e rel top old err rc
	local -A carried=() listed=()
	[ -z "$VT_WRITE_ERROR" ] || return 1
	# (run/vm replaces the results: VT_RESULTS_CARRY=0)
	while [ "${VT_RESULTS_CARRY:-1}" = 1 ] && IFS= read -r -d '' e; do
		vt_results_control "$e" && continue
		[ -e "${VT_STAGE:?}/$e" ] || [ -L "${VT_STAGE:?}/$e" ] && continue
		err=$(cp -a -l -- "${VT_RESULT_DIR:?}/$e" "${VT_STAGE:?}/$e" 2>&1) ||
			{ vt_write_failed "${VT_STAGE:?}/$e (carrying over $VT_RESULT_DIR/$e: ${err##*: })"; return 1; }
		carried[$e]=1
	done < <(find "$VT_RESULT_DIR" -mindepth 1 -maxdepth 1 -printf '%P\0')
	if [ -f "${VT_RESULT_DIR:?}/$VT_MANIFEST" ]; then
		while IFS= read -r -d '' rel; do listed[$rel]=1; done <"${VT_RESULT_DIR:?}/$VT_MANIFEST"
	fi
	# This run's files, and the carried-over ones check wrote before (no
	# pipeline into vt_put: it must run in this shell to record an error).
	vt_put "${VT_STAGE:?}/$VT_MANIFEST" < <(while IFS= read -r -d '' rel; do
		vt_results_control "$rel" && continue
		top=${rel%%/*}
		[ -z "${carried[$top]:-}" ] || [ -n "${listed[$rel]:-}" ] || continue
		printf '%s\0' "$rel"
	done < <(find "$VT_STAGE" -mindepth 1 -printf '%P\0')) || return 1
	chmod --reference="$VT_RESULT_DIR" -- "$VT_STAGE" && chown --reference="$VT_RESULT_DIR" -- "$VT_STAGE" ||
		{ vt_write_failed "$VT_STAGE (mode)"; return 1; }
	find "$VT_STAGE" \( -type f -o -type d \) -print0 | xargs -0r sync -- ||
		{ vt_write_failed "$VT_STAGE (fsync)"; return 1; }
	if ! { exec 6<>"${VT_STAGE:?}/.lock"; } 2>/dev/null || ! flock -n 6 ||
		! head -n 1 "${VT_RESULT_DIR:?}/.lock" >"${VT_STAGE:?}/.lock" 2>/dev/null; then
		vt_write_failed "${VT_STAGE:?}/.lock"
		return 1
	fi
	# what the swap moves to the staging's path says so there
	if ! { vt_stage_marker_write "${VT_RESULT_DIR:?}" "$VT_STAGE" old && sync -- "$VT_RESULT_DIR/$VT_STAGE_MARKER"; } 2>/dev/null; then
		vt_write_failed "$VT_RESULT_DIR/$VT_STAGE_MARKER"
		return 1
	fi
	err=$("$VT_TOOL" exchange "$VT_STAGE" "$VT_RESULT_DIR" 2>&1); rc=$?
	# not swapped (or swapped back below): RESULTS is the previous
	# results, without the marker meant for after the swap
	[ "$rc" = 0 ] || [ "$rc" = 3 ] || vt_rm "$VT_RESULT_DIR/$VT_STAGE_MARKER"
	if [ "$rc" = 3 ]; then
		# Swapped, but not durably (fsync of the parent failed, e.g. EIO):
		# swap back, so that RESULTS is the previous results again.
		vt_write_failed "$VT_RESULT_DIR (the swap with the new results could not be made durable: ${err##*: })"
		if ! "$VT_TOOL" exchange "$VT_STAGE" "$VT_RESULT_DIR" >/dev/null 2>&1; then
			# Both stay as they are: RESULTS holds this run's complete
			# results (not durable), the previous ones are in the staging.
			echo "check: ERROR: swapping back failed too: $VT_RESULT_DIR holds this run's complete results, which a crash may lose; the previous results are in $VT_STAGE (left as they are)" >&2
			VT_STAGE=""
		else
			vt_rm "$VT_RESULT_DIR/$VT_STAGE_MARKER"
		fi
		return 1
	elif [ "$rc" != 0 ]; then
		vt_write_failed "$VT_RESULT_DIR (the swap with the new results: ${err##*: })"
		return 1
	fi
	# Published. What follows is tidying up: it cannot undo the swap.
	old=$VT_STAGE
	VT_STAGE=""
	vt_rm "${VT_RESULT_DIR:?}/$VT_STAGE_MARKER" 2>/dev/null
	vt_rm -r "${VT_RESULT_DIR:?}/$VT_PREV" 2>/dev/null
	vt_results_prune "$old"
	return 0
}

# The end of a run: publish (complete or interrupted) or abort (write
# error). Returns the exit status check must use.
vt_results_close() { # status of the run
	local status=$1
	if [ -z "$VT_WRITE_ERROR" ] && [ "${VT_REPORT_INCOMPLETE:-1}" = 1 ]; then
		vt_put "${VT_STAGE:?}/run.incomplete" <<<"$(printf 'The run of ./check (pid %s) was interrupted by %s after %s of %s test runs: results.ktap, result.xml and check.log here are its partial results, marked incomplete.' \
			"$VT_PID" "${VT_SIGNAL:-a signal}" "$VT_N" "$(( ${#VT_SECTIONS[@]} * ${#VT_SELECTED[@]} ))")"
	fi
	if [ -n "$VT_WRITE_ERROR" ] || ! vt_results_publish; then
		vt_results_abort
		echo "check: ERROR: this run's results could not be written ($VT_WRITE_ERROR); exit 2" >&2
		return 2
	fi
	if [ "${VT_REPORT_INCOMPLETE:-1}" = 0 ] && vt_interrupted; then
		echo "check: ${VT_SIGNAL:-a signal} came after every result was written: the results are complete" >&2
	fi
	return "$status"
}
