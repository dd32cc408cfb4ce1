/* test_selfplay.c - the self-play game loop reaches every termination from crafted positions,
 * games are reproducible from (seed, index), and the run totals add up. */
#include "test_util.h"

#include <dirent.h>
#include <math.h>

#include "game.h"
#include "summary.h"

typedef struct Fixture {
    Variant *v;
    Evaluator *e;
    SearchParams p;
    Mcts *m;
    Position *pos;
    GameBuffers buf;
} Fixture;

static int setup_variant(void **state, const char *variant_text)
{
    Fixture *f = calloc(1, sizeof *f);
    XqError err;
    if (variant_text) {
        f->v = variant_load_text(variant_text, "test variant", &err);
    } else {
        f->v = test_load_variant("xiangqi");
    }
    assert_non_null(f->v);
    f->e = eval_create(f->v, NULL, &err);
    assert_non_null(f->e);
    params_default(&f->p);
    f->p.playouts = 64;
    f->p.arena_nodes = 1 << 16;
    f->pos = malloc(sizeof *f->pos);
    *state = f;
    return 0;
}

static int setup(void **state)
{
    return setup_variant(state, NULL);
}

static int teardown(void **state)
{
    Fixture *f = *state;
    mcts_free(f->m);
    game_buffers_free(&f->buf);
    free(f->pos);
    eval_free(f->e);
    variant_free(f->v);
    free(f);
    return 0;
}

static GameRecord play(Fixture *f, const char *fen, uint64_t seed, uint64_t index, GameStats *gs)
{
    mcts_free(f->m);
    f->m = mcts_create(f->v, f->e, &f->p);
    assert_non_null(f->m);
    GameRecord g;
    assert_int_equal(game_play((Mcts *const[2]){f->m, f->m}, &f->p, f->v, fen, NULL, seed, index, false, f->pos, &f->buf, &g, gs), 0);
    return g;
}

/* Red to move mates at once (chariot b0-b9; rank 8 is held by the chariot on a8). */
static void reaches_checkmate(void **state)
{
    Fixture *f = *state;
    GameStats gs;
    GameRecord g = play(f, "4k4/R8/9/9/9/9/p8/9/9/1R1K5 w - - 0 1", 1, 0, &gs);
    assert_int_equal(g.termination, TERM_CHECKMATE);
    assert_int_equal(g.result, RESULT_RED_WINS);
    assert_int_equal(g.plies, 1);
    assert_int_equal(g.npositions, 1);
    assert_string_equal(g.start_fen, "4k4/R8/9/9/9/9/p8/9/9/1R1K5 w - - 0 1");
}

/* Black to move, not in check, with no legal move: the general on e9 cannot go to d9 or f9
 * (red chariots on d2 and f2 hold those files) nor to e8 (red horse on c7, leg d7 empty), and
 * Red's general on d0 is off the e-file. Stalemate loses for Black before any move is made. */
static void reaches_stalemate(void **state)
{
    Fixture *f = *state;
    GameStats gs;
    GameRecord g = play(f, "4k4/9/2N6/9/9/9/9/3R1R3/9/3K5 b - - 0 1", 1, 0, &gs);
    assert_int_equal(g.termination, TERM_STALEMATE);
    assert_int_equal(g.result, RESULT_RED_WINS);
    assert_int_equal(g.plies, 0);
}

/* Two plies before the natural move limit, with nothing to capture: a draw by the move limit. */
static void reaches_move_limit(void **state)
{
    Fixture *f = *state;
    GameStats gs;
    GameRecord g = play(f, "3k5/9/9/9/9/9/9/9/9/5K3 w - - 118 60", 1, 0, &gs);
    assert_int_equal(g.termination, TERM_MOVE_LIMIT);
    assert_int_equal(g.result, RESULT_DRAW);
    assert_int_equal(g.plies, 2);
}

/* The length cap ends a game as an adjudicated draw. */
static void reaches_length_cap(void **state)
{
    Fixture *f = *state;
    f->p.max_plies = 6;
    f->p.resign_moves = 0;
    GameStats gs;
    GameRecord g = play(f, NULL, 1, 0, &gs);
    assert_int_equal(g.termination, TERM_LENGTH_CAP);
    assert_int_equal(g.result, RESULT_DRAW);
    assert_int_equal(g.plies, 6);
    f->p.max_plies = 400;
}

/* A side down to a bare general against a full army resigns once its value stays below the
 * threshold for resign_moves moves (resignation enabled in every game). */
