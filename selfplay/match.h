/* match.h - head-to-head matches: colour-swapped game pairs from a shared random opening,
 * played in parallel (OpenMP over games), deterministic per (seed, pair). */
#ifndef XQ_MATCH_H
#define XQ_MATCH_H

#include <stdatomic.h>

#include "book.h"
#include "dataset.h"
#include "elo.h"
#include "player.h"

typedef struct MatchOptions {
    const Variant *variant;
    const PlayerShared *a, *b;
    uint64_t pairs;             /* game pairs: A plays Red in one, Black in the other */
    uint64_t seed;
    int threads;                /* 0 = OpenMP default */
    int opening_plies;          /* random non-capturing moves shared by both games of a pair */
    int max_plies;              /* length cap (draw) */
    bool progress;              /* a line per finished pair count on stderr */
    const atomic_bool *stop;    /* may be NULL */
    const SprtSpec *sprt;       /* NULL = play every pair; else stop at the first verdict, checked
                                 * pair by pair in pair-index order (deterministic) */
    const char *start_fen;      /* NULL: the variant's start (checked by the caller) */
    const Book *book;           /* NULL: pairs start from start_fen and a random opening of opening_plies moves;
                                 * else pair p starts from opening p mod count (no random moves) */
    GameRecord *records;        /* NULL, or 2 * pairs records: game g's start position, moves
                                 * (the opening's included; malloc'd, free with game_record_free),
                                 * result and termination, deal for hidden pieces; index = g, and
                                 * nmoves = -1 for a game not played (interrupted, after an SPRT
                                 * verdict). Game 2p has A as Red, game 2p + 1 A as Black. */
} MatchOptions;

typedef struct MatchTotals {
    uint64_t games;
    uint64_t a_red[3], a_black[3];   /* A's wins, draws, losses as Red and as Black */
    uint64_t pentanomial[5];         /* pairs by A's points: 0, 0.5, 1, 1.5, 2 */
    uint64_t by_reason[TERM_COUNT];
    uint64_t truncated_searches[2];  /* searches of A, of B that filled the node arena */
    uint64_t playouts[2], searches[2]; /* of A, of B: playouts per move = playouts / searches */
    bool interrupted;
    /* With MatchOptions.sprt: the LLR after the last counted pair and the verdict; the totals
     * count exactly the pairs up to the one that reached it (games of later pairs that were
     * already in flight are discarded). */
    double sprt_llr;
    SprtVerdict sprt_verdict;
} MatchTotals;

/* Plays the match. Returns 0 or -1 with *err (out of memory). */
int match_run(const MatchOptions *o, MatchTotals *t, XqError *err);

/* A's score in [0, 1]. */
double match_score(const MatchTotals *t);

#endif
