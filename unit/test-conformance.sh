#!/bin/bash
# The cross-filesystem conformance table (common/conformance.awk, TAP): from
# crafted porting reports, a fully passed row is pass, a passed row with a
# skipped case or a notrun test is partial and says what did not run, a
# failed row shows its first mismatch, a filesystem without FS_ALLOW_IDMAP
# is n/a with the reason; any fail makes exit 1; the HTML is well formed
# and wraps its cells; ./check --report conformance refuses bad input with
# exit 2.
set -u
. "$(dirname "$0")/tap-status.sh"
tmp=$(mktemp -d /tmp/vfsidmap-conformance.XXXXXX)
chmod 755 "$tmp"   # check refuses a tree or VT_RUN_BASE others cannot search
trap 'rm -rf "$tmp"' EXIT

report() { # fs kernel rows... (each "title|verdict|evidence")
	local fs=$1 k=$2 r; shift 2
	{ echo "# Porting report: $fs"; echo; echo "Kernel $k, results /x (section $fs), now."; echo
	  echo "| row | verdict | evidence | kernel functions | filesystem callbacks to translate |"
	  echo "|---|---|---|---|---|"
	  for r in "$@"; do IFS='|' read -r t v e <<<"$r"; echo "| $t | **$v** | $e | f | g |"; done
	  if [ "$fs" = bfs ]; then
		echo; echo "## Failures"; echo; echo "### chmod"; echo; echo "First failure, in matrix/003:"
		echo; echo '```'; echo "matrix/003: MISMATCH chmod/map=none/caller=root/x on-disk mode"; echo '```'
	  fi; } >"$tmp/porting-$fs.md"
}
report afs 6.12.1 "chmod|pass|12 cases passed [tests: matrix/003]" \
	"chown and chgrp|pass|9 cases passed, 2 skipped (c: needs x); not run: regress/004: no y [tests: matrix/002]" \
	"setattr|pass|3 cases passed; not run: api/005: no z (ENOSYS; added in 6.15); api/008: no w; no result in these results for api/007 [tests: api/005]"
report bfs 6.12.1 "chmod|fail|1 failed, 3 passed (first failure in matrix/003) [tests: matrix/003]" \
	"chown and chgrp|pass|4 cases passed [tests: matrix/002]" \
	"setattr|pass|4 cases passed [tests: api/005]"
report cfs 6.12.1 "chmod|not applicable|cfs cannot be idmapped: mount_setattr EINVAL (no FS_ALLOW_IDMAP)" \
	"chown and chgrp|not applicable|cfs cannot be idmapped: mount_setattr EINVAL (no FS_ALLOW_IDMAP)" \
	"setattr|not applicable|cfs cannot be idmapped: mount_setattr EINVAL (no FS_ALLOW_IDMAP)"
awk -f "$top/common/conformance.awk" -v md="$tmp/c.md" -v html="$tmp/c.html" -v date=now -v cmd=test \
	"$tmp/porting-afs.md" "$tmp/porting-bfs.md" "$tmp/porting-cfs.md" >"$tmp/out" 2>&1
rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "a failed cell: exit 1 (got $rc)"
row() { grep -F "| $1 |" "$tmp/c.md"; }
ok $(row chmod | grep -qF '| chmod | **pass** | **fail**: matrix/003: MISMATCH chmod/map=none/caller=root/x on-disk mode | **n/a**: cfs cannot be idmapped: mount_setattr EINVAL (no FS_ALLOW_IDMAP) |' && echo 0 || echo 1) \
	"pass, fail with its first mismatch, n/a with the reason"
ok $(row "chown and chgrp" | grep -qF '**partial**: 2 skipped; not run: regress/004: no y | **pass** |' && echo 0 || echo 1) \
	"a row with a skipped case and a notrun test is partial, saying what did not run"
# a reason may hold "; " itself: every notrun test and its whole reason stay
ok $(row setattr | grep -qF '**partial**: not run: api/005: no z (ENOSYS; added in 6.15); api/008: no w; no result for api/007 | **pass** |' && echo 0 || echo 1) \
	"every notrun test is listed with its whole reason, a '; ' inside one included"
ok $(grep -qF '| operation family | afs (6.12.1) | bfs (6.12.1) | cfs (6.12.1) |' "$tmp/c.md" && echo 0 || echo 1) \
	"filesystems are the columns, with their kernels"
if command -v xmllint >/dev/null; then
	xmllint --noout "$tmp/c.html" 2>"$tmp/x"; ok $? "the HTML is well formed $(head -c 200 "$tmp/x")"
else
	n=$((n + 1)); echo "ok $n the HTML is well formed # SKIP no xmllint"
fi
ok $(grep -q 'overflow-wrap:anywhere' "$tmp/c.html" && grep -q 'class="fail"' "$tmp/c.html" && echo 0 || echo 1) \
	"the HTML wraps its cells and marks the failed one"
"$top/check" --report conformance >/dev/null 2>&1; rc=$?
ok $([ $rc = 2 ] && echo 0 || echo 1) "--report conformance without --from-results: exit 2 (got $rc)"
"$top/check" --report conformance --from-results "$tmp/none" >/dev/null 2>&1; rc=$?
ok $([ $rc = 2 ] && echo 0 || echo 1) "--from-results of a directory without results: exit 2 (got $rc)"
echo "1..$n"
[ "$failed" = 0 ]
