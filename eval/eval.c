/* eval.c - the evaluator object: weights from a weights file over the generated features
 * (eval_features.c), folded into a piece-square table and per-kind weights for the score
 * (eval_score.c). */
#include "eval_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "ini.h"
#include "walk.h"
#include "weights_choice.h"

static void set_error(XqError *err, const char *file, int line, const char *msg)
{
    if (!err)
        return;
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = line;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

/* Rebuilds the tables derived from the weights. */
static void rebuild(Evaluator *e)
{
    const Variant *v = e->v;
    memset(e->pst, 0, sizeof e->pst);
    memset(e->mobility_weight, 0, sizeof e->mobility_weight);
    memset(e->value, 0, sizeof e->value);
    memset(e->holding_weight, 0, sizeof e->holding_weight);
    memset(e->late_weight, 0, sizeof e->late_weight);
    memset(e->attack_weight, 0, sizeof e->attack_weight);
    memset(e->attackers_weight, 0, sizeof e->attackers_weight);
    memset(e->align_weight, 0, sizeof e->align_weight);
    memset(e->threat_weight, 0, sizeof e->threat_weight);
    memset(e->defended_weight, 0, sizeof e->defended_weight);
    memset(e->pair_weight, 0, sizeof e->pair_weight);
    memset(e->check_weight, 0, sizeof e->check_weight);
    e->pressure_weight = e->in_check_weight = e->side_weight = e->fork_weight = 0;
    e->hidden_weight = e->danger_weight = 0;
    e->need_reach = e->need_count = e->need_align = e->need_attackers = false;
    e->need_danger = e->need_check = false;
    for (int i = 0; i < e->nfeatures; i++) {
        const Feature *f = &e->features[i];
        double w = e->weights[i];
        switch (f->type) {
        case FEAT_MATERIAL:
            e->value[f->kind] = w;
            for (int s = 0; s < 2; s++)
                for (int p = 0; p < v->npoints; p++)
                    e->pst[XQ_PIECE(s, f->kind)][p] += s == RED ? w : -w;
            break;
        case FEAT_ZONE:
            for (int s = 0; s < 2; s++) {
                const PointSet *z = &v->zones[f->zone].points[f->their ? XQ_OTHER((Side)s) : (Side)s];
                for (int p = 0; p < v->npoints; p++)
                    if (pointset_has(z, (Point)p))
                        e->pst[XQ_PIECE(s, f->kind)][p] += s == RED ? w : -w;
            }
            break;
        case FEAT_POINT:
            /* Red's point and its image; Black's pieces on their mirrors across the river. */
            for (int j = 0; j < 2; j++)
                if (f->point[j] != XQ_NO_POINT) {
                    e->pst[XQ_PIECE(RED, f->kind)][f->point[j]] += w;
                    e->pst[XQ_PIECE(BLACK, f->kind)][v->mirror[f->point[j]]] -= w;
                }
            break;
        case FEAT_MOBILITY:
            e->mobility_weight[f->kind] = w;
            break;
        case FEAT_PRESSURE:
            e->pressure_weight = w;
            break;
        case FEAT_IN_CHECK:
            e->in_check_weight = w;
            break;
        case FEAT_SIDE:
            e->side_weight = w;
            break;
        case FEAT_HOLDING:
            e->holding_weight[f->holding] = w;
            break;
        case FEAT_HIDDEN:
            e->hidden_weight = w;
            break;
        case FEAT_LATE:
            e->late_weight[f->kind] = w;
            e->need_count |= w != 0;
            break;
        case FEAT_PAIR:
            e->pair_weight[f->kind] = w;
            e->need_count |= w != 0;
            break;
        case FEAT_ATTACK:
            e->attack_weight[f->kind] = w;
            break;
        case FEAT_ATTACKERS:
            e->attackers_weight[f->count] = w;
            e->need_attackers |= w != 0;
            break;
        case FEAT_ALIGN:
            e->align_weight[f->kind][f->count] = w;
            e->need_align |= w != 0;
            break;
        case FEAT_THREAT:
            e->threat_weight[f->kind] = w;
            e->need_reach |= w != 0;
            break;
        case FEAT_FORK:
            e->fork_weight = w;
            e->need_reach |= w != 0;
            break;
        case FEAT_DEFENDED:
            e->defended_weight[f->kind] = w;
            e->need_reach |= w != 0;
            break;
        case FEAT_DANGER:
            e->danger_weight = w;
            e->need_danger = w != 0;
            break;
        case FEAT_CHECK:
            e->check_weight[f->kind] = w;
            e->need_check |= w != 0;
            break;
        }
    }
    /* A kind whose moves carry no weight is skipped by the score (not by eval_features); a
     * kind whose check threats carry one is walked from anywhere (any move may give check). */
    for (int k = 0; k < v->nkinds; k++)
        e->walk_kind[k] = e->mobility_weight[k] != 0 || e->attack_weight[k] != 0 ||
                          e->pressure_weight != 0 || e->check_weight[k] != 0;
    /* Moves near the enemy royal piece count in attack, pressure, attackers and danger; a kind
     * none of whose moves can land there adds nothing to them. */
    bool every_attacker = e->need_attackers || e->need_danger;
    bool press = e->pressure_weight != 0 || every_attacker;
    for (int k = 0; k < v->nkinds; k++)
        e->walk_fallback[k] = e->walk_kind[k] || every_attacker;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < v->nkinds; k++)
            e->walk_press[s][k] = e->mobility_weight[k] != 0 || e->check_weight[k] != 0 ||
                                  ((press || e->attack_weight[k] != 0) && e->can_press[s][k]);
}

