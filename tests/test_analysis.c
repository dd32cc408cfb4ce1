/* test_analysis.c - the analysis module (stats/stats, shards, balance, openings, PGN,
 * openings_h5) against hand-computed values and synthetic datasets with known answers. */
#include <math.h>
#include <unistd.h>

#include "test_util.h"

#include "balance.h"
#include "dataset.h"
#include "hidden.h"
#include "ini.h"
#include "openings.h"
#include "openings_h5.h"
#include "pgn.h"
#include "shards.h"
#include "special_moves.h"
#include "stats.h"

#define CLOSE(want, got) assert_true(fabs((double)(want) - (double)(got)) < 1e-6)

/* ---- statistics ---- */

static void two_proportion_hand_values(void **state)
{
    (void)state;
    /* 40 / 100 against 60 / 100. Pooled p = 0.5: se0 = sqrt(0.25 * (1/100 + 1/100)) = 0.0707107,
     * z = 0.2 / 0.0707107 = 2.828427, p = erfc(2.828427 / sqrt 2) = erfc(2) = 0.00467773.
     * Interval: se = sqrt(0.4 * 0.6 / 100 + 0.6 * 0.4 / 100) = sqrt(0.0048) = 0.0692820,
     * 0.2 -/+ 1.959964 * 0.0692820 = [0.0642097, 0.335790]. */
    ScoreDiff d = stats_proportion_diff(40, 100, 60, 100);
    CLOSE(0.2, d.diff);
    CLOSE(2.828427, d.z);
    assert_true(fabs(d.p - 0.00467773) < 1e-7);
    CLOSE(0.0692820, d.se);
    CLOSE(0.0642097, d.lo);
    CLOSE(0.335790, d.hi);
    /* Equal proportions: z = 0, p = 1. */
    d = stats_proportion_diff(30, 100, 60, 200);
    CLOSE(0.0, d.z);
    CLOSE(1.0, d.p);
}

static void score_difference_with_draws(void **state)
{
    (void)state;
    /* A = 3 W, 2 D, 5 L: score 0.4, variance (3 + 2/4) / 10 - 0.16 = 0.19.
     * B = 6 W, 2 D, 2 L: score 0.7, variance (6 + 2/4) / 10 - 0.49 = 0.16.
     * Pooled 9 W 4 D 7 L: score 11 / 20 = 0.55, variance 10 / 20 - 0.3025 = 0.1975;
     * se0 = sqrt(0.1975 * 0.2) = 0.198746, z = 0.3 / 0.198746 = 1.509464,
     * p = erfc(1.509464 / sqrt 2) = 0.131180; se = sqrt(0.019 + 0.016) = 0.187083. */
    Wdl a = {3, 2, 5}, b = {6, 2, 2};
    CLOSE(0.4, wdl_score(&a));
    CLOSE(0.19, wdl_score_variance(&a));
    ScoreDiff d = stats_score_diff(&a, &b);
    CLOSE(0.3, d.diff);
    CLOSE(1.509464, d.z);
    CLOSE(0.131180, d.p);
    CLOSE(0.187083, d.se);
    /* An empty side: nothing to test. */
    Wdl none = {0, 0, 0};
    d = stats_score_diff(&none, &b);
    CLOSE(1.0, d.p);
}

static void entropy_games_needed_histogram(void **state)
{
    (void)state;
    /* {1, 1, 2}: p = 1/4, 1/4, 1/2 -> 2 + 2 + 1 halves = 1.5 bits; {2, 1}: -(2/3 log2 2/3 +
     * 1/3 log2 1/3) = 0.918296; one outcome: 0; four equal: 2. */
    uint64_t c1[3] = {1, 1, 2}, c2[2] = {2, 1}, c3[2] = {0, 4}, c4[4] = {5, 5, 5, 5};
    CLOSE(1.5, stats_entropy_bits(c1, 3));
    CLOSE(0.918296, stats_entropy_bits(c2, 2));
    CLOSE(0.0, stats_entropy_bits(c3, 2));
    CLOSE(2.0, stats_entropy_bits(c4, 4));
    /* delta 0.05, variances 0.25 each: (1.959964 + 0.841621)^2 * 0.5 / 0.0025
     * = 7.848887 * 200 = 1569.78 games per side. */
    assert_true(fabs(stats_games_needed(0.05, 0.25, 0.25) - 1569.776) < 0.01);
    CLOSE(0.0, stats_games_needed(0, 0.25, 0.25));
    /* {0, 5, 9, 10, 19, 20} in at most 3 bins: widths 1, 2, 5 need 21, 11, 5 bins; 10 gives
     * [0, 10) = 3 values, [10, 20) = 2, [20, 30) = 1. */
    uint32_t v[6] = {0, 5, 9, 10, 19, 20};
    Histogram h;
    assert_int_equal(0, histogram_build_u32(&h, v, 6, 3));
    CLOSE(10.0, h.width);
    CLOSE(0.0, h.lo);
    assert_int_equal(3, h.nbins);
    assert_int_equal(3, h.counts[0]);
    assert_int_equal(2, h.counts[1]);
    assert_int_equal(1, h.counts[2]);
    histogram_free(&h);
    /* {3, 1, 2, 10}: mean 16 / 4 = 4, median (2 + 3) / 2 = 2.5. */
    uint32_t w[4] = {3, 1, 2, 10};
    double mean, median;
    assert_int_equal(0, stats_mean_median_u32(w, 4, &mean, &median));
    CLOSE(4.0, mean);
    CLOSE(2.5, median);
}

