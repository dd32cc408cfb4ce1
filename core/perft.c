/* perft.c - legal move tree leaf counts. */
#include "perft.h"

#include "hidden.h"

uint64_t perft(Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    if (hidden_on(pos->v))
        return hidden_perft(pos, depth); /* every drawn identity of a reveal is a branch */
    if (depth == 1)
        return (uint64_t)pos_count_legal(pos);
    MoveList list;
    pos_generate_legal(pos, &list);
    uint64_t total = 0;
    for (int i = 0; i < list.count; i++) {
        Undo u;
        pos_do_move(pos, list.moves[i], &u);
        total += perft(pos, depth - 1);
        pos_undo_move(pos, list.moves[i], &u);
    }
    return total;
}

uint64_t perft_divide(Position *pos, int depth, PerftDivideFn fn, void *ctx)
{
    if (depth <= 0)
        return 1;
    MoveList list;
    pos_generate_legal(pos, &list);
    uint64_t total = 0;
    for (int i = 0; i < list.count; i++) {
        Move out[HIDDEN_MAX_OUTCOMES];
        double prob[HIDDEN_MAX_OUTCOMES];
        int n = 1;
        out[0] = list.moves[i];
        if (hidden_on(pos->v) && hidden_is_chance(pos, list.moves[i]))
            n = hidden_outcomes(pos, list.moves[i], out, prob);
        for (int j = 0; j < n; j++) {
            Undo u;
            pos_do_move(pos, out[j], &u);
            uint64_t leaves = perft(pos, depth - 1);
            pos_undo_move(pos, out[j], &u);
            fn(ctx, out[j], leaves);
            total += leaves;
        }
    }
    return total;
}
