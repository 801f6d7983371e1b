/* Running a piece of a test as a given caller: user namespace, uid/gid,
 * fsuid/fsgid, supplementary groups, capabilities and umask, in a forked
 * child (never a thread or CLONE_VM: credential changes stay private). */
#ifndef VT_CALLER_H
#define VT_CALLER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define VT_SAME ((unsigned int)-1)
#define VT_MAX_GROUPS 16

struct vt_caller {
	int userns_fd;		/* user namespace to join first; -1: stay */
	const char *userns_desc; /* its mapping, for messages (may be NULL) */
	uid_t uid;		/* real/effective/saved uid, in that namespace */
	gid_t gid;
	uid_t fsuid;		/* VT_SAME: equal to uid */
	gid_t fsgid;		/* VT_SAME: equal to gid */
	int ngroups;		/* supplementary groups (setgroups) */
	gid_t groups[VT_MAX_GROUPS];
	/* Capability set in cap_from_text(3) form ("cap_chown,cap_fowner=ep").
	 * NULL: all capabilities for uid 0, none otherwise (the kernel's
	 * rule on setuid, capabilities(7)). "" or "=": none at all. */
	const char *caps;
	mode_t umask;		/* applied when set_umask */
	bool set_umask;
	/* Capabilities dropped from the bounding set (PR_CAPBSET_DROP, bit
	 * n = capability n) after entering the namespace; 0: none. */
	unsigned long long bset_drop;
};

/* The caller as written in a failure message. */
int vt_caller_describe(const struct vt_caller *c, char *buf, size_t len);

/* Convenience constructors. */
struct vt_caller vt_caller_root(void);
struct vt_caller vt_caller_user(uid_t uid, gid_t gid);

enum vt_run_status {
	VT_RAN,		 /* the function ran and returned */
	VT_SETUP_FAILED, /* the credentials could not be assumed */
	VT_CRASHED,	 /* the child died from a signal */
};

struct vt_run {
	enum vt_run_status status;
	int ret;	/* the function's return value (0 or an errno) */
	int sig;	/* VT_CRASHED: the signal */
	char msg[256];	/* VT_SETUP_FAILED: which step and errno */
};

/* The function runs in the child with the caller's credentials. It may
 * fill DATA (DATALEN bytes, copied back to the parent) and returns 0 or an
 * errno value. */
typedef int (*vt_caller_fn)(void *arg, void *data, size_t datalen);

/* Assumes C's credentials in the calling process (a child made for it:
 * they cannot be given back). 0, or -errno with the failing step in MSG.
 * vt_run_as does this; the matrix's batches run several operations after
 * one call. */
int vt_caller_become(const struct vt_caller *c, char *msg, size_t len);

/* Runs FN(ARG) as C. DATA may be NULL. Returns the outcome. */
struct vt_run vt_run_as(const struct vt_caller *c, vt_caller_fn fn, void *arg, void *data,
			size_t datalen);

#endif
