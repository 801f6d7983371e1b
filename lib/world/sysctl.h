/* Global sysctls a test depends on (fs.protected_regular and the like).
 *
 * A sysctl is host-wide: a test never changes it on its own. It may when
 * the environment says the machine is throw-away (VT_ALLOW_SYSCTL=1, set
 * by the qemu runner in its guest); then the old value is written back
 * when the test program exits (normally, or on SIGTERM/SIGINT/SIGHUP).
 * A SIGKILL (the runner's hard timeout) cannot be caught: the value then
 * stays, which is why this needs the explicit permission. */
#ifndef VT_SYSCTL_H
#define VT_SYSCTL_H

/* Makes /proc/sys/NAME ("fs/protected_regular") hold at least MIN for the
 * rest of the program: a value already >= MIN is left alone, a smaller one
 * is set to MIN if VT_ALLOW_SYSCTL=1. Returns NULL when the need is met,
 * else the reason the test cannot run (static buffer). Call it from the
 * main process (a test's require hook), never from a case's child. */
const char *vt_sysctl_need_min(const char *name, long min);
/* The same for exactly VAL (a value already equal is left alone). Changes
 * are written back in reverse when the program exits, the first value of
 * each sysctl last. */
const char *vt_sysctl_need_value(const char *name, long val);
/* The same for a string sysctl (kernel.core_pattern): /proc/sys/NAME
 * must read VAL; the old text is written back exactly as it was read. */
const char *vt_sysctl_need_string(const char *name, const char *val);
/* The current value of /proc/sys/NAME, or FALLBACK when unreadable. */
long vt_sysctl_read(const char *name, long fallback);

#endif
