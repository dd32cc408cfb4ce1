/* game.h - one self-play game: the loop from the start position to a result, recording every
 * position with its search statistics. */
#ifndef XQ_GAME_H
#define XQ_GAME_H

#include "book.h"
#include "dataset.h"
#include "hidden.h"
#include "mcts.h"

/* Growable buffers for one game's record, owned by one thread and reused between games. */
typedef struct GameBuffers {
    Move *moves;
    PositionRecord *positions;
    Move *policy_moves;
    uint32_t *policy_visits;
    int cap_moves, cap_policy;
} GameBuffers;

void game_buffers_free(GameBuffers *b);

/* What a game cost and what happened to resignation (for measuring false resignations). */
typedef struct GameStats {
    bool resign_disabled;   /* resignation was switched off in this game */
    int would_resign_side;  /* side that met the resignation condition, -1 if none */
    uint64_t playouts;      /* new playouts of all searches */
    uint64_t searches;      /* searches (moves chosen by the search) */
} GameStats;

/* Plays game `index` of a run with base seed `seed` from `start_fen` (NULL: the variant's start
 * position; the caller has checked the FEN) or, when `opening` is not NULL, from the opening's base
 * position followed by its moves (recorded as moves of the game, their positions unsearched:
 * NaN values, no best move, no visits), dealt by game_deal if the rule set hides pieces:
 * seat s searches with m[s] (both reset first; the same searcher twice, or one per seat with
 * seat_trees and always under hidden_private, where each seat's tree is built from its own
 * knowledge), temperature and noise per `p`,
 * resignation and length cap per `p`. Fills *g (arrays point into *buf, valid until the next
 * call with the same buffers) and *stats. `pos` is scratch space.
 * Returns 0, or -1 if a buffer could not grow (out of memory). */
int game_play(Mcts *const m[2], const SearchParams *p, const Variant *v, const char *start_fen,
              const BookEntry *opening, uint64_t seed, uint64_t index, bool paired_deals, Position *pos,
              GameBuffers *buf, GameRecord *g, GameStats *stats);

/* Hidden-piece rule sets: sets up the start of game `index` (pos holds the start position before
 * the deal) and its deal from the run seed, with its own generator so the search's stream is
 * the same as without a deal. With `paired_deals` games 2k and 2k+1 share deal k, the odd one
 * seat-swapped (hidden_swap_seats). The deal never reaches the search. */
void game_deal(Position *pos, uint64_t seed, uint64_t index, bool paired_deals, HiddenDeal *d,
               bool *swapped);

#endif
