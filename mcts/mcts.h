/* mcts.h - Monte Carlo tree search (PUCT) over one game: one node arena per game, tree reuse
 * between moves. Not thread-safe: each thread owns its Mcts. */
#ifndef XQ_MCTS_H
#define XQ_MCTS_H

#include <stdatomic.h>

#include "eval.h"
#include "hidden.h"
#include "params.h"
#include "rng.h"

typedef struct Mcts Mcts;

/* Longest principal variation reported. */
enum { MCTS_PV_MAX = 32 };

/* Root statistics of one search. */
typedef struct SearchResult {
    Move best;                 /* most visited child that is not a proven loss; a proven win first */
    float value;               /* root value from the side to move, in [-1, 1] */
    float static_eval;         /* static evaluation of the root, same scale */
    int visits;                /* root visits after the search */
    int nchildren;
    Move moves[XQ_MAX_MOVES];  /* children, in generation order */
    uint32_t child_visits[XQ_MAX_MOVES];
    float child_value[XQ_MAX_MOVES]; /* each child's value from the root side's view as the
                                      * selection sees it (its proof's value if proven; its
                                      * heuristic value if unvisited, 0 without one) */
    float child_prior[XQ_MAX_MOVES]; /* the move heuristic's prior (after root noise, if any) */
    bool truncated;            /* the arena filled: fewer playouts than asked */
    bool stopped;              /* the caller's stop flag ended the search (SearchControl) */
    bool early;                /* early_stop ended it: the best move could no longer change */
    int playouts;              /* new playouts this search ran */
    int proven;                /* +1 the side to move has a forced win the search proved (mate
                                * or a rule verdict), -1 a forced loss, 0 unknown */
    int proven_plies;          /* with proven != 0: plies to the end of the game by force */
    double seconds;            /* wall time of the search (monotonic clock) */
    int pv_len;                /* principal variation: best, then the most visited line below */
    Move pv[MCTS_PV_MAX];      /* it, ending at a leaf or at an undrawn reveal (a chance event) */
    uint32_t pv_visits[MCTS_PV_MAX]; /* visits of the node each move leads to */
    int depth;                 /* search = ab: the last completed iteration's depth (0: MCTS) */
    bool weighted;             /* search = ab with sampling (mcts_set_sampling): mcts_pick draws
                                * by child_weight instead of the visits */
    int ncandidates;           /* with weighted: root moves with a weight (the best included) */
    float child_weight[XQ_MAX_MOVES]; /* with weighted: exp(-(top - score) / ab_temperature) for
                                       * the moves whose exact score is within ab_margin of the
                                       * top one, else 0 */
} SearchResult;

/* Progress of a running search, given to the SearchControl callback. */
typedef struct SearchInfo {
    int playouts;              /* new playouts so far */
    int visits;                /* root visits (a reused subtree counts) */
    double seconds;            /* since the search started */
    double playouts_per_second;
    float value;               /* root value from the side to move, in [-1, 1] */
    int proven;                /* as SearchResult.proven */
    int proven_plies;          /* as SearchResult.proven_plies */
    int arena_permille;        /* share of the node arena in use, per mille */
    int pv_len;
    Move pv[MCTS_PV_MAX];      /* as SearchResult.pv, in the game's notation */
    uint32_t pv_visits[MCTS_PV_MAX];
    int depth;                 /* search = ab: the completed iteration's depth (0: MCTS) */
} SearchInfo;

typedef void (*SearchInfoFn)(const SearchInfo *info, void *user);

/* What an engine front end adds to a search (mcts_set_control). The budget itself is the
 * parameters': p->movetime milliseconds if set, else p->playouts new playouts. */
