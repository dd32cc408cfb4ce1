/* eval_score.c - the evaluation of a position: one walk over the pieces' move tables collects
 * mobility, moves near the enemy royal piece, moves that would give check, which pieces attack
 * and defend which, and the lines aimed at the royal pieces; the score is those counts times
 * the weights, the feature vector the same counts in the order of the feature list. */
#include "eval_private.h"

#include <stdlib.h>
#include <string.h>

#include "hidden.h"

/* Counts of one position, from which both the score and the features are made. */
typedef struct Terms {
    int16_t count[2][XQ_MAX_KINDS];      /* pieces on the board */
    int16_t mobility[2][XQ_MAX_KINDS];   /* pseudo-legal moves */
    int16_t attack[2][XQ_MAX_KINDS];     /* of them, landing next to the enemy royal piece */
    int16_t pressure[2];                 /* the same over every kind */
    int16_t attackers[2];                /* pieces with at least one such move */
    int16_t align[2][XQ_MAX_KINDS][EVAL_MAX_ALIGN];
    int16_t threat[XQ_MAX_KINDS];        /* the side to move's threatened pieces */
    int16_t nthreat;
    int16_t defended[2][XQ_MAX_KINDS];
    int16_t check[2][XQ_MAX_KINDS];      /* moves to a check point of their kind */
    double late;                         /* share of the start material gone, 0..1 */
} Terms;

enum {
    PART_WALK_ALL = 1, /* walk every piece (else only the kinds e->walk_kind asks for) */
    PART_REACH = 2,    /* attacks and defences of occupied points: threats, defended pieces */
    PART_ALIGN = 4,
    PART_COUNT = 8,    /* pieces per kind and the late-game share */
    PART_CHECK = 16,   /* moves to check points (check threats) */
};

/* Check points of one side: bit k of a point set when a piece of kind k (one of
 * e->check_kinds) of that side standing there would attack the enemy royal piece. */
typedef struct CheckMap {
    uint16_t kinds[XQ_MAX_POINTS + 1];
} CheckMap;

/* The check points of side s against the other side's royal piece on the board as it is: the
 * royal attack test of core/movegen.c (XQ_ROYAL_ATTACKED_BODY) asked of every point at once.
 * A point is one for a kind if a piece of the kind standing on it captures the royal piece by
 * a reverse leap whose blocking points are empty, by a slide with nothing in between within
 * its reach, or by a hop over exactly one piece (as the attack test counts screens).
 * Approximation: the moving piece is taken to stay on its origin too. A move along a line
 * through the royal piece away from it therefore counts the origin as a piece in between (a
 * chariot already giving check that steps back is not counted, a cannon facing the royal
 * with nothing between that steps back is), and a leap whose blocking point is the mover's
 * own origin counts as blocked. Discovered checks (another piece's line opened by the move)
 * are not counted. */
static void check_points(const Evaluator *e, const Position *pos, Side s, CheckMap *map)
{
    const Variant *v = e->v;
    memset(map->kinds, 0, (size_t)v->npoints * sizeof map->kinds[0]);
    Point king = pos->royal[XQ_OTHER(s)];
    if (king == XQ_NO_POINT)
        return;
    const Piece *b = pos->board;
    unsigned kinds = e->check_kinds;
    const ReverseTable *rt = &v->reverse[s][king];
    const ReverseLeap *r = v->reverse_leaps + rt->first;
    for (int i = 0; i < rt->count; i++, r++)
        if (!(b[r->block[0]] | b[r->block[1]]))
            map->kinds[r->from] |= (uint16_t)(r->kinds & kinds);
    unsigned sliders = kinds & v->slider_kinds[s], hoppers = kinds & v->hopper_kinds[s];
    unsigned dirs = v->attack_dirs[s];
    for (int d = 0; dirs; d++, dirs >>= 1) {
        if (!(dirs & 1))
            continue;
        int od = XQ_DIR_OPPOSITE(d), dist = 1, screen_dist = 0;
        /* Walking out from the royal point: points before the first piece (and its own) are
         * slide check points, those after it up to the second piece hop check points. */
        for (Point q = v->neighbor[king][d]; q != XQ_NO_POINT; q = v->neighbor[q][d], dist++) {
            unsigned hit = 0;
            if (!screen_dist) {
                for (unsigned ks = sliders; ks; ks &= ks - 1) {
                    int k = __builtin_ctz(ks);
                    hit |= (unsigned)(v->slide_reach[k][s][q][od] >= dist) << k;
                }
            } else {
                for (unsigned ks = hoppers; ks; ks &= ks - 1) {
                    int k = __builtin_ctz(ks);
                    hit |= (unsigned)(v->hop_reach[k][s][q][od] >= dist ||
                                      (screen_dist == 1 && v->hop_next_reach[k][s][q][od] >= dist))
                           << k;
                }
            }
            map->kinds[q] |= (uint16_t)hit;
            if (b[q]) {
                if (screen_dist)
                    break;
                screen_dist = dist;
                if (!hoppers)
                    break;
            }
        }
    }
}

