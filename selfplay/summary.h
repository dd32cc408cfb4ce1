/* summary.h - running totals of a batch of games and the balance summary printed after a run. */
#ifndef XQ_SUMMARY_H
#define XQ_SUMMARY_H

#include <stdio.h>

#include "dataset.h"
#include "stats.h"   /* wilson_interval */

/* Results are by seat (core/seat.h): red_wins counts the first mover's wins and black_wins the
 * second mover's; the colours they played are in colour_wins where the game assigns them. */
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
    /* Hidden-piece rule sets (GameRecord.has_deal): the results by colour, and over
     * --paired-deals pairs (games 2k, 2k+1 with the seat-swapped deal, added in order). */
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

/* Prints the balance summary of a run of rule set v: W/D/L and the first mover's score with a
 * 95% interval, draw rate, lengths, terminations, resignation checks. Where the first mover
 * always plays red the lines say red/draw/black and "red score"; where the first reveal assigns
 * the colours (core/seat.h) they say first/draw/second mover and "first-mover score", followed
 * by the results by colour; with --paired-deals the per-pair statistics. */
void totals_print(const RunTotals *t, const Variant *v, FILE *out);

/* The same as a JSON object: first_mover_wins, second_mover_wins, first_mover_score; red_wins,
 * black_wins and red_score too where the first mover always plays red, by_colour where the game
 * assigns colours. */
void totals_print_json(const RunTotals *t, const Variant *v, FILE *out);

/* The label of the results-by-seat triple in summaries and progress lines: "red/draw/black" or
 * "first/draw/second mover". */
const char *totals_results_label(const Variant *v);

#endif
