/* mcts.h - Monte Carlo tree search (PUCT) over one game: one node arena per game, tree reuse
 * between moves. Not thread-safe: each thread owns its Mcts. */
#ifndef XQ_MCTS_H
#define XQ_MCTS_H

#include "eval.h"
#include "params.h"
#include "rng.h"

typedef struct Mcts Mcts;

/* Root statistics of one search. */
typedef struct SearchResult {
    Move best;                 /* most visited child */
    float value;               /* root value from the side to move, in [-1, 1] */
    float static_eval;         /* static evaluation of the root, same scale */
    int visits;                /* root visits after the search */
    int nchildren;
    Move moves[XQ_MAX_MOVES];  /* children, in generation order */
    uint32_t child_visits[XQ_MAX_MOVES];
    bool truncated;            /* the arena filled: fewer playouts than asked */
} SearchResult;

/* Creates a searcher with its own arena. `e` and `p` must outlive it. NULL on out of memory. */
Mcts *mcts_create(const Variant *v, const Evaluator *e, const SearchParams *p);
void mcts_free(Mcts *m);

/* Forgets the tree (new game). */
void mcts_reset(Mcts *m);

/* Searches the position with p->playouts playouts (fewer if the arena fills; see truncated).
 * With `noise` the root priors get Dirichlet noise. The position is restored on return.
 * Returns 0, or -1 if the position has no legal move. */
int mcts_search(Mcts *m, Position *pos, Rng *rng, bool noise, SearchResult *out);

/* Picks the move to play: by visit counts with temperature `t` (0 = most visited). */
Move mcts_pick(const SearchResult *r, double t, Rng *rng);

/* Tells the searcher the move played, so the subtree under it is reused. */
void mcts_advance(Mcts *m, Move played);

#endif
