# Test programs of tests/btrfs (see tests/idmapped/local.mk for the pattern):
# btrfs subvolume ioctls through idmapped mounts, each program linked with
# the suite's world (btrfs_world.c: callers, ioctls, the case's own btrfs).
BTRFS_TESTS = tests/btrfs/001 tests/btrfs/002 tests/btrfs/003 tests/btrfs/004 tests/btrfs/005
nobase_suite_PROGRAMS += $(BTRFS_TESTS)
BTRFS_WORLD = tests/btrfs/btrfs_world.c tests/btrfs/btrfs_world.h
tests_btrfs_001_SOURCES = tests/btrfs/001.c $(BTRFS_WORLD)
tests_btrfs_002_SOURCES = tests/btrfs/002.c $(BTRFS_WORLD)
tests_btrfs_003_SOURCES = tests/btrfs/003.c $(BTRFS_WORLD)
tests_btrfs_004_SOURCES = tests/btrfs/004.c $(BTRFS_WORLD)
tests_btrfs_005_SOURCES = tests/btrfs/005.c $(BTRFS_WORLD)
