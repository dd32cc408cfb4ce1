/* test_tune.c - the weight tuner (gradient, recovery of known weights, thread-count determinism,
 * bad datasets) and the match statistics (Elo, LOS, SPRT against hand-computed values). */
#include "test_util.h"

#include <hdf5.h>
#include <math.h>
#include <unistd.h>

#include "dataset.h"
#include "elo.h"
#include "rng.h"
#include "tune.h"

static char test_dir[512];

static const char *scratch(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", test_dir, name);
    return buf;
}

static double sigmoid(double z)
{
    return 1.0 / (1.0 + exp(-z));
}

/* n rows of nf small integer features (-2..2), deterministic. */
static float *random_rows(uint64_t n, int nf, uint64_t seed)
{
    float *x = malloc(n * (size_t)nf * sizeof *x);
    assert_non_null(x);
    Rng rng;
    rng_init(&rng, seed);
    for (uint64_t i = 0; i < n * (uint64_t)nf; i++)
        x[i] = (float)((int)rng_below(&rng, 5) - 2);
    return x;
}

/* ---- tuner ---- */

static void test_gradient_matches_finite_differences(void **state)
{
    (void)state;
    enum { N = 3000, NF = 4 };
    float *x = random_rows(N, NF, 7);
    float y[N];
    Rng rng;
    rng_init(&rng, 8);
    for (int i = 0; i < N; i++)
        y[i] = (float)rng_below(&rng, 3) / 2.0f;   /* results 0, 1/2, 1 */
    TuneData d;
    assert_int_equal(tune_data_from_rows(&d, NF, N, N, x, y), 0);
    TuneOptions o = TUNE_OPTIONS_INIT;
    o.l2 = 1e-3;
    double w[NF] = {0.7, -1.3, 2.1, 0.05}, g[NF];
    tune_objective(&d, &o, w, 0, N, true, g);
    /* Central differences, step 1e-5: truncation error ~1e-10 x the third derivative, rounding
     * ~1e-16 / 1e-5; agreement to 1e-7 checks every term of the analytic gradient, the penalty
     * l2 * w included. */
    for (int f = 0; f < NF; f++) {
        double h = 1e-5, wp[NF], wm[NF];
        memcpy(wp, w, sizeof w);
        memcpy(wm, w, sizeof w);
        wp[f] += h;
        wm[f] -= h;
        double numeric = (tune_objective(&d, &o, wp, 0, N, true, NULL) -
                          tune_objective(&d, &o, wm, 0, N, true, NULL)) / (2 * h);
        assert_true(fabs(numeric - g[f]) < 1e-7);
    }
    /* One row by hand: x = (1, 0, 0, 0), y = 1, w0 = 0.7, k = 2 / 10: z = 0.14,
     * loss = log(1 + e^0.14) - 0.14 = 0.625595..., gradient = k (sigmoid(0.14) - 1) = -0.093011... */
    float x1[NF] = {1, 0, 0, 0}, y1 = 1;
    TuneData one;
    assert_int_equal(tune_data_from_rows(&one, NF, 1, 1, x1, &y1), 0);
    o.l2 = 0;
    double g1[NF];
    double loss = tune_objective(&one, &o, w, 0, 1, true, g1);
    assert_true(fabs(loss - 0.6255952) < 1e-6);
    assert_true(fabs(g1[0] - (-0.0930114)) < 1e-6);
    assert_true(g1[1] == 0 && g1[2] == 0 && g1[3] == 0);
    tune_data_free(&one);
    tune_data_free(&d);
    free(x);
}

/* Targets equal to the model's own probabilities: the unpenalised loss is minimised exactly at
 * the generating weights (cross-entropy is minimal where p = y), so the fit must return them. */
