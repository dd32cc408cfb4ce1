/* uci.c - the UCI front end (as Fairy-Stockfish speaks it for xiangqi and its variants): uci,
 * isready, setoption, ucinewgame, position, go, stop, ponderhit, quit, and `d` to show the
 * position. Errors are `info string error: ...` lines naming what and where. */
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

static const char *const COMMANDS =
    "uci, isready, setoption, ucinewgame, position, go, stop, ponderhit, quit, d";

/* Writes the principal variation as protocol moves into buf. */
static void pv_text(EngineContext *c, const EngineReport *r, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->pv_len && used + 40 < size; i++) {
        char mv[32];
        session_move_text(session_variant(c->s), r->pv[i], c->st.rank_base, mv);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "", mv);
    }
}

/* "cp N" or "mate N" (moves, negative when the engine is mated). */
static void score_text(EngineContext *c, const EngineReport *r, char *buf, size_t size)
{
    if (r->proven)
        snprintf(buf, size, "mate %d", r->proven * ((r->proven_plies + 1) / 2));
    else
        snprintf(buf, size, "cp %d", session_value_cp(c->s, r->value));
}

static void print_info(EngineContext *c, const EngineReport *r)
{
    char pv[MCTS_PV_MAX * 32], score[32];
    pv_text(c, r, pv, sizeof pv);
    score_text(c, r, score, sizeof score);
    eo_line(c->out, "info depth %d nodes %d nps %.0f time %.0f hashfull %d score %s%s%s",
            r->depth, r->playouts, r->playouts_per_second, r->seconds * 1000.0,
            r->arena_permille, score, pv[0] ? " pv " : "", pv);
}

static void on_info(void *user, const EngineReport *r)
{
    print_info(user, r);
}

static void on_done(void *user, const EngineReport *r, bool aborted)
{
    EngineContext *c = user;
    (void)aborted; /* UCI answers every go with a bestmove, stopped or not */
    if (r->best == XQ_MOVE_NONE) {
        eo_line(c->out, "bestmove (none)");
        return;
    }
    print_info(c, r);
    if (r->truncated)
        eo_line(c->out, "info string the node memory filled before the time or playouts were "
                        "used up (raise Hash)");
    char mv[32];
    session_move_text(session_variant(c->s), r->best, c->st.rank_base, mv);
    eo_line(c->out, "bestmove %s", mv);
}

void uci_begin(EngineContext *c)
{
    eo_line(c->out, "id name xqlab %s", XQLAB_VERSION);
    eo_line(c->out, "id author the xqlab developers");
    options_print(&c->options, PROTOCOL_UCI, c->s, &c->st, c->out);
    eo_line(c->out, "uciok");
}

/* Refuses a command that would change the game or settings under a running search. */
static bool idle_or_complain(EngineContext *c, const char *what)
{
    if (!session_searching(c->s))
        return true;
    eo_line(c->out, "info string error: %s while searching: send stop first", what);
    return false;
}

static void cmd_setoption(EngineContext *c, Words *cmd)
{
    if (!idle_or_complain(c, "setoption"))
        return;
    int name_at = -1, value_at = -1;
    for (int i = 1; i < cmd->n; i++) {
        if (name_at < 0 && !strcmp(cmd->w[i], "name"))
            name_at = i + 1;
        else if (name_at >= 0 && value_at < 0 && !strcmp(cmd->w[i], "value"))
            value_at = i + 1;
    }
    if (name_at < 0 || name_at >= cmd->n || (value_at >= 0 && value_at - 1 == name_at)) {
        eo_line(c->out, "info string error: setoption: expected 'setoption name NAME [value "
                        "VALUE]'");
        return;
    }
    char name[256], value[4096];
    words_join(cmd, name_at, value_at >= 0 ? value_at - 1 : cmd->n, name, sizeof name);
    if (value_at >= 0)
        words_join(cmd, value_at, cmd->n, value, sizeof value);
    protocol_set_option(c, name, value_at >= 0 ? value : NULL, "info string");
}

static int go_number(EngineContext *c, Words *cmd, int *i, int64_t min, int64_t *out)
{
    const char *key = cmd->w[*i];
    if (*i + 1 >= cmd->n || word_int64(cmd->w[*i + 1], min, INT32_MAX, out) != 0) {
        eo_line(c->out, "info string error: go %s: expected a whole number%s, not '%s'", key,
                min > 0 ? " above 0" : "", *i + 1 < cmd->n ? cmd->w[*i + 1] : "");
        return -1;
    }
    (*i)++;
    return 0;
}