static void reaches_resignation(void **state)
{
    Fixture *f = *state;
    f->p.resign_moves = 1;
    f->p.resign_threshold = 0.5;
    f->p.resign_disabled_fraction = 0;
    GameStats gs;
    GameRecord g = play(f, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/9/9/4K4 w - - 0 1", 1, 0, &gs);
    assert_int_equal(g.termination, TERM_RESIGNATION);
    assert_int_equal(g.result, RESULT_BLACK_WINS);
    assert_false(gs.resign_disabled);
    f->p.resign_moves = 4;
    f->p.resign_threshold = 0.95;
    f->p.resign_disabled_fraction = 0.1;
}

/* Same seed and index: the same game, move for move; another index: another game. */
static void games_reproduce_from_seed_and_index(void **state)
{
    Fixture *f = *state;
    f->p.max_plies = 40;
    GameStats gs;
    GameRecord a = play(f, NULL, 7, 3, &gs);
    int n = a.nmoves;
    Move *first = malloc((size_t)n * sizeof *first);
    memcpy(first, a.moves, (size_t)n * sizeof *first);
    uint64_t seed_a = a.seed;
    GameRecord b = play(f, NULL, 7, 3, &gs);
    assert_int_equal(b.nmoves, n);
    assert_memory_equal(b.moves, first, (size_t)n * sizeof *first);
    assert_true(b.seed == seed_a);
    GameRecord c = play(f, NULL, 7, 4, &gs);
    assert_true(c.seed != seed_a);
    bool differs = c.nmoves != n || memcmp(c.moves, first, (size_t)n * sizeof *first) != 0;
    assert_true(differs);
    free(first);
    f->p.max_plies = 400;
}

/* Every recorded position replays: the board bytes equal the position reached by the moves
 * before it, and the played move is legal there; policies sum to at most the root visits. */
static void records_replay(void **state)
{
    Fixture *f = *state;
    f->p.max_plies = 60;
    GameStats gs;
    GameRecord g = play(f, NULL, 11, 0, &gs);
    Position *replay = malloc(sizeof *replay);
    pos_init_start(replay, f->v);
    for (int i = 0; i < g.npositions; i++) {
        const PositionRecord *r = &g.positions[i];
        assert_memory_equal(r->board, replay->board, (size_t)f->v->npoints);
        assert_int_equal(r->side, replay->side);
        assert_int_equal(r->ply, replay->ply);
        assert_true(pos_move_is_legal(replay, r->played));
        assert_true(r->played == g.moves[i]);
        uint64_t sum = 0;
        for (int k = 0; k < r->policy_count; k++)
            sum += g.policy_visits[r->policy_first + (uint32_t)k];
        assert_true(sum > 0 && sum <= r->visits);
        assert_true(r->root_value >= -1.0f && r->root_value <= 1.0f);
        Undo u;
        pos_do_move(replay, r->played, &u);
    }
    free(replay);
    assert_true(gs.playouts >= (uint64_t)g.npositions); /* at least one playout per search */
    f->p.max_plies = 400;
}

/* Without a move limit, two bare generals shuffle until a position occurs a third time: a draw
 * by repetition (neither side checks or chases). */
static const char *NO_LIMIT_VARIANT =
    "[variant]\nname = nolimit\nstart = 3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1\n"
    "[board]\nfiles = 9\nranks = 10\ngrid = a0-i9\nlines = d0-f2, f0-d2, d7-f9, f7-d9\n"
    "[zones]\npalace = d0-f2\n"
    "[piece general]\nletter = K\nroyal = yes\nstand = palace\nstep = orth\n"
    "[rules]\nflying_general = file\nmove_limit = 0\nrepetition = asian\n";

static int setup_no_limit(void **state)
{
    return setup_variant(state, NO_LIMIT_VARIANT);
}

static void reaches_repetition(void **state)
{
    Fixture *f = *state;
    f->p.max_plies = 1000;
    GameStats gs;
    GameRecord g = play(f, NULL, 3, 0, &gs);
    assert_int_equal(g.termination, TERM_REPETITION_DRAW);
    assert_int_equal(g.result, RESULT_DRAW);
    assert_true(g.plies >= 8);
}

/* search = ab self-play: the first temperature_plies plies draw among the root moves within
 * ab_margin of the best (mcts_set_sampling). The same seed and index give the same game, other
 * indices give other openings, and without a margin every game is the same one. The dataset's
 * policy is the one-hot target of the best move, played or not; after the temperature plies the
 * best move is played. */
static int first_plies_of(Fixture *f, uint64_t index, Move *out, int n)
{
    GameStats gs;
    GameRecord g = play(f, NULL, 7, index, &gs);
    int k = g.nmoves < n ? g.nmoves : n;
    memcpy(out, g.moves, (size_t)k * sizeof *out);
    return k;
}

static void ab_games_sample_the_opening(void **state)
{
    Fixture *f = *state;
    f->p.search = SEARCH_AB;
    f->p.ab_depth = 2;
    f->p.temperature_plies = 8;
    f->p.max_plies = 20;
    f->p.resign_moves = 0;
    f->p.hash_mb = 1;
    enum { GAMES = 6, PLIES = 8 };
    Move open[GAMES][PLIES];
    int len[GAMES];
    int played_other = 0;
    for (int i = 0; i < GAMES; i++) {
        GameStats gs;
        GameRecord g = play(f, NULL, 7, (uint64_t)i, &gs);
        assert_true(g.nmoves >= PLIES);
        len[i] = first_plies_of(f, (uint64_t)i, open[i], PLIES); /* replayed: the same game */
        assert_int_equal(len[i], PLIES);
        g = play(f, NULL, 7, (uint64_t)i, &gs);
        assert_memory_equal(g.moves, open[i], sizeof open[i]);
        for (int k = 0; k < g.npositions; k++) {
            const PositionRecord *r = &g.positions[k];
            assert_int_equal(r->policy_count, 1);
            assert_true(g.policy_moves[r->policy_first] == r->best);
            assert_int_equal(g.policy_visits[r->policy_first], 1);
            if (k >= PLIES)
                assert_true(r->played == r->best);
            played_other += r->played != r->best;
        }
    }
    int distinct = 0;
    for (int i = 0; i < GAMES; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= memcmp(open[i], open[j], sizeof open[i]) == 0;
        distinct += !seen;
    }
    assert_true(distinct >= 3);
    assert_true(played_other > 0);
    /* No margin: nothing to draw from, every game is the first. */
    f->p.ab_margin = 0;
    for (int i = 1; i < GAMES; i++) {
        Move o[PLIES];
        assert_int_equal(first_plies_of(f, (uint64_t)i, o, PLIES), PLIES);
        if (i == 1)
            first_plies_of(f, 0, open[0], PLIES);
        assert_memory_equal(o, open[0], sizeof o);
    }
}

/* The sampled alpha-beta self-play of every shipped rule set (each .ini of configs/variants)
 * replays: every played move legal where it was played, the dataset's board the replayed one. */
static void ab_selfplay_in_every_rule_set(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/configs/variants", XQ_SOURCE_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    int sets = 0;
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".ini") != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(n - 4), de->d_name);
        Fixture f = {0};
        f.v = test_load_variant(name);
        XqError err;
        f.e = eval_create(f.v, NULL, &err);
        assert_non_null(f.e);
        params_default(&f.p);
        f.p.search = SEARCH_AB;
        f.p.ab_depth = 1;
        f.p.hash_mb = 1;
        f.p.max_plies = 12;
        f.p.arena_nodes = 1 << 12;
        f.pos = malloc(sizeof *f.pos);
        Position *replay = malloc(sizeof *replay);
        for (uint64_t game = 0; game < 2; game++) {
            GameStats gs;
            GameRecord g = play(&f, NULL, 3, game, &gs);
            assert_true(g.nmoves > 0);
            assert_int_equal(pos_set_fen(replay, f.v, g.start_fen, NULL), 0);
            HiddenDeal deal;
            memcpy(deal.id, g.deal, sizeof deal.id);
            for (int k = 0; k < g.npositions; k++) {
                assert_memory_equal(g.positions[k].board, replay->board, (size_t)f.v->npoints);
                MoveList list;
                pos_generate_legal(replay, &list);
                bool legal = false;
                for (int i = 0; i < list.count; i++)
                    legal |= g.has_deal ? hidden_same_move(replay, list.moves[i], g.moves[k], &deal)
                                        : list.moves[i] == g.moves[k];
                if (!legal)
                    fail_msg("%s game %d ply %d: illegal move", name, (int)game, k);
                Undo u;
                pos_do_move(replay, g.moves[k], &u);
            }
        }
        free(replay);
        mcts_free(f.m);
        game_buffers_free(&f.buf);
        free(f.pos);
        eval_free(f.e);
        variant_free(f.v);
        sets++;
    }
    closedir(d);
    assert_true(sets >= 11);
}

