/* Publishing a results directory in one step: the directory users read is
 * swapped with a fully written sibling by renameat2(RENAME_EXCHANGE)
 * (rename(2), Linux 3.15+; ext4, xfs, btrfs, tmpfs, ...). Either both
 * names point where they did, or both were swapped: no reader ever sees
 * a mixture of the two. */
#ifndef VT_EXCHANGE_H
#define VT_EXCHANGE_H

/* Swaps the directories A and B (same parent directory) and fsyncs that
 * parent so the swap survives a crash. Returns 0; -errno when nothing
 * was swapped; VT_EXCHANGED_NOT_DURABLE (errno set) when the swap was
 * made but fsync of the parent failed: both names are swapped now, and a
 * crash may undo that. */
#define VT_EXCHANGED_NOT_DURABLE 1
int vt_exchange_dirs(const char *a, const char *b);

#endif