/* Capture reach of each side on the points: the lowest value rank among its pieces that could
 * capture there (an enemy piece: attacked; an own piece: defended), REACH_NONE if none. */
enum { REACH_NONE = UINT8_MAX }; /* above every rank (a royal piece's is UINT8_MAX - 1) */
typedef struct Reach {
    uint8_t low[XQ_MAX_POINTS][2];
} Reach;

static inline void reach_clear(const Variant *v, Reach *r)
{
    memset(r->low, REACH_NONE, (size_t)v->npoints * sizeof r->low[0]);
}

/* A piece of side s of rank `rank` could capture on p if `hit` (0 or 1; branch-free). */
static inline void reach_add(Reach *r, Side s, Point p, uint8_t rank, unsigned hit)
{
    uint8_t cand = (uint8_t)(rank | (uint8_t)(hit - 1u)), low = r->low[p][s];
    r->low[p][s] = cand < low ? cand : low;
}

/* 1 if `chk` (NULL: none) marks p as a check point of the kind. */
static inline int check_at(const CheckMap *chk, Point p, int kind)
{
    return chk ? chk->kinds[p] >> kind & 1 : 0;
}

/* Pseudo-legal destinations of the piece on `from` by table t (the same semantics as
 * core/movegen.c), *near counting those inside `area` and *checks those that are check points
 * of its kind in `chk` (NULL: none); with `reach`, also every occupied point it could capture
 * on, enemy or own. Inlined with `reach` constant. */
static inline int walk_piece(const Variant *v, const Piece *b, Point from, const MoveTable *t,
                             const PointSet *area, int *near, const CheckMap *chk, int *checks,
                             bool reach, Reach *r, uint8_t rank)
{
    Side us = XQ_PIECE_SIDE(b[from]);
    int kind = XQ_PIECE_KIND(b[from]);
    int n = 0, hits = 0, threats = 0;
    const LeapEntry *e = v->leaps + t->leap_first;
    for (int i = 0; i < t->leap_count; i++, e++) {
        if (b[e->block[0]] | b[e->block[1]])
            continue;
        Piece q = b[e->to];
        if (!q) {
            if (e->mode & ATOM_MOVE) {
                n++;
                hits += pointset_has(area, e->to);
                threats += check_at(chk, e->to, kind);
            }
        } else if ((e->mode & ATOM_CAPTURE) && (e->targets >> XQ_PIECE_KIND(q) & 1)) {
            if (XQ_PIECE_SIDE(q) != us) {
                n++;
                hits += pointset_has(area, e->to);
                threats += check_at(chk, e->to, kind);
            }
            if (reach)
                reach_add(r, us, e->to, rank, 1);
        }
    }
    const Ray *ray = v->rays + t->ray_first;
    for (int j = 0; j < t->ray_count; j++, ray++) {
        const Point *pts = v->ray_points + ray->first;
        int len = ray->len, k = 0;
        bool slide_move = (ray->flags & RAY_SLIDE_MOVE) != 0;
        for (; k < len && !b[pts[k]]; k++)
            if (slide_move && k < ray->slide_max) {
                n++;
                hits += pointset_has(area, pts[k]);
                threats += check_at(chk, pts[k], kind);
            }
        if (k == len)
            continue;
        Piece q = b[pts[k]];
        if ((ray->flags & RAY_SLIDE_CAPTURE) && k < ray->slide_max &&
            (ray->targets >> XQ_PIECE_KIND(q) & 1)) {
            if (XQ_PIECE_SIDE(q) != us) {
                n++;
                hits += pointset_has(area, pts[k]);
                threats += check_at(chk, pts[k], kind);
            }
            if (reach)
                reach_add(r, us, pts[k], rank, 1);
        }
        if (!(ray->flags & (RAY_HOP_MOVE | RAY_HOP_CAPTURE)))
            continue;
        k++;
        for (int s = 1; s < ray->screens && k < len; k++)
            s += b[pts[k]] != 0;
        for (; k < len; k++) {
            q = b[pts[k]];
            if (!q) {
                if (ray->flags & RAY_HOP_MOVE) {
                    n++;
                    hits += pointset_has(area, pts[k]);
                    threats += check_at(chk, pts[k], kind);
                }
                continue;
            }
            if ((ray->flags & RAY_HOP_CAPTURE) && (ray->targets >> XQ_PIECE_KIND(q) & 1)) {
                if (XQ_PIECE_SIDE(q) != us) {
                    n++;
                    hits += pointset_has(area, pts[k]);
                    threats += check_at(chk, pts[k], kind);
                }
                if (reach)
                    reach_add(r, us, pts[k], rank, 1);
            }
            break;
        }
    }
    *near += hits;
    *checks += threats;
    return n;
}

