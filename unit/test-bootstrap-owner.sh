#!/bin/bash
# ./bootstrap run by a user who cannot write the tree (a checkout owned by
# root, bootstrap run as nobody): it must stop at once with exit 2 and a
# message naming the path it cannot write, the user and the tree's owner,
# before autoreconf, configure or make touch anything. A copy of the
# tracked files owned by root is the tree; setpriv runs bootstrap as
# nobody (65534). Needs root; TAP for automake.
set -u
. "$(dirname "$0")/tap.sh"

unit_needs_root "makes a tree owned by root and runs bootstrap as nobody"
command -v setpriv >/dev/null || { echo "1..0 # SKIP no setpriv (Debian package util-linux)"; exit 0; }
echo "1..3"
unit_workdir bootstrap
t=$work/tree
mkdir "$t"
# the tracked files (a tarball would need make dist); git is how the tree
# was checked out, and the source tree is where bootstrap lives
(cd "$src" && git ls-files -z | xargs -0 tar cf - 2>/dev/null) | tar xf - -C "$t"
chown -R root:root "$t"
chmod -R go-w,a+rX "$t"
before=$(cd "$t" && find . | sort | md5sum)

(cd "$t" && setpriv --reuid=65534 --regid=65534 --clear-groups ./bootstrap) >"$work/o" 2>&1
rc=$?
sed 's/^/# /' "$work/o"
check_ '[ $rc -eq 2 ]' "bootstrap as nobody in a tree owned by root exits 2 (exit $rc)"
check_ 'grep -q "is not writable by nobody (uid 65534): it belongs to root" "$work/o" && grep -q "run ./bootstrap as the tree.s owner (root)" "$work/o"' \
	"the message names the path, the user and the owner, and says whom to run it as"
after=$(cd "$t" && find . | sort | md5sum)
check_ '[ "$before" = "$after" ] && ! grep -q "bootstrap: \(autoreconf\|configure\|make\)" "$work/o"' \
	"nothing ran and nothing was made in the tree"
