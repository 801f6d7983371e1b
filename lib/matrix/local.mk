# The matrix driver shared by tests/matrix/NNN: axes (mount idmaps,
# callers), on-disk fixtures, the caller-side executor, the driver.
lib_libvfsidmap_a_SOURCES += \
	lib/matrix/matrix.h lib/matrix/axes.h lib/matrix/axes.c \
	lib/matrix/fixture.h lib/matrix/fixture.c \
	lib/matrix/executor.h lib/matrix/executor.c \
	lib/matrix/batch.h lib/matrix/batch.c \
	lib/matrix/coverage.h lib/matrix/coverage.c \
	lib/matrix/sample.h lib/matrix/sample.c \
	lib/matrix/family_helpers.c lib/matrix/family_forms.h lib/matrix/family_forms.c \
	lib/matrix/world_setup.h lib/matrix/world_setup.c \
	lib/matrix/ovl_erofs.h lib/matrix/ovl_erofs.c \
	lib/matrix/case_model.h lib/matrix/case_model.c \
	lib/matrix/compare.h lib/matrix/compare.c \
	lib/matrix/sample_choice.h lib/matrix/sample_choice.c \
	lib/matrix/mutation_score.h lib/matrix/mutation_score.c \
	lib/matrix/sample_table.h lib/matrix/sample_table.c \
	lib/matrix/driver.c \
	lib/matrix/optowner_fixture.h lib/matrix/optowner_fixture.c lib/matrix/optowner_families.c
