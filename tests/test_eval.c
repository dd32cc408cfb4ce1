/* test_eval.c - the generated evaluation features: the feature list of each rule set (per-point
 * terms tied across the middle file only when the rules are symmetric), hand-made positions for
 * threats, defences, lines aimed at the general, attackers, king danger and check threats,
 * every feature checked against an
 * independent count through the core's own move generator and attack test on random positions,
 * the fast score equal to the features times the weights for every rule set, and equal to a
 * from-scratch reference (moves written out from the move tables) after moves and take-backs. */
#include "test_util.h"

#include <math.h>

#include "eval_private.h"
#include "hidden.h"
#include "rng.h"
#include "rules_test.h"
#include "walk.h"

static int feature_index(const Evaluator *e, const char *name)
{
    for (int i = 0; i < eval_feature_count(e); i++)
        if (!strcmp(eval_feature_name(e, i), name))
            return i;
    return -1;
}

static int must_find(const Evaluator *e, const char *name)
{
    int i = feature_index(e, name);
    if (i < 0)
        fail_msg("no feature %s", name);
    return i;
}

static int count_prefix(const Evaluator *e, const char *prefix)
{
    int n = 0;
    for (int i = 0; i < eval_feature_count(e); i++)
        n += strncmp(eval_feature_name(e, i), prefix, strlen(prefix)) == 0;
    return n;
}

static Evaluator *make_eval(const Variant *v)
{
    XqError err;
    Evaluator *e = eval_create(v, NULL, &err);
    if (!e)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    return e;
}

/* Standard xiangqi: per-point terms for the points each kind can reach, one feature for a point
 * and its image across the e-file. */
static void xiangqi_feature_list(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    Evaluator *e = make_eval(v);
    /* Palace: d0 e0 d1 e1 d2 e2 for the general (f-file points are the d-file's images). */
    assert_int_equal(count_prefix(e, "pst.general."), 6);
    must_find(e, "pst.general.d0");
    assert_int_equal(feature_index(e, "pst.general.f0"), -1);
    /* Advisors d0 (= f0), e1, d2 (= f2); elephants c0, a2, e2, c4. */
    assert_int_equal(count_prefix(e, "pst.advisor."), 3);
    assert_int_equal(count_prefix(e, "pst.elephant."), 4);
    must_find(e, "pst.elephant.c4");
    /* Horses and chariots: 90 points, 50 after tying (five files of ten ranks). */
    assert_int_equal(count_prefix(e, "pst.horse."), 50);
    assert_int_equal(count_prefix(e, "pst.chariot."), 50);
    /* A pawn never stands behind its start rank or between its start files before crossing:
     * a3 c3 e3, a4 c4 e4, then five files of ranks 5..9. */
    assert_int_equal(count_prefix(e, "pst.pawn."), 31);
    assert_int_equal(feature_index(e, "pst.pawn.a2"), -1);
    assert_int_equal(feature_index(e, "pst.pawn.b4"), -1);
    must_find(e, "pst.pawn.b5");
    /* Lines: a chariot gives check with nothing in between, a cannon with one piece. */
    must_find(e, "align.chariot.1");
    must_find(e, "align.chariot.2");
    assert_int_equal(feature_index(e, "align.chariot.0"), -1);
    must_find(e, "align.cannon.0");
    must_find(e, "align.cannon.2");
    assert_int_equal(feature_index(e, "align.cannon.1"), -1);
    assert_int_equal(feature_index(e, "align.horse.0"), -1);
    /* Pairs for the kinds a side starts with two of; no royal material, threat or pair. */
    must_find(e, "pair.advisor");
    must_find(e, "pair.pawn");
    assert_int_equal(feature_index(e, "pair.general"), -1);
    assert_int_equal(feature_index(e, "threat.general"), -1);
    must_find(e, "threat.multiple");
    must_find(e, "safety.attackers_4");
    must_find(e, "late.chariot");
    /* King danger; check threats for the kinds that can ever capture the general in its
     * palace (an advisor or elephant never leaves its own side). */
    must_find(e, "safety.danger");
    assert_int_equal(count_prefix(e, "check."), 4);
    must_find(e, "check.horse");
    must_find(e, "check.chariot");
    must_find(e, "check.cannon");
    must_find(e, "check.pawn");
    assert_int_equal(feature_index(e, "check.advisor"), -1);
    assert_int_equal(feature_index(e, "check.general"), -1);
    /* Every new weight starts at 0: the score of the start position is what it was. */
    for (int i = must_find(e, "side.to_move") + 1; i < eval_feature_count(e); i++)
        assert_true(eval_weight(e, i) == 0);
    eval_free(e);
    variant_free(v);
}

/* An asymmetric start (Red's a-file chariot missing) makes the e-file no mirror: every point
 * has its own term. */
