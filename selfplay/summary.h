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
    /* Hidden-piece rule sets (GameRecord.has_deal): Red in the counts above is seat 0, the
     * first mover; these count by colour, and over --paired-deals pairs (games 2k, 2k+1 with
     * the seat-swapped deal, added in order). */
    uint64_t hidden_games;
    uint64_t colour_wins[2];          /* games won by the player of colour RED / BLACK */
    uint64_t colour_draws;            /* drawn games with colours assigned */
    uint64_t colour_unassigned;       /* games that ended before any reveal assigned colours */
    uint64_t pairs;                   /* complete pairs */
    double pair_score_sum, pair_score_sq; /* seat 0's mean score over a pair's two games */
    uint64_t pair_seat_swept;         /* one seat won both games of the pair */
    uint64_t pair_hand_swept;         /* one half of the deal won both (the seats traded it) */
    bool pair_open;                   /* game 2k seen, waiting for 2k+1 */
    uint64_t pair_first_index;
    double pair_first_score;          /* seat 0's score in game 2k */
} RunTotals;

/* Adds one game. Returns 0 or -1 on out of memory. */
int totals_add(RunTotals *t, const GameRecord *g, int would_resign_side);
void totals_free(RunTotals *t);

/* Prints the balance summary: W/D/L, Red's score with a 95% interval, draw rate, lengths,
 * terminations, resignation checks; for hidden-piece rule sets also the results by seat and by
 * colour and the paired-deal statistics. */
void totals_print(const RunTotals *t, FILE *out);

/* The same as a JSON object. */
void totals_print_json(const RunTotals *t, FILE *out);

#endif
