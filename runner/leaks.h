/* What a test left behind when it ended: mounts below its TEST_DIR and loop
 * devices whose backing file lives on the filesystem under test. */
#ifndef VT_LEAKS_H
#define VT_LEAKS_H

#include <stddef.h>
#include <sys/types.h>

/* Removes the leftovers (lazy unmount; loop devices detached, or set to
 * autoclear if still busy) and describes them in REPORT. Returns how many
 * there were. FS_DEV is st_dev of the filesystem mounted at MNT. */
int vt_reap_leaks(const char *mnt, dev_t fs_dev, char *report, size_t len);

#endif
