/* test_search_modules.c - the search and evaluation on rule-module moves and state: camp pieces
 * count as material, a camp entry is not scored as a lost piece, the capture search walks the
 * cube's powered tables, and the five-tigers defender sees a general capture by two sub-moves. */
#include "test_util.h"

#include <math.h>

#include "mcts.h"
#include "notation.h"

typedef struct Fixture {
    Variant *v;
    Evaluator *e;
    SearchParams p;
    Position pos;
} Fixture;

static Fixture *fixture(const char *variant)
{
    Fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->v = test_load_variant(variant);
    XqError err;
    f->e = eval_create(f->v, NULL, &err); /* the new rule sets have no weights file */
    assert_non_null(f->e);
    params_default(&f->p);
    return f;
}

static void fixture_free(Fixture *f)
{
    eval_free(f->e);
    variant_free(f->v);
    free(f);
}

static int feature_index(const Evaluator *e, const char *name)
{
    for (int i = 0; i < eval_feature_count(e); i++)
        if (!strcmp(eval_feature_name(e, i), name))
            return i;
    return -1;
}

static Move parse(Position *pos, const char *text)
{
    char why[128];
    Move m = move_parse(pos, text, why, sizeof why);
    assert_int_not_equal(m, XQ_MOVE_NONE);
    return m;
}

/* A chariot in the camp is still a chariot: the score equals that with it on the board (material
 * only by default), and 9 more than without it; the feature names it camp.chariot. */
static void test_camp_piece_counts(void **state)
{
    (void)state;
    Fixture *f = fixture("river-camp");
    int fi = feature_index(f->e, "camp.chariot");
    assert_true(fi >= 0);
    /* Existing features keep their places: the holdings come after side.to_move. */
    assert_true(fi > feature_index(f->e, "side.to_move"));
    assert_true(fabs(eval_weight(f->e, fi) - 9.0) < 1e-9);

    const char *base = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1";
    char with_camp[256];
    snprintf(with_camp, sizeof with_camp, "%s [camp:R/]", base);
    test_set_fen(&f->pos, f->v, base);
    double without = eval_score(f->e, &f->pos);
    test_set_fen(&f->pos, f->v, with_camp);
    double camp = eval_score(f->e, &f->pos);
    assert_true(fabs(camp - without - 9.0) < 1e-9);
    test_set_fen(&f->pos, f->v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_true(fabs(eval_score(f->e, &f->pos) - camp) < 1e-9);

    float *x = calloc((size_t)eval_feature_count(f->e), sizeof *x);
    assert_non_null(x);
    test_set_fen(&f->pos, f->v, with_camp);
    eval_features(f->e, &f->pos, x);
    assert_float_equal(x[fi], 1.0f, 0);
    free(x);
    fixture_free(f);
}

/* The reserve cannon of the mixed rule set is worth a share of a cannon, not a whole one:
 * capturing a cannon still gains most of its value. */
static void test_reserve_share(void **state)
{
    (void)state;
    Fixture *f = fixture("mixed");
    int fi = feature_index(f->e, "reserve.cannon");
    assert_true(fi >= 0);
    double w = eval_weight(f->e, fi);
    assert_true(w > 0 && w < 0.5 * 4.5);
    /* Standard xiangqi has no holdings: the finer families follow side.to_move directly. */
    Fixture *x = fixture("xiangqi");
    int side = feature_index(x->e, "side.to_move");
    assert_true(side >= 0);
    assert_string_equal(eval_feature_name(x->e, side + 1), "pst.general.d0");
    fixture_free(x);
    fixture_free(f);
}

/* Entering the camp keeps the piece: its prior is that of a quiet move, not of a lost chariot. */
static void test_camp_entry_prior(void **state)
{
    (void)state;
    Fixture *f = fixture("river-camp");
    f->p.playouts = 1;
    test_set_fen(&f->pos, f->v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/R8/2P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1");
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    assert_non_null(m);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, &f->pos, &rng, false, &r), 0);
    float enter = mcts_root_prior(m, parse(&f->pos, "a4@"));
    float quiet = mcts_root_prior(m, parse(&f->pos, "e0e1"));
    assert_true(enter > 0 && quiet > 0);
    assert_true(enter > 0.5f * quiet && enter < 2.0f * quiet);
    mcts_free(m);
    fixture_free(f);
}

/* With the horse face up the horse leaps without a leg: the capture search must see it take the
 * chariot, so the leaf value is far above that of the same board with the general face up. */
static void test_cube_powered_capture(void **state)
{
    (void)state;
    Fixture *f = fixture("cube");
    f->p.playouts = 1;
    const char *board = "5k3/9/9/9/9/3r5/4P4/4N4/9/3K5 w - - 0 1";
    float value[2];
    for (int i = 0; i < 2; i++) {
        char fen[256];
        snprintf(fen, sizeof fen, "%s [cube:%s/k]", board, i ? "N" : "K");
        test_set_fen(&f->pos, f->v, fen);
        Mcts *m = mcts_create(f->v, f->e, &f->p);
        assert_non_null(m);
        Rng rng;
        rng_init(&rng, 1);
        SearchResult r;
        assert_int_equal(mcts_search(m, &f->pos, &rng, false, &r), 0);
        value[i] = r.value;
        mcts_free(m);
    }
    assert_true(value[0] < 0);   /* a chariot against horse and pawn */
    assert_true(value[1] > 0.3f); /* the powered horse takes it */
    fixture_free(f);
}

/* Five tigers: Black, in check from the pawn on d8, may take it with the general (a pawn up) or
 * step aside, but Red's e7 pawn then takes the general in two sub-moves; only the chariot's
 * capture saves the game. */
static void test_five_tigers_double_threat(void **state)
{
    (void)state;
    Fixture *f = fixture("five-tigers");
    f->p.playouts = 200;
    test_set_fen(&f->pos, f->v, "3k5/r2P5/4P4/9/9/9/9/9/9/5K3 b - - 0 1");
    MoveList list;
    assert_int_equal(pos_generate_legal(&f->pos, &list), 3);
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    assert_non_null(m);
    Rng rng;
    rng_init(&rng, 7);
    SearchResult r;
    assert_int_equal(mcts_search(m, &f->pos, &rng, false, &r), 0);
    assert_int_equal(r.best, parse(&f->pos, "a8d8"));
    /* The general's moves are proven losses once looked at. */
    Undo u;
    Move take = parse(&f->pos, "d9d8");
    pos_do_move(&f->pos, take, &u);
    mcts_reset(m);
    assert_int_equal(mcts_search(m, &f->pos, &rng, false, &r), 0);
    assert_int_equal(r.proven, 1);
    pos_undo_move(&f->pos, take, &u);
    mcts_free(m);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_camp_piece_counts),
        cmocka_unit_test(test_reserve_share),
        cmocka_unit_test(test_camp_entry_prior),
        cmocka_unit_test(test_cube_powered_capture),
        cmocka_unit_test(test_five_tigers_double_threat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
