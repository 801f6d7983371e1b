# What check may remove: only what lies inside a directory whose name it
# made, or inside the results directory it holds locked. Every removal of
# the runner goes through vt_rm, which refuses anything else, "/" and an
# empty path included, whatever the variables that built the path hold.
#
# The suite's own directory names:
# - vfsidmap.PID.XXXXXX: a run directory under VT_RUN_BASE, and a scratch
#   directory in a configured TEST_DIR (common/rundir.sh, common/fs.sh);
# - .vfsidmap-stage.NAME.XXXXXX: the staging of results directory NAME,
#   next to it (common/results.sh), which after publishing holds the
#   previous results until they are pruned.
# A results directory may not be given a name of either form
# (vt_results_where), so no user-chosen name is one of them.

# Is PATH inside one of the suite's own directories (or the locked
# results directory)? Plain string tests: no command runs, so nothing can
# fail half-way and leave a wrong answer.
vt_inside() { # path
	local p=$1
	case $p in
	"" | [!/]* | */../* | */.. | */./* | */.) return 1 ;;
	esac
	[[ $p =~ /vfsidmap\.[0-9]+\.[A-Za-z0-9]{6}(/|$) ]] && return 0
	[[ $p =~ /\.vfsidmap-stage\.[^/]+\.[A-Za-z0-9]{6}(/|$) ]] && return 0
	if [ -n "${VT_RESULT_DIR:-}" ] && [ "$VT_RESULT_DIR" != / ] && [ -n "${VT_RESULTS_LOCKED:-}" ]; then
		[[ $p == "$VT_RESULT_DIR"/?* ]] && return 0
	fi
	return 1
}

# rm -f (-r: rm -rf --one-file-system) of PATHs, each checked by
# vt_inside first; one outside refuses the whole call, removes nothing,
# says so and returns 3 (an internal error of the suite, never a verdict).
vt_rm() { # [-r] path...
	local recursive=0 p
	[ "${1:-}" = -r ] && { recursive=1; shift; }
	for p in "$@"; do
		if ! vt_inside "$p"; then
			echo "check: INTERNAL ERROR: refusing to remove '$p': it is not inside a directory the suite made (${FUNCNAME[1]:-?})" >&2
			return 3
		fi
	done
	[ $# -gt 0 ] || return 0
	if [ $recursive = 1 ]; then
		rm -rf --one-file-system -- "$@"
	else
		rm -f -- "$@"
	fi
}
