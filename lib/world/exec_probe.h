/* Running a copy of tests/matrix/exec-probe as the current caller: the
 * probe prints the credentials execve gave it (real, effective, saved
 * uid and gid, effective and permitted capabilities) and its
 * dumpability with the owner of its /proc/self/status. The matrix's EXEC
 * operation and hand-written tests compare them with the model's
 * (lib/model/exec_rules.c). */
#ifndef VT_EXEC_PROBE_H
#define VT_EXEC_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The credentials after execve, in the caller's namespace, as the probe
 * reports them (and as the model's EXEC expects them: the model includes
 * this layer, not the reverse). */
struct vt_exec_creds {
	uint32_t ruid, euid, suid, rgid, egid, sgid;
	uint64_t cap_eff, cap_prm;
	/* prctl(PR_GET_DUMPABLE) == SUID_DUMP_USER after the exec, and the
	 * owner of /proc/self/status as the new program sees it
	 * (fs/proc/base.c task_dump_owner: the euid when dumpable, else root
	 * of mm->user_ns, which would_dump may move up) */
	bool dump_user;
	uint32_t dump_owner;
};

/* Clear the inheritable and ambient capability sets (exec_rules.c assumes
 * them empty), execve PATH with no arguments or environment and read what
 * it prints. Returns execve's errno, or 0 when it ran: then *HAVE says
 * whether CREDS were read, and MSG (MSGLEN bytes) says why not. */
int vt_exec_probe(const char *path, struct vt_exec_creds *creds, bool *have, char *msg,
		  size_t msglen);

#endif
