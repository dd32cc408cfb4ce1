/* pst_delta.h - private to mcts/: the piece-square change of a plain move, shared by the move
 * priors (mcts.c) and the capture search (absearch.c). */
#ifndef XQ_PST_DELTA_H
#define XQ_PST_DELTA_H

#include "eval_private.h"

/* Change of the piece-square sum by the plain move mv, from the mover's view (sign +1 for Red,
 * -1 for Black), in pawns. */
static inline double move_delta(const Evaluator *e, const Position *pos, Move mv, double sign)
{
    Point from = XQ_MOVE_FROM(mv), to = XQ_MOVE_TO(mv);
    Piece pc = pos->board[from], cap = pos->board[to];
    return sign * (e->pst[pc][to] - e->pst[pc][from] - e->pst[cap][to]);
}

#endif
