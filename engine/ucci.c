/* ucci.c - the UCCI front end (the Chinese Chess Universal Protocol of the xiangqi GUIs): ucci,
 * isready, setoption NAME VALUE, position, go time / increment / movestogo / opptime / depth /
 * nodes / infinite, stop, ponderhit, quit (answered with bye). Ranks count from 0 as ICCS does;
 * times are seconds unless usemillisec is set. */
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

static const char *const COMMANDS =
    "ucci, isready, setoption, position, go, stop, ponderhit, quit, d";

/* Mate scores count down from this many points by the plies to the mate. */
enum { UCCI_MATE = 10000 };

static void print_info(EngineContext *c, const EngineReport *r)
{
    char pv[MCTS_PV_MAX * 32];
    size_t used = 0;
    pv[0] = '\0';
    for (int i = 0; i < r->pv_len && used + 40 < sizeof pv; i++) {
        char mv[32];
        session_move_text(session_variant(c->s), r->pv[i], 0, mv);
        used += (size_t)snprintf(pv + used, sizeof pv - used, " %s", mv);
    }
    int score = r->proven ? r->proven * (UCCI_MATE - r->proven_plies)
                          : session_value_cp(c->s, r->value);
    eo_line(c->out, "info depth %d score %d time %.0f nodes %d nps %.0f%s%s", r->depth, score,
            r->seconds * 1000.0, r->playouts, r->playouts_per_second, pv[0] ? " pv" : "", pv);
}

static void on_info(void *user, const EngineReport *r)
{
    print_info(user, r);
}

static void on_done(void *user, const EngineReport *r, bool aborted)
{
    EngineContext *c = user;
    (void)aborted;
    if (r->best == XQ_MOVE_NONE) {
        eo_line(c->out, "nobestmove");
        return;
    }
    print_info(c, r);
    char mv[32];
    session_move_text(session_variant(c->s), r->best, 0, mv);
    eo_line(c->out, "bestmove %s", mv);
}

void ucci_begin(EngineContext *c)
{
    eo_line(c->out, "id name xqlab %s", XQLAB_VERSION);
    eo_line(c->out, "id copyright the xqlab developers");
    eo_line(c->out, "id author the xqlab developers");
    eo_line(c->out, "id user unknown");
    options_print(&c->options, PROTOCOL_UCCI, c->s, &c->st, c->out);
    eo_line(c->out, "ucciok");
}

static bool idle_or_complain(EngineContext *c, const char *what)
{
    if (!session_searching(c->s))
        return true;
    eo_line(c->out, "info string error: %s while searching: send stop first", what);
    return false;
}

/* setoption NAME [VALUE...]; the UCI form "setoption name N value V" is understood too. */
static void cmd_setoption(EngineContext *c, Words *cmd)
{
    if (!idle_or_complain(c, "setoption"))
        return;
    if (cmd->n < 2) {
        eo_line(c->out, "info string error: setoption: expected 'setoption NAME VALUE'");
        return;
    }
    int name_at = 1, value_at = 2;
    if (!strcmp(cmd->w[1], "name") && cmd->n >= 3) {
        name_at = 2;
        value_at = cmd->n > 4 && !strcmp(cmd->w[3], "value") ? 4 : 3;
    }
    char value[4096];
    words_join(cmd, value_at, cmd->n, value, sizeof value);
    protocol_set_option(c, cmd->w[name_at], value_at < cmd->n ? value : NULL, "info string");
}

