/* params.c - search and self-play tunables: defaults, strict parsing by name, run presets. */
#include "params.h"

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ini.h"

/* One row per parameter: the table drives set, write and the range messages, so a new field
 * needs one line here and nothing else. */
typedef struct ParamInfo {
    const char *name;
    ParamType type;
    size_t offset;
    double min, max;
    bool min_open;     /* the minimum itself is not allowed (a scale of 0 would divide by 0) */
    const char *const *choices; /* PARAM_CHOICE: the names of values 0 .. max */
} ParamInfo;

static const char *const SEARCH_NAMES[] = {"mcts", "ab"};

#define P_INT(field, lo, hi) {#field, PARAM_INT, offsetof(SearchParams, field), lo, hi, false, NULL}
#define P_DBL(field, lo, hi) {#field, PARAM_DOUBLE, offsetof(SearchParams, field), lo, hi, false, NULL}
#define P_POS(field, hi) {#field, PARAM_DOUBLE, offsetof(SearchParams, field), 0, hi, true, NULL}
#define P_BOOL(field) {#field, PARAM_BOOL, offsetof(SearchParams, field), 0, 1, false, NULL}
#define P_CHOICE(field, names)                                                                  \
    {#field, PARAM_CHOICE, offsetof(SearchParams, field), 0,                                   \
     (double)(sizeof names / sizeof names[0]) - 1, false, names}

/* max_plies stays well below XQ_MAX_HISTORY so a game plus the search path plus the capture
 * search always fits in the position's history. The arena must hold at least one full set of
 * root children. */
static const ParamInfo PARAMS[] = {
    P_INT(playouts, 1, 10000000),
    P_INT(movetime, 0, 86400000),
    P_POS(c_puct, 100),
    P_DBL(fpu_reduction, 0, 2),
    P_POS(dirichlet_alpha, 100),
    P_DBL(dirichlet_epsilon, 0, 1),
    P_INT(temperature_plies, 0, 1000),
    P_DBL(temperature, 0, 100),
    P_INT(qsearch_depth, 0, 32),
    P_INT(leaf_depth, 0, 8),
    P_BOOL(child_values),
    P_INT(child_top, 0, XQ_MAX_MOVES),
    P_DBL(child_margin, 0, 100),
    P_DBL(pv_prior, 0, 1),
    P_DBL(minimax_weight, 0, 1),
    P_INT(hash_mb, 1, 4096),
    P_POS(eval_scale, 1000),
    P_BOOL(reuse_tree),
    P_BOOL(early_stop),
    P_BOOL(seat_trees),
    P_DBL(resign_threshold, 0, 1),
    P_INT(resign_moves, 0, 1000),
    P_DBL(resign_disabled_fraction, 0, 1),
    P_INT(max_plies, 1, 3000),
    P_INT(arena_nodes, 512, 1 << 28),
    P_POS(prior_temperature, 100),
    P_DBL(prior_check_bonus, 0, 100),
    P_DBL(prior_see, 0, 10),
    P_BOOL(see_order),
    P_BOOL(see_prune),
    P_BOOL(cont_history),
    P_DBL(progress_pull, 0, 1),
    P_CHOICE(search, SEARCH_NAMES),
    P_INT(ab_depth, 1, 24),
    P_INT(ab_nodes, 0, 2000000000),
    P_DBL(ab_margin, 0, 100),
    P_POS(ab_temperature, 100),
};

enum { NPARAMS = (int)(sizeof PARAMS / sizeof PARAMS[0]) };

int params_count(void) { return NPARAMS; }

const char *params_name(int i) { return i >= 0 && i < NPARAMS ? PARAMS[i].name : NULL; }

void params_default(SearchParams *p)
{
    memset(p, 0, sizeof *p);
    p->search = SEARCH_MCTS;
    p->ab_depth = 6;
    p->ab_margin = 0.4;
    p->ab_temperature = 0.15;
    p->playouts = 200;
    p->c_puct = 1.5;
    p->fpu_reduction = 0.25;
    /* AlphaZero scales alpha inversely with the typical number of legal moves (0.3 for ~35 in
     * chess); xiangqi has ~40 moves per position. */
    p->dirichlet_alpha = 0.3;
    p->dirichlet_epsilon = 0.25;
    p->temperature_plies = 12;
    p->temperature = 1.0;
    p->qsearch_depth = 4;
    p->leaf_depth = 0;
    p->child_values = 0;
    p->child_top = 0;
    p->child_margin = 0;
    p->pv_prior = 0;
    p->minimax_weight = 0;
    p->hash_mb = 16;
    /* Pawns per unit of atanh(value). Measured against greedy at 400 playouts: a scale of 4
     * saturates once a side is a piece up (86% wins, many move-limit draws), 10 keeps material
     * gains visible to the search (98%). */
    p->eval_scale = 10.0;
    p->reuse_tree = 1;
    p->early_stop = 0;
    p->seat_trees = 0;
    p->resign_threshold = 0.95;
    p->resign_moves = 4;
    /* A share of games is played out to the end, to measure how often resignation was wrong. */
    p->resign_disabled_fraction = 0.1;
    p->max_plies = 400;
    p->arena_nodes = 1 << 19;
    p->prior_temperature = 2.0;
    p->prior_check_bonus = 2.0;
    p->prior_see = 0;
    p->see_order = 1;
    p->see_prune = 1;
    p->cont_history = 1;
    /* Leaf values shrink towards a draw as the natural move limit nears, so a side that is
     * ahead prefers lines that capture or mate over shuffling (a saturated evaluation gives no
     * other reason to make progress). */
    p->progress_pull = 0.5;
}

