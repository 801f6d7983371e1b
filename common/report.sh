# Reporting: terminal lines, check.log (appended per run, as in xfstests),
# results.ktap (KTAP v1, one nested subtest per test and filesystem),
# result.xml (JUnit, doc/junit.xsd), and the closing line
# "N passed, N failed, N skipped". Everything is written to this run's
# staging directory (common/results.sh); a failed write stops the run.
#
# A failure is a verdict on the kernel: the test ran and found a mismatch,
# timed out, crashed or leaked. An error is not (LTP: TBROK, not TFAIL):
# the setup or the harness broke (mkfs, mount, the executor, the run was
# interrupted). They are kept apart in every output; errors still count as
# failed in the closing line, so a CI job stays red.

VT_N_PASS=0 VT_N_FAIL=0 VT_N_SKIP=0 VT_N_ERR=0 VT_N=0
VT_C_PASS=0 VT_C_FAIL=0 VT_C_SKIP=0
# Failures of a test as a whole (vt_test_level_leaves): leaves of
# results.ktap, not cases, counted apart from VT_C_*.
VT_C_TL=0
VT_FAILED_LIST=() VT_NOTRUN_LIST=() VT_ERROR_LIST=()
VT_START=0
VT_REPORT_FORMAT=${VT_REPORT_FORMAT:-xunit}
VT_SYSTEM_OUT_MAX=65536

# Any bytes to XML character data (runner/xml-text.c: escapes markup,
# replaces invalid UTF-8 and control characters by U+FFFD).
vt_xml_escape() {
	"$VT_TOOL" xml-text "$@"
}

