# The project's own tests (make check): pure units, then the library on a
# real tmpfs (needs root), then the harness self-tests.
UNIT_TESTS = unit/test-idmap-spec unit/test-ktap unit/test-config unit/test-world-tmpfs \
	unit/test-fuse-reqlog \
	unit/test-safe-remove
check_PROGRAMS += $(UNIT_TESTS)
EXTRA_DIST += unit/unit.h unit/unit_model.h
TESTS += $(UNIT_TESTS)
# The reference FUSE server: ready, unmount, SIGTERM, bad input (root).
TESTS += unit/test-fuse-server.sh
EXTRA_DIST += unit/test-fuse-server.sh
# Harness self-tests: crash, hang, leak, check killed by SIGKILL/SIGTERM,
# bad input, not root. Runs ./check on the built tree.
TESTS += unit/test-harness.sh
EXTRA_DIST += unit/test-harness.sh
# vfsidmap-tool test-files: a test's result files and its KTAP digest.
TESTS += unit/test-test-files.sh
EXTRA_DIST += unit/test-test-files.sh
# The reference model (pure) and the meta-test proving the matrix can fail.
UNIT_TESTS += unit/test-model-idmap unit/test-model-rules unit/test-model-userns-sb \
	unit/test-model-vfat \
	unit/test-model-readonly unit/test-ro-image unit/test-model-overlay \
	unit/test-model-ovl-fileops \
	unit/test-model-dump-handle
# The matrix batch runner: replies, umask per item, crash, hang (root).
UNIT_TESTS += unit/test-matrix-batch
# The fixtures' removal: every kind of entry, long listings, mounts below.
UNIT_TESTS += unit/test-fixture-remove
TESTS += unit/test-matrix-break.sh
EXTRA_DIST += unit/test-matrix-break.sh
# Every matrix family has a form for every owner source of the fs table.
UNIT_TESTS += unit/test-matrix-forms
TESTS += unit/test-matrix-family-forms.sh
EXTRA_DIST += unit/test-matrix-family-forms.sh
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
TESTS += unit/test-model-break-input.sh
# matrix/011's sample from the build-time table is the computed one.
TESTS += unit/test-sample-table.sh
EXTRA_DIST += unit/test-sample-table.sh
EXTRA_DIST += unit/test-mutants.sh
EXTRA_DIST += unit/test-model-break-input.sh
# make kselftest-install: the tree's shape, DESTDIR, a strict KTAP parser
# (unit/ktap-parse.awk, with broken documents it must reject), tests run
# through our run_kselftest.sh and through a kernel tree's (root).
TESTS += unit/test-kselftest-install.sh
EXTRA_DIST += unit/test-kselftest-install.sh unit/ktap-parse.awk
# The script tests' shared preambles (trees, TAP helpers; root check and
# work dir in tap.sh; ok STATUS and $failed in tap-status.sh).
EXTRA_DIST += unit/tap.sh unit/tap-status.sh
# run/compare-verdicts: host vs guest verdicts per test, shards merged (TAP).
TESTS += unit/test-compare-verdicts.sh
EXTRA_DIST += unit/test-compare-verdicts.sh
# Reliability of the runner: each defect reproduced against the
# built tree and the fixed behaviour asserted; JUnit checked with xmllint
# against doc/junit.xsd (root; a private mount namespace and VT_RUN_BASE).
TESTS += unit/test-reliability.sh
EXTRA_DIST += unit/test-reliability.sh doc/junit.xsd
# ./check as a whole under random command lines and configs, kill points
# and write faults (fuzz/fuzz-check.sh, fixed seed; `make fuzz-run` runs
# more).
TESTS += fuzz/fuzz-check.sh
# results.ktap and the kselftest tree's output through the kernel's own
# parser, kunit.py parse (from KSFT_KERNEL_SELFTESTS's tree or
# linux-source-X.Y), counts checked (root).
TESTS += unit/test-ktap-kunit.sh
EXTRA_DIST += unit/test-ktap-kunit.sh unit/kunit.sh
# A test that fails as a whole (kernel log, fsck, leak, timeout, crash):
# kunit.py parse counts its failing leaf test-level:TYPE and exits
# non-zero; check's counts agree; ktap-nest makes cut streams whole (root).
TESTS += unit/test-ktap-test-level.sh
EXTRA_DIST += unit/test-ktap-test-level.sh
# Replay: listed case ids of every suite (vfat forms included) run exactly
# their case; bad ids are refused up front; the replay lines real failures
# print are run as printed (root).
TESTS += unit/test-replay.sh
EXTRA_DIST += unit/test-replay.sh
# The kernel's side of each test: a WARNING in the kernel log between the
# test's markers fails it (selftest/004), noise patterns, no readable log
# said so, and fsck of a corrupted ext4 TEST_DEV fails the test (root).
TESTS += unit/test-kernel-checks.sh
EXTRA_DIST += unit/test-kernel-checks.sh
# vfsidmap-tool kmsg-cut: a test's kernel log read on from the last test's (TAP).
TESTS += unit/test-kmsg-cut.sh
EXTRA_DIST += unit/test-kmsg-cut.sh
# fsck after each test on xfs and btrfs: a corruption made after the test
# wrote fails it with the checker's finding everywhere, the next test runs
# on a fresh image; vfat's fsck step on the suite's image (root).
TESTS += unit/test-fsck-corruption.sh
EXTRA_DIST += unit/test-fsck-corruption.sh
# xfstests' habits: -r/--seed, --exact-order, globs, -g all, -e/-X/-S,
# -i/-I/-L, an xfstests local.config, -E with other suites' names,
# check.time and the status line on a terminal (the runs need root).
TESTS += unit/test-xfstests-options.sh
EXTRA_DIST += unit/test-xfstests-options.sh
# Packaging: make dist (no test run) and a build from the tarball alone,
# make install with vfsidmap-check and its man page (DESTDIR, a prefix),
# the man page rendering, the kernel-tree drop-in through the kernel's own
# make run_tests (a kernel tree: VFSIDMAP_KERNEL_SRC or linux-source-*).
TESTS += unit/test-packaging.sh
EXTRA_DIST += unit/test-packaging.sh
# ./bootstrap by a user who cannot write the tree: exit 2 and a clear
# message before autoreconf, configure or make (root; setpriv).
TESTS += unit/test-bootstrap-owner.sh
EXTRA_DIST += unit/test-bootstrap-owner.sh
# vfsidmap-check's replay lines call vfsidmap-check, whose results go to
# the caller's ./results (make install under a prefix; root).
TESTS += unit/test-installed-replay.sh
EXTRA_DIST += unit/test-installed-replay.sh
# A partial run (--case, --shard) records no test time and prints no
# full rule coverage; -v shows the matrix's mismatch block; check.log and
# result.xml carry the run's environment (root).
TESTS += unit/test-run-records.sh
EXTRA_DIST += unit/test-run-records.sh
# run/gcov-report: idmap call sites reached, computed from gcov's counts of
# a program built here with --coverage (TAP; skipped without gcc/gcov).
TESTS += unit/test-gcov-report.sh
EXTRA_DIST += unit/test-gcov-report.sh
# run/build-kernel's command line, --gcov's refusal of a tree it did not unpack (TAP).
TESTS += unit/test-build-kernel-args.sh
EXTRA_DIST += unit/test-build-kernel-args.sh

