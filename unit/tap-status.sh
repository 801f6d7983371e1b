# Sourced by unit/'s script tests that pass a status to ok (TAP for
# automake's test driver): the build and source trees, the TAP counter,
# and $failed, which the test's last line turns into its exit status.
# Each test keeps its own plan, set -u and assertions.

top=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "${srcdir:-$top}" && pwd)   # the sources (a VPATH build: elsewhere)
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
