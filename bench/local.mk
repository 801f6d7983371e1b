# bench/matrix (script) and the floor it measures against.
noinst_PROGRAMS += bench/matrix-floor
EXTRA_DIST += bench/matrix
