#!/bin/sh
# install.sh SRCDIR DEST COLLECTION: the kselftest part of
# `make kselftest-install`, after `make install` has put the run-time suite
# in DEST/COLLECTION/suite. Writes into DEST (a kselftest install tree):
#   COLLECTION/run-test.sh, COLLECTION/settings, one wrapper per test
#   (COLLECTION/SUITE_NNN, for every test of every suite/tests/*/group.list)
#   and the COLLECTION:SUITE_NNN lines of kselftest-list.txt;
#   run_kselftest.sh and kselftest/{runner.sh,prefix.pl}, unless DEST holds
#   another runner (a kernel tree's `make -C tools/testing/selftests
#   install`): that one is kept, and the collection joins its list.
# SRCDIR is this directory. Exit 2 on bad input.
set -eu
me="kselftest-install"
[ $# -eq 3 ] || { echo "$me: usage: install.sh SRCDIR DEST COLLECTION" >&2; exit 2; }
src=$(cd "$1" && pwd) dest=$2 coll=$3
case $coll in '' | */* | *:* | .*) echo "$me: bad collection name '$coll'" >&2; exit 2 ;; esac
suite=$dest/$coll/suite
[ -x "$suite/check" ] || { echo "$me: no installed suite in $suite (make install failed?)" >&2; exit 2; }
marker=vfsidmap-kselftest-runner
wrapper_marker=vfsidmap-kselftest-wrapper

cd "$dest"
# Wrappers of an earlier install go: a test since removed must not linger.
for f in "$coll"/*; do
	if [ -f "$f" ] && sed -n 2p "$f" | grep -q "$wrapper_marker"; then rm -f "$f"; fi
done
install -m 755 "$src/run-test.sh" "$coll/run-test.sh"
install -m 644 "$src/settings" "$coll/settings"

entries=$(mktemp "${TMPDIR:-/tmp}/ksft-list.XXXXXX")
trap 'rm -f "$entries"' EXIT
for list in "$suite"/tests/*/group.list; do
	s=$(basename "$(dirname "$list")")
	awk '$1 ~ /^[0-9][0-9][0-9]$/ { print $1 }' "$list" | while read -r nnn; do
		name=${s}_$nnn
		printf '#!/bin/sh\n# %s: %s/%s as a kselftest (make kselftest-install)\nexec "$(dirname "$0")/run-test.sh" %s/%s\n' \
			"$wrapper_marker" "$s" "$nnn" "$s" "$nnn" >"$coll/$name"
		chmod 755 "$coll/$name"
		echo "$coll:$name"
	done
done >"$entries"
[ -s "$entries" ] || { echo "$me: no tests in $suite/tests/*/group.list" >&2; exit 2; }

# The runner: ours, unless the tree already has someone else's.
if [ -f run_kselftest.sh ] && ! grep -q "$marker" run_kselftest.sh; then
	echo "$me: keeping the kselftest runner already in $dest; adding collection $coll to its list"
else
	install -m 755 "$src/run_kselftest.sh" run_kselftest.sh
	mkdir -p kselftest
	install -m 644 "$src/runner.sh" kselftest/runner.sh
	install -m 755 "$src/prefix.pl" kselftest/prefix.pl
fi

# kselftest-list.txt: other collections' lines stay, ours are replaced.
{
	[ -f kselftest-list.txt ] && grep -v "^$coll:" kselftest-list.txt || true
	cat "$entries"
} >kselftest-list.txt.new
mv kselftest-list.txt.new kselftest-list.txt
echo "$me: $(wc -l <"$entries") tests of collection $coll in $dest (run $dest/run_kselftest.sh -c $coll)"
