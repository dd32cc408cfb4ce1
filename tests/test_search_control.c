/* test_search_control.c - the search's time, stop and progress API (mcts_set_control,
 * SearchParams.movetime): deadlines, the stop flag, playout caps, progress reports, the
 * principal variation and the root statistics an engine front end prints. */
#include "test_util.h"

#include <limits.h>
#include <math.h>

#include "mcts.h"
#include "status.h"

typedef struct Fixture {
    Variant *v;
    Evaluator *e;
    SearchParams p;
    Position *pos;
} Fixture;

static int setup_variant(void **state, const char *name)
{
    Fixture *f = calloc(1, sizeof *f);
    f->v = test_load_variant(name);
    XqError err;
    f->e = eval_create(f->v, NULL, &err);
    if (!f->e)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    params_default(&f->p);
    f->pos = malloc(sizeof *f->pos);
    pos_init_start(f->pos, f->v);
    *state = f;
    return 0;
}

static int setup(void **state) { return setup_variant(state, "xiangqi"); }
static int setup_jieqi(void **state) { return setup_variant(state, "jieqi"); }

static int teardown(void **state)
{
    Fixture *f = *state;
    eval_free(f->e);
    variant_free(f->v);
    free(f->pos);
    free(f);
    return 0;
}

/* Plays the line on a copy of the position: every move must be legal in turn. */
static void assert_line_legal(const Position *pos, const Move *line, int n)
{
    Position *copy = malloc(sizeof *copy);
    *copy = *pos;
    for (int i = 0; i < n; i++) {
        assert_true(pos_move_is_legal(copy, line[i]));
        Undo u;
        pos_do_move(copy, line[i], &u);
    }
    free(copy);
}

/* A timed search runs until its deadline (not its playout budget), and says how many playouts
 * it ran. The arena is large enough not to end it first. */
static void movetime_sets_the_budget(void **state)
{
    Fixture *f = *state;
    f->p.movetime = 40;
    f->p.playouts = 1; /* ignored while movetime is set */
    f->p.arena_nodes = 1 << 22;
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    assert_non_null(m);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_false(r.truncated);
    assert_false(r.stopped);
    assert_true(r.seconds >= 0.040);
    /* A deadline, not a hint: the arena holds more than ten seconds of playouts, so one that ignored it
     * would run far longer (the bound is generous for loaded machines). */
    assert_true(r.seconds < 0.040 + 10.0);
    assert_true(r.playouts > 1);
    assert_int_equal(r.visits, r.playouts);
    mcts_free(m);
}

/* The control's cap ends a timed search after that many playouts. */
static void max_playouts_caps_a_timed_search(void **state)
{
    Fixture *f = *state;
    f->p.movetime = 60000;
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    SearchControl c = SEARCH_CONTROL_INIT;
    c.max_playouts = 300;
    mcts_set_control(m, &c);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_int_equal(r.playouts, 300);
    assert_true(r.seconds < 30.0);
    /* NULL restores the defaults: the budget is the parameters' again. */
    mcts_set_control(m, NULL);
    mcts_reset(m);
    f->p.movetime = 0;
    f->p.playouts = 77;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_int_equal(r.playouts, 77);
    mcts_free(m);
}

typedef struct Progress {
    atomic_bool stop;
    int calls;
    int last_playouts;
    int stop_after;     /* playouts after which the callback raises the stop flag */
    bool ok;            /* every report was consistent */
    const Position *pos;
} Progress;

static void on_info(const SearchInfo *info, void *user)
{
    Progress *pr = user;
    pr->calls++;
    if (info->playouts < pr->last_playouts || info->seconds < 0 || info->pv_len < 1 ||
        info->pv_len > MCTS_PV_MAX || !(info->value >= -1 && info->value <= 1) ||
        info->arena_permille < 0 || info->arena_permille > 1000 ||
        (info->playouts > 0 && info->seconds > 0 && !(info->playouts_per_second > 0)) ||
        !pos_move_is_legal((Position *)pr->pos, info->pv[0]))
        pr->ok = false;
    pr->last_playouts = info->playouts;
    if (info->playouts >= pr->stop_after)
        atomic_store(&pr->stop, true);
}

