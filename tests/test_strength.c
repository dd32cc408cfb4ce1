/* test_strength.c - the strength referee's pieces: rank translation, pentanomial counting, the
 * time-odds search, engines that die, hang, garble or play illegal moves (scripted fake engines,
 * tests/data/fake_uci.sh), the rules check and a real game pair against Fairy-Stockfish whose
 * PGN is read back. */
#include "test_util.h"

#include <math.h>
#include <signal.h>
#include <unistd.h>

#include "odds_search.h"
#include "pgn.h"
#include "strength.h"
#include "uci_notation.h"

#define FAIRY "/usr/games/fairy-stockfish"
#define START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

static char *temp_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/xq_strength_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void load_book(Book *b, const Variant *v, const char *text)
{
    char *path = temp_file(text);
    XqError err;
    if (book_load(b, v, path, &err) < 0)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    unlink(path);
}

static void fake_command(char *buf, size_t size, const char *mode)
{
    snprintf(buf, size, "sh %s/tests/data/fake_uci.sh %s", XQ_SOURCE_DIR, mode);
}

static UciEngineSpec spec_for(const char *command, const char *role)
{
    UciEngineSpec s = {
        .command = command, .role = role, .rank_base = UCI_RANKS_AUTO, .variant = "xiangqi",
        .startup_timeout = 5,
    };
    return s;
}

static void shifts_ranks(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        int delta;
        const char *out;  /* NULL: refused */
    } cases[] = {
        {"h2e2", 1, "h3e3"},   {"h3e3", -1, "h2e2"},   {"a9a10", -1, "a8a9"}, {"a9a8", 1, "a10a9"},
        {"b0c2", 1, "b1c3"},   {"j10j1", -1, "j9j0"},  {"e1e2q", -1, "e0e1q"}, {"a0a1", 0, "a0a1"},
        {"a0a1", -1, NULL},    {"(none)", -1, NULL},   {"0000", 1, NULL},      {"", 1, NULL},
        {"e", 1, NULL},        {"a123b1", 1, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[16];
        int rc = uci_move_shift_ranks(cases[i].in, cases[i].delta, out, sizeof out);
        if (!cases[i].out) {
            if (rc != -1)
                fail_msg("'%s' %+d should be refused, gave '%s'", cases[i].in, cases[i].delta, out);
        } else {
            assert_int_equal(rc, 0);
            assert_string_equal(out, cases[i].out);
        }
    }
    char tiny[4];
    assert_int_equal(uci_move_shift_ranks("h2e2", 1, tiny, sizeof tiny), -1);
}

static void counts_pairs(void **state)
{
    (void)state;
    /* Pairs: (win, win) = 2 points, (draw, loss) = 0.5, (loss, loss) = 0, (draw, -) unfinished,
     * (win, draw) = 1.5, (loss, win) = 1. */
    int8_t half[] = {2, 2, 1, 0, 0, 0, 1, -1, 2, 1, 0, 2};
    uint64_t p[5];
    assert_int_equal(strength_count_pairs(half, 12, p), 5);
    assert_int_equal(p[0], 1);
    assert_int_equal(p[1], 1);
    assert_int_equal(p[2], 1);
    assert_int_equal(p[3], 1);
    assert_int_equal(p[4], 1);
    /* An odd game out is no pair. */
    assert_int_equal(strength_count_pairs(half, 3, p), 1);
    assert_int_equal(p[4], 1);
}

/* A's score at odds k when the 50% point is at `truth` (logistic in log k). */
static double curve(double k, double truth)
{
    return 1.0 / (1.0 + exp(-2.0 * (log(k) - log(truth))));
}

