# Test programs of tests/matrix: one program per operation family, each a
# table over (mount idmap) x (caller) x (object state, operation); the
# expected outcome of every case comes from the model (lib/model).
MATRIX_TESTS = tests/matrix/001 tests/matrix/002 tests/matrix/003 tests/matrix/004 \
	tests/matrix/005 tests/matrix/006 tests/matrix/007 tests/matrix/008 tests/matrix/009
noinst_PROGRAMS += $(MATRIX_TESTS)
SUITE_BINARIES += $(MATRIX_TESTS)
