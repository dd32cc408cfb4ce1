/* summary.h - running totals of a batch of games and the balance summary printed after a run. */
#ifndef XQ_SUMMARY_H
#define XQ_SUMMARY_H

#include <stdio.h>

#include "dataset.h"
#include "results.h"

/* Results are by seat (core/seat.h): red_wins counts the first mover's wins and black_wins the
 * second mover's; the colours they played are in `hidden` where the game assigns them. */
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
     * first mover; by colour and over --paired-deals pairs here. */
    HiddenTally hidden;
} RunTotals;

/* Adds one game. Returns 0 or -1 on out of memory. */
int totals_add(RunTotals *t, const GameRecord *g, int would_resign_side);
void totals_free(RunTotals *t);

/* Prints the balance summary of a run of rule set v: W/D/L, the first mover's score and the draw
 * rate with 95% intervals (results.h), what the games resolve, lengths, terminations,
 * resignation checks, then `weights` (which weights the games used; NULL: no line). Where the
 * first mover always plays red the lines say red/draw/black and "red score"; where the first
 * reveal assigns the colours (core/seat.h) they say first/draw/second mover and "first-mover
 * score", followed by the results by colour; with --paired-deals the per-pair statistics with
 * their pentanomial interval. */
void totals_print(const RunTotals *t, const Variant *v, const char *weights, FILE *out);

/* The same as a JSON object: first_mover_wins, second_mover_wins, first_mover_score(_ci95);
 * red_wins, black_wins and red_score(_ci95) too where the first mover always plays red,
 * by_colour where the game assigns colours; draw_rate(_ci95), resolution,
 * games_for_half_width, paired_deals (pentanomial), weights. */
void totals_print_json(const RunTotals *t, const Variant *v, const char *weights, FILE *out);

/* The label of the results-by-seat triple in summaries and progress lines: "red/draw/black" or
 * "first/draw/second mover". */
const char *totals_results_label(const Variant *v);

#endif
