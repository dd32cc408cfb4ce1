/* test_mcts.c - the search module: mates, material, determinism, arena limits, tree reuse,
 * parameter and weights loading errors, evaluation invariants. */
#include "test_util.h"

#include <ctype.h>
#include <math.h>

#include "mcts.h"
#include "status.h"

/* ---- helpers -------------------------------------------------------------------------------- */

typedef struct Fixture {
    Variant *v;
    Evaluator *e;
    SearchParams p;
    Position *pos;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    f->v = test_load_variant("xiangqi");
    XqError err;
    f->e = eval_create(f->v, XQ_SOURCE_DIR "/configs/weights/xiangqi-handset.ini", &err);
    if (!f->e)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    params_default(&f->p);
    f->pos = malloc(sizeof *f->pos);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    eval_free(f->e);
    variant_free(f->v);
    free(f->pos);
    free(f);
    return 0;
}

/* Writes a temporary file with the given text and returns its path (static buffer). */
static const char *write_temp(const char *name, const char *text)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", XQ_BINARY_DIR, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    return path;
}

/* Plays mv, then asks the core whether the game ended. */
static GameStatus status_after(Position *pos, Move mv, Undo *u)
{
    pos_do_move(pos, mv, u);
    return pos_game_status(pos);
}

/* True if the side to move has a move that ends the game in its favour at once. */
static bool has_mate_in_1(Position *pos)
{
    MoveList list;
    pos_generate_legal(pos, &list);
    Side us = pos->side;
    Result win = us == RED ? RESULT_RED_WINS : RESULT_BLACK_WINS;
    for (int i = 0; i < list.count; i++) {
        Undo u;
        GameStatus st = status_after(pos, list.moves[i], &u);
        pos_undo_move(pos, list.moves[i], &u);
        if (st.result == win)
            return true;
    }
    return false;
}

static Move search_best(Fixture *f, int playouts, uint64_t seed, SearchResult *r)
{
    f->p.playouts = playouts;
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    assert_non_null(m);
    Rng rng;
    rng_init(&rng, seed);
    assert_int_equal(mcts_search(m, f->pos, &rng, false, r), 0);
    mcts_free(m);
    return r->best;
}

/* ---- search --------------------------------------------------------------------------------- */

/* Red: chariots a8 (guards rank 8) and b0, general d0; Black: general e9 and a pawn on a3 (so
 * Black is not stalemated). b0b9 mates: the general cannot leave rank 9 and d9 / f9 are on the
 * checking line. */
static void finds_mate_in_1(void **state)
{
    Fixture *f = *state;
    test_set_fen(f->pos, f->v, "4k4/R8/9/9/9/9/p8/9/9/1R1K5 w - - 0 1");
    assert_int_equal(pos_game_status(f->pos).result, RESULT_NONE);
    assert_true(has_mate_in_1(f->pos));
    SearchResult r;
    Move best = search_best(f, 200, 1, &r);
    Undo u;
    GameStatus st = status_after(f->pos, best, &u);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_CHECKMATE);
    assert_int_equal(r.proven, 1);
    assert_true(r.value > 0.99f);
}

/* Red: chariots a0 and b1, general d0; Black: general e9, pawn i3. No mate in one, but a0a8 (or
 * b1b8) closes rank 8 and the other chariot mates on rank 9 whatever Black does. */
static void finds_mate_in_2(void **state)
{
    Fixture *f = *state;
    test_set_fen(f->pos, f->v, "4k4/9/9/9/9/9/8p/9/1R7/R2K5 w - - 0 1");
    assert_false(has_mate_in_1(f->pos));
    SearchResult r;
    Move best = search_best(f, 2000, 1, &r);
    assert_int_equal(r.proven, 1);
    /* Check with the core: after the chosen move every Black reply allows a mate in one. */
    Undo u;
    GameStatus st = status_after(f->pos, best, &u);
    assert_int_equal(st.result, RESULT_NONE);
    MoveList replies;
    pos_generate_legal(f->pos, &replies);
    assert_true(replies.count > 0);
    for (int i = 0; i < replies.count; i++) {
        Undo ur;
        pos_do_move(f->pos, replies.moves[i], &ur);
        assert_true(has_mate_in_1(f->pos));
        pos_undo_move(f->pos, replies.moves[i], &ur);
    }
}

