# The project's own tests (make check): pure units, then the library on a
# real tmpfs (needs root), then the harness self-tests.
UNIT_TESTS = unit/test-idmap-spec unit/test-ktap unit/test-config unit/test-world-tmpfs
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
# The reference model (pure) and the meta-test proving the matrix can fail.
UNIT_TESTS += unit/test-model-idmap unit/test-model-rules
TESTS += unit/test-matrix-break.sh
EXTRA_DIST += unit/test-matrix-break.sh
