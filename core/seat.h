/* seat.h - seats and colours, and the game results by each.
 *
 * A seat is a player's place in the turn order: seat 0, the first mover (South, the bottom of the
 * board), and seat 1, the second mover. Inside the engine sides are seats: Side RED in types.h is
 * seat 0, and a Result is by seat (RESULT_RED_WINS: seat 0 won), as are the results stored in
 * datasets. A colour is the colour of the pieces a seat plays. In most rule sets the first mover
 * plays red, so seat and colour coincide; in jieqi-folk, banqi and banqi-hp the first reveal of the
 * game assigns the colours (docs/variants/banqi.md), so either colour can land on either seat and
 * "red won" and "the first mover won" are different statements. These helpers name seats and
 * colours and translate results between the two. */
#ifndef XQ_SEAT_H
#define XQ_SEAT_H

#include "status.h"

/* Colour of a seat before the game assigned one. */
enum { COLOUR_UNASSIGNED = -1 };

/* "first mover" (seat 0) or "second mover" (seat 1). */
const char *seat_name(Side seat);

/* "red", "black", or "unassigned" for COLOUR_UNASSIGNED. */
const char *colour_name(int colour);

/* True if the rule set assigns colours to seats during the game (jieqi-folk, banqi, banqi-hp);
 * false if the first mover always plays red. */
bool variant_assigns_colours(const Variant *v);

/* Colour the seat plays in this position: RED or BLACK, or COLOUR_UNASSIGNED while no reveal has
 * assigned one. */
int pos_seat_colour(const Position *pos, Side seat);

/* The seat playing `colour` when seat 0 plays `seat0_colour`; -1 if that is unassigned. */
int seat_of_colour(int colour, int seat0_colour);

/* A result by seat as a result by colour (RESULT_RED_WINS: the player of the red pieces won),
 * given seat 0's colour; draws and RESULT_NONE are unchanged. A decisive result while colours are
 * unassigned has no colour: RESULT_NONE. result_by_seat is the inverse (RESULT_NONE for a
 * decisive result by colour with seat0_colour unassigned). */
Result result_by_colour(Result by_seat, int seat0_colour);
Result result_by_seat(Result by_colour, int seat0_colour);

/* The winning seat of a result by seat: 0 or 1; -1 for a draw or a game not over. */
int result_winner_seat(Result by_seat);

/* Writes the status line of a game of `v` whose seat 0 plays `seat0_colour`: "ongoing",
 * "draw (repetition)", "win for red (checkmate)" where colours are fixed, and where the game
 * assigns them the colour and the seat: "win for black, the first mover (general captured)",
 * "win for the second mover (hit points lost)" (colours never assigned). */
void game_status_describe(const Variant *v, GameStatus st, int seat0_colour, char *buf, size_t size);

/* game_status_describe with the position's colours. */
void pos_status_describe(const Position *pos, GameStatus st, char *buf, size_t size);

#endif
