/* eval_features.c - the evaluation's feature list, generated from the variant file: material,
 * zones, per-point terms, mobility, royal safety, threats, defences, pairs and the late-game
 * material of every kind the variant declares. */
#include "eval_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"

static void set_error(XqError *err, const char *file, const char *msg)
{
    if (!err)
        return;
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = 0;
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

/* Appends a feature; returns its index or -1 when the list is full. */
static int add_feature(Evaluator *e, FeatureType type, int kind, const char *name)
{
    if (e->nfeatures >= EVAL_MAX_FEATURES)
        return -1;
    Feature *f = &e->features[e->nfeatures];
    memset(f, 0, sizeof *f);
    f->type = type;
    f->kind = kind;
    f->zone = -1;
    f->holding = -1;
    f->point[0] = f->point[1] = XQ_NO_POINT;
    snprintf(f->name, sizeof f->name, "%s", name);
    return e->nfeatures++;
}

typedef struct ZoneCandidate {
    PointSet set;      /* Red's copy, restricted to where the kind may stand */
    int zone;
    bool their;
    bool alive;
} ZoneCandidate;

static PointSet all_points(const Variant *v)
{
    PointSet all = {{0}};
    for (int p = 0; p < v->npoints; p++)
        pointset_add(&all, (Point)p);
    return all;
}

/* Points where the kind may stand (its stand zone, else the whole board), Red's copy. */
static PointSet stand_points(const Variant *v, int kind)
{
    int sz = v->kinds[kind].stand_zone;
    return sz >= 0 ? v->zones[sz].points[RED] : all_points(v);
}

/* Zone features of one kind. Every zone gives two candidates (the piece in its own side's copy,
 * and in the opponent's copy, "their_"). A candidate is kept only if it can tell positions apart:
 * not empty and not all of the points the kind may stand on, not a duplicate of a kept one, and
 * not the exact complement of a kept one (which would make material a linear combination of the
 * two and leave the tuner's regression singular). Of two complements the one holding fewer of
 * the kind's start points is kept, so the feature reads "has left home" (pawn crossed the river). */
static int add_zone_features(Evaluator *e, int kind, const PointSet *start)
{
    const Variant *v = e->v;
    PointSet stand = stand_points(v, kind);
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
        int f = add_feature(e, FEAT_ZONE, kind, name);
        if (f < 0)
            return -1;
        e->features[f].zone = kept[i].zone;
        e->features[f].their = kept[i].their;
    }
    return 0;
}

/* ---- left-right symmetry -------------------------------------------------------------------- */

/* Direction mirrored across a file: N and S stay, east and west swap. */
static int reflect_dir(int d)
{
    return (DIR_COUNT - d) % DIR_COUNT;
}

typedef struct LeapKey {
    int to, b0, b1, mode, targets;
} LeapKey;

typedef struct RayKey {
    int dir, len, slide_max, flags, screens, targets;
} RayKey;

static int cmp_leap(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(LeapKey));
}

static int cmp_ray(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(RayKey));
}

static Point reflect_point(const Point *refl, Point p)
{
    return p == XQ_NO_POINT ? XQ_NO_POINT : refl[p];
}

/* True if table a (at p) reflected is table b (at refl[p]): the same leaps and rays, as sets. */
static bool tables_mirror(const Variant *v, const Point *refl, const MoveTable *a, const MoveTable *b)
{
    if (a->leap_count != b->leap_count || a->ray_count != b->ray_count)
        return false;
    LeapKey la[64], lb[64];
    RayKey ra[16], rb[16];
    if (a->leap_count > 64 || a->ray_count > 16)
        return false;
    for (int i = 0; i < a->leap_count; i++) {
        const LeapEntry *x = &v->leaps[a->leap_first + i], *y = &v->leaps[b->leap_first + i];
        /* Blocking points are a set of two: keep them ordered. */
        int xb0 = reflect_point(refl, x->block[0]), xb1 = reflect_point(refl, x->block[1]);
        la[i] = (LeapKey){reflect_point(refl, x->to), xb0 < xb1 ? xb0 : xb1, xb0 < xb1 ? xb1 : xb0,
                          x->mode, x->targets};
        lb[i] = (LeapKey){y->to, y->block[0] < y->block[1] ? y->block[0] : y->block[1],
                          y->block[0] < y->block[1] ? y->block[1] : y->block[0], y->mode, y->targets};
    }
    for (int i = 0; i < a->ray_count; i++) {
        const Ray *x = &v->rays[a->ray_first + i], *y = &v->rays[b->ray_first + i];
        ra[i] = (RayKey){reflect_dir(x->dir), x->len, x->slide_max, x->flags, x->screens, x->targets};
        rb[i] = (RayKey){y->dir, y->len, y->slide_max, y->flags, y->screens, y->targets};
    }
    qsort(la, a->leap_count, sizeof *la, cmp_leap);
    qsort(lb, a->leap_count, sizeof *lb, cmp_leap);
    qsort(ra, a->ray_count, sizeof *ra, cmp_ray);
    qsort(rb, a->ray_count, sizeof *rb, cmp_ray);
    return memcmp(la, lb, a->leap_count * sizeof *la) == 0 &&
           memcmp(ra, rb, a->ray_count * sizeof *ra) == 0;
}

