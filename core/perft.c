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
