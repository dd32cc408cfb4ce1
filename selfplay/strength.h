/* strength.h - the strength benchmark's run: colour-swapped game pairs from a book of balanced
 * openings between side A (xqlab, the side time odds apply to) and side B (the opponent), both
 * UCI engines refereed by the rules core, several games at once, with totals for the pentanomial
 * Elo estimate, measured CPU per move, terminations, and every game as PGN. */
#ifndef XQ_STRENGTH_H
#define XQ_STRENGTH_H

#include <stdio.h>

#include "book.h"
#include "referee.h"

typedef struct StrengthOptions {
    const Variant *v;
    const Book *book;           /* pair p plays opening order[p % count], A Red first */
    const UciEngineSpec *a, *b;
    int movetime_ms;            /* B's wall-clock time per move */
    double odds;                /* A's time per move is odds x movetime_ms (at least 1 ms) */
    uint64_t pairs;
    int concurrency;            /* games at once, each with its own two engine processes */
    uint64_t seed;              /* shuffles the order of the openings (0: file order) */
    int max_plies;              /* the referee's length cap (draw) */
    double grace;               /* seconds past the movetime before a silent engine loses */
    FILE *pgn;                  /* every finished game in game order, NULL for none */
    const char *pgn_event;      /* PGN Event tag */
    int pgn_round_prefix;       /* > 0: Round tags read "prefix.pair.game" (steps of a search) */
    bool progress;              /* a running line on stderr */
    const atomic_bool *stop;    /* may be NULL: a raised flag ends the run, unfinished games dropped */
} StrengthOptions;

/* What one side did over the run. */
typedef struct StrengthSide {
    char name[128];             /* the engine's id name */
    int movetime_ms;            /* its time per move */
    uint64_t moves;             /* moves it chose */
    double wall_ms;             /* their summed wall time, go to bestmove */
    double max_wall_ms;
    uint64_t cpu_moves;         /* moves of the games whose CPU time was measured */
    double cpu_ms;              /* CPU time over those games */
    uint64_t failures[GAME_END_COUNT]; /* games it lost by GAME_END_DIED / TIMEOUT / ILLEGAL */
    uint64_t starts;            /* engine processes started */
    char first_failure[640];    /* the first failure's detail, "" if none */
} StrengthSide;

typedef struct StrengthTotals {
    uint64_t games;             /* finished games */
    uint64_t pairs;             /* pairs with both games finished */
    uint64_t a_red[3], a_black[3]; /* A's wins, draws, losses as Red and as Black */
    uint64_t pentanomial[5];    /* complete pairs by A's points 0, 0.5, 1, 1.5, 2 */
    uint64_t by_reason[TERM_COUNT]; /* games decided by the rules (and the cap), by reason */
    uint64_t by_end[GAME_END_COUNT];
    uint64_t plies;             /* summed plies of the finished games (openings included) */
    StrengthSide side[2];       /* A, B */
    double seconds;             /* wall time of the run */
    bool interrupted;           /* the stop flag ended it early */
} StrengthTotals;

/* Plays the run. Returns 0, or -1 with *err when it cannot go on: an engine that fails to start
 * three times in a row, a PGN write error, out of memory. A game an engine loses by dying, falling
 * silent or playing an illegal move is a result, not an error. */
int strength_run(const StrengthOptions *o, StrengthTotals *t, XqError *err);

/* A's score in [0, 1] over the finished games (0.5 with none). */
double strength_score(const StrengthTotals *t);

/* Pentanomial counts from per-game points of A in half points (0 loss, 1 draw, 2 win, -1 not
 * finished), games 2p and 2p + 1 forming pair p; pairs with an unfinished game are left out.
 * Returns the number of complete pairs. */
uint64_t strength_count_pairs(const int8_t *half_points, uint64_t games, uint64_t pentanomial[5]);

#endif