static void special_kinds(void **state)
{
    (void)state;
    assert_int_equal(0, special_kind_of(XQ_MOVE(3, 12)));
    assert_int_equal(XQ_FLAG_ROLL, special_kind_of(XQ_MOVE_SPECIAL(4, 4, 2, XQ_FLAG_ROLL)));
    /* The low bits of a double move are its offset code, not a kind. */
    assert_int_equal(XQ_FLAG_DOUBLE, special_kind_of(XQ_MOVE_SPECIAL(1, 2, 3, XQ_FLAG_DOUBLE | XQ_DOUBLE_CODE(1, 0))));
    char buf[32];
    assert_string_equal("cube roll", special_kind_name(XQ_FLAG_ROLL, buf, sizeof buf));
    assert_string_equal("camp exit", special_kind_name(XQ_FLAG_CAMP_LEAVE, buf, sizeof buf));
    assert_string_equal("reveal (face-down piece turned up)", special_kind_name(XQ_FLAG_REVEAL, buf, sizeof buf));
    /* A kind without a name yet. */
    assert_string_equal("special move 0x14", special_kind_name(0x14, buf, sizeof buf));
}

/* ---- synthetic datasets ---- */

typedef struct Synthetic {
    const char *moves;   /* ICCS moves from the start position */
    int8_t result;
    uint8_t termination;
} Synthetic;

/* Three games with a known answer (worked out in synthetic_balance_and_openings). */
static const Synthetic GAMES[3] = {
    {"h2e2 h9g7 h0g2", 1, TERM_RESIGNATION},
    {"h2e2 b9c7", 0, TERM_LENGTH_CAP},
    {"b2e2 h9g7", -1, TERM_CHECKMATE},
};

static void build_game(const Variant *v, const char *moves, uint64_t index, int8_t result, uint8_t term, GameRecord *g)
{
    memset(g, 0, sizeof *g);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    pos_init_start(pos, v);
    g->moves = calloc(64, sizeof *g->moves);
    g->positions = calloc(64, sizeof *g->positions);
    assert_non_null(g->moves);
    assert_non_null(g->positions);
    char copy[256], why[128];
    snprintf(copy, sizeof copy, "%s", moves);
    Undo u;
    for (char *t = strtok(copy, " "); t; t = strtok(NULL, " ")) {
        Move m = move_parse(pos, t, why, sizeof why);
        if (m == XQ_MOVE_NONE)
            fail_msg("move %s: %s", t, why);
        PositionRecord *p = &g->positions[g->nmoves];
        for (int q = 0; q < v->npoints; q++)
            p->board[q] = pos->board[q];
        p->side = (uint8_t)pos->side;
        p->ply = (uint16_t)g->nmoves;
        p->played = p->best = m;
        p->root_value = p->static_eval = 0;
        g->moves[g->nmoves++] = m;
        pos_do_move(pos, m, &u);
    }
    g->npositions = g->nmoves;
    g->index = index;
    g->seed = index + 100;
    g->result = result;
    g->termination = term;
    g->plies = (uint16_t)g->nmoves;
    snprintf(g->start_fen, sizeof g->start_fen, "%s", v->start_fen);
    free(pos);
}

static DatasetMeta meta_for(const Variant *v, const char *params, uint64_t seed)
{
    DatasetMeta m = {
        .variant_name = v->name,
        .variant_text = v->text,
        .weights_text = "",
        .params_text = params,
        .command_line = "test_analysis",
        .base_seed = seed,
        .shard_index = 0,
        .shard_count = 1,
        .first_game = 0,
        .game_count = 3,
        .npoints = v->npoints,
    };
    return m;
}