static const PointSet EMPTY_SET;

/* Defended pieces of both sides and the side to move's threatened pieces, from the reach. */
static void count_reach(const Evaluator *e, const Position *pos, const Reach *r, Terms *t)
{
    Side us = pos->side, them = XQ_OTHER(us);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            Piece pc = pos->board[p];
            int k = XQ_PIECE_KIND(pc);
            /* Branch-free: whether a point is attacked or defended is as good as random. */
            unsigned counted = !e->unguarded[k];
            const uint8_t *low = r->low[p];
            t->defended[s][k] = (int16_t)(t->defended[s][k] + (counted & (low[s] != REACH_NONE)));
            unsigned threat = counted & (s == (int)us) & (low[them] != REACH_NONE) &
                              ((low[us] == REACH_NONE) | (low[them] < e->value_rank[k]));
            t->threat[k] = (int16_t)(t->threat[k] + threat);
            t->nthreat = (int16_t)(t->nthreat + threat);
        }
}

/* Area around the royal piece of `side` (empty when it has none). */
static inline const PointSet *royal_area(const Evaluator *e, const Position *pos, Side side)
{
    Point k = pos->royal[side];
    return k == XQ_NO_POINT ? &EMPTY_SET : &e->near[side][k];
}

/* Line pieces of side s aiming at the enemy royal piece: walking out from the royal along
 * every direction a line capture can come from, each of the first EVAL_MAX_ALIGN pieces met
 * that is s's and whose line reaches that far counts with the pieces passed before it. */
static void count_align(const Evaluator *e, const Position *pos, Side s, Terms *t)
{
    const Variant *v = e->v;
    Point king = pos->royal[XQ_OTHER(s)];
    if (king == XQ_NO_POINT)
        return;
    unsigned dirs = v->attack_dirs[s];
    for (int d = 0; dirs; d++, dirs >>= 1) {
        if (!(dirs & 1))
            continue;
        int od = XQ_DIR_OPPOSITE(d), between = 0, dist = 1;
        for (Point q = v->neighbor[king][d]; q != XQ_NO_POINT && between < EVAL_MAX_ALIGN;
             q = v->neighbor[q][d], dist++) {
            Piece pc = pos->board[q];
            if (!pc)
                continue;
            int k = XQ_PIECE_KIND(pc);
            if (XQ_PIECE_SIDE(pc) == s &&
                (v->slide_reach[k][s][q][od] >= dist || v->hop_reach[k][s][q][od] >= dist))
                t->align[s][k][between]++;
            between++;
        }
    }
}