/* A black chariot hangs on a6 while a black pawn on e5 is also en prise: take the chariot. */
static void wins_free_chariot(void **state)
{
    Fixture *f = *state;
    test_set_fen(f->pos, f->v, "4k4/9/9/r8/4p4/9/4R4/9/9/R2K5 w - - 0 1");
    SearchResult r;
    Move best = search_best(f, 200, 7, &r);
    char buf[16];
    move_to_iccs(f->v, best, buf);
    assert_string_equal(buf, "a0a6");
    /* The static value of the root knows nothing of the capture; the search does. */
    assert_true(r.value > r.static_eval);
}

static void same_seed_same_search(void **state)
{
    Fixture *f = *state;
    f->p.playouts = 300;
    SearchResult *r = malloc(2 * sizeof *r);
    for (int run = 0; run < 2; run++) {
        pos_init_start(f->pos, f->v);
        Mcts *m = mcts_create(f->v, f->e, &f->p);
        Rng rng;
        rng_init(&rng, 42);
        /* Two moves with noise, temperature and reuse: every random draw is involved. */
        for (int ply = 0; ply < 2; ply++) {
            assert_int_equal(mcts_search(m, f->pos, &rng, true, &r[run]), 0);
            Move mv = mcts_pick(&r[run], 1.0, &rng);
            mcts_advance(m, mv);
            Undo u;
            pos_do_move(f->pos, mv, &u);
        }
        assert_int_equal(mcts_search(m, f->pos, &rng, true, &r[run]), 0);
        mcts_free(m);
    }
    assert_int_equal(r[0].nchildren, r[1].nchildren);
    assert_int_equal(r[0].best, r[1].best);
    assert_memory_equal(r[0].child_visits, r[1].child_visits, r[0].nchildren * sizeof(uint32_t));
    assert_memory_equal(r[0].moves, r[1].moves, r[0].nchildren * sizeof(Move));
    free(r);
}

static void tiny_arena_truncates(void **state)
{
    Fixture *f = *state;
    f->p.arena_nodes = 512;
    f->p.playouts = 100000;
    pos_init_start(f->pos, f->v);
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    Rng rng;
    rng_init(&rng, 3);
    SearchResult r;
    for (int ply = 0; ply < 6; ply++) {
        assert_int_equal(mcts_search(m, f->pos, &rng, true, &r), 0);
        assert_true(r.truncated);
        assert_true(r.visits > 1 && r.visits < 100000);
        assert_true(pos_move_is_legal(f->pos, r.best));
        mcts_advance(m, r.best);
        Undo u;
        pos_do_move(f->pos, r.best, &u);
    }
    mcts_free(m);
}

static void reuse_keeps_subtree(void **state)
{
    Fixture *f = *state;
    pos_init_start(f->pos, f->v);
    f->p.playouts = 400;
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    Rng rng;
    rng_init(&rng, 5);
    SearchResult r;
    for (int ply = 0; ply < 3; ply++) {
        f->p.playouts = 400;
        assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
        uint32_t kept = 0;
        for (int i = 0; i < r.nchildren; i++)
            if (r.moves[i] == r.best)
                kept = r.child_visits[i];
        assert_true(kept > 1);
        mcts_advance(m, r.best);
        Undo u;
        pos_do_move(f->pos, r.best, &u);
        /* One more playout on top of the reused subtree. */
        f->p.playouts = 1;
        SearchResult r2;
        assert_int_equal(mcts_search(m, f->pos, &rng, false, &r2), 0);
        assert_int_equal(r2.visits, (int)kept + 1);
        uint32_t sum = 0;
        for (int i = 0; i < r2.nchildren; i++)
            sum += r2.child_visits[i];
        assert_int_equal(sum, kept); /* the root's own first visit is not a child visit */
    }
    /* A position that is not the advanced one gets a fresh tree. */
    mcts_advance(m, r.best);
    pos_init_start(f->pos, f->v);
    f->p.playouts = 1;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_int_equal(r.visits, 1);
    mcts_free(m);
}