/* Fills refl[] (the point across the middle file) and returns true if the rules cannot tell a
 * position from its left-right mirror image: the board, its lines, every zone, the start
 * position, every move table (plain and powered) and the rule modules' own geometry are
 * symmetric. Then a piece is worth the same on a point and on its image, and the per-point
 * terms of the two are one feature. */
static bool variant_left_right_symmetric(const Variant *v, Point *refl)
{
    for (int p = 0; p < v->npoints; p++) {
        int f = v->files - 1 - v->point_file[p], r = v->point_rank[p];
        refl[p] = v->point_at[r][f];
        if (refl[p] == XQ_NO_POINT)
            return false;
    }
    for (int p = 0; p < v->npoints; p++)
        for (int d = 0; d < DIR_COUNT; d++)
            if (reflect_point(refl, v->neighbor[p][d]) != v->neighbor[refl[p]][reflect_dir(d)])
                return false;
    for (int z = 0; z < v->nzones; z++)
        for (int p = 0; p < v->npoints; p++)
            if (pointset_has(&v->zones[z].points[RED], (Point)p) !=
                pointset_has(&v->zones[z].points[RED], refl[p]))
                return false;
    Position *start = malloc(sizeof *start);
    if (!start)
        return false;
    pos_init_start(start, v);
    bool ok = true;
    for (int p = 0; p < v->npoints && ok; p++)
        ok = start->board[p] == start->board[refl[p]];
    free(start);
    for (int k = 0; k < v->nkinds && ok; k++)
        for (int s = 0; s < 2 && ok; s++)
            for (int p = 0; p < v->npoints && ok; p++) {
                ok = tables_mirror(v, refl, &v->table[k][s][p], &v->table[k][s][refl[p]]);
                if (ok && v->powered)
                    ok = tables_mirror(v, refl, &v->powered[k][s][p], &v->powered[k][s][refl[p]]);
            }
    if (ok && (v->modules & MOD_HIDDEN))
        for (int p = 0; p < v->npoints && ok; p++)
            ok = v->hidden.native[p] == v->hidden.native[refl[p]];
    if (ok && (v->modules & MOD_CAMP))
        for (int i = 0; i < v->camp.ngates && ok; i++) {
            const CampGate *g = &v->camp.gates[i];
            bool found = g->dx == 0;
            for (int j = 0; j < v->camp.ngates && !found; j++) {
                const CampGate *h = &v->camp.gates[j];
                found = h->kind == g->kind && h->how == g->how && h->dx == -g->dx && h->dy == g->dy &&
                        h->nblocks == g->nblocks;
            }
            ok = found;
        }
    if (ok && (v->modules & MOD_DISPLACE))
        for (int k = 0; k < v->nkinds && ok; k++) {
            const DisplacePattern *d = &v->displace.kind[k];
            for (int i = 0; i < d->nleaps && ok; i++) {
                bool found = false;
                for (int j = 0; j < d->nleaps && !found; j++)
                    found = d->dx[j] == -d->dx[i] && d->dy[j] == d->dy[i];
                ok = found;
            }
        }
    return ok;
}

/* Points a piece of the kind can ever stand on, Red's view: in a rule set without modules the
 * points its moves reach from its start points (a pawn never stands behind its start rank);
 * with modules (camps, reserves, reveals, promotions put pieces anywhere) every point it may
 * stand on. */