static void collect(const Evaluator *e, const Position *pos, Terms *t, unsigned parts)
{
    const Variant *v = e->v;
    int nk = v->nkinds;
    for (int s = 0; s < 2; s++) {
        memset(t->mobility[s], 0, (size_t)nk * sizeof t->mobility[s][0]);
        memset(t->attack[s], 0, (size_t)nk * sizeof t->attack[s][0]);
        memset(t->count[s], 0, (size_t)nk * sizeof t->count[s][0]);
        memset(t->defended[s], 0, (size_t)nk * sizeof t->defended[s][0]);
        memset(t->align[s], 0, (size_t)nk * sizeof t->align[s][0]);
        memset(t->check[s], 0, (size_t)nk * sizeof t->check[s][0]);
        t->pressure[s] = t->attackers[s] = 0;
    }
    memset(t->threat, 0, (size_t)nk * sizeof t->threat[0]);
    t->nthreat = 0;
    t->late = 0;
    bool reach = (parts & PART_REACH) != 0;
    bool all = (parts & PART_WALK_ALL) || reach;
    Reach r;
    if (reach)
        reach_clear(v, &r);
    bool check = (parts & PART_CHECK) && e->check_kinds;
    CheckMap chk;
    double material = 0;
    for (int s = 0; s < 2; s++) {
        const PointSet *area = royal_area(e, pos, XQ_OTHER((Side)s));
        if (check)
            check_points(e, pos, (Side)s, &chk);
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            int k = XQ_PIECE_KIND(pos->board[p]);
            if (parts & PART_COUNT) {
                t->count[s][k]++;
                material += e->phase_value[k];
            }
            if (!all && !e->walk_kind[k])
                continue;
            const MoveTable *mt = e->tables_vary ? pos_piece_table(pos, p) : &v->table[k][s][p];
            int near = 0, checks = 0, mob;
            const CheckMap *c = check ? &chk : NULL;
            if (reach)
                mob = walk_piece(v, pos->board, p, mt, area, &near, c, &checks, true, &r, e->value_rank[k]);
            else
                mob = walk_piece(v, pos->board, p, mt, area, &near, c, &checks, false, NULL, 0);
            t->mobility[s][k] = (int16_t)(t->mobility[s][k] + mob);
            t->check[s][k] = (int16_t)(t->check[s][k] + checks);
            t->attack[s][k] = (int16_t)(t->attack[s][k] + near);
            t->pressure[s] = (int16_t)(t->pressure[s] + near);
            t->attackers[s] = (int16_t)(t->attackers[s] + (near > 0));
        }
        if (parts & PART_ALIGN)
            count_align(e, pos, (Side)s, t);
    }
    if (reach)
        count_reach(e, pos, &r, t);
    if ((parts & PART_COUNT) && e->start_material > 0) {
        for (int h = 0; h < e->nholdings; h++)
            material += e->phase_value[e->holdings[h].kind] *
                        (pos_held(pos, RED, &e->holdings[h]) + pos_held(pos, BLACK, &e->holdings[h]));
        double left = material / e->start_material;
        t->late = left >= 1 ? 0 : 1 - left;
    }
}

/* ---- the score's walk ------------------------------------------------------------------------
 * The same counts as collect() without the reach part (threats and defences), in one pass over
 * the pieces that also sums the piece-square table: each destination decided by a shift of the
 * accept masks built below, the points near the royal pieces a byte map. */

static uint32_t accept_mask(Side us, bool move, bool capture, uint16_t targets)
{
    uint32_t m = move ? 1u : 0u;
    if (capture)
        for (int k = 0; k < XQ_MAX_KINDS; k++)
            if (targets >> k & 1)
                m |= 1u << XQ_PIECE(XQ_OTHER(us), k);
    return m;
}

/* The pieces of either side a capture may land on (the reach part: attacked or defended). */
static uint32_t reach_mask(bool capture, uint16_t targets)
{
    return capture ? accept_mask(RED, false, true, targets) | accept_mask(BLACK, false, true, targets) : 0;
}

bool eval_build_walk(Evaluator *e)
{
    const Variant *v = e->v;
    bool ok = true;
    for (int s = 0; s < 2; s++) {
        e->leap_accept[s] = malloc(((size_t)v->nleaps + 1) * sizeof(uint32_t));
        e->slide_accept[s] = malloc(((size_t)v->nrays + 1) * sizeof(uint32_t));
        e->hop_accept[s] = malloc(((size_t)v->nrays + 1) * sizeof(uint32_t));
        ok = ok && e->leap_accept[s] && e->slide_accept[s] && e->hop_accept[s];
    }
    e->leap_reach = malloc(((size_t)v->nleaps + 1) * sizeof(uint32_t));
    e->slide_reach = malloc(((size_t)v->nrays + 1) * sizeof(uint32_t));
    e->hop_reach = malloc(((size_t)v->nrays + 1) * sizeof(uint32_t));
    ok = ok && e->leap_reach && e->slide_reach && e->hop_reach;
    if (!ok) {
        eval_free_walk(e);
        return false;
    }
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < v->nleaps; i++) {
            const LeapEntry *l = &v->leaps[i];
            e->leap_accept[s][i] = accept_mask((Side)s, (l->mode & ATOM_MOVE) != 0,
                                               (l->mode & ATOM_CAPTURE) != 0, l->targets);
        }
        for (int i = 0; i < v->nrays; i++) {
            const Ray *r = &v->rays[i];
            e->slide_accept[s][i] = accept_mask((Side)s, false, (r->flags & RAY_SLIDE_CAPTURE) != 0, r->targets);
            e->hop_accept[s][i] = accept_mask((Side)s, false, (r->flags & RAY_HOP_CAPTURE) != 0, r->targets);
        }
    }
    for (int i = 0; i < v->nleaps; i++)
        e->leap_reach[i] = reach_mask((v->leaps[i].mode & ATOM_CAPTURE) != 0, v->leaps[i].targets);
    for (int i = 0; i < v->nrays; i++) {
        e->slide_reach[i] = reach_mask((v->rays[i].flags & RAY_SLIDE_CAPTURE) != 0, v->rays[i].targets);
        e->hop_reach[i] = reach_mask((v->rays[i].flags & RAY_HOP_CAPTURE) != 0, v->rays[i].targets);
    }
    return true;
}

