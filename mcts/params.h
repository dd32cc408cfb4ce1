/* params.h - every search and self-play tunable in one struct, set from run presets
 * (configs/runs/NAME.ini, section [search]) and command-line flags. */
#ifndef XQ_PARAMS_H
#define XQ_PARAMS_H

#include <stdio.h>

#include "variant.h"

/* How a move is chosen (parameter `search`). */
typedef enum {
    SEARCH_MCTS = 0,           /* Monte Carlo tree search (PUCT): the self-play player */
    SEARCH_AB = 1,             /* alpha-beta at the root (absearch.h ab_root_search) */
} SearchKind;

typedef struct SearchParams {
    int playouts;              /* playouts per move */
    int movetime;              /* milliseconds per move instead of playouts (0 = playouts): a
                                * timed run, recorded as such, not reproducible move for move */
    double c_puct;             /* exploration constant */
    double fpu_reduction;      /* first-play urgency: parent value minus this for unvisited */
    double dirichlet_alpha;    /* root noise in self-play */
    double dirichlet_epsilon;  /* share of noise in root priors (0 = none) */
    int temperature_plies;     /* plies played with temperature sampling */
    double temperature;        /* temperature over root visits for those plies */
    int qsearch_depth;         /* capture-only search at leaves, in plies (0 = static eval) */
    int leaf_depth;            /* full-width alpha-beta plies before the capture search at leaves */
    int child_values;          /* value every child by the leaf search when its parent is expanded:
                                * priors from the values, unvisited children start from them */
    int child_top;             /* child_values: children searched (best heuristic first) besides
                                * the forcing ones; the rest valued by the heuristic (0 = all) */
    double child_margin;       /* child_values: quiet children whose heuristic estimate falls this
                                * many pawns below the best searched sibling are not searched
                                * (0 = no limit) */
    double pv_prior;           /* share of the prior mass given to the leaf search's best move */
    double minimax_weight;     /* selection blends a child's mean value with the minimax of the
                                * heuristic values below it by this weight (0 = mean only) */
    int hash_mb;               /* transposition table of the leaf searches, MiB (read at creation) */
    double eval_scale;         /* leaf value = tanh(score / eval_scale), score in pawns */
    int reuse_tree;            /* keep the chosen subtree between moves */
    int early_stop;            /* a playout budget stops once no other root move can catch up with
                                * the most visited one (or there is one legal move) */
    int seat_trees;            /* self-play: one tree per seat (as two engines in a match) instead
                                * of one both seats share; always so when the seats know different
                                * things (hidden_private) */
    double resign_threshold;   /* resign when root value stays below -threshold ... */
    int resign_moves;          /* ... for this many own moves in a row (0 = never) */
    double resign_disabled_fraction; /* games in which resignation is disabled */
    int max_plies;             /* game length cap (adjudicated draw) */
    int arena_nodes;           /* node arena size per game (nodes of 24 bytes; the arena costs
                                * MCTS_NODE_BYTES = 28 a node with its compaction scratch) */
    double prior_temperature;  /* softmax temperature of the move heuristic, in pawns */
    double prior_check_bonus;  /* heuristic bonus of a checking move, in pawns */
    double prior_see;          /* weight of the exchange estimate (threats.h) in the move heuristic:
                                * a piece moved onto an attacked point risks its value, one moved
                                * off an attacked point saves it (0 = off) */
    int see_order;             /* alpha-beta move ordering: captures that lose material by static
                                * exchange (see.h) after the quiet moves (rule sets without rule
                                * modules) */
    int see_prune;             /* ... and such captures skipped in the capture search and near the
                                * horizon (ab_set_see_prune) */
    int cont_history;          /* alpha-beta: continuation histories and the countermove in move
                                * ordering, reductions and pruning (ab_set_cont_history) */
    double progress_pull;      /* leaf value x (1 - pull x share of the move limit used) */
    int search;                /* SearchKind */
    int ab_depth;              /* search = ab without a time budget: full-width depth per move */
    int ab_nodes;              /* search = ab: positions per move at most (0 = no cap); untimed,
                                * the search deepens until the cap instead of to ab_depth */
    double ab_margin;          /* search = ab, self-play's temperature plies: root moves scoring
                                * within this many pawns of the best are candidates (0 = none) */
    double ab_temperature;     /* ... drawn with weight exp(-(best - score) / this), in pawns,
                                * then raised to 1 / temperature as visits are */
} SearchParams;

/* Number of parameters and the name of each, in params_write order. */
int params_count(void);
const char *params_name(int i);

/* What a parameter accepts, for front ends that list the parameters as options (engine mode). */
typedef enum { PARAM_INT, PARAM_DOUBLE, PARAM_BOOL, PARAM_CHOICE } ParamType;
typedef struct ParamRange {
    ParamType type;
    double min, max;
    bool min_open;             /* the minimum itself is refused */
} ParamRange;

/* Type and range of parameter i (params_name order); -1 if there is no such parameter. A
 * PARAM_CHOICE is stored as an int from 0 to max and read and written by name
 * (params_choice). */
int params_range(int i, ParamRange *out);

/* Name of value k of the choice parameter i ("mcts", "ab"), or NULL. */
const char *params_choice(int i, int k);

/* The value of parameter i as params_write prints it ("200", "1.5"), into buf. */
void params_format(const SearchParams *p, int i, char *buf, size_t size);

/* Defaults (documented in docs/cli.md). */
void params_default(SearchParams *p);

/* Sets one parameter by name ("playouts", "c_puct", ...). Returns 0, or -1 with a message in
 * *err naming the key and the expected value (err->file "params", line 0). */
int params_set(SearchParams *p, const char *key, const char *value, XqError *err);

/* Loads a run preset file: keys of section [search] go through params_set. Errors name
 * file:line. */
int params_load_file(SearchParams *p, const char *path, XqError *err);

/* Writes "key = value" lines for every parameter (stored in datasets as provenance). */
void params_write(const SearchParams *p, char *buf, size_t size);

#endif
