/* Table of errno names. Only the values a VFS test can meet are listed. */
#include "errname.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define E(x) { x, #x }
static const struct {
	int value;
	const char *name;
} errnos[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV),
	E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY),
	E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK),
	E(EPIPE), E(ERANGE), E(ENAMETOOLONG), E(ENOSYS), E(ENOTEMPTY),
	E(ELOOP), E(ENODATA), E(EOVERFLOW), E(EOPNOTSUPP),
	E(EDQUOT), E(ESTALE), E(EUSERS), E(EBADMSG), E(ENOTCONN),
};
#undef E

const char *vt_errname(int err)
{
	static _Thread_local char buf[24];
	size_t i;

	if (err == 0)
		return "0";
	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (errnos[i].value == err)
			return errnos[i].name;
	snprintf(buf, sizeof(buf), "E?%d", err);
	return buf;
}

int vt_errno_from_name(const char *name)
{
	size_t i;

	if (strcmp(name, "0") == 0)
		return 0;
	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (strcmp(errnos[i].name, name) == 0)
			return errnos[i].value;
	return -1;
}

const char *vt_signame(int sig)
{
	static _Thread_local char buf[16];
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		return abbrev;
	snprintf(buf, sizeof(buf), "%d", sig);
	return buf;
}
