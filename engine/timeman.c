/* timeman.c - the per-move time budget. */
#include "timeman.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

int64_t timeman_budget(const TimeControl *tc, int64_t overhead_ms)
{
    if (overhead_ms < 0)
        overhead_ms = 0;
    if (tc->movetime_ms > 0)
        /* A fixed time is the GUI's to measure, and another engine uses all of it: only a
         * fiftieth at most is held back for the answer. */
        return max64(1, tc->movetime_ms - min64(overhead_ms, tc->movetime_ms / 50));
    if (!tc->clock)
        return 0;
    /* What may be spent without flagging: the clock less one overhead for this move's answer. */
    int64_t available = tc->time_ms - overhead_ms;
    if (available <= 1)
        return 1;
    int moves = tc->movestogo > 0 ? tc->movestogo : TIMEMAN_MOVES_LEFT;
    if (moves > 50)
        moves = 50;
    /* An even share of the time left, plus most of the increment earned by this move (it is
     * credited after the move, so it cannot be spent when the clock alone is short). */
    int64_t share = available / moves + max64(0, tc->inc_ms) * 3 / 4;
    int64_t cap = tc->movestogo == 1 ? available * 9 / 10 : available / 2;
    return max64(1, min64(share, cap));
}
