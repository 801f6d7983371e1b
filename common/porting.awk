# common/porting.awk: the porting report, from a results directory and the
# mapping in common/porting.rows (POSIX awk; mawk and gawk).
#
#   awk -f porting.awk -v mode=report -v fs=FS -v section=SEC -v dir=DIR \
#       -v md=OUT.md -v html=OUT.html -v kernel=K -v date=D ROWS DIR/results.ktap
#   awk -f porting.awk -v mode=coverage ROWS CASELIST
#
# report: reads each test's result from results.ktap (top-level lines of
# SECTION) and, for a test that ran, its cases from SEC/suite/NNN.ktap; every
# case counts in the rows of the first map line it matches. Prints one line
# "rows P F N T R" (pass, fail, not applicable, no test, not run).
# A notrun test or skipped case whose reason starts "not for FS: " is out
# of scope (lib/fs/fs_table.h VT_FS_SCOPE_PREFIX: it needs what the
# filesystem table says FS can never have): it does not count for the
# row, neither as run nor as "not run"; the evidence names it apart.
# coverage: CASELIST holds suite/NNN/case lines (--list-cases); prints every
# case no map line matches and every map line that matches nothing; exits 1
# if there is any.

function die(msg) { print "porting: " msg > "/dev/stderr"; failed_hard = 1; exit 2 }

# A shell-style glob (only * is special) as an anchored regular expression.
function glob_re(g,    i, c, out) {
	out = "^"
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == "*") out = out ".*"
		else if (index(".()+?$|{}[", c)) out = out "[" c "]"
		else if (c == "^" || c == "\\" || c == "]") out = out "\\" c
		else out = out c
	}
	return out "$"
}


