/* options.c - the option table shared by UCI, UCCI and XBoard. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parameters that only self-play uses: root noise, sampling temperature, resignation, the game
 * length cap, per-seat trees; arena_nodes is the Hash option here. */
static bool selfplay_only(const char *name)
{
    static const char *const skip[] = {
        "dirichlet_alpha", "dirichlet_epsilon", "temperature_plies", "temperature", "seat_trees",
        "resign_threshold", "resign_moves", "resign_disabled_fraction", "max_plies", "arena_nodes",
    };
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (!strcmp(name, skip[i]))
            return true;
    return false;
}

static void add(OptionTable *t, const char *name, const char *ucci, OptionType type, OptionId id,
                double min, double max, bool uci, bool ucci_on, bool xboard)
{
    if (t->count >= OPTIONS_MAX)
        return;
    EngineOption *o = &t->opt[t->count++];
    o->name = name;
    o->ucci_name = ucci;
    o->type = type;
    o->id = id;
    o->param = -1;
    o->min = min;
    o->max = max;
    o->protocols[PROTOCOL_UCI] = uci;
    o->protocols[PROTOCOL_UCCI] = ucci_on;
    o->protocols[PROTOCOL_XBOARD] = xboard;
}

void options_build(OptionTable *t)
{
    t->count = 0;
    /* The hash bound: the largest arena a thread may have, 2^28 nodes of MCTS_NODE_BYTES. */
    double hash_max = (double)(((long long)1 << 28) * MCTS_NODE_BYTES / (1024 * 1024));
    /* XBoard chooses the rule set with its `variant` command and memory / cores with its own. */
    add(t, "UCI_Variant", "variant", OPT_COMBO, OPT_VARIANT, 0, 0, true, true, false);
    add(t, "VariantFile", "variantfile", OPT_STRING, OPT_VARIANT_FILE, 0, 0, true, true, true);
    add(t, "WeightsFile", "weightsfile", OPT_STRING, OPT_WEIGHTS, 0, 0, true, true, true);
    add(t, "Threads", "threads", OPT_SPIN, OPT_THREADS, 1, 64, true, true, false);
    add(t, "Hash", "hashsize", OPT_SPIN, OPT_HASH, 1, hash_max, true, true, false);
    add(t, "MoveOverhead", "moveoverhead", OPT_SPIN, OPT_OVERHEAD, 0, 10000, true, true, true);
    add(t, "InfoInterval", "infointerval", OPT_SPIN, OPT_INFO_INTERVAL, 10, 60000, true, true, true);
    add(t, "RanksFromOne", "ranksfromone", OPT_CHECK, OPT_RANKS, 0, 1, true, false, false);
    add(t, "usemillisec", "usemillisec", OPT_CHECK, OPT_MILLISEC, 0, 1, false, true, false);
    add(t, "newgame", "newgame", OPT_BUTTON, OPT_NEW_GAME, 0, 0, false, true, false);
    for (int i = 0; i < params_count(); i++) {
        const char *name = params_name(i);
        ParamRange r;
        if (selfplay_only(name) || params_range(i, &r) != 0)
            continue;
        /* A choice (search = mcts | ab) is a string option checked by params_set. */
        OptionType type = r.type == PARAM_BOOL ? OPT_CHECK : r.type == PARAM_INT ? OPT_SPIN
                                                                                  : OPT_STRING;
        add(t, name, name, type, OPT_PARAM, r.min, r.max, true, true, true);
        t->opt[t->count - 1].param = i;
    }
}

const EngineOption *options_find(const OptionTable *t, Protocol proto, const char *name)
{
    for (int i = 0; i < t->count; i++) {
        const EngineOption *o = &t->opt[i];
        if (!o->protocols[proto])
            continue;
        if (!strcasecmp(proto == PROTOCOL_UCCI ? o->ucci_name : o->name, name))
            return o;
    }
    return NULL;
}

