/* xboard.c - the XBoard / CECP version 2 front end, enough for Debian's xboard to play and
 * analyse: protover, new, variant, force, go, playother, usermove, level, st, sd, time, otim,
 * ?, ping, result, setboard, undo, remove, post / nopost, analyze / exit, memory, cores, option,
 * quit. The engine claims results by the rule set's verdict ("1-0 {...}"), except the wins and
 * losses of the repetition rules and the move-limit draw, which the GUI adjudicates. Ranks count
 * from 0, as XBoard numbers a board of ten ranks. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

/* CECP mate scores: 100000 + N for a mate in N moves, negative when mated. */
enum { XBOARD_MATE = 100000 };

static void print_thinking(EngineContext *c, const EngineReport *r)
{
    char pv[MCTS_PV_MAX * 32];
    size_t used = 0;
    pv[0] = '\0';
    for (int i = 0; i < r->pv_len && used + 40 < sizeof pv; i++) {
        char mv[32];
        session_move_text(session_variant(c->s), r->pv[i], 0, mv);
        used += (size_t)snprintf(pv + used, sizeof pv - used, "%s%s", i ? " " : "", mv);
    }
    int score = r->proven ? r->proven * (XBOARD_MATE + (r->proven_plies + 1) / 2)
                          : session_value_cp(c->s, r->value);
    eo_line(c->out, "%d %d %.0f %d %s", r->depth, score, r->seconds * 100.0, r->playouts, pv);
}

static void on_info(void *user, const EngineReport *r)
{
    EngineContext *c = user;
    if (c->xb.post)
        print_thinking(c, r);
}

/* Verdicts the GUI adjudicates by rules of its own, which the engine does not claim (it plays on):
 * XBoard accepts an engine's win claim only for a mate it has flagged itself, forfeits any other
 * as a false claim, and applies its own perpetual-check and chase tests at its repetition count
 * (-repeatsToDraw, 6 by default); it accepts a move-limit draw claim only by its own count
 * (100 plies, checks and their replies not counted), which is not the rule set's. */
static bool gui_adjudicates(GameStatus st)
{
    if (st.reason == TERM_MOVE_LIMIT)
        return true;
    return st.result != RESULT_DRAW &&
           (st.reason == TERM_PERPETUAL_CHECK || st.reason == TERM_PERPETUAL_CHASE);
}

/* Claims the result if the game is over by the rule set: "1-0 {Red wins: checkmate}". Red is
 * XBoard's White (the first mover). Returns true if it is over and claimed. */
static bool claim_result(EngineContext *c)
{
    GameStatus st = session_status(c->s);
    if (st.result == RESULT_NONE || gui_adjudicates(st))
        return false;
    char status[128];
    game_status_format(st, status, sizeof status);
    const char *score = st.result == RESULT_RED_WINS ? "1-0" : st.result == RESULT_BLACK_WINS
                                                                  ? "0-1" : "1/2-1/2";
    eo_line(c->out, "%s {%s}", score, status);
    return true;
}

static void on_done(void *user, const EngineReport *r, bool aborted)
{
    EngineContext *c = user;
    if (aborted || c->xb.analyze)
        return;
    if (r->best == XQ_MOVE_NONE)
        return;
    if (c->xb.post)
        print_thinking(c, r);
    char mv[32];
    session_move_text(session_variant(c->s), r->best, 0, mv);
    session_push_move(c->s, r->best);
    eo_line(c->out, "move %s", mv);
    claim_result(c);
}

