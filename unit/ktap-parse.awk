# ktap-parse.awk: a strict parser for KTAP v1 / TAP 13 documents as kselftest
# writes them (awk -f unit/ktap-parse.awk FILE). Exit 0 and a summary when
# the document is well formed, 1 and "line N: why" on stderr when not.
#
# A document is a version line ("KTAP version 1", "TAP version 13" or 14),
# a plan "1..N" (optionally "# SKIP reason") before its first result, and
# exactly N results "ok K ..." / "not ok K ...", K counting from 1.
# Diagnostics ("#" or "# text") may come anywhere after the version line.
# A subtest is a document nested two ways, each followed by the result line
# it belongs to (diagnostics may come between):
#   - indented by two spaces (KTAP): its version line first, then
#     optionally "# Subtest: name", then its plan;
#   - prefixed with "# " (kselftest's runner nests each test's output so):
#     it starts at a "# <version line>" and holds every following line that
#     starts with "# ".
# A subtest may have fewer results than its plan only when its own result
# is "not ok" (a test that died mid-stream); the top level never may.
# Nothing else is allowed: no blank lines, no text outside these forms.
# With -v multi=1 the input may be several documents one after another
# (kselftest's run_kselftest.sh prints one per collection): a version line
# after a whole top-level document starts the next.
#
# Output, one line per subtest when its result arrives, then the top level
# (one "top" line per document):
#   sub depth=D result=ok|not-ok|skip plan=N pass=P fail=F skip=S [truncated] name=...
#   top version=... plan=N pass=P fail=F skip=S subtests=M maxdepth=D

function bad(why) {
	printf "ktap-parse: line %d: %s: %s\n", NR, why, $0 >"/dev/stderr"
	failed = 1
	exit 1
}

function is_version(s) {
	return s ~ /^(KTAP version 1|TAP version 1[34])$/
}

function push(k) {
	top++
	kind[top] = k
	ver[top] = ""
	plan[top] = -1
	cnt[top] = pass[top] = fail[top] = skip[top] = 0
	pending[top] = 0
	if (top > maxdepth)
		maxdepth = top
}

# Closes the innermost document; its parent now owes the result line.
function close_top(   p) {
	if (ver[top] == "")
		bad("a subtest without a version line ends here")
	if (pending[top])
		bad("a subtest without its result line ends here")
	if (plan[top] < 0)
		bad("a document without a plan ends here")
	if (top == 0) {
		if (cnt[0] != plan[0])
			bad("the plan says " plan[0] " results, there were " cnt[0])
		return
	}
	p = top - 1
	pending[p] = 1
	child_trunc[p] = (cnt[top] != plan[top])
	child_sum[p] = "plan=" plan[top] " pass=" pass[top] " fail=" fail[top] " skip=" skip[top] \
		(child_trunc[p] ? " truncated" : "")
	top--
}

# One line, prefixes of the open documents removed, at level top.
function classify(s,   inner, n, desc, res) {
	if (is_version(s)) {
		if (top == 0 && ver[0] != "" && multi) {
			close_top()
			print_top()
			push("")
		} else if (ver[top] != "")
			bad("a second version line")
		ver[top] = s
		return
	}
	if (s == "#" || substr(s, 1, 2) == "# ") {
		inner = substr(s, 3)
		if (is_version(inner)) {
			if (ver[top] == "")
				bad("a nested document before this one's version line")
			if (pending[top])
				bad("a subtest without its result line")
			push("#")
			ver[top] = inner
			return
		}
		# diagnostics, after the version line only: a nested test's
		# "# Subtest: name" comes after its version line
		# (Documentation/dev-tools/ktap.rst; kunit.py parse fails on the
		# other order)
		if (ver[top] == "")
			bad("text before the version line")
		return
	}
	if (ver[top] == "")
		bad("text before the version line")
	if (substr(s, 1, 2) == "  ") {
		if (pending[top])
			bad("a subtest without its result line")
		push(" ")
		classify(substr(s, 3))
		return
	}
	if (s ~ /^1\.\.[0-9]+( # .*)?$/) {
		if (plan[top] >= 0)
			bad("a second plan")
		if (cnt[top] > 0)
			bad("a plan after results")
		n = s
		sub(/^1\.\./, "", n)
		sub(/ .*/, "", n)
		plan[top] = n + 0
		return
	}
	if (s ~ /^(not )?ok [0-9]+( |$)/) {
		res = (s ~ /^not /) ? "not-ok" : "ok"
		n = s
		sub(/^(not )?ok /, "", n)
		desc = n
		sub(/ .*/, "", n)
		sub(/^[0-9]+ ?/, "", desc)
		if (n + 0 != cnt[top] + 1)
			bad("result " n " where " (cnt[top] + 1) " was due")
		if (plan[top] >= 0 && cnt[top] >= plan[top])
			bad("more results than the plan's " plan[top])
		cnt[top]++
		if (res == "not-ok")
			fail[top]++
		else if (desc ~ /(^|[ \t])# *[Ss][Kk][Ii][Pp]([ \t]|$)/) {
			skip[top]++
			res = "skip"
		} else
			pass[top]++
		if (pending[top]) {
			if (child_trunc[top] && res != "not-ok")
				bad("a subtest with fewer results than its plan, reported " res)
			subtests++
			printf "sub depth=%d result=%s %s name=%s\n", top + 1, res, child_sum[top], desc
			pending[top] = 0
		}
		return
	}
	bad("not KTAP")
}

function print_top() {
	printf "top version=%s plan=%d pass=%d fail=%d skip=%d subtests=%d maxdepth=%d\n",
		ver[0], plan[0], pass[0], fail[0], skip[0], subtests, maxdepth
	subtests = maxdepth = 0
	top = -1
}

BEGIN {
	top = -1
	push("")
	maxdepth = 0
	subtests = 0
}

{
	sub(/\r$/, "")
	s = $0
	# Peel the prefixes of the open subtests; the first missing one closes
	# that subtest and every one inside it.
	for (d = 1; d <= top; d++) {
		tok = (kind[d] == "#") ? "# " : "  "
		if (substr(s, 1, 2) != tok)
			break
		s = substr(s, 3)
	}
	while (top >= d)
		close_top()
	if (s == "")
		bad("a blank line")
	classify(s)
}

END {
	if (failed)
		exit 1
	if (NR == 0) {
		print "ktap-parse: empty input" >"/dev/stderr"
		exit 1
	}
	while (top > 0)
		close_top()
	close_top()
	if (failed)
		exit 1
	print_top()
}