void eval_free_walk(Evaluator *e)
{
    for (int s = 0; s < 2; s++) {
        free(e->leap_accept[s]);
        free(e->slide_accept[s]);
        free(e->hop_accept[s]);
        e->leap_accept[s] = e->slide_accept[s] = e->hop_accept[s] = NULL;
    }
    free(e->leap_reach);
    free(e->slide_reach);
    free(e->hop_reach);
    e->leap_reach = e->slide_reach = e->hop_reach = NULL;
}

/* Pseudo-legal destinations of a piece of side `us` by table t, *near counting those with
 * area[point] set; with `check`, *checks counting those that are check points of `kind` in
 * chk; with `reach`, also every occupied point it could capture on, enemy or own (walk_piece's
 * reach, decided by the side-blind reach masks). Always inlined, so that each call is compiled
 * for its constant `reach` and `check` (the compiler otherwise shares one copy). */
#if defined(__GNUC__)
#define WALK_INLINE inline __attribute__((always_inline))
#else
#define WALK_INLINE inline
#endif
static WALK_INLINE int walk_score(const Evaluator *e, const Piece *b, const MoveTable *t, Side us,
                             const uint8_t *area, int *near, bool check, const CheckMap *chk,
                             int kind, int *checks, bool reach, Reach *r, uint8_t rank)
{
    const Variant *v = e->v;
    int n = 0, hits = 0, threats = 0;
    const uint16_t *ck = check ? chk->kinds : NULL;
    const LeapEntry *l = v->leaps + t->leap_first;
    const uint32_t *acc = e->leap_accept[us] + t->leap_first;
    const uint32_t *lreach = e->leap_reach + t->leap_first;
    for (int i = 0; i < t->leap_count; i++) {
        Point to = l[i].to;
        unsigned open = !(b[l[i].block[0]] | b[l[i].block[1]]);
        unsigned ok = (acc[i] >> b[to]) & open & 1u;
        n += (int)ok;
        hits += (int)(ok & area[to]);
        if (check)
            threats += (int)(ok & (unsigned)(ck[to] >> kind));
        if (reach)
            reach_add(r, us, to, rank, (lreach[i] >> b[to]) & open & 1u);
    }
    const Ray *ray = v->rays + t->ray_first;
    const uint32_t *sacc = e->slide_accept[us] + t->ray_first, *hacc = e->hop_accept[us] + t->ray_first;
    const uint32_t *sreach = e->slide_reach + t->ray_first, *hreach = e->hop_reach + t->ray_first;
    for (int j = 0; j < t->ray_count; j++, ray++) {
        const Point *pts = v->ray_points + ray->first;
        int len = ray->len, k = 0, slide_max = ray->slide_max;
        unsigned flags = ray->flags;
        if (!(flags & RAY_SLIDE_MOVE)) {
            while (k < len && !b[pts[k]])
                k++;
        } else if (slide_max >= len) {
            for (; k < len && !b[pts[k]]; k++) {
                hits += area[pts[k]];
                if (check)
                    threats += ck[pts[k]] >> kind & 1;
            }
            n += k;
        } else {
            for (; k < len && !b[pts[k]]; k++)
                if (k < slide_max) {
                    n++;
                    hits += area[pts[k]];
                    if (check)
                        threats += ck[pts[k]] >> kind & 1;
                }
        }
        if (k == len)
            continue;
        Point to = pts[k];
        unsigned ok = (sacc[j] >> b[to]) & (k < slide_max) & 1u;
        n += (int)ok;
        hits += (int)(ok & area[to]);
        if (check)
            threats += (int)(ok & (unsigned)(ck[to] >> kind));
        if (reach)
            reach_add(r, us, to, rank, (sreach[j] >> b[to]) & (k < slide_max) & 1u);
        if (!(flags & (RAY_HOP_MOVE | RAY_HOP_CAPTURE)))
            continue;
        k++;
        for (int s = 1; s < ray->screens && k < len; k++)
            s += b[pts[k]] != 0;
        bool hop_move = (flags & RAY_HOP_MOVE) != 0;
        for (; k < len && !b[pts[k]]; k++)
            if (hop_move) {
                n++;
                hits += area[pts[k]];
                if (check)
                    threats += ck[pts[k]] >> kind & 1;
            }
        if (k == len)
            continue;
        to = pts[k];
        ok = (hacc[j] >> b[to]) & 1u;
        n += (int)ok;
        hits += (int)(ok & area[to]);
        if (check)
            threats += (int)(ok & (unsigned)(ck[to] >> kind));
        if (reach)
            reach_add(r, us, to, rank, (hreach[j] >> b[to]) & 1u);
    }
    *near += hits;
    if (check)
        *checks += threats;
    return n;
}