# A string as XML character data into VT_XML, as
# "$(printf '%s' "$1" | vt_xml_escape)" gives it (trailing newlines
# dropped), without a fork when it is printable ASCII, tab, CR, LF only.
vt_xml_var() { # string -> VT_XML
	local s=$1 LC_ALL=C amp='&amp;' lt='&lt;' gt='&gt;' quot='&quot;' apos='&apos;'
	if [[ $s == *[!\ -\~$'\t\n\r']* ]]; then
		VT_XML=$(printf '%s' "$1" | vt_xml_escape)
		return
	fi
	s=${s//&/"$amp"} s=${s//</"$lt"} s=${s//>/"$gt"} s=${s//\"/"$quot"} s=${s//\'/"$apos"}
	while [[ $s == *$'\n' ]]; do s=${s%$'\n'}; done
	VT_XML=$s
}

vt_log() { # line: appended to this run's check.log
	printf '%s\n' "$1" >>"${VT_STAGE:?}/check.log" || vt_write_failed "${VT_STAGE:?}/check.log"
}

# The kernel's release, once a run (bash builtins: forks are dear in a
# TCG guest; /proc/sys/kernel/osrelease is what uname -r prints).
VT_KREL=""
vt_kernel_release() {
	[ -n "$VT_KREL" ] && return 0
	IFS= read -r VT_KREL </proc/sys/kernel/osrelease 2>/dev/null || VT_KREL=$(uname -r)
}

vt_report_begin() {
	local started
	printf -v VT_START '%(%s)T' -1
	TZ=UTC printf -v started '%(%FT%TZ)T' -1
	vt_kernel_release
	: >"${VT_STAGE:?}/.result.xml.part" || vt_write_failed "${VT_STAGE:?}/.result.xml.part"
	vt_coverage_begin
	printf 'KTAP version 1\n1..%d\n' "$(( ${#VT_SECTIONS[@]} * ${#VT_SELECTED[@]} * ${VT_ITERATIONS:-1} ))" \
		>"${VT_STAGE:?}/results.ktap" || vt_write_failed "${VT_STAGE:?}/results.ktap"
	vt_log ""
	[ -n "$VT_DEAD_RUN_NOTE" ] && vt_log "${VT_DEAD_RUN_NOTE%$'\n'}"
	vt_log "run started $started on $VT_KREL (${HOSTNAME:-}), pid $VT_PID"
	vt_run_command
	vt_log "command: $VT_RUN_COMMAND"
}

vt_report_section() { # run index
	local i=$1 src
	if [ -n "${VT_S_EXISTING[$i]:-}" ]; then src="mounted by the user on ${VT_S_DIR[$i]}, used as it is"
	elif [ -n "${VT_S_DEV[$i]}" ]; then src="TEST_DEV ${VT_S_DEV[$i]}"
	elif [ "$(vt_fs_field "${VT_S_FS[$i]}" make)" = mount-only ]; then src=${VT_S_FS[$i]}
	else src="loop-backed image in $VT_RUNDIR"; fi
	echo "SECTION       -- ${VT_S_NAME[$i]}"
	echo "FSTYP         -- ${VT_S_FS[$i]} ($src)"
	vt_kernel_release
	echo "KERNEL        -- $VT_KREL"
	[ -n "${VT_S_MKFS[$i]}" ] && echo "MKFS_OPTIONS  -- ${VT_S_MKFS[$i]}"
	[ -n "${VT_S_MOPTS[$i]}" ] && echo "MOUNT_OPTIONS -- ${VT_S_MOPTS[$i]}"
	[ -n "$VT_FS_NOTRUN" ] && echo "NOT RUN       -- $VT_FS_NOTRUN"
	[ -n "$VT_FS_ERROR" ] && echo "SETUP FAILED  -- $VT_FS_ERROR"
	echo ""
	vt_log "SECTION ${VT_S_NAME[$i]} FSTYP=${VT_S_FS[$i]} ($src)"
}

# Counts the top-level results of a test's KTAP: sets CP CF CS.
vt_count_cases() { # ktap file
	CP=0 CF=0 CS=0
	[ -f "$1" ] || return 0
	# counted already by vt_run_one (vt_test_files)
	if [ "$1" = "${VT_T_COUNTED:-}" ]; then
		read -r CP CF CS <<<"$VT_T_COUNTS"
		return 0
	fi
	local counts
	counts=$(awk '/^not ok /{f++} /^ok /{if (/ # SKIP/) s++; else p++} END{print p+0, f+0, s+0}' "$1")
	read -r CP CF CS <<<"$counts"
}

# The first mismatch of a failed test and its replay line: the first
# "# FAIL" (or other diagnostic) line of its KTAP, and the first line with
# "reproduce:".
vt_first_mismatch() { # ktap -> VT_MISMATCH
	VT_MISMATCH=""
	[ -f "$1" ] || return 0
	VT_MISMATCH=$(awk '
		!first && /^ *# (FAIL|MISMATCH|.*[Mm]ismatch)/ { first = $0 }
		!repro && /reproduce: / { repro = $0 }
		!notok && /^ *not ok / { notok = $0 }
		END {
			if (!first) first = notok
			sub(/^ *# */, "", first); sub(/^ */, "", first)
			sub(/^.*reproduce: /, "reproduce: ", repro)
			printf "%s%s%s", first, (first != "" && repro != "") ? " | " : "", repro
		}' "$1" | cut -c 1-2000)
}

# The failures of a failed test as a whole, each to be a failing leaf of
# its own in results.ktap: VT_LEAVES, triples "TYPE DIRECTIVE REASON"
# (runner/ktap-nest.h). kunit.py parse, which kernel CI reads results.ktap
# with, counts only the leaves of the tree (kunit_parser.py:
# bubble_up_test_results): a parent's own "not ok" under cases that all
# passed counts as passed there. So a crash, a timeout, a leak, trouble in
# the kernel log, an fsck finding, a broken harness or an interrupted run
# each gets a leaf "test-level:TYPE"; a test whose own failure is failed
# cases (mismatch) has its leaves already. Each leaf is a failure that no
# case shows, so whatever a test came to, "not ok" at its top line has at
# least one failing leaf below it. CF: the test's failed cases.
vt_test_level_leaves() { # -> VT_LEAVES
	VT_LEAVES=()
	case $VT_T_RESULT in
	error)
		# ktap.rst: "ERROR" says the test's execution failed, not the kernel
		VT_LEAVES=("${VT_T_ERROR_TYPE:-harness}" ERROR "${VT_T_REASON:-the harness broke}")
		return 0 ;;
	fail) ;;
	*) return 0 ;;
	esac
	case ${VT_T_OWN_FAIL:-} in
	# ktap.rst: "TIMEOUT" on a "not ok" result says the test timed out
	timeout) VT_LEAVES+=(timeout TIMEOUT "${VT_T_OWN_REASON#timeout: }") ;;
	crash|leak) VT_LEAVES+=("$VT_T_OWN_FAIL" "" "$VT_T_OWN_REASON") ;;
	esac
	[ -n "${VT_T_KMSG_REASON:-}" ] && VT_LEAVES+=(kernel-log "" "$VT_T_KMSG_REASON")
	[ -n "${VT_T_FSCK_REASON:-}" ] && VT_LEAVES+=(fsck "" "$VT_T_FSCK_REASON")
	# failed, and no case did (the test said fail with every case ok)
	if [ ${#VT_LEAVES[@]} = 0 ] && [ "${CF:-0}" = 0 ]; then
		VT_LEAVES=("${VT_T_FAIL_TYPE:-mismatch}" "" "${VT_T_REASON:-the test failed and none of its cases did}")
	fi
	return 0
}

vt_report_test() { # run index, test
	local i=$1 t=$2 name="${VT_S_NAME[$1]}:$2" line ktap=$VT_T_KTAP kline type msg
	local rel="${VT_RESULT_DIR#"$PWD"/}/${VT_S_NAME[$i]}/$t"
	VT_N=$((VT_N + 1))
	vt_count_cases "$ktap"
	VT_C_PASS=$((VT_C_PASS + CP)) VT_C_FAIL=$((VT_C_FAIL + CF)) VT_C_SKIP=$((VT_C_SKIP + CS))
	vt_test_level_leaves
	VT_C_TL=$((VT_C_TL + ${#VT_LEAVES[@]} / 3))
	case $VT_T_RESULT in
	pass)
		VT_N_PASS=$((VT_N_PASS + 1))
		line="ok ($CP cases passed${CS:+, $CS skipped})"
		[ "$CS" = 0 ] && line="ok ($CP cases)" ;;
	notrun)
		VT_N_SKIP=$((VT_N_SKIP + 1))
		VT_NOTRUN_LIST+=("$name")
		line="[not run] $VT_T_REASON" ;;
	fail)
		VT_N_FAIL=$((VT_N_FAIL + 1))
		VT_FAILED_LIST+=("$name")
		line="[failed] ${VT_T_REASON:-$CF of $((CP + CF + CS)) cases failed} - see $rel.out.bad" ;;
	error)
		VT_N_ERR=$((VT_N_ERR + 1))
		VT_ERROR_LIST+=("$name")
		line="[error] ${VT_T_REASON:-the harness broke}"
		[ -f "$ktap" ] && line+=" - see $rel.full" ;;
	esac
	# xfstests: the last run's time (check.time), then this run's
	vt_times_last "$t"
	printf '%-14s %5s ... %4ss %s\n' "$t" "$VT_LAST" "$VT_T_TIME" "$line"
	if [ "$VT_T_RESULT" = fail ] && [ -f "$ktap" ]; then
		if [ "$VT_VERBOSE" = 1 ]; then
			# every failure's whole block: its head ("# FAIL" of the
			# test library, "# MISMATCH" of the matrix, lib/matrix/
			# driver.c) and the indented lines under it (the world,
			# expected and actual, the replay line)
			awk '/^ *# (FAIL|MISMATCH)( |$)/ { blk = 1; print; next }
				blk && /^ *#   / { print; next }
				{ blk = 0 }
				/^ *# .*reproduce/ { print }' "$ktap" | sed 's/^ */    /'
		else
			grep -E '^ *# (FAIL|  world|.*reproduce)' "$ktap" | head -n 5 | sed 's/^ */    /'
		fi
	fi
	# the kernel's trouble during the test (common/kmsg.sh), on the terminal too
	if [ -n "${VT_KMSG_HITS:-}" ]; then
		printf '%s\n' "$VT_KMSG_HITS" | head -n 5 | sed 's/^/    kernel: /'
	fi
	vt_log "$t $VT_T_RESULT ${VT_T_TIME}s (${VT_T_MS:-0}ms)${VT_T_REASON:+ $VT_T_REASON}"

	# KTAP: the test's own stream nested under one result line, in the
	# order of Documentation/dev-tools/ktap.rst: the nested version line,
	# then "# Subtest: name", then the rest (its plan first). A stream
	# without a version line gets one (the test died before writing it).
	# A test that passed or was not run wrote its stream whole (else it is
	# an error: vt_output_short), copied here with bash builtins (forks are
	# dear in a TCG guest); a failed one goes through ktap-nest, which
	# makes it whole and adds its test-level leaves (runner/ktap-nest.h).
	local -a klines=()
	local nest_failed=""
	case $VT_T_RESULT in fail|error) ;; *) [ -s "$ktap" ] && mapfile -t klines <"$ktap" ;; esac
	{
		if [ "$VT_T_RESULT" = fail ] || [ "$VT_T_RESULT" = error ]; then
			local nest_in=$ktap
			[ -f "$nest_in" ] || nest_in=""
			"$VT_TOOL" ktap-nest "$name" "$nest_in" ${VT_LEAVES[@]+"${VT_LEAVES[@]}"} || nest_failed=1
		elif [ ${#klines[@]} -gt 0 ]; then
			local from=0
			if [[ ${klines[0]} =~ ^(KTAP\ version\ [0-9]+|TAP\ version\ 1[34])$ ]]; then
				printf '  %s\n' "${klines[0]}"
				from=1
			else
				echo "  KTAP version 1"
			fi
			printf '  # Subtest: %s\n' "$name"
			[ ${#klines[@]} -le $from ] || printf '  %s\n' "${klines[@]:$from}"
		else
			echo "  KTAP version 1"
			echo "  # Subtest: $name"
			echo "  1..0"
		fi
		case $VT_T_RESULT in
		fail) [ -n "$VT_T_REASON" ] && echo "# $name: $VT_T_REASON" ;;
		error) echo "# error: $name: ${VT_T_REASON:-the harness broke}" ;;
		esac
		case $VT_T_RESULT in
		pass) echo "ok $VT_N $name" ;;
		notrun) line="ok $VT_N $name # SKIP $VT_T_REASON"; echo "${line//$'\r'/}" ;;
		fail|error) echo "not ok $VT_N $name" ;;
		esac
	} >>"${VT_STAGE:?}/results.ktap" && [ -z "$nest_failed" ] || vt_write_failed "${VT_STAGE:?}/results.ktap"

	# JUnit stays one testcase per test and filesystem, its counts the
	# test runs': the test-level leaves above are how KTAP's leaf counting
	# sees a failure of a test as a whole; here the testcase's <failure>
	# (its type: timeout, crash, leak, kernel-log, fsck) or <error> is it.

	# JUnit: one testcase per test and filesystem. A failure's message is
	# its first mismatch and replay line; its type says what kind.
	local VT_T_SECS
	printf -v VT_T_SECS '%d.%03d' $(( ${VT_T_MS:-0} / 1000 )) $(( ${VT_T_MS:-0} % 1000 ))
	vt_xml_var "${VT_S_NAME[$i]}"
	local xclass=$VT_XML
	{
		printf '  <testcase classname="vfsidmap.%s" name="%s" time="%s">\n' \
			"$xclass" "$t" "$VT_T_SECS"
		case $VT_T_RESULT in
		notrun) vt_xml_var "$VT_T_REASON"; printf '    <skipped message="%s"/>\n' "$VT_XML" ;;
		fail)
			type=${VT_T_FAIL_TYPE:-mismatch}
			vt_first_mismatch "$ktap"
			msg=$VT_MISMATCH
			[ -n "$VT_T_REASON" ] && msg="$VT_T_REASON${msg:+ | $msg}"
			[ -n "$msg" ] || msg="$CF cases failed"
			printf '    <failure type="%s" message="%s">' "$type" "$(printf '%s' "$msg" | vt_xml_escape)"
			[ -f "$ktap" ] && grep -E '^ *(not ok|# FAIL|#   world|.*reproduce: )' "$ktap" | head -n 200 | vt_xml_escape
			printf '</failure>\n' ;;
		error)
			vt_xml_var "${VT_T_REASON:-the harness broke}"
			printf '    <error type="%s" message="%s"/>\n' "${VT_T_ERROR_TYPE:-harness}" "$VT_XML" ;;
		esac
		if [ -f "$ktap" ] && [ "$VT_REPORT_FORMAT" != xunit-quiet ]; then
			printf '    <system-out>'
			# made with the other per-test files (vt_test_files)
			local sysout=""
			[ -z "${VT_T_XML:-}" ] || IFS= read -r -d '' sysout <"$VT_T_XML"
			if [ -n "$sysout" ]; then
				printf '%s' "$sysout"
			else
				vt_xml_escape --max "$VT_SYSTEM_OUT_MAX" --see "${VT_S_NAME[$i]}/$t.full" <"$ktap"
			fi
			printf '</system-out>\n'
		fi
		printf '  </testcase>\n'
	} >>"${VT_STAGE:?}/.result.xml.part" || vt_write_failed "${VT_STAGE:?}/.result.xml.part"
}

