/* A test's part of the kernel log, read from /dev/kmsg where the last test's
 * read left off, instead of a dmesg of the whole ring buffer and an awk over
 * it after every test (both grow with the run; forks are dear in run/vm's
 * TCG guest). check opens /dev/kmsg once per process that runs tests; the
 * vfsidmap-tool test-files of each test (or a kmsg-cut) inherits that open
 * file, and with it the position
 * (the record sequence number devkmsg_read() keeps per open file,
 * kernel/printk/printk.c), so each test's records are read once. */
#ifndef VT_RUNNER_KMSG_CUT_H
#define VT_RUNNER_KMSG_CUT_H

#include <stdio.h>

struct vt_kmsg_cut {
	const char *start;   /* the start marker's text */
	const char *end;     /* the end marker's text (NULL: probe for START) */
	const char *trouble; /* ERE of a line of trouble */
	const char *tag;     /* this run's tag: another run's fake warning is not ours */
	FILE *out;           /* the test's log, as dmesg prints it */
	FILE *hits;          /* the lines of trouble */
};

/* Reads records from FD (an open /dev/kmsg, made non-blocking) up to and
 * including the one whose text is C->end, or to the end of the log. Writes
 * to C->out every line after the record whose text is C->start, each as
 * "[%5lu.%06lu] text" (dmesg's default form; a record's "\xNN" escapes
 * decoded, so one with a newline gives several lines); a line matching
 * C->trouble also goes to C->hits, except a selftest fake warning naming
 * another run's tag. Without the start record (lost to a ring buffer
 * overrun, or not written) it writes a line saying so and then every line
 * it read. With C->end NULL it reads up to the record C->start and writes
 * nothing (the probe of check's start).
 * Returns 0; 1 when C->start (probe) or C->end was not found; -errno when
 * FD could not be read (C->out has what was read), -EBADMSG when a read
 * gave something that is not a record: FD is not the kernel log (a
 * device such as /dev/zero would be read for ever). */
int vt_kmsg_cut(int fd, const struct vt_kmsg_cut *c);

#endif