/* walk_score compiled for the constant `reach` and `check` of the call. */
static WALK_INLINE int walk_score_parts(const Evaluator *e, const Piece *b, const MoveTable *t,
                                        Side us, const uint8_t *area, int *near,
                                        const CheckMap *chk, int kind, int *checks, Reach *r,
                                        uint8_t rank)
{
    if (r)
        return chk ? walk_score(e, b, t, us, area, near, true, chk, kind, checks, true, r, rank)
                   : walk_score(e, b, t, us, area, near, false, NULL, 0, checks, true, r, rank);
    return chk ? walk_score(e, b, t, us, area, near, true, chk, kind, checks, false, NULL, 0)
               : walk_score(e, b, t, us, area, near, false, NULL, 0, checks, false, NULL, 0);
}

/* collect()'s counts for the score; returns the piece-square sum, summed in the order
 * eval_pst_sum sums it (the same bits). */
static double collect_score(const Evaluator *e, const Position *pos, Terms *t, unsigned parts)
{
    const Variant *v = e->v;
    int nk = v->nkinds;
    bool reach = (parts & PART_REACH) != 0;
    bool check = (parts & PART_CHECK) && e->check_kinds;
    for (int s = 0; s < 2; s++) {
        for (int k = 0; k < nk; k++)
            t->mobility[s][k] = t->attack[s][k] = t->count[s][k] = 0;
        if (reach)
            for (int k = 0; k < nk; k++)
                t->defended[s][k] = 0;
        if (check)
            for (int k = 0; k < nk; k++)
                t->check[s][k] = 0;
        if (parts & PART_ALIGN)
            memset(t->align[s], 0, (size_t)nk * sizeof t->align[s][0]);
        t->pressure[s] = t->attackers[s] = 0;
    }
    if (reach)
        for (int k = 0; k < nk; k++)
            t->threat[k] = 0;
    t->nthreat = 0;
    t->late = 0;
    Reach r;
    if (reach)
        reach_clear(v, &r);
    /* Byte map of the points near each royal piece (area[s]: near the royal piece of s, where
     * the moves of the other side count). */
    uint8_t area[2][256];
    memset(area, 0, sizeof area);
    for (int s = 0; s < 2; s++) {
        Point k = pos->royal[s];
        if (k == XQ_NO_POINT)
            continue;
        for (int i = 0; i < e->near_count[s][k]; i++)
            area[s][e->near_list[s][k][i]] = 1;
    }
    const Piece *b = pos->board;
    double pst_sum = 0, material = 0;
    CheckMap chk;
    for (int s = 0; s < 2; s++) {
        const uint8_t *map = area[XQ_OTHER((Side)s)];
        if (check)
            check_points(e, pos, (Side)s, &chk);
        Point royal = pos->royal[XQ_OTHER((Side)s)];
        const bool *walk = royal != XQ_NO_POINT && !pointset_has(&e->royal_zone[XQ_OTHER((Side)s)], royal)
                               ? e->walk_fallback : e->walk_press[s];
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            Piece pc = b[p];
            int k = XQ_PIECE_KIND(pc);
            pst_sum += e->pst[pc][p];
            if (parts & PART_COUNT) {
                t->count[s][k]++;
                material += e->phase_value[k];
            }
            if (!reach && !walk[k])
                continue;
            const MoveTable *mt = e->tables_vary ? pos_piece_table(pos, p) : &v->table[k][s][p];
            int near = 0, checks = 0;
            int mob = walk_score_parts(e, b, mt, (Side)s, map, &near, check ? &chk : NULL, k, &checks,
                                       reach ? &r : NULL, e->value_rank[k]);
            t->mobility[s][k] = (int16_t)(t->mobility[s][k] + mob);
            if (check)
                t->check[s][k] = (int16_t)(t->check[s][k] + checks);
            t->attack[s][k] = (int16_t)(t->attack[s][k] + near);
            t->pressure[s] = (int16_t)(t->pressure[s] + near);
            t->attackers[s] = (int16_t)(t->attackers[s] + (near > 0));
        }
        if (parts & PART_ALIGN)
            count_align(e, pos, (Side)s, t);
    }
    if (reach)
        count_reach(e, pos, &r, t);
    if ((parts & PART_COUNT) && e->start_material > 0) {
        for (int h = 0; h < e->nholdings; h++)
            material += e->phase_value[e->holdings[h].kind] *
                        (pos_held(pos, RED, &e->holdings[h]) + pos_held(pos, BLACK, &e->holdings[h]));
        double left = material / e->start_material;
        t->late = left >= 1 ? 0 : 1 - left;
    }
    return pst_sum;
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

