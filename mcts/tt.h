/* tt.h - transposition table of the leaf searches (absearch.h): scores, bounds, best moves and
 * static evaluations by Zobrist key, in buckets of four 16-byte entries (one cache line). One
 * table per searcher, cleared for every new game so that a game's search depends only on that
 * game (self-play results do not depend on which games a thread played before). */
#ifndef XQ_TT_H
#define XQ_TT_H

#include <stdbool.h>
#include <stdint.h>

#include "types.h"

typedef enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 } TtBound;

/* One entry: 16 bytes. */
typedef struct TtEntry {
    uint32_t check;     /* upper 32 bits of the key */
    Move move;          /* best or refuting move (XQ_MOVE_NONE: none) */
    int16_t score;      /* centipawns from the side to move's view (mate scores from the node) */
    int16_t eval;       /* static evaluation, centipawns, side to move (TT_NO_EVAL: none) */
    int8_t depth;       /* remaining depth of the search that stored it */
    uint8_t bound;      /* TtBound */
    uint16_t age;       /* search number that stored it (replacement) */
} TtEntry;

_Static_assert(sizeof(TtEntry) == 16, "four entries fill a cache line");

enum { TT_BUCKET = 4, TT_NO_EVAL = INT16_MIN };

typedef struct Tt {
    TtEntry *entries;
    uint64_t mask;      /* buckets - 1 (a power of two) */
    uint16_t age;
} Tt;

/* Allocates a table of the largest power-of-two number of buckets within `bytes` (at least one
 * bucket). Returns 0, or -1 on out of memory. */
int tt_init(Tt *t, uint64_t bytes);
void tt_free(Tt *t);

/* Forgets every entry. */
void tt_clear(Tt *t);

/* Starts a new search: entries of earlier searches are replaced first. */
static inline void tt_new_search(Tt *t) { t->age++; }

/* Entry of `key`, or NULL. */
TtEntry *tt_probe(Tt *t, uint64_t key);

/* Stores a result for `key`: the entry of that key if present, else the bucket's entry of the
 * oldest search, shallowest first. A store without a move keeps the move already stored. */
void tt_store(Tt *t, uint64_t key, Move move, int score, int eval, int depth, TtBound bound);

#endif