/* Totals: W/D/L, lengths and the Wilson interval agree with hand counts. */
static void totals_add_up(void **state)
{
    (void)state;
    RunTotals t = {0};
    GameRecord g = {0};
    int8_t results[4] = {RESULT_RED_WINS, RESULT_RED_WINS, RESULT_DRAW, RESULT_BLACK_WINS};
    uint16_t plies[4] = {10, 20, 30, 41};
    for (int i = 0; i < 4; i++) {
        g.result = results[i];
        g.plies = plies[i];
        g.termination = i == 2 ? TERM_MOVE_LIMIT : TERM_CHECKMATE;
        assert_int_equal(totals_add(&t, &g, -1), 0);
    }
    assert_int_equal(t.games, 4);
    assert_int_equal(t.red_wins, 2);
    assert_int_equal(t.draws, 1);
    assert_int_equal(t.black_wins, 1);
    assert_int_equal(t.plies_sum, 101);
    assert_int_equal(t.by_reason[TERM_CHECKMATE], 3);
    /* The summary quotes the win/draw/loss interval of 2 / 1 / 1 (stats/interval.c; reference
     * tests/python/interval_reference.py: [0.247656, 0.889169]). */
    char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    Variant *xq = test_load_variant("xiangqi");
    totals_print(&t, xq, "w.ini (given)", f);
    variant_free(xq);
    fclose(f);
    assert_non_null(strstr(buf, "red score    62.5%  (95% CI 24.8% .. 88.9%, win/draw/loss;"));
    assert_non_null(strstr(buf, "draw rate    25.0%  (95% CI"));
    assert_non_null(strstr(buf, "resolution   4 games detect a first-move advantage of"));
    assert_non_null(strstr(buf, "weights      w.ini (given)"));
    totals_free(&t);
}

