/* mcts.h - Monte Carlo tree search (PUCT) over one game: one node arena per game, tree reuse
 * between moves. Not thread-safe: each thread owns its Mcts. */
#ifndef XQ_MCTS_H
#define XQ_MCTS_H

#include "eval.h"
#include "hidden.h"
#include "params.h"
#include "rng.h"

typedef struct Mcts Mcts;

/* Root statistics of one search. */
typedef struct SearchResult {
    Move best;                 /* most visited child that is not a proven loss; a proven win first */
    float value;               /* root value from the side to move, in [-1, 1] */
    float static_eval;         /* static evaluation of the root, same scale */
    int visits;                /* root visits after the search */
    int nchildren;
    Move moves[XQ_MAX_MOVES];  /* children, in generation order */
    uint32_t child_visits[XQ_MAX_MOVES];
    bool truncated;            /* the arena filled: fewer playouts than asked */
    int playouts;              /* new playouts this search ran */
    int proven;                /* +1 the side to move has a forced win the search proved (mate
                                * or a rule verdict), -1 a forced loss, 0 unknown */
} SearchResult;

/* Creates a searcher with its own arena of p->arena_nodes nodes (24 bytes each, plus 4 bytes of
 * compaction scratch), read once here; the other parameters are read at every search, so the
 * caller may change them between searches. `v`, `e` and `p` must outlive it; `e` may be shared
 * with searchers of other threads. NULL on out of memory. Free with mcts_free (NULL allowed). */
Mcts *mcts_create(const Variant *v, const Evaluator *e, const SearchParams *p);
void mcts_free(Mcts *m);

/* Arena bytes per node: the 24-byte node and its 4 bytes of compaction scratch. */
enum { MCTS_NODE_BYTES = 28 };

/* Searches since mcts_create that stopped early because the arena was full (SearchResult
 * truncated): the caller warns, since the limit is a user option (arena_nodes). */
uint64_t mcts_truncated_searches(const Mcts *m);

/* capture_knowledge = capturer (RULES.md 2): the game's record of what each seat saw of the
 * face-down pieces it captured (hidden.h), read at every search; NULL (the default) means nothing
 * seen yet. Each search then runs in the side to move's view (hidden_view_enter): the opponent's
 * face-down identities are drawn from what the side knows is left, its own from the public pool
 * — the exact average over every way the opponent's private captures could have been, so no
 * determinisation has to be sampled — and the side's own captures in the tree show their
 * identity. The result's moves are the game's (a capture of a face-down piece is a plain
 * capture). A tree is reused only by the side that built it. The pointer must outlive the
 * searches; without the option it is ignored. */
void mcts_set_knowledge(Mcts *m, const HiddenKnowledge *k);

/* Forgets the tree (new game). No allocation: the arena is reused. */
void mcts_reset(Mcts *m);

/* Searches the position with p->playouts new playouts on top of any reused subtree (fewer if
 * the arena fills, see truncated; the search also stops once the root is proven won or lost).
 * With `noise` the root priors get Dirichlet noise (once per root). The game is assumed to go on at `pos` (the caller checks
 * pos_game_status first). The position is restored on return. Deterministic: the same position,
 * tree and RNG state give the same result. Returns 0, or -1 if the position has no legal move. */
int mcts_search(Mcts *m, Position *pos, Rng *rng, bool noise, SearchResult *out);

/* Prior of the root child reached by `mv` in the current tree (after a search), or -1 if the
 * root has no such child: for tests and analysis of the move heuristic. */
float mcts_root_prior(const Mcts *m, Move mv);

/* Picks the move to play: by visit counts with temperature `t` (probability ~ visits^(1/t));
 * t = 0 gives r->best (the most visited move, or a proven win), and so does a proven win at any
 * temperature. Draws from `rng` only when it samples. */
Move mcts_pick(const SearchResult *r, double t, Rng *rng);

/* Temperature for the move at game ply `ply` (0-based): p->temperature for the first
 * p->temperature_plies plies, then 0. */
double mcts_temperature(const SearchParams *p, int ply);

/* Tells the searcher the move played (by either side), so the subtree under it becomes the root
 * of the next search; the arena is compacted in place. If the move is not in the tree, or
 * reuse_tree is off, the tree is forgotten. The next mcts_search checks that its position is
 * the searched one followed by the advanced moves, and starts afresh otherwise. */
void mcts_advance(Mcts *m, Move played);

#endif