static void asymmetric_rules_untie_points(void **state)
{
    (void)state;
    Variant *v = load_text_variant("xiangqi", "start = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                                   "start = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w");
    Evaluator *e = make_eval(v);
    assert_int_equal(count_prefix(e, "pst.horse."), 90);
    must_find(e, "pst.horse.h0");
    assert_int_equal(count_prefix(e, "pst.general."), 9);
    eval_free(e);
    variant_free(v);
}

/* Every shipped rule set builds its feature list within the limit, names unique. */
static const char *const VARIANTS[] = {
    "xiangqi", "sniper", "mixed", "cube", "five-tigers", "river-camp", "tuoqi",
    "jieqi", "jieqi-folk", "banqi", "banqi-hp",
};
enum { NVARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

static void every_rule_set_builds(void **state)
{
    (void)state;
    for (int i = 0; i < NVARIANTS; i++) {
        Variant *v = test_load_variant(VARIANTS[i]);
        Evaluator *e = make_eval(v);
        int nf = eval_feature_count(e);
        assert_true(nf > 20 && nf <= EVAL_MAX_FEATURES);
        for (int a = 0; a < nf; a++)
            for (int b = a + 1; b < nf; b++)
                if (!strcmp(eval_feature_name(e, a), eval_feature_name(e, b)))
                    fail_msg("%s: feature %s twice", VARIANTS[i], eval_feature_name(e, a));
        assert_true(count_prefix(e, "pst.") > 0);
        /* King danger wherever there is a royal piece; check threats too unless a rule module
         * switches move tables (the cube, face-down pieces). */
        assert_int_equal(count_prefix(e, "safety.danger"), v->royal_mask != 0);
        bool checks = v->royal_mask && !variant_tables_vary(v);
        if (checks != (count_prefix(e, "check.") > 0))
            fail_msg("%s: %d check features", VARIANTS[i], count_prefix(e, "check."));
        eval_free(e);
        variant_free(v);
    }
}

static float feature_of(const Evaluator *e, const float *x, const char *name)
{
    return x[must_find(e, name)];
}

/* Hand-made positions (Red's view; threats count for the side to move only). */
static void hand_positions(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    Evaluator *e = make_eval(v);
    Position *pos = malloc(sizeof *pos);
    float *x = calloc((size_t)eval_feature_count(e), sizeof *x);

    /* A cannon on the general's file with nothing between: the hollow cannon. */
    test_set_fen(pos, v, "4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1");
    eval_features(e, pos, x);
    assert_float_equal(feature_of(e, x, "align.cannon.0"), 1, 0);
    assert_float_equal(feature_of(e, x, "align.cannon.2"), 0, 0);

    /* A chariot pinning a horse to its general; Black to move: the horse is attacked and not
     * defended, a threat against the side to move (-1 from Red's view). */
    test_set_fen(pos, v, "4k4/9/9/4n4/9/9/9/9/4R4/3K5 b - - 0 1");
    eval_features(e, pos, x);
    assert_float_equal(feature_of(e, x, "align.chariot.1"), 1, 0);
    assert_float_equal(feature_of(e, x, "threat.horse"), -1, 0);
    assert_float_equal(feature_of(e, x, "threat.multiple"), 0, 0);
    /* The same with Red to move: Black's hanging horse is the capture search's business. */
    test_set_fen(pos, v, "4k4/9/9/4n4/9/9/9/9/4R4/3K5 w - - 0 1");
    eval_features(e, pos, x);
    assert_float_equal(feature_of(e, x, "threat.horse"), 0, 0);

    /* A chariot attacked by a pawn is threatened though nobody could win it back; a horse
     * defended by a chariot and attacked only by a chariot is not. */
    test_set_fen(pos, v, "4k1r2/9/9/2p6/2R3N2/9/9/9/9/3K2R2 w - - 0 1");
    eval_features(e, pos, x);
    assert_float_equal(feature_of(e, x, "threat.chariot"), 1, 0);
    assert_float_equal(feature_of(e, x, "threat.horse"), 0, 0);
    assert_float_equal(feature_of(e, x, "defended.horse"), 1, 0);
    assert_float_equal(feature_of(e, x, "defended.chariot"), 0, 0);
    assert_float_equal(feature_of(e, x, "defended.pawn"), 0, 0);

    /* A horse forking two chariots that defend each other. */
    test_set_fen(pos, v, "4k4/9/9/9/4n4/2R3R2/9/9/9/4K4 w - - 0 1");
    eval_features(e, pos, x);
    assert_float_equal(feature_of(e, x, "threat.chariot"), 2, 0);
    assert_float_equal(feature_of(e, x, "threat.multiple"), 1, 0);
    assert_float_equal(feature_of(e, x, "defended.chariot"), 2, 0);
    /* Material: Red has two chariots, Black a horse; the start has 2 x (2 x (2 + 2 + 4 + 9 +
     * 4.5) + 5) = 96 pawns, late share = 1 - 22 / 96. */
    double late = 1 - 22.0 / 96.0;
    assert_true(fabs(feature_of(e, x, "late.chariot") - 2 * late) < 1e-6);
    assert_true(fabs(feature_of(e, x, "late.horse") + late) < 1e-6);
    assert_float_equal(feature_of(e, x, "pair.chariot"), 1, 0);
    assert_float_equal(feature_of(e, x, "pair.horse"), 0, 0);
    /* Per-point terms: Red's chariots on c4 and g4 (one tied feature), Black's horse on e5 is
     * Red's e4 seen from Black's side. */
    assert_float_equal(feature_of(e, x, "pst.chariot.c4"), 2, 0);
    assert_float_equal(feature_of(e, x, "pst.horse.e4"), -1, 0);
    assert_float_equal(feature_of(e, x, "pst.general.e0"), 0, 0);

    /* The start position: every threat, line and late share is 0, pairs cancel (and so do
     * danger and check threats: the position is symmetric). */
    pos_init_start(pos, v);
    eval_features(e, pos, x);
    for (int i = must_find(e, "side.to_move") + 1; i < eval_feature_count(e); i++)
        if (x[i] != 0)
            fail_msg("start position: %s = %g", eval_feature_name(e, i), x[i]);
    free(x);
    free(pos);
    eval_free(e);
    variant_free(v);
}

/* King danger and check threats, counted by hand (standard xiangqi; Red's view). */
static void danger_and_check_threats(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    Evaluator *e = make_eval(v);
    Position *pos = malloc(sizeof *pos);
    float *x = calloc((size_t)eval_feature_count(e), sizeof *x);

    /* Black's general on e9, Red's on d0. Red's horse on e5 has two moves that give check,
     * d7 and f7 (legs d8 and f8 empty; its other moves c6 g6 c4 g4 d3 f3 do not); the
     * chariot on a0 one, a9 (rank 9 clear to the general; a1..a8, b0 and c0 do not); the
     * cannon on b4 one, e4, behind the horse as its screen (b9 is no check point: nothing
     * stands between it and the general). Black's pawn on d2 has one, d1, next to Red's
     * general (c2 and e2 are not). */
    test_set_fen(pos, v, "4k4/9/9/9/4N4/1C7/9/3p5/9/R2K5 w - - 0 1");
    eval_features(e, pos, x);
    assert_float_equal(feature_of(e, x, "check.horse"), 2, 0);
    assert_float_equal(feature_of(e, x, "check.chariot"), 1, 0);
    assert_float_equal(feature_of(e, x, "check.cannon"), 1, 0);
    assert_float_equal(feature_of(e, x, "check.pawn"), -1, 0);
    /* Only Black's pawn lands next to a general (d1): danger 0 - 1 x 1. */
    assert_float_equal(feature_of(e, x, "safety.danger"), -1, 0);
    /* Black's horses on d8 and f8 block the legs of every horse check (d7, f7 by d8, f8; c8,
     * g8 likewise): the horse's checks are gone, the others stay. */
    test_set_fen(pos, v, "4k4/3n1n3/9/9/4N4/1C7/9/3p5/9/R2K5 w - - 0 1");
    eval_features(e, pos, x);
    assert_float_equal(feature_of(e, x, "check.horse"), 0, 0);
    assert_float_equal(feature_of(e, x, "check.chariot"), 1, 0);
    assert_float_equal(feature_of(e, x, "check.cannon"), 1, 0);
    assert_float_equal(feature_of(e, x, "check.pawn"), -1, 0);
    /* A second piece on the e-file before the cannon's landing points: e4 lies behind two
     * screens (e5, e6), no check point any more. */
    test_set_fen(pos, v, "4k4/9/9/4n4/4N4/1C7/9/3p5/9/R2K5 w - - 0 1");
    eval_features(e, pos, x);
    assert_float_equal(feature_of(e, x, "check.cannon"), 0, 0);

    /* King danger. Near Black's general on e9: e9 d9 f9 e8. Red: the chariot on a8 reaches e8
     * (1 move), the horse on c7 d9 and e8 (2), the cannon on e3 slides to e8 (1): 3 attackers,
     * pressure 4, danger 12. Near Red's general on f0: f0 e0 g0 f1 e1. Black: the chariot on
     * g5 reaches g0 (1): 1 attacker, pressure 1, danger 1. Red minus Black: 11. */
    test_set_fen(pos, v, "4k4/R8/2N6/9/6r2/9/4C4/9/9/5K3 w - - 0 1");
    assert_false(pos->in_check);
    eval_features(e, pos, x);
    assert_float_equal(feature_of(e, x, "safety.royal_pressure"), 4 - 1, 0);
    assert_float_equal(feature_of(e, x, "safety.attackers_3"), 1, 0);
    assert_float_equal(feature_of(e, x, "safety.danger"), 3 * 4 - 1 * 1, 0);

    /* The score with weights on the new families (and the default material) is their dot
     * product with the features, the same by either walk. */
    char path[1024];
    snprintf(path, sizeof path, "%s/test_eval_danger.ini", XQ_BINARY_DIR);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("[weights]\nsafety.danger = 0.03125\ncheck.horse = 0.25\ncheck.chariot = 0.5\n"
          "check.cannon = -0.125\ncheck.pawn = 1\n", fp);
    fclose(fp);
    XqError err;
    Evaluator *w = eval_create(v, path, &err);
    assert_non_null(w);
    assert_true(w->need_danger && w->need_check);
    static const char *const fens[] = {
        "4k4/9/9/9/4N4/1C7/9/3p5/9/R2K5 w - - 0 1",
        "4k4/9/9/9/4N4/1C7/9/3p5/9/R2K5 b - - 0 1",
        "4k4/R8/2N6/9/6r2/9/4C4/9/9/5K3 w - - 0 1",
    };
    /* Material 4 + 9 + 4.5 - 1; checks 2 x 0.25 + 0.5 - 0.125 - 1; danger -1 / 32. Red's view,
     * then Black's (the score is the side to move's). */
    double red_view = 16.5 + 0.5 + 0.5 - 0.125 - 1 - 0.03125;
    static const double side[] = {1, -1};
    for (int i = 0; i < 2; i++) {
        test_set_fen(pos, v, fens[i]);
        double score = eval_score(w, pos);
        if (fabs(score - side[i] * red_view) > 1e-9)
            fail_msg("%s: score %.9f, expected %.9f", fens[i], score, side[i] * red_view);
    }
    for (int i = 0; i < 3; i++) {
        test_set_fen(pos, v, fens[i]);
        eval_features(w, pos, x);
        double dot = 0;
        for (int f = 0; f < eval_feature_count(w); f++)
            dot += eval_weight(w, f) * x[f];
        double red = eval_score(w, pos) * (pos->side == RED ? 1 : -1);
        double general = eval_score_red_with_pst(w, pos, eval_pst_sum(w, pos));
        if (fabs(dot - red) > 1e-9 || memcmp(&red, &general, sizeof red) != 0)
            fail_msg("%s: score %.9f, general walk %.9f, features . weights %.9f", fens[i], red,
                     general, dot);
    }
    eval_free(w);
    free(x);
    free(pos);
    eval_free(e);
    variant_free(v);
}

/* ---- random positions against the core ------------------------------------------------------- */

static uint64_t lcg_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* Plays up to `plies` random legal moves from the start; returns false if the game ended. */
static bool random_position(Position *pos, const Variant *v, uint64_t *rng, int plies)
{
    pos_init_start(pos, v);
    /* Hidden-piece rule sets: a deal gives the reveals their identities. */
    Rng deal_rng;
    rng_init(&deal_rng, *rng);
    HiddenDeal deal;
    if (hidden_on(v)) {
        hidden_deal(pos, &deal_rng, &deal);
        hidden_show_start(pos, &deal, &deal_rng);
    }
    MoveList list;
    for (int i = 0; i < plies; i++) {
        int n = pos_generate_legal(pos, &list);
        if (n == 0 || pos->hist_len >= XQ_MAX_HISTORY - 1)
            return i > 0;
        Move m = list.moves[lcg_next(rng) % (uint64_t)n];
        if (hidden_on(v))
            m = hidden_resolve(pos, m, &deal);
        Undo u;
        pos_do_move(pos, m, &u);
    }
    return true;
}

static double kind_value(const Variant *v, int k)
{
    return v->kinds[k].royal ? INFINITY : v->kinds[k].value;
}

static bool near_royal(const Variant *v, Point royal, Point p)
{
    if (royal == XQ_NO_POINT)
        return false;
    if (p == royal)
        return true;
    for (int d = 0; d < DIR_COUNT; d++)
        if (v->neighbor[royal][d] == p)
            return true;
    return false;
}

/* 1 if the piece on `from` moved to `to` (its origin left occupied, as the check features
 * approximate) captures the other side's royal piece from there by its forward move table
 * (walk_captures_t): an independent count of the evaluation's check points, which it derives
 * backwards from the royal point. 0 for a royal piece (no check feature). */
static int gives_check_from(const Position *pos, Point from, Point to)
{
    const Variant *v = pos->v;
    Piece pc = pos->board[from];
    Side s = XQ_PIECE_SIDE(pc);
    int k = XQ_PIECE_KIND(pc);
    Point royal = pos->royal[XQ_OTHER(s)];
    if (royal == XQ_NO_POINT || v->kinds[k].royal)
        return 0;
    Piece b[256];
    memcpy(b, pos->board, sizeof b);
    b[to] = pc;
    Move caps[256];
    int n = walk_captures_t(v, b, to, &v->table[k][s][to], caps, 0);
    for (int i = 0; i < n; i++)
        if (XQ_MOVE_TO(caps[i]) == royal)
            return 1;
    return 0;
}

/* Features from the core: attacks by pos_attackers, moves by pos_generate_pseudo, lines by
 * walking the board's files and ranks (the rule sets tested have orthogonal line pieces). */
static void reference_features(const Evaluator *e, Position *pos, double *ref)
{
    const Variant *v = pos->v;
    int nf = eval_feature_count(e);
    for (int i = 0; i < nf; i++)
        ref[i] = NAN;
    char name[96];
    Side us = pos->side;
    double to_move = us == RED ? 1 : -1;
    int threat[XQ_MAX_KINDS] = {0}, defended[2][XQ_MAX_KINDS] = {{0}}, nthreat = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            int k = XQ_PIECE_KIND(pos->board[p]);
            if (v->kinds[k].royal)
                continue;
            Point from[64];
            int att = pos_attackers(pos, p, XQ_OTHER((Side)s), from, 64);
            int def = pos_attackers(pos, p, (Side)s, NULL, 0);
            double low = INFINITY;
            for (int j = 0; j < att; j++)
                low = fmin(low, kind_value(v, XQ_PIECE_KIND(pos->board[from[j]])));
            defended[s][k] += def > 0;
            if (s == (int)us && att > 0 && (def == 0 || low < v->kinds[k].value)) {
                threat[k]++;
                nthreat++;
            }
        }
    int mob[2][XQ_MAX_KINDS] = {{0}}, attack[2][XQ_MAX_KINDS] = {{0}}, attackers[2] = {0};
    int check[2][XQ_MAX_KINDS] = {{0}};
    for (int s = 0; s < 2; s++) {
        Side saved = pos->side;
        pos->side = (Side)s;
        MoveList list;
        int n = pos_generate_pseudo(pos, &list);
        pos->side = saved;
        bool counted[XQ_MAX_POINTS] = {false};
        for (int i = 0; i < n; i++) {
            Point f = XQ_MOVE_FROM(list.moves[i]), t = XQ_MOVE_TO(list.moves[i]);
            int k = XQ_PIECE_KIND(pos->board[f]);
            mob[s][k]++;
            check[s][k] += gives_check_from(pos, f, t);
            if (near_royal(v, pos->royal[XQ_OTHER((Side)s)], t)) {
                attack[s][k]++;
                if (!counted[f])
                    attackers[s]++;
                counted[f] = true;
            }
        }
    }
    int align[2][XQ_MAX_KINDS][3] = {{{0}}};
    for (int s = 0; s < 2; s++) {
        Point king = pos->royal[XQ_OTHER((Side)s)];
        if (king == XQ_NO_POINT)
            continue;
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            int k = XQ_PIECE_KIND(pos->board[p]);
            if (!v->table[k][s][p].ray_count)
                continue;
            int df = v->point_file[king] - v->point_file[p], dr = v->point_rank[king] - v->point_rank[p];
            if ((df != 0) == (dr != 0))
                continue;
            int steps = abs(df) + abs(dr), between = 0;
            for (int j = 1; j < steps; j++) {
                Point q = v->point_at[v->point_rank[p] + j * (dr > 0) - j * (dr < 0)]
                                     [v->point_file[p] + j * (df > 0) - j * (df < 0)];
                between += pos->board[q] != 0;
            }
            if (between < 3)
                align[s][k][between]++;
        }
    }
    double material = 0, start_material = 0;
    Position *start = malloc(sizeof *start);
    pos_init_start(start, v);
    int count[2][XQ_MAX_KINDS] = {{0}};
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < pos->count[s]; i++) {
            int k = XQ_PIECE_KIND(pos->board[pos->list[s][i]]);
            count[s][k]++;
            material += v->kinds[k].royal ? 0 : v->kinds[k].value;
        }
        for (int i = 0; i < start->count[s]; i++) {
            int k = XQ_PIECE_KIND(start->board[start->list[s][i]]);
            start_material += v->kinds[k].royal ? 0 : v->kinds[k].value;
        }
    }
    free(start);
    double late = material >= start_material ? 0 : 1 - material / start_material;
    int pressure[2] = {0, 0};
    for (int k = 0; k < v->nkinds; k++) {
        const char *kn = v->kinds[k].name;
        int i;
        pressure[0] += attack[0][k];
        pressure[1] += attack[1][k];
        snprintf(name, sizeof name, "threat.%s", kn);
        if ((i = feature_index(e, name)) >= 0)
            ref[i] = to_move * threat[k];
        snprintf(name, sizeof name, "defended.%s", kn);
        if ((i = feature_index(e, name)) >= 0)
            ref[i] = defended[0][k] - defended[1][k];
        snprintf(name, sizeof name, "mobility.%s", kn);
        if ((i = feature_index(e, name)) >= 0)
            ref[i] = mob[0][k] - mob[1][k];
        snprintf(name, sizeof name, "attack.%s", kn);
        if ((i = feature_index(e, name)) >= 0)
            ref[i] = attack[0][k] - attack[1][k];
        snprintf(name, sizeof name, "late.%s", kn);
        if ((i = feature_index(e, name)) >= 0)
            ref[i] = late * (count[0][k] - count[1][k]);
        snprintf(name, sizeof name, "check.%s", kn);
        if ((i = feature_index(e, name)) >= 0)
            ref[i] = check[0][k] - check[1][k];
        snprintf(name, sizeof name, "pair.%s", kn);
        if ((i = feature_index(e, name)) >= 0)
            ref[i] = (count[0][k] >= 2) - (count[1][k] >= 2);
        for (int n = 0; n < 3; n++) {
            snprintf(name, sizeof name, "align.%s.%d", kn, n);
            if ((i = feature_index(e, name)) >= 0)
                ref[i] = align[0][k][n] - align[1][k][n];
        }
    }
    for (int n = 2; n <= 4; n++) {
        snprintf(name, sizeof name, "safety.attackers_%d", n);
        ref[must_find(e, name)] = (attackers[0] >= n) - (attackers[1] >= n);
    }
    ref[must_find(e, "safety.royal_pressure")] = pressure[0] - pressure[1];
    ref[must_find(e, "safety.danger")] = attackers[0] * pressure[0] - attackers[1] * pressure[1];
    ref[must_find(e, "threat.multiple")] = to_move * (nthreat >= 2);
    /* Per-point terms: Red's point, or Black's mirrored; tied to the image on the lower file. */
    for (int i = 0; i < nf; i++)
        if (!strncmp(eval_feature_name(e, i), "pst.", 4))
            ref[i] = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            int k = XQ_PIECE_KIND(pos->board[p]);
            int file = v->point_file[p], rank = s == RED ? v->point_rank[p] : v->ranks - 1 - v->point_rank[p];
            char pt[8];
            variant_point_name(v, v->point_at[rank][file], pt);
            snprintf(name, sizeof name, "pst.%s.%s", v->kinds[k].name, pt);
            if (feature_index(e, name) < 0) {
                /* Symmetric rules: the point's image on the lower file names the term. */
                variant_point_name(v, v->point_at[rank][v->files - 1 - file], pt);
                snprintf(name, sizeof name, "pst.%s.%s", v->kinds[k].name, pt);
            }
            ref[must_find(e, name)] += s == RED ? 1 : -1;
        }
}

