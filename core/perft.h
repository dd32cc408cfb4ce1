/* perft.h - leaf counts of the legal move tree, the correctness signature of move generation. */
#ifndef XQ_PERFT_H
#define XQ_PERFT_H

#include "position.h"

/* Leaves at `depth` plies (depth 1 counts legal moves without making them). */
uint64_t perft(Position *pos, int depth);

#endif
