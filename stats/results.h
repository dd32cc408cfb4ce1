/* results.h - the results of a set of games as the balance statistics report them: the first
 * mover's score and the draw rate with their intervals, what the games can resolve and how many
 * a precision needs; for the hidden-piece rule sets also by colour (the first reveal decides who
 * plays red) and over paired deals (pentanomial). One implementation for the self-play summary,
 * the balance card (report, compare) and the ladder; the intervals are interval.h's. */
#ifndef XQ_RESULTS_H
#define XQ_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "dataset.h"
#include "interval.h"

/* Colour and pair counts of hidden-piece games (GameRecord.has_deal). The stored result is by
 * seat: seat 0 moves first. Pairs are --paired-deals games 2k and 2k + 1 (the second with the
 * seats swapped), added in order. */
typedef struct HiddenTally {
    uint64_t games;              /* games with a deal and a known result */
    Wdl red_colour;              /* results of the player of the red colour (colours assigned) */
    uint64_t colour_unassigned;  /* games that ended before a reveal assigned the colours */
    uint64_t pentanomial[5];     /* complete pairs by the first mover's points over both games: 0, 1/2, .., 2 */
    uint64_t seat_swept;         /* pairs whose two games were won by the same seat */
    uint64_t hand_swept;         /* pairs whose two games were won by the same half of the deal */
    bool pair_open;              /* game 2k seen, 2k + 1 not yet */
    uint64_t pair_first_index;
    int pair_first_half_points;  /* the first mover's score in game 2k, in half points (0, 1, 2) */
} HiddenTally;

/* Adds a game with a deal and a result of -1, 0 or 1 (others are ignored). */
void hidden_tally_add(HiddenTally *t, const GameRecord *g);

static inline uint64_t hidden_tally_pairs(const HiddenTally *t)
{
    return t->pentanomial[0] + t->pentanomial[1] + t->pentanomial[2] + t->pentanomial[3] + t->pentanomial[4];
}

/* Precisions (half-widths of the score interval, in score units) the summaries quote games for. */
#define RESULTS_PRECISION_1 0.01
#define RESULTS_PRECISION_2 0.02

typedef struct ResultSummary {
    uint64_t games;              /* games with a known result */
    ScoreInterval first;         /* the first mover's score, 95% (trinomial) */
    bool first_significant;      /* its interval excludes 1/2 */
    ScoreInterval draws;         /* the draw rate, 95% (binomial) */
    double resolution;           /* smallest first-move advantage (|score - 1/2|) the games detect at 95% */
    double games_for[2];         /* games for a +-RESULTS_PRECISION_1 / _2 interval on the score */
    /* Hidden-piece rule sets (a HiddenTally with games). */
    bool hidden;
    uint64_t colour_games;       /* games with colours assigned */
    ScoreInterval red_colour;    /* the red-colour player's score, 95% (trinomial) */
    bool colour_significant;
    uint64_t pairs;
    ScoreInterval pair;          /* the first mover's mean game score over pairs, 95% (pentanomial) */
    bool pair_significant;
    double pair_resolution;      /* smallest first-move advantage the pairs detect at 95% */
    double pairs_for[2];         /* pairs for a +-RESULTS_PRECISION_1 / _2 interval */
} ResultSummary;

/* `first` holds the first mover's wins / draws / losses (Red's, or seat 0's); `hidden` may be
 * NULL (no hidden pieces). */
void results_summarise(const Wdl *first, const HiddenTally *hidden, ResultSummary *s);

/* What the games resolve and what precision costs, in one sentence: "200 games detect a
 * first-move advantage of 5.5 points or more at 95%; a +-1 point interval needs about 6,145
 * games, +-2 points 1,535" (the pairs' figures, when there are pairs, in a second sentence). */
void results_resolution_text(const ResultSummary *s, char *buf, size_t size);

/* A whole number with thousands separators ("6,145"); "-" for infinity or NaN. */
const char *results_count_text(double x, char *buf, size_t size);

#endif