/* The evaluation's own counts equal the core's on random positions of the rule sets whose
 * lines are orthogonal and which have no rule modules. */
static void features_match_core(void **state)
{
    (void)state;
    static const char *const names[] = {"xiangqi", "sniper"};
    Position *pos = malloc(sizeof *pos);
    uint64_t rng = 12345;
    for (int vi = 0; vi < 2; vi++) {
        Variant *v = test_load_variant(names[vi]);
        Evaluator *e = make_eval(v);
        int nf = eval_feature_count(e);
        float *x = calloc((size_t)nf, sizeof *x);
        double *ref = calloc((size_t)nf, sizeof *ref);
        int checked = 0, threats = 0, aligned = 0, checks = 0, danger = 0;
        for (int g = 0; g < 300; g++) {
            if (!random_position(pos, v, &rng, 10 + (int)(lcg_next(&rng) % 120)))
                continue;
            eval_features(e, pos, x);
            reference_features(e, pos, ref);
            for (int i = 0; i < nf; i++) {
                if (isnan(ref[i]))
                    continue;
                if (fabs(ref[i] - x[i]) > 1e-5) {
                    char fen[256];
                    pos_get_fen(pos, fen, sizeof fen);
                    fail_msg("%s %s: %s = %g, the core says %g", names[vi], fen,
                             eval_feature_name(e, i), x[i], ref[i]);
                }
                if (!strncmp(eval_feature_name(e, i), "threat.", 7))
                    threats += x[i] != 0;
                if (!strncmp(eval_feature_name(e, i), "align.", 6))
                    aligned += x[i] != 0;
                if (!strncmp(eval_feature_name(e, i), "check.", 6))
                    checks += x[i] != 0;
                if (!strcmp(eval_feature_name(e, i), "safety.danger"))
                    danger += x[i] != 0;
            }
            checked++;
        }
        /* The random positions exercised what they check. */
        assert_true(checked > 250 && threats > 50 && aligned > 20 && checks > 100 && danger > 50);
        free(x);
        free(ref);
        eval_free(e);
        variant_free(v);
    }
    free(pos);
}

