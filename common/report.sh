# Reporting: terminal lines, results/check.log (appended per run, as in
# xfstests), results/results.ktap (KTAP v1, one nested subtest per test and
# filesystem), results/result.xml (JUnit), and the closing line
# "N passed, N failed, N skipped".

VT_RESULT_DIR=""
VT_N_PASS=0 VT_N_FAIL=0 VT_N_SKIP=0 VT_N=0
VT_C_PASS=0 VT_C_FAIL=0 VT_C_SKIP=0
VT_FAILED_LIST=() VT_NOTRUN_LIST=()
VT_START=0

vt_xml_escape() {
	sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' \
	    -e "s/'/\&apos;/g" | tr -d '\000-\010\013\014\016-\037'
}

vt_report_begin() {
	VT_RESULT_DIR=${VT_RESULTS:-$VT_TOP/results}
	mkdir -p "$VT_RESULT_DIR" || exit 2
	VT_RESULT_DIR=$(cd "$VT_RESULT_DIR" && pwd)
	VT_START=$(date +%s)
	: >"$VT_RESULT_DIR/.result.xml.part"
	vt_coverage_begin
	{
		echo "KTAP version 1"
		echo "1..$(( ${#VT_SECTIONS[@]} * ${#VT_SELECTED[@]} * ${VT_ITERATIONS:-1} ))"
	} >"$VT_RESULT_DIR/results.ktap"
	{
		echo ""
		echo "run started $(date -u +%FT%TZ) on $(uname -r) ($(hostname 2>/dev/null))"
		echo "command: ./check ${VT_ARGV:-}"
	} >>"$VT_RESULT_DIR/check.log"
}

vt_report_section() { # run index
	local i=$1 src
	if [ -n "${VT_S_DEV[$i]}" ]; then src="TEST_DEV ${VT_S_DEV[$i]}"
	elif [ "${VT_S_FS[$i]}" = tmpfs ]; then src="tmpfs"
	else src="loop-backed image in $VT_RUNDIR"; fi
	echo "SECTION       -- ${VT_S_NAME[$i]}"
	echo "FSTYP         -- ${VT_S_FS[$i]} ($src)"
	echo "KERNEL        -- $(uname -r)"
	[ -n "${VT_S_MKFS[$i]}" ] && echo "MKFS_OPTIONS  -- ${VT_S_MKFS[$i]}"
	[ -n "${VT_S_MOPTS[$i]}" ] && echo "MOUNT_OPTIONS -- ${VT_S_MOPTS[$i]}"
	[ -n "$VT_FS_NOTRUN" ] && echo "NOT RUN       -- $VT_FS_NOTRUN"
	[ -n "$VT_FS_ERROR" ] && echo "SETUP FAILED  -- $VT_FS_ERROR"
	echo ""
	echo "SECTION ${VT_S_NAME[$i]} FSTYP=${VT_S_FS[$i]} ($src)" >>"$VT_RESULT_DIR/check.log"
}

# Counts the top-level results of a test's KTAP: sets CP CF CS.
vt_count_cases() { # ktap file
	CP=0 CF=0 CS=0
	[ -f "$1" ] || return 0
	local counts
	counts=$(awk '/^not ok /{f++} /^ok /{if (/ # SKIP/) s++; else p++} END{print p+0, f+0, s+0}' "$1")
	read -r CP CF CS <<<"$counts"
}

