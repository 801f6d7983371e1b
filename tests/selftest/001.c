/* selftest/001: a test program that crashes (SIGSEGV) on purpose.
 *
 * The harness must report it as a failure naming the signal, and go on. */
#include <signal.h>
#include <stdio.h>

int main(void)
{
	printf("KTAP version 1\n1..1\n");
	fflush(stdout);
	raise(SIGSEGV);
	return 0;
}
