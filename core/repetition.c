/* repetition.c - repetition detection and verdicts. */
#include "repetition.h"

int rep_count_occurrences(const Position *pos)
{
    int n = 0;
    int stop = pos->hist_len - pos->no_capture;
    if (stop < 0)
        stop = 0;
    for (int i = pos->hist_len - 2; i >= stop; i -= 2)
        n += pos->hist[i].key == pos->key;
    return n;
}

GameStatus rep_verdict(Position *pos)
{
    (void)pos;
    return (GameStatus){RESULT_DRAW, TERM_REPETITION_DRAW};
}
