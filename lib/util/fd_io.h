/* Whole-buffer reads and writes: on a pipe, for the caller processes that send
 * their replies to the process that forked them (lib/world/caller.c), and to
 * the runner's per-test files (runner/test-files.c). */
#ifndef VT_FD_IO_H
#define VT_FD_IO_H

#include <stdbool.h>
#include <stddef.h>

/* Write all LEN bytes of BUF to FD, retrying after EINTR and short
 * writes. False if FD took fewer (the reader is gone: EPIPE, or an error):
 * the caller decides whether that ends it. */
bool vt_write_full(int fd, const void *buf, size_t len);
/* Read exactly LEN bytes; false at end of file or on an error first. */
bool vt_read_full(int fd, void *buf, size_t len);

#endif
