# Test programs of tests/regress (see tests/idmapped/local.mk for the pattern).
REGRESS_TESTS = tests/regress/001 tests/regress/002 tests/regress/003 tests/regress/004 tests/regress/005 tests/regress/006 tests/regress/007 tests/regress/008 tests/regress/009 tests/regress/010 tests/regress/011
nobase_suite_PROGRAMS += $(REGRESS_TESTS)
EXTRA_DIST += tests/regress/sgid_common.h
