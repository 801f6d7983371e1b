# Test programs of tests/matrix: one program per operation family, each a
# table over (mount idmap) x (caller) x (object state, operation); the
# expected outcome of every case comes from the model (lib/model).
MATRIX_TESTS = tests/matrix/001 tests/matrix/002 tests/matrix/003 tests/matrix/004 \
	tests/matrix/005 tests/matrix/006 tests/matrix/007 tests/matrix/008 tests/matrix/009 \
	tests/matrix/010 tests/matrix/012
nobase_suite_PROGRAMS += $(MATRIX_TESTS)
# matrix/011, the quick sample: every family linked into one program
# (VT_MATRIX_LINKED: the families' files define no main()).
nobase_suite_PROGRAMS += tests/matrix/011
tests_matrix_011_SOURCES = tests/matrix/011.c tests/matrix/001.c tests/matrix/002.c \
	tests/matrix/003.c tests/matrix/004.c tests/matrix/005.c tests/matrix/006.c \
	tests/matrix/007.c tests/matrix/008.c tests/matrix/009.c tests/matrix/010.c \
	tests/matrix/012.c
tests_matrix_011_CPPFLAGS = $(AM_CPPFLAGS) -DVT_MATRIX_LINKED
# What matrix/010 copies into the filesystem under test and execs: it
# reports its credentials (no library).
nobase_suite_PROGRAMS += tests/matrix/exec-probe
tests_matrix_exec_probe_SOURCES = tests/matrix/exec-probe.c
tests_matrix_exec_probe_LDADD =