/* Does some move of table t (from any point, blocks ignored) land in `area`? */
static bool table_lands_in(const Variant *v, const MoveTable *t, const PointSet *area)
{
    for (int i = 0; i < t->leap_count; i++)
        if (pointset_has(area, v->leaps[t->leap_first + i].to))
            return true;
    for (int j = 0; j < t->ray_count; j++) {
        const Ray *r = &v->rays[t->ray_first + j];
        for (int k = 0; k < r->len; k++)
            if (pointset_has(area, v->ray_points[r->first + k]))
                return true;
    }
    return false;
}

/* royal_zone and can_press (see eval_private.h), from the variant file. */
static void init_press_tables(Evaluator *e)
{
    const Variant *v = e->v;
    for (int s = 0; s < 2; s++) {
        PointSet *z = &e->royal_zone[s];
        memset(z, 0, sizeof *z);
        for (int k = 0; k < v->nkinds; k++)
            if (v->kinds[k].royal)
                for (int p = 0; p < v->npoints; p++)
                    if (variant_in_zone(v, v->kinds[k].stand_zone, (Side)s, (Point)p))
                        pointset_add(z, (Point)p);
    }
    for (int s = 0; s < 2; s++) {
        /* Points near the other side's royal piece standing anywhere in its zone. */
        Side them = XQ_OTHER((Side)s);
        PointSet area;
        memset(&area, 0, sizeof area);
        for (int p = 0; p < v->npoints; p++)
            if (pointset_has(&e->royal_zone[them], (Point)p))
                for (int w = 0; w < 4; w++)
                    area.w[w] |= e->near[them][p].w[w];
        for (int k = 0; k < v->nkinds; k++) {
            bool can = false;
            for (int p = 0; p < v->npoints && !can; p++) {
                can = table_lands_in(v, &v->table[k][s][p], &area);
                if (!can && v->powered)
                    can = table_lands_in(v, &v->powered[k][s][p], &area);
            }
            e->can_press[s][k] = can;
        }
    }
}

/* Default weights: material from the variant's piece values, a holding at its module's share
 * of the kind's value, the expected material of face-down pieces at 1 (it is already in piece
 * values; the face-down kind's own material weight is then 0, so a face-down piece is worth
 * what its pool is worth now rather than the fixed value of the variant file), everything
 * else 0. */
static void default_weights(Evaluator *e)
{
    const Variant *v = e->v;
    for (int i = 0; i < e->nfeatures; i++) {
        const Feature *f = &e->features[i];
        double value = f->kind >= 0 ? v->kinds[f->kind].value : 0;
        if (f->type == FEAT_MATERIAL && hidden_on(v) && f->kind == v->hidden.hidden_kind)
            value = 0;
        e->weights[i] = f->type == FEAT_MATERIAL  ? value
                        : f->type == FEAT_HOLDING ? value * e->holdings[f->holding].worth
                        : f->type == FEAT_HIDDEN  ? 1
                                                  : 0;
    }
}

