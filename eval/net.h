/* net.h - a small network added to the linear evaluation: one hidden layer over piece-on-point
 * inputs, seen from the side to move, learned by `xqlab tune --net` from teacher-labelled data.
 * Generated from the variant file like the linear features: every rule set has one shape. */
#ifndef XQ_NET_H
#define XQ_NET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "position.h"

enum {
    NET_BLOCK = 16,      /* the hidden width is a multiple of this (the sums run in blocks) */
    NET_MAX_HIDDEN = 256,
    NET_MAX_ACTIVE = 2 * XQ_MAX_PIECES, /* inputs one position switches on, at most */
    NET_SCALE = 1 << 14, /* the evaluation's integer weights are the weights times this */
};

/* Input weights and biases beyond this size (in either direction) are refused by net_load and
 * net_write: the integer sums of at most NET_MAX_ACTIVE of them stay far inside 32 bits. */
#define NET_MAX_WEIGHT 1024.0f

/* Inputs: one per (whose piece: the side to move's or the other's, kind, point), points seen
 * from the side to move (Black's mirrored rank by rank), so one set of weights serves both
 * sides. Output, in pawns for the side to move:
 *     b2 + sum_j w2[j] * clamp(b1[j] + sum over switched-on inputs i of w1[i * hidden + j], 0, 1)
 */
typedef struct Net {
    char variant[32];    /* the rule set it was made for */
    int nkinds, npoints, hidden, ninputs;
    uint32_t pieces;     /* net_pieces_signature of that rule set */
    float *w1;           /* ninputs * hidden, an input's weights side by side */
    float *b1, *w2;      /* hidden each */
    float b2;
    uint64_t checksum;   /* of the file it was read from or written to (0 if neither) */
    /* What the evaluation (net_score) sums: w1 and b1 times NET_SCALE, rounded to integers, so a
     * position's sums are exact, the same however they were reached. Made by net_prepare. */
    int32_t *q1, *qb1;
    uint64_t serial;     /* new at each net_prepare (0: never prepared) */
} Net;

/* A network of the variant's shape with every weight 0 (output 0). `hidden` must be a positive
 * multiple of NET_BLOCK up to NET_MAX_HIDDEN. NULL with *err if not, or out of memory. */
Net *net_create(const Variant *v, int hidden, XqError *err);
void net_free(Net *n);

/* Makes the integer weights net_score sums from w1 and b1 (clamped to NET_MAX_WEIGHT). Call it
 * after changing them; net_load, net_write and eval_set_net do. */
void net_prepare(Net *n);

/* Reads a network file (format in docs/training.md, "The network"). Errors name the file and
 * what is wrong: not a network file, truncated, a bad checksum, non-finite weights. Whether it
 * fits a rule set is net_fits. */
Net *net_load(const char *path, XqError *err);

/* A signature of the board's size and the kinds' names in order: rule sets with the same one
 * (a renamed copy, another rule on the same pieces) share networks. */
uint32_t net_pieces_signature(const Variant *v);

/* True if the network's inputs are the rule set's: the same kinds, in order, on the same board. */
bool net_fits(const Net *n, const Variant *v);

/* Writes the network file to f (`name` for messages) and sets n->checksum. 0, or -1 with *err. */
int net_write(Net *n, FILE *f, const char *name, XqError *err);

/* The switched-on inputs of a position, from the side to move's view. Returns their count. */
int net_inputs(const Variant *v, const Position *pos, uint16_t *out);

/* Output for given inputs (pawns, side to move), in floating point, as the fit computes it. If
 * `act` is not NULL it receives the hidden layer before clamping (hidden values). */
double net_forward(const Net *n, const uint16_t *in, int count, float *act);

/* Output for a position (pawns, side to move), as the evaluation computes it: from the integer
 * weights of net_prepare (within about 0.001 pawn of net_forward's). Each thread remembers the
 * hidden sums of the last position it scored, from both sides' views, and gets the next
 * position's from them by the points whose piece changed: in a search the next position is a
 * few moves away, so this costs a few rows of additions instead of one a piece. The result is
 * the same, to the bit, as from a fresh start. */
double net_score(const Net *n, const Position *pos);

/* Forgets this thread's remembered sums: the next net_score starts afresh (for tests). */
void net_forget(void);

#endif
