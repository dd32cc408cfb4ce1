/* pgn_import.c - PGN games as dataset game records (xqlab import). */
#include "pgn_import.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "notation.h"
#include "status.h"

static int fail(XqError *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->file[0] = '\0';
    err->line = 0;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *result_text(Result r)
{
    return r == RESULT_RED_WINS ? "1-0" : r == RESULT_BLACK_WINS ? "0-1" : r == RESULT_DRAW ? "1/2-1/2" : "*";
}

/* The reason named by a [Termination] tag, or TERM_NONE. */
static Termination named_termination(const char *tag)
{
    if (!tag)
        return TERM_NONE;
    for (int t = 1; t < TERM_COUNT; t++)
        if (!strcmp(tag, termination_name((Termination)t)))
            return (Termination)t;
    return TERM_NONE;
}

int pgn_import_game(const Variant *v, const PgnGame *pg, uint64_t index, GameRecord *g, XqError *err)
{
    memset(g, 0, sizeof *g);
    Position *pos = malloc(sizeof *pos);
    int n = pg->nmoves;
    g->moves = malloc((size_t)(n ? n : 1) * sizeof *g->moves);
    g->positions = calloc((size_t)(n ? n : 1), sizeof *g->positions);
    if (!pos || !g->moves || !g->positions) {
        free(pos);
        game_record_free(g);
        return fail(err, "out of memory");
    }
    XqError fen_err;
    if (pos_set_fen(pos, v, pg->start_fen, &fen_err) < 0) {
        free(pos);
        game_record_free(g);
        return fail(err, "bad start position: %s", fen_err.message);
    }
    g->index = index;
    snprintf(g->start_fen, sizeof g->start_fen, "%s", pg->start_fen);
    g->seat_colour = RED;
    GameStatus st = pos_game_status(pos);
    for (int ply = 0; ply < n; ply++) {
        if (st.result != RESULT_NONE) {
            char status[96], text[32];
            game_status_format(st, status, sizeof status);
            move_to_iccs(v, pg->moves[ply], text);
            free(pos);
            game_record_free(g);
            return fail(err, "move %d '%s' comes after the end of the game (%s)", ply + 1, text, status);
        }
        PositionRecord *r = &g->positions[ply];
        memcpy(r->board, pos->board, (size_t)v->npoints);
        memcpy(r->module, pos->module, sizeof r->module);
        r->side = (uint8_t)pos->side;
        r->ply = (uint16_t)pos->ply;
        r->no_capture = (uint16_t)(pos->no_capture > 65535 ? 65535 : pos->no_capture);
        r->played = pg->moves[ply];
        r->best = XQ_MOVE_NONE;
        r->root_value = NAN;
        r->static_eval = NAN;
        g->moves[ply] = pg->moves[ply];
        Undo u;
        pos_do_move(pos, pg->moves[ply], &u);
        st = pos_game_status(pos);
    }
    g->nmoves = g->npositions = n;
    g->plies = (uint16_t)n;
    if (hidden_on(v))
        g->seat_colour = (int8_t)hidden_seat_colour(pos, RED);
    free(pos);
    Result result = pg->result;
    Termination reason = named_termination(pgn_tag(pg, "Termination"));
    if (st.result != RESULT_NONE) {
        /* The rules ended the game: the result must be theirs (an unknown "*" takes it). */
        if (result != RESULT_NONE && result != st.result) {
            char status[96];
            game_status_format(st, status, sizeof status);
            game_record_free(g);
            return fail(err, "result %s, but the final position is a %s", result_text(result), status);
        }
        result = st.result;
        reason = st.reason;
    } else if (reason != TERM_NONE && reason != TERM_RESIGNATION && reason != TERM_LENGTH_CAP) {
        /* A rule verdict the rules core does not reach in the final position is not believed. */
        reason = TERM_NONE;
    }
    g->result = (int8_t)result;
    g->termination = (uint8_t)reason;
    return 0;
}