/* With random weights on every feature, the fast score is the features times the weights, and
 * a position and its colour mirror score the same for the side to move, in every rule set. */
static void score_is_features_times_weights(void **state)
{
    (void)state;
    Position *pos = malloc(sizeof *pos);
    uint64_t rng = 777;
    for (int vi = 0; vi < NVARIANTS; vi++) {
        Variant *v = test_load_variant(VARIANTS[vi]);
        Evaluator *e = make_eval(v);
        int nf = eval_feature_count(e);
        char *text = malloc(1 << 17);
        size_t used = (size_t)snprintf(text, 1 << 17, "[weights]\n");
        for (int i = 0; i < nf; i++)
            used += (size_t)snprintf(text + used, (1 << 17) - used, "%s = %g\n", eval_feature_name(e, i),
                                     ((double)(lcg_next(&rng) % 2001) - 1000) / 1000.0);
        char path[1024];
        snprintf(path, sizeof path, "%s/test_eval_%s.ini", XQ_BINARY_DIR, VARIANTS[vi]);
        FILE *fp = fopen(path, "w");
        assert_non_null(fp);
        fputs(text, fp);
        fclose(fp);
        free(text);
        eval_free(e);
        XqError err;
        e = eval_create(v, path, &err);
        if (!e)
            fail_msg("%s:%d: %s", err.file, err.line, err.message);
        float *x = calloc((size_t)nf, sizeof *x);
        int checked = 0;
        for (int g = 0; g < 60; g++) {
            if (!random_position(pos, v, &rng, (int)(lcg_next(&rng) % 100)))
                continue;
            eval_features(e, pos, x);
            double dot = 0;
            for (int i = 0; i < nf; i++)
                dot += eval_weight(e, i) * x[i];
            double red = eval_score(e, pos) * (pos->side == RED ? 1 : -1);
            if (fabs(dot - red) > 1e-4 * (1 + fabs(red))) {
                char fen[256];
                pos_get_fen(pos, fen, sizeof fen);
                fail_msg("%s %s: score %.9f, features . weights %.9f", VARIANTS[vi], fen, red, dot);
            }
            checked++;
        }
        assert_true(checked > 30);
        free(x);
        eval_free(e);
        variant_free(v);
    }
    free(pos);
}

