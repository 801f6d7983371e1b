/* The command line that replays one case of a test, as a failure prints it
 * after "reproduce: ". ./check passes what the run used: VT_REPLAY_CHECK
 * (the check to call, with the environment variables that change a case's
 * outcome in front, shell-quoted) and VT_REPLAY_OPTS (-c/-s of the config,
 * --fs, ...). A test run by hand prints "./check --case ID --fs FSTYP". */
#ifndef VT_REPLAY_H
#define VT_REPLAY_H

#include <stddef.h>

/* "CHECK --case TEST/CASE OPTS" into BUF (truncated to LEN). TEST is
 * "suite/NNN"; the case id is quoted for a shell when it needs it. */
const char *vt_replay_line(char *buf, size_t len, const char *test, const char *case_name,
			   const char *fstype);

/* "suite/NNN" of the program at ARGV0 (".../tests/suite/NNN"), or VT_TEST_ID. */
const char *vt_replay_test_id(const char *argv0, char *buf, size_t len);

#endif
