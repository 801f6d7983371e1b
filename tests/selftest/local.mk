# Harness self-tests: programs that misbehave on purpose (crash, hang, leak).
# Only in group "selftest"; unit/test-harness.sh runs them through ./check.
SELFTEST_TESTS = tests/selftest/001 tests/selftest/002 tests/selftest/003 tests/selftest/004 \
	tests/selftest/005
nobase_suite_PROGRAMS += $(SELFTEST_TESTS)