static void pick_follows_visits(void **state)
{
    (void)state;
    SearchResult r;
    memset(&r, 0, sizeof r);
    r.nchildren = 3;
    r.moves[0] = 10, r.moves[1] = 20, r.moves[2] = 30;
    r.child_visits[0] = 0, r.child_visits[1] = 90, r.child_visits[2] = 10;
    r.best = 20;
    Rng rng;
    rng_init(&rng, 9);
    assert_int_equal(mcts_pick(&r, 0.0, &rng), 20);
    int count[3] = {0, 0, 0};
    for (int i = 0; i < 2000; i++) {
        Move mv = mcts_pick(&r, 1.0, &rng);
        assert_true(mv == 20 || mv == 30); /* never an unvisited move */
        count[mv / 10 - 1]++;
    }
    assert_true(count[1] > 1600 && count[1] < 1990 && count[2] > 100);
    r.proven = 1;
    assert_int_equal(mcts_pick(&r, 1.0, &rng), 20);
    SearchParams p;
    params_default(&p);
    assert_true(mcts_temperature(&p, 0) > 0);
    assert_true(mcts_temperature(&p, p.temperature_plies) == 0);
}

static void no_legal_move_is_an_error(void **state)
{
    Fixture *f = *state;
    /* Black to move, mated by the chariot on b9 (the position of finds_mate_in_1 after b0b9). */
    test_set_fen(f->pos, f->v, "1R2k4/R8/9/9/9/9/p8/9/9/3K5 b - - 0 1");
    assert_int_equal(pos_game_status(f->pos).reason, TERM_CHECKMATE);
    SearchResult r;
    Mcts *m = mcts_create(f->v, f->e, &f->p);
    Rng rng;
    rng_init(&rng, 1);
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), -1);
    mcts_free(m);
}

/* ---- parameters ----------------------------------------------------------------------------- */