/* A search no budget ends (playouts INT_MAX) reports progress at its interval and returns once
 * the flag is raised, here by its own callback; the position is unchanged. */
static void stop_flag_ends_the_search(void **state)
{
    Fixture *f = *state;
    f->p.playouts = INT_MAX;
    f->p.arena_nodes = 1 << 22;
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    Progress pr = {.stop_after = 2000, .ok = true, .pos = f->pos};
    atomic_init(&pr.stop, false);
    SearchControl c = SEARCH_CONTROL_INIT;
    c.stop = &pr.stop;
    c.info = on_info;
    c.info_user = &pr;
    c.info_interval_ms = 1;
    mcts_set_control(m, &c);
    uint64_t key = f->pos->key;
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_true(r.stopped);
    assert_true(pr.ok);
    assert_true(pr.calls >= 1);
    assert_true(r.playouts >= 2000);
    assert_true(r.playouts < INT_MAX);
    assert_int_equal(f->pos->key, key);
    assert_true(pos_move_is_legal(f->pos, r.best));
    /* Raised before the search: the first playout still runs, so there is a move. */
    mcts_reset(m);
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_true(r.stopped);
    assert_int_equal(r.playouts, 1);
    assert_true(pos_move_is_legal(f->pos, r.best));
    mcts_free(m);
}

/* The principal variation starts with the best move and is a legal line; the root statistics
 * hold the heuristic's priors (a distribution) and values in [-1, 1]. */
static void pv_and_root_statistics(void **state)
{
    Fixture *f = *state;
    f->p.playouts = 3000;
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_true(r.pv_len >= 2);
    assert_int_equal(r.pv[0], r.best);
    assert_line_legal(f->pos, r.pv, r.pv_len);
    /* Each step of the line is its node's most visited child: visits only fall along it. */
    for (int i = 0; i < r.pv_len; i++) {
        assert_true(r.pv_visits[i] >= 1);
        if (i > 0)
            assert_true(r.pv_visits[i] < r.pv_visits[i - 1]);
    }
    double prior_sum = 0;
    uint32_t most = 0, best_visits = 0;
    for (int i = 0; i < r.nchildren; i++) {
        prior_sum += r.child_prior[i];
        assert_true(r.child_prior[i] >= 0 && r.child_prior[i] <= 1);
        assert_true(r.child_value[i] >= -1 && r.child_value[i] <= 1);
        if (r.child_visits[i] == 0)
            assert_true(r.child_value[i] == 0);
        if (r.child_visits[i] > most)
            most = r.child_visits[i];
        if (r.moves[i] == r.best)
            best_visits = r.child_visits[i];
    }
    assert_int_equal(best_visits, most); /* nothing is proven in the opening */
    assert_true(fabs(prior_sum - 1.0) < 1e-4);
    /* The root value is the visit-weighted mean of its children's values (plus the root's own
     * first evaluation), so it lies within their range. */
    float lo = 1, hi = -1;
    for (int i = 0; i < r.nchildren; i++)
        if (r.child_visits[i]) {
            lo = fminf(lo, r.child_value[i]);
            hi = fmaxf(hi, r.child_value[i]);
        }
    assert_true(r.value >= lo - 0.05f && r.value <= hi + 0.05f);
    mcts_free(m);
}

/* A mate in one: the result is proven and the variation is the mating move alone. */
static void pv_of_a_proven_win(void **state)
{
    Fixture *f = *state;
    test_set_fen(f->pos, f->v, "4k4/R8/9/9/9/9/p8/9/9/1R1K5 w - - 0 1");
    f->p.playouts = 500;
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_int_equal(r.proven, 1);
    assert_int_equal(r.proven_plies, 1);
    assert_true(r.value == 1.0f);
    assert_int_equal(r.pv_len, 1);
    assert_int_equal(r.pv[0], r.best);
    char buf[16];
    move_to_iccs(f->v, r.best, buf);
    assert_string_equal(buf, "b0b9");
    mcts_free(m);
}

/* Jieqi: the variation stops at the first reveal (its outcome is chance); the moves before it
 * are plain moves of face-up pieces. */
