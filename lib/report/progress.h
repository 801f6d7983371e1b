/* Progress of a running test for ./check's status line: with VT_PROGRESS
 * naming a file (check creates it, on a terminal only), the top-level KTAP
 * document's plan and result count are written there as "DONE TOTAL\n",
 * at most a few times a second. Without VT_PROGRESS nothing is written.
 * A failure to write is ignored: the status line is a courtesy, the
 * results are the KTAP stream. */
#ifndef VT_PROGRESS_H
#define VT_PROGRESS_H

/* The plan of the top-level document (number of cases). */
void vt_progress_plan(int total);
/* One more top-level result. */
void vt_progress_result(void);

#endif
