# The reference model (pure C, no syscalls): added to lib/libvfsidmap.a.
lib_libvfsidmap_a_SOURCES += \
	lib/model/ids.h lib/model/break.h lib/model/mutant_points.h lib/model/mutant.c \
	lib/model/rule_table.h lib/model/rule_ids.h lib/model/rule_ids.c \
	lib/model/userns_model.h lib/model/userns_model.c \
	lib/model/mnt_idmap_model.h lib/model/mnt_idmap_model.c \
	lib/model/world_model.h lib/model/rules.h lib/model/model.c \
	lib/model/cred_rules.c lib/model/permission_rules.c \
	lib/model/create_rules.c lib/model/attr_rules.c \
	lib/model/delete_rules.c lib/model/xattr_rules.c \
	lib/model/exec_rules.c lib/model/protected_rules.c lib/model/readonly_rules.c \
	lib/model/file_rules.c lib/model/overlay_model.h lib/model/overlay_model.c \
	lib/model/overlay_internal.h lib/model/overlay_fileops.c \
	lib/model/setattr.h lib/model/optowner_model.h lib/model/optowner_rule_table.h \
	lib/model/optowner_rules.h lib/model/optowner_rules.c lib/model/fs_ops.h \
	lib/model/coredump_model.h lib/model/coredump_rules.c \
	lib/model/fhandle_model.h lib/model/fhandle_rules.c
