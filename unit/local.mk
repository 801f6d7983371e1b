# The project's own tests (make check): pure units, then the library on a
# real tmpfs (needs root), then the harness self-tests.
UNIT_TESTS = unit/test-idmap-spec unit/test-ktap unit/test-config unit/test-world-tmpfs \
	unit/test-safe-remove
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
# Harness self-tests: crash, hang, leak, check killed by SIGKILL/SIGTERM,
# bad input, not root. Runs ./check on the built tree.
TESTS += unit/test-harness.sh
EXTRA_DIST += unit/test-harness.sh
# The reference model (pure) and the meta-test proving the matrix can fail.
UNIT_TESTS += unit/test-model-idmap unit/test-model-rules unit/test-model-vfat
TESTS += unit/test-matrix-break.sh
EXTRA_DIST += unit/test-matrix-break.sh
# run/vm's command line, without booting (TAP).
TESTS += unit/test-run-vm-args.sh
EXTRA_DIST += unit/test-run-vm-args.sh run
# The installed tree (what run/vm packs) runs ./check alone, without this
# source tree (root; a private mount namespace).
TESTS += unit/test-install-tree.sh
EXTRA_DIST += unit/test-install-tree.sh
AM_TESTS_ENVIRONMENT = MAKE='$(MAKE)'; export MAKE;
# ./check --report porting: the row mapping covers the idmapped group, the
# verdicts from a real tmpfs run and from crafted results, the HTML (root).
TESTS += unit/test-porting-report.sh
EXTRA_DIST += unit/test-porting-report.sh
# Rule coverage: matrix/011 decides every rule both ways on tmpfs, every
# family meets every idmap and caller, and a rule left out shows as 0 (root).
TESTS += unit/test-rule-coverage.sh
EXTRA_DIST += unit/test-rule-coverage.sh
# Model mutants: generated from the model, scored offline; the quick sample
# kills every killable one and the score can fail.
TESTS += unit/test-mutants.sh
EXTRA_DIST += unit/test-mutants.sh
# make kselftest-install: the tree's shape, DESTDIR, a strict KTAP parser
# (unit/ktap-parse.awk, with broken documents it must reject), tests run
# through our run_kselftest.sh and through a kernel tree's (root).
TESTS += unit/test-kselftest-install.sh
EXTRA_DIST += unit/test-kselftest-install.sh unit/ktap-parse.awk
# run/compare-verdicts: host vs guest verdicts per test, shards merged (TAP).
TESTS += unit/test-compare-verdicts.sh
EXTRA_DIST += unit/test-compare-verdicts.sh

# The filesystem table and its shell view (lib/fs/fs_table.c).
TESTS += unit/test-fs-table.sh
EXTRA_DIST += unit/test-fs-table.sh
# The conformance table across filesystems (common/conformance.awk).
TESTS += unit/test-conformance.sh
EXTRA_DIST += unit/test-conformance.sh