/* ---- the score against a from-scratch reference ---------------------------------------------- */

/* Destinations of the piece on p by its move table (pos_piece_table), written out plainly from
 * the table semantics of core/movegen.c; returns how many, *near counting those next to the
 * enemy royal piece and *checks those from which it would give check (gives_check_from). */
static int reference_moves(const Position *pos, Point p, int *near, int *checks)
{
    const Variant *v = pos->v;
    const MoveTable *t = pos_piece_table(pos, p);
    Side us = XQ_PIECE_SIDE(pos->board[p]);
    Point royal = pos->royal[XQ_OTHER(us)];
    int n = 0;
    Point to[256];
    for (int i = 0; i < t->leap_count; i++) {
        const LeapEntry *l = &v->leaps[t->leap_first + i];
        bool blocked = false;
        for (int j = 0; j < 2; j++)
            if (l->block[j] != XQ_NO_POINT && pos->board[l->block[j]] != 0)
                blocked = true;
        if (blocked)
            continue;
        Piece q = pos->board[l->to];
        if (q == 0 ? (l->mode & ATOM_MOVE) != 0
                   : (l->mode & ATOM_CAPTURE) && XQ_PIECE_SIDE(q) != us && (l->targets >> XQ_PIECE_KIND(q) & 1))
            to[n++] = l->to;
    }
    for (int j = 0; j < t->ray_count; j++) {
        const Ray *r = &v->rays[t->ray_first + j];
        int pieces = 0; /* pieces passed so far along the ray */
        for (int k = 0; k < r->len; k++) {
            Point q = v->ray_points[r->first + k];
            Piece pc = pos->board[q];
            bool enemy = pc && XQ_PIECE_SIDE(pc) != us && (r->targets >> XQ_PIECE_KIND(pc) & 1);
            if (pieces == 0) {
                if (!pc && (r->flags & RAY_SLIDE_MOVE) && k < r->slide_max)
                    to[n++] = q;
                if (pc && enemy && (r->flags & RAY_SLIDE_CAPTURE) && k < r->slide_max)
                    to[n++] = q;
            } else if (pieces == r->screens) {
                if (!pc && (r->flags & RAY_HOP_MOVE))
                    to[n++] = q;
                if (pc && enemy && (r->flags & RAY_HOP_CAPTURE))
                    to[n++] = q;
            }
            pieces += pc != 0;
            if (pieces > r->screens)
                break;
        }
    }
    *near = *checks = 0;
    for (int i = 0; i < n; i++) {
        *near += near_royal(v, royal, to[i]);
        *checks += gives_check_from(pos, p, to[i]);
    }
    return n;
}

