# The project's own tests (make check): pure units, then the library on a
# real tmpfs (needs root), then the harness self-tests.
UNIT_TESTS = unit/test-idmap-spec unit/test-ktap unit/test-config unit/test-world-tmpfs
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