static void write_dataset(const char *path, const Variant *v, const char *params, uint64_t seed)
{
    unlink(path);
    DatasetMeta meta = meta_for(v, params, seed);
    XqError err;
    uint64_t done;
    DatasetWriter *w = dsw_open(path, &meta, false, &done, &err);
    if (!w)
        fail_msg("dsw_open %s: %s", path, err.message);
    for (int i = 0; i < 3; i++) {
        GameRecord g;
        build_game(v, GAMES[i].moves, (uint64_t)i, GAMES[i].result, GAMES[i].termination, &g);
        assert_int_equal(0, dsw_append(w, &g, &err));
        free(g.moves);
        free(g.positions);
    }
    assert_int_equal(0, dsw_close(w, &err));
}

static void tmp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/tests/analysis_%s", XQ_BINARY_DIR, name);
}

static void synthetic_balance_and_openings(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    char path[1024];
    tmp_path(path, sizeof path, "a.h5");
    write_dataset(path, v, "playouts = 64\n", 1);
    const char *paths[1] = {path};
    ShardSet set;
    XqError err;
    if (shards_open(&set, paths, 1, &err) < 0)
        fail_msg("%s: %s", err.file, err.message);
    assert_int_equal(3, set.ngames);

    BalanceCard card;
    OpeningTree tree;
    assert_int_equal(0, balance_init(&card, set.variant));
    assert_int_equal(0, openings_init(&tree, set.variant, 2));
    for (uint64_t k = 0; k < set.ngames; k++) {
        GameRecord g;
        assert_int_equal(0, shards_read_game(&set, k, &g, &err));
        assert_int_equal(0, balance_add_game(&card, &g, &err));
        assert_int_equal(0, openings_add_game(&tree, &g, &err));
        game_record_free(&g);
    }
    assert_int_equal(0, openings_finish(&tree));

    /* Balance: 1 win, 1 draw, 1 loss for Red -> score 1.5 / 3 = 0.5, balance index 1; the draw is
     * adjudicated (length cap); lengths 3, 2, 2 -> mean 7/3, median 2. */
    BalanceSummary s;
    assert_int_equal(0, balance_summarise(&card, &s));
    assert_int_equal(1, card.red.wins);
    assert_int_equal(1, card.red.draws);
    assert_int_equal(1, card.red.losses);
    CLOSE(0.5, s.r.first.mean);
    CLOSE(1.0, s.balance_index);
    assert_false(s.r.first_significant);
    assert_int_equal(0, card.draws_natural);
    assert_int_equal(1, card.draws_adjudicated);
    CLOSE(7.0 / 3.0, s.mean_length);
    CLOSE(2.0, s.median_length);
    assert_int_equal(1, card.by_termination[TERM_RESIGNATION]);
    assert_int_equal(1, card.by_termination[TERM_LENGTH_CAP]);
    assert_int_equal(1, card.by_termination[TERM_CHECKMATE]);
    /* Standard xiangqi: no rule-module moves, so no utilisation rows at all. */
    assert_int_equal(0, card.nspecial);
    /* Branching: the start position has 44 legal moves (perft 1); ply 2 is reached by game 0
     * only; no ply 3. */
    CLOSE(44.0, balance_branching(&card, 0));
    assert_int_equal(3, card.branch_positions[1]);
    assert_int_equal(1, card.branch_positions[2]);
    assert_int_equal(3, card.branch_plies);

    /* Openings: C2.5 (h2e2) in 2 of 3 games scoring (1 + 1/2) / 2 = 0.75, C8.5 (b2e2) in 1 scoring
     * 0; first-move entropy of {2, 1} = 0.918296 bits. Nodes: root, C2.5, C8.5, and under C2.5
     * H8+7 (h9g7) and H2+3 (b9c7), under C8.5 H8+7: 6. */
    assert_true(tree.wxf);
    assert_int_equal(6, tree.count);
    int first = tree.nodes[0].first_child, second = tree.nodes[first].next_sibling;
    assert_string_equal("C2.5", tree.nodes[first].text);
    assert_int_equal(2, openings_games(&tree, first));
    CLOSE(0.75, wdl_score(&tree.nodes[first].red));
    CLOSE(2.0 / 3.0, openings_share(&tree, first));
    assert_string_equal("C8.5", tree.nodes[second].text);
    CLOSE(0.0, wdl_score(&tree.nodes[second].red));
    CLOSE(0.918296, openings_child_entropy(&tree, 0));
    char line[64];
    openings_line_text(&tree, tree.nodes[second].first_child, line, sizeof line);
    assert_string_equal("C8.5 H8+7", line);

    /* The /openings group goes to a separate file, never into an input dataset. */
    assert_int_equal(-1, openings_h5_write(path, &tree, paths, 1, &err));
    assert_non_null(strstr(err.message, "input dataset"));
    char out[1024];
    tmp_path(out, sizeof out, "openings.h5");
    assert_int_equal(0, openings_h5_write(out, &tree, paths, 1, &err));
    assert_int_equal(0, access(out, R_OK));

    openings_free(&tree);
    balance_free(&card);
    shards_close(&set);
    variant_free(v);
}

