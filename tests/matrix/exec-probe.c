/* exec-probe: the program matrix/010 copies, with the case's owner, mode
 * and security.capability, into the filesystem under test and execs as
 * the case's caller. It writes the credentials it runs with to stdout:
 *   ruid euid suid rgid egid sgid cap_effective cap_permitted dumpable owner
 * (ids as seen in its user namespace, capability sets in hex; dumpable is
 * prctl(PR_GET_DUMPABLE), owner the uid of /proc/self/status, which
 * fs/proc/base.c task_dump_owner derives from dumpability and
 * mm->user_ns: what fs/exec.c would_dump decides). */
#include <linux/capability.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	struct stat st;
	int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);

	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0 ||
	    syscall(SYS_capget, &h, d) < 0 || dumpable < 0 || stat("/proc/self/status", &st) < 0)
		return 1;
	printf("%u %u %u %u %u %u %llx %llx %d %u\n", (unsigned)ru, (unsigned)eu, (unsigned)su,
	       (unsigned)rg, (unsigned)eg, (unsigned)sg,
	       (unsigned long long)d[0].effective | ((unsigned long long)d[1].effective << 32),
	       (unsigned long long)d[0].permitted | ((unsigned long long)d[1].permitted << 32),
	       dumpable, (unsigned)st.st_uid);
	return fflush(stdout) == 0 ? 0 : 1;
}
