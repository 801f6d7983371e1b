# Test programs of tests/matrix: one program per operation family, each a
# table over (mount idmap) x (caller) x (object state, operation); the
# expected outcome of every case comes from the model (lib/model).
MATRIX_TESTS = tests/matrix/001
noinst_PROGRAMS += $(MATRIX_TESTS)
SUITE_BINARIES += $(MATRIX_TESTS)
