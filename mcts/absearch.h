/* absearch.h - the short alpha-beta searches that value the leaves of the MCTS tree: principal
 * variation search over every legal move to a fixed depth, then a capture search, with a
 * transposition table, killer and history move ordering, check extensions, late-move
 * reductions, selective pruning (ab_set_pruning) and (rule sets without rule modules) null-move
 * pruning. Generic over rule sets: it
 * plays the variant's own legal moves (rule-module moves included), judges game ends by the
 * variant's rules (mate, stalemate, repetition verdicts, the move limit, captured royal pieces,
 * hit points), and values an undrawn reveal of a face-down piece by the probability-weighted
 * mean of its outcomes (an expectation node, below which only the capture search runs). One
 * searcher per thread; not thread-safe. */
#ifndef XQ_ABSEARCH_H
#define XQ_ABSEARCH_H

#include <stdatomic.h>

#include "eval.h"
#include "tt.h"

typedef struct AbSearch AbSearch;

enum {
    AB_MATE = 30000,       /* score of a side that wins at once (centipawns scale) */
    AB_MATE_BOUND = 29000, /* scores beyond this are wins or losses by force */
    AB_INF = 32000,
    AB_MAX_PLY = 48,       /* plies below the search root, extensions and captures included */
};

/* Counters of the searches since ab_create (for benchmarks and tests). */
typedef struct AbStats {
    uint64_t nodes;     /* positions visited (full-width and capture nodes) */
    uint64_t qnodes;    /* of which capture-search nodes */
    uint64_t tt_hits;   /* probes that found their key */
    uint64_t searches;  /* ab_search calls */
    uint64_t null_tries, null_cuts; /* null moves tried, and those that held beta */
    uint64_t rfp_cuts;       /* nodes cut by reverse futility */
    uint64_t futility_skips; /* quiet moves not searched by futility pruning */
    uint64_t see_skips;      /* losing captures not searched (ab_set_see_prune) */
    uint64_t lmp_skips;      /* quiet moves not searched by late-move pruning */
    uint64_t hist_skips;     /* quiet moves not searched by continuation-history pruning */
    uint64_t eval_hits;      /* static evaluations found in the evaluation cache */
    uint64_t iir_nodes;      /* nodes searched a ply shallower for want of a table move */
} AbStats;

/* Creates a searcher whose transposition table gets at most tt_bytes bytes (at least one bucket)
 * at its first full-width search (capture searches alone use none; if the memory cannot be had
 * then, the table stays one bucket). `v` and `e` must outlive it. NULL on out of memory. Free
 * with ab_free (NULL allowed). */
AbSearch *ab_create(const Variant *v, const Evaluator *e, uint64_t tt_bytes);
void ab_free(AbSearch *s);

/* Selective pruning, on by default: reverse futility (a node whose static evaluation stands
 * 110 centipawns per remaining ply above beta is cut, at most 6 plies from the horizon),
 * futility pruning (quiet moves that give no check are skipped when the evaluation plus 100 +
 * 150 per ply, at most 3 plies, stays below alpha), late-move pruning (at most 6 plies from
 * the horizon, quiet non-checking moves after the first (3 + d^2) / 2, 3 + d^2 while the side's
 * evaluation improves), a null-move reduction of 3 + depth / 4, late-move reductions of
 * about ln(depth) ln(move number) / 1.6 plies, and an internal iterative reduction (a node of
 * at least 4 plies without a table move is searched a ply shallower). Never at
 * principal-variation nodes, in check, or with a forced result as a bound (the reduction also
 * at principal-variation nodes). Off: the plain search (a null-move reduction of 2 or 3,
 * reductions of 1 or 2 plies), for tests that compare the two. */
void ab_set_pruning(AbSearch *s, bool on);

/* Static exchange ordering (see.h; on by default where see_supported): a capture whose exchange
 * loses material is tried after the quiet moves instead of with the captures. */
