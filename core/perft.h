/* perft.h - leaf counts of the legal move tree, the correctness signature of move generation. */
#ifndef XQ_PERFT_H
#define XQ_PERFT_H

#include "position.h"

/* Leaves at `depth` plies (depth 1 counts legal moves without making them). Where pieces are
 * hidden every drawn identity of a reveal counts as its own move. */
uint64_t perft(Position *pos, int depth);

/* The branches of perft at the root: calls fn(ctx, m, leaves) for every legal move m in
 * generation order, each undrawn reveal replaced by its drawn identities (core/hidden.h), with
 * the leaves at depth - 1 below it. Returns the total, equal to perft(pos, depth); the position is
 * unchanged on return. */
typedef void (*PerftDivideFn)(void *ctx, Move m, uint64_t leaves);
uint64_t perft_divide(Position *pos, int depth, PerftDivideFn fn, void *ctx);

#endif
