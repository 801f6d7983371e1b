/* User namespaces built from a mapping, held by an fd (/proc/PID/ns/user). */
#ifndef VT_USERNS_H
#define VT_USERNS_H

#include "idmap_spec.h"

/* Creates a user namespace whose uid_map/gid_map are M (either may be
 * empty: then that map is left unwritten). PARENT_FD is a user-namespace fd
 * to nest under, or -1 for the caller's own namespace; M's LOWER ids are
 * then ids of the parent namespace. Returns an O_CLOEXEC fd, or -errno.
 * No process or zombie is left behind. */
int vt_userns_create(int parent_fd, const struct vt_mapping *m);

/* Same, from a spec string; -EINVAL for a spec that does not parse. */
int vt_userns_from_spec(int parent_fd, const char *spec);

/* A user namespace nested in PARENT_FD (>= 0) from SPEC, created by that
 * namespace's root (create_user_ns() wants the creator's euid mapped in
 * the parent; an unmapped creator could not), so its owner is the parent
 * namespace's uid 0. Returns an O_CLOEXEC fd or -errno. */
int vt_userns_nested_by_root(int parent_fd, const char *spec);

/* A new FSTYPE superblock (e.g. "tmpfs") created from inside the user
 * namespace USERNS_FD, so that its s_user_ns is that namespace: a child
 * joins the namespace as its root, unshares a mount namespace (owned by
 * it, so may_mount() holds), runs fsopen/fsconfig/fsmount and passes the
 * detached mount fd back over a socket. Returns the O_CLOEXEC mount fd,
 * or -errno of the failing step. */
int vt_fsmount_in_userns(int userns_fd, const char *fstype);

/* Same, with options set by fsconfig() before the superblock is created:
 * OPTS is a NULL-terminated list of "key=value" (FSCONFIG_SET_STRING) or
 * "flag" (FSCONFIG_SET_FLAG) strings, e.g. an overlay's "lowerdir=...",
 * "userxattr". NULL: none. Paths in values are looked up by the child,
 * as root of the user namespace. */
int vt_fsmount_in_userns_opts(int userns_fd, const char *fstype, const char *const *opts);

#endif