static PointSet reachable_points(const Variant *v, int kind, const PointSet *start)
{
    PointSet stand = stand_points(v, kind);
    if (v->modules)
        return stand;
    PointSet seen = *start;
    Point queue[XQ_MAX_POINTS];
    int head = 0, tail = 0;
    for (int p = 0; p < v->npoints; p++)
        if (pointset_has(start, (Point)p))
            queue[tail++] = (Point)p;
    while (head < tail) {
        Point p = queue[head++];
        const MoveTable *t = &v->table[kind][RED][p];
        Point next[XQ_MAX_POINTS];
        int n = 0;
        for (int i = 0; i < t->leap_count; i++)
            next[n++] = v->leaps[t->leap_first + i].to;
        for (int i = 0; i < t->ray_count; i++) {
            const Ray *r = &v->rays[t->ray_first + i];
            for (int j = 0; j < r->len && n < XQ_MAX_POINTS; j++)
                next[n++] = v->ray_points[r->first + j];
        }
        for (int i = 0; i < n; i++)
            if (pointset_has(&stand, next[i]) && !pointset_has(&seen, next[i])) {
                pointset_add(&seen, next[i]);
                queue[tail++] = next[i];
            }
    }
    return seen;
}

/* Per-point features of every kind: one per point it can reach, or per pair of mirror points
 * when the rules are left-right symmetric (named by the point on the lower file). */
static int add_point_features(Evaluator *e, const PointSet *start_points)
{
    const Variant *v = e->v;
    Point refl[XQ_MAX_POINTS];
    bool symmetric = variant_left_right_symmetric(v, refl);
    for (int k = 0; k < v->nkinds; k++) {
        if (v->hidden.hidden_kind == k && (v->modules & MOD_HIDDEN))
            continue; /* a face-down piece is priced by hidden.expected_material */
        PointSet reach = reachable_points(v, k, &start_points[k]);
        for (int p = 0; p < v->npoints; p++) {
            if (!pointset_has(&reach, (Point)p))
                continue;
            Point image = symmetric ? refl[p] : (Point)p;
            if (image < p && pointset_has(&reach, image))
                continue; /* the image's feature covers this point */
            char point[8], name[80];
            variant_point_name(v, (Point)p, point);
            snprintf(name, sizeof name, "pst.%s.%s", v->kinds[k].name, point);
            int f = add_feature(e, FEAT_POINT, k, name);
            if (f < 0)
                return -1;
            e->features[f].point[0] = (Point)p;
            e->point_of[k][p] = (int16_t)f;
            if (image != p && pointset_has(&reach, image)) {
                e->features[f].point[1] = image;
                e->point_of[k][image] = (int16_t)f;
            }
        }
    }
    return 0;
}

/* Line captures of a royal piece by the kind: bit n (n < EVAL_MAX_ALIGN) set if its line
 * already gives check through n pieces in between (a slide: 0; a hop: its screens), bit 8 set
 * if it has any such line at all (then it can aim at the royal through other pieces). */
static unsigned royal_line_checks(const Variant *v, int kind)
{
    unsigned checks = 0;
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < v->npoints; p++) {
            const MoveTable *t = &v->table[kind][s][p];
            for (int i = 0; i < t->ray_count; i++) {
                const Ray *r = &v->rays[t->ray_first + i];
                if (!(r->targets & v->royal_mask) || !(r->flags & (RAY_SLIDE_CAPTURE | RAY_HOP_CAPTURE)))
                    continue;
                checks |= 1u << 8;
                if (r->flags & RAY_SLIDE_CAPTURE)
                    checks |= 1u;
                if ((r->flags & RAY_HOP_CAPTURE) && r->screens < EVAL_MAX_ALIGN)
                    checks |= 1u << r->screens;
            }
        }
    return checks;
}

/* Non-royal kinds of side s that can give check: some piece of the kind standing somewhere
 * captures the other side's royal piece standing anywhere in its zone, by a leap (the compiled
 * reverse leaps onto the royal point) or along a line (a slide with nothing in between, a hop
 * over a screen: the slide and hop reach toward the royal point), as core/movegen.c tests a
 * royal attack. */
