# The cross-filesystem conformance table (common/conformance.sh): reads
# porting reports (porting-FS.md, as common/porting.awk writes them), one
# column per report, one row per operation family (common/porting.rows'
# order), and writes MD and HTML. A cell is
#   pass     every test that checks the row ran and passed
#   partial  it passed, but some of its tests or cases did not run (what);
#            tests and cases out of scope on the filesystem ("not for FS: "
#            reasons, common/porting.awk) do not count
#   fail     the first mismatch of the row
#   n/a      not applicable, with the reason (e.g. no FS_ALLOW_IDMAP)
#   no test / not run  as the report says.
# Variables: md, html, date, cmd (the command that made it).

function esc_md(s) { gsub(/\|/, "\\|", s); return s }
function esc_html(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s); return s }
function short(s, n) { return length(s) > n ? substr(s, 1, n - 3) "..." : s }

FNR == 1 { col++; file[col] = FILENAME; in_fail = ""; in_block = 0 }
/^# Porting report: / { fs[col] = substr($0, 19) }
/^Kernel / { k = substr($0, 8); sub(/,.*/, "", k); kernel[col] = k }
/^\| / && / \| \*\*/ {
	line = $0
	gsub(/\\\|/, "\001", line)	# escaped pipes inside a cell
	n = split(line, f, / \| /)
	title = f[1]; sub(/^\| /, "", title); gsub("\001", "|", title)
	v = f[2]; gsub(/\*/, "", v)
	ev = f[3]; gsub("\001", "|", ev)
	if (!(title in seen)) { seen[title] = 1; rows[++nrows] = title }
	verdict[col, title] = v
	evidence[col, title] = ev
	next
}
/^### / { in_fail = substr($0, 5); next }
/^```/ { if (in_fail != "") { in_block = !in_block; if (!in_block) in_fail = "" } next }
in_block && in_fail != "" && !((col, in_fail) in first) { first[col, in_fail] = $0 }

function cell(c, r,    v, ev, what) {
	v = verdict[c, r]; ev = evidence[c, r]
	if (v == "") return "not run: no row in this report"
	if (v == "pass") {
		# pass only when everything that checks the row ran
		what = ""
		if (ev ~ /skipped \(/) { what = ev; sub(/^[0-9]+ cases passed, /, "", what); sub(/ \(.*/, "", what) }
		if (ev ~ /; not run: /) { w = ev; sub(/.*; not run: /, "", w); sub(/ \[tests:.*/, "", w); sub(/; no result in these results for .*/, "", w); what = what (what == "" ? "" : "; ") "not run: " w }
		if (ev ~ /no result in these results for /) { w = ev; sub(/.*no result in these results for /, "", w); sub(/ \[tests:.*/, "", w); what = what (what == "" ? "" : "; ") "no result for " w }
		return what == "" ? "pass" : "partial: " short(what, 200)
	}
	if (v == "fail") return "fail: " short((c, r) in first ? first[c, r] : ev, 200)
	ev2 = ev; sub(/ \[tests:.*/, "", ev2)
	if (v == "not applicable") return "n/a: " short(ev2, 200)
	return v ": " short(ev2, 200)
}
function cls(s) { return s ~ /^pass/ ? "pass" : s ~ /^partial/ ? "partial" : s ~ /^fail/ ? "fail" : s ~ /^n\/a/ ? "na" : "notrun" }

END {
	if (col == 0) { print "conformance: no porting reports given" > "/dev/stderr"; exit 2 }
	print "# Conformance of idmapped mounts across filesystems" > md
	print "" > md
	print "Made " date " by `" cmd "` from the porting reports of each filesystem (`./check --report porting`); the rows and what checks them: `common/porting.rows`." > md
	print "A cell is **pass** only when every test that checks the row ran; **partial** says what did not run. A test or case out of scope on a filesystem (its reason starts \"not for FS: \": it needs what the filesystem table, `lib/fs/fs_table.c`, says FS never has) does not count." > md
	print "" > md
	hdr = "| operation family |"; sep = "|---|"
	for (c = 1; c <= col; c++) { hdr = hdr " " esc_md(fs[c]) " (" esc_md(kernel[c]) ") |"; sep = sep "---|" }
	print hdr > md; print sep > md
	for (i = 1; i <= nrows; i++) {
		l = "| " esc_md(rows[i]) " |"
		for (c = 1; c <= col; c++) { s = cell(c, rows[i]); sub(/^[a-z\/ ]+/, "**&**", s); l = l " " esc_md(s) " |" }
		print l > md
	}
	print "" > md
	print "Reports:" > md
	for (c = 1; c <= col; c++) print "- " fs[c] ": " file[c] > md
	close(md)

	print "<!DOCTYPE html>" > html
	print "<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>Conformance of idmapped mounts across filesystems</title>" > html
	print "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;table-layout:fixed;width:100%}" > html
	print "td,th{border:1px solid #999;padding:.3em .5em;vertical-align:top;text-align:left;overflow-wrap:anywhere;word-break:break-word}" > html
	print ".pass{background:#cfc}.partial{background:#eec}.fail{background:#fbb}.na{background:#eee}.notrun{background:#fdb}</style></head><body>" > html
	print "<h1>Conformance of idmapped mounts across filesystems</h1>" > html
	print "<p>Made " esc_html(date) " by <code>" esc_html(cmd) "</code> from each filesystem's porting report. A cell is <em>pass</em> only when every test that checks the row ran; <em>partial</em> says what did not run. A test or case out of scope on a filesystem (its reason starts &quot;not for FS: &quot;: it needs what the filesystem table, <code>lib/fs/fs_table.c</code>, says FS never has) does not count.</p>" > html
	print "<table><tr><th>operation family</th>" > html
	for (c = 1; c <= col; c++) print "<th>" esc_html(fs[c]) "<br/>" esc_html(kernel[c]) "</th>" > html
	print "</tr>" > html
	for (i = 1; i <= nrows; i++) {
		print "<tr><td>" esc_html(rows[i]) "</td>" > html
		for (c = 1; c <= col; c++) { s = cell(c, rows[i]); print "<td class=\"" cls(s) "\">" esc_html(s) "</td>" > html }
		print "</tr>" > html
	}
	print "</table></body></html>" > html
	close(html)
	for (c = 1; c <= col; c++) { np = 0; nf = 0; for (i = 1; i <= nrows; i++) { s = cls(cell(c, rows[i])); if (s == "pass") np++; if (s == "fail") nf++ } print fs[c] ": " np " pass, " nf " fail of " nrows " rows"; if (nf) failed = 1 }
	exit failed ? 1 : 0
}