vt_report_end() {
	# Every test run is over: a signal from here on finds the results
	# complete (or already marked incomplete), and is not read again.
	local now elapsed total incomplete="" ended
	printf -v now '%(%s)T' -1
	TZ=UTC printf -v ended '%(%FT%T)T' -1
	elapsed=$(( now - VT_START ))
	total=$(( ${#VT_SECTIONS[@]} * ${#VT_SELECTED[@]} ))
	# Decided once, here: a signal that comes later finds the results
	# complete (vt_results_close goes by this, not by VT_INTERRUPTED).
	VT_REPORT_INCOMPLETE=0
	if vt_interrupted; then
		VT_REPORT_INCOMPLETE=1
		incomplete="run interrupted by ${VT_SIGNAL:-a signal} after $VT_N of $total test runs: results incomplete"
	fi
	[ -n "$VT_WRITE_ERROR" ] && return 2
	if [ -n "$incomplete" ]; then
		printf 'Bail out! %s\n' "$incomplete" >>"${VT_STAGE:?}/results.ktap" ||
			vt_write_failed "${VT_STAGE:?}/results.ktap"
	fi
	{
		printf '<?xml version="1.0" encoding="UTF-8"?>\n'
		printf '<testsuite name="vfsidmap" tests="%d" failures="%d" errors="%d" skipped="%d" time="%d" timestamp="%s" hostname="%s">\n' \
			"$(( VT_N + (${#incomplete} > 0) ))" "$VT_N_FAIL" "$(( VT_N_ERR + (${#incomplete} > 0) ))" \
			"$VT_N_SKIP" "$elapsed" "$ended" \
			"$(hostname 2>/dev/null | vt_xml_escape)"
		printf '  <properties>\n    <property name="kernel" value="%s"/>\n    <property name="command" value="%s"/>\n  </properties>\n' \
			"$(uname -r | vt_xml_escape)" "$(vt_run_command; printf '%s' "$VT_RUN_COMMAND" | vt_xml_escape)"
		cat "${VT_STAGE:?}/.result.xml.part"
		if [ -n "$incomplete" ]; then
			printf '  <testcase classname="vfsidmap" name="run" time="%d">\n' "$elapsed"
			printf '    <error type="interrupted" message="%s"/>\n' "$(printf '%s' "$incomplete" | vt_xml_escape)"
			printf '  </testcase>\n'
		fi
		printf '</testsuite>\n'
	} >"${VT_STAGE:?}/result.xml" || vt_write_failed "${VT_STAGE:?}/result.xml"
	vt_rm "${VT_STAGE:?}/.result.xml.part"
	echo ""
	[ -n "$incomplete" ] && echo "Interrupted: the run was stopped by ${VT_SIGNAL:-a signal}; results are marked incomplete."
	echo "Ran: $((VT_N - VT_N_SKIP)) of $VT_N test runs in ${elapsed}s"
	[ ${#VT_NOTRUN_LIST[@]} -gt 0 ] && [ "${VT_BRIEF:-0}" = 0 ] && echo "Not run: ${VT_NOTRUN_LIST[*]}"
	if [ ${#VT_FAILED_LIST[@]} -gt 0 ]; then
		echo "Failures: ${VT_FAILED_LIST[*]}"
		echo "Failed ${#VT_FAILED_LIST[@]} of $VT_N test runs"
	fi
	echo "Cases: $VT_C_PASS passed, $VT_C_FAIL failed, $VT_C_SKIP skipped"
	# Cases are the tests' own results; a failure of a test as a whole is
	# no case, and is counted here instead (vt_test_level_leaves): kunit.py
	# parse on results.ktap counts both as failed leaves, the cases'
	# failures plus these.
	if [ "$VT_C_TL" -gt 0 ]; then
		echo "Test-level failures: $VT_C_TL (crash, timeout, leak, kernel log, fsck, harness: each a failing leaf test-level:TYPE in results.ktap)"
		vt_log "Test-level failures: $VT_C_TL"
	fi
	echo "Results: $VT_RESULT_DIR (check.log, results.ktap, result.xml, rule-coverage.tsv)"
	[ -n "$incomplete" ] && vt_log "$incomplete"
	[ ${#VT_NOTRUN_LIST[@]} -gt 0 ] && vt_log "Not run: ${VT_NOTRUN_LIST[*]}"
	[ ${#VT_FAILED_LIST[@]} -gt 0 ] && vt_log "Failures: ${VT_FAILED_LIST[*]}"
	if [ "$VT_N_ERR" -gt 0 ]; then
		vt_log "Errors: $VT_N_ERR (setup or harness broke, no verdict): ${VT_ERROR_LIST[*]}"
		echo "Errors: $VT_N_ERR (setup or harness broke, no verdict on the kernel): ${VT_ERROR_LIST[*]}"
	fi
	vt_log "$VT_N_PASS passed, $((VT_N_FAIL + VT_N_ERR)) failed, $VT_N_SKIP skipped"
	echo "$VT_N_PASS passed, $((VT_N_FAIL + VT_N_ERR)) failed, $VT_N_SKIP skipped"
	[ -n "$VT_WRITE_ERROR" ] && return 2
	[ "$VT_REPORT_INCOMPLETE" = 1 ] && return 130
	[ "$VT_N_FAIL" -eq 0 ] && [ "$VT_N_ERR" -eq 0 ]
}