static void odds_search_brackets(void **state)
{
    (void)state;
    const double truths[] = {0.3, 1.7, 9.0, 23.0, 60.0};
    for (size_t i = 0; i < sizeof truths / sizeof truths[0]; i++) {
        OddsSearch s;
        odds_search_init(&s, 1, 4, 1.25, 64);
        int steps = 0;
        for (double k; (k = odds_search_next(&s)) > 0; steps++) {
            assert_true(k >= 1.0 / 64 - 1e-12 && k <= 64 + 1e-12);
            odds_search_record(&s, curve(k, truths[i]));
            assert_true(steps < 20);
        }
        assert_true(odds_search_bracketed(&s));
        assert_true(s.lo < truths[i] && truths[i] <= s.hi);
        assert_true(s.hi / s.lo <= 1.25 + 1e-9);
        assert_true(s.lo_score < 0.5 && s.hi_score >= 0.5);
        double est = odds_search_estimate(&s);
        assert_true(est >= s.lo && est <= s.hi);
        assert_true(fabs(log(est / truths[i])) < 0.05);
    }
    /* The expected path for a 50% point at 9: 1, 4, 16 bracket it, then 8, 11.3, 9.51 (ratio
     * 1.19 between 8 and 9.51). */
    OddsSearch s;
    odds_search_init(&s, 1, 4, 1.25, 64);
    const double path[] = {1, 4, 16, 8, sqrt(8 * 16.0), sqrt(8 * sqrt(8 * 16.0))};
    for (size_t i = 0; i < sizeof path / sizeof path[0]; i++) {
        assert_true(fabs(odds_search_next(&s) - path[i]) < 1e-9);
        odds_search_record(&s, curve(odds_search_next(&s), 9));
    }
    assert_true(odds_search_next(&s) == 0);
    assert_int_equal(s.steps, 6);
}

static void odds_search_limits(void **state)
{
    (void)state;
    /* Hopeless: 1, 4, 16, 64, then over (above max, not bracketed). */
    OddsSearch s;
    odds_search_init(&s, 1, 4, 1.25, 64);
    int steps = 0;
    for (; odds_search_next(&s) > 0; steps++)
        odds_search_record(&s, 0.0);
    assert_int_equal(steps, 4);
    assert_false(odds_search_bracketed(&s));
    assert_true(s.lo == 64 && s.hi == 0);
    assert_true(odds_search_estimate(&s) == 0);
    /* Always winning: 1, 1/4, 1/16, 1/64. */
    odds_search_init(&s, 1, 4, 1.25, 64);
    for (steps = 0; odds_search_next(&s) > 0; steps++)
        odds_search_record(&s, 1.0);
    assert_int_equal(steps, 4);
    assert_true(fabs(s.hi - 1.0 / 64) < 1e-12 && s.lo == 0);
    /* Each step halves the bracket it falls in. */
    odds_search_init(&s, 8, 4, 1.25, 64);
    odds_search_record(&s, 0.6);              /* hi = 8 */
    assert_true(odds_search_next(&s) == 2);
    odds_search_record(&s, 0.4);              /* lo = 2 */
    assert_true(odds_search_next(&s) == 4);
    odds_search_record(&s, 0.55);             /* hi = 4 */
    odds_search_record(&s, 0.45);             /* at sqrt(8): lo = 2.83 */
    assert_true(fabs(s.lo - sqrt(8.0)) < 1e-9 && s.hi == 4);
    /* A start beyond the limits is clamped. */
    odds_search_init(&s, 1000, 4, 1.25, 64);
    assert_true(odds_search_next(&s) == 64);
}

/* One game between two fake engines from the start position. */
static void play_fakes(const char *red_mode, const char *black_mode, RefereeGame *g, double grace)
{
    Variant *v = test_load_variant("xiangqi");
    char red_cmd[1024], black_cmd[1024];
    fake_command(red_cmd, sizeof red_cmd, red_mode);
    fake_command(black_cmd, sizeof black_cmd, black_mode);
    UciEngineSpec rs = spec_for(red_cmd, "red"), bs = spec_for(black_cmd, "black");
    if (!strcmp(black_mode, "ranks1"))
        bs.rank_base = 1;
    UciEngine red, black;
    assert_int_equal(uci_engine_start(&red, &rs, NULL), UCI_OK);
    assert_int_equal(uci_engine_start(&black, &bs, NULL), UCI_OK);
    UciEngine *engines[2] = {&red, &black};
    RefereeSetup setup = {.v = v, .movetime_ms = {10, 10}, .grace = grace, .max_plies = 400};
    assert_int_equal(referee_play(&setup, engines, g), 0);
    uci_engine_quit(&red);
    uci_engine_quit(&black);
    variant_free(v);
}

