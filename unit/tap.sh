# Sourced by unit/'s script tests (TAP for automake's test driver): the
# build and source trees, the TAP counter and its helpers, the root check
# and a private work directory. Each test keeps its own plan, set -u and
# assertions.

top=${top_builddir:-.}
top=$(cd "$top" && pwd)
src=$(cd "${srcdir:-.}" && pwd)
MAKE=${MAKE:-make}
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }
check_() { if eval "$1"; then ok "$2"; else nok "$2"; fi; }

# Not root: the whole test is skipped with WHY (a plan of 0).
unit_needs_root() { # why
	if [ "$(id -u)" -ne 0 ]; then
		echo "1..0 # SKIP needs root ($1)"
		exit 0
	fi
}

# $work: a directory of this test's own below /var/tmp, removed at exit
# unless VT_KEEP is set; runs/ and tmp/ in it are VT_RUN_BASE and TMPDIR,
# so the test's ./check runs touch no other run on the machine.
unit_workdir() { # name
	work=$(mktemp -d "/var/tmp/vt-$1.XXXXXX") || exit 1
	[ -n "${VT_KEEP:-}" ] || trap 'rm -rf --one-file-system "$work"' EXIT
	chmod 755 "$work"
	mkdir -p "$work/runs" "$work/tmp"
	export VT_RUN_BASE=$work/runs TMPDIR=$work/tmp
}