static int set_error(XqError *err, const char *fmt, const char *key, const ParamInfo *pi)
{
    if (!err)
        return -1;
    snprintf(err->file, sizeof err->file, "params");
    err->line = 0;
    if (!pi) {
        snprintf(err->message, sizeof err->message, fmt, key);
        return -1;
    }
    char range[96];
    if (pi->type == PARAM_CHOICE) {
        size_t used = (size_t)snprintf(range, sizeof range, "one of");
        for (int k = 0; k <= (int)pi->max && used < sizeof range; k++)
            used += (size_t)snprintf(range + used, sizeof range - used, "%s %s", k ? "," : "",
                                     pi->choices[k]);
    } else if (pi->type == PARAM_BOOL)
        snprintf(range, sizeof range, "0 or 1 (or yes/no, true/false)");
    else
        snprintf(range, sizeof range, "%s %s %g and <= %g",
                 pi->type == PARAM_INT ? "an integer" : "a number", pi->min_open ? ">" : ">=",
                 pi->min, pi->max);
    snprintf(err->message, sizeof err->message, "%s: expected %s", key, range);
    return -1;
}

static const ParamInfo *find_param(const char *key)
{
    for (int i = 0; i < NPARAMS; i++)
        if (strcmp(PARAMS[i].name, key) == 0)
            return &PARAMS[i];
    return NULL;
}

static int parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};
    for (int i = 0; i < 4; i++) {
        if (strcmp(s, yes[i]) == 0)
            return *out = 1, 0;
        if (strcmp(s, no[i]) == 0)
            return *out = 0, 0;
    }
    return -1;
}

int params_set(SearchParams *p, const char *key, const char *value, XqError *err)
{
    const ParamInfo *pi = find_param(key);
    if (!pi)
        return set_error(err, "unknown search parameter '%s'", key, NULL);
    char *base = (char *)p + pi->offset;
    if (pi->type == PARAM_CHOICE) {
        for (int k = 0; k <= (int)pi->max; k++)
            if (strcmp(value, pi->choices[k]) == 0) {
                memcpy(base, &k, sizeof k);
                return 0;
            }
        return set_error(err, NULL, key, pi);
    }
    if (pi->type == PARAM_BOOL) {
        int b;
        if (parse_bool(value, &b) != 0)
            return set_error(err, NULL, key, pi);
        memcpy(base, &b, sizeof b);
        return 0;
    }
    errno = 0;
    char *end = NULL;
    double d;
    if (pi->type == PARAM_INT) {
        long l = strtol(value, &end, 10);
        d = (double)l;
    } else {
        d = strtod(value, &end);
    }
    if (end == value || *end != '\0' || errno == ERANGE || !isfinite(d) || d < pi->min ||
        (pi->min_open && d == pi->min) || d > pi->max)
        return set_error(err, NULL, key, pi);
    if (pi->type == PARAM_INT) {
        int i = (int)d;
        memcpy(base, &i, sizeof i);
    } else {
        memcpy(base, &d, sizeof d);
    }
    return 0;
}

int params_load_file(SearchParams *p, const char *path, XqError *err)
{
    char *text = ini_read_file(path, err);
    if (!text)
        return -1;
    IniFile ini;
    int rc = ini_parse(&ini, text, path, err);
    free(text);
    if (rc != 0)
        return -1;
    /* Other sections belong to other modules (the self-play driver's own keys). */
    for (int i = 0; i < ini.count; i++) {
        const IniEntry *e = &ini.entries[i];
        if (strcmp(e->section, "search") != 0)
            continue;
        if (params_set(p, e->key, e->value, err) != 0) {
            snprintf(err->file, sizeof err->file, "%s", path);
            err->line = e->line;
            rc = -1;
            break;
        }
    }
    ini_free(&ini);
    return rc;
}

/* Shortest decimal that reads back to the same double, so provenance replays exactly. */
static void format_double(double d, char *buf, size_t size)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}

int params_range(int i, ParamRange *out)
{
    if (i < 0 || i >= NPARAMS)
        return -1;
    out->type = PARAMS[i].type;
    out->min = PARAMS[i].min;
    out->max = PARAMS[i].max;
    out->min_open = PARAMS[i].min_open;
    return 0;
}

const char *params_choice(int i, int k)
{
    if (i < 0 || i >= NPARAMS || PARAMS[i].type != PARAM_CHOICE || k < 0 || k > (int)PARAMS[i].max)
        return NULL;
    return PARAMS[i].choices[k];
}

void params_format(const SearchParams *p, int i, char *buf, size_t size)
{
    assert(i >= 0 && i < NPARAMS);
    const ParamInfo *pi = &PARAMS[i];
    const char *base = (const char *)p + pi->offset;
    if (pi->type == PARAM_DOUBLE) {
        double d;
        memcpy(&d, base, sizeof d);
        format_double(d, buf, size);
    } else if (pi->type == PARAM_CHOICE) {
        int n;
        memcpy(&n, base, sizeof n);
        snprintf(buf, size, "%s", n >= 0 && n <= (int)pi->max ? pi->choices[n] : "?");
    } else {
        int n;
        memcpy(&n, base, sizeof n);
        snprintf(buf, size, "%d", n);
    }
}

void params_write(const SearchParams *p, char *buf, size_t size)
{
    size_t used = 0;
    if (size > 0)
        buf[0] = '\0';
    for (int i = 0; i < NPARAMS && used < size; i++) {
        char val[40];
        params_format(p, i, val, sizeof val);
        int w = snprintf(buf + used, size - used, "%s = %s\n", PARAMS[i].name, val);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}