static void params_reject_bad_values(void **state)
{
    (void)state;
    SearchParams p;
    params_default(&p);
    XqError err;
    static const char *const bad[][2] = {
        {"playouts", "0"},        {"playouts", "12x"},  {"playouts", "1.5"},
        {"playouts", ""},         {"c_puct", "0"},      {"c_puct", "nan"},
        {"c_puct", "-1"},         {"dirichlet_epsilon", "1.5"}, {"reuse_tree", "maybe"},
        {"arena_nodes", "100"},   {"eval_scale", "inf"}, {"max_plies", "99999"},
        {"qsearch_depth", "-1"},  {"playouts", "99999999999999999999"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(params_set(&p, bad[i][0], bad[i][1], &err), -1);
        assert_non_null(strstr(err.message, bad[i][0]));
        assert_non_null(strstr(err.message, "expected"));
    }
    assert_int_equal(params_set(&p, "playouts", "0", &err), -1);
    assert_string_equal(err.message, "playouts: expected an integer >= 1 and <= 1e+07");
    assert_int_equal(params_set(&p, "c_puct", "0", &err), -1);
    assert_string_equal(err.message, "c_puct: expected a number > 0 and <= 100");
    assert_int_equal(params_set(&p, "no_such_key", "1", &err), -1);
    assert_string_equal(err.message, "unknown search parameter 'no_such_key'");
    /* Failed sets leave the value alone; good ones land. */
    SearchParams d;
    params_default(&d);
    assert_int_equal(p.playouts, d.playouts);
    assert_int_equal(params_set(&p, "playouts", "64", &err), 0);
    assert_int_equal(params_set(&p, "c_puct", "2.25", &err), 0);
    assert_int_equal(params_set(&p, "reuse_tree", "no", &err), 0);
    assert_int_equal(p.playouts, 64);
    assert_true(p.c_puct == 2.25);
    assert_int_equal(p.reuse_tree, 0);
}

static void params_round_trip_and_presets(void **state)
{
    (void)state;
    SearchParams p, q;
    params_default(&p);
    XqError err;
    assert_int_equal(params_set(&p, "fpu_reduction", "0.1", &err), 0);
    assert_int_equal(params_set(&p, "temperature", "0.7", &err), 0);
    char buf[4096], path_text[4200];
    params_write(&p, buf, sizeof buf);
    snprintf(path_text, sizeof path_text, "; written by params_write\n[search]\n%s", buf);
    params_default(&q);
    q.playouts = 1;
    const char *path = write_temp("test_mcts_params.ini", path_text);
    if (params_load_file(&q, path, &err) != 0)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    assert_memory_equal(&p, &q, sizeof p);
    assert_int_equal(params_count() > 10, 1);
    assert_string_equal(params_name(0), "playouts");

    static const char *const presets[] = {"quick", "standard", "strong"};
    int playouts[3];
    for (int i = 0; i < 3; i++) {
        char pp[1024];
        snprintf(pp, sizeof pp, "%s/configs/runs/%s.ini", XQ_SOURCE_DIR, presets[i]);
        params_default(&q);
        if (params_load_file(&q, pp, &err) != 0)
            fail_msg("%s:%d: %s", err.file, err.line, err.message);
        playouts[i] = q.playouts;
    }
    assert_int_equal(playouts[0], 64);
    assert_int_equal(playouts[1], 200);
    assert_int_equal(playouts[2], 800);
    /* The standard preset spells out the defaults. */
    params_default(&p);
    char sp[1024];
    snprintf(sp, sizeof sp, "%s/configs/runs/standard.ini", XQ_SOURCE_DIR);
    params_default(&q);
    q.playouts = 3;
    assert_int_equal(params_load_file(&q, sp, &err), 0);
    assert_memory_equal(&p, &q, sizeof p);
}

static void params_file_errors_name_line(void **state)
{
    (void)state;
    SearchParams p;
    params_default(&p);
    XqError err;
    const char *path = write_temp("test_mcts_bad_params.ini",
                                  "[selfplay]\ngames = 10\n[search]\nplayouts = 64\nc_puct = -2\n");
    assert_int_equal(params_load_file(&p, path, &err), -1);
    assert_string_equal(err.file, path);
    assert_int_equal(err.line, 5);
    assert_non_null(strstr(err.message, "c_puct"));
    path = write_temp("test_mcts_bad_params2.ini", "[search]\n\nplayout = 64\n");
    assert_int_equal(params_load_file(&p, path, &err), -1);
    assert_int_equal(err.line, 3);
    assert_non_null(strstr(err.message, "'playout'"));
    assert_int_equal(params_load_file(&p, XQ_BINARY_DIR "/no/such/file.ini", &err), -1);
    assert_non_null(strstr(err.file, "no/such/file.ini"));
}

/* ---- evaluation ----------------------------------------------------------------------------- */

static void weights_errors_name_line(void **state)
{
    Fixture *f = *state;
    XqError err;
    const char *path = write_temp("test_mcts_w1.ini",
                                  "; weights\n[weights]\nmaterial.chariot = 9\nmaterial.queen = 9\n");
    assert_null(eval_create(f->v, path, &err));
    assert_string_equal(err.file, path);
    assert_int_equal(err.line, 4);
    assert_non_null(strstr(err.message, "material.queen"));
    path = write_temp("test_mcts_w2.ini", "[weights]\nmaterial.horse = four\n");
    assert_null(eval_create(f->v, path, &err));
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "material.horse"));
    path = write_temp("test_mcts_w3.ini", "[weights]\nmaterial.horse = 4\nmaterial.horse = 5\n");
    assert_null(eval_create(f->v, path, &err));
    assert_int_equal(err.line, 3);
    path = write_temp("test_mcts_w4.ini", "[weight]\nmaterial.horse = 4\n");
    assert_null(eval_create(f->v, path, &err));
    assert_int_equal(err.line, 2);
    path = write_temp("test_mcts_w5.ini", "[weights]\nmaterial.horse 4\n");
    assert_null(eval_create(f->v, path, &err));
    assert_int_equal(err.line, 2);
}

static int feature_index(const Evaluator *e, const char *name)
{
    for (int i = 0; i < eval_feature_count(e); i++)
        if (!strcmp(eval_feature_name(e, i), name))
            return i;
    fail_msg("no feature %s", name);
    return -1;
}

