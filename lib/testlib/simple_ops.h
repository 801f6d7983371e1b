/* Small operations to run as a caller through vt_run_as(): each takes the
 * path as ARG and returns 0 or the errno. */
#ifndef VT_SIMPLE_OPS_H
#define VT_SIMPLE_OPS_H

#include <stddef.h>
#include <sys/types.h>

int vt_op_create(void *path, void *data, size_t len);	/* open(O_CREAT|O_EXCL, 0644) */
int vt_op_mkdir(void *path, void *data, size_t len);	/* mkdir 0755 */
int vt_op_mkfifo(void *path, void *data, size_t len);	/* mknod S_IFIFO 0644 */
int vt_op_symlink(void *path, void *data, size_t len);	/* symlink "target" */

/* chown(path, uid, gid) of a struct vt_chown_arg given as ARG */
struct vt_chown_arg {
	const char *path;
	uid_t uid;
	gid_t gid;
};
int vt_op_chown(void *arg, void *data, size_t len);

/* A .require for tests of open_tree_attr() (6.15): NULL if the syscall
 * exists (probed on DIR with OPEN_TREE_CLONE), else the notrun reason. */
const char *vt_require_open_tree_attr(const char *fstype, const char *dir);

/* /proc/sys/kernel/overflowuid and overflowgid: what stat(2) shows for an
 * id with no mapping (from_kuid_munged). 65534 if unreadable. */
uid_t vt_overflowuid(void);
gid_t vt_overflowgid(void);

#endif