static void mismatched_shards_refused(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    char a[1024], b[1024], c[1024], d[1024];
    tmp_path(a, sizeof a, "s1.h5");
    tmp_path(b, sizeof b, "s2.h5");
    tmp_path(c, sizeof c, "s3.h5");
    tmp_path(d, sizeof d, "s4.h5");
    write_dataset(a, v, "playouts = 64\n", 1);
    write_dataset(b, v, "playouts = 200\n", 2);  /* other settings */
    write_dataset(c, v, "playouts = 64\n", 1);   /* same seed and games as a */
    write_dataset(d, v, "playouts = 64\n", 7);   /* belongs with a */
    ShardSet set;
    XqError err;
    const char *ab[2] = {a, b}, *ac[2] = {a, c}, *aa[2] = {a, a}, *ad[2] = {a, d};
    assert_int_equal(-1, shards_open(&set, ab, 2, &err));
    assert_string_equal(b, err.file);
    assert_non_null(strstr(err.message, "different search settings"));
    assert_non_null(strstr(err.message, "'playouts = 64' vs 'playouts = 200'"));
    assert_int_equal(-1, shards_open(&set, ac, 2, &err));
    assert_non_null(strstr(err.message, "the same games twice"));
    assert_int_equal(-1, shards_open(&set, aa, 2, &err));
    assert_non_null(strstr(err.message, "given twice"));
    assert_int_equal(0, shards_open(&set, ad, 2, &err));
    assert_int_equal(6, set.ngames);
    assert_string_equal(d, shards_path_of(&set, 4));
    shards_close(&set);
    /* Another rule set: the variant text differs. */
    Variant *sniper = test_load_variant("sniper");
    char e[1024];
    tmp_path(e, sizeof e, "s5.h5");
    unlink(e);
    DatasetMeta meta = meta_for(sniper, "playouts = 64\n", 9);
    uint64_t done;
    DatasetWriter *w = dsw_open(e, &meta, false, &done, &err);
    assert_non_null(w);
    assert_int_equal(0, dsw_close(w, &err));
    const char *ae[2] = {a, e};
    assert_int_equal(-1, shards_open(&set, ae, 2, &err));
    assert_non_null(strstr(err.message, "different rule sets"));
    /* A missing file. */
    const char *missing[1] = {"/nonexistent/x.h5"};
    assert_int_equal(-1, shards_open(&set, missing, 1, &err));
    variant_free(sniper);
    variant_free(v);
}

/* Plays `plies` moves from the start, choosing with a fixed LCG among the legal moves. */
static void random_game(const Variant *v, uint32_t seed, int plies, GameRecord *g)
{
    memset(g, 0, sizeof *g);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    pos_init_start(pos, v);
    g->moves = calloc((size_t)plies, sizeof *g->moves);
    assert_non_null(g->moves);
    MoveList list;
    Undo u;
    for (int i = 0; i < plies; i++) {
        int n = pos_generate_legal(pos, &list);
        if (!n)
            break;
        seed = seed * 1664525u + 1013904223u;
        Move m = list.moves[(seed >> 8) % (uint32_t)n];
        g->moves[g->nmoves++] = m;
        pos_do_move(pos, m, &u);
    }
    g->plies = (uint16_t)g->nmoves;
    g->result = 0;
    g->termination = TERM_LENGTH_CAP;
    snprintf(g->start_fen, sizeof g->start_fen, "%s", v->start_fen);
    free(pos);
}

static void final_fen(const Variant *v, const char *start, const Move *moves, int n, char *fen)
{
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    XqError err;
    assert_int_equal(0, pos_set_fen(pos, v, start, &err));
    Undo u;
    for (int i = 0; i < n; i++)
        pos_do_move(pos, moves[i], &u);
    pos_get_fen(pos, fen, 256);
    free(pos);
}

/* Moves the start of a game one ply on: the game then starts from a FEN that is not the
 * variant's start (written as [SetUp] + [FEN]). */
static void start_one_ply_later(const Variant *v, GameRecord *g)
{
    assert_true(g->nmoves > 1);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    pos_init_start(pos, v);
    Undo u;
    pos_do_move(pos, g->moves[0], &u);
    pos_get_fen(pos, g->start_fen, sizeof g->start_fen);
    memmove(g->moves, g->moves + 1, (size_t)(g->nmoves - 1) * sizeof *g->moves);
    g->nmoves--;
    g->plies = (uint16_t)g->nmoves;
    free(pos);
}

