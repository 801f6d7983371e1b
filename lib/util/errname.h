/* errno values by name ("EOVERFLOW"), for failure messages people can read. */
#ifndef VT_ERRNAME_H
#define VT_ERRNAME_H

/* Returns "0" for 0, the symbolic name for a known errno, "E?<n>" otherwise.
 * The pointer is to static or thread-local storage. */
const char *vt_errname(int err);

/* Inverse of vt_errname(); -1 for an unknown name. */
int vt_errno_from_name(const char *name);

/* Signal name without the SIG prefix: "SEGV". */
const char *vt_signame(int sig);

#endif