vt_report_test() { # run index, test
	local i=$1 t=$2 name="${VT_S_NAME[$1]}:$2" line ktap=$VT_T_KTAP
	local rel="${VT_RESULT_DIR#"$PWD"/}/${VT_S_NAME[$i]}/$t"
	VT_N=$((VT_N + 1))
	vt_count_cases "$ktap"
	VT_C_PASS=$((VT_C_PASS + CP)) VT_C_FAIL=$((VT_C_FAIL + CF)) VT_C_SKIP=$((VT_C_SKIP + CS))
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
	esac
	# xfstests: the last run's time (check.time), then this run's
	vt_times_last "$t"
	printf '%-14s %5s ... %4ss %s\n' "$t" "$VT_LAST" "$VT_T_TIME" "$line"
	if [ "$VT_T_RESULT" = fail ] && [ -f "$ktap" ]; then
		local max=5
		[ "$VT_VERBOSE" = 1 ] && max=100000
		grep -E '^ *# (FAIL|  world|.*reproduce)' "$ktap" | head -n "$max" | sed 's/^ */    /'
	fi
	echo "$t $VT_T_RESULT ${VT_T_TIME}s (${VT_T_MS:-0}ms)${VT_T_REASON:+ $VT_T_REASON}" >>"$VT_RESULT_DIR/check.log"

	# KTAP: the test's own stream nested under one result line.
	{
		echo "  # Subtest: $name"
		if [ -s "$ktap" ]; then
			sed 's/^/  /' "$ktap"
		else
			echo "  KTAP version 1"
			echo "  1..0"
		fi
		[ "$VT_T_RESULT" = fail ] && [ -n "$VT_T_REASON" ] && echo "# $name: $VT_T_REASON"
		case $VT_T_RESULT in
		pass) echo "ok $VT_N $name" ;;
		notrun) echo "ok $VT_N $name # SKIP $VT_T_REASON" | tr -d '\r' ;;
		fail) echo "not ok $VT_N $name" ;;
		esac
	} >>"$VT_RESULT_DIR/results.ktap"

	# JUnit: one testcase per test and filesystem.
	local VT_T_SECS
	printf -v VT_T_SECS '%d.%03d' $(( ${VT_T_MS:-0} / 1000 )) $(( ${VT_T_MS:-0} % 1000 ))
	{
		printf '  <testcase classname="vfsidmap.%s" name="%s" time="%s">\n' \
			"${VT_S_NAME[$i]}" "$t" "$VT_T_SECS"
		case $VT_T_RESULT in
		notrun) printf '    <skipped message="%s"/>\n' "$(printf '%s' "$VT_T_REASON" | vt_xml_escape)" ;;
		fail)
			printf '    <failure message="%s">' \
				"$(printf '%s' "${VT_T_REASON:-$CF cases failed}" | vt_xml_escape)"
			[ -f "$ktap" ] && grep -E '^ *(not ok|# FAIL|#   world)' "$ktap" | vt_xml_escape
			printf '</failure>\n' ;;
		esac
		if [ -f "$ktap" ]; then
			printf '    <system-out>'
			vt_xml_escape <"$ktap"
			printf '</system-out>\n'
		fi
		printf '  </testcase>\n'
	} >>"$VT_RESULT_DIR/.result.xml.part"
}

vt_report_end() {
	local elapsed=$(( $(date +%s) - VT_START )) t
	{
		printf '<?xml version="1.0" encoding="UTF-8"?>\n'
		printf '<testsuite name="vfsidmap" tests="%d" failures="%d" skipped="%d" errors="0" time="%d" timestamp="%s" hostname="%s">\n' \
			"$VT_N" "$VT_N_FAIL" "$VT_N_SKIP" "$elapsed" "$(date -u +%FT%T)" \
			"$(hostname 2>/dev/null | vt_xml_escape)"
		printf '  <properties>\n    <property name="kernel" value="%s"/>\n  </properties>\n' \
			"$(uname -r | vt_xml_escape)"
		cat "$VT_RESULT_DIR/.result.xml.part"
		printf '</testsuite>\n'
	} >"$VT_RESULT_DIR/result.xml"
	rm -f "$VT_RESULT_DIR/.result.xml.part"
	echo ""
	[ "$VT_INTERRUPTED" = 1 ] && echo "Interrupted: the run was stopped by a signal."
	echo "Ran: $((VT_N - VT_N_SKIP)) of $VT_N test runs in ${elapsed}s"
	[ ${#VT_NOTRUN_LIST[@]} -gt 0 ] && [ "${VT_BRIEF:-0}" = 0 ] && echo "Not run: ${VT_NOTRUN_LIST[*]}"
	if [ ${#VT_FAILED_LIST[@]} -gt 0 ]; then
		echo "Failures: ${VT_FAILED_LIST[*]}"
		echo "Failed ${#VT_FAILED_LIST[@]} of $VT_N test runs"
	fi
	echo "Cases: $VT_C_PASS passed, $VT_C_FAIL failed, $VT_C_SKIP skipped"
	echo "Results: $VT_RESULT_DIR (check.log, results.ktap, result.xml, rule-coverage.tsv)"
	{
		[ ${#VT_NOTRUN_LIST[@]} -gt 0 ] && echo "Not run: ${VT_NOTRUN_LIST[*]}"
		[ ${#VT_FAILED_LIST[@]} -gt 0 ] && echo "Failures: ${VT_FAILED_LIST[*]}"
		echo "$VT_N_PASS passed, $VT_N_FAIL failed, $VT_N_SKIP skipped"
	} >>"$VT_RESULT_DIR/check.log"
	echo "$VT_N_PASS passed, $VT_N_FAIL failed, $VT_N_SKIP skipped"
	[ "$VT_INTERRUPTED" = 1 ] && return 130
	[ "$VT_N_FAIL" -eq 0 ]
}