void options_variant_list(Session *s, char sep, char *buf, size_t size)
{
    const char *const *names;
    int n = session_variant_names(s, &names);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + 1 < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? (char[]){sep, 0} : "",
                                 names[i]);
}

void options_value(const EngineOption *o, Session *s, const OptionState *st, char *buf,
                   size_t size)
{
    buf[0] = '\0';
    switch (o->id) {
    case OPT_VARIANT: snprintf(buf, size, "%s", session_variant(s)->name); break;
    case OPT_VARIANT_FILE: snprintf(buf, size, "%s", st->variant_file); break;
    case OPT_WEIGHTS: snprintf(buf, size, "%s", session_weights(s)); break;
    case OPT_THREADS: snprintf(buf, size, "%d", session_threads(s)); break;
    case OPT_HASH: snprintf(buf, size, "%d", session_hash_mb(s)); break;
    case OPT_OVERHEAD: snprintf(buf, size, "%d", session_overhead(s)); break;
    case OPT_INFO_INTERVAL: snprintf(buf, size, "%d", session_info_interval(s)); break;
    case OPT_RANKS: snprintf(buf, size, "%s", st->rank_base ? "true" : "false"); break;
    case OPT_MILLISEC: snprintf(buf, size, "%s", st->millisec ? "true" : "false"); break;
    case OPT_NEW_GAME: break;
    case OPT_PARAM: {
        params_format(session_params(s), o->param, buf, size);
        ParamRange r;
        params_range(o->param, &r);
        if (r.type == PARAM_BOOL)
            snprintf(buf, size, "%s", strcmp(buf, "0") ? "true" : "false");
        break;
    }
    }
}

static const char *type_word(OptionType t)
{
    static const char *const words[] = {"check", "spin", "combo", "string", "button"};
    return words[t];
}

void options_print(const OptionTable *t, Protocol proto, Session *s, const OptionState *st,
                   EngineOutput *out)
{
    char value[1100], vars[4096], line[6000];
    for (int i = 0; i < t->count; i++) {
        const EngineOption *o = &t->opt[i];
        if (!o->protocols[proto])
            continue;
        options_value(o, s, st, value, sizeof value);
        const char *name = proto == PROTOCOL_UCCI ? o->ucci_name : o->name;
        if (proto == PROTOCOL_XBOARD) {
            /* CECP: -check 0/1, -spin DEF MIN MAX, -string DEF, -button. */
            if (o->type == OPT_CHECK)
                snprintf(line, sizeof line, "feature option=\"%s -check %d\"", name,
                         !strcmp(value, "true"));
            else if (o->type == OPT_SPIN)
                snprintf(line, sizeof line, "feature option=\"%s -spin %s %.0f %.0f\"", name,
                         value, o->min, o->max);
            else
                snprintf(line, sizeof line, "feature option=\"%s -%s %s\"", name,
                         o->type == OPT_BUTTON ? "button" : "string", value);
            eo_line(out, "%s", line);
            continue;
        }
        /* UCI: "option name N type T default D [min A max B] [var V]..."; UCCI drops "name". */
        int n = snprintf(line, sizeof line, "option %s%s type %s", proto == PROTOCOL_UCI ?
                         "name " : "", name, type_word(o->type));
        if (o->type != OPT_BUTTON)
            n += snprintf(line + n, sizeof line - (size_t)n, " default %s",
                          value[0] ? value : "<empty>");
        if (o->type == OPT_SPIN)
            n += snprintf(line + n, sizeof line - (size_t)n, " min %.0f max %.0f", o->min, o->max);
        if (o->type == OPT_COMBO) {
            const char *const *names;
            int k = session_variant_names(s, &names);
            size_t used = 0;
            vars[0] = '\0';
            for (int j = 0; j < k && used < sizeof vars; j++)
                used += (size_t)snprintf(vars + used, sizeof vars - used, " var %s", names[j]);
            snprintf(line + n, sizeof line - (size_t)n, "%s", vars);
        }
        eo_line(out, "%s", line);
    }
}

