/* summary.h - running totals of a batch of games and the balance summary printed after a run. */
#ifndef XQ_SUMMARY_H
#define XQ_SUMMARY_H

#include <stdio.h>

#include "dataset.h"
#include "stats.h"   /* wilson_interval */

typedef struct RunTotals {
    uint64_t games, red_wins, draws, black_wins;
    uint64_t plies_sum, positions, policy_rows;
    uint64_t by_reason[TERM_COUNT];
    uint64_t resign_disabled_games;   /* games where resignation was switched off */
    uint64_t would_resign_games;      /* ... in which a side met the resignation condition */
    uint64_t false_resignations;      /* ... and that side did not lose */
    uint32_t *lengths;                /* plies of every game (for the median); owned */
    uint64_t lengths_cap;
    double game_seconds;              /* sum of per-game wall times (thread time) */
} RunTotals;

/* Adds one game. Returns 0 or -1 on out of memory. */
int totals_add(RunTotals *t, const GameRecord *g, int would_resign_side);
void totals_free(RunTotals *t);

/* Prints the balance summary: W/D/L, Red's score with a 95% interval, draw rate, lengths,
 * terminations, resignation checks. */
void totals_print(const RunTotals *t, FILE *out);

/* The same as a JSON object. */
void totals_print_json(const RunTotals *t, FILE *out);

#endif
