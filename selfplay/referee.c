/* referee.c - one game between two UCI engines, checked and adjudicated by the rules core. */
#include "referee.h"

#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "perft.h"

const char *game_end_name(GameEnd end)
{
    switch (end) {
    case GAME_END_RULES: return "rules";
    case GAME_END_LENGTH_CAP: return "length cap";
    case GAME_END_DIED: return "engine died";
    case GAME_END_TIMEOUT: return "time forfeit";
    case GAME_END_ILLEGAL: return "illegal move";
    case GAME_END_STOPPED: return "stopped";
    case GAME_END_COUNT: break;
    }
    return "?";
}

void referee_game_free(RefereeGame *g)
{
    if (g) {
        free(g->moves);
        g->moves = NULL;
    }
}

/* The game so far as ICCS strings, the form the engines are sent. */
typedef struct MoveTexts {
    char (*text)[16];
    const char **ptr;
} MoveTexts;

static void forfeit(RefereeGame *g, Side culprit, GameEnd end, UciStatus status, const char *detail)
{
    g->end = end;
    g->culprit = culprit;
    g->culprit_status = status;
    g->result = culprit == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
    g->reason = TERM_NONE;
    snprintf(g->detail, sizeof g->detail, "%s", detail);
}

int referee_play(const RefereeSetup *s, UciEngine *engines[2], RefereeGame *g)
{
    memset(g, 0, sizeof *g);
    g->result = RESULT_NONE;
    g->end = GAME_END_STOPPED;
    g->cpu_ms[0] = g->cpu_ms[1] = -1;
    int cap = s->max_plies > 0 && s->max_plies < XQ_MAX_HISTORY - 16 ? s->max_plies : XQ_MAX_HISTORY - 16;
    if (cap < s->nopening)
        cap = s->nopening;
    Position *pos = malloc(sizeof *pos);
    MoveTexts t = {malloc((size_t)(cap + 1) * sizeof *t.text), malloc((size_t)(cap + 1) * sizeof *t.ptr)};
    g->moves = malloc((size_t)(cap + 1) * sizeof *g->moves);
    int rc = 0;
    if (!pos || !t.text || !t.ptr || !g->moves) {
        snprintf(g->detail, sizeof g->detail, "out of memory");
        rc = -1;
        goto done;
    }
    XqError err;
    if (s->base_fen) {
        if (pos_set_fen(pos, s->v, s->base_fen, &err) < 0) {
            snprintf(g->detail, sizeof g->detail, "bad opening FEN: %s", err.message);
            rc = -1;
            goto done;
        }
    } else {
        pos_init_start(pos, s->v);
    }
    for (int i = 0; i < s->nopening; i++) {
        Undo u;
        move_to_iccs(s->v, s->opening[i], t.text[i]);
        t.ptr[i] = t.text[i];
        g->moves[i] = s->opening[i];
        pos_do_move(pos, s->opening[i], &u);
    }
    g->nmoves = s->nopening;

    double cpu_start[2], cpu_last[2];
    for (int c = 0; c < 2; c++) {
        UciEngine *e = engines[c];
        if (c == 1 && engines[1] == engines[0])
            break;
        UciStatus st = uci_engine_new_game(e, s->stop);
        if (st == UCI_STOPPED)
            goto done;
        if (st != UCI_OK) {
            forfeit(g, (Side)c, st == UCI_TIMEOUT ? GAME_END_TIMEOUT : st == UCI_DIED ? GAME_END_DIED : GAME_END_ILLEGAL,
                    st, e->detail);
            goto done;
        }
    }
    for (int c = 0; c < 2; c++)
        cpu_start[c] = cpu_last[c] = uci_engine_cpu_ms(engines[c]);

    for (;;) {
        GameStatus st = pos_game_status(pos);
        if (st.result != RESULT_NONE) {
            g->result = st.result;
            g->reason = st.reason;
            g->end = GAME_END_RULES;
            break;
        }
        if (g->nmoves >= cap) {
            g->result = RESULT_DRAW;
            g->reason = TERM_LENGTH_CAP;
            g->end = GAME_END_LENGTH_CAP;
            break;
        }
        Side side = pos->side;
        UciEngine *e = engines[side];
        char best[64];
        double t0 = subprocess_now();
        double deadline = t0 + s->movetime_ms[side] / 1000.0 + s->grace;
        UciStatus us = uci_engine_go(e, s->base_fen, t.ptr, g->nmoves, s->movetime_ms[side], deadline,
                                     best, sizeof best, s->stop);
        double wall = 1000.0 * (subprocess_now() - t0);
        if (us == UCI_STOPPED)
            break;
        if (us != UCI_OK) {
            forfeit(g, side, us == UCI_TIMEOUT ? GAME_END_TIMEOUT : us == UCI_DIED ? GAME_END_DIED : GAME_END_ILLEGAL,
                    us, e->detail);
            break;
        }
        double cpu = uci_engine_cpu_ms(e);
        if (cpu >= 0)
            cpu_last[side] = cpu;
        g->engine_moves[side]++;
        g->wall_ms[side] += wall;
        if (wall > g->max_wall_ms[side])
            g->max_wall_ms[side] = wall;
        char why[XQ_MSG_MAX];
        Move m = move_parse(pos, best, why, sizeof why);
        if (m == XQ_MOVE_NONE) {
            char detail[sizeof g->detail];
            snprintf(detail, sizeof detail, "%s (%s) played '%s' at ply %d: %s", e->spec->role, e->name,
                     best, g->nmoves + 1, why);
            forfeit(g, side, GAME_END_ILLEGAL, UCI_BAD_OUTPUT, detail);
            break;
        }
        Undo u;
        pos_do_move(pos, m, &u);
        g->moves[g->nmoves] = m;
        move_to_iccs(s->v, m, t.text[g->nmoves]);
        t.ptr[g->nmoves] = t.text[g->nmoves];
        g->nmoves++;
    }
    /* Time spent after an engine's last move (a background thread, pondering) counts too. */
    for (int c = 0; c < 2; c++) {
        double cpu = uci_engine_cpu_ms(engines[c]);
        if (cpu >= 0 && cpu_last[c] >= 0 && cpu > cpu_last[c])
            cpu_last[c] = cpu;
        g->cpu_ms[c] = cpu_start[c] >= 0 && cpu_last[c] >= 0 ? cpu_last[c] - cpu_start[c] : -1;
    }
    if (engines[0] == engines[1]) {
        /* One process played both sides: its CPU time cannot be split by colour. */
        g->cpu_ms[0] = g->cpu_ms[1] = -1;
    }
done:
    free(pos);
    free(t.text);
    free(t.ptr);
    return rc;
}

