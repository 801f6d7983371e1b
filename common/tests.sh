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
		suite=${list%/group.list} suite=${suite##*/}   # (no basename fork per suite)
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

# A -g argument as xfstests reads it: "all" (every test), SUITE/GROUP (the
# group within one suite) or GROUP.
vt_in_group_arg() { # test group-arg
	case "$2" in
	all) return 0 ;;
	*/*) [ "${1%%/*}" = "${2%%/*}" ] && vt_in_group "$1" "${2#*/}" ;;
	*) vt_in_group "$1" "$2" ;;
	esac
}

# The tests a name or a glob ('api/*', 'matrix/01?', '*/001') stands for,
# in discovery order, into VT_MATCHES. Returns 1 when none does.
vt_match_tests() { # pattern
	local t
	VT_MATCHES=()
	if [ -n "${VT_TEST_GROUPS[$1]+x}" ]; then
		VT_MATCHES=("$1")
		return 0
	fi
	case "$1" in
	*[][*?]*)
		for t in "${VT_ALL_TESTS[@]}"; do
			# shellcheck disable=SC2053 # the pattern is meant to match
			[[ "$t" == $1 ]] && VT_MATCHES+=("$t")
		done ;;
	esac
	[ ${#VT_MATCHES[@]} -gt 0 ]
}

# -e LIST and -X NAME (tests/SUITE/NAME): names or globs left out. A name
# in a suite we do not have is ignored with a notice (a shared exclude
# list); an unknown name in one of ours is an error.
declare -A VT_EXCLUDED_BY_NAME=()
vt_load_name_excludes() {
	local x suite file line foreign=()
	for x in ${VT_EXCLUDE_TESTS[@]+"${VT_EXCLUDE_TESTS[@]}"}; do
		[ -n "$x" ] || continue
		if [[ "$x" == */* ]] && [[ "${x%%/*}" != *[][*?]* ]] && ! vt_is_our_suite "${x%%/*}"; then
			foreign+=("$x")
			continue
		fi
		vt_match_tests "$x" || { echo "check: -e: no test matches '$x' (see ./check -l)" >&2; return 2; }
		for line in "${VT_MATCHES[@]}"; do VT_EXCLUDED_BY_NAME[$line]=1; done
	done
	[ ${#foreign[@]} -eq 0 ] || vt_notice_foreign "-e" "${foreign[@]}"
	local found=0
	for x in ${VT_SUBDIR_XFILES[@]+"${VT_SUBDIR_XFILES[@]}"}; do
		for file in "$VT_TOP"/tests/*/"$x"; do
			[ -f "$file" ] || continue
			found=1
			suite=${file%/*} suite=${suite##*/}
			local n=0
			while IFS= read -r line || [ -n "$line" ]; do
				n=$((n + 1))
				local words w m
				read -ra words <<<"${line%%#*}" # no pathname expansion in read
				for w in ${words[@]+"${words[@]}"}; do
					vt_match_tests "$suite/$w" || {
						echo "check: $file:$n: no test $suite/$w" >&2
						return 2
					}
					for m in "${VT_MATCHES[@]}"; do VT_EXCLUDED_BY_NAME[$m]=1; done
				done
			done <"$file"
		done
		[ "$found" = 1 ] || echo "check: -X $x: no tests/*/$x exists: nothing left out" >&2
	done
	return 0
}

# Order of the selection: sorted (discovery order: suites by name, tests by
# number), as given (--exact-order), or shuffled with a seed (-r) that is
# printed so that --seed gives the same order again. The shuffle is
# Fisher-Yates over a 31-bit linear congruential generator in bash
# arithmetic, so the order depends on the seed alone, not on the machine.
vt_order_tests() {
	[ "$VT_RANDOMIZE" = 1 ] || return 0
	local seed=${VT_SEED:-$(( (RANDOM << 15 | RANDOM) % 1000000000 ))}
	# The matrix shuffles its cases with the same seed (VT_SEED), so the
	# printed seed repeats the whole order.
	VT_ORDER_SEED=$seed VT_SEED=$seed
	local x=$seed i j tmp n=${#VT_SELECTED[@]}
	for ((i = n - 1; i > 0; i--)); do
		x=$(( (x * 1103515245 + 12345) % 2147483648 ))
		j=$(( x % (i + 1) ))
		tmp=${VT_SELECTED[i]} VT_SELECTED[i]=${VT_SELECTED[j]} VT_SELECTED[j]=$tmp
	done
}

# Expunge entries: "[fs:]suite/NNN[/case] [# reason]". Keys are "fs|test"
# ("*|test" without a filesystem). Files under expunge/ named after a
# filesystem (expunge/xfs) apply to runs on it, and expunge/kernel/M.N to
# runs on an M.N kernel, unless --no-default-expunges.
vt_load_expunge_file() { # file implied-fs-or-empty [bounded]
	local file=$1 implied=$2 line n=0 name reason fs foreign=() test case efd
	# Case lines of one test come in runs (expunge/xfs: hundreds for
	# matrix/008): they are gathered in a plain variable and appended to
	# VT_CASE_EXPUNGES once a run (appending to an associative array's
	# element a line at a time took 80 ms for expunge/xfs on the host).
	local key="" acc="" prefix=""
	# words are split by an assignment, without pathname expansion (the
	# shell options are the function's own: local -); a here-string would
	# be read from a pipe a byte a system call
	local -
	set -f
	# a file of -E: no more than VT_INPUT_MAX bytes of it (vt_input_file
	# counted that many when the option was read; a procfs file may give
	# more now); the suite's own are read as they are, at a file's speed
	if [ "${3:-}" = bounded ]; then
		exec {efd}< <(exec head -c "$VT_INPUT_MAX" -- "$file")
	else
		exec {efd}<"$file"
	fi || return 2
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
		# shellcheck disable=SC2206 # split on IFS, no globbing (set -f)
		words=($line)
		name="${words[*]}"
		[ -z "$name" ] && continue
		[ -n "$reason" ] || reason="listed in $file"
		# A case of the test the line before named, written the same way
		# ("[fs:]suite/NNN/" and more): the same key, without the regex
		# below (compiled anew each time: 600 lines of expunge/xfs)
		if [ -n "$key" ] && [ ${#name} -gt ${#prefix} ] && [[ "$name" == "$prefix"* ]]; then
			acc+="${name:${#prefix}}	$reason"$'\n'
			continue
		fi
		# A test of ours first: one match a line, no stat (expunge/xfs
		# has hundreds of case lines)
		if [[ "$name" =~ ^(([a-z0-9]+):)?([a-z0-9_-]+/[0-9]{3})(/(.+))?$ ]] &&
			[ -n "${VT_TEST_GROUPS[${BASH_REMATCH[3]}]+x}" ]; then
			fs=${BASH_REMATCH[2]:-${implied:-*}} test=${BASH_REMATCH[3]} case=${BASH_REMATCH[5]}
			if [ -n "$case" ]; then
				if [ "$fs|$test" != "$key" ]; then
					[ -z "$key" ] || VT_CASE_EXPUNGES["$key"]+=$acc
					key="$fs|$test" acc=""
				fi
				prefix="${BASH_REMATCH[1]}$test/"
				acc+="$case	$reason"$'\n'
			else
				VT_EXPUNGED["$fs|$test"]=$reason
			fi
		# A shared xfstests exclude list names tests of other suites
		# (generic/001, xfs/123): not ours, so ignored with one notice.
		elif [[ "$name" =~ ^([a-z0-9]+:)?([A-Za-z0-9_.-]+)/[^[:space:]]+$ ]] &&
			! vt_is_our_suite "${BASH_REMATCH[2]}"; then
			foreign+=("$name")
		elif [[ "$name" =~ ^(([a-z0-9]+):)?([a-z0-9_-]+/[0-9]{3})(/(.+))?$ ]]; then
			echo "check: $file:$n: unknown test '${BASH_REMATCH[3]}'" >&2
			exec {efd}<&-
			return 2
		else
			echo "check: $file:$n: want [fs:]suite/NNN[/case], got '$name'" >&2
			exec {efd}<&-
			return 2
		fi
	done <&"$efd"
	exec {efd}<&-
	[ -z "$key" ] || VT_CASE_EXPUNGES["$key"]+=$acc
	[ ${#foreign[@]} -eq 0 ] || vt_notice_foreign "$file" "${foreign[@]}"
}

# Suites are the directories under tests/ with a group.list.
vt_is_our_suite() { # name
	[ -f "$VT_TOP/tests/$1/group.list" ]
}

# One line for every list that names tests of other suites.
vt_notice_foreign() { # where name...
	local where=$1; shift
	local some="${*:1:3}"
	[ $# -gt 3 ] && some+=" ..."
	echo "check: $where: $# name(s) of suites vfsidmap does not have ($some): ignored" >&2
}

# The running kernel's MAJOR.MINOR (6.18 of 6.18.44-...), for
# expunge/kernel/MAJOR.MINOR: what that kernel is known to get wrong.
vt_kernel_series() {
	local r
	IFS= read -r r </proc/sys/kernel/osrelease 2>/dev/null || r=$(uname -r)
	[[ "$r" =~ ^([0-9]+\.[0-9]+) ]] && echo "${BASH_REMATCH[1]}"
}

vt_load_expunges() {
	local file series
	if [ "$VT_DEFAULT_EXPUNGES" = 1 ]; then
		for file in "$VT_TOP"/expunge/*; do
			[ -f "$file" ] || continue
			vt_load_expunge_file "$file" "${file##*/}" || return 2
		done
		# expunge/kernel/6.18 applies on 6.18 kernels, to every
		# filesystem unless an entry names one (ext4:idmapped/007)
		series=$(vt_kernel_series)
		file=$VT_TOP/expunge/kernel/$series
		if [ -n "$series" ] && [ -f "$file" ]; then
			vt_load_expunge_file "$file" "" || return 2
		fi
	fi
	for file in ${VT_EXPUNGE_FILES[@]+"${VT_EXPUNGE_FILES[@]}"}; do
		vt_load_expunge_file "$file" "" bounded || return 2
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
	vt_load_name_excludes || return 2
	local -A named=()
	local named_order=()
	for t in ${VT_TEST_ARGS[@]+"${VT_TEST_ARGS[@]}"}; do
		# an empty name is no test (found by fuzz/fuzz-check.sh)
		if [ -z "$t" ] || ! vt_match_tests "$t"; then
			case "$t" in
			*[][*?]*) echo "check: no test matches '$t' (see ./check -l)" >&2 ;;
			*) echo "check: unknown test '$t' (see ./check -l)" >&2 ;;
			esac
			return 2
		fi
		for g in "${VT_MATCHES[@]}"; do
			[ -n "${named[$g]+x}" ] || named_order+=("$g")
			named[$g]=1
		done
	done
	if [ ${#VT_GROUPS[@]} -gt 0 ]; then
		for g in "${VT_GROUPS[@]}"; do
			local found=0
			for t in "${VT_ALL_TESTS[@]}"; do vt_in_group_arg "$t" "$g" && found=1 && break; done
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
	# --exact-order: the named tests first, as given; then the groups'.
	local candidates=("${VT_ALL_TESTS[@]}")
	[ "$VT_EXACT_ORDER" = 1 ] && candidates=(${named_order[@]+"${named_order[@]}"} "${VT_ALL_TESTS[@]}")
	local -A seen=()
	for t in "${candidates[@]}"; do
		[ -z "${seen[$t]+x}" ] || continue
		seen[$t]=1
		keep=0
		if [ ${#VT_TEST_ARGS[@]} -gt 0 ] || [ ${#VT_GROUPS[@]} -gt 0 ]; then
			[ -n "${named[$t]+x}" ] && keep=1
			for g in ${VT_GROUPS[@]+"${VT_GROUPS[@]}"}; do vt_in_group_arg "$t" "$g" && keep=1; done
		else
			vt_in_group "$t" auto && keep=1
		fi
		for g in ${VT_XGROUPS[@]+"${VT_XGROUPS[@]}"}; do vt_in_group_arg "$t" "$g" && keep=0; done
		[ -n "${VT_EXCLUDED_BY_NAME[$t]+x}" ] && keep=0
		[ "$keep" = 1 ] && VT_SELECTED+=("$t")
	done
	if [ ${#VT_SELECTED[@]} -eq 0 ]; then
		echo "check: no test selected" >&2
		return 2
	fi
	vt_order_tests
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
