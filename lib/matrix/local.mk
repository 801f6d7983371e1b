# The matrix driver shared by tests/matrix/NNN: axes (mount idmaps,
# callers), on-disk fixtures, the caller-side executor, the driver.
lib_libvfsidmap_a_SOURCES += \
	lib/matrix/matrix.h lib/matrix/axes.h lib/matrix/axes.c \
	lib/matrix/fixture.h lib/matrix/fixture.c \
	lib/matrix/executor.h lib/matrix/executor.c \
	lib/matrix/coverage.h lib/matrix/coverage.c \
	lib/matrix/sample.h lib/matrix/sample.c \
	lib/matrix/driver.c \
	lib/matrix/vfat_fixture.h lib/matrix/vfat_fixture.c lib/matrix/vfat_families.c