static void pv_stops_at_a_reveal(void **state)
{
    Fixture *f = *state;
    f->p.playouts = 2000;
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_true(r.pv_len >= 1);
    assert_int_equal(r.pv[0], r.best);
    Position *copy = malloc(sizeof *copy);
    *copy = *f->pos;
    for (int i = 0; i < r.pv_len; i++) {
        assert_true(pos_move_is_legal(copy, r.pv[i]));
        if (i == r.pv_len - 1)
            break;
        assert_false(hidden_is_chance(copy, r.pv[i])); /* only the last move may be a reveal */
        Undo u;
        pos_do_move(copy, r.pv[i], &u);
    }
    free(copy);
    mcts_free(m);
}

static void movetime_parameter_range(void **state)
{
    (void)state;
    SearchParams p;
    params_default(&p);
    assert_int_equal(p.movetime, 0);
    XqError err;
    assert_int_equal(params_set(&p, "movetime", "-1", &err), -1);
    assert_string_equal(err.message, "movetime: expected an integer >= 0 and <= 8.64e+07");
    assert_int_equal(params_set(&p, "movetime", "250", &err), 0);
    assert_int_equal(p.movetime, 250);
    char buf[4096];
    params_write(&p, buf, sizeof buf);
    assert_non_null(strstr(buf, "movetime = 250\n"));
    /* Types, ranges and values by index, for the engine's option lists. */
    int movetime = -1, c_puct = -1, reuse = -1;
    for (int i = 0; i < params_count(); i++) {
        if (!strcmp(params_name(i), "movetime"))
            movetime = i;
        if (!strcmp(params_name(i), "c_puct"))
            c_puct = i;
        if (!strcmp(params_name(i), "reuse_tree"))
            reuse = i;
    }
    assert_true(movetime >= 0 && c_puct >= 0 && reuse >= 0);
    ParamRange r;
    assert_int_equal(params_range(movetime, &r), 0);
    assert_int_equal(r.type, PARAM_INT);
    assert_true(r.min == 0 && r.max == 86400000 && !r.min_open);
    assert_int_equal(params_range(c_puct, &r), 0);
    assert_int_equal(r.type, PARAM_DOUBLE);
    assert_true(r.min == 0 && r.min_open);
    assert_int_equal(params_range(reuse, &r), 0);
    assert_int_equal(r.type, PARAM_BOOL);
    assert_int_equal(params_range(params_count(), &r), -1);
    char val[40];
    params_format(&p, movetime, val, sizeof val);
    assert_string_equal(val, "250");
    params_format(&p, c_puct, val, sizeof val);
    assert_string_equal(val, "1.5");
    /* A choice: read and written by name, stored as its index, refused with the names. */
    int search = -1;
    for (int i = 0; i < params_count(); i++)
        if (!strcmp(params_name(i), "search"))
            search = i;
    assert_true(search >= 0);
    assert_int_equal(p.search, SEARCH_MCTS);
    assert_int_equal(params_range(search, &r), 0);
    assert_int_equal(r.type, PARAM_CHOICE);
    assert_true(r.min == 0 && r.max == 1);
    assert_string_equal(params_choice(search, 1), "ab");
    assert_null(params_choice(search, 2));
    assert_null(params_choice(movetime, 0));
    assert_int_equal(params_set(&p, "search", "1", &err), -1);
    assert_string_equal(err.message, "search: expected one of mcts, ab");
    assert_int_equal(params_set(&p, "search", "ab", &err), 0);
    assert_int_equal(p.search, SEARCH_AB);
    params_format(&p, search, val, sizeof val);
    assert_string_equal(val, "ab");
    params_write(&p, buf, sizeof buf);
    assert_non_null(strstr(buf, "search = ab\n"));
    assert_non_null(strstr(buf, "ab_depth = 6\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(movetime_sets_the_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(max_playouts_caps_a_timed_search, setup, teardown),
        cmocka_unit_test_setup_teardown(stop_flag_ends_the_search, setup, teardown),
        cmocka_unit_test_setup_teardown(pv_and_root_statistics, setup, teardown),
        cmocka_unit_test_setup_teardown(pv_of_a_proven_win, setup, teardown),
        cmocka_unit_test_setup_teardown(pv_stops_at_a_reveal, setup_jieqi, teardown),
        cmocka_unit_test(movetime_parameter_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