/* The score from scratch: each feature of the families the score's walk computes (material,
 * zones, per-point terms, mobility, moves near the royal piece, safety, check threats, tempo)
 * counted here from
 * the board and the move tables, the other families (late, pair, align, threat, defended,
 * holdings, hidden) from eval_features, all times the weights. Red's view. */
static double reference_score(const Evaluator *e, Position *pos, float *x)
{
    const Variant *v = pos->v;
    int nf = eval_feature_count(e);
    eval_features(e, pos, x);
    int count[2][XQ_MAX_KINDS] = {{0}}, mob[2][XQ_MAX_KINDS] = {{0}}, att[2][XQ_MAX_KINDS] = {{0}};
    int attackers[2] = {0, 0}, pressure[2] = {0, 0}, chk[2][XQ_MAX_KINDS] = {{0}};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            int k = XQ_PIECE_KIND(pos->board[p]), near, checks;
            count[s][k]++;
            mob[s][k] += reference_moves(pos, p, &near, &checks);
            att[s][k] += near;
            pressure[s] += near;
            attackers[s] += near > 0;
            chk[s][k] += checks;
        }
    double to_move = pos->side == RED ? 1 : -1, score = 0;
    char name[96];
    /* Per-point terms: Red's point or Black's mirrored, named by the point or, when the rules
     * are left-right symmetric, by its image on the lower file. */
    double *pst = calloc((size_t)nf, sizeof *pst);
    for (int s = 0; s < 2; s++)
        for (int j = 0; j < pos->count[s]; j++) {
            Point p = pos->list[s][j];
            int k = XQ_PIECE_KIND(pos->board[p]);
            int file = v->point_file[p], rank = s == RED ? v->point_rank[p] : v->ranks - 1 - v->point_rank[p];
            char pt[8];
            variant_point_name(v, v->point_at[rank][file], pt);
            snprintf(name, sizeof name, "pst.%s.%s", v->kinds[k].name, pt);
            int i = feature_index(e, name);
            if (i < 0) {
                variant_point_name(v, v->point_at[rank][v->files - 1 - file], pt);
                snprintf(name, sizeof name, "pst.%s.%s", v->kinds[k].name, pt);
                i = feature_index(e, name);
            }
            if (i >= 0)
                pst[i] += s == RED ? 1 : -1;
        }
    for (int i = 0; i < nf; i++) {
        const char *fn = eval_feature_name(e, i), *fam = eval_feature_family(e, i);
        double f = NAN;
        if (!strcmp(fam, "material") || !strcmp(fam, "mobility") || !strcmp(fam, "attack") ||
            !strcmp(fam, "check")) {
            int k;
            for (k = 0; k < v->nkinds; k++) {
                snprintf(name, sizeof name, "%s.%s", fam, v->kinds[k].name);
                if (!strcmp(name, fn))
                    break;
            }
            assert_true(k < v->nkinds);
            int (*c)[XQ_MAX_KINDS] = !strcmp(fam, "material")   ? count
                                     : !strcmp(fam, "mobility") ? mob
                                     : !strcmp(fam, "check")    ? chk
                                                                : att;
            f = c[0][k] - c[1][k];
        } else if (!strcmp(fam, "zone")) {
            f = 0;
            for (int s = 0; s < 2; s++)
                for (int j = 0; j < pos->count[s]; j++) {
                    Point p = pos->list[s][j];
                    int k = XQ_PIECE_KIND(pos->board[p]);
                    for (int z = 0; z < v->nzones; z++)
                        for (int their = 0; their < 2; their++) {
                            snprintf(name, sizeof name, "zone.%s.%s%s", v->kinds[k].name,
                                     their ? "their_" : "", v->zones[z].name);
                            Side zs = their ? XQ_OTHER((Side)s) : (Side)s;
                            if (!strcmp(name, fn) && pointset_has(&v->zones[z].points[zs], p))
                                f += s == RED ? 1 : -1;
                        }
                }
        } else if (!strcmp(fam, "pst")) {
            f = pst[i];
        } else if (!strcmp(fn, "safety.royal_pressure")) {
            f = 0;
            for (int k = 0; k < v->nkinds; k++)
                f += att[0][k] - att[1][k];
        } else if (!strcmp(fn, "safety.danger")) {
            f = attackers[0] * pressure[0] - attackers[1] * pressure[1];
        } else if (!strncmp(fn, "safety.attackers_", 17)) {
            int n = atoi(fn + 17);
            f = (attackers[0] >= n) - (attackers[1] >= n);
        } else if (!strcmp(fn, "safety.in_check")) {
            f = pos->in_check ? -to_move : 0;
        } else if (!strcmp(fn, "side.to_move")) {
            f = to_move;
        } else {
            f = x[i];
        }
        score += eval_weight(e, i) * f;
    }
    free(pst);
    return score;
}

