/* selftest/005: a test that exits "passing" with its KTAP cut short.
 *
 * It plans three cases, reports one and exits 0. A pass must never rest
 * on a short output, so the harness makes it an error of this test; the
 * other tests of the run keep their results (the run's scratch space
 * takes writes, so the test's own output is what is short). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	/* one unnamed run, no cases to list (./check --list-cases, --case) */
	if (argc > 1 && strcmp(argv[1], "--list-cases") == 0)
		return 0;
	printf("KTAP version 1\n1..3\nok 1 the only case reported\n");
	return 0;
}
