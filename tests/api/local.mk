# Test programs of tests/api (see tests/idmapped/local.mk for the pattern).
API_TESTS = tests/api/001 tests/api/002 tests/api/003 tests/api/004 tests/api/005 tests/api/006 tests/api/007 tests/api/008 tests/api/009 tests/api/010 tests/api/011 tests/api/012
nobase_suite_PROGRAMS += $(API_TESTS)
EXTRA_DIST += tests/api/api_util.h
