/* seat.c - seat and colour names, results by seat and by colour (seat.h). */
#include "seat.h"

#include <stdio.h>

#include "hidden.h"

const char *seat_name(Side seat)
{
    return seat == RED ? "first mover" : "second mover";
}

const char *colour_name(int colour)
{
    return colour == RED ? "red" : colour == BLACK ? "black" : "unassigned";
}

bool variant_assigns_colours(const Variant *v)
{
    return hidden_on(v) && v->hidden.mode != HIDDEN_JIEQI;
}

int pos_seat_colour(const Position *pos, Side seat)
{
    if (!hidden_on(pos->v))
        return (int)seat;
    return hidden_seat_colour(pos, seat);
}

int seat_of_colour(int colour, int seat0_colour)
{
    if ((colour != RED && colour != BLACK) || (seat0_colour != RED && seat0_colour != BLACK))
        return -1;
    return colour ^ seat0_colour;
}

/* Swapping seats and swapping colours is the same exchange of the two decisive results. */
static Result translate(Result r, int seat0_colour)
{
    if (r != RESULT_RED_WINS && r != RESULT_BLACK_WINS)
        return r;
    if (seat0_colour == RED)
        return r;
    if (seat0_colour == BLACK)
        return r == RESULT_RED_WINS ? RESULT_BLACK_WINS : RESULT_RED_WINS;
    return RESULT_NONE;
}

Result result_by_colour(Result by_seat, int seat0_colour)
{
    return translate(by_seat, seat0_colour);
}

Result result_by_seat(Result by_colour, int seat0_colour)
{
    return translate(by_colour, seat0_colour);
}

int result_winner_seat(Result by_seat)
{
    return by_seat == RESULT_RED_WINS ? 0 : by_seat == RESULT_BLACK_WINS ? 1 : -1;
}

void game_status_describe(const Variant *v, GameStatus st, int seat0_colour, char *buf, size_t size)
{
    const char *why = termination_name(st.reason);
    int winner = result_winner_seat(st.result);
    if (st.result == RESULT_NONE)
        snprintf(buf, size, "ongoing");
    else if (winner < 0)
        snprintf(buf, size, "draw (%s)", why);
    else if (!variant_assigns_colours(v))
        snprintf(buf, size, "win for %s (%s)", colour_name(winner), why);
    else if (seat0_colour != RED && seat0_colour != BLACK)
        snprintf(buf, size, "win for the %s (%s)", seat_name((Side)winner), why);
    else
        snprintf(buf, size, "win for %s, the %s (%s)", colour_name(winner ^ seat0_colour),
                 seat_name((Side)winner), why);
}

void pos_status_describe(const Position *pos, GameStatus st, char *buf, size_t size)
{
    game_status_describe(pos->v, st, pos_seat_colour(pos, RED), buf, size);
}