static void pgn_round_trip(void **state)
{
    (void)state;
    /* Standard xiangqi in WXF and in ICCS with XBoard's FEN letters, sniper in ICCS. */
    static const struct {
        const char *variant, *format;
        PgnNotation notation;
        bool xboard_fen;
    } CASES[] = {
        {"xiangqi", "WXF", PGN_NOTATION_DEFAULT, false},
        {"xiangqi", "ICCS", PGN_NOTATION_ICCS, true},
        {"sniper", "ICCS", PGN_NOTATION_DEFAULT, false},
    };
    for (int ci = 0; ci < 3; ci++) {
        Variant *v = test_load_variant(CASES[ci].variant);
        char path[1024], name[32];
        snprintf(name, sizeof name, "round-trip-%d.pgn", ci);
        tmp_path(path, sizeof path, name);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        enum { NGAMES = 12 };
        GameRecord games[NGAMES];
        XqError err;
        PgnTags tags = {"round trip", "here", "2025.01.01", "1", "red \"quoted\"", "black", CASES[ci].notation,
                        CASES[ci].xboard_fen, NULL};
        for (int i = 0; i < NGAMES; i++) {
            random_game(v, 17u * (uint32_t)i + 3u, 40 + 10 * i, &games[i]);
            games[i].result = (int8_t)(i % 3 - 1);
            if (i % 2)
                start_one_ply_later(v, &games[i]);
            if (pgn_write_game(f, v, &games[i], &tags, &err) < 0)
                fail_msg("%s", err.message);
        }
        fclose(f);
        /* The odd games start from a FEN; with XBoard's letters it has H and E, never N or B. */
        char *text = ini_read_file(path, &err);
        assert_non_null(text);
        const char *fen_tag = strstr(text, "[FEN \"");
        assert_non_null(fen_tag);
        assert_non_null(strstr(text, "[SetUp \"1\"]\n[FEN \""));
        if (CASES[ci].xboard_fen) {
            const char *board_end = strchr(fen_tag + 6, ' ');
            for (const char *p = fen_tag + 6; p < board_end; p++)
                assert_null(strchr("NnBb", *p));
        }
        free(text);
        PgnReader *r = pgn_reader_open(path, &err);
        assert_non_null(r);
        for (int i = 0; i < NGAMES; i++) {
            PgnGame pg;
            if (pgn_reader_next(r, v, &pg, &err) != 1)
                fail_msg("%s:%d: %s", err.file, err.line, err.message);
            assert_string_equal("Chinese Chess", pg.tag_name[0][0] == 'G' ? pgn_tag(&pg, "Game") : "");
            assert_string_equal(CASES[ci].format, pgn_tag(&pg, "Format"));
            assert_string_equal("red \"quoted\"", pgn_tag(&pg, "Red"));
            assert_string_equal(CASES[ci].variant, pgn_tag(&pg, "Variant"));
            if (i % 2)
                assert_non_null(pgn_tag(&pg, "FEN"));
            else
                assert_null(pgn_tag(&pg, "FEN"));
            assert_string_equal(games[i].start_fen, pg.start_fen);
            assert_int_equal(games[i].nmoves, pg.nmoves);
            assert_memory_equal(games[i].moves, pg.moves, (size_t)pg.nmoves * sizeof *pg.moves);
            assert_int_equal(games[i].result, pg.result);
            char f1[256], f2[256];
            final_fen(v, games[i].start_fen, games[i].moves, games[i].nmoves, f1);
            final_fen(v, pg.start_fen, pg.moves, pg.nmoves, f2);
            assert_string_equal(f1, f2);
            pgn_game_free(&pg);
            free(games[i].moves);
        }
        PgnGame pg;
        assert_int_equal(0, pgn_reader_next(r, v, &pg, &err));
        pgn_reader_close(r);
        variant_free(v);
    }
}

/* WXF exists for standard xiangqi only: asking it of another rule set is an error, not ICCS. */
static void pgn_wxf_refused_elsewhere(void **state)
{
    (void)state;
    Variant *v = test_load_variant("sniper");
    GameRecord g;
    random_game(v, 5, 10, &g);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    PgnTags tags = {"e", "s", "d", "1", "r", "b", PGN_NOTATION_WXF, false, NULL};
    XqError err;
    assert_int_equal(-1, pgn_write_game(f, v, &g, &tags, &err));
    assert_non_null(strstr(err.message, "standard xiangqi only"));
    fclose(f);
    free(buf);
    free(g.moves);
    variant_free(v);
}