static void test_recovers_known_weights(void **state)
{
    (void)state;
    enum { N = 40000, NF = 3 };
    const double truth[NF] = {1.0, -0.5, 2.0};
    float *x = random_rows(N, NF, 11);
    float *y = malloc(N * sizeof *y);
    assert_non_null(y);
    for (int i = 0; i < N; i++) {
        double z = 0;
        for (int f = 0; f < NF; f++)
            z += truth[f] * x[i * NF + f];
        y[i] = (float)sigmoid(0.2 * z);
    }
    TuneData d;
    assert_int_equal(tune_data_from_rows(&d, NF, N, N * 9 / 10, x, y), 0);
    TuneOptions o = TUNE_OPTIONS_INIT;
    o.l2 = 0;
    o.patience = 1000;
    double w0[NF] = {0, 0, 0};
    TuneResult r;
    XqError err;
    assert_int_equal(tune_fit(&d, &o, w0, &r, &err), 0);
    for (int f = 0; f < NF; f++)
        assert_true(fabs(r.w[f] - truth[f]) < 2e-3);
    assert_true(r.valid_loss < r.start_valid_loss);
    tune_result_free(&r);

    /* Sampled 0 / 1 results from the same model: the weights come back within a few standard
     * errors, and the errors are what Fisher information predicts: 1 / sqrt(N k^2 E[p(1-p) x^2]).
     * With k = 0.2, E[x^2] = 2 (uniform on -2..2) and p(1-p) between 0.10 and 0.25, that is
     * between 1 / sqrt(36000 * 0.04 * 0.25 * 2) = 0.037 and 0.059 for N = 36000 training rows. */
    Rng rng;
    rng_init(&rng, 99);
    for (int i = 0; i < N; i++)
        d.y[i] = rng_double(&rng) < y[i] ? 1.0f : 0.0f;
    assert_int_equal(tune_fit(&d, &o, w0, &r, &err), 0);
    for (int f = 0; f < NF; f++) {
        double se = sqrt(r.cov[f * NF + f]);
        assert_true(se > 0.03 && se < 0.065);
        assert_true(fabs(r.w[f] - truth[f]) < 4 * se);
    }
    tune_result_free(&r);
    tune_data_free(&d);
    free(x);
    free(y);
}

static void test_same_result_for_any_thread_count(void **state)
{
    (void)state;
    enum { N = 50000, NF = 5 };
    float *x = random_rows(N, NF, 21);
    float *y = malloc(N * sizeof *y);
    assert_non_null(y);
    for (int i = 0; i < N; i++)
        y[i] = (float)(i % 3) / 2.0f;
    TuneData d;
    assert_int_equal(tune_data_from_rows(&d, NF, N, 45000, x, y), 0);
    double w[NF] = {0.3, -0.2, 0.9, 1.7, -0.4}, g[3][NF], loss[3];
    TuneResult r[3];
    XqError err;
    const int threads[3] = {1, 2, 3};
    for (int t = 0; t < 3; t++) {
        TuneOptions o = TUNE_OPTIONS_INIT;
        o.threads = threads[t];
        loss[t] = tune_objective(&d, &o, w, 0, 45000, true, g[t]);
        assert_int_equal(tune_fit(&d, &o, w, &r[t], &err), 0);
    }
    for (int t = 1; t < 3; t++) {
        assert_memory_equal(&loss[0], &loss[t], sizeof loss[0]);
        assert_memory_equal(g[0], g[t], sizeof g[0]);
        assert_memory_equal(r[0].w, r[t].w, NF * sizeof *r[0].w);
        assert_int_equal(r[0].iterations, r[t].iterations);
    }
    for (int t = 0; t < 3; t++)
        tune_result_free(&r[t]);
    tune_data_free(&d);
    free(x);
    free(y);
}

/* Every game = 4 copies of one sampled row. The Fisher covariance believes in 4x the data
 * (errors / 2), the game-clustered sandwich does not: per unique row it is H^-1 (sum s s^T) H^-1
 * and both H and the per-game score grow 4x, so it equals the sandwich of the unique rows, which
 * for a correct Bernoulli model is close to their Fisher covariance. So se_cluster / se ~ 2. */