static uint16_t checking_kinds(const Variant *v, Side s)
{
    Side them = XQ_OTHER(s);
    unsigned kinds = 0;
    for (int p = 0; p < v->npoints; p++) {
        bool royal_stands = false;
        for (int k = 0; k < v->nkinds && !royal_stands; k++)
            royal_stands = v->kinds[k].royal && variant_in_zone(v, v->kinds[k].stand_zone, them, (Point)p);
        if (!royal_stands)
            continue;
        const ReverseTable *rt = &v->reverse[s][p];
        for (int i = 0; i < rt->count; i++)
            kinds |= v->reverse_leaps[rt->first + i].kinds;
        for (int d = 0; d < DIR_COUNT; d++) {
            if (!(v->attack_dirs[s] >> d & 1))
                continue;
            int od = XQ_DIR_OPPOSITE(d), dist = 1;
            for (Point q = v->neighbor[p][d]; q != XQ_NO_POINT; q = v->neighbor[q][d], dist++)
                for (int k = 0; k < v->nkinds; k++)
                    if (v->slide_reach[k][s][q][od] >= dist ||
                        (dist >= 2 && (v->hop_reach[k][s][q][od] >= dist ||
                                       v->hop_next_reach[k][s][q][od] >= dist)))
                        kinds |= 1u << k;
        }
    }
    return (uint16_t)(kinds & ~(unsigned)v->royal_mask);
}

/* Appends a per-kind feature "PREFIX.KIND" for every kind passing `want`. */
static int add_kind_family(Evaluator *e, FeatureType type, const char *prefix, const bool *want,
                           int16_t *index_of)
{
    const Variant *v = e->v;
    for (int k = 0; k < v->nkinds; k++) {
        if (!want[k])
            continue;
        char name[80];
        snprintf(name, sizeof name, "%s.%s", prefix, v->kinds[k].name);
        int f = add_feature(e, type, k, name);
        if (f < 0)
            return -1;
        index_of[k] = (int16_t)f;
    }
    return 0;
}