/* Starts the engine's search for its move, or an analysis. */
static void think(EngineContext *c)
{
    XboardState *x = &c->xb;
    EngineLimits lim;
    memset(&lim, 0, sizeof lim);
    if (x->analyze) {
        lim.infinite = true;
    } else if (x->movetime_ms > 0) {
        lim.time.movetime_ms = x->movetime_ms;
    } else if (x->base_ms > 0 || x->inc_ms > 0 || x->own_known) {
        lim.time.clock = true;
        lim.time.time_ms = x->own_known ? x->own_ms : x->base_ms;
        lim.time.inc_ms = x->inc_ms;
        if (x->mps > 0) /* the engine's moves so far: one every second ply before this one */
            lim.time.movestogo = x->mps - (session_game_length(c->s) / 2) % x->mps;
    }
    lim.depth = x->analyze ? 0 : x->depth;
    SessionCallbacks cb = {on_info, on_done, c};
    char err[SESSION_ERR_MAX];
    if (session_go(c->s, &lim, &cb, err) != 0) {
        if (!claim_result(c))
            eo_line(c->out, "Error (cannot search): %s", err);
    }
}

/* After the game changed: think if it is the engine's turn, or analyse again. */
static void maybe_think(EngineContext *c)
{
    const Position *pos = session_position(c->s);
    if (!pos)
        return;
    if (c->xb.analyze) {
        if (session_status(c->s).result == RESULT_NONE)
            think(c);
        return;
    }
    if (!c->xb.force && pos->side == c->xb.engine_side && !claim_result(c))
        think(c);
}

void xboard_begin(EngineContext *c)
{
    XboardState *x = &c->xb;
    memset(x, 0, sizeof *x);
    x->engine_side = BLACK;
    x->post = false;
    eo_line(c->out, "%s", ""); /* CECP: the engine may answer xboard with a newline */
}

static void send_features(EngineContext *c)
{
    char variants[4096];
    /* xiangqi first: XBoard knows it by that name. */
    const char *const *names;
    int n = session_variant_names(c->s, &names);
    size_t used = (size_t)snprintf(variants, sizeof variants, "xiangqi");
    for (int i = 0; i < n && used + 1 < sizeof variants; i++)
        if (strcmp(names[i], "xiangqi"))
            used += (size_t)snprintf(variants + used, sizeof variants - used, ",%s", names[i]);
    eo_line(c->out, "feature done=0");
    eo_line(c->out, "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 "
                    "reuse=1 analyze=1 colors=0 name=0 ics=0 pause=0 nps=0 debug=0 memory=1 "
                    "smp=1 exclude=0 myname=\"xqlab %s\" variants=\"%s\"", XQLAB_VERSION,
            variants);
    options_print(&c->options, PROTOCOL_XBOARD, c->s, &c->st, c->out);
    eo_line(c->out, "feature done=1");
}

static bool parse_level_base(const char *text, int64_t *ms)
{
    /* BASE is minutes, or minutes:seconds. */
    int64_t min = 0, sec = 0;
    const char *colon = strchr(text, ':');
    if (colon) {
        char m[32];
        size_t len = (size_t)(colon - text);
        if (len >= sizeof m)
            return false;
        memcpy(m, text, len);
        m[len] = '\0';
        if (word_int64(m, 0, 100000, &min) != 0 || word_int64(colon + 1, 0, 59, &sec) != 0)
            return false;
    } else if (word_int64(text, 0, 100000, &min) != 0) {
        return false;
    }
    *ms = (min * 60 + sec) * 1000;
    return true;
}

static void cmd_level(EngineContext *c, Words *cmd)
{
    int64_t mps, inc_s = 0, base;
    char *end = NULL;
    if (cmd->n != 4 || word_int64(cmd->w[1], 0, 100000, &mps) != 0 ||
        !parse_level_base(cmd->w[2], &base)) {
        eo_line(c->out, "Error (level expects MPS BASE INC, e.g. level 40 5 0 or level 0 2:30 "
                        "1): %s", cmd->n > 1 ? cmd->w[1] : "level");
        return;
    }
    double inc = strtod(cmd->w[3], &end);
    if (!*cmd->w[3] || *end || !(inc >= 0 && inc <= 100000)) {
        eo_line(c->out, "Error (level: the increment must be seconds >= 0): %s", cmd->w[3]);
        return;
    }
    inc_s = (int64_t)(inc * 1000.0);
    c->xb.mps = (int)mps;
    c->xb.base_ms = base;
    c->xb.inc_ms = inc_s;
    c->xb.movetime_ms = 0;
}