# The filesystem table and its shell view (lib/fs/fs_table.c).
TESTS += unit/test-fs-table.sh unit/test-fs-lacks.sh unit/test-out-of-scope.sh unit/test-lib-layers.sh
EXTRA_DIST += unit/test-fs-table.sh unit/test-fs-lacks.sh unit/test-out-of-scope.sh unit/test-lib-layers.sh
TESTS += unit/test-existing-mount.sh
EXTRA_DIST += unit/test-existing-mount.sh
# The conformance table across filesystems (common/conformance.awk).
TESTS += unit/test-conformance.sh
EXTRA_DIST += unit/test-conformance.sh
TESTS += unit/test-porting-scope.sh
EXTRA_DIST += unit/test-porting-scope.sh
# ./check -j N: -j 2 gives the output and results of -j 1 (kunit.py parse,
# xmllint), bad -j values, signals, SIGKILL, -T, write errors (root).
TESTS += unit/test-jobs.sh unit/test-sysctl-lock.sh
EXTRA_DIST += unit/test-jobs.sh unit/test-sysctl-lock.sh
# run/phase-times: where a run's wall time went, from check's kmsg markers (TAP).
TESTS += unit/test-phase-times.sh
EXTRA_DIST += unit/test-phase-times.sh

# SIGINT and SIGTERM at 1000 random instants of a multi-section run: nothing
# outside the run's directories, nothing leaked, every interrupted run
# marked incomplete (VT_SIGNAL_INSTANTS, VT_SIGNAL_SEED)
TESTS += unit/test-signal-instants.sh
EXTRA_DIST += unit/test-signal-instants.sh
# TEST_TIMEOUT of the environment: the per-test timeout, -T over it, it
# over local.config's; values that are no number of seconds: exit 2 (root).
TESTS += unit/test-timeout-env.sh
EXTRA_DIST += unit/test-timeout-env.sh
# Two runs of one name (a section without FSTYP beside [SECTION-FS], -s
# twice): exit 2 naming both sections, before anything is made (root).
TESTS += unit/test-run-names.sh
EXTRA_DIST += unit/test-run-names.sh
# -E, -c and VT_EXPUNGE read bounded: /proc/self/pagemap, /dev/zero, a
# FIFO are exit 2 at once, in check and in the test programs (root).
TESTS += unit/test-expunge-input.sh
EXTRA_DIST += unit/test-expunge-input.sh
# VT_DMESG_NOISE and VT_KMSG_DEV naming a FIFO, /dev/zero and the like:
# exit 2 at once, nothing made; kmsg-cut stops on what is no record (root).
TESTS += unit/test-kmsg-input.sh
EXTRA_DIST += unit/test-kmsg-input.sh
# Input that failed late is exit 2 up front: --case with a newline,
# VT_SAMPLE_WITHOUT(_MUTANT) naming nothing, MKFS_OPTIONS and MOUNT_OPTIONS
# that mkfs or mount refuse (root).
TESTS += unit/test-early-input.sh
EXTRA_DIST += unit/test-early-input.sh
# ./check ... | head: the run goes on and publishes its results, with its
# own exit status, also with -j 2 (root).
TESTS += unit/test-stdout-gone.sh
EXTRA_DIST += unit/test-stdout-gone.sh
# A toy record of the filesystem table flows to every consumer: the tool
# built with one more row (unit/toy-fs-row.h through VT_FS_EXTRA_ROWS).
check_PROGRAMS += unit/toy-fs-tool
unit_toy_fs_tool_SOURCES = $(runner_vfsidmap_tool_SOURCES) lib/fs/fs_table.c
unit_toy_fs_tool_CPPFLAGS = $(AM_CPPFLAGS) -DVT_FS_EXTRA_ROWS='"$(abs_top_srcdir)/unit/toy-fs-row.h"'
TESTS += unit/test-toy-fs-record.sh
EXTRA_DIST += unit/test-toy-fs-record.sh unit/toy-fs-row.h