int eval_build_features(Evaluator *e, XqError *err)
{
    const Variant *v = e->v;
    Position *start = malloc(sizeof *start);
    if (!start) {
        set_error(err, v->name, "out of memory");
        return -1;
    }
    pos_init_start(start, v);
    PointSet start_points[XQ_MAX_KINDS];
    int start_count[XQ_MAX_KINDS] = {0};
    memset(start_points, 0, sizeof start_points);
    for (int i = 0; i < start->count[RED]; i++) {
        Point p = start->list[RED][i];
        int k = XQ_PIECE_KIND(start->board[p]);
        pointset_add(&start_points[k], p);
        start_count[k]++;
    }
    /* Hidden-piece rule sets deal their kinds face down: a pair is possible for every kind of
     * the pools, which the start position does not show. */
    if (hidden_on(v))
        for (int k = 0; k < v->nkinds && k < HIDDEN_POOL_KINDS; k++)
            start_count[k] += hidden_pool(start, RED, k);
    free(start);

    for (int k = 0; k < XQ_MAX_KINDS; k++) {
        e->material_of[k] = e->mobility_of[k] = e->late_of[k] = e->attack_of[k] = -1;
        e->threat_of[k] = e->defended_of[k] = e->pair_of[k] = e->check_of[k] = -1;
        for (int n = 0; n < EVAL_MAX_ALIGN; n++)
            e->align_of[k][n] = -1;
        for (int p = 0; p < XQ_MAX_POINTS; p++)
            e->point_of[k][p] = -1;
        e->nzone_of[k] = 0;
    }
    for (int n = 0; n <= XQ_MAX_PIECES; n++)
        e->attackers_of[n] = -1;
    e->pressure_of = e->in_check_of = e->side_of = e->fork_of = e->hidden_of = e->danger_of = -1;
    e->check_kinds = 0;

    char name[80];
    int rc = 0;
    bool non_royal[XQ_MAX_KINDS] = {false}, any[XQ_MAX_KINDS] = {false};
    for (int k = 0; k < v->nkinds; k++) {
        non_royal[k] = !v->kinds[k].royal;
        any[k] = true;
    }
    /* The royal piece's material never changes while the game goes on: no feature. */
    rc = add_kind_family(e, FEAT_MATERIAL, "material", non_royal, e->material_of);
    for (int k = 0; k < v->nkinds && rc == 0; k++) {
        int first = e->nfeatures;
        rc = add_zone_features(e, k, &start_points[k]);
        for (int f = first; f < e->nfeatures; f++)
            e->zone_of[k][e->nzone_of[k]++] = (int16_t)f;
    }
    if (rc == 0)
        rc = add_kind_family(e, FEAT_MOBILITY, "mobility", any, e->mobility_of);
    if (rc == 0 && v->royal_mask) {
        rc = (e->pressure_of = (int16_t)add_feature(e, FEAT_PRESSURE, -1, "safety.royal_pressure")) < 0;
        if (rc == 0)
            rc = (e->in_check_of = (int16_t)add_feature(e, FEAT_IN_CHECK, -1, "safety.in_check")) < 0;
    }
    if (rc == 0)
        rc = (e->side_of = (int16_t)add_feature(e, FEAT_SIDE, -1, "side.to_move")) < 0;
    /* Pieces held off the board count as material of their own (a camp chariot is still a
     * chariot; rule sets without holdings get no such feature). */
    e->nholdings = variant_holdings(v, e->holdings);
    for (int h = 0; h < e->nholdings && rc == 0; h++) {
        snprintf(name, sizeof name, "%s.%s", e->holdings[h].name, v->kinds[e->holdings[h].kind].name);
        int f = add_feature(e, FEAT_HOLDING, e->holdings[h].kind, name);
        rc = f < 0;
        if (rc == 0)
            e->features[f].holding = h;
    }
    if (rc == 0 && hidden_on(v))
        rc = (e->hidden_of = (int16_t)add_feature(e, FEAT_HIDDEN, -1, "hidden.expected_material")) < 0;

    /* The finer families, after every older feature so their indices and names stay. */
    if (rc == 0)
        rc = add_point_features(e, start_points);
    if (rc == 0)
        rc = add_kind_family(e, FEAT_LATE, "late", non_royal, e->late_of);
    if (rc == 0 && v->royal_mask) {
        rc = add_kind_family(e, FEAT_ATTACK, "attack", non_royal, e->attack_of);
        /* "At least N attackers": the king-danger curve of classical engines, learned as steps. */
        for (int n = 2; n <= 4 && rc == 0; n++) {
            snprintf(name, sizeof name, "safety.attackers_%d", n);
            int f = add_feature(e, FEAT_ATTACKERS, -1, name);
            rc = f < 0;
            if (rc == 0) {
                e->features[f].count = n;
                e->attackers_of[n] = (int16_t)f;
            }
        }
        for (int k = 0; k < v->nkinds && rc == 0; k++) {
            if (v->kinds[k].royal)
                continue;
            unsigned checks = royal_line_checks(v, k);
            if (!(checks >> 8 & 1))
                continue;
            /* A count at which the line piece already gives check is never seen in a quiet
             * position; the others say "aims through N pieces" (a cannon with nothing between
             * it and the general, a chariot pinning a piece). */
            for (int n = 0; n < EVAL_MAX_ALIGN && rc == 0; n++) {
                if (checks >> n & 1)
                    continue;
                snprintf(name, sizeof name, "align.%s.%d", v->kinds[k].name, n);
                int f = add_feature(e, FEAT_ALIGN, k, name);
                rc = f < 0;
                if (rc == 0) {
                    e->features[f].count = n;
                    e->align_of[k][n] = (int16_t)f;
                }
            }
        }
    }
    if (rc == 0)
        rc = add_kind_family(e, FEAT_THREAT, "threat", non_royal, e->threat_of);
    if (rc == 0)
        rc = (e->fork_of = (int16_t)add_feature(e, FEAT_FORK, -1, "threat.multiple")) < 0;
    if (rc == 0)
        rc = add_kind_family(e, FEAT_DEFENDED, "defended", non_royal, e->defended_of);
    if (rc == 0) {
        bool pairs[XQ_MAX_KINDS] = {false};
        for (int k = 0; k < v->nkinds; k++)
            pairs[k] = non_royal[k] && start_count[k] >= 2;
        rc = add_kind_family(e, FEAT_PAIR, "pair", pairs, e->pair_of);
    }
    if (rc == 0 && v->royal_mask) {
        /* King danger as classical engines weigh it: the number of attackers times their moves
         * next to the royal piece, one product a linear model can weight. */
        rc = (e->danger_of = (int16_t)add_feature(e, FEAT_DANGER, -1, "safety.danger")) < 0;
        /* Check threats, from the reverse tables of the plain move tables: none where a rule
         * module switches tables during the game. */
        if (rc == 0 && !variant_tables_vary(v)) {
            e->check_kinds = checking_kinds(v, RED) | checking_kinds(v, BLACK);
            bool checks[XQ_MAX_KINDS] = {false};
            for (int k = 0; k < v->nkinds; k++)
                checks[k] = e->check_kinds >> k & 1;
            rc = add_kind_family(e, FEAT_CHECK, "check", checks, e->check_of);
        }
    }
    if (rc != 0)
        set_error(err, v->name, "too many evaluation features for this variant");
    return rc;
}