/* A weights file for v with a random weight on every feature whose family passes `keep`. */
static Evaluator *random_weights(const Variant *v, uint64_t *rng, const char *const *families,
                                 const char *label)
{
    Evaluator *bare = make_eval(v);
    int nf = eval_feature_count(bare);
    char *text = malloc(1 << 17);
    size_t used = (size_t)snprintf(text, 1 << 17, "[weights]\n");
    for (int i = 0; i < nf; i++) {
        bool on = families == NULL;
        for (int j = 0; families && families[j]; j++)
            on = on || !strcmp(eval_feature_family(bare, i), families[j]);
        if (on)
            used += (size_t)snprintf(text + used, (1 << 17) - used, "%s = %g\n", eval_feature_name(bare, i),
                                     ((double)(lcg_next(rng) % 2001) - 1000) / 1000.0);
    }
    eval_free(bare);
    char path[1024];
    snprintf(path, sizeof path, "%s/test_eval_fast_%s_%s.ini", XQ_BINARY_DIR, v->name, label);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    free(text);
    XqError err;
    Evaluator *e = eval_create(v, path, &err);
    if (!e)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    return e;
}

/* The score (eval_score, its fast walk, bit for bit the general one) equals the from-scratch reference on
 * random positions of every shipped rule set, reached by moves played and taken back, with
 * random weights on: the walk's families only; mobility without pressure; pressure or moves
 * near the royal without mobility (kinds that cannot reach the royal's zone skipped); check
 * threats without mobility (their kinds walked from anywhere); the shipped xiangqi weights' families plus late, pair, align and holdings; every family (the
 * general walk). */
