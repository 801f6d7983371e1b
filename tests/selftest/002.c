/* selftest/002: a test program that hangs on purpose.
 *
 * It forks a child that ignores SIGTERM and SIGHUP and sleeps, then sleeps
 * itself. The harness must kill the whole tree at the timeout (-T) and
 * report a timeout; no process may survive. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	/* one unnamed run, no cases to list (./check --list-cases, --case) */
	if (argc > 1 && strcmp(argv[1], "--list-cases") == 0)
		return 0;
	printf("KTAP version 1\n1..1\n");
	fflush(stdout);
	if (fork() == 0) {
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		setsid(); /* leave the process group: only the pid namespace catches it */
		prctl(PR_SET_NAME, "vt-selftest-hang");
		for (;;)
			pause();
	}
	prctl(PR_SET_NAME, "vt-selftest-hang");
	for (;;)
		pause();
}
