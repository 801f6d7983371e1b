# Test programs of tests/matrix: one program per operation family, each a
# table over (mount idmap) x (caller) x (object state, operation); the
# expected outcome of every case comes from the model (lib/model).
MATRIX_TESTS = tests/matrix/001 tests/matrix/002 tests/matrix/003 tests/matrix/004 \
	tests/matrix/005 tests/matrix/006 tests/matrix/007 tests/matrix/008 tests/matrix/009 \
	tests/matrix/010 tests/matrix/012 tests/matrix/013
nobase_suite_PROGRAMS += $(MATRIX_TESTS)
# matrix/011, the quick sample: every family linked into one program
# (VT_MATRIX_LINKED: the families' files define no main()).
nobase_suite_PROGRAMS += tests/matrix/011
tests_matrix_011_SOURCES = tests/matrix/011.c tests/matrix/001.c tests/matrix/002.c \
	tests/matrix/003.c tests/matrix/004.c tests/matrix/005.c tests/matrix/006.c \
	tests/matrix/007.c tests/matrix/008.c tests/matrix/009.c tests/matrix/010.c \
	tests/matrix/012.c tests/matrix/013.c
tests_matrix_011_CPPFLAGS = $(AM_CPPFLAGS) -DVT_MATRIX_LINKED
# What matrix/010 copies into the filesystem under test and execs: it
# reports its credentials (configure.ac: without a C library where it can,
# else glibc static, else dynamic: EXEC_PROBE_CFLAGS, EXEC_PROBE_LDFLAGS).
nobase_suite_PROGRAMS += tests/matrix/exec-probe
tests_matrix_exec_probe_SOURCES = tests/matrix/exec-probe.c
tests_matrix_exec_probe_LDADD =
tests_matrix_exec_probe_CFLAGS = $(AM_CFLAGS) $(EXEC_PROBE_CFLAGS)
tests_matrix_exec_probe_LDFLAGS = $(EXEC_PROBE_LDFLAGS)
# matrix/011's sample chosen at build time (lib/matrix/sample_table.h):
# 011-gen is matrix/011 without the table; it writes 011-table.c, the
# sample of each world of lib/matrix/sample_table.c (with and without the
# default expunge files), which is linked into matrix/011. 011-hash.c
# names the sources both programs are built from; a run uses the table
# only where the table's hash is its own, and computes otherwise.
MATRIX_MODEL_FILES = $(lib_libvfsidmap_a_SOURCES) $(tests_matrix_011_SOURCES)
nodist_tests_matrix_011_SOURCES = tests/matrix/011-hash.c tests/matrix/011-table.c
noinst_PROGRAMS += tests/matrix/011-gen
tests_matrix_011_gen_SOURCES = $(tests_matrix_011_SOURCES)
nodist_tests_matrix_011_gen_SOURCES = tests/matrix/011-hash.c
tests_matrix_011_gen_CPPFLAGS = $(tests_matrix_011_CPPFLAGS)
tests/matrix/011-hash.c: $(MATRIX_MODEL_FILES)
	@$(MKDIR_P) tests/matrix
	$(AM_V_GEN)h=$$(cd $(srcdir) && cat $(MATRIX_MODEL_FILES) | sha256sum | cut -c1-64) && \
	test $${#h} = 64 && \
	{ echo '/* Made by make (tests/matrix/local.mk): the sha256 of the sources of the'; \
	  echo ' * model and the case space (MATRIX_MODEL_FILES). Do not edit. */'; \
	  echo '#include "matrix/sample_table.h"'; \
	  echo 'static void __attribute__((constructor)) link_hash(void)'; \
	  echo "{ mx_linked_model_hash = \"$$h\"; }"; } >$@.tmp && \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
# The default expunge files are those ./check applies by name
# (common/tests.sh): expunge/NAME for each NAME of the filesystem table
# that has one (scripts/default-expunges), listed with their sha256 in
# tests/matrix/default-expunges, which is written again only when that
# list or a file's contents change (so a new or edited file makes the
# sample table again, and nothing else does). It runs at every make, so
# it prints nothing.
tests/matrix/default-expunges: runner/vfsidmap-tool$(EXEEXT) FORCE
	@$(MKDIR_P) tests/matrix
	@$(SHELL) $(srcdir)/scripts/default-expunges runner/vfsidmap-tool$(EXEEXT) \
		$(srcdir) >$@.tmp && \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
tests/matrix/011-table.c: tests/matrix/011-gen$(EXEEXT) tests/matrix/default-expunges
	$(AM_V_GEN)set --; while read -r f h; do set -- "$$@" "$(srcdir)/$$f"; done \
		<tests/matrix/default-expunges; \
	tests/matrix/011-gen$(EXEEXT) --sample-table "$$@" >$@.tmp && mv -f $@.tmp $@
CLEANFILES += tests/matrix/011-hash.c tests/matrix/011-table.c tests/matrix/default-expunges
FORCE:
.PHONY: FORCE