static void usermove(EngineContext *c, const char *text)
{
    /* A move while the engine thinks breaks the protocol's turn order: the engine's move is
     * made first (and printed), then this one is tried in the position after it. */
    session_stop(c->s);
    char err[SESSION_ERR_MAX];
    if (session_play(c->s, text, 0, err) != 0) {
        /* err is "'MOVE': why"; CECP wants "Illegal move (why): MOVE". */
        const char *why = strstr(err, "': ");
        eo_line(c->out, "Illegal move (%s): %s", why ? why + 3 : err, text);
        return;
    }
    maybe_think(c);
}

/* variant NAME: one of the shipped rule sets. */
static void set_variant(EngineContext *c, const char *name)
{
    const char *const *names;
    int n = session_variant_names(c->s, &names);
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name)) {
            char err[SESSION_ERR_MAX];
            int rc = session_set_variant(c->s, name, err);
            if (rc < 0)
                eo_line(c->out, "Error (variant %s: %s): variant", name, err);
            else if (rc > 0)
                eo_line(c->out, "tellusererror %s", err);
            return;
        }
    char list[2048];
    options_variant_list(c->s, ',', list, sizeof list);
    eo_line(c->out, "Error (unsupported variant; xqlab plays %s): %s", list, name);
}

static bool looks_like_move(const char *w)
{
    return islower((unsigned char)w[0]) && isdigit((unsigned char)w[1]);
}