static void cmd_go(EngineContext *c, Words *cmd)
{
    if (!idle_or_complain(c, "go"))
        return;
    EngineLimits lim;
    memset(&lim, 0, sizeof lim);
    double unit = c->st.millisec ? 1.0 : 1000.0;
    for (int i = 1; i < cmd->n; i++) {
        const char *k = cmd->w[i];
        const char *v = i + 1 < cmd->n ? cmd->w[i + 1] : "";
        int64_t x = 0;
        int rc = 0;
        if (!strcmp(k, "ponder") || !strcmp(k, "infinite")) {
            lim.infinite = true;
        } else if (!strcmp(k, "draw")) {
            /* The opponent offers a draw: the engine plays on (it never accepts). */
        } else if (!strcmp(k, "depth")) {
            if (!strcmp(v, "infinite"))
                lim.infinite = true;
            else if ((rc = word_int64(v, 1, INT32_MAX, &x)) == 0)
                lim.depth = (int)x;
            i++;
        } else if (!strcmp(k, "nodes")) {
            if ((rc = word_int64(v, 1, INT32_MAX, &x)) == 0)
                lim.nodes = (int)x;
            i++;
        } else if (!strcmp(k, "time")) {
            if ((rc = word_time_ms(v, unit, &x)) == 0) {
                lim.time.clock = true;
                lim.time.time_ms = x;
            }
            i++;
        } else if (!strcmp(k, "increment")) {
            if ((rc = word_time_ms(v, unit, &x)) == 0)
                lim.time.inc_ms = x;
            i++;
        } else if (!strcmp(k, "movestogo")) {
            if ((rc = word_int64(v, 1, INT32_MAX, &x)) == 0)
                lim.time.movestogo = (int)x;
            i++;
        } else if (!strcmp(k, "opptime") || !strcmp(k, "oppincrement") ||
                   !strcmp(k, "oppmovestogo")) {
            rc = word_time_ms(v, 1.0, &x); /* the opponent's clock does not change the budget */
            i++;
        } else {
            eo_line(c->out, "info string error: go: unknown word '%s' (expected depth, nodes, "
                            "time, increment, movestogo, opptime, infinite, ponder, draw)", k);
            eo_line(c->out, "nobestmove");
            return;
        }
        if (rc != 0) {
            eo_line(c->out, "info string error: go %s: expected a number%s, not '%s'", k,
                    !strcmp(k, "time") || !strcmp(k, "increment") ? " of seconds (or "
                    "milliseconds with usemillisec)" : " above 0", v);
            eo_line(c->out, "nobestmove");
            return;
        }
    }
    SessionCallbacks cb = {on_info, on_done, c};
    char err[SESSION_ERR_MAX];
    if (session_go(c->s, &lim, &cb, err) != 0) {
        eo_line(c->out, "info string error: go: %s", err);
        eo_line(c->out, "nobestmove");
    }
}

bool ucci_command(EngineContext *c, Words *cmd)
{
    const char *k = cmd->w[0];
    if (!strcmp(k, "ucci")) {
        ucci_begin(c);
    } else if (!strcmp(k, "isready")) {
        char err[SESSION_ERR_MAX];
        if (!session_searching(c->s) && session_prepare(c->s, err) != 0)
            eo_line(c->out, "info string error: %s", err);
        eo_line(c->out, "readyok");
    } else if (!strcmp(k, "setoption")) {
        cmd_setoption(c, cmd);
    } else if (!strcmp(k, "position")) {
        if (idle_or_complain(c, "position"))
            protocol_position(c, cmd, "info string");
    } else if (!strcmp(k, "go")) {
        cmd_go(c, cmd);
    } else if (!strcmp(k, "stop") || !strcmp(k, "ponderhit")) {
        session_stop(c->s);
    } else if (!strcmp(k, "quit")) {
        session_stop(c->s);
        eo_line(c->out, "bye");
        return false;
    } else if (!strcmp(k, "d")) {
        protocol_show(c, "info string");
    } else if (!strcmp(k, "banmoves") || !strcmp(k, "probe")) {
        eo_line(c->out, "info string error: %s is not supported: the search cannot exclude "
                        "root moves or probe positions", k);
    } else {
        eo_line(c->out, "info string error: unknown command '%s' (UCCI commands: %s)", k,
                COMMANDS);
    }
    return true;
}