double eval_hidden_expected(const Position *pos)
{
    const Variant *v = pos->v;
    if (!hidden_on(v))
        return 0;
    /* Every unrevealed identity is equally likely (hidden.h), so a face-down piece of colour c is
     * worth the mean value of c's pool. */
    double sum[2] = {0, 0};
    int n[2] = {0, 0};
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < HIDDEN_POOL_KINDS && k < v->nkinds; k++) {
            int m = hidden_pool(pos, (Side)c, k);
            n[c] += m;
            sum[c] += m * v->kinds[k].value;
        }
    if (v->hidden.mode == HIDDEN_JIEQI) {
        /* RULES.md 2: a seat's face-down pieces are its own colour. */
        double out = 0;
        for (int s = 0; s < 2; s++) {
            int down = 0;
            for (int i = 0; i < pos->count[s]; i++)
                down += hidden_is_down(v, pos->board[pos->list[s][i]]);
            if (n[s])
                out += (s == RED ? 1 : -1) * down * sum[s] / n[s];
        }
        return out;
    }
    /* RULES.md 3, 4, 5: one shared pool; a face-down piece turns up either colour and then
     * belongs to that colour's seat. Before the first reveal assigns colours: 0. */
    int c0 = hidden_seat_colour(pos, RED);
    if (c0 < 0 || n[0] + n[1] == 0)
        return 0;
    return hidden_down_count(pos) * (sum[c0] - sum[1 - c0]) / (n[0] + n[1]);
}

static int find_feature(const Evaluator *e, const char *name)
{
    for (int i = 0; i < e->nfeatures; i++)
        if (strcmp(e->features[i].name, name) == 0)
            return i;
    return -1;
}

/* The [net] section: `file` (relative to the weights file's folder unless absolute) and
 * `checksum` (16 hex digits; when given, the file must have it, so a weights text recorded in a
 * dataset names exactly one network). */
static int load_net(Evaluator *e, const char *path, const IniEntry *file, const IniEntry *sum,
                    XqError *err)
{
    char msg[XQ_MSG_MAX];
    if (!file) {
        set_error(err, path, sum->line, "[net] has a checksum but no file");
        return -1;
    }
    uint64_t want = 0;
    if (sum) {
        char *end = NULL;
        errno = 0;
        want = strtoull(sum->value, &end, 16);
        if (end == sum->value || *end || errno == ERANGE || strlen(sum->value) != 16) {
            snprintf(msg, sizeof msg, "checksum: expected 16 hex digits, got '%.64s'", sum->value);
            set_error(err, path, sum->line, msg);
            return -1;
        }
    }
    char full[4096];
    const char *slash = strrchr(path, '/');
    if (file->value[0] == '/' || !slash)
        snprintf(full, sizeof full, "%s", file->value);
    else
        snprintf(full, sizeof full, "%.*s/%s", (int)(slash - path), path, file->value);
    XqError nerr;
    Net *n = net_load(full, &nerr);
    if (!n) {
        snprintf(msg, sizeof msg, "[net] file %.80s (relative to the weights file's folder): %.90s", full,
                 nerr.message);
        set_error(err, path, file->line, msg);
        return -1;
    }
    if (sum && n->checksum != want) {
        snprintf(msg, sizeof msg, "[net] file %.80s has checksum %016llx, not %.20s: another network than "
                 "the one these weights name", full,
                 (unsigned long long)n->checksum, sum->value);
        set_error(err, path, sum->line, msg);
        net_free(n);
        return -1;
    }
    if (!net_fits(n, e->v)) {
        /* Weights chosen for their features may come from a rule set with other pieces: the
         * linear weights apply by name, the network does not (weights_describe says so). */
        snprintf(e->net_left_out, sizeof e->net_left_out, "%s", n->variant);
        net_free(n);
        return 0;
    }
    eval_set_net(e, n, file->value);
    snprintf(e->net_path, sizeof e->net_path, "%s", full);
    return 0;
}

