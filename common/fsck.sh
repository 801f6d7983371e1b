# After each test, a read-only check of the filesystem it ran on, as
# xfstests checks TEST_DEV after each test: e2fsck -fn, xfs_repair -n,
# btrfs check --readonly, fsck.vfat -n. None of them writes. As in
# xfstests (check: a test with a .notrun file skips _check_filesystems),
# a test that was notrun is not checked on its own: the next check covers
# it, and names it if it finds a corruption. The last test of a section
# that goes to the executor is always checked, so no test's mount is
# left unchecked (expunged runs and those the filesystem table rules out,
# common/run.sh, are never started: they mount nothing). The test's
# mount namespace (runner/vfsidmap-exec) is gone when the test ends, so the
# image or device is no longer mounted. A corruption fails the test with
# the checker's output (NNN.fsck). A corrupted image the suite made is
# made again for the next test; a configured TEST_DEV is never written, so
# it is not checked again in that run (each later test would be blamed).

declare -A VT_FSCK_OFF=()   # run index -> why it is no longer checked
declare -A VT_FSCK_PENDING=()   # run index -> notrun tests since its last check
VT_FSCK_LAST=""   # the section's last test that runs (always checked)

# VT_FSCK_QUIET: an ERE for the checker's own progress and summary lines,
# which it prints on a clean filesystem too; what is left of a failing
# check's output are its findings, quoted in the test's failure reason.
vt_fsck_cmd() { # fs source -> VT_FSCK (array) or empty, VT_FSCK_QUIET
	VT_FSCK=() VT_FSCK_QUIET='^$'
	case $1 in
	ext4) VT_FSCK=(e2fsck -fn "$2")
	      VT_FSCK_QUIET='^e2fsck [0-9.]+ \(|^Pass [0-9]+[A-Z]?: |: [0-9]+/[0-9]+ files \(.*\), [0-9]+/[0-9]+ blocks$' ;;
	xfs) if [ -f "$2" ]; then VT_FSCK=(xfs_repair -n -f "$2"); else VT_FSCK=(xfs_repair -n "$2"); fi
	     # an image file is not a block device: the geometry notice is not a finding
	     VT_FSCK_QUIET='^Phase [0-9]+ - |^        - |^No modify flag set, skipping |^Cannot get host filesystem geometry\.$|^Repair may fail if there is a sector size mismatch between$|^the image and the host filesystem\.$' ;;
	btrfs) VT_FSCK=(btrfs check --readonly "$2")
	       VT_FSCK_QUIET='^Opening filesystem to check\.\.\.$|^Checking filesystem on |^UUID: |^\[[0-9]+/[0-9]+\] checking |^found [0-9]+ bytes used, |^total [a-z ]+ bytes: |^btree space waste bytes: |^file data blocks allocated: |^ referenced [0-9]+$' ;;
	vfat) VT_FSCK=(fsck.vfat -n "$2")
	      VT_FSCK_QUIET='^fsck\.fat [0-9.]+ \(|^Leaving filesystem unchanged\.$|: [0-9]+ files, [0-9]+/[0-9]+ clusters$' ;;
	esac
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
	local i=$1 base=$2 fs=${VT_S_FS[$1]} src=$VT_FS_SOURCE out rc n=0
	VT_FSCK_FAIL="" VT_FSCK_NOTE=""
	[ -n "$src" ] || return 0               # tmpfs: nothing on disk
	[ -n "$VT_FS_ERROR$VT_FS_NOTRUN" ] && return 0
	if [ -n "${VT_FSCK_OFF[$i]:-}" ]; then
		VT_FSCK_NOTE="fsck skipped: ${VT_FSCK_OFF[$i]}"
		return 0
	fi
	vt_fsck_cmd "$fs" "$src"
	[ ${#VT_FSCK[@]} -gt 0 ] || return 0
	# xfs_repair sizes its buffer cache from the machine's memory; on the
	# suite's own small image a cache of 8 x 128 buffers holds it all
	# (xfs_repair(8): -o bhash), and the check reads the same metadata with
	# fewer pages touched (host: 0.088 -> 0.055 s of CPU a check; page
	# faults are dear under TCG). -P leaves out the prefetch of inode and
	# directory blocks, which only reorders the reads (xfs_repair(8)): on
	# an image this small its threads cost more than they save (144 ->
	# 104 threads a check, host CPU time -10%). A configured TEST_DEV
	# keeps the defaults.
	if [ "$fs" = xfs ] && [ -z "${VT_S_DEV[$i]:-}" ]; then
		VT_FSCK=("${VT_FSCK[@]:0:${#VT_FSCK[@]}-1}" -P -o bhash=128 "$src")
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
			tee -a "$VT_STAGE/check.log"
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
	out=$(PATH="$PATH:/sbin:/usr/sbin" "${VT_FSCK[@]}" 2>&1)
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
		echo "FSCK          -- not checked again on ${VT_S_NAME[$i]}: ${VT_FSCK_OFF[$i]}" >>"$VT_STAGE/check.log"
	else
		# The next test gets a fresh image.
		echo "FSCK          -- ${src##*/} on ${VT_S_NAME[$i]} was found corrupted after $test; made again for the next test" >>"$VT_STAGE/check.log"
		vt_prepare_fs "$i"
	fi
}
