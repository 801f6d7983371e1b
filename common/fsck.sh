# After each test, a read-only check of the filesystem it ran on, as
# xfstests checks TEST_DEV after each test. The checker is the filesystem
# table's (lib/fs/fs_table.c: its row's fsck, fsck_own_image and
# fsck_quiet, each option cited from the checker's man page there); none
# of them writes. A row without a checker says why (no_fsck: no device, a
# read-only image), and the run says so: once per section in check.log
# ("FSCK -- not checked on SECTION: ...") and in each test's NNN.full, as
# for a checker that is not installed. An existing mount the user made
# (TEST_DIR_MOUNTED) is not checked either, and says so the same way. As
# in xfstests (check: a test with a .notrun file skips
# _check_filesystems), a test that was notrun is not checked on its own:
# the next check covers it, and names it if it finds a corruption. The
# last test of a section that goes to the executor is always checked, so
# no test's mount is left unchecked (expunged runs and those the
# filesystem table rules out, common/run.sh, are never started: they
# mount nothing). The test's mount namespace (runner/vfsidmap-exec) is
# gone when the test ends, so the image or device is no longer mounted. A
# corruption fails the test with the checker's output (NNN.fsck). A
# corrupted image the suite made is made again for the next test; a
# configured TEST_DEV is never written, so it is not checked again in that
# run (each later test would be blamed).

declare -A VT_FSCK_OFF=()   # run index -> why it is no longer checked
declare -A VT_FSCK_PENDING=()   # run index -> notrun tests since its last check
VT_FSCK_LAST=""   # the section's last test that runs (always checked)

# FS's checker from its row (common/fs.sh reads the table once a run):
# VT_FSCK, the command with SOURCE where the row has %D (and the row's
# fsck_own_image options before it when OWN is set: the image is the
# suite's own), or empty with VT_FSCK_NONE saying why. VT_FSCK_QUIET: an
# ERE for the checker's own progress and summary lines, which it prints on
# a clean filesystem too; what is left of a failing check's output are its
# findings, quoted in the test's failure reason.
vt_fsck_cmd() { # fs source [own] -> VT_FSCK (array), VT_FSCK_QUIET, VT_FSCK_NONE
	local cmd own quiet w
	local -a words opts=()
	VT_FSCK=() VT_FSCK_QUIET='^$' VT_FSCK_NONE=""
	if ! vt_fs_table_load; then
		VT_FSCK_NONE="the filesystem table could not be read ($VT_TOOL fs-table failed)"
		return
	fi
	cmd=${VT_FS_TABLE["$1 fsck"]-} own=${VT_FS_TABLE["$1 fsck_own_image"]--}
	quiet=${VT_FS_TABLE["$1 fsck_quiet"]--}
	if [ -z "$cmd" ]; then
		VT_FSCK_NONE="$1 has no row in the filesystem table (lib/fs/fs_table.c)"
		return
	fi
	if [ "$cmd" = - ]; then
		VT_FSCK_NONE="$1 has no checker: ${VT_FS_TABLE["$1 no_fsck"]-}"
		return
	fi
	[ -n "${3:-}" ] && [ "$own" != - ] && read -ra opts <<<"$own"
	read -ra words <<<"$cmd"
	for w in "${words[@]}"; do
		if [ "$w" = %D ]; then VT_FSCK+=(${opts[@]+"${opts[@]}"} "$2"); else VT_FSCK+=("$w"); fi
	done
	[ "$quiet" = - ] || VT_FSCK_QUIET=$quiet
}

# The reason a failing check gives: its first three findings, else (none
# recognised: it broke, or its output is new) its last line.
vt_fsck_findings() { # output -> stdout, one line
	local found n
	found=$(printf '%s\n' "$1" | grep -v -E -e '^[[:space:]]*$' -e "$VT_FSCK_QUIET")
	if [ -z "$found" ]; then
		printf '%s\n' "$1" | grep -v '^[[:space:]]*$' | tail -n 1
		return
	fi
	n=$(printf '%s\n' "$found" | wc -l)
	printf '%s\n' "$found" | head -n 3 | sed 's/^[[:space:]]*//' | awk 'NR > 1 { printf " | " } { printf "%s", $0 }'
	[ "$n" -le 3 ] || printf ' (+%d more)' $((n - 3))
}

# Is the image file still the backing file of a loop device? What
# `losetup -j FILE` answers, from sysfs with bash builtins (a loop device
# in use has /sys/block/loopN/loop/backing_file, the file's path as the
# kernel resolves it: drivers/block/loop.c, loop_attr_backing_file_show)
# instead of a losetup process after every test (forks are dear in a TCG
# guest). The image's resolved path is asked once per section (realpath).
declare -A VT_FSCK_REAL=()
vt_loop_attached() { # run-index image
	local real=${VT_FSCK_REAL[$1]:-} f bf
	if [ "${real%%$'\n'*}" != "$2" ]; then
		real=$(realpath -e -- "$2" 2>/dev/null) || return 1
		VT_FSCK_REAL[$1]="$2"$'\n'"$real"
	else
		real=${real#*$'\n'}
	fi
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] && IFS= read -r bf <"$f" 2>/dev/null || continue
		[ "$bf" = "$real" ] && return 0
	done
	return 1
}

