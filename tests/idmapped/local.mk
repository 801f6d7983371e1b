# Test programs of the "idmapped" suite: tests/idmapped/NNN.c -> NNN.
# Groups and descriptions: tests/idmapped/group.list and each file's header.
IDMAPPED_TESTS = tests/idmapped/001 tests/idmapped/002 tests/idmapped/003 tests/idmapped/004 \
	tests/idmapped/005 tests/idmapped/006 tests/idmapped/007 \
	tests/idmapped/008 tests/idmapped/009 tests/idmapped/010 tests/idmapped/011
nobase_suite_PROGRAMS += $(IDMAPPED_TESTS)
