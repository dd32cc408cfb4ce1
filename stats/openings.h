/* openings.h - the opening tree of a set of games: every line to a depth with its games, results
 * from Red, score interval and share of its parent; first-move entropy. */
#ifndef XQ_OPENINGS_H
#define XQ_OPENINGS_H

#include "dataset.h"
#include "position.h"
#include "stats.h"

typedef struct OpeningNode {
    Move move;                 /* move into this node (XQ_MOVE_NONE at the root) */
    char text[16];             /* the move in WXF (standard xiangqi) or ICCS */
    int depth;                 /* plies from the root */
    int parent;                /* node index, -1 at the root */
    int first_child, next_sibling;   /* -1 if none; children by games, most first, after openings_finish */
    Wdl red;                   /* results from Red of the games through this line */
} OpeningNode;

typedef struct OpeningTree {
    const Variant *v;
    int depth;
    bool wxf;                  /* moves written in WXF */
    char root_fen[256];        /* start position of the tree (that of the first game added) */
    OpeningNode *nodes;        /* node 0 is the root; owned */
    int count, cap;
    uint64_t other_start;      /* games from another start position: not in the tree */
    uint64_t unknown_result;   /* games without a result: not in the tree */
    Position *pos;             /* replay scratch; owned */
} OpeningTree;

/* Empty tree of lines up to `depth` plies for variant v (borrowed). 0 or -1 (out of memory). */
int openings_init(OpeningTree *t, const Variant *v, int depth);

/* Adds a game's first `depth` moves. Returns 0, or -1 with *err if a move does not replay. */
int openings_add_game(OpeningTree *t, const GameRecord *g, XqError *err);

/* Orders every node's children by games (most first, then by move text). Call once after the
 * last game; returns 0 or -1 on out of memory. */
int openings_finish(OpeningTree *t);

/* Games through a node, its share of the parent's games (1 at the root) and the entropy in bits
 * of the distribution of games over its children. */
uint64_t openings_games(const OpeningTree *t, int node);
double openings_share(const OpeningTree *t, int node);
double openings_child_entropy(const OpeningTree *t, int node);

/* Writes the line into a node as moves separated by spaces ("C2.5 H8+7"). */
void openings_line_text(const OpeningTree *t, int node, char *buf, size_t size);

void openings_free(OpeningTree *t);

#endif
