# Tests: discovery (tests/<suite>/group.list), selection by group and name,
# expunge lists, listing.

declare -A VT_TEST_GROUPS=()     # suite/NNN -> " group group "
declare -A VT_EXPUNGED=()        # suite/NNN -> reason
declare -A VT_CASE_EXPUNGES=()   # suite/NNN -> lines "case<TAB>reason"
VT_ALL_TESTS=()
VT_SELECTED=()

vt_discover_tests() {
	local list suite nnn groups
	for list in "$VT_TOP"/tests/*/group.list; do
		[ -r "$list" ] || continue
		suite=$(basename "$(dirname "$list")")
		while read -r nnn groups; do
			case "$nnn" in ''|'#'*) continue ;; esac
			VT_ALL_TESTS+=("$suite/$nnn")
			VT_TEST_GROUPS["$suite/$nnn"]=" $groups "
		done <"$list"
	done
}

vt_in_group() { # test group
	[[ "${VT_TEST_GROUPS[$1]}" == *" $2 "* ]]
}

# Expunge entries: "[fs:]suite/NNN[/case] [# reason]". Keys are "fs|test"
# ("*|test" without a filesystem). Files under expunge/ named after a
# filesystem (expunge/xfs) apply to runs on it, unless --no-default-expunges.
vt_load_expunge_file() { # file implied-fs-or-empty
	local file=$1 implied=$2 line n=0 name reason fs
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		reason=""
		if [[ "$line" == *'#'* ]]; then
			reason=${line#*#}
			reason=${reason#"${reason%%[![:space:]]*}"}
			line=${line%%#*}
		fi
		# words joined by one space, without a fork per line (expunge/xfs is long)
		local -a words
		read -ra words <<<"$line"
		name="${words[*]}"
		[ -z "$name" ] && continue
		[ -n "$reason" ] || reason="listed in $file"
		if [[ "$name" =~ ^(([a-z0-9]+):)?([a-z0-9_-]+/[0-9]{3})(/(.+))?$ ]]; then
			fs=${BASH_REMATCH[2]:-${implied:-*}}
			local test=${BASH_REMATCH[3]} case=${BASH_REMATCH[5]}
			if [ -z "${VT_TEST_GROUPS[$test]+x}" ]; then
				echo "check: $file:$n: unknown test '$test'" >&2
				return 2
			fi
			if [ -n "$case" ]; then
				VT_CASE_EXPUNGES["$fs|$test"]+="$case	$reason"$'\n'
			else
				VT_EXPUNGED["$fs|$test"]=$reason
			fi
		else
			echo "check: $file:$n: want [fs:]suite/NNN[/case], got '$name'" >&2
			return 2
		fi
	done <"$file"
}

vt_load_expunges() {
	local file
	if [ "$VT_DEFAULT_EXPUNGES" = 1 ]; then
		for file in "$VT_TOP"/expunge/*; do
			[ -f "$file" ] || continue
			vt_load_expunge_file "$file" "$(basename "$file")" || return 2
		done
	fi
	for file in ${VT_EXPUNGE_FILES[@]+"${VT_EXPUNGE_FILES[@]}"}; do
		vt_load_expunge_file "$file" "" || return 2
	done
}

# The reason TEST is expunged on FS, or nothing.
vt_expunge_reason_var() { # fs test -> VT_WHY (no subshell)
	VT_WHY=${VT_EXPUNGED["$1|$2"]-${VT_EXPUNGED["*|$2"]-}}
}

vt_expunge_reason() { # fs test
	if [ -n "${VT_EXPUNGED["$1|$2"]+x}" ]; then echo "${VT_EXPUNGED["$1|$2"]}"
	elif [ -n "${VT_EXPUNGED["*|$2"]+x}" ]; then echo "${VT_EXPUNGED["*|$2"]}"
	fi
}

vt_select_tests() {
	local t g keep
	vt_discover_tests
	if [ ${#VT_ALL_TESTS[@]} -eq 0 ]; then
		echo "check: no tests found under $VT_TOP/tests" >&2
		return 2
	fi
	vt_load_expunges || return 2
	for t in ${VT_TEST_ARGS[@]+"${VT_TEST_ARGS[@]}"}; do
		# an empty name is no array subscript (found by fuzz/fuzz-check.sh)
		if [ -z "$t" ] || [ -z "${VT_TEST_GROUPS[$t]+x}" ]; then
			echo "check: unknown test '$t' (see ./check -l)" >&2
			return 2
		fi
	done
	if [ ${#VT_GROUPS[@]} -gt 0 ]; then
		for g in "${VT_GROUPS[@]}"; do
			local found=0
			for t in "${VT_ALL_TESTS[@]}"; do vt_in_group "$t" "$g" && found=1 && break; done
			if [ "$found" = 0 ]; then
				echo "check: no test is in group '$g'" >&2
				return 2
			fi
		done
	fi
	for g in ${VT_XGROUPS[@]+"${VT_XGROUPS[@]}"}; do
		local found=0
		for t in "${VT_ALL_TESTS[@]}"; do vt_in_group "$t" "$g" && found=1 && break; done
		if [ "$found" = 0 ]; then
			echo "check: -x: no test is in group '$g'" >&2
			return 2
		fi
	done
	for t in "${VT_ALL_TESTS[@]}"; do
		keep=0
		if [ ${#VT_TEST_ARGS[@]} -gt 0 ] || [ ${#VT_GROUPS[@]} -gt 0 ]; then
			for g in ${VT_TEST_ARGS[@]+"${VT_TEST_ARGS[@]}"}; do [ "$g" = "$t" ] && keep=1; done
			for g in ${VT_GROUPS[@]+"${VT_GROUPS[@]}"}; do vt_in_group "$t" "$g" && keep=1; done
		else
			vt_in_group "$t" auto && keep=1
		fi
		for g in ${VT_XGROUPS[@]+"${VT_XGROUPS[@]}"}; do vt_in_group "$t" "$g" && keep=0; done
		[ "$keep" = 1 ] && VT_SELECTED+=("$t")
	done
	if [ ${#VT_SELECTED[@]} -eq 0 ]; then
		echo "check: no test selected" >&2
		return 2
	fi
}

vt_test_binary() { # suite/NNN
	echo "$VT_TOP/tests/$1"
}

# The header comment's first line: "/* suite/NNN: description" -> description.
vt_test_title() {
	local src="$VT_TOP/tests/$1.c" line
	[ -r "$src" ] || { echo ""; return; }
	line=$(head -n 1 "$src")
	line=${line#/\* }
	line=${line#"$1": }
	echo "$line"
}

# The header paragraph after the title line, up to the first blank line.
vt_test_paragraph() {
	local src="$VT_TOP/tests/$1.c"
	[ -r "$src" ] || return 0
	awk 'NR == 1 { next }
	     /\*\// { l = $0; sub(/^ \* ?/, "    ", l); sub(/ *\*\/.*/, "", l); if (l ~ /[^ ]/) print l; exit }
	     /^ \*$/ { if (body) exit; next }
	     { body = 1; sub(/^ \* ?/, "    "); print }' "$src"
}

vt_list_tests() {
	local t g
	for t in "${VT_SELECTED[@]}"; do
		g=${VT_TEST_GROUPS[$t]}
		g=$(echo $g)
		printf '%-14s %-44s %s\n' "$t" "[$g]" "$(vt_test_title "$t")"
		[ "$VT_VERBOSE" = 1 ] && vt_test_paragraph "$t" && echo ""
	done
	return 0
}

# With --fs, the ids each of those filesystems has (common/replay.sh),
# each once; without, the ids without FSTYP (every form but vfat's).
vt_list_cases() {
	local t fs rc=0 fss=("")
	[ -n "$VT_FS_ARG" ] && IFS=, read -ra fss <<<"$VT_FS_ARG"
	for t in "${VT_SELECTED[@]}"; do
		if [ ! -x "$(vt_test_binary "$t")" ]; then
			echo "check: $t is not built" >&2
			rc=2
			continue
		fi
		for fs in "${fss[@]}"; do
			vt_test_cases "$t" "$fs"
		done | awk '!seen[$0]++'
	done
	return $rc
}
