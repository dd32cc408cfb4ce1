/* status.h - is the game over, and why: mate, stalemate, natural move limit, repetition verdicts. */
#ifndef XQ_STATUS_H
#define XQ_STATUS_H

#include "position.h"

typedef struct GameStatus {
    Result result;            /* RESULT_NONE while the game goes on; else by seat (types.h) */
    Termination reason;       /* TERM_NONE while the game goes on */
} GameStatus;

/* Decides whether the game is over in this position, applying the variant's rules in order: no
 * legal move (checkmate / stalemate: a loss for the side to move unless the variant says draw),
 * repetition verdict at the variant's repetition_count-th occurrence (docs/variants/xiangqi.md),
 * natural move limit (mate on the limit ply wins first). The position is restored on return. */
GameStatus pos_game_status(Position *pos);

/* The same, when the caller already knows the number of legal moves. */
GameStatus pos_game_status_n(Position *pos, int legal_moves);

/* Human-readable name of a termination ("checkmate", "perpetual check", ...). */
const char *termination_name(Termination t);

/* Formats a status line: "ongoing", "win for red (checkmate)", "draw (move limit)", naming the
 * first mover red. Where the first reveal assigns the colours use pos_status_describe (seat.h). */
void game_status_format(GameStatus st, char *buf, size_t size);

#endif
