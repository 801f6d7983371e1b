/* exec-probe: the program matrix/010 copies, with the case's owner, mode
 * and security.capability, into the filesystem under test and execs as
 * the case's caller. It writes the credentials it runs with to stdout:
 *   ruid euid suid rgid egid sgid cap_effective cap_permitted dumpable owner
 * (ids as seen in its user namespace, capability sets in hex; dumpable is
 * prctl(PR_GET_DUMPABLE), owner the uid of /proc/self/status, which
 * fs/proc/base.c task_dump_owner derives from dumpability and
 * mm->user_ns: what fs/exec.c would_dump decides).
 *
 * Two builds of one program. Where configure finds it can (x86-64 and
 * arm64, no sanitizer), VT_TINY_PROBE: no C library at all, its own
 * _start and raw system calls, a few KiB. matrix/010 writes a copy of the
 * probe for each of its ten thousand cases a filesystem and execs each, so
 * the static glibc build's 700 KiB were most of that program's time.
 * Elsewhere the plain C library build. Both print the same line. */
#include <linux/capability.h>
#include <linux/prctl.h>

#ifdef VT_TINY_PROBE
#include <asm/unistd.h>
#include <linux/fcntl.h>
#include <linux/stat.h>

#if defined(__x86_64__)
__asm__(".text\n.global _start\n_start:\n\txor %rbp, %rbp\n\tmov %rsp, %rdi\n"
	"\tand $-16, %rsp\n\tcall probe_main\n\thlt\n");

static long sys6(long nr, long a, long b, long c, long d, long e)
{
	register long r10 __asm__("r10") = d, r8 __asm__("r8") = e;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
__asm__(".text\n.global _start\n_start:\n\tmov x29, #0\n\tmov x30, #0\n\tmov x0, sp\n"
	"\tbl probe_main\n\tbrk #0\n");

static long sys6(long nr, long a, long b, long c, long d, long e)
{
	register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a, x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c, x3 __asm__("x3") = d, x4 __asm__("x4") = e;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4) : "memory");
	return x0;
}
#else
#error "VT_TINY_PROBE: x86-64 and arm64 only (configure checks)"
#endif

#define SYS(nr, a, b, c) sys6(nr, (long)(a), (long)(b), (long)(c), 0, 0)

/* the compiler may call these for a struct's copy or zeroing */
void *memset(void *d, int c, unsigned long n);
void *memset(void *d, int c, unsigned long n)
{
	unsigned char *p = d;

	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

static char *put_dec(char *p, unsigned long long v, char sep)
{
	char t[24];
	int n = 0;

	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		*p++ = t[--n];
	*p++ = sep;
	return p;
}

static char *put_hex(char *p, unsigned long long v, char sep)
{
	char t[20];
	int n = 0;

	do
		t[n++] = "0123456789abcdef"[v & 15];
	while ((v >>= 4) != 0);
	while (n)
		*p++ = t[--n];
	*p++ = sep;
	return p;
}

static int probe(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	unsigned int u[3], g[3];
	struct statx st;
	char line[256], *p = line;
	long dumpable = SYS(__NR_prctl, PR_GET_DUMPABLE, 0, 0), n;
	int i;

	if (SYS(__NR_getresuid, &u[0], &u[1], &u[2]) < 0 || SYS(__NR_getresgid, &g[0], &g[1], &g[2]) < 0 ||
	    SYS(__NR_capget, &h, d, 0) < 0 || dumpable < 0 ||
	    sys6(__NR_statx, AT_FDCWD, (long)"/proc/self/status", 0, STATX_UID, (long)&st) < 0)
		return 1;
	for (i = 0; i < 3; i++)
		p = put_dec(p, u[i], ' ');
	for (i = 0; i < 3; i++)
		p = put_dec(p, g[i], ' ');
	p = put_hex(p, d[0].effective | ((unsigned long long)d[1].effective << 32), ' ');
	p = put_hex(p, d[0].permitted | ((unsigned long long)d[1].permitted << 32), ' ');
	p = put_dec(p, (unsigned long long)dumpable, ' ');
	p = put_dec(p, st.stx_uid, '\n');
	for (i = 0; i < p - line; i += (int)n) {
		n = SYS(__NR_write, 1, line + i, p - line - i);
		if (n <= 0)
			return 1;
	}
	return 0;
}

void probe_main(long *sp);
void probe_main(long *sp)
{
	(void)sp;
	SYS(__NR_exit_group, probe(), 0, 0);
	for (;;)
		;
}

#else /* the C library build */
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
#endif
