# vfsidmap (conformance tests of ID-mapped mounts) as a kselftest target of
# this kernel tree, written by vfsidmap's `make kselftest-dropin
# KERNEL_SRC=...` (its kselftest/dropin.mk). Then, from the kernel tree:
#
#   make -C tools/testing/selftests TARGETS=vfsidmap run_tests
#   make -C tools/testing/selftests TARGETS=vfsidmap install INSTALL_PATH=DIR
#
# The tests are built by the vfsidmap build tree named below (its `make`)
# and installed as one suite into $(OUTPUT)/suite (its `make
# install-suite`); every TEST_PROGS entry is a two-line wrapper running one
# test through that suite's ./check (run-test.sh; environment in
# vfsidmap's kselftest/README.md). VFSIDMAP_TESTS="api_001 ..." runs fewer.
VFSIDMAP_BUILD := @VFSIDMAP_BUILD@
VFSIDMAP_TESTS ?= @VFSIDMAP_TESTS@
TEST_PROGS := $(VFSIDMAP_TESTS)
TEST_FILES := run-test.sh
TEST_GEN_FILES := suite

include ../lib.mk

# Always asked of vfsidmap's make, which knows what is up to date. The
# kernel's make variables (OUTPUT, O, SRC_PATH, ...) stay out of it.
$(OUTPUT)/suite: FORCE
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(MAKE) -s -C $(VFSIDMAP_BUILD)
	rm -rf $@
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(MAKE) -s -C $(VFSIDMAP_BUILD) install-suite suitedir=$(abspath $@) DESTDIR= >/dev/null

FORCE:
.PHONY: FORCE