bool xboard_command(EngineContext *c, Words *cmd)
{
    XboardState *x = &c->xb;
    const char *k = cmd->w[0];
    const char *arg = cmd->n > 1 ? cmd->w[1] : "";
    int64_t n = 0;
    if (!strcmp(k, "xboard")) {
        eo_line(c->out, "%s", "");
    } else if (!strcmp(k, "protover")) {
        x->protover = atoi(arg);
        send_features(c);
    } else if (!strcmp(k, "accepted") || !strcmp(k, "rejected") || !strcmp(k, "random") ||
               !strcmp(k, "computer") || !strcmp(k, "name") || !strcmp(k, "rating") ||
               !strcmp(k, "ics") || !strcmp(k, "hard") || !strcmp(k, "easy") ||
               !strcmp(k, "otim") || !strcmp(k, "draw") || !strcmp(k, "hint") ||
               !strcmp(k, "bk") || !strcmp(k, ".") || !strcmp(k, "egtpath")) {
        /* Accepted: nothing to do (no pondering, no draw offers accepted, no book, no hints;
         * the opponent's clock does not change the budget). */
    } else if (!strcmp(k, "new")) {
        session_abort(c->s);
        char err[SESSION_ERR_MAX];
        session_set_position(c->s, NULL, NULL, 0, 0, err);
        session_new_game(c->s);
        x->force = false;
        x->engine_side = BLACK;
        x->depth = 0;
        x->own_known = false;
    } else if (!strcmp(k, "variant")) {
        session_abort(c->s);
        set_variant(c, arg);
    } else if (!strcmp(k, "force")) {
        session_abort(c->s);
        x->force = true;
    } else if (!strcmp(k, "go")) {
        session_abort(c->s);
        const Position *pos = session_position(c->s);
        x->force = false;
        if (pos) {
            x->engine_side = pos->side;
            if (!claim_result(c))
                think(c);
        } else {
            eo_line(c->out, "Error (no position): %s", session_position_error(c->s));
        }
    } else if (!strcmp(k, "playother")) {
        session_abort(c->s);
        const Position *pos = session_position(c->s);
        x->force = false;
        if (pos)
            x->engine_side = pos->side == RED ? BLACK : RED;
    } else if (!strcmp(k, "white") || !strcmp(k, "black")) {
        /* Protocol 1: the side to move becomes White / Black, the engine plays the other. */
        session_abort(c->s);
        x->engine_side = !strcmp(k, "white") ? BLACK : RED;
    } else if (!strcmp(k, "level")) {
        cmd_level(c, cmd);
    } else if (!strcmp(k, "st")) {
        if (word_time_ms(arg, 1000.0, &n) != 0 || n <= 0)
            eo_line(c->out, "Error (st expects seconds per move above 0): %s", arg);
        else
            x->movetime_ms = n;
    } else if (!strcmp(k, "sd")) {
        if (word_int64(arg, 1, 1000, &n) != 0)
            eo_line(c->out, "Error (sd expects a depth from 1 to 1000): %s", arg);
        else
            x->depth = (int)n;
    } else if (!strcmp(k, "time")) {
        if (word_time_ms(arg, 10.0, &n) != 0) {
            eo_line(c->out, "Error (time expects centiseconds): %s", arg);
        } else {
            x->own_ms = n;
            x->own_known = true;
        }
    } else if (!strcmp(k, "usermove")) {
        if (cmd->n < 2)
            eo_line(c->out, "Error (usermove needs a move): usermove");
        else
            usermove(c, arg);
    } else if (!strcmp(k, "?")) {
        session_stop(c->s);
    } else if (!strcmp(k, "ping")) {
        eo_line(c->out, "pong %s", arg);
    } else if (!strcmp(k, "result")) {
        session_abort(c->s);
        x->force = true;
    } else if (!strcmp(k, "setboard")) {
        session_abort(c->s);
        char fen[1024], err[SESSION_ERR_MAX];
        words_join(cmd, 1, cmd->n, fen, sizeof fen);
        if (session_set_position(c->s, fen, NULL, 0, 0, err) != 0)
            eo_line(c->out, "tellusererror Illegal position: %s", err);
        else if (x->analyze)
            maybe_think(c);
    } else if (!strcmp(k, "undo") || !strcmp(k, "remove")) {
        session_abort(c->s);
        int back = !strcmp(k, "undo") ? 1 : 2;
        if (session_undo(c->s, back) != 0)
            eo_line(c->out, "Error (%s: fewer than %d moves were played): %s", k, back, k);
        else if (x->analyze)
            maybe_think(c);
    } else if (!strcmp(k, "post") || !strcmp(k, "nopost")) {
        x->post = !strcmp(k, "post");
    } else if (!strcmp(k, "analyze")) {
        session_abort(c->s);
        x->analyze = true;
        x->post = true;
        maybe_think(c);
    } else if (!strcmp(k, "exit")) {
        session_abort(c->s);
        x->analyze = false;
    } else if (!strcmp(k, "memory") || !strcmp(k, "cores")) {
        session_abort(c->s);
        char err[SESSION_ERR_MAX];
        if (word_int64(arg, 1, INT32_MAX, &n) != 0 ||
            (!strcmp(k, "memory") ? session_set_hash_mb(c->s, (int)n, err)
                                  : session_set_threads(c->s, (int)n, err)) != 0)
            eo_line(c->out, "Error (%s: expected %s): %s", k,
                    !strcmp(k, "memory") ? "megabytes from 1 to 7168" : "1 to 64 threads", arg);
    } else if (!strcmp(k, "option")) {
        session_abort(c->s);
        char text[4096];
        words_join(cmd, 1, cmd->n, text, sizeof text);
        char *eq = strchr(text, '=');
        if (eq)
            *eq = '\0';
        protocol_set_option(c, text, eq ? eq + 1 : NULL, "tellusererror");
    } else if (!strcmp(k, "d")) {
        if (session_searching(c->s))
            eo_line(c->out, "Error (d while thinking): d");
        else
            protocol_show(c, "#");
    } else if (!strcmp(k, "quit")) {
        session_abort(c->s);
        return false;
    } else if (looks_like_move(k) && cmd->n == 1) {
        usermove(c, k); /* protocol 1 sends moves without "usermove" */
    } else {
        eo_line(c->out, "Error (unknown command): %s", k);
    }
    return true;
}
