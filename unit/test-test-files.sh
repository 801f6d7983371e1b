#!/bin/bash
# vfsidmap-tool test-files (runner/test-files.h): the per-test files check
# writes after a test (NNN.full, NNN.ktap, NNN.rules), byte for byte, and
# the digest of the KTAP that common/run.sh reads (plan, top-level results,
# skip reasons). The expected digests are worked out by hand from KTAP
# (Documentation/dev-tools/ktap.rst: "1..N" plan, "ok N name", "not ok N
# name", "# SKIP reason" directive, "1..0 # SKIP reason" for a skipped
# document) and from what check prints with them.
set -u
. "${srcdir:-.}/unit/tap.sh"
tool=$top/runner/vfsidmap-tool
d=$(mktemp -d "${TMPDIR:-/tmp}/vt-test-files.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
echo "1..11"

# Runs the tool on OUT=$d/o, BASE=$d/b with a two-line header.
hdr=$'== h1\n== h2\n'
run() { rm -f "$d"/b.*; out=$("$tool" test-files "$d/o" "$d/b" "$hdr" 2>"$d/err"); rc=$?; }

# top level: ok, not ok, ok # SKIP; a nested case skip before the top one
printf 'KTAP version 1\n1..3\nok 1 a\nnot ok 2 b\n  ok 1 sub # SKIP nested reason\nok 3 c # SKIP why\n' >"$d/o.ktap"
: >"$d/o.stderr"
rm -f "$d/o.rules"
run
check_ '[ $rc -eq 0 ] && [ "$out" = "0 3 3 1 1 1"$'"'"'\n\nsub: nested reason'"'"' ]' \
	"plan 3, 3 top-level results: 1 passed, 1 failed, 1 skipped; the first case skip is the nested one (got $(printf %q "$out"))"
check_ '{ printf "%s" "$hdr"; cat "$d/o.ktap"; } | cmp -s - "$d/b.full" && cmp -s "$d/o.ktap" "$d/b.ktap" && [ ! -e "$d/b.rules" ]' \
	"NNN.full is the header and the KTAP (no stderr section for an empty stderr), NNN.ktap a copy, no NNN.rules without rules"

# the skipped document; stderr and rules with bytes that are not text
printf 'KTAP version 1\n1..0 # SKIP no idmap here\n' >"$d/o.ktap"
printf 'warn\0ing \xff\xfe\nlast line without newline' >"$d/o.stderr"
printf 'rule\tdecision\0\xff\n' >"$d/o.rules"
run
check_ '[ $rc -eq 0 ] && [ "$out" = "1 0 0 0 0 0"$'"'"'\nno idmap here'"'"' ]' \
	"a plan of 0 with a SKIP directive: skipped as a whole, plan 0, the directive's reason (got $(printf %q "$out"))"
check_ '{ printf "%s" "$hdr"; cat "$d/o.ktap"; echo "== stderr"; cat "$d/o.stderr"; } | cmp -s - "$d/b.full" && cmp -s "$d/o.rules" "$d/b.rules"' \
	"stderr follows '== stderr' byte for byte (NUL, invalid UTF-8, no final newline); NNN.rules is a copy"

# no plan, CRLF line ends, results whose number is not there
printf 'no plan\r\nok 1 a\r\nok x\nnot ok\n  ok 7  # SKIP empty name\nok 12a z # SKIP q\n1..05 late\n' >"$d/o.ktap"
: >"$d/o.stderr"
rm -f "$d/o.rules"
run
check_ '[ $rc -eq 0 ] && [ "$out" = "0 05 2 2 0 1"$'"'"'\n\n: empty name'"'"' ]' \
	"the first plan line's digits as written (05); results are top-level 'ok'/'not ok' and a digit ('ok 1 a', 'ok 12a z': 2; 'ok x', 'not ok' are not); passed/skipped go by a top-level 'ok ' without or with a SKIP directive (ok 1, ok x / ok 12a); the nested 'ok 7' with two spaces before its directive is the first case skip, with an empty name; 'ok 12a z' is none (its number has a letter) (got $(printf %q "$out"))"

# a results directory that is not there: the first file that cannot be
# written is named, the digest still printed
printf 'KTAP version 1\n1..1\nok 1 a\n' >"$d/o.ktap"
out=$("$tool" test-files "$d/o" "$d/missing/b" "$hdr" 2>"$d/err"); rc=$?
check_ '[ $rc -eq 3 ] && [ "$(cat "$d/err")" = "$d/missing/b.full" ] && [ "${out%%$'"'"'\n'"'"'*}" = "0 1 1 1 0 0" ]' \
	"an unwritable NNN.full: exit 3, its path on stderr, the digest on stdout (exit $rc)"

# no KTAP from the test at all
rm -f "$d/o.ktap"
run
check_ '[ $rc -eq 3 ] && [ "$(cat "$d/err")" = "$d/b.ktap" ] && [ "$(cat "$d/b.full")" = "== h1"$'"'"'\n'"'"'"== h2" ] && [ "${out%%$'"'"'\n'"'"'*}" = "0 - 0 0 0 0" ]' \
	"no OUT.ktap: NNN.full has the header only, NNN.ktap is the failure named (exit $rc)"

# a large KTAP (the matrix writes megabytes) is copied whole
{ echo "KTAP version 1"; echo "1..200000"; for ((i = 1; i <= 200000; i++)); do echo "ok $i case-$i"; done; } >"$d/o.ktap"
run
check_ '[ $rc -eq 0 ] && [ "${out%%$'"'"'\n'"'"'*}" = "0 200000 200000 200000 0 0" ] && cmp -s "$d/o.ktap" "$d/b.ktap"' \
	"200,000 results: counted and copied whole"

# --xml MAX SEE: OUT.xml is what xml-text --max MAX --see SEE makes of
# OUT.ktap (JUnit's system-out), beside the same files and digest
printf 'KTAP version 1\n1..1\nok 1 a<&>"\x01\xff\n# long line %s\n' "$(printf 'x%.0s' {1..300})" >"$d/o.ktap"
rm -f "$d/o.xml" "$d"/b.*
out=$("$tool" test-files --xml 100 s/001.full "$d/o" "$d/b" "$hdr" 2>"$d/err"); rc=$?
"$tool" xml-text --max 100 --see s/001.full <"$d/o.ktap" >"$d/want.xml"
check_ '[ $rc -eq 0 ] && cmp -s "$d/want.xml" "$d/o.xml" && grep -q "&lt;&amp;&gt;" "$d/o.xml" && cmp -s "$d/o.ktap" "$d/b.ktap" && [ "${out%%$'"'"'\n'"'"'*}" = "0 1 1 1 0 0" ]' \
	"--xml: OUT.xml as xml-text --max 100 --see writes it (markup escaped, cut), NNN.ktap and the digest as without it (exit $rc)"
out=$("$tool" test-files --xml 100 s/001.full "$d/o" "$d/missing/b" "$hdr" 2>"$d/err"); rc=$?
# OUT.xml only saves check a process (check makes the text itself
# without it, and empties OUT.xml before: common/run.sh)
mkdir "$d/ro" "$d/w" && cp "$d/o.ktap" "$d/ro/o.ktap" && echo stale >"$d/ro/o.xml" && chmod 555 "$d/ro" && chmod 777 "$d/w" && chmod 755 "$d"
out2=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$tool" test-files --xml 100 s/001.full "$d/ro/o" "$d/w/b2" "$hdr" 2>"$d/err2"); rc2=$?
chmod 755 "$d/ro"
"$tool" test-files --xml x s "$d/o" "$d/b" "$hdr" >/dev/null 2>&1; rc3=$?
if [ "$(id -u)" = 0 ]; then
	check_ '[ $rc -eq 3 ] && [ "$(cat "$d/err")" = "$d/missing/b.full" ] && [ $rc2 -eq 0 ] && [ ! -e "$d/ro/o.xml.tmp" ] && [ "${out2%%$'"'"'\n'"'"'*}" = "0 1 1 1 0 0" ] && cmp -s "$d/o.ktap" "$d/w/b2.ktap" && [ $rc3 -eq 2 ]' \
		"--xml: a missing result directory is exit 3 as without it; an OUT.xml that cannot be made is no failure (exit 0, the digest and files as without it, no temporary left); a MAX that is no number: exit 2 (exits $rc $rc2 $rc3)"
else
	skip "--xml with an unwritable directory: needs root (setpriv)"
fi

# usage
"$tool" test-files "$d/o" >/dev/null 2>&1; rc=$?
check_ '[ $rc -eq 2 ]' "wrong arguments: exit 2 (got $rc)"