static void referee_adjudicates_by_rules(void **state)
{
    (void)state;
    RefereeGame g;
    play_fakes("shuffle", "ranks1", &g, 2.0);
    /* The start position is back after 4 and 8 plies: a repetition draw at its third time, with
     * the Black fake's moves translated from ranks counted from 1. */
    assert_int_equal(g.end, GAME_END_RULES);
    assert_int_equal(g.result, RESULT_DRAW);
    assert_int_equal(g.reason, TERM_REPETITION_DRAW);
    assert_int_equal(g.nmoves, 8);
    assert_int_equal(g.engine_moves[RED], 4);
    assert_int_equal(g.engine_moves[BLACK], 4);
    char text[16];
    Variant *v = test_load_variant("xiangqi");
    move_to_iccs(v, g.moves[1], text);
    assert_string_equal(text, "a9a8");
    variant_free(v);
    for (int c = 0; c < 2; c++) {
        assert_true(g.cpu_ms[c] >= 0);
        assert_true(g.wall_ms[c] > 0 && g.max_wall_ms[c] > 0);
    }
    referee_game_free(&g);
}

static void engine_failures_lose(void **state)
{
    (void)state;
    static const struct {
        const char *red, *black;
        GameEnd end;
        Side culprit;
        int nmoves;
        const char *detail;
    } cases[] = {
        {"shuffle", "crash2", GAME_END_DIED, BLACK, 3, "exit status 1"},
        {"crash2", "shuffle", GAME_END_DIED, RED, 2, "died"},
        {"shuffle", "hang", GAME_END_TIMEOUT, BLACK, 1, "sent no bestmove in time"},
        {"illegal", "shuffle", GAME_END_ILLEGAL, RED, 0, "played 'a0a5' at ply 1"},
        {"shuffle", "garbage", GAME_END_ILLEGAL, BLACK, 1, "bestmove without a move"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        RefereeGame g;
        /* Only the silent engine waits out its grace; the others must not lose on time. */
        play_fakes(cases[i].red, cases[i].black, &g, cases[i].end == GAME_END_TIMEOUT ? 1.0 : 10.0);
        if (g.end != cases[i].end || (int)g.culprit != (int)cases[i].culprit || g.nmoves != cases[i].nmoves ||
            !strstr(g.detail, cases[i].detail))
            fail_msg("%s vs %s: end %s culprit %d after %d moves: %s", cases[i].red, cases[i].black,
                     game_end_name(g.end), (int)g.culprit, g.nmoves, g.detail);
        assert_int_equal(g.result, cases[i].culprit == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS);
        assert_int_equal(g.reason, TERM_NONE);
        referee_game_free(&g);
    }
}

static void engine_start_failures(void **state)
{
    (void)state;
    char cmd[1024];
    UciEngine e;
    fake_command(cmd, sizeof cmd, "exit3");
    UciEngineSpec s = spec_for(cmd, "engine");
    assert_int_equal(uci_engine_start(&e, &s, NULL), UCI_DIED);
    assert_non_null(strstr(e.detail, "exit status 3"));
    fake_command(cmd, sizeof cmd, "nouciok");
    s.startup_timeout = 0.3;
    assert_int_equal(uci_engine_start(&e, &s, NULL), UCI_TIMEOUT);
    assert_non_null(strstr(e.detail, "uciok"));
    s.command = "/nonexistent/engine";
    assert_int_equal(uci_engine_start(&e, &s, NULL), UCI_DIED);
    assert_non_null(strstr(e.detail, "exit status 127"));
    /* An option the engine does not list, and a rule set it cannot select. */
    fake_command(cmd, sizeof cmd, "shuffle");
    s.command = cmd;
    s.startup_timeout = 5;
    const char *opts[] = {"Noise=3", "Nonsense=1"};
    s.options = opts;
    s.noptions = 2;
    assert_int_equal(uci_engine_start(&e, &s, NULL), UCI_REFUSED);
    assert_non_null(strstr(e.detail, "no option 'Nonsense'"));
    s.noptions = 1;
    assert_int_equal(uci_engine_start(&e, &s, NULL), UCI_OK);
    assert_false(e.fairy);
    assert_int_equal(e.rank_base, 0);
    uci_engine_quit(&e);
    s.noptions = 0;
    s.variant = "sniper";
    assert_int_equal(uci_engine_start(&e, &s, NULL), UCI_REFUSED);
    assert_non_null(strstr(e.detail, "no UCI_Variant option"));
}

static StrengthOptions run_options(const Variant *v, const Book *b, const UciEngineSpec *a,
                                   const UciEngineSpec *bs, uint64_t pairs, int concurrency)
{
    StrengthOptions o = {
        .v = v, .book = b, .a = a, .b = bs, .movetime_ms = 10, .odds = 1, .pairs = pairs,
        .concurrency = concurrency, .seed = 1, .max_plies = 400, .grace = 10, .pgn_event = "test",
    };
    return o;
}

static void run_counts_failures(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    Book b;
    load_book(&b, v, START_FEN "\n");
    char ca[1024], cb[1024];
    fake_command(ca, sizeof ca, "shuffle");
    fake_command(cb, sizeof cb, "crash2");
    UciEngineSpec sa = spec_for(ca, "xqlab"), sb = spec_for(cb, "engine");
    StrengthOptions o = run_options(v, &b, &sa, &sb, 2, 2);
    StrengthTotals t;
    XqError err;
    assert_int_equal(strength_run(&o, &t, &err), 0);
    /* The crashing side loses all four games and is restarted for each. */
    assert_int_equal(t.games, 4);
    assert_int_equal(t.pairs, 2);
    assert_int_equal(t.a_red[0], 2);
    assert_int_equal(t.a_black[0], 2);
    assert_int_equal(t.pentanomial[4], 2);
    assert_int_equal(t.by_end[GAME_END_DIED], 4);
    assert_int_equal(t.side[1].failures[GAME_END_DIED], 4);
    assert_int_equal(t.side[0].failures[GAME_END_DIED], 0);
    assert_int_equal(t.side[1].starts, 4);
    assert_true(t.side[0].starts >= 1 && t.side[0].starts <= 2);
    assert_non_null(strstr(t.side[1].first_failure, "died"));
    assert_string_equal(t.side[1].name, "fake crash2");
    assert_true(fabs(strength_score(&t) - 1.0) < 1e-12);
    /* Black's (a9a8) and Red's (a0a1) first moves: 3 plies when B is Black, 2 when Red. */
    assert_int_equal(t.plies, 2 * 3 + 2 * 2);
    assert_int_equal(t.side[0].moves, 2 * 2 + 2 * 1);
    assert_false(t.interrupted);

    /* An engine that never starts ends the run after three tries in a row. */
    fake_command(cb, sizeof cb, "exit3");
    o.concurrency = 1;
    assert_int_equal(strength_run(&o, &t, &err), -1);
    assert_non_null(strstr(err.message, "three times in a row"));
    assert_int_equal(t.side[1].failures[GAME_END_DIED], 2);
    book_free(&b);
    variant_free(v);
}

static void rules_check_of_fairy_stockfish(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    Book b;
    load_book(&b, v, "h2e2 h9g7 h0g2 i9h9\nc3c4 b9c7\n");
    UciEngineSpec s = spec_for(FAIRY, "engine");
    UciEngine e;
    UciStatus st = uci_engine_start(&e, &s, NULL);
    if (st != UCI_OK)
        fail_msg("%s (scripts/packages.txt installs fairy-stockfish): %s", FAIRY, e.detail);
    assert_true(e.fairy);
    assert_int_equal(e.rank_base, 1);
    char msg[600];
    assert_int_equal(referee_check_rules(&e, v, &b, 2, 3, msg, sizeof msg, NULL), 0);
    uci_engine_quit(&e);
    /* A rule set that differs: horses whose leg cannot be blocked. */
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/variants/xiangqi.ini", XQ_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *leap = strstr(text, "leap = 1,2 block 0,1");
    assert_non_null(leap);
    memcpy(leap + strlen("leap = 1,2"), "           ", strlen(" block 0,1"));
    XqError err;
    Variant *lame = variant_load_text(text, "unblocked horses", &err);
    assert_non_null(lame);
    assert_int_equal(uci_engine_start(&e, &s, NULL), UCI_OK);
    assert_int_equal(referee_check_rules(&e, lame, NULL, 0, 3, msg, sizeof msg, NULL), 1);
    assert_non_null(strstr(msg, "start position"));
    assert_non_null(strstr(msg, "legal moves"));
    uci_engine_quit(&e);
    variant_free(lame);
    book_free(&b);
    variant_free(v);
}

/* A real pair against Fairy-Stockfish, both sides, with the PGN written and read back. */
static void fairy_pair_with_pgn(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    Book b;
    load_book(&b, v, "h2e2 h9g7\n");
    UciEngineSpec sa = spec_for(FAIRY, "xqlab"), sb = spec_for(FAIRY, "engine");
    char path[] = "/tmp/xq_strength_pgn_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *pgn = fdopen(fd, "w");
    StrengthOptions o = run_options(v, &b, &sa, &sb, 1, 2);
    o.pgn = pgn;
    o.max_plies = 60;
    StrengthTotals t;
    XqError err;
    if (strength_run(&o, &t, &err) < 0)
        fail_msg("%s: %s", err.file, err.message);
    fclose(pgn);
    assert_int_equal(t.games, 2);
    assert_int_equal(t.pairs, 1);
    assert_int_equal(t.by_end[GAME_END_DIED] + t.by_end[GAME_END_TIMEOUT] + t.by_end[GAME_END_ILLEGAL], 0);
    uint64_t sum = 0;
    for (int i = 0; i < 5; i++)
        sum += t.pentanomial[i];
    assert_int_equal(sum, 1);
    for (int s = 0; s < 2; s++) {
        assert_true(t.side[s].moves > 0);
        assert_true(t.side[s].cpu_moves == t.side[s].moves);
        assert_true(t.side[s].cpu_ms >= 0);
    }
    /* Read back: two games from the opening, results as counted. */
    PgnReader *r = pgn_reader_open(path, &err);
    assert_non_null(r);
    PgnGame g;
    int a_points2 = 0;
    uint64_t plies = 0;
    for (int i = 0; i < 2; i++) {
        if (pgn_reader_next(r, v, &g, &err) != 1)
            fail_msg("game %d: %s:%d: %s", i + 1, err.file, err.line, err.message);
        assert_true(g.nmoves >= 2);
        char first[16];
        move_to_iccs(v, g.moves[0], first);
        assert_string_equal(first, "h2e2");
        assert_string_equal(pgn_tag(&g, "Round"), i == 0 ? "1.1" : "1.2");
        assert_non_null(strstr(pgn_tag(&g, i == 0 ? "Red" : "Black"), "(xqlab)"));
        int red_points2 = g.result == RESULT_RED_WINS ? 2 : g.result == RESULT_DRAW ? 1 : 0;
        a_points2 += i == 0 ? red_points2 : 2 - red_points2;
        plies += (uint64_t)g.nmoves;
        pgn_game_free(&g);
    }
    assert_int_equal(pgn_reader_next(r, v, &g, &err), 0);
    pgn_reader_close(r);
    assert_int_equal(plies, t.plies);
    for (int p = 0; p < 5; p++)
        assert_int_equal(t.pentanomial[p], p == a_points2 ? 1 : 0);
    unlink(path);
    book_free(&b);
    variant_free(v);
}

int main(void)
{
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shifts_ranks),
        cmocka_unit_test(counts_pairs),
        cmocka_unit_test(odds_search_brackets),
        cmocka_unit_test(odds_search_limits),
        cmocka_unit_test(referee_adjudicates_by_rules),
        cmocka_unit_test(engine_failures_lose),
        cmocka_unit_test(engine_start_failures),
        cmocka_unit_test(run_counts_failures),
        cmocka_unit_test(rules_check_of_fairy_stockfish),
        cmocka_unit_test(fairy_pair_with_pgn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
