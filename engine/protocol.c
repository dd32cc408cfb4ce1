/* protocol.c - command words, numbers and option setting shared by the protocol front ends. */
#include "protocol.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int words_split(Words *words, char *line)
{
    words->n = 0;
    for (char *p = line;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        if (words->n == words->cap) {
            int cap = words->cap ? 2 * words->cap : 64;
            char **w = realloc(words->w, (size_t)cap * sizeof *w);
            if (!w)
                return -1;
            words->w = w;
            words->cap = cap;
        }
        words->w[words->n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
    return 0;
}

void words_free(Words *words)
{
    free(words->w);
    words->w = NULL;
    words->n = words->cap = 0;
}

void words_join(const Words *words, int from, int to, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = from; i < to && used + 1 < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i > from ? " " : "", words->w[i]);
}

int word_int64(const char *text, int64_t min, int64_t max, int64_t *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(text, &end, 10);
    if (!*text || *end || errno || x < min || x > max)
        return -1;
    *out = x;
    return 0;
}

int word_time_ms(const char *text, double unit_ms, int64_t *out)
{
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (!*text || *end || errno || !isfinite(x) || x * unit_ms > 1e12)
        return -1;
    /* Some GUIs send a negative remaining time once a clock ran out: nothing is left. */
    *out = x < 0 ? 0 : (int64_t)(x * unit_ms);
    return 0;
}

void protocol_set_option(EngineContext *c, const char *name, const char *value,
                         const char *error_prefix)
{
    const EngineOption *o = options_find(&c->options, c->protocol, name);
    if (!o) {
        eo_line(c->out, "%s error: unknown option '%s' (the %s command lists them)", error_prefix,
                name, c->protocol == PROTOCOL_UCI ? "uci" : c->protocol == PROTOCOL_UCCI ? "ucci"
                                                                                         : "protover");
        return;
    }
    if (!value && o->type != OPT_BUTTON) {
        eo_line(c->out, "%s error: option '%s' needs a value", error_prefix, name);
        return;
    }
    char msg[SESSION_ERR_MAX];
    int rc = options_set(o, c->s, &c->st, value ? value : "", msg);
    if (rc < 0)
        eo_line(c->out, "%s error: %s", error_prefix, msg);
    else if (rc > 0)
        eo_line(c->out, "%s %s", error_prefix, msg);
}

void protocol_position(EngineContext *c, Words *cmd, const char *error_prefix)
{
    int i = 1;
    char fen[1024];
    bool has_fen = false;
    if (i < cmd->n && !strcmp(cmd->w[i], "startpos")) {
        i++;
    } else if (i < cmd->n && !strcmp(cmd->w[i], "fen")) {
        int end = i + 1;
        while (end < cmd->n && strcmp(cmd->w[end], "moves"))
            end++;
        if (end == i + 1) {
            eo_line(c->out, "%s error: position fen: the FEN is missing", error_prefix);
            session_invalidate(c->s, "the last position command was refused");
            return;
        }
        words_join(cmd, i + 1, end, fen, sizeof fen);
        has_fen = true;
        i = end;
    } else {
        eo_line(c->out, "%s error: position: expected 'startpos' or 'fen FEN', not '%s'",
                error_prefix, i < cmd->n ? cmd->w[i] : "");
        session_invalidate(c->s, "the last position command was refused");
        return;
    }
    int first_move = cmd->n;
    if (i < cmd->n) {
        if (strcmp(cmd->w[i], "moves")) {
            eo_line(c->out, "%s error: position: expected 'moves' after the position, not '%s'",
                    error_prefix, cmd->w[i]);
            session_invalidate(c->s, "the last position command was refused");
            return;
        }
        first_move = i + 1;
    }
    char err[SESSION_ERR_MAX];
    if (session_set_position(c->s, has_fen ? fen : NULL, cmd->w + first_move, cmd->n - first_move,
                             c->st.rank_base, err) != 0)
        eo_line(c->out, "%s error: position: %s", error_prefix, err);
}

void protocol_show(EngineContext *c, const char *prefix)
{
    const Position *pos = session_position(c->s);
    if (!pos) {
        eo_line(c->out, "%s error: no position: %s", prefix, session_position_error(c->s));
        return;
    }
    char fen[1024], status[128];
    pos_get_fen(pos, fen, sizeof fen);
    game_status_format(session_status(c->s), status, sizeof status);
    eo_line(c->out, "%s variant %s", prefix, session_variant(c->s)->name);
    eo_line(c->out, "%s weights %s", prefix, session_weights_line(c->s));
    eo_line(c->out, "%s fen %s", prefix, fen);
    eo_line(c->out, "%s status %s", prefix, status);
}