function read_rows_line(line,    f, n, id, rest, k, test, sel, rl, i, r) {
	if (line ~ /^[ \t]*(#|$)/) return
	if (line ~ /^row[ \t]/) {
		sub(/^row[ \t]+/, "", line)
		id = line; sub(/[ \t].*/, "", id)
		rest = line; sub(/^[^ \t]+[ \t]*/, "", rest)
		if (id == "" || rest == "") die(FILENAME ":" FNR ": want \"row ID TITLE\"")
		if (id in row_title) die(FILENAME ":" FNR ": row '" id "' given twice")
		nrows++; row_id[nrows] = id; row_title[id] = rest; cur = id
		return
	}
	if (line ~ /^[ \t]+kernel:/) { if (cur == "") die(FILENAME ":" FNR ": kernel: before any row")
		sub(/^[ \t]+kernel:[ \t]*/, "", line); row_kernel[cur] = line; return }
	if (line ~ /^[ \t]+fs:/) { if (cur == "") die(FILENAME ":" FNR ": fs: before any row")
		sub(/^[ \t]+fs:[ \t]*/, "", line); row_fs[cur] = line; return }
	if (line ~ /^map[ \t]/) {
		n = split(line, f, /[ \t]+/)
		if (n != 3) die(FILENAME ":" FNR ": want \"map SELECTOR ROW[,ROW...]\"")
		sel = f[2]
		if (sel !~ /^[a-z0-9_-]+\/[0-9][0-9][0-9](\/.+)?$/) die(FILENAME ":" FNR ": bad selector '" sel "'")
		test = sel; sub(/^[^\/]+\/[^\/]+/, "", test); test = substr(sel, 1, length(sel) - length(test))
		k = split(f[3], rl, ",")
		for (i = 1; i <= k; i++)
			if (!(rl[i] in row_title)) die(FILENAME ":" FNR ": unknown row '" rl[i] "' (rows come before map lines)")
		nmaps++; map_sel[nmaps] = sel; map_test[nmaps] = test; map_rows[nmaps] = f[3]
		map_re[nmaps] = (sel == test) ? "^" glob_re_prefix(test) : glob_re(sel)
		map_line[nmaps] = FNR
		for (i = 1; i <= k; i++) { row_nmaps[rl[i]]++; test_rows[test] = test_rows[test] " " rl[i] }
		return
	}
	die(FILENAME ":" FNR ": cannot parse: " line)
}
# "suite/NNN" as a regex prefix matching "suite/NNN/anything".
function glob_re_prefix(t,    r) { r = glob_re(t); sub(/\$$/, "", r); sub(/^\^/, "", r); return r "/" }

# Index of the first map line matching suite/NNN/case, or 0.
function classify(id,    m) {
	for (m = 1; m <= nmaps; m++) if (id ~ map_re[m]) return m
	return 0
}

function esc_html(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s); return s }
function esc_md(s) { gsub(/\|/, "\\|", s); return s }
# Rows of map line M, as an array ROWS; returns the count.
function rows_of(m, rows) { return split(map_rows[m], rows, ",") }

# Out of scope for this filesystem (see the top of the file)?
function scoped(reason) { return index(reason, "not for " fs ": ") == 1 }

function count_case(test, name, res, reason, diag,    m, rows, k, i, r, id) {
	id = test "/" name
	m = classify(id)
	if (!m) { unmapped[test] = 1; return }
	k = rows_of(m, rows)
	for (i = 1; i <= k; i++) {
		r = rows[i]
		if (res == "skip" && scoped(reason)) { nscope_cases[r]++; continue }
		add_tests(r, test)
		if (res == "pass") npass[r]++
		else if (res == "skip") { nskip[r]++; skipr[r] = add_reason(skipr[r], name ": " reason) }
		else {
			nfail[r]++
			if (!(r in fail_text)) {
				fail_text[r] = diag_text(diag)
				fail_replay[r] = diag_replay(diag, test, name)
				fail_where[r] = test
			}
		}
	}
}
function add_tests(r, t) { if (index(" " row_tests[r] " ", " " t " ") == 0) row_tests[r] = row_tests[r] (row_tests[r] == "" ? "" : " ") t }
# Keeps the first three distinct reasons and counts the rest.
function add_reason(list, why,    n, parts) {
	if (list == "") return why
	if (index(SUBSEP list SUBSEP, SUBSEP why SUBSEP)) return list
	n = split(list, parts, SUBSEP)
	if (n >= 3) return list
	return list SUBSEP why
}
# The failure text: the diagnostics of the case minus the replay line.
function diag_text(d,    n, l, i, out, k) {
	n = split(d, l, "\n"); out = ""; k = 0
	for (i = 1; i <= n; i++) {
		if (l[i] == "" || l[i] ~ /reproduce:/ || l[i] ~ /^probe /) continue
		if (++k > 14) { out = out "\n..."; break }
		out = (out == "") ? l[i] : out "\n" l[i]
	}
	return out == "" ? "(the case printed no diagnostics)" : out
}
function diag_replay(d, test, name,    n, l, i, s) {
	n = split(d, l, "\n")
	for (i = 1; i <= n; i++) if (l[i] ~ /reproduce: /) { s = l[i]; sub(/.*reproduce: */, "", s); return s }
	return "./check --case " test "/" name " --fs " fs
}

function read_test_ktap(test,    f, line, diag, name, reason, res, ncase, nbad) {
	f = dir "/" section "/" test ".ktap"
	diag = ""; ncase = 0; nbad = 0
	while ((getline line < f) > 0) {
		if (line ~ /^# /) {
			sub(/^# /, "", line)
			# totals, the matrix's count of mismatches and its header line
			if (line ~ /^totals: / || line ~ / cases mismatched$/ || line ~ /^[a-z]+\/[0-9][0-9][0-9] on /) continue
			diag = (diag == "") ? line : diag "\n" line
			continue
		}
		if (line ~ /^(not )?ok [0-9]+ /) {
			name = line; sub(/^(not )?ok [0-9]+ /, "", name); reason = ""
			if (line ~ /^not ok/) { res = "fail"; nbad++ }
			else if (name ~ / # SKIP/) { res = "skip"; reason = name; sub(/^.* # SKIP */, "", reason); sub(/ # SKIP.*$/, "", name) }
			else res = "pass"
			sub(/ #.*$/, "", name)
			count_case(test, name, res, reason, diag)
			ncase++; diag = ""
		}
	}
	close(f)
	return ncase ":" nbad
}

function test_level(test, res, reason,    m, rows, k, i, r, seen) {
	for (m = 1; m <= nmaps; m++) {
		if (map_test[m] != test) continue
		k = rows_of(m, rows)
		for (i = 1; i <= k; i++) {
			r = rows[i]
			if ((r, test) in seen) continue
			seen[r, test] = 1
			if (res == "notrun" && scoped(reason)) {
				scope_tests[r] = scope_tests[r] (scope_tests[r] == "" ? "" : ", ") test
				continue
			}
			add_tests(r, test)
			if (res == "notrun") { nnotrun[r]++; notrunr[r] = add_reason(notrunr[r], test ": " reason) }
			else if (res == "absent") { nabsent[r]++; absentr[r] = add_reason(absentr[r], test) }
			else {
				nfail[r]++
				if (!(r in fail_text)) {
					fail_text[r] = test ": " reason
					fail_replay[r] = "./check --fs " fs " " test
					fail_where[r] = test
				}
			}
		}
	}
	if (!(test in test_rows)) unmapped[test] = 1
}

function verdicts(    i, r, why, parts, n, j) {
	for (i = 1; i <= nrows; i++) {
		r = row_id[i]
		if (fs_reason != "") { verdict[r] = "not applicable"; evidence[r] = fs_reason
			if (!row_nmaps[r]) evidence[r] = evidence[r] "; and no test in this suite yet"
		} else if (nfail[r]) {
			verdict[r] = "fail"
			evidence[r] = nfail[r] " failed, " npass[r] + 0 " passed (first failure in " fail_where[r] ")"
		} else if (npass[r]) {
			verdict[r] = "pass"
			evidence[r] = npass[r] " cases passed"
			if (nskip[r]) evidence[r] = evidence[r] ", " nskip[r] " skipped (" joinr(skipr[r]) ")"
			evidence[r] = evidence[r] scope_text(r)
			if (nnotrun[r]) evidence[r] = evidence[r] "; not run: " joinr(notrunr[r])
			if (nabsent[r]) evidence[r] = evidence[r] "; no result in these results for " joinr(absentr[r])
		} else if (!row_nmaps[r]) {
			verdict[r] = "no test"; evidence[r] = "no test in this suite yet"
		} else if (nskip[r] || nnotrun[r]) {
			verdict[r] = "not applicable"; why = ""
			if (nnotrun[r]) why = joinr(notrunr[r])
			if (nskip[r]) why = why (why == "" ? "" : "; ") nskip[r] " cases skipped: " joinr(skipr[r])
			if (nabsent[r]) why = why "; no result in these results for " joinr(absentr[r])
			evidence[r] = why scope_text(r)
		} else if (!nabsent[r]) {
			verdict[r] = "not applicable"; evidence[r] = substr(scope_text(r), 3)
		} else {
			verdict[r] = "not run"; evidence[r] = "no result in these results for " joinr(absentr[r]) scope_text(r)
		}
		if (row_tests[r] != "") evidence[r] = evidence[r] " [tests: " row_tests[r] "]"
		nverdict[verdict[r]]++
	}
}
function joinr(l) { gsub(SUBSEP, "; ", l); return l }
# "; out of scope ..." for row R, or "" (after the counts, before what
# did not run: conformance.awk reads those from the end)
function scope_text(r,    t) {
	if (scope_tests[r] == "" && !nscope_cases[r]) return ""
	t = scope_tests[r]
	if (nscope_cases[r]) t = t (t == "" ? "" : " and ") nscope_cases[r] " cases"
	return "; out of scope on " fs " (not for " fs ": a need its row in lib/fs/fs_table.c never meets): " t
}

function write_md(    i, r) {
	print "# Porting report: " fs > md
	print "" > md
	print "Kernel " kernel ", results " dir " (section " section "), " date "." > md
	print "Generated by `./check --report porting`; the rows and what checks them: `common/porting.rows`." > md
	print "" > md
	print "Rows: " summary "." > md
	if (fs_reason != "") { print "" > md; print "**" fs " cannot be idmapped here:** " fs_reason > md }
	print "" > md
	print "| row | verdict | evidence | kernel functions | filesystem callbacks to translate |" > md
	print "|---|---|---|---|---|" > md
	for (i = 1; i <= nrows; i++) {
		r = row_id[i]
		print "| " esc_md(row_title[r]) " | **" verdict[r] "** | " esc_md(evidence[r]) " | " esc_md(row_kernel[r]) " | " esc_md(row_fs[r]) " |" > md
	}
	if (nverdict["fail"]) {
		print "" > md; print "## Failures" > md
		for (i = 1; i <= nrows; i++) {
			r = row_id[i]
			if (verdict[r] != "fail") continue
			print "" > md
			print "### " row_title[r] > md
			print "" > md
			print "First failure, in " fail_where[r] ":" > md
			print "" > md
			print "```" > md
			print fail_text[r] > md
			print "```" > md
			print "" > md
			print "Replay: `" fail_replay[r] "`" > md
		}
	}
	if (unmapped_list != "") { print "" > md; print "Results that map to no row (add them to common/porting.rows): " unmapped_list > md }
	close(md)
}

function write_html(    i, r, cls) {
	print "<!DOCTYPE html>" > html
	print "<html lang=\"en\"><head><meta charset=\"utf-8\"/>" > html
	print "<title>Porting report: " esc_html(fs) "</title>" > html
	# fixed layout and wrapping cells: a failed row's mismatch text must
	# not push the callbacks column off the screen
	print "<style>body{font-family:sans-serif;margin:1.5em;max-width:100em}table{border-collapse:collapse;table-layout:fixed;width:100%}" > html
	print "td,th{border:1px solid #999;padding:.3em .5em;vertical-align:top;text-align:left;overflow-wrap:anywhere}" > html
	print ".pass{background:#cfc}.fail{background:#fbb}.na{background:#eee}.notest{background:#ffd}.notrun{background:#fdb}" > html
	print "pre{background:#f4f4f4;padding:.5em;white-space:pre-wrap}code{background:#f4f4f4}</style></head>" > html
	print "<body>" > html
	print "<h1>Porting report: " esc_html(fs) "</h1>" > html
	print "<p>Kernel " esc_html(kernel) ", results " esc_html(dir) " (section " esc_html(section) "), " esc_html(date) ". Generated by <code>./check --report porting</code>; the rows and what checks them: <code>common/porting.rows</code>.</p>" > html
	print "<p>Rows: " esc_html(summary) ".</p>" > html
	if (fs_reason != "") print "<p><strong>" esc_html(fs) " cannot be idmapped here:</strong> " esc_html(fs_reason) "</p>" > html
	print "<table>" > html
	print "<tr><th>row</th><th>verdict</th><th>evidence</th><th>kernel functions</th><th>filesystem callbacks to translate</th></tr>" > html
	for (i = 1; i <= nrows; i++) {
		r = row_id[i]
		cls = verdict[r]; if (cls == "not applicable") cls = "na"; else if (cls == "no test") cls = "notest"; else if (cls == "not run") cls = "notrun"
		print "<tr id=\"row-" r "\"><td>" esc_html(row_title[r]) "</td><td class=\"" cls "\">" esc_html(verdict[r]) "</td><td>" esc_html(evidence[r]) > html
		if (verdict[r] == "fail")
			print "<pre>" esc_html(fail_text[r]) "</pre>replay: <code>" esc_html(fail_replay[r]) "</code>" > html
		print "</td><td>" esc_html(row_kernel[r]) "</td><td>" esc_html(row_fs[r]) "</td></tr>" > html
	}
	print "</table>" > html
	if (unmapped_list != "") print "<p>Results that map to no row (add them to common/porting.rows): " esc_html(unmapped_list) "</p>" > html
	print "</body></html>" > html
	close(html)
}

FNR == 1 { fileno++ }
fileno == 1 { read_rows_line($0); next }

mode == "coverage" && fileno == 2 {
	if ($0 == "") next
	m = classify($0)
	if (!m) { print "uncovered: " $0; bad++ } else used[m] = 1
	next
}

# results.ktap: top-level lines only (nested test streams are indented).
mode == "report" && fileno == 2 {
	if ($0 ~ /^(not )?ok [0-9]+ /) {
		name = $0; sub(/^(not )?ok [0-9]+ /, "", name)
		reason = ""
		if (name ~ / # SKIP/) { reason = name; sub(/^.* # SKIP */, "", reason) }
		sub(/ #.*$/, "", name)
		if (index(name, section ":") != 1) next
		t = substr(name, length(section) + 2)
		ntests++; order[ntests] = t
		if ($0 ~ /^not ok/) tres[t] = "fail"
		else if (reason != "") { tres[t] = "notrun"; treason[t] = reason }
		else tres[t] = "pass"
	} else if ($0 ~ /^# [^ ]+: /) {
		name = $0; sub(/^# /, "", name); reason = name
		sub(/: .*$/, "", name); sub(/^[^ ]+: /, "", reason)
		if (index(name, section ":") == 1) ffreason[substr(name, length(section) + 2)] = reason
	}
	next
}

END {
	if (failed_hard) exit 2
	if (mode == "coverage") {
		for (m = 1; m <= nmaps; m++) if (!(m in used)) { print "unused: map " map_sel[m] " (line " map_line[m] ") matches no case"; bad++ }
		exit bad ? 1 : 0
	}
	if (ntests == 0) die("no result for section '" section "' in " dir "/results.ktap")
	# The filesystem could not be idmapped (common/fs.sh VT_FS_NOTRUN): every
	# test notrun with one reason and none ran; that reason is the verdict.
	# (out-of-scope tests aside: their reasons are their own)
	same = 1; ran = 0; first = ""
	for (i = 1; i <= ntests; i++) {
		t = order[i]
		if (tres[t] != "notrun") ran = 1
		else if (scoped(treason[t])) continue
		else if (first == "") first = treason[t]
		else if (treason[t] != first) same = 0
	}
	if (!ran && same && first != "" && first !~ /^expunged: /) fs_reason = first
	for (i = 1; i <= ntests; i++) {
		t = order[i]; seen_test[t] = 1
		if (tres[t] == "notrun") {
			# every case skipped: each case's own reason decides
			# (out of scope or not); a test notrun as a whole has none
			split(read_test_ktap(t), gc, ":")
			if (gc[1] == 0) test_level(t, "notrun", treason[t])
			continue
		}
		got = read_test_ktap(t)
		split(got, gc, ":")
		if (tres[t] == "fail" && gc[2] == 0)
			test_level(t, "fail", (t in ffreason) ? ffreason[t] : "failed with no failing case (see " section "/" t ".out.bad)")
		else if (gc[1] == 0 && tres[t] == "pass")
			test_level(t, "notrun", "no case ran")
	}
	for (m = 1; m <= nmaps; m++) if (!(map_test[m] in seen_test)) { test_level(map_test[m], "absent", ""); seen_test[map_test[m]] = 1 }
	for (t in unmapped) unmapped_list = unmapped_list (unmapped_list == "" ? "" : " ") t
	verdicts()
	summary = (nverdict["pass"] + 0) " pass, " (nverdict["fail"] + 0) " fail, " (nverdict["not applicable"] + 0) " not applicable, " \
		(nverdict["no test"] + 0) " no test, " (nverdict["not run"] + 0) " not run"
	write_md(); write_html()
	for (i = 1; i <= nrows; i++) print "row " row_id[i] ": " verdict[row_id[i]] " - " evidence[row_id[i]]
	print "rows " (nverdict["pass"] + 0) " " (nverdict["fail"] + 0) " " (nverdict["not applicable"] + 0) " " (nverdict["no test"] + 0) " " (nverdict["not run"] + 0)
}
