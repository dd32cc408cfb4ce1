/* status.c - game end detection: mate, stalemate, repetition verdicts, natural move limit. */
#include "status.h"

#include <stdio.h>

#include "hidden.h"
#include "repetition.h"

static const char *const TERMINATION_NAMES[TERM_COUNT] = {
    [TERM_NONE] = "ongoing",
    [TERM_CHECKMATE] = "checkmate",
    [TERM_STALEMATE] = "stalemate",
    [TERM_MOVE_LIMIT] = "move limit",
    [TERM_REPETITION_DRAW] = "repetition",
    [TERM_PERPETUAL_CHECK] = "perpetual check",
    [TERM_PERPETUAL_CHASE] = "perpetual chase",
    [TERM_RESIGNATION] = "resignation",
    [TERM_LENGTH_CAP] = "length cap",
    [TERM_ROYAL_CAPTURED] = "general captured",
    [TERM_NO_PIECES] = "no pieces left",
    [TERM_HP_LOST] = "hit points lost",
};

const char *termination_name(Termination t)
{
    return (unsigned)t < TERM_COUNT && TERMINATION_NAMES[t] ? TERMINATION_NAMES[t] : "unknown";
}

void game_status_format(GameStatus st, char *buf, size_t size)
{
    if (st.result == RESULT_NONE)
        snprintf(buf, size, "ongoing");
    else if (st.result == RESULT_DRAW)
        snprintf(buf, size, "draw (%s)", termination_name(st.reason));
    else
        snprintf(buf, size, "win for %s (%s)", st.result == RESULT_RED_WINS ? "red" : "black",
                 termination_name(st.reason));
}

static Result loss_for(Side s)
{
    return s == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
}

GameStatus pos_game_status_n(Position *pos, int legal_moves)
{
    const RuleOptions *r = &pos->v->rules;
    /* Hidden pieces (docs/variants/jieqi-folk.md to banqi-hp.md): hit points, captured folk
     * general, banqi without pieces. */
    if (hidden_on(pos->v)) {
        GameStatus st = hidden_game_status(pos, legal_moves);
        if (st.result != RESULT_NONE)
            return st;
    }
    /* Multi-move turns (docs/variants/five-tigers.md, mod_multimove.c): a second sub-move may take
     * the general. */
    if (pos->v->royal_mask && pos->royal[pos->side] == XQ_NO_POINT)
        return (GameStatus){loss_for(pos->side), TERM_ROYAL_CAPTURED};
    if (legal_moves == 0) {
        if (pos->in_check)
            return (GameStatus){loss_for(pos->side), TERM_CHECKMATE};
        return (GameStatus){r->stalemate_loses ? loss_for(pos->side) : RESULT_DRAW, TERM_STALEMATE};
    }
    if (pos->no_capture >= 4 && rep_count_occurrences(pos) + 1 >= r->repetition_count) {
        GameStatus st = rep_verdict(pos);
        if (st.result != RESULT_NONE)
            return st;
    }
    if (r->move_limit > 0 && pos->limit_count >= r->move_limit)
        return (GameStatus){RESULT_DRAW, TERM_MOVE_LIMIT};
    return (GameStatus){RESULT_NONE, TERM_NONE};
}

GameStatus pos_game_status(Position *pos)
{
    return pos_game_status_n(pos, pos_count_legal(pos));
}