/* banqi, where the first flip assigns colours: seat 0 drew black and won. The PGN names the
 * players by the colours they played, the token is by colour, [FirstMover] gives the seat's
 * colour, and the reader turns the token back into the result by seat. */
static void pgn_seat_and_colour(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    GameRecord g;
    memset(&g, 0, sizeof g);
    snprintf(g.start_fen, sizeof g.start_fen, "8/8/8/rP6 b - - 0 1 [hidden:-/b]");
    Move m = XQ_MOVE(variant_point(v, 0, 0), variant_point(v, 1, 0));
    g.moves = &m;
    g.nmoves = 1;
    g.result = RESULT_RED_WINS;
    g.termination = TERM_NO_PIECES;
    g.seat_colour = BLACK;
    char path[1024];
    tmp_path(path, sizeof path, "banqi.pgn");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    PgnTags tags = {"seats", "here", "2025.01.01", "1", "first", "second", PGN_NOTATION_DEFAULT, false, NULL};
    XqError err;
    if (pgn_write_game(f, v, &g, &tags, &err) < 0)
        fail_msg("%s", err.message);
    fclose(f);
    PgnReader *r = pgn_reader_open(path, &err);
    assert_non_null(r);
    PgnGame pg;
    if (pgn_reader_next(r, v, &pg, &err) != 1)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    assert_string_equal(pgn_tag(&pg, "Red"), "second");
    assert_string_equal(pgn_tag(&pg, "Black"), "first");
    assert_string_equal(pgn_tag(&pg, "Result"), "0-1");
    assert_string_equal(pgn_tag(&pg, "FirstMover"), "black");
    assert_int_equal(pg.result, RESULT_RED_WINS);
    pgn_game_free(&pg);
    pgn_reader_close(r);
    variant_free(v);
}

/* Cube generals: a game that rolls whenever it may; the card counts exactly those rolls. */
static void special_moves_counted(void **state)
{
    (void)state;
    Variant *v = test_load_variant("cube");
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    pos_init_start(pos, v);
    GameRecord g;
    memset(&g, 0, sizeof g);
    Move moves[40];
    int rolls[2] = {0, 0};
    MoveList list;
    Undo u;
    for (int ply = 0; ply < 40; ply++) {
        int n = pos_generate_legal(pos, &list);
        assert_true(n > 0);
        Move m = list.moves[(ply * 7) % n];
        for (int i = 0; i < n; i++)
            if (XQ_MOVE_FLAGS(list.moves[i]) == XQ_FLAG_ROLL) {
                m = list.moves[i];
                rolls[pos->side]++;
                break;
            }
        moves[g.nmoves++] = m;
        pos_do_move(pos, m, &u);
    }
    free(pos);
    g.moves = moves;
    g.plies = (uint16_t)g.nmoves;
    g.result = 1;
    g.termination = TERM_LENGTH_CAP;
    BalanceCard card;
    XqError err;
    assert_int_equal(0, balance_init(&card, v));
    if (balance_add_game(&card, &g, &err) < 0)
        fail_msg("%s", err.message);
    assert_true(rolls[RED] > 0 && rolls[BLACK] > 0);
    assert_int_equal(1, card.nspecial);
    assert_int_equal(XQ_FLAG_ROLL, card.special[0].kind);
    assert_int_equal(rolls[RED] + rolls[BLACK], card.special[0].moves);
    assert_int_equal(rolls[RED], card.special[0].moves_by[RED]);
    assert_int_equal(1, card.special[0].games);
    /* Red won: Red used it and scored 1, Black used it and scored 0. */
    assert_int_equal(1, card.special[0].user_results[RED].wins);
    assert_int_equal(1, card.special[0].user_results[BLACK].losses);
    balance_free(&card);
    variant_free(v);
}

static void pgn_errors(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    char path[1024];
    tmp_path(path, sizeof path, "bad.pgn");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    /* Line 3 holds an illegal move (a cannon cannot go to e9 from h2 in one move). */
    fputs("[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. h2h3 *\n", f);
    fclose(f);
    XqError err;
    PgnReader *r = pgn_reader_open(path, &err);
    assert_non_null(r);
    PgnGame pg;
    assert_int_equal(-1, pgn_reader_next(r, v, &pg, &err));
    assert_int_equal(4, err.line);
    assert_non_null(strstr(err.message, "'h2h3'"));
    pgn_reader_close(r);
    variant_free(v);
}