/* The score from the counts of collect() or collect_score(). Each side's sum is its own chain
 * of additions in a fixed order (the same bits whatever the path); the two chains and the
 * threats' advance side by side, so that their additions' latencies overlap. */
static double score_red(const Evaluator *e, const Position *pos, const Terms *t, double pst_sum)
{
    int nk = e->v->nkinds;
    double red = e->pressure_weight * t->pressure[RED], black = e->pressure_weight * t->pressure[BLACK];
    for (int k = 0; k < nk; k++) {
        red += e->mobility_weight[k] * t->mobility[RED][k] + e->attack_weight[k] * t->attack[RED][k];
        black += e->mobility_weight[k] * t->mobility[BLACK][k] + e->attack_weight[k] * t->attack[BLACK][k];
    }
    if (e->need_attackers) {
        for (int n = 2; n <= t->attackers[RED] && n <= XQ_MAX_PIECES; n++)
            red += e->attackers_weight[n];
        for (int n = 2; n <= t->attackers[BLACK] && n <= XQ_MAX_PIECES; n++)
            black += e->attackers_weight[n];
    }
    if (e->need_danger) {
        red += e->danger_weight * (t->attackers[RED] * t->pressure[RED]);
        black += e->danger_weight * (t->attackers[BLACK] * t->pressure[BLACK]);
    }
    if (e->need_check)
        for (int k = 0; k < nk; k++) {
            red += e->check_weight[k] * t->check[RED][k];
            black += e->check_weight[k] * t->check[BLACK][k];
        }
    if (e->need_align)
        for (int k = 0; k < nk; k++)
            for (int n = 0; n < EVAL_MAX_ALIGN; n++) {
                red += e->align_weight[k][n] * t->align[RED][k][n];
                black += e->align_weight[k][n] * t->align[BLACK][k][n];
            }
    double threat = 0;
    if (e->need_reach) {
        threat = t->nthreat >= 2 ? e->fork_weight : 0;
        for (int k = 0; k < nk; k++) {
            red += e->defended_weight[k] * t->defended[RED][k];
            black += e->defended_weight[k] * t->defended[BLACK][k];
            threat += e->threat_weight[k] * t->threat[k];
        }
    }
    if (e->need_count)
        for (int k = 0; k < nk; k++) {
            red += e->late_weight[k] * t->late * t->count[RED][k] + e->pair_weight[k] * (t->count[RED][k] >= 2);
            black += e->late_weight[k] * t->late * t->count[BLACK][k] +
                     e->pair_weight[k] * (t->count[BLACK][k] >= 2);
        }
    double score = pst_sum;
    score += red;
    score += -black;
    double sign = pos->side == RED ? 1.0 : -1.0;
    if (e->need_reach)
        score += sign * threat;
    if (pos->in_check)
        score -= sign * e->in_check_weight;
    score += sign * e->side_weight;
    if (e->nholdings)
        score += eval_holdings_red(e, pos);
    if (e->hidden_weight != 0)
        score += e->hidden_weight * eval_hidden_expected(pos);
    if (e->net)
        score += sign * net_score(e->net, pos);
    return score;
}