/* Hidden-piece totals over two paired deals (games 0-3, odd games seat-swapped):
 * game 0: seat 0 (black) wins; game 1: seat 1 (red) wins -> seat 0's pair score 1/2, the half
 * of the deal seat 0 held in game 0 won both; game 2: draw (colours never assigned);
 * game 3: seat 0 (red) wins -> pair score 3/4. By colour: black 1, red 2, 1 unassigned draw.
 * Pentanomial (the first mover's points over a pair): 1 point once, 3/2 points once; mean 5/8. */
static void totals_by_seat_and_colour(void **state)
{
    (void)state;
    RunTotals t = {0};
    GameRecord g = {0};
    int8_t results[4] = {RESULT_RED_WINS, RESULT_BLACK_WINS, RESULT_DRAW, RESULT_RED_WINS};
    int8_t colour[4] = {BLACK, BLACK, -1, RED};
    for (int i = 0; i < 4; i++) {
        g.index = (uint64_t)i;
        g.has_deal = true;
        g.deal_swapped = i % 2 == 1;
        g.seat_colour = colour[i];
        g.result = results[i];
        g.termination = TERM_NO_PIECES;
        assert_int_equal(totals_add(&t, &g, -1), 0);
    }
    assert_int_equal(t.hidden.games, 4);
    assert_int_equal(t.hidden.red_colour.losses, 1);
    assert_int_equal(t.hidden.red_colour.wins, 2);
    assert_int_equal(t.hidden.red_colour.draws, 0);
    assert_int_equal(t.hidden.colour_unassigned, 1);
    assert_int_equal(hidden_tally_pairs(&t.hidden), 2);
    assert_int_equal(t.hidden.pentanomial[2], 1);
    assert_int_equal(t.hidden.pentanomial[3], 1);
    assert_int_equal(t.hidden.hand_swept, 1);
    assert_int_equal(t.hidden.seat_swept, 0);
    char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    Variant *banqi = test_load_variant("banqi");
    totals_print(&t, banqi, NULL, f);
    variant_free(banqi);
    fclose(f);
    /* banqi assigns colours by the first flip: the results are named by seat, the colours on a
     * line of their own; the pair score has its pentanomial interval. */
    assert_non_null(strstr(buf, "first/draw/second mover 2 / 1 / 1\n"));
    assert_non_null(strstr(buf, "first-mover score 62.5%  (95% CI"));
    assert_null(strstr(buf, "red/draw/black"));
    assert_null(strstr(buf, "red score"));
    assert_non_null(strstr(buf, "by colour    red player 2 / draw 0 / black player 1"));
    assert_non_null(strstr(buf, "paired deals 2 pairs; first-mover score 62.5%  (95% CI"));
    /* jieqi: the first mover always plays red; its results are Red's, no colour line. */
    f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    Variant *jieqi = test_load_variant("jieqi");
    totals_print(&t, jieqi, NULL, f);
    variant_free(jieqi);
    fclose(f);
    assert_non_null(strstr(buf, "red/draw/black 2 / 1 / 1\n"));
    assert_non_null(strstr(buf, "red score    62.5%"));
    assert_null(strstr(buf, "by colour"));
    totals_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(totals_by_seat_and_colour),
        cmocka_unit_test_setup_teardown(reaches_checkmate, setup, teardown),
        cmocka_unit_test_setup_teardown(reaches_stalemate, setup, teardown),
        cmocka_unit_test_setup_teardown(reaches_move_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(reaches_length_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(reaches_resignation, setup, teardown),
        cmocka_unit_test_setup_teardown(games_reproduce_from_seed_and_index, setup, teardown),
        cmocka_unit_test_setup_teardown(records_replay, setup, teardown),
        cmocka_unit_test_setup_teardown(reaches_repetition, setup_no_limit, teardown),
        cmocka_unit_test(totals_add_up),
        cmocka_unit_test_setup_teardown(ab_games_sample_the_opening, setup, teardown),
        cmocka_unit_test(ab_selfplay_in_every_rule_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