typedef struct SearchControl {
    const atomic_bool *stop;   /* set by another thread: the search returns after the playout in
                                * flight, with its result so far (NULL: none) */
    int max_playouts;          /* a cap on new playouts on top of the budget (0: none), e.g. UCI
                                * "go movetime T nodes N" */
    SearchInfoFn info;         /* called from the searching thread every info_interval_ms (NULL:
                                * never); the position is in the search's view while it runs */
    void *info_user;
    int info_interval_ms;
    bool clock_share;          /* the movetime is a share of a clock (UCI wtime/btime...): alpha-beta
                                * starts no iteration after half of it, saving the rest for later
                                * moves. Otherwise (a fixed time per move) it searches to the end of
                                * the movetime: what is not spent is lost */
} SearchControl;

#define SEARCH_CONTROL_INIT {NULL, 0, NULL, NULL, 1000, false}

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

/* Sets the stop flag, playout cap and progress callback of the following searches (copied; the
 * flag and the callback's user data must outlive them). NULL restores SEARCH_CONTROL_INIT.
 * The clock is read every few playouts only when there is a deadline or a callback, so a
 * playout budget without them stays as deterministic as before. */
void mcts_set_control(Mcts *m, const SearchControl *c);

/* search = ab: whether the following searches also score the root moves near the best exactly
 * and give them sampling weights (SearchResult.weighted), so that mcts_pick with a temperature
 * draws among them instead of playing the best; self-play turns it on for its temperature
 * plies. The moves whose bound from the root search is within p->ab_margin pawns of the best
 * score are ranked by a shallow search, and the best few of them (4, among those within twice
 * the margin by that ranking) are searched again on their own, to the depth the root search
 * completed (one ply less after the move, a reveal as the mean over its identities); those
 * whose exact score is within the margin of the top one get weight exp(-(top - score) /
 * p->ab_temperature). Without a
 * second candidate, or with a forced result at the root, the result is not weighted. Off by
 * default; no effect on MCTS searches. The candidates' searches come after a timed search's
 * move time. */
void mcts_set_sampling(Mcts *m, bool on);

/* Forgets the tree (new game). No allocation: the arena is reused. */
void mcts_reset(Mcts *m);

/* With p->search = SEARCH_AB the move is chosen by alpha-beta instead (absearch.h
 * ab_root_search, with the leaf searches' table and the capture search of qsearch_depth):
 * for p->movetime milliseconds, else to the control's cap on positions (max_playouts) or until
 * the stop flag if p->playouts is INT_MAX, else to p->ab_depth plies. The result then has the
 * best move with one visit and the others with none (so any temperature plays it), each root
 * move's score (exact for the best, a bound for the others) as its value, uniform priors, the
 * positions visited as playouts and visits, and the depth; the progress callback is called
 * after every completed iteration.
 *
 * Searches the position with p->playouts new playouts on top of any reused subtree, or for
 * p->movetime milliseconds when that is set (fewer if the arena fills, see truncated; the
 * search also stops once the root is proven won or lost, or by the SearchControl's flag and
 * cap). A caller may set p->playouts above the parameter range (INT_MAX) for a search that
 * only its stop flag ends; the first playout always runs, so there is a move to play.
 * With `noise` the root priors get Dirichlet noise (once per root). The game is assumed to go on at `pos` (the caller checks
 * pos_game_status first). The position is restored on return. Deterministic: the same position,
 * tree and RNG state give the same result. Returns 0, or -1 if the position has no legal move. */
int mcts_search(Mcts *m, Position *pos, Rng *rng, bool noise, SearchResult *out);

/* Prior of the root child reached by `mv` in the current tree (after a search), or -1 if the
 * root has no such child: for tests and analysis of the move heuristic. */
float mcts_root_prior(const Mcts *m, Move mv);

/* Picks the move to play: by visit counts with temperature `t` (probability ~ visits^(1/t)),
 * or by r->child_weight^(1/t) for a weighted result (mcts_set_sampling); t = 0 gives r->best
 * (the most visited move, or a proven win), and so does a proven win at any temperature. Draws
 * from `rng` only when it samples. */
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