static void default_weights_and_features(void **state)
{
    Fixture *f = *state;
    XqError err;
    Evaluator *e = eval_create(f->v, NULL, &err);
    assert_non_null(e);
    /* Without a weights file: material from the variant's piece values, nothing else. */
    for (int i = 0; i < eval_feature_count(e); i++) {
        const char *name = eval_feature_name(e, i);
        if (!strncmp(name, "material.", 9)) {
            int k = -1;
            for (int j = 0; j < f->v->nkinds; j++)
                if (!strcmp(f->v->kinds[j].name, name + 9))
                    k = j;
            assert_true(k >= 0);
            assert_true(eval_weight(e, i) == f->v->kinds[k].value);
        } else {
            assert_true(eval_weight(e, i) == 0);
        }
    }
    /* The features the issue names exist, from the variant's own pieces and zones. */
    feature_index(e, "material.chariot");
    feature_index(e, "zone.pawn.enemy_half");
    feature_index(e, "zone.horse.their_palace");
    feature_index(e, "mobility.horse");
    feature_index(e, "safety.royal_pressure");
    feature_index(e, "side.to_move");
    /* The hand-set file: a crossed pawn is worth one more. */
    assert_true(eval_weight(f->e, feature_index(f->e, "zone.pawn.enemy_half")) == 1.0);
    assert_true(eval_weight(f->e, feature_index(f->e, "material.cannon")) == 4.5);
    /* Written weights load back to the same values. */
    char buf[8192];
    eval_write_weights(f->e, buf, sizeof buf);
    const char *path = write_temp("test_mcts_written.ini", buf);
    Evaluator *back = eval_create(f->v, path, &err);
    assert_non_null(back);
    for (int i = 0; i < eval_feature_count(e); i++)
        assert_true(eval_weight(back, i) == eval_weight(f->e, i));
    eval_set_weight(back, feature_index(back, "side.to_move"), 0.5);
    pos_init_start(f->pos, f->v);
    assert_true(fabs(eval_score(back, f->pos) - eval_score(f->e, f->pos) - 0.4) < 1e-9);
    eval_free(back);
    eval_free(e);
}

/* Colour mirror of a FEN: ranks reversed, cases swapped, the other side to move. */
static void mirror_fen(const char *fen, char *out, size_t size)
{
    char board[128], side[4], rest[64];
    assert_int_equal(sscanf(fen, "%127s %3s %63[^\n]", board, side, rest), 3);
    char *ranks[16];
    int n = 0;
    for (char *t = strtok(board, "/"); t; t = strtok(NULL, "/"))
        ranks[n++] = t;
    size_t used = 0;
    for (int i = n - 1; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            out[used++] = isupper((unsigned char)*c) ? (char)tolower((unsigned char)*c)
                                                     : (char)toupper((unsigned char)*c);
        if (i > 0)
            out[used++] = '/';
    }
    snprintf(out + used, size - used, " %s %s", side[0] == 'w' ? "b" : "w", rest);
}

static const char *const EVAL_FENS[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/4P4/P1P3P1P/1C2C1N2/9/RNBAKAB1R b - - 2 3",
    "2bakab2/9/2n1c1n2/p3p3p/2p3p2/6P2/P1P1P3P/2N1C1N2/4A4/2BAK1B2 w - - 0 12",
    "5k3/4P4/9/r8/4p4/9/4R4/9/4A4/R2K5 b - - 0 40",
    "3ak4/4a4/4b4/9/2C6/9/9/4B4/4A4/2RAK4 w - - 0 40",
};

static void eval_mirror_symmetry(void **state)
{
    Fixture *f = *state;
    int nf = eval_feature_count(f->e);
    float *a = calloc((size_t)nf, sizeof *a), *b = calloc((size_t)nf, sizeof *b);
    Position *mir = malloc(sizeof *mir);
    for (size_t i = 0; i < sizeof EVAL_FENS / sizeof EVAL_FENS[0]; i++) {
        char mfen[256];
        mirror_fen(EVAL_FENS[i], mfen, sizeof mfen);
        test_set_fen(f->pos, f->v, EVAL_FENS[i]);
        test_set_fen(mir, f->v, mfen);
        double s1 = eval_score(f->e, f->pos), s2 = eval_score(f->e, mir);
        if (fabs(s1 - s2) > 1e-9)
            fail_msg("%s: %.12f, mirrored %s: %.12f", EVAL_FENS[i], s1, mfen, s2);
        eval_features(f->e, f->pos, a);
        eval_features(f->e, mir, b);
        double dot = 0;
        for (int j = 0; j < nf; j++) {
            if (a[j] != -b[j])
                fail_msg("%s: feature %s is %g, mirrored %g", EVAL_FENS[i],
                         eval_feature_name(f->e, j), a[j], b[j]);
            dot += eval_weight(f->e, j) * a[j];
        }
        /* The fast score is the dot product of features and weights. */
        double red = f->pos->side == RED ? s1 : -s1;
        assert_true(fabs(dot - red) < 1e-6);
    }
    free(mir);
    free(a);
    free(b);
}