static void score_matches_reference(void **state)
{
    (void)state;
    static const char *const walk_only[] = {"material", "zone", "pst", "mobility", "attack",
                                            "safety", "check", "side", NULL};
    static const char *const mobility_only[] = {"material", "pst", "mobility", NULL};
    static const char *const counted[] = {"material", "zone", "mobility", "safety", "side",
                                          "late", "pair", "align", "hidden", "camp", "reserve", NULL};
    static const char *const pressure_only[] = {"material", "safety", NULL};
    static const char *const attack_only[] = {"pst", "attack", NULL};
    static const char *const check_only[] = {"material", "check", NULL};
    static const char *const *const sets[] = {walk_only, mobility_only, pressure_only, attack_only,
                                              check_only, counted, NULL};
    static const char *const labels[] = {"walk", "mobility", "pressure", "attack", "check", "counted", "all"};
    enum { NSETS = sizeof labels / sizeof labels[0] };
    Position *pos = malloc(sizeof *pos);
    uint64_t rng = 4242;
    for (int vi = 0; vi < NVARIANTS; vi++) {
        Variant *v = test_load_variant(VARIANTS[vi]);
        for (int w = 0; w < NSETS; w++) {
            Evaluator *e = random_weights(v, &rng, sets[w], labels[w]);
            float *x = calloc((size_t)eval_feature_count(e), sizeof *x);
            int checked = 0, nonzero = 0;
            for (int g = 0; g < 3; g++) {
                pos_init_start(pos, v);
                Rng deal_rng;
                rng_init(&deal_rng, rng);
                HiddenDeal deal;
                if (hidden_on(v)) {
                    hidden_deal(pos, &deal_rng, &deal);
                    hidden_show_start(pos, &deal, &deal_rng);
                }
                Move moves[200];
                Undo undo[200];
                int depth = 0;
                for (int step = 0; step < 60; step++) {
                    MoveList list;
                    int n = pos_generate_legal(pos, &list);
                    bool back = depth > 0 && (n == 0 || lcg_next(&rng) % 4 == 0);
                    if (back) {
                        depth--;
                        pos_undo_move(pos, moves[depth], &undo[depth]);
                    } else if (n > 0 && depth < 200) {
                        Move m = list.moves[lcg_next(&rng) % (uint64_t)n];
                        if (hidden_on(v))
                            m = hidden_resolve(pos, m, &deal);
                        moves[depth] = m;
                        pos_do_move(pos, m, &undo[depth]);
                        depth++;
                    } else {
                        break;
                    }
                    double fast = eval_score(e, pos) * (pos->side == RED ? 1 : -1);
                    double ref = reference_score(e, pos, x);
                    /* The fast walk scores exactly as the general one (the same bits). */
                    double general = eval_score_red_with_pst(e, pos, eval_pst_sum(e, pos));
                    if (memcmp(&fast, &general, sizeof fast) != 0)
                        fail_msg("%s (%s weights): fast walk %a, general walk %a", VARIANTS[vi],
                                 labels[w], fast, general);
                    if (fabs(fast - ref) > 1e-6 * (1 + fabs(ref))) { /* float features */
                        char fen[256];
                        pos_get_fen(pos, fen, sizeof fen);
                        fail_msg("%s (%s weights) %s: score %.12f, reference %.12f, general walk %.12f", VARIANTS[vi],
                                 labels[w], fen, fast, ref, eval_score_red_with_pst(e, pos, eval_pst_sum(e, pos)));
                    }
                    checked++;
                    nonzero += fast != 0;
                }
            }
            assert_true(checked >= 150 && nonzero > checked / 2);
            free(x);
            eval_free(e);
        }
        variant_free(v);
    }
    free(pos);
}

/* Weights of the new families load from a file, write back and reload exactly. */
static void new_weights_round_trip(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    char path[1024];
    snprintf(path, sizeof path, "%s/test_eval_round.ini", XQ_BINARY_DIR);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("[weights]\npst.horse.c2 = 0.25\nthreat.chariot = -1.5\nalign.cannon.0 = 0.75\n"
          "safety.attackers_3 = 0.125\nlate.pawn = 0.5\n", fp);
    fclose(fp);
    XqError err;
    Evaluator *e = eval_create(v, path, &err);
    assert_non_null(e);
    assert_true(eval_weight(e, must_find(e, "pst.horse.c2")) == 0.25);
    /* The tied point's table entries: c2 and g2 for Red, c7 and g7 for Black. */
    assert_true(e->pst[XQ_PIECE(RED, 3)][variant_point(v, 2, 2)] - e->value[3] == 0.25);
    assert_true(e->pst[XQ_PIECE(RED, 3)][variant_point(v, 6, 2)] - e->value[3] == 0.25);
    assert_true(e->pst[XQ_PIECE(BLACK, 3)][variant_point(v, 6, 7)] + e->value[3] == -0.25);
    char *buf = malloc(1 << 16);
    eval_write_weights(e, buf, 1 << 16);
    snprintf(path, sizeof path, "%s/test_eval_round2.ini", XQ_BINARY_DIR);
    fp = fopen(path, "w");
    fputs(buf, fp);
    fclose(fp);
    free(buf);
    Evaluator *back = eval_create(v, path, &err);
    assert_non_null(back);
    for (int i = 0; i < eval_feature_count(e); i++)
        assert_true(eval_weight(back, i) == eval_weight(e, i));
    /* A point the kind never reaches is no feature: a clear error names it. */
    fp = fopen(path, "w");
    fputs("[weights]\npst.pawn.a0 = 1\n", fp);
    fclose(fp);
    assert_null(eval_create(v, path, &err));
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "pst.pawn.a0"));
    eval_free(back);
    eval_free(e);
    variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(xiangqi_feature_list),
        cmocka_unit_test(asymmetric_rules_untie_points),
        cmocka_unit_test(every_rule_set_builds),
        cmocka_unit_test(hand_positions),
        cmocka_unit_test(danger_and_check_threats),
        cmocka_unit_test(features_match_core),
        cmocka_unit_test(score_is_features_times_weights),
        cmocka_unit_test(score_matches_reference),
        cmocka_unit_test(new_weights_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