/* Hidden-piece balance card (banqi, RULES.md 4): five games from the start position, with hand-set
 * results, seat colours and --paired-deals flags; the last one replays a flip from its deal.
 *   game  swapped  result (seat 0)  seat 0 colour   red player's result
 *   0     no       +1               black           loss
 *   1     yes      -1               red             loss     pair (0,1): scores 1, 0 -> 1/2;
 *                                                             decisive, won by the same half of
 *                                                             the deal (seat 0 then seat 1)
 *   2     no        0               unassigned      -
 *   3     yes       0               red             draw     pair (2,3): 1/2, 1/2 -> 1/2
 *   4     no       +1               red             win      (pair left open)
 * By seat (the first mover): 2 / 2 / 1, score (2 + 1) / 5 = 0.6. By colour: W 1 D 1 L 2 over 4
 * games, red score 1.5 / 4 = 0.375, win/draw/loss interval [0.110831, 0.752344]
 * (tests/python/interval_reference.py). Pairs: 2, both 1 point of 2 (pentanomial 0 0 2 0 0),
 * mean 1/2; as for all-drawn games the interval is 1/2 -+ z^2 / (2 (n + z^2)) = 3.841459 /
 * 11.682918 = 0.328810; one hand sweep. */
static void hidden_balance_by_seat_and_colour(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/variants/banqi.ini", XQ_SOURCE_DIR);
    XqError err;
    Variant *v = variant_load_file(path, &err);
    assert_non_null(v);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    pos_init_start(pos, v);
    HiddenDeal deal;
    Rng rng;
    rng_init(&rng, 11);
    hidden_deal(pos, &rng, &deal);
    char why[128];
    Move undrawn = hidden_parse_move(pos, "a0a0?", why, sizeof why);
    assert_int_not_equal(undrawn, XQ_MOVE_NONE);
    assert_true(hidden_is_chance(pos, undrawn));
    Move flip = hidden_resolve(pos, undrawn, &deal);
    assert_int_equal(XQ_MOVE_EXTRA(flip), deal.id[variant_point(v, 0, 0)]);

    BalanceCard card;
    assert_int_equal(0, balance_init(&card, v));
    static const int8_t result[5] = {1, -1, 0, 0, 1}, colour[5] = {BLACK, RED, -1, RED, RED};
    for (int i = 0; i < 5; i++) {
        GameRecord g;
        memset(&g, 0, sizeof g);
        g.index = (uint64_t)i;
        g.result = result[i];
        g.termination = result[i] ? TERM_NO_PIECES : TERM_REPETITION_DRAW;
        g.has_deal = true;
        memcpy(g.deal, deal.id, sizeof g.deal);
        g.deal_swapped = i % 2 == 1;
        g.seat_colour = colour[i];
        pos_get_fen(pos, g.start_fen, sizeof g.start_fen);
        Move moves[1] = {flip};
        if (i == 4) {
            g.nmoves = g.plies = 1;
            g.moves = moves;
        }
        if (balance_add_game(&card, &g, &err) < 0)
            fail_msg("%s", err.message);
    }
    assert_int_equal(card.hidden.games, 5);
    assert_int_equal(card.red.wins, 2);
    assert_int_equal(card.red.draws, 2);
    assert_int_equal(card.red.losses, 1);
    assert_int_equal(card.hidden.red_colour.wins, 1);
    assert_int_equal(card.hidden.red_colour.draws, 1);
    assert_int_equal(card.hidden.red_colour.losses, 2);
    assert_int_equal(card.hidden.colour_unassigned, 1);
    assert_int_equal(hidden_tally_pairs(&card.hidden), 2);
    assert_int_equal(card.hidden.pentanomial[2], 2);
    assert_int_equal(card.hidden.seat_swept, 0);
    assert_int_equal(card.hidden.hand_swept, 1);
    BalanceSummary s;
    assert_int_equal(0, balance_summarise(&card, &s));
    assert_true(s.r.hidden);
    CLOSE(0.6, s.r.first.mean);
    assert_int_equal(s.r.colour_games, 4);
    CLOSE(0.375, s.r.red_colour.mean);
    assert_true(fabs(s.r.red_colour.lo - 0.110831) < 2e-6 && fabs(s.r.red_colour.hi - 0.752344) < 2e-6);
    assert_false(s.r.colour_significant);
    assert_int_equal(2, s.r.pairs);
    CLOSE(0.5, s.r.pair.mean);
    assert_true(fabs(s.r.pair.lo - 0.171190) < 2e-6 && fabs(s.r.pair.hi - 0.828810) < 2e-6);

    /* The same flip with another identity is not the deal's: the replay refuses it. */
    GameRecord bad;
    memset(&bad, 0, sizeof bad);
    bad.index = 5;
    bad.has_deal = true;
    memcpy(bad.deal, deal.id, sizeof bad.deal);
    pos_get_fen(pos, bad.start_fen, sizeof bad.start_fen);
    Move wrong = flip ^ ((Move)0x10 << 16); /* the other colour of the same kind */
    bad.moves = &wrong;
    bad.nmoves = bad.plies = 1;
    assert_int_equal(-1, balance_add_game(&card, &bad, &err));
    assert_non_null(strstr(err.message, "not legal"));
    balance_free(&card);

    /* A rule set without hidden pieces has no seat / colour section. */
    Variant *x = test_load_variant("xiangqi");
    assert_int_equal(0, balance_init(&card, x));
    GameRecord g;
    memset(&g, 0, sizeof g);
    g.result = 1;
    assert_int_equal(0, balance_add_game(&card, &g, &err));
    assert_int_equal(0, balance_summarise(&card, &s));
    assert_false(s.r.hidden);
    balance_free(&card);
    variant_free(x);
    variant_free(v);
    free(pos);
}