void ab_set_see(AbSearch *s, bool on);

/* Static exchange pruning (on by default where see_supported): the capture search skips a
 * capture by a more valuable piece that loses the exchange and gives no check; the full-width
 * search, at most SEE_DEPTH = 5 plies from the horizon outside the principal variation, skips
 * a losing capture that gives no check and loses more than 1.5 pawns per remaining ply. */
void ab_set_see_prune(AbSearch *s, bool on);

/* Continuation histories and the countermove (on by default): off, quiet moves are ordered,
 * reduced and pruned by their own history alone. */
void ab_set_cont_history(AbSearch *s, bool on);

/* Forgets the table, killers and history: a new game. */
void ab_clear(AbSearch *s);

/* Score of `pos` for the side to move, in centipawns, by a search of `depth` full-width plies
 * (0 = the capture search alone) and a capture search of at most `qdepth` plies after them.
 * Mate scores are +-(AB_MATE - plies). The position is restored; its history must have room for
 * AB_MAX_PLY more plies. The game is assumed to go on at `pos`. *best (may be NULL) receives the
 * best move found (XQ_MOVE_NONE at depth 0 or when no move could be searched). */
int ab_search(AbSearch *s, Position *pos, int depth, int qdepth, Move *best);

/* The capture search alone from the static evaluation: what ab_search gives at depth 0. */
int ab_qsearch(AbSearch *s, Position *pos, int qdepth);

/* History score of a quiet move by the piece on its origin (for the MCTS priors): positive when
 * the move often refuted the opponent in the searches so far, in [-AB_HISTORY_MAX,
 * AB_HISTORY_MAX]. */
enum { AB_HISTORY_MAX = 16384 };
int ab_history(const AbSearch *s, const Position *pos, Move mv);

const AbStats *ab_stats(const AbSearch *s);

/* ---- the root search: alpha-beta as the whole move choice ---------------------------------- */

typedef struct AbRootResult AbRootResult;

/* Limits of one ab_root_search. A search always completes depth 1, so there is a move. */
typedef struct AbLimits {
    int max_depth;            /* full-width plies at most (1 .. AB_MAX_PLY / 2) */
    uint64_t max_nodes;       /* positions at most (0: no limit) */
    double deadline;          /* CLOCK_MONOTONIC seconds at which the search stops (0: none) */
    double soft_deadline;     /* no new iteration starts after this (0: none) */
    const atomic_bool *stop;  /* set by another thread: stop as soon as possible (NULL: none) */
    /* Called after every completed iteration (NULL: never). */
    void (*info)(const AbRootResult *r, void *user);
    void *info_user;
} AbLimits;

enum { AB_PV_MAX = 32 };

struct AbRootResult {
    Move best;                /* the move to play */
    int score;                /* centipawns for the side to move (mate scores as ab_search) */
    int depth;                /* the last completed iteration's depth */
    uint64_t nodes;           /* positions visited by this search */
    double seconds;           /* since the search started */
    bool stopped;             /* a limit other than max_depth ended it */
    int pv_len;               /* principal variation from the table, ending at an undrawn reveal */
    Move pv[AB_PV_MAX];
    int nmoves;               /* the root's legal moves, in generation order */
    Move moves[XQ_MAX_MOVES];
    int move_score[XQ_MAX_MOVES]; /* each move's score in the last completed iteration: exact
                                   * for the best, an upper bound for the others */
};

/* Chooses a move for `pos` by iterative deepening of principal variation searches with
 * aspiration windows, the table and the move-ordering statistics kept from earlier searches
 * (ab_clear forgets them: a new game). Root moves that reveal a face-down piece are chance
 * nodes: the mean over the identities the public pools allow, each searched one ply less.
 * Returns 0, or -1 if the position has no legal move. The position is restored. */
int ab_root_search(AbSearch *s, Position *pos, int qdepth, const AbLimits *lim, AbRootResult *out);

#endif