# Sets VT_FSCK_FAIL (a reason) or VT_FSCK_NOTE; writes BASE.fsck on a failure.
vt_fsck_after() { # run-index base
	local i=$1 base=$2 fs=${VT_S_FS[$1]} src=$VT_FS_SOURCE out rc n=0 own=""
	VT_FSCK_FAIL="" VT_FSCK_NOTE=""
	[ -n "$VT_FS_ERROR$VT_FS_NOTRUN" ] && return 0
	if [ -n "${VT_FSCK_OFF[$i]:-}" ]; then
		VT_FSCK_NOTE="fsck skipped: ${VT_FSCK_OFF[$i]}"
		return 0
	fi
	# the options the row tunes for an image the suite made (xfs: a
	# smaller buffer cache, no prefetch); a configured TEST_DEV keeps the
	# checker's defaults
	[ -n "${VT_S_DEV[$i]:-}" ] || own=1
	vt_fsck_cmd "$fs" "$src" "$own"
	if [ ${#VT_FSCK[@]} -eq 0 ]; then
		VT_FSCK_OFF[$i]=$VT_FSCK_NONE
	elif [ -z "$src" ]; then
		VT_FSCK_OFF[$i]="${VT_S_DIR[$i]:-TEST_DIR} is a mount the user made (TEST_DIR_MOUNTED): the suite checks only an image it makes or a configured TEST_DEV"
	fi
	if [ -n "${VT_FSCK_OFF[$i]:-}" ]; then
		VT_FSCK_NOTE="fsck skipped: ${VT_FSCK_OFF[$i]}"
		echo "FSCK          -- not checked on ${VT_S_NAME[$i]}: ${VT_FSCK_OFF[$i]}" >>"${VT_STAGE:?}/check.log"
		return 0
	fi
	local test="${base%/*}" pending
	test="${test##*/}/${base##*/}"
	if [ "$VT_T_RESULT" = notrun ] && [ "$test" != "$VT_FSCK_LAST" ]; then
		VT_FSCK_PENDING[$i]+="${VT_FSCK_PENDING[$i]:+ }$test"
		return 0
	fi
	pending=${VT_FSCK_PENDING[$i]:-}
	VT_FSCK_PENDING[$i]=""
	if ! PATH="$PATH:/sbin:/usr/sbin" command -v "${VT_FSCK[0]}" >/dev/null 2>&1; then
		VT_FSCK_OFF[$i]="${VT_FSCK[0]} is not installed"
		VT_FSCK_NOTE="fsck skipped: ${VT_FSCK_OFF[$i]}"
		echo "FSCK          -- not checked on ${VT_S_NAME[$i]}: ${VT_FSCK_OFF[$i]}" |
			tee -a "${VT_STAGE:?}/check.log"
		return 0
	fi
	# The loop device of an image goes away with the test's namespace;
	# wait for it (autoclear) so the checker reads a quiet filesystem.
	if [ -f "$src" ]; then
		while vt_loop_attached "$i" "$src"; do
			if [ $n -ge 50 ]; then
				VT_FSCK_NOTE="fsck skipped: $src is still attached to a loop device after the test"
				return 0
			fi
			sleep 0.2
			n=$((n + 1))
		done
	fi
	# (stdin: nothing, so no checker can wait for an answer)
	out=$(PATH="$PATH:/sbin:/usr/sbin" "${VT_FSCK[@]}" 2>&1 </dev/null)
	rc=$?
	[ $rc -eq 0 ] && return 0
	local also=""
	[ -z "$pending" ] || also="; the filesystem was last checked before $pending (notrun, not checked on their own)"
	{
		echo "== ${VT_FSCK[*]} (exit $rc)"
		echo "$out"
		[ -z "$pending" ] || echo "== also since the last check (notrun, not checked on their own): $pending"
	} >"$base.fsck"
	VT_FSCK_FAIL="fsck after the test: ${VT_FSCK[*]} exit $rc: $(vt_fsck_findings "$out" | tr -d '\n') (see ${base##*/}.fsck)$also"
	if [ -n "${VT_S_DEV[$i]}" ]; then
		VT_FSCK_OFF[$i]="TEST_DEV ${VT_S_DEV[$i]} was found corrupted after an earlier test; the suite does not repair a device it did not make"
		echo "FSCK          -- not checked again on ${VT_S_NAME[$i]}: ${VT_FSCK_OFF[$i]}" >>"${VT_STAGE:?}/check.log"
	else
		# The next test gets a fresh image.
		echo "FSCK          -- ${src##*/} on ${VT_S_NAME[$i]} was found corrupted after $test; made again for the next test" >>"${VT_STAGE:?}/check.log"
		vt_prepare_fs "$i"
	fi
}
