/* selftest/001: a test program that crashes (SIGSEGV) on purpose.
 *
 * The harness must report it as a failure naming the signal, and go on. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	/* one unnamed run, no cases to list (./check --list-cases, --case) */
	if (argc > 1 && strcmp(argv[1], "--list-cases") == 0)
		return 0;
	printf("KTAP version 1\n1..1\n");
	fflush(stdout);
	raise(SIGSEGV);
	return 0;
}