static int load_weights(Evaluator *e, const char *path, XqError *err)
{
    char *text = ini_read_file(path, err);
    if (!text)
        return -1;
    IniFile ini;
    int rc = ini_parse(&ini, text, path, err);
    free(text);
    if (rc != 0)
        return -1;
    bool seen[EVAL_MAX_FEATURES] = {false};
    char msg[XQ_MSG_MAX];
    const IniEntry *net_file = NULL, *net_sum = NULL;
    for (int i = 0; i < ini.count && rc == 0; i++) {
        const IniEntry *en = &ini.entries[i];
        if (strcmp(en->section, "net") == 0) {
            const IniEntry **slot = !strcmp(en->key, "file") ? &net_file
                                    : !strcmp(en->key, "checksum") ? &net_sum : NULL;
            if (!slot) {
                snprintf(msg, sizeof msg, "unknown key '%.48s' in [net] (it has file and checksum)",
                         en->key);
                set_error(err, path, en->line, msg);
                rc = -1;
            } else if (*slot) {
                snprintf(msg, sizeof msg, "'%.48s' set twice in [net]", en->key);
                set_error(err, path, en->line, msg);
                rc = -1;
            }
            if (slot)
                *slot = en;
            continue;
        }
        if (strcmp(en->section, "weights") != 0) {
            snprintf(msg, sizeof msg,
                     "unknown section [%.64s] (a weights file has [weights] and an optional [net])",
                     en->section);
            set_error(err, path, en->line, msg);
            rc = -1;
            break;
        }
        int f = find_feature(e, en->key);
        if (f < 0) {
            snprintf(msg, sizeof msg,
                     "unknown feature '%.48s' for variant %.24s (families: material, zone, pst, "
                     "mobility, safety, side, late, attack, align, threat, defended, pair, "
                     "check, camp; docs/training.md)",
                     en->key, e->v->name);
            set_error(err, path, en->line, msg);
            rc = -1;
            break;
        }
        if (seen[f]) {
            snprintf(msg, sizeof msg, "feature '%.64s' set twice", en->key);
            set_error(err, path, en->line, msg);
            rc = -1;
            break;
        }
        seen[f] = true;
        errno = 0;
        char *end = NULL;
        double w = strtod(en->value, &end);
        if (end == en->value || *end != '\0' || errno == ERANGE || !isfinite(w)) {
            snprintf(msg, sizeof msg, "%.64s: expected a finite number, got '%.64s'", en->key,
                     en->value);
            set_error(err, path, en->line, msg);
            rc = -1;
            break;
        }
        e->weights[f] = w;
    }
    if (rc == 0 && (net_file || net_sum))
        rc = load_net(e, path, net_file, net_sum, err);
    ini_free(&ini);
    return rc;
}

/* The parts of the evaluator fixed by the variant file alone. */
static void init_variant_tables(Evaluator *e)
{
    const Variant *v = e->v;
    /* "Near the royal piece": its point and the points one step away along drawn lines. */
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < v->npoints; p++) {
            PointSet *ns = &e->near[s][p];
            pointset_add(ns, (Point)p);
            for (int d = 0; d < DIR_COUNT; d++)
                if (v->neighbor[p][d] != XQ_NO_POINT)
                    pointset_add(ns, v->neighbor[p][d]);
        }
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < v->npoints; p++) {
            int n = 0;
            for (int q = 0; q < v->npoints; q++)
                if (pointset_has(&e->near[s][p], (Point)q) && n < 1 + DIR_COUNT)
                    e->near_list[s][p][n++] = (Point)q;
            e->near_count[s][p] = (uint8_t)n;
        }
    e->tables_vary = variant_tables_vary(v);
    /* Value ranks for "attacked by a piece of lower value": kinds of equal value share a rank,
     * royal pieces rank above all (they never capture a defended piece). */
    for (int k = 0; k < v->nkinds; k++) {
        int rank = 0;
        for (int j = 0; j < v->nkinds; j++)
            rank += !v->kinds[j].royal && v->kinds[j].value < v->kinds[k].value;
        e->value_rank[k] = v->kinds[k].royal ? UINT8_MAX - 1 : (uint8_t)rank;
        e->phase_value[k] = v->kinds[k].royal ? 0 : v->kinds[k].value;
        e->unguarded[k] = v->kinds[k].royal || (hidden_on(v) && k == v->hidden.hidden_kind);
    }
    Position *start = malloc(sizeof *start);
    e->start_material = 0;
    if (start) {
        pos_init_start(start, v);
        for (int s = 0; s < 2; s++)
            for (int i = 0; i < start->count[s]; i++)
                e->start_material += e->phase_value[XQ_PIECE_KIND(start->board[start->list[s][i]])];
        free(start);
    }
}