/* Hidden pieces in the opening tree: a line is the players' choices. Two banqi games flip a0 and
 * turn up different identities (their deals differ); both go through one node "a0a0?". Every
 * move is checked even on a known line: flipping a0 again after the line's first flip is
 * refused, not played. */
static void hidden_openings_key_by_choice(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    OpeningTree tree;
    assert_int_equal(0, openings_init(&tree, v, 2));
    Point a0 = variant_point(v, 0, 0);
    HiddenDeal deal[2];
    Move flips[2];
    Rng rng;
    rng_init(&rng, 3);
    for (int i = 0; i < 2; i++) {
        pos_init_start(pos, v);
        /* Deal until game 1's a0 differs from game 0's. */
        do
            hidden_deal(pos, &rng, &deal[i]);
        while (i == 1 && deal[1].id[a0] == deal[0].id[a0]);
        char why[128];
        flips[i] = hidden_resolve(pos, hidden_parse_move(pos, "a0a0?", why, sizeof why), &deal[i]);
        GameRecord g;
        memset(&g, 0, sizeof g);
        g.index = (uint64_t)i;
        g.result = i ? -1 : 1;
        g.has_deal = true;
        memcpy(g.deal, deal[i].id, sizeof g.deal);
        pos_get_fen(pos, g.start_fen, sizeof g.start_fen);
        g.moves = &flips[i];
        g.nmoves = g.plies = 1;
        XqError err;
        if (openings_add_game(&tree, &g, &err) < 0)
            fail_msg("%s", err.message);
    }
    assert_true(flips[0] != flips[1]);
    assert_int_equal(0, openings_finish(&tree));
    int first = tree.nodes[0].first_child;
    assert_true(first > 0);
    assert_int_equal(tree.nodes[first].next_sibling, -1);
    assert_string_equal(tree.nodes[first].text, "a0a0?");
    assert_int_equal(2, openings_games(&tree, first));
    assert_int_equal(1, tree.nodes[first].red.wins);
    assert_int_equal(1, tree.nodes[first].red.losses);

    /* A second flip of a0 on that line: a0 is face up now, so it is not a legal move. */
    Move twice[2] = {flips[0], flips[0]};
    GameRecord bad;
    memset(&bad, 0, sizeof bad);
    bad.index = 2;
    bad.result = 0;
    bad.has_deal = true;
    memcpy(bad.deal, deal[0].id, sizeof bad.deal);
    pos_init_start(pos, v);
    pos_get_fen(pos, bad.start_fen, sizeof bad.start_fen);
    bad.moves = twice;
    bad.nmoves = bad.plies = 2;
    XqError err;
    assert_int_equal(-1, openings_add_game(&tree, &bad, &err));
    assert_non_null(strstr(err.message, "ply 1: recorded move is not legal"));
    openings_free(&tree);
    variant_free(v);
    free(pos);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_proportion_hand_values),
        cmocka_unit_test(score_difference_with_draws),
        cmocka_unit_test(entropy_games_needed_histogram),
        cmocka_unit_test(special_kinds),
        cmocka_unit_test(synthetic_balance_and_openings),
        cmocka_unit_test(hidden_balance_by_seat_and_colour),
        cmocka_unit_test(hidden_openings_key_by_choice),
        cmocka_unit_test(mismatched_shards_refused),
        cmocka_unit_test(pgn_round_trip),
        cmocka_unit_test(pgn_wxf_refused_elsewhere),
        cmocka_unit_test(pgn_seat_and_colour),
        cmocka_unit_test(special_moves_counted),
        cmocka_unit_test(pgn_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