/* One position of the rules check. */
static int check_position(UciEngine *e, const Variant *v, const char *base_fen, const Move *moves,
                          int nmoves, int depth, const char *where, char *msg, size_t size,
                          const atomic_bool *stop)
{
    Position *pos = malloc(sizeof *pos);
    char (*text)[16] = malloc((size_t)(nmoves + 1) * sizeof *text);
    const char **ptr = malloc((size_t)(nmoves + 1) * sizeof *ptr);
    char (*divide)[16] = malloc(XQ_MAX_MOVES * sizeof *divide);
    MoveList *list = malloc(sizeof *list);
    int rc = -1;
    if (!pos || !text || !ptr || !divide || !list) {
        snprintf(msg, size, "out of memory");
        goto done;
    }
    XqError err;
    if (base_fen && pos_set_fen(pos, v, base_fen, &err) < 0) {
        snprintf(msg, size, "%s: bad FEN: %s", where, err.message);
        goto done;
    }
    if (!base_fen)
        pos_init_start(pos, v);
    for (int i = 0; i < nmoves; i++) {
        Undo u;
        move_to_iccs(v, moves[i], text[i]);
        ptr[i] = text[i];
        pos_do_move(pos, moves[i], &u);
    }
    uint64_t nodes = 0;
    int ndivide = 0;
    UciStatus us = uci_engine_perft(e, base_fen, ptr, nmoves, 1, &nodes, divide, XQ_MAX_MOVES, &ndivide, stop);
    if (us != UCI_OK) {
        snprintf(msg, size, "%s", e->detail);
        goto done;
    }
    int n = pos_generate_legal(pos, list);
    rc = 1;
    if ((int)nodes != n || ndivide != n) {
        snprintf(msg, size, "%s: %s counts %llu legal moves, xqlab's rules %d", where, e->name,
                 (unsigned long long)nodes, n);
        goto done;
    }
    for (int i = 0; i < ndivide; i++) {
        char why[XQ_MSG_MAX];
        if (move_parse(pos, divide[i], why, sizeof why) == XQ_MOVE_NONE) {
            snprintf(msg, size, "%s: %s lists the move %s, which xqlab's rules do not allow: %s", where,
                     e->name, divide[i], why);
            goto done;
        }
    }
    if (depth > 1) {
        us = uci_engine_perft(e, base_fen, ptr, nmoves, depth, &nodes, NULL, 0, NULL, stop);
        if (us != UCI_OK) {
            snprintf(msg, size, "%s", e->detail);
            rc = -1;
            goto done;
        }
        uint64_t mine = perft(pos, depth);
        if (mine != nodes) {
            snprintf(msg, size, "%s: perft %d is %llu for %s, %llu by xqlab's rules", where, depth,
                     (unsigned long long)nodes, e->name, (unsigned long long)mine);
            goto done;
        }
    }
    rc = 0;
done:
    free(pos);
    free(text);
    free(ptr);
    free(divide);
    free(list);
    return rc;
}

int referee_check_rules(UciEngine *e, const Variant *v, const Book *book, int openings, int depth,
                        char *msg, size_t size, const atomic_bool *stop)
{
    int rc = check_position(e, v, NULL, NULL, 0, depth, "start position", msg, size, stop);
    for (int i = 0; rc == 0 && book && i < openings && i < book->count; i++) {
        const BookEntry *b = &book->entries[i];
        char where[64];
        snprintf(where, sizeof where, "opening of line %d", b->line);
        rc = check_position(e, v, b->base_fen[0] ? b->base_fen : NULL, b->moves, b->nmoves, depth,
                            where, msg, size, stop);
    }
    return rc;
}