Evaluator *eval_create(const Variant *v, const char *weights_path, XqError *err)
{
    Evaluator *e = calloc(1, sizeof *e);
    if (!e) {
        set_error(err, weights_path ? weights_path : v->name, 0, "out of memory");
        return NULL;
    }
    e->v = v;
    if (eval_build_features(e, err) != 0)
        goto fail;
    default_weights(e);
    if (weights_path && load_weights(e, weights_path, err) != 0)
        goto fail;
    init_variant_tables(e);
    init_press_tables(e);
    eval_build_walk(e);
    rebuild(e);
    return e;
fail:
    net_free(e->net);
    free(e);
    return NULL;
}

void eval_free(Evaluator *e)
{
    if (e) {
        eval_free_walk(e);
        net_free(e->net);
    }
    free(e);
}

void eval_set_net(Evaluator *e, Net *n, const char *file)
{
    net_free(e->net);
    if (n)
        net_prepare(n);
    e->net = n;
    snprintf(e->net_file, sizeof e->net_file, "%s", n && file ? file : "");
    e->net_path[0] = '\0';
}

int eval_net_refer_from(Evaluator *e, const char *out_path, XqError *err)
{
    if (!e->net || !e->net_path[0])
        return 0;
    char ref[4096];
    if (weights_net_reference(e->net_path, out_path, ref, sizeof ref, err) != 0)
        return -1;
    snprintf(e->net_file, sizeof e->net_file, "%s", ref);
    return 0;
}

const Net *eval_net(const Evaluator *e) { return e->net; }

const char *eval_net_left_out(const Evaluator *e) { return e->net_left_out; }

int eval_feature_count(const Evaluator *e) { return e->nfeatures; }

const char *eval_feature_name(const Evaluator *e, int i)
{
    return i >= 0 && i < e->nfeatures ? e->features[i].name : NULL;
}

const char *eval_feature_family(const Evaluator *e, int i)
{
    if (i < 0 || i >= e->nfeatures)
        return NULL;
    const Feature *f = &e->features[i];
    switch (f->type) {
    case FEAT_MATERIAL: return "material";
    case FEAT_ZONE: return "zone";
    case FEAT_MOBILITY: return "mobility";
    case FEAT_PRESSURE:
    case FEAT_IN_CHECK:
    case FEAT_ATTACKERS:
    case FEAT_DANGER: return "safety";
    case FEAT_SIDE: return "side";
    case FEAT_HOLDING: return e->holdings[f->holding].name;
    case FEAT_HIDDEN: return "hidden";
    case FEAT_POINT: return "pst";
    case FEAT_LATE: return "late";
    case FEAT_ATTACK: return "attack";
    case FEAT_ALIGN: return "align";
    case FEAT_THREAT:
    case FEAT_FORK: return "threat";
    case FEAT_DEFENDED: return "defended";
    case FEAT_PAIR: return "pair";
    case FEAT_CHECK: return "check";
    }
    return NULL;
}

double eval_weight(const Evaluator *e, int i)
{
    return i >= 0 && i < e->nfeatures ? e->weights[i] : 0.0;
}

void eval_set_weight(Evaluator *e, int i, double w)
{
    if (i < 0 || i >= e->nfeatures)
        return;
    e->weights[i] = w;
    rebuild(e);
}

/* Shortest decimal that reads back to the same double, so written weights reload exactly. */
static void format_double(double d, char *buf, size_t size)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}

void eval_write_weights(const Evaluator *e, char *buf, size_t size)
{
    if (size == 0)
        return;
    int w = snprintf(buf, size, "[weights]\n");
    size_t used = w > 0 ? (size_t)w : 0;
    for (int i = 0; i < e->nfeatures && used < size; i++) {
        char val[40];
        format_double(e->weights[i], val, sizeof val);
        w = snprintf(buf + used, size - used, "%s = %s\n", e->features[i].name, val);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (e->net && used < size)
        snprintf(buf + used, size - used, "\n[net]\nfile = %s\nchecksum = %016llx\n", e->net_file,
                 (unsigned long long)e->net->checksum);
}
