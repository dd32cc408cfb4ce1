/* timeman.h - time management: how long to think on a move, from a fixed move time or the clock,
 * with a safety margin so the engine never loses on time (docs/engine.md "Time management"). */
#ifndef XQ_ENGINE_TIMEMAN_H
#define XQ_ENGINE_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

typedef struct TimeControl {
    int64_t movetime_ms;   /* a fixed time for this move (0: none) */
    bool clock;            /* the engine's remaining time is given (UCI wtime/btime, ...) */
    int64_t time_ms;       /* the engine's remaining time */
    int64_t inc_ms;        /* its increment per move */
    int movestogo;         /* moves to the next time control (0: the rest of the game) */
} TimeControl;

/* Moves the engine expects still to play when the clock gives no moves to go. */
enum { TIMEMAN_MOVES_LEFT = 30 };

/* Milliseconds to search this move (at least 1), or 0 if the control sets no time (neither a
 * move time nor a clock). overhead_ms is the time lost between the GUI and the engine per
 * move (pipes, start-up of the search, the answer). A fixed move time is used less
 * min(overhead_ms, movetime / 50); a clock never gives more than half of what is left after
 * the overhead (nine tenths on the last move before a new time control). */
int64_t timeman_budget(const TimeControl *tc, int64_t overhead_ms);

#endif
