#!/bin/bash
# run/gcov-report on a small program built here with --coverage (TAP): the
# reached/not reached of each inventory site is computed from gcov's counts,
# not assumed. The .gcda files are laid out as debugfs shows a kernel's (under
# the build's absolute path), a header inlined into two objects has its
# counts summed, and a second run of the program turns a "no" into a "yes".
set -u
. "$(dirname "$0")/tap-status.sh"
report=$top/run/gcov-report

if ! command -v gcc >/dev/null || ! command -v gcov >/dev/null; then
	echo "1..0 # SKIP gcc or gcov not installed"
	exit 0
fi
base=$(mktemp -d /tmp/vfsidmap-gcovrep.XXXXXX)
trap 'rm -rf "$base"' EXIT
b=$base/build
mkdir -p "$b/obj"
cat >"$b/twice.h" <<'EOF'
static inline int twice(int x)
{
	return 2 * x; /* SITE-H */
}
EOF
cat >"$b/a.c" <<'EOF'
#include "twice.h"
int b_side(int x);
static int left(int x)
{
	return twice(x) + 1; /* SITE-L */
}
static int right(int x)
{
	return x - 1; /* SITE-R */
}
int main(int argc, char **argv)
{
	(void)argv;
	/* SITE-C: a comment has no code */
	if (argc > 1)
		return right(argc) + b_side(argc) > 1000;
	return left(argc) + b_side(argc) > 1000;
}
EOF
cat >"$b/b.c" <<'EOF'
#include "twice.h"
int b_side(int x)
{
	return twice(x); /* SITE-B */
}
EOF
if ! (cd "$b" && gcc --coverage -O0 -c a.c -o obj/a.o && gcc --coverage -O0 -c b.c -o obj/b.o &&
	gcc --coverage obj/a.o obj/b.o -o prog) >"$base/cc.log" 2>&1; then
	echo "1..0 # SKIP cannot build with --coverage: $(head -n 1 "$base/cc.log")"
	exit 0
fi
line_of() { grep -n "$1" "$2" | cut -d: -f1; }
{
	printf 'file\tline\tfunction\thelper\tmodel_functions\tmutants\tstatus\treason\n'
	printf 'a.c\t%s\tleft\ttwice\t-\t-\tmodelled\t-\n' "$(line_of SITE-L "$b/a.c")"
	printf 'a.c\t%s\tright\tsub\t-\t-\tnot modelled\tx\n' "$(line_of SITE-R "$b/a.c")"
	printf 'a.c\t%s\tmain\tcomment\t-\t-\tnot modelled\tx\n' "$(line_of SITE-C "$b/a.c")"
	printf 'b.c\t%s\tb_side\ttwice\t-\t-\tmodelled\t-\n' "$(line_of SITE-B "$b/b.c")"
	printf 'twice.h\t%s\ttwice\tmul\t-\t-\tmodelled\t-\n' "$(line_of SITE-H "$b/twice.h")"
	printf 'c.c\t7\tnowhere\tx\t-\t-\tnot modelled\tx\n'
} >"$base/inv.tsv"

# Lay the .gcda out as /sys/kernel/debug/gcov does: under the build's path.
collect() { # DEST
	local d=$1$b/obj
	mkdir -p "$d" && cp "$b"/obj/*.gcda "$d/" && rm -f "$b"/obj/*.gcda
}
(cd "$b" && ./prog)
collect "$base/gcda1"
site() { # OUT FUNCTION -> "reached count note"
	awk -F'\t' -v f="$2" '$3 == f { print $6, $7, $8 }' "$1/sites.tsv"
}

echo "1..15"
"$report" --build "$b" --gcda "$base/gcda1" --inventory "$base/inv.tsv" --out "$base/r1" >"$base/r1.log" 2>&1
ok $? "report of the first run: exit 0"
ok $([ "$(site "$base/r1" left)" = "yes 1 -" ] && echo 0 || echo 1) "the branch taken: reached once ($(site "$base/r1" left))"
ok $([ "$(site "$base/r1" right)" = "no 0 -" ] && echo 0 || echo 1) "the branch not taken: not reached, count 0 ($(site "$base/r1" right))"
ok $([ "$(site "$base/r1" main)" = "- - no code on this line in gcov" ] && echo 0 || echo 1) "a comment line: no code ($(site "$base/r1" main))"
ok $([ "$(site "$base/r1" nowhere)" = "- - file not profiled" ] && echo 0 || echo 1) "a file without data: not profiled ($(site "$base/r1" nowhere))"
# twice() runs once from a.c (left) and once from b.c: 2 over both objects.
ok $([ "$(site "$base/r1" twice)" = "yes 2 -" ] && echo 0 || echo 1) "header inlined in two objects: counts summed ($(site "$base/r1" twice))"
grep -q '^inventory sites: 6; in profiled files with code on the line: 4; reached: 3; not reached: 1$' "$base/r1/summary.txt"
ok $? "summary counts the sites ($(sed -n 4p "$base/r1/summary.txt"))"

# The other branch, twice: right's site is reached, left's not.
(cd "$b" && ./prog x && ./prog x)
collect "$base/gcda2"
"$report" --build "$b" --gcda "$base/gcda2" --inventory "$base/inv.tsv" --out "$base/r2" --no-html >"$base/r2.log" 2>&1
ok $? "report of the second run: exit 0"
ok $([ "$(site "$base/r2" right)" = "yes 2 -" ] && [ "$(site "$base/r2" left)" = "no 0 -" ] && echo 0 || echo 1) \
	"the other branch: reached twice, the first not ($(site "$base/r2" right); $(site "$base/r2" left))"

# Both runs together: counts add up (left 1 + 0, right 0 + 2; twice 2 + 2:
# the second run calls it only from b_side, once per execution).
"$report" --build "$b" --gcda "$base/gcda1" --gcda "$base/gcda2" --inventory "$base/inv.tsv" --out "$base/r12" --no-html >"$base/r12.log" 2>&1
ok $([ "$(site "$base/r12" left)" = "yes 1 -" ] && [ "$(site "$base/r12" right)" = "yes 2 -" ] && [ "$(site "$base/r12" twice)" = "yes 4 -" ] && echo 0 || echo 1) \
	"two --gcda are summed ($(site "$base/r12" left); $(site "$base/r12" right); $(site "$base/r12" twice))"

if command -v genhtml >/dev/null; then
	ok $([ -s "$base/r1/html/index.html" ] && [ -s "$base/r1/lcov.info" ] && echo 0 || echo 1) "lcov's HTML is written"
else
	ok 0 "lcov's HTML is written # SKIP lcov not installed"
fi

# Failures: a .gcda from another build, an empty one, bad usage.
mkdir -p "$base/stray/x" && cp "$base/gcda1$b/obj/a.gcda" "$base/stray/x/zzz.gcda"
"$report" --build "$b" --gcda "$base/stray" --out "$base/r3" >/dev/null 2>&1
ok $([ $? = 1 ] && echo 0 || echo 1) "a .gcda without a .gcno: exit 1"
mkdir -p "$base/empty$b/obj" && : >"$base/empty$b/obj/a.gcda"
"$report" --build "$b" --gcda "$base/empty" --out "$base/r4" >/dev/null 2>&1
ok $([ $? = 1 ] && echo 0 || echo 1) "an empty .gcda (a failed copy): exit 1"
"$report" --build "$b" --gcda "$base/nope" --out "$base/r5" >/dev/null 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "missing --gcda directory: exit 2"
"$report" --build "$b" --out "$base/r5" >/dev/null 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "no --gcda: exit 2"
[ $failed -eq 0 ]