static bool is_go_key(const char *w)
{
    static const char *const keys[] = {"searchmoves", "ponder", "wtime", "btime", "winc", "binc",
                                       "movestogo", "depth", "nodes", "mate", "movetime",
                                       "infinite"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (!strcmp(w, keys[k]))
            return true;
    return false;
}

static void cmd_go(EngineContext *c, Words *cmd)
{
    if (!idle_or_complain(c, "go"))
        return;
    EngineLimits lim;
    memset(&lim, 0, sizeof lim);
    const Position *pos = session_position(c->s);
    int side = pos ? pos->side : RED;
    int64_t wtime = -1, btime = -1, winc = 0, binc = 0, x;
    for (int i = 1; i < cmd->n; i++) {
        const char *k = cmd->w[i];
        int rc = 0;
        if (!strcmp(k, "infinite")) {
            lim.infinite = true;
        } else if (!strcmp(k, "ponder")) {
            /* No Ponder option is offered; a GUI that ponders anyway gets an infinite search
             * that ponderhit or stop ends with a move. */
            lim.infinite = true;
        } else if (!strcmp(k, "searchmoves") || !strcmp(k, "mate")) {
            int j = i + 1;
            while (j < cmd->n && !is_go_key(cmd->w[j]))
                j++;
            eo_line(c->out, "info string error: go %s is not supported; searching every move",
                    k);
            i = j - 1;
        } else if (!strcmp(k, "wtime")) {
            rc = go_number(c, cmd, &i, INT32_MIN, &wtime);
            if (rc == 0 && wtime < 0)
                wtime = 0;
        } else if (!strcmp(k, "btime")) {
            rc = go_number(c, cmd, &i, INT32_MIN, &btime);
            if (rc == 0 && btime < 0)
                btime = 0;
        } else if (!strcmp(k, "winc")) {
            rc = go_number(c, cmd, &i, 0, &winc);
        } else if (!strcmp(k, "binc")) {
            rc = go_number(c, cmd, &i, 0, &binc);
        } else if (!strcmp(k, "movestogo")) {
            rc = go_number(c, cmd, &i, 1, &x);
            lim.time.movestogo = (int)x;
        } else if (!strcmp(k, "depth")) {
            rc = go_number(c, cmd, &i, 1, &x);
            lim.depth = (int)x;
        } else if (!strcmp(k, "nodes")) {
            rc = go_number(c, cmd, &i, 1, &x);
            lim.nodes = (int)x;
        } else if (!strcmp(k, "movetime")) {
            rc = go_number(c, cmd, &i, 1, &x);
            lim.time.movetime_ms = x;
        } else {
            eo_line(c->out, "info string error: go: unknown word '%s' (expected wtime, btime, "
                            "winc, binc, movestogo, depth, nodes, movetime, infinite)", k);
            rc = -1;
        }
        if (rc != 0) {
            eo_line(c->out, "bestmove (none)");
            return;
        }
    }
    /* White is the first mover: red, seat 0. */
    int64_t own = side == RED ? wtime : btime;
    if (own >= 0 && lim.time.movetime_ms == 0) {
        lim.time.clock = true;
        lim.time.time_ms = own;
        lim.time.inc_ms = side == RED ? winc : binc;
    }
    SessionCallbacks cb = {on_info, on_done, c};
    char err[SESSION_ERR_MAX];
    if (session_go(c->s, &lim, &cb, err) != 0) {
        eo_line(c->out, "info string error: go: %s", err);
        eo_line(c->out, "bestmove (none)");
    }
}

bool uci_command(EngineContext *c, Words *cmd)
{
    const char *k = cmd->w[0];
    if (!strcmp(k, "uci")) {
        uci_begin(c);
    } else if (!strcmp(k, "isready")) {
        char err[SESSION_ERR_MAX];
        if (!session_searching(c->s) && session_prepare(c->s, err) != 0)
            eo_line(c->out, "info string error: %s", err);
        eo_line(c->out, "readyok");
    } else if (!strcmp(k, "setoption")) {
        cmd_setoption(c, cmd);
    } else if (!strcmp(k, "ucinewgame")) {
        if (idle_or_complain(c, "ucinewgame"))
            session_new_game(c->s);
    } else if (!strcmp(k, "position")) {
        if (idle_or_complain(c, "position"))
            protocol_position(c, cmd, "info string");
    } else if (!strcmp(k, "go")) {
        cmd_go(c, cmd);
    } else if (!strcmp(k, "stop") || !strcmp(k, "ponderhit")) {
        session_stop(c->s);
    } else if (!strcmp(k, "quit")) {
        session_stop(c->s);
        return false;
    } else if (!strcmp(k, "d")) {
        protocol_show(c, "info string");
    } else if (!strcmp(k, "debug") || !strcmp(k, "register")) {
        /* Accepted: no debug output or registration exists. */
    } else {
        eo_line(c->out, "info string error: unknown command '%s' (UCI commands: %s)", k,
                COMMANDS);
    }
    return true;
}