/* The solver and the values work for Black too: the mate-in-one and mate-in-two positions with
 * colours swapped, and the position is left as it was. */
static void finds_mates_for_black(void **state)
{
    Fixture *f = *state;
    static const char *const fens[] = {"4k4/R8/9/9/9/9/p8/9/9/1R1K5 w - - 0 1",
                                       "4k4/9/9/9/9/9/8p/9/1R7/R2K5 w - - 0 1"};
    for (int i = 0; i < 2; i++) {
        char mfen[256], before[256], after[256];
        mirror_fen(fens[i], mfen, sizeof mfen);
        test_set_fen(f->pos, f->v, mfen);
        pos_get_fen(f->pos, before, sizeof before);
        uint64_t key = f->pos->key;
        SearchResult r;
        search_best(f, 2000, 11, &r);
        pos_get_fen(f->pos, after, sizeof after);
        assert_string_equal(before, after);
        assert_true(f->pos->key == key && f->pos->hist_len == 0);
        assert_int_equal(r.proven, 1);
        assert_true(r.value > 0.99f);
        if (i == 0) {
            Undo u;
            assert_int_equal(status_after(f->pos, r.best, &u).result, RESULT_BLACK_WINS);
        }
    }
}

/* The mobility features count exactly the core's pseudo-legal moves. */
static void mobility_matches_core(void **state)
{
    Fixture *f = *state;
    int nf = eval_feature_count(f->e);
    float *feat = calloc((size_t)nf, sizeof *feat);
    for (size_t i = 0; i < sizeof EVAL_FENS / sizeof EVAL_FENS[0]; i++) {
        test_set_fen(f->pos, f->v, EVAL_FENS[i]);
        eval_features(f->e, f->pos, feat);
        float mob = 0;
        for (int j = 0; j < nf; j++)
            if (!strncmp(eval_feature_name(f->e, j), "mobility.", 9))
                mob += feat[j];
        MoveList list;
        int ours = pos_generate_pseudo(f->pos, &list);
        f->pos->side = XQ_OTHER(f->pos->side);
        int theirs = pos_generate_pseudo(f->pos, &list);
        f->pos->side = XQ_OTHER(f->pos->side);
        int red_minus_black = f->pos->side == RED ? ours - theirs : theirs - ours;
        assert_int_equal((int)mob, red_minus_black);
    }
    free(feat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(finds_mate_in_1, setup, teardown),
        cmocka_unit_test_setup_teardown(finds_mate_in_2, setup, teardown),
        cmocka_unit_test_setup_teardown(wins_free_chariot, setup, teardown),
        cmocka_unit_test_setup_teardown(same_seed_same_search, setup, teardown),
        cmocka_unit_test_setup_teardown(tiny_arena_truncates, setup, teardown),
        cmocka_unit_test_setup_teardown(reuse_keeps_subtree, setup, teardown),
        cmocka_unit_test(pick_follows_visits),
        cmocka_unit_test_setup_teardown(no_legal_move_is_an_error, setup, teardown),
        cmocka_unit_test(params_reject_bad_values),
        cmocka_unit_test(params_round_trip_and_presets),
        cmocka_unit_test(params_file_errors_name_line),
        cmocka_unit_test_setup_teardown(weights_errors_name_line, setup, teardown),
        cmocka_unit_test_setup_teardown(default_weights_and_features, setup, teardown),
        cmocka_unit_test_setup_teardown(eval_mirror_symmetry, setup, teardown),
        cmocka_unit_test_setup_teardown(mobility_matches_core, setup, teardown),
        cmocka_unit_test_setup_teardown(finds_mates_for_black, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
