/* eval.c - linear evaluation: features generated from the variant's pieces and zones, weights
 * from a weights file, folded into a piece-square table plus move walks for speed. */
#include "eval_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "ini.h"
#include "walk.h"

static void set_error(XqError *err, const char *file, int line, const char *msg)
{
    if (!err)
        return;
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = line;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

static int popcount_set(const PointSet *s)
{
    int n = 0;
    for (int i = 0; i < 4; i++)
        for (uint64_t w = s->w[i]; w; w &= w - 1)
            n++;
    return n;
}

static bool set_equal(const PointSet *a, const PointSet *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static PointSet set_and(const PointSet *a, const PointSet *b)
{
    PointSet r;
    for (int i = 0; i < 4; i++)
        r.w[i] = a->w[i] & b->w[i];
    return r;
}

static PointSet set_andnot(const PointSet *a, const PointSet *b)
{
    PointSet r;
    for (int i = 0; i < 4; i++)
        r.w[i] = a->w[i] & ~b->w[i];
    return r;
}

static const PointSet *zone_set(const Evaluator *e, const Feature *f, Side side)
{
    return &e->v->zones[f->zone].points[f->their ? XQ_OTHER(side) : side];
}

static int add_feature(Evaluator *e, FeatureType type, int kind, int zone, bool their,
                       const char *name)
{
    if (e->nfeatures >= EVAL_MAX_FEATURES)
        return -1;
    Feature *f = &e->features[e->nfeatures++];
    memset(f, 0, sizeof *f);
    f->type = type;
    f->kind = kind;
    f->zone = zone;
    f->their = their;
    snprintf(f->name, sizeof f->name, "%s", name);
    return 0;
}

typedef struct ZoneCandidate {
    PointSet set;      /* Red's copy, restricted to where the kind may stand */
    int zone;
    bool their;
    bool alive;
} ZoneCandidate;

/* Zone features of one kind. Every zone gives two candidates (the piece in its own side's copy,
 * and in the opponent's copy, "their_"). A candidate is kept only if it can tell positions apart:
 * not empty and not all of the points the kind may stand on, not a duplicate of a kept one, and
 * not the exact complement of a kept one (which would make material a linear combination of the
 * two and leave the tuner's regression singular). Of two complements the one holding fewer of
 * the kind's start points is kept, so the feature reads "has left home" (pawn crossed the river). */
static int add_zone_features(Evaluator *e, int kind, const PointSet *start)
{
    const Variant *v = e->v;
    PointSet all = {{0}};
    for (int p = 0; p < v->npoints; p++)
        pointset_add(&all, (Point)p);
    int sz = v->kinds[kind].stand_zone;
    PointSet stand = sz >= 0 ? v->zones[sz].points[RED] : all;
    int stand_n = popcount_set(&stand);

    ZoneCandidate kept[2 * XQ_MAX_ZONES];
    int nkept = 0;
    /* Own copies first, so a zone the variant names ("enemy_half") wins over the same points
     * reached as the opponent's copy of another ("their_own_half"). */
    for (int their = 0; their < 2; their++)
        for (int z = 0; z < v->nzones; z++) {
            PointSet cand = set_and(&v->zones[z].points[their ? BLACK : RED], &stand);
            int n = popcount_set(&cand);
            if (n == 0 || n == stand_n)
                continue;
            PointSet comp = set_andnot(&stand, &cand);
            bool skip = false;
            for (int i = 0; i < nkept && !skip; i++) {
                if (!kept[i].alive)
                    continue;
                if (set_equal(&kept[i].set, &cand)) {
                    skip = true;
                } else if (set_equal(&kept[i].set, &comp)) {
                    PointSet a = set_and(&cand, start), b = set_and(&kept[i].set, start);
                    if (popcount_set(&a) < popcount_set(&b))
                        kept[i].alive = false;
                    else
                        skip = true;
                }
            }
            if (!skip)
                kept[nkept++] = (ZoneCandidate){cand, z, their != 0, true};
        }
    for (int i = 0; i < nkept; i++) {
        if (!kept[i].alive)
            continue;
        char name[80];
        snprintf(name, sizeof name, "zone.%s.%s%s", v->kinds[kind].name, kept[i].their ? "their_" : "",
                 v->zones[kept[i].zone].name);
        if (add_feature(e, FEAT_ZONE, kind, kept[i].zone, kept[i].their, name) != 0)
            return -1;
    }
    return 0;
}

/* Rebuilds the tables derived from the weights. */
static void rebuild(Evaluator *e)
{
    const Variant *v = e->v;
    memset(e->pst, 0, sizeof e->pst);
    memset(e->mobility_weight, 0, sizeof e->mobility_weight);
    memset(e->value, 0, sizeof e->value);
    memset(e->holding_weight, 0, sizeof e->holding_weight);
    e->pressure_weight = e->in_check_weight = e->side_weight = 0;
    e->hidden_weight = 0;
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
            for (int s = 0; s < 2; s++)
                for (int p = 0; p < v->npoints; p++)
                    if (pointset_has(zone_set(e, f, (Side)s), (Point)p))
                        e->pst[XQ_PIECE(s, f->kind)][p] += s == RED ? w : -w;
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
        }
    }
    /* A kind whose moves carry no weight is skipped by the score (not by eval_features). */
    for (int k = 0; k < v->nkinds; k++)
        e->walk_kind[k] = e->mobility_weight[k] != 0 || e->pressure_weight != 0;
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
    for (int i = 0; i < ini.count && rc == 0; i++) {
        const IniEntry *en = &ini.entries[i];
        if (strcmp(en->section, "weights") != 0) {
            snprintf(msg, sizeof msg, "unknown section [%.64s] (a weights file has only [weights])",
                     en->section);
            set_error(err, path, en->line, msg);
            rc = -1;
            break;
        }
        int f = find_feature(e, en->key);
        if (f < 0) {
            snprintf(msg, sizeof msg,
                     "unknown feature '%.64s' for variant %.32s (features are material.KIND, "
                     "zone.KIND.ZONE, mobility.KIND, safety.*, side.to_move, and off-board "
                     "holdings such as camp.KIND)",
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
    ini_free(&ini);
    return rc;
}

/* Builds the feature list of the variant: material, zones and mobility per kind, then the
 * royal-safety and tempo terms. */
static int build_features(Evaluator *e, XqError *err)
{
    const Variant *v = e->v;
    Position *start = malloc(sizeof *start);
    if (!start) {
        set_error(err, v->name, 0, "out of memory");
        return -1;
    }
    pos_init_start(start, v);
    PointSet start_points[XQ_MAX_KINDS];
    memset(start_points, 0, sizeof start_points);
    for (int i = 0; i < start->count[RED]; i++) {
        Point p = start->list[RED][i];
        pointset_add(&start_points[XQ_PIECE_KIND(start->board[p])], p);
    }
    free(start);

    char name[80];
    int rc = 0;
    /* The royal piece's material never changes while the game goes on: no feature. */
    for (int k = 0; k < v->nkinds && rc == 0; k++)
        if (!v->kinds[k].royal) {
            snprintf(name, sizeof name, "material.%s", v->kinds[k].name);
            rc = add_feature(e, FEAT_MATERIAL, k, -1, false, name);
        }
    for (int k = 0; k < v->nkinds && rc == 0; k++)
        rc = add_zone_features(e, k, &start_points[k]);
    for (int k = 0; k < v->nkinds && rc == 0; k++) {
        snprintf(name, sizeof name, "mobility.%s", v->kinds[k].name);
        rc = add_feature(e, FEAT_MOBILITY, k, -1, false, name);
    }
    if (rc == 0 && v->royal_mask) {
        rc = add_feature(e, FEAT_PRESSURE, -1, -1, false, "safety.royal_pressure");
        if (rc == 0)
            rc = add_feature(e, FEAT_IN_CHECK, -1, -1, false, "safety.in_check");
    }
    if (rc == 0)
        rc = add_feature(e, FEAT_SIDE, -1, -1, false, "side.to_move");
    /* Last, so the other features keep their places: pieces held off the board count as
     * material of their own (a camp chariot is still a chariot; rule sets without holdings
     * get no such feature). */
    e->nholdings = variant_holdings(v, e->holdings);
    for (int h = 0; h < e->nholdings && rc == 0; h++) {
        snprintf(name, sizeof name, "%s.%s", e->holdings[h].name, v->kinds[e->holdings[h].kind].name);
        rc = add_feature(e, FEAT_HOLDING, e->holdings[h].kind, -1, false, name);
        if (rc == 0)
            e->features[e->nfeatures - 1].holding = h;
    }
    /* After every other feature, so their indices and names stay as they were. */
    if (rc == 0 && hidden_on(v))
        rc = add_feature(e, FEAT_HIDDEN, -1, -1, false, "hidden.expected_material");
    if (rc != 0)
        set_error(err, v->name, 0, "too many evaluation features for this variant");
    return rc;
}

Evaluator *eval_create(const Variant *v, const char *weights_path, XqError *err)
{
    Evaluator *e = calloc(1, sizeof *e);
    if (!e) {
        set_error(err, weights_path ? weights_path : v->name, 0, "out of memory");
        return NULL;
    }
    e->v = v;
    if (build_features(e, err) != 0)
        goto fail;
    default_weights(e);
    if (weights_path && load_weights(e, weights_path, err) != 0)
        goto fail;
    /* "Near the royal piece": its point and the points one step away along drawn lines. */
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < v->npoints; p++) {
            PointSet *ns = &e->near[s][p];
            pointset_add(ns, (Point)p);
            for (int d = 0; d < DIR_COUNT; d++)
                if (v->neighbor[p][d] != XQ_NO_POINT)
                    pointset_add(ns, v->neighbor[p][d]);
        }
    rebuild(e);
    return e;
fail:
    free(e);
    return NULL;
}

void eval_free(Evaluator *e)
{
    free(e);
}

int eval_feature_count(const Evaluator *e) { return e->nfeatures; }

const char *eval_feature_name(const Evaluator *e, int i)
{
    return i >= 0 && i < e->nfeatures ? e->features[i].name : NULL;
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

static const PointSet EMPTY_SET;

/* Area around the royal piece of `side` (empty when it has none). */
static inline const PointSet *royal_area(const Evaluator *e, const Position *pos, Side side)
{
    Point k = pos->royal[side];
    return k == XQ_NO_POINT ? &EMPTY_SET : &e->near[side][k];
}

void eval_features(const Evaluator *e, Position *pos, float *out)
{
    const Variant *v = e->v;
    int material_of[XQ_MAX_KINDS], mobility_of[XQ_MAX_KINDS];
    for (int k = 0; k < XQ_MAX_KINDS; k++)
        material_of[k] = mobility_of[k] = -1;
    int pressure = -1;
    for (int i = 0; i < e->nfeatures; i++) {
        out[i] = 0;
        const Feature *f = &e->features[i];
        if (f->type == FEAT_MATERIAL)
            material_of[f->kind] = i;
        else if (f->type == FEAT_MOBILITY)
            mobility_of[f->kind] = i;
        else if (f->type == FEAT_PRESSURE)
            pressure = i;
        else if (f->type == FEAT_IN_CHECK)
            out[i] = pos->in_check ? (pos->side == RED ? -1.0f : 1.0f) : 0.0f;
        else if (f->type == FEAT_SIDE)
            out[i] = pos->side == RED ? 1.0f : -1.0f;
        else if (f->type == FEAT_HOLDING)
            out[i] = (float)(pos_held(pos, RED, &e->holdings[f->holding]) -
                             pos_held(pos, BLACK, &e->holdings[f->holding]));
        else if (f->type == FEAT_HIDDEN)
            out[i] = (float)eval_hidden_expected(pos);
    }
    for (int s = 0; s < 2; s++) {
        float sign = s == RED ? 1.0f : -1.0f;
        const PointSet *area = royal_area(e, pos, XQ_OTHER((Side)s));
        int near = 0;
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            int k = XQ_PIECE_KIND(pos->board[p]);
            if (material_of[k] >= 0)
                out[material_of[k]] += sign;
            int mob = walk_mobility(v, pos->board, p, area, &near);
            out[mobility_of[k]] += sign * (float)mob;
            for (int fi = 0; fi < e->nfeatures; fi++) {
                const Feature *f = &e->features[fi];
                if (f->type == FEAT_ZONE && f->kind == k && pointset_has(zone_set(e, f, (Side)s), p))
                    out[fi] += sign;
            }
        }
        if (pressure >= 0)
            out[pressure] += sign * (float)near;
    }
}

double eval_pst_sum(const Evaluator *e, const Position *pos)
{
    double sum = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            sum += e->pst[pos->board[p]][p];
        }
    return sum;
}

double eval_score_red_with_pst(const Evaluator *e, const Position *pos, double pst_sum)
{
    const Variant *v = e->v;
    double score = pst_sum;
    for (int s = 0; s < 2; s++) {
        const PointSet *area = royal_area(e, pos, XQ_OTHER((Side)s));
        double mob = 0;
        int near = 0;
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            int k = XQ_PIECE_KIND(pos->board[p]);
            if (e->walk_kind[k])
                mob += e->mobility_weight[k] * walk_mobility(v, pos->board, p, area, &near);
        }
        mob += e->pressure_weight * near;
        score += s == RED ? mob : -mob;
    }
    if (pos->in_check)
        score += pos->side == RED ? -e->in_check_weight : e->in_check_weight;
    score += pos->side == RED ? e->side_weight : -e->side_weight;
    if (e->nholdings)
        score += eval_holdings_red(e, pos);
    if (e->hidden_weight != 0)
        score += e->hidden_weight * eval_hidden_expected(pos);
    return score;
}

double eval_score(const Evaluator *e, Position *pos)
{
    double red = eval_score_red_with_pst(e, pos, eval_pst_sum(e, pos));
    return pos->side == RED ? red : -red;
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
}