static void test_clustered_errors_see_correlated_rows(void **state)
{
    (void)state;
    enum { U = 20000, M = 4, NF = 2 };
    float *xu = random_rows(U, NF, 31);
    float *x = malloc(U * M * NF * sizeof *x), *y = malloc(U * M * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    Rng rng;
    rng_init(&rng, 32);
    for (int u = 0; u < U; u++) {
        double p = sigmoid(0.2 * (1.0 * xu[u * NF] - 2.0 * xu[u * NF + 1]));
        float res = rng_double(&rng) < p ? 1.0f : 0.0f;
        for (int c = 0; c < M; c++) {
            memcpy(&x[(u * M + c) * NF], &xu[u * NF], NF * sizeof *x);
            y[u * M + c] = res;
        }
    }
    TuneData d;
    assert_int_equal(tune_data_from_rows(&d, NF, U * M, U * M, x, y), 0);
    d.ngames = d.ntrain_games = U;
    for (uint64_t g = 0; g <= U; g++)
        d.game_first[g] = g * M;
    TuneOptions o = TUNE_OPTIONS_INIT;
    o.l2 = 0;
    double w0[NF] = {0, 0};
    TuneResult r;
    XqError err;
    assert_int_equal(tune_fit(&d, &o, w0, &r, &err), 0);
    for (int f = 0; f < NF; f++) {
        double ratio = sqrt(r.cov_cluster[f * NF + f] / r.cov[f * NF + f]);
        assert_true(ratio > 1.8 && ratio < 2.2);
    }
    tune_result_free(&r);
    tune_data_free(&d);
    free(xu);
    free(x);
    free(y);
}

/* A held feature keeps its weight and gets no standard error; the others still fit. */
static void test_fixed_features_stay(void **state)
{
    (void)state;
    enum { N = 20000, NF = 2 };
    float *x = random_rows(N, NF, 5);
    float *y = malloc(N * sizeof *y);
    assert_non_null(y);
    for (int i = 0; i < N; i++)
        y[i] = (float)sigmoid(0.2 * (1.5 * x[i * NF] + 0.5 * x[i * NF + 1]));
    TuneData d;
    assert_int_equal(tune_data_from_rows(&d, NF, N, N, x, y), 0);
    TuneOptions o = TUNE_OPTIONS_INIT;
    o.l2 = 0;
    bool fixed[NF] = {false, true};
    o.fixed = fixed;
    double w0[NF] = {0, 0.5};
    TuneResult r;
    XqError err;
    assert_int_equal(tune_fit(&d, &o, w0, &r, &err), 0);
    assert_true(r.w[1] == 0.5);
    assert_true(fabs(r.w[0] - 1.5) < 2e-3);
    assert_true(r.cov[3] == 0 && r.cov[1] == 0 && r.cov[0] > 0);
    tune_result_free(&r);
    tune_data_free(&d);
    free(x);
    free(y);
}

/* ---- datasets ---- */

/* A real game of the variant: from the start, the first legal move each ply, n plies. */
static void make_game(const Variant *v, uint64_t index, int n, int8_t result, GameRecord *g)
{
    memset(g, 0, sizeof *g);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    pos_init_start(pos, v);
    g->index = index;
    g->seed = index;
    g->result = result;
    g->termination = TERM_LENGTH_CAP;
    g->moves = malloc((size_t)n * sizeof *g->moves);
    g->positions = calloc((size_t)n, sizeof *g->positions);
    assert_non_null(g->moves);
    assert_non_null(g->positions);
    for (int k = 0; k < n; k++) {
        MoveList list;
        pos_generate_legal(pos, &list);
        assert_true(list.count > 0);
        Move m = list.moves[(k * 7 + (int)index) % list.count];
        PositionRecord *p = &g->positions[k];
        for (int q = 0; q < v->npoints; q++)
            p->board[q] = (uint8_t)pos->board[q];
        p->side = (uint8_t)pos->side;
        p->ply = (uint16_t)k;
        p->played = p->best = m;
        p->root_value = 0;
        p->static_eval = 0;
        g->moves[k] = m;
        Undo u;
        pos_do_move(pos, m, &u);
    }
    g->nmoves = g->npositions = n;
    g->plies = (uint16_t)n;
    free(pos);
}

static void write_dataset(const char *path, const Variant *v, const char *variant_text, int ngames)
{
    DatasetMeta meta = {
        .variant_name = v->name,
        .variant_text = variant_text,
        .weights_text = "",
        .params_text = "",
        .command_line = "test_tune",
        .base_seed = 1,
        .shard_index = 0,
        .shard_count = 1,
        .first_game = 0,
        .game_count = (uint64_t)ngames,
        .npoints = v->npoints,
    };
    XqError err;
    uint64_t done;
    DatasetWriter *w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_msg("dsw_open: %s", err.message);
    for (int i = 0; i < ngames; i++) {
        GameRecord g;
        make_game(v, (uint64_t)i, 12, (int8_t)(i % 3 - 1), &g);
        if (dsw_append(w, &g, &err) != 0)
            fail_msg("dsw_append: %s", err.message);
        game_record_free(&g);
    }
    if (dsw_close(w, &err) != 0)
        fail_msg("dsw_close: %s", err.message);
}

static char *read_text(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/variants/%s.ini", XQ_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 16);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* tune_load must fail with a message containing `fragment`. */
static void expect_load_error(const Variant *v, const char *const *paths, int n, const char *fragment)
{
    Evaluator *e = eval_create(v, NULL, NULL);
    assert_non_null(e);
    TuneData d;
    TuneOptions o = TUNE_OPTIONS_INIT;
    XqError err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tune_load(&d, e, v, paths, n, &o, &err), -1);
    if (!strstr(err.message, fragment))
        fail_msg("expected '%s' in '%s'", fragment, err.message);
    eval_free(e);
}

static void test_load_replays_games(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    char *text = read_text("xiangqi");
    char path[1024];
    scratch("good.h5", path, sizeof path);
    write_dataset(path, v, text, 30);
    Evaluator *e = eval_create(v, NULL, NULL);
    assert_non_null(e);
    TuneData d;
    TuneOptions o = TUNE_OPTIONS_INIT;
    o.all_positions = true;
    o.validation = 0;
    XqError err;
    const char *paths[1] = {path};
    if (tune_load(&d, e, v, paths, 1, &o, &err) != 0)
        fail_msg("%s: %s", err.file, err.message);
    /* 30 games of 12 moves, every position kept, none held out. */
    assert_int_equal(d.ngames, 30);
    assert_int_equal(d.nrows, 360);
    assert_int_equal(d.ntrain, 360);
    /* Row 0 is the start position: balanced material, Red to move (side.to_move = +1);
     * game 0 is a Black win (result -1), so its target is 0; game 1 is a draw (1/2). */
    int nf = eval_feature_count(e);
    for (int f = 0; f < nf; f++) {
        const char *name = eval_feature_name(e, f);
        if (!strncmp(name, "material.", 9))
            assert_true(tune_row_value(&d, 0, f) == 0);
        if (!strcmp(name, "side.to_move")) {
            assert_true(tune_row_value(&d, 0, f) == 1);
            assert_true(tune_row_value(&d, 1, f) == -1);
        }
    }
    assert_true(d.y[0] == 0.0f);
    assert_true(d.y[12] == 0.5f);
    tune_data_free(&d);

    /* Default selection skips positions in check and positions whose move captures: fewer rows,
     * and the same rows for any thread count. */
    TuneData d1, d2;
    o.all_positions = false;
    o.validation = 0.3;
    o.threads = 1;
    assert_int_equal(tune_load(&d1, e, v, paths, 1, &o, &err), 0);
    o.threads = 2;
    assert_int_equal(tune_load(&d2, e, v, paths, 1, &o, &err), 0);
    assert_true(d1.nrows <= 360);
    assert_true(d1.ntrain < d1.nrows);
    assert_int_equal(d1.nrows, d2.nrows);
    assert_int_equal(d1.ntrain, d2.ntrain);
    assert_int_equal(d1.nnz, d2.nnz);
    assert_memory_equal(d1.row_first, d2.row_first, (d1.nrows + 1) * sizeof *d1.row_first);
    assert_memory_equal(d1.col, d2.col, d1.nnz * sizeof *d1.col);
    assert_memory_equal(d1.val, d2.val, d1.nnz * sizeof *d1.val);
    tune_data_free(&d1);
    tune_data_free(&d2);
    eval_free(e);
    free(text);
    variant_free(v);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    Variant *xq = test_load_variant("xiangqi");
    Variant *sn = test_load_variant("sniper");
    char *xq_text = read_text("xiangqi"), *sn_text = read_text("sniper");
    char good[1024], empty[1024], other[1024], missing[1024], nofile[1024];
    scratch("a.h5", good, sizeof good);
    scratch("empty.h5", empty, sizeof empty);
    scratch("sniper.h5", other, sizeof other);
    scratch("missing.h5", missing, sizeof missing);
    scratch("does-not-exist.h5", nofile, sizeof nofile);
    write_dataset(good, xq, xq_text, 4);
    write_dataset(empty, xq, xq_text, 0);
    write_dataset(other, sn, sn_text, 4);
    write_dataset(missing, xq, xq_text, 4);
    /* Remove a column the tuner needs. */
    hid_t f = H5Fopen(missing, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    assert_true(H5Ldelete(f, "/games/result", H5P_DEFAULT) >= 0);
    H5Fclose(f);

    const char *p1[1] = {empty};
    expect_load_error(xq, p1, 1, "no games");
    const char *p2[2] = {good, other};
    expect_load_error(xq, p2, 2, "mixed variants");
    const char *p3[1] = {missing};
    expect_load_error(xq, p3, 1, "result");
    const char *p4[1] = {nofile};
    expect_load_error(xq, p4, 1, "");
    expect_load_error(xq, p4, 0, "no dataset files");
    free(xq_text);
    free(sn_text);
    variant_free(xq);
    variant_free(sn);
}

/* ---- match statistics ---- */

static void test_elo_by_hand(void **state)
{
    (void)state;
    EloEstimate e;
    /* No pairs: neutral. */
    const uint64_t none[5] = {0};
    elo_estimate(none, &e);
    assert_int_equal(e.pairs, 0);
    assert_true(e.score == 0.5 && e.los == 0.5);

    /* 10 pairs {1, 2, 4, 2, 1}: pair scores 0, .25, .5, .75, 1.
     * mean = (0 + 2(.25) + 4(.5) + 2(.75) + 1) / 10 = 0.5 -> Elo 0;
     * var = (.25 + 2(.0625) + 0 + 2(.0625) + .25) / 10 = 0.075; se = sqrt(.075 / 10) = 0.086603;
     * the pentanomial score interval (tests/python/interval_reference.py) is 0.322263 ..
     * 0.677737 -> -400 log10(1/0.677737 - 1) = +129.141. */
    const uint64_t sym[5] = {1, 2, 4, 2, 1};
    elo_estimate(sym, &e);
    assert_true(fabs(e.score - 0.5) < 1e-12);
    assert_true(fabs(e.pair_variance - 0.075) < 1e-12);
    assert_true(fabs(e.score_se - 0.0866025) < 1e-6);
    assert_true(fabs(e.elo) < 1e-9);
    assert_true(fabs(e.score_high - 0.677737) < 2e-6);
    assert_true(fabs(e.elo_high - 129.141) < 1e-3);
    assert_true(fabs(e.elo_low + 129.141) < 1e-3);
    assert_true(fabs(e.los - 0.5) < 1e-12);

    /* 10 pairs {0, 1, 3, 4, 2}: mean = (.25 + 1.5 + 3 + 2) / 10 = 0.675 ->
     * Elo = -400 log10(1/0.675 - 1) = -400 log10(0.481481) = +126.968;
     * var = (.180625 + 3(.030625) + 4(.005625) + 2(.105625)) / 10 = 0.050625,
     * se = sqrt(0.0050625) = 0.0711512; 95% (reference script): 0.487665 .. 0.806467 ->
     * -8.573 .. +247.933 (the normal interval 0.535546 .. 0.814454 would not reach below 0);
     * LOS = Phi(0.175 / 0.0711512) = Phi(2.45955) = 0.993044. */
    const uint64_t up[5] = {0, 1, 3, 4, 2};
    elo_estimate(up, &e);
    assert_true(fabs(e.score - 0.675) < 1e-12);
    assert_true(fabs(e.elo - 126.968) < 1e-3);
    assert_true(fabs(e.score_se - 0.0711512) < 1e-6);
    assert_true(fabs(e.elo_low + 8.573) < 1e-3);
    assert_true(fabs(e.elo_high - 247.933) < 1e-3);
    assert_true(fabs(e.los - 0.993044) < 1e-6);

    /* All 3 pairs won: score 1, Elo unbounded above; the lower end is Wilson's n / (n + z^2) =
     * 3 / 6.841459 = 0.438503 -> -42.950 Elo. */
    const uint64_t all[5] = {0, 0, 0, 0, 3};
    elo_estimate(all, &e);
    assert_true(isinf(e.elo) && e.elo > 0);
    assert_true(isinf(e.elo_high) && e.elo_high > 0);
    assert_true(fabs(e.elo_low + 42.950) < 1e-3);
    assert_true(e.los == 1.0);
    assert_true(fabs(elo_from_score(elo_to_score(37.5)) - 37.5) < 1e-9);
}

static void test_sprt_by_hand(void **state)
{
    (void)state;
    SprtSpec s;
    char msg[200];
    assert_int_equal(sprt_parse(&s, "0,10,0.05,0.05", msg, sizeof msg), 0);
    /* Bounds: ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = +2.944439. */
    double lo, hi;
    sprt_bounds(&s, &lo, &hi);
    assert_true(fabs(lo + 2.944439) < 1e-6 && fabs(hi - 2.944439) < 1e-6);
    /* The LLR counts one pseudo-pair, 0.2 at each outcome (elo.h). s0 = 0.5, s1 = 1 / (1 +
     * 10^-0.025) = 0.514387, s1 - s0 = 0.014387.
     * {0, 1, 3, 4, 2} -> {.2, 1.2, 3.2, 4.2, 2.2}, N = 11: mean = (.3 + 1.6 + 3.15 + 2.2) / 11
     * = 7.25 / 11 = 0.659091; E[x^2] = (.075 + .8 + 2.3625 + 2.2) / 11 = 5.4375 / 11 = 0.494318,
     * var = 0.494318 - 0.434401 = 0.059917;
     * LLR = 11 (0.014387)(1.318182 - 1.014387) / (2 * 0.059917) = 0.401205. */
    const uint64_t up[5] = {0, 1, 3, 4, 2};
    double llr = sprt_llr(&s, up);
    assert_true(fabs(llr - 0.401205) < 1e-6);
    assert_int_equal(sprt_verdict(&s, llr, 10), SPRT_CONTINUE);
    /* 100 times the pairs: N = 1001, mean = 675.5 / 1001 = 0.674825, E[x^2] = 506.625 / 1001,
     * var = 0.050730: LLR = 1001 (0.014387)(1.349650 - 1.014387) / 0.101460 = 47.5885 -> H1
     * (47.6891 without the pseudo-pair: a shift of 1 / N of itself). */
    const uint64_t up100[5] = {0, 100, 300, 400, 200};
    assert_true(fabs(sprt_llr(&s, up100) - 47.5885) < 1e-4);
    assert_int_equal(sprt_verdict(&s, sprt_llr(&s, up100), 1000), SPRT_ACCEPT_H1);
    /* Mirror image (A losing): mean 0.325175, LLR = 1001 (0.014387)(0.650350 - 1.014387) /
     * 0.101460 = -51.6728 -> H0. */
    const uint64_t down100[5] = {200, 400, 300, 100, 0};
    assert_true(fabs(sprt_llr(&s, down100) + 51.6728) < 1e-4);
    assert_int_equal(sprt_verdict(&s, sprt_llr(&s, down100), 1000), SPRT_ACCEPT_H0);
    /* The same LLR before the minimum number of pairs: no verdict yet. */
    assert_int_equal(s.min_pairs, SPRT_MIN_PAIRS_DEFAULT);
    assert_int_equal(sprt_verdict(&s, 47.5885, SPRT_MIN_PAIRS_DEFAULT - 1), SPRT_CONTINUE);
    assert_int_equal(sprt_verdict(&s, 47.5885, SPRT_MIN_PAIRS_DEFAULT), SPRT_ACCEPT_H1);

    /* Score 100%, no spread: 20 pairs all won -> {.2, .2, .2, .2, 20.2}, N = 21; mean =
     * (.3 + 20.2) / 21 = 0.976190, E[x^2] = (.175 + 20.2) / 21 = 0.970238, var = 0.970238 -
     * 0.952948 = 0.017290; LLR = 21 (0.014387)(1.952381 - 1.014387) / 0.034580 = +8.1953 -> H1
     * (it was 0 and no verdict, for ever). */
    s.min_pairs = 20;
    const uint64_t won[5] = {0, 0, 0, 0, 20};
    assert_true(fabs(sprt_llr(&s, won) - 8.1953) < 1e-4);
    assert_int_equal(sprt_verdict(&s, sprt_llr(&s, won), 20), SPRT_ACCEPT_H1);
    /* Score 0%: all 20 lost, the mirror: mean 0.023810, same var; LLR = 21 (0.014387)(0.047619
     * - 1.014387) / 0.034580 = -8.4467 -> H0. */
    const uint64_t lost[5] = {20, 0, 0, 0, 0};
    assert_true(fabs(sprt_llr(&s, lost) + 8.4467) < 1e-4);
    assert_int_equal(sprt_verdict(&s, sprt_llr(&s, lost), 20), SPRT_ACCEPT_H0);
    /* More of them, more evidence: 3 pairs all won are not enough (N = 4, mean 3.5 / 4 = 0.875,
     * var 3.175 / 4 - 0.765625 = 0.078125, LLR = 4 (0.014387)(1.75 - 1.014387) / 0.15625 =
     * 0.2709), 12 pairs are (LLR 3.1051 > 2.944439). */
    const uint64_t won3[5] = {0, 0, 0, 0, 3}, won12[5] = {0, 0, 0, 0, 12};
    assert_true(fabs(sprt_llr(&s, won3) - 0.2709) < 1e-4);
    assert_true(sprt_llr(&s, won12) > hi && sprt_llr(&s, (const uint64_t[5]){0, 0, 0, 0, 11}) < hi);
    /* All drawn: level, evidence for E0 = 0: 100 pairs -> {.2, .2, 100.2, .2, .2}, N = 101, mean
     * 1/2, var = .2 (2 (.0625) + 2 (.25)) / 101 = 0.00123762; LLR = 101 (0.014387)(1 - 1.014387)
     * / 0.00247525 = -8.4461 -> H0. */
    const uint64_t flat[5] = {0, 0, 100, 0, 0};
    assert_true(fabs(sprt_llr(&s, flat) + 8.4461) < 1e-4);
    assert_int_equal(sprt_verdict(&s, sprt_llr(&s, flat), 100), SPRT_ACCEPT_H0);

    assert_int_equal(sprt_parse(&s, "10,0,0.05,0.05", msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "below"));
    assert_int_equal(sprt_parse(&s, "0,10,0.5,0.05", msg, sizeof msg), -1);
    assert_int_equal(sprt_parse(&s, "0,10,0.05", msg, sizeof msg), -1);
    assert_int_equal(sprt_parse(&s, "0,10,0.05,0.05,1", msg, sizeof msg), -1);
    assert_int_equal(sprt_parse(&s, "a,10,0.05,0.05", msg, sizeof msg), -1);
}

static int setup(void **state)
{
    (void)state;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    snprintf(test_dir, sizeof test_dir, "%s/test_tune_XXXXXX", XQ_BINARY_DIR);
    return mkdtemp(test_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gradient_matches_finite_differences),
        cmocka_unit_test(test_recovers_known_weights),
        cmocka_unit_test(test_same_result_for_any_thread_count),
        cmocka_unit_test(test_fixed_features_stay),
        cmocka_unit_test(test_clustered_errors_see_correlated_rows),
        cmocka_unit_test(test_load_replays_games),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_elo_by_hand),
        cmocka_unit_test(test_sprt_by_hand),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