static unsigned score_parts(const Evaluator *e)
{
    return (e->need_reach ? PART_REACH : 0) | (e->need_align ? PART_ALIGN : 0) |
           (e->need_count ? PART_COUNT : 0) | (e->need_check ? PART_CHECK : 0) |
           (e->need_attackers || e->need_danger ? PART_WALK_ALL : 0);
}

double eval_score_red_with_pst(const Evaluator *e, const Position *pos, double pst_sum)
{
    Terms t;
    collect(e, pos, &t, score_parts(e));
    return score_red(e, pos, &t, pst_sum);
}

double eval_score(const Evaluator *e, Position *pos)
{
    double red;
    Terms t;
    if (e->leap_accept[0]) {
        double pst_sum = collect_score(e, pos, &t, score_parts(e));
        red = score_red(e, pos, &t, pst_sum);
    } else {
        collect(e, pos, &t, score_parts(e));
        red = score_red(e, pos, &t, eval_pst_sum(e, pos));
    }
    return pos->side == RED ? red : -red;
}

static inline void add_at(float *out, int16_t index, float x)
{
    if (index >= 0)
        out[index] += x;
}

void eval_features(const Evaluator *e, Position *pos, float *out)
{
    const Variant *v = e->v;
    memset(out, 0, (size_t)e->nfeatures * sizeof *out);
    Terms t;
    collect(e, pos, &t, PART_WALK_ALL | PART_REACH | PART_ALIGN | PART_COUNT | PART_CHECK);
    float to_move = pos->side == RED ? 1.0f : -1.0f;
    for (int s = 0; s < 2; s++) {
        float sign = s == RED ? 1.0f : -1.0f;
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            int k = XQ_PIECE_KIND(pos->board[p]);
            add_at(out, e->material_of[k], sign);
            for (int z = 0; z < e->nzone_of[k]; z++) {
                const Feature *f = &e->features[e->zone_of[k][z]];
                if (pointset_has(&v->zones[f->zone].points[f->their ? XQ_OTHER((Side)s) : (Side)s], p))
                    out[e->zone_of[k][z]] += sign;
            }
            /* Per-point terms are indexed by Red's point: Black's pieces by their mirror. */
            add_at(out, e->point_of[k][s == RED ? p : v->mirror[p]], sign);
        }
        for (int k = 0; k < v->nkinds; k++) {
            add_at(out, e->mobility_of[k], sign * t.mobility[s][k]);
            add_at(out, e->attack_of[k], sign * t.attack[s][k]);
            add_at(out, e->defended_of[k], sign * t.defended[s][k]);
            add_at(out, e->late_of[k], sign * (float)(t.late * t.count[s][k]));
            add_at(out, e->pair_of[k], sign * (t.count[s][k] >= 2));
            for (int n = 0; n < EVAL_MAX_ALIGN; n++)
                add_at(out, e->align_of[k][n], sign * t.align[s][k][n]);
            add_at(out, e->check_of[k], sign * t.check[s][k]);
        }
        add_at(out, e->pressure_of, sign * t.pressure[s]);
        add_at(out, e->danger_of, sign * (float)(t.attackers[s] * t.pressure[s]));
        for (int n = 2; n <= t.attackers[s] && n <= XQ_MAX_PIECES; n++)
            add_at(out, e->attackers_of[n], sign);
    }
    for (int k = 0; k < v->nkinds; k++)
        add_at(out, e->threat_of[k], to_move * t.threat[k]);
    if (t.nthreat >= 2)
        add_at(out, e->fork_of, to_move);
    if (pos->in_check)
        add_at(out, e->in_check_of, -to_move);
    add_at(out, e->side_of, to_move);
    for (int i = 0; i < e->nfeatures; i++) {
        const Feature *f = &e->features[i];
        if (f->type == FEAT_HOLDING)
            out[i] = (float)(pos_held(pos, RED, &e->holdings[f->holding]) -
                             pos_held(pos, BLACK, &e->holdings[f->holding]));
    }
    if (e->hidden_of >= 0)
        out[e->hidden_of] = (float)eval_hidden_expected(pos);
}