/* Writes a message for the caller, cut at SESSION_ERR_MAX bytes. */
static void set_msg(char *msg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, SESSION_ERR_MAX, fmt, ap);
    va_end(ap);
}

/* true / false (also 1 / 0, on / off, yes / no, which XBoard and scripts send). */
static int parse_check(const char *v, bool *out)
{
    static const char *const yes[] = {"true", "1", "on", "yes"};
    static const char *const no[] = {"false", "0", "off", "no"};
    for (int i = 0; i < 4; i++) {
        if (!strcasecmp(v, yes[i]))
            return *out = true, 0;
        if (!strcasecmp(v, no[i]))
            return *out = false, 0;
    }
    return -1;
}

static int parse_spin(const EngineOption *o, const char *v, int *out, char *msg)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < o->min || x > o->max) {
        set_msg(msg, "%s: expected an integer from %.0f to %.0f, not '%s'",
                 o->name, o->min, o->max, v);
        return -1;
    }
    *out = (int)x;
    return 0;
}

int options_set(const EngineOption *o, Session *s, OptionState *st, const char *value,
                char *msg)
{
    msg[0] = '\0';
    int n = 0;
    bool b = false;
    char err[SESSION_ERR_MAX];
    if (o->type == OPT_CHECK && parse_check(value, &b) != 0) {
        set_msg(msg, "%s: expected true or false, not '%s'", o->name, value);
        return -1;
    }
    if (o->type == OPT_SPIN && parse_spin(o, value, &n, msg) != 0)
        return -1;
    switch (o->id) {
    case OPT_VARIANT: {
        const char *const *names;
        int k = session_variant_names(s, &names);
        const char *found = NULL;
        for (int i = 0; i < k; i++)
            if (!strcasecmp(names[i], value))
                found = names[i];
        if (!found) {
            char list[2048];
            options_variant_list(s, ' ', list, sizeof list);
            set_msg(msg, "UCI_Variant: unknown rule set '%s' (one of: %s)",
                     value, list);
            return -1;
        }
        int rc = session_set_variant(s, found, err);
        if (rc < 0) {
            set_msg(msg, "UCI_Variant %s: %s", found, err);
            return -1;
        }
        st->variant_file[0] = '\0';
        if (rc > 0)
            set_msg(msg, "%s", err);
        return rc;
    }
    case OPT_VARIANT_FILE: {
        if (!*value || !strcmp(value, "<empty>")) {
            st->variant_file[0] = '\0';
            return 0;
        }
        int rc = session_set_variant(s, value, err);
        if (rc < 0) {
            set_msg(msg, "VariantFile: %s", err);
            return -1;
        }
        snprintf(st->variant_file, sizeof st->variant_file, "%s", value);
        if (rc > 0)
            set_msg(msg, "%s", err);
        return rc;
    }
    case OPT_WEIGHTS:
        if (session_set_weights(s, strcmp(value, "<empty>") ? value : "", err) != 0) {
            set_msg(msg, "WeightsFile: %s", err);
            return -1;
        }
        return 0;
    case OPT_THREADS: return session_set_threads(s, n, msg);
    case OPT_HASH: return session_set_hash_mb(s, n, msg);
    case OPT_OVERHEAD: return session_set_overhead(s, n, msg);
    case OPT_INFO_INTERVAL: return session_set_info_interval(s, n, msg);
    case OPT_RANKS: st->rank_base = b ? 1 : 0; return 0;
    case OPT_MILLISEC: st->millisec = b; return 0;
    case OPT_NEW_GAME: session_new_game(s); return 0;
    case OPT_PARAM:
        if (session_set_param(s, o->name, o->type == OPT_CHECK ? (b ? "1" : "0") : value, err)
            != 0) {
            set_msg(msg, "%s", err);
            return -1;
        }
        return 0;
    }
    return -1;
}
