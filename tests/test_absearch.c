/* test_absearch.c - the leaf searches and what the tree builds on them: the transposition table,
 * alpha-beta (mates, stalemate verdicts, captures, expectation over reveals), attack maps, the
 * exchange estimate of the priors, child values, implicit minimax backups, and the new search
 * options in every shipped rule set (legal moves, same results for the same seed, a new game
 * independent of the one before). */
#include "test_util.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>

#include "absearch.h"
#include "hidden.h"
#include "mcts.h"
#include "status.h"
#include "threats.h"

typedef struct Fixture {
    Variant *v;
    Evaluator *e;
    Position *pos;
} Fixture;

static Fixture *fixture(const char *variant)
{
    Fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->v = test_load_variant(variant);
    XqError err;
    f->e = eval_create(f->v, NULL, &err);
    assert_non_null(f->e);
    f->pos = malloc(sizeof *f->pos);
    assert_non_null(f->pos);
    return f;
}

static void fixture_free(Fixture *f)
{
    eval_free(f->e);
    variant_free(f->v);
    free(f->pos);
    free(f);
}

static Move parse(Position *pos, const char *text)
{
    char why[128];
    Move m = move_parse(pos, text, why, sizeof why);
    if (m == XQ_MOVE_NONE)
        fail_msg("%s: %s", text, why);
    return m;
}

static void iccs(const Variant *v, Move m, char *buf)
{
    if (m == XQ_MOVE_NONE)
        snprintf(buf, 16, "none");
    else
        move_to_iccs(v, m, buf);
}

/* ---- transposition table -------------------------------------------------------------------- */

static void tt_stores_and_replaces(void **state)
{
    (void)state;
    Tt t;
    assert_int_equal(tt_init(&t, 4 * 64), 0); /* four buckets */
    assert_int_equal(t.mask, 3);
    uint64_t key = 0x123456789abcdef0ull;
    assert_null(tt_probe(&t, key));
    tt_store(&t, key, XQ_MOVE(1, 2), 150, 20, 3, TT_EXACT);
    TtEntry *e = tt_probe(&t, key);
    assert_non_null(e);
    assert_int_equal(e->move, XQ_MOVE(1, 2));
    assert_int_equal(e->score, 150);
    assert_int_equal(e->eval, 20);
    assert_int_equal(e->depth, 3);
    assert_int_equal(e->bound, TT_EXACT);
    /* A shallower bound of the same search keeps the deeper result but learns the move. */
    tt_store(&t, key, XQ_MOVE(3, 4), -50, TT_NO_EVAL, 0, TT_UPPER);
    e = tt_probe(&t, key);
    assert_int_equal(e->depth, 3);
    assert_int_equal(e->score, 150);
    assert_int_equal(e->move, XQ_MOVE(3, 4));
    /* A store without a move keeps the stored one. */
    tt_store(&t, key, XQ_MOVE_NONE, 70, TT_NO_EVAL, 4, TT_LOWER);
    e = tt_probe(&t, key);
    assert_int_equal(e->move, XQ_MOVE(3, 4));
    assert_int_equal(e->score, 70);
    /* Four more keys of the same bucket: the fifth evicts the shallowest entry of an older search
     * first. */
    tt_new_search(&t);
    uint64_t k[4];
    for (int i = 0; i < 4; i++) {
        k[i] = ((uint64_t)(i + 7) << 32) | (key & 3);
        if (i < 3)
            tt_store(&t, k[i], XQ_MOVE(5, 6), i, TT_NO_EVAL, 1 + i, TT_EXACT);
    }
    assert_non_null(tt_probe(&t, key)); /* the bucket is full now: key (old) + 3 new */
    tt_store(&t, k[3], XQ_MOVE(5, 6), 3, TT_NO_EVAL, 0, TT_EXACT);
    assert_null(tt_probe(&t, key));
    for (int i = 0; i < 4; i++)
        assert_non_null(tt_probe(&t, k[i]));
    tt_clear(&t);
    for (int i = 0; i < 4; i++)
        assert_null(tt_probe(&t, k[i]));
    tt_free(&t);
}

/* ---- alpha-beta ----------------------------------------------------------------------------- */

/* b0b9 mates (the position of test_mcts finds_mate_in_1): a win in one ply. */
static void ab_finds_mate_in_1(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *s = ab_create(f->v, f->e, 1 << 20);
    test_set_fen(f->pos, f->v, "4k4/R8/9/9/9/9/p8/9/9/1R1K5 w - - 0 1");
    Move best;
    int score = ab_search(s, f->pos, 1, 4, &best);
    assert_int_equal(score, AB_MATE - 1);
    char buf[16];
    iccs(f->v, best, buf);
    assert_string_equal(buf, "b0b9");
    /* The capture search alone does not see it. */
    assert_true(ab_qsearch(s, f->pos, 4) < AB_MATE_BOUND);
    ab_free(s);
    fixture_free(f);
}

/* No mate in one, a mate in two (test_mcts finds_mate_in_2): three plies find it, with the
 * distance; one ply does not. */
static void ab_finds_mate_in_2(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *s = ab_create(f->v, f->e, 1 << 20);
    test_set_fen(f->pos, f->v, "4k4/9/9/9/9/9/8p/9/1R7/R2K5 w - - 0 1");
    assert_true(ab_search(s, f->pos, 1, 4, NULL) < AB_MATE_BOUND);
    ab_clear(s);
    Move best;
    assert_int_equal(ab_search(s, f->pos, 3, 4, &best), AB_MATE - 3);
    /* Black, after the best move, loses in two plies whatever it does. */
    Undo u;
    pos_do_move(f->pos, best, &u);
    assert_int_equal(ab_search(s, f->pos, 2, 4, NULL), -(AB_MATE - 2));
    pos_undo_move(f->pos, best, &u);
    assert_true(ab_stats(s)->nodes > 0);
    assert_true(ab_stats(s)->tt_hits > 0); /* iterative deepening reads its own table */
    ab_free(s);
    fixture_free(f);
}

/* Stalemate loses in xiangqi: d7d8 leaves the lone black general no move (d9, f9 and e8 covered
 * by the pawns, no check): a win in one ply that no capture gives. */
static void ab_stalemate_by_the_rules(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *s = ab_create(f->v, f->e, 1 << 20);
    test_set_fen(f->pos, f->v, "4k4/3P1P3/9/9/9/9/9/9/9/3K5 b - - 0 1");
    GameStatus st = pos_game_status(f->pos);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_STALEMATE);
    test_set_fen(f->pos, f->v, "4k4/5P3/3P5/9/9/9/9/9/9/3K5 w - - 0 1");
    Move best;
    /* No check, so no extension: the verdict is seen at two plies, where the reply is searched. */
    assert_int_equal(ab_search(s, f->pos, 2, 4, &best), AB_MATE - 1);
    Undo u;
    pos_do_move(f->pos, best, &u);
    assert_int_equal(pos_game_status(f->pos).result, RESULT_RED_WINS);
    ab_free(s);
    fixture_free(f);
}

/* The capture search takes the hanging chariot (the position of test_mcts wins_free_chariot) and
 * scores it: at least a chariot above the static evaluation, less than two. */
static void ab_capture_search_settles_exchanges(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *s = ab_create(f->v, f->e, 1 << 20);
    test_set_fen(f->pos, f->v, "4k4/9/9/r8/4p4/9/4R4/9/9/R2K5 w - - 0 1");
    int stand = (int)lrint(100.0 * eval_score(f->e, f->pos));
    int q = ab_qsearch(s, f->pos, 4);
    assert_true(q >= stand + 800);
    assert_true(q < stand + 1800);
    assert_int_equal(ab_qsearch(s, f->pos, 0), stand); /* no capture plies: the evaluation */
    /* Two plies: a0a6 at once, or e3e5+ first (a pawn with check; the chariot still falls). */
    Move best;
    int d2 = ab_search(s, f->pos, 2, 4, &best);
    char buf[16];
    iccs(f->v, best, buf);
    assert_true(!strcmp(buf, "a0a6") || !strcmp(buf, "e3e5"));
    assert_true(d2 >= stand + 800);
    ab_free(s);
    fixture_free(f);
}

/* Null-move pruning: a quiet middle-game search tries passes and some hold beta; a rule set with
 * rule modules (river-camp: camp entries and exits) never passes. Mates are still found with it
 * (ab_finds_mate_in_2 runs with it on). */
static void ab_null_move_prunes(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *s = ab_create(f->v, f->e, 1 << 20);
    pos_init_start(f->pos, f->v);
    Move best;
    int score = ab_search(s, f->pos, 4, 4, &best);
    assert_true(abs(score) < AB_MATE_BOUND);
    assert_true(pos_move_is_legal(f->pos, best));
    assert_true(ab_stats(s)->null_tries > 0);
    assert_true(ab_stats(s)->null_cuts > 0);
    assert_true(ab_stats(s)->null_cuts <= ab_stats(s)->null_tries);
    ab_free(s);
    fixture_free(f);
    f = fixture("river-camp");
    s = ab_create(f->v, f->e, 1 << 20);
    pos_init_start(f->pos, f->v);
    ab_search(s, f->pos, 3, 4, &best);
    assert_true(pos_move_is_legal(f->pos, best));
    assert_int_equal(ab_stats(s)->null_tries, 0);
    ab_free(s);
    fixture_free(f);
}

/* Jieqi: at the start nearly every move is an undrawn reveal. The search values each by the
 * mean over the identities the pools allow, so a one-ply search gives a finite score that the
 * outcomes (more nodes than moves) decide, the same every time. */
static void ab_expectation_over_reveals(void **state)
{
    (void)state;
    Fixture *f = fixture("jieqi");
    AbSearch *s = ab_create(f->v, f->e, 1 << 20);
    pos_init_start(f->pos, f->v);
    MoveList list;
    int n = pos_generate_legal(f->pos, &list);
    int chance = 0;
    for (int i = 0; i < n; i++)
        chance += hidden_is_chance(f->pos, list.moves[i]);
    assert_true(chance > n / 2);
    Move best;
    int a = ab_search(s, f->pos, 1, 4, &best);
    assert_true(abs(a) < AB_MATE_BOUND);
    assert_true(ab_stats(s)->nodes > (uint64_t)n);
    ab_clear(s);
    assert_int_equal(ab_search(s, f->pos, 1, 4, NULL), a);
    char fen[256], fen2[256];
    pos_get_fen(f->pos, fen, sizeof fen);
    ab_search(s, f->pos, 2, 4, NULL);
    pos_get_fen(f->pos, fen2, sizeof fen2);
    assert_string_equal(fen, fen2); /* the position is restored */
    ab_free(s);
    fixture_free(f);
}

/* Banqi: Red's only move is to flip h0 (its pawn a3 is boxed in by two black advisors it cannot
 * take); the pool holds a red and a black pawn. A reveal below the root is the mean of its
 * outcomes searched two plies shallower than the node (one ply more than a plain move costs), so
 * a 4-ply search of this position is exactly the probability-weighted mean of 2-ply searches of
 * the two outcomes, not of their capture searches (what a reveal in the tree got before). The
 * black pawn leaves Red without a move (a loss: stalemate = loss), so one outcome is a forced
 * result. */
static void ab_reveal_outcomes_searched_below_the_root(void **state)
{
    (void)state;
    Fixture *f = fixture("banqi");
    AbSearch *s = ab_create(f->v, f->e, 1 << 20);
    ab_set_pruning(s, false);
    test_set_fen(f->pos, f->v, "Pa4bP/a6b/8/7X w - - 0 1 [hidden:P1p1/r]");
    MoveList list;
    assert_int_equal(pos_generate_legal(f->pos, &list), 1);
    Move mv = list.moves[0];
    assert_true(hidden_is_chance(f->pos, mv));
    Move out[HIDDEN_MAX_OUTCOMES];
    double prob[HIDDEN_MAX_OUTCOMES];
    assert_int_equal(hidden_outcomes(f->pos, mv, out, prob), 2);
    double deep = 0, shallow = 0;
    for (int i = 0; i < 2; i++) {
        Undo u;
        pos_do_move(f->pos, out[i], &u);
        ab_clear(s);
        int w = ab_search(s, f->pos, 2, 4, NULL);
        if (abs(w) > AB_MATE_BOUND)
            w -= w > 0 ? 1 : -1; /* a forced result, one ply further from the root */
        deep += prob[i] * -w;
        ab_clear(s);
        shallow += prob[i] * -ab_search(s, f->pos, 0, 4, NULL);
        pos_undo_move(f->pos, out[i], &u);
    }
    ab_clear(s);
    int v = ab_search(s, f->pos, 4, 4, NULL);
    assert_int_equal(v, (int)lrint(deep));
    assert_true(v != (int)lrint(shallow));
    ab_free(s);
    fixture_free(f);
}

/* ---- selective pruning ---------------------------------------------------------------------- */

/* A mate in two whose first move is quiet (a0a8, no check; b1b9 mates, as Fairy-Stockfish 11.1
 * finds it), and a mate in five (nine plies, the same engine's "mate 5") that needs a depth where
 * every pruning is active: the pruned search finds both with their distances (the long one at a
 * nominal depth of 14; at 12 and 13, late-move pruning, the internal iterative reduction and
 * the skipped losing captures leave a longer mate), and its counters show that reverse
 * futility, futility, late-move pruning, the internal iterative reduction and the exchange
 * pruning ran in the search that found the long one. */
static void ab_pruning_finds_mates(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *s = ab_create(f->v, f->e, 4 << 20);
    test_set_fen(f->pos, f->v, "4k4/9/9/9/9/9/8p/9/1R7/R2K5 w - - 0 1");
    Move best;
    assert_int_equal(ab_search(s, f->pos, 3, 4, &best), AB_MATE - 3);
    Undo u;
    pos_do_move(f->pos, best, &u);
    assert_int_equal(ab_search(s, f->pos, 2, 4, NULL), -(AB_MATE - 2));
    pos_undo_move(f->pos, best, &u);
    ab_clear(s);
    test_set_fen(f->pos, f->v, "3ak4/4a4/9/9/9/9/9/9/2R6/R2K5 w - - 0 1");
    assert_true(ab_search(s, f->pos, 12, 4, &best) > AB_MATE_BOUND);
    ab_clear(s);
    AbStats before = *ab_stats(s);
    assert_int_equal(ab_search(s, f->pos, 14, 4, &best), AB_MATE - 9);
    assert_true(pos_move_is_legal(f->pos, best));
    assert_true(ab_stats(s)->see_skips > before.see_skips);
    assert_true(ab_stats(s)->rfp_cuts > before.rfp_cuts);
    assert_true(ab_stats(s)->futility_skips > before.futility_skips);
    assert_true(ab_stats(s)->lmp_skips > before.lmp_skips);
    assert_true(ab_stats(s)->iir_nodes > before.iir_nodes);
    ab_free(s);
    fixture_free(f);
}

/* Continuation-history pruning: in an opening position searched to depth 10 with the selective
 * pruning on, quiet moves that failed after both previous moves are skipped near the horizon
 * (a few dozen: late-move pruning skips most late quiet moves first); with the pruning off, or
 * the continuation histories off (ab_set_cont_history), none is, and the best move is legal
 * either way. */
static void ab_history_pruning(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    for (int run = 0; run < 3; run++) {
        /* run 0: pruning and histories on; 1: pruning off; 2: continuation histories off */
        bool on = run == 0;
        AbSearch *s = ab_create(f->v, f->e, 4 << 20);
        ab_set_pruning(s, run != 1);
        ab_set_cont_history(s, run != 2);
        pos_init_start(f->pos, f->v);
        Undo u[4];
        const char *moves[] = {"h2e2", "h9g7", "h0g2", "i9h9"};
        for (int i = 0; i < 4; i++)
            pos_do_move(f->pos, parse(f->pos, moves[i]), &u[i]);
        Move best;
        ab_search(s, f->pos, run == 1 ? 6 : 10, 4, &best);
        assert_true(pos_move_is_legal(f->pos, best));
        if (on)
            assert_true(ab_stats(s)->hist_skips > 0);
        else
            assert_int_equal(ab_stats(s)->hist_skips, 0);
        ab_free(s);
    }
    fixture_free(f);
}

/* The evaluation cache returns what the evaluation says: along a random game, the capture search
 * of depth 0 (the static evaluation in centipawns) equals the evaluation computed directly, on
 * the first visit (a miss) and on the second (a hit), and a second pass over the same positions
 * finds every one in the cache. */
static void ab_eval_cache_is_exact(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *s = ab_create(f->v, f->e, 1 << 20);
    pos_init_start(f->pos, f->v);
    Rng rng;
    rng_init(&rng, 11);
    enum { PLIES = 80 };
    Move played[PLIES];
    Undo u[PLIES];
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i <= PLIES; i++) {
            int want = (int)lrint(100.0 * eval_score(f->e, f->pos));
            uint64_t hits = ab_stats(s)->eval_hits;
            assert_int_equal(ab_qsearch(s, f->pos, 0), want);
            assert_int_equal(ab_stats(s)->eval_hits, hits + (pass == 1));
            assert_int_equal(ab_qsearch(s, f->pos, 0), want);
            assert_int_equal(ab_stats(s)->eval_hits, hits + (pass == 1) + 1);
            if (i == PLIES)
                break;
            if (pass == 0) {
                MoveList list;
                if (pos_generate_legal(f->pos, &list) == 0)
                    break;
                played[n] = list.moves[rng_below(&rng, (uint32_t)list.count)];
                pos_do_move(f->pos, played[n], &u[n]);
                n++;
            } else {
                if (i >= n)
                    break;
                pos_do_move(f->pos, played[i], &u[i]);
            }
        }
        for (int i = n - 1; i >= 0; i--)
            pos_undo_move(f->pos, played[i], &u[i]);
    }
    assert_true(n > 20);
    ab_free(s);
    fixture_free(f);
}

/* Exchange pruning in the capture search (hand-made): the red chariot on e1 can take the pawn
 * on e5, which the black horse on d7 takes back (exchange -8 pawns). With the black general on
 * f9 the capture gives no check and is skipped, and the value is the plain capture search's
 * (the capture never helped); with the general on e9 it checks and is searched. */
static void see_prune_skips_losing_captures(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *pruned = ab_create(f->v, f->e, 1 << 20), *plain = ab_create(f->v, f->e, 1 << 20);
    ab_set_see_prune(plain, false);
    test_set_fen(f->pos, f->v, "5k3/9/3n5/9/4p4/9/9/9/4R4/3K5 w - - 0 1");
    uint64_t skips = ab_stats(pruned)->see_skips, nodes = ab_stats(pruned)->nodes;
    uint64_t plain_nodes = ab_stats(plain)->nodes;
    assert_int_equal(ab_qsearch(pruned, f->pos, 4), ab_qsearch(plain, f->pos, 4));
    assert_int_equal(ab_stats(pruned)->see_skips, skips + 1);
    assert_int_equal(ab_stats(pruned)->nodes - nodes, 1);
    assert_int_equal(ab_stats(plain)->nodes - plain_nodes, 3); /* root, Rxe5, Nxe5 */
    assert_int_equal(ab_stats(plain)->see_skips, 0);
    test_set_fen(f->pos, f->v, "4k4/9/3n5/9/4p4/9/9/9/4R4/3K5 w - - 0 1");
    skips = ab_stats(pruned)->see_skips;
    nodes = ab_stats(pruned)->nodes;
    ab_qsearch(pruned, f->pos, 4);
    assert_int_equal(ab_stats(pruned)->see_skips, skips);
    assert_true(ab_stats(pruned)->nodes - nodes >= 2);
    ab_free(pruned);
    ab_free(plain);
    fixture_free(f);
}

/* Positions from seeded play (test-made, the shipped weights) where a five-ply search without
 * pruning wins material with a capture: the pruned search chooses the same move in each, and
 * visits fewer positions over the set. */
static void ab_pruning_keeps_won_captures(void **state)
{
    (void)state;
    static const char *const FENS[] = {
        "rnbak1bR1/1r7/3C1a2n/p1p1p1p1p/9/9/P1P1P1P1P/1C2B4/R2cK4/1NBA1A1N1 w - - 9 14",
        "1nbak1bR1/1r7/r1C2a2n/p1p1p1p1p/9/9/P1P1P1P1P/3CB4/Rc2K4/1NBA1A1N1 b - - 14 16",
        "r2aka3/2r2n3/3R5/2p3p2/2b3b1p/p2cp1P2/2P5P/2N3N2/4A4/2B1KAB2 b - - 1 26",
        "1nbak1bn1/4a4/8n/2p6/4P1pC1/9/5r2P/9/c3A4/2B1KABrR b - - 4 26",
        "6b2/1C2k4/2n1bR3/p1p3p1p/4p4/9/P1P1P3P/1c6R/4K1c2/2BA1ABr1 w - - 2 14",
        "6b2/9/2n1k4/p1p3p1p/4p4/9/P1P1r3P/5C3/4Ac3/2B1KABc1 b - - 3 21",
        "1nbakabnr/7C1/2c6/r1p1C1p2/p2c4p/9/P1P1P1P1P/2N5N/R8/2BAKAB1R w - - 3 9",
        "1nb1kab2/C3a3r/4c4/p1p1p1p2/9/4P1B2/P1P3P2/N3K1N2/3R5/3A1A3 w - - 10 24",
        "rnbakab2/3r5/1c4n2/p1p1p1C2/8p/8P/P1P1P1P2/4C4/R6R1/1NBAKAB2 w - - 1 9",
        "rnba1aCn1/4k4/9/p1p1p4/2c5p/2P5P/P3P1P2/2N1C4/R2r1R3/2BAKAB2 w - - 9 14",
        "r2a1a3/4k4/b1n6/p1C1C4/7np/2P5P/P3P1P2/2c6/4R4/2BAKAB2 b - - 0 21",
        "1r1a1a3/1R3n3/3k5/p1C6/2b5P/2P6/P3P1P2/B1c3n1B/9/3AKA3 w - - 1 29",
        "2bak3C/4a4/8n/2p3p2/2P6/4P4/P5P1P/C1N6/4A4/1rBAK1BR1 w - - 1 24",
        "1nbaka1r1/5R3/8n/pcP5p/6p2/7c1/P4rP1P/B5N1R/4A1C2/1N2KAB2 w - - 3 19",
    };
    Variant *v = test_load_variant("xiangqi");
    XqError err;
    Evaluator *e = eval_create(v, XQ_SOURCE_DIR "/configs/weights/xiangqi-handset.ini", &err);
    assert_non_null(e);
    Position *pos = malloc(sizeof *pos);
    AbSearch *pruned = ab_create(v, e, 4 << 20), *plain = ab_create(v, e, 4 << 20);
    ab_set_pruning(plain, false);
    ab_set_see_prune(plain, false);
    for (size_t i = 0; i < sizeof FENS / sizeof FENS[0]; i++) {
        test_set_fen(pos, v, FENS[i]);
        ab_clear(pruned);
        ab_clear(plain);
        int stand = (int)lrint(100.0 * eval_score(e, pos));
        Move a, b;
        int sa = ab_search(plain, pos, 5, 6, &a);
        int sb = ab_search(pruned, pos, 5, 6, &b);
        char ta[16], tb[16];
        iccs(v, a, ta);
        iccs(v, b, tb);
        if (a != b)
            fail_msg("%s: plain %s (%d), pruned %s (%d)", FENS[i], ta, sa, tb, sb);
        assert_non_null(pos->board[XQ_MOVE_TO(a)] ? "capture" : NULL);
        assert_true(sa > stand + 250 && sb > stand + 200);
    }
    assert_true(ab_stats(pruned)->nodes < ab_stats(plain)->nodes);
    assert_int_equal(ab_stats(plain)->rfp_cuts + ab_stats(plain)->futility_skips +
                         ab_stats(plain)->lmp_skips + ab_stats(plain)->iir_nodes, 0);
    ab_free(pruned);
    ab_free(plain);
    free(pos);
    eval_free(e);
    variant_free(v);
}

/* ---- the root search (search = ab) ---------------------------------------------------------- */

static int info_calls, info_last_depth;

static void count_info(const AbRootResult *r, void *user)
{
    (void)user;
    info_calls++;
    assert_true(r->depth == info_last_depth + 1); /* one call per completed iteration */
    info_last_depth = r->depth;
    assert_true(r->pv_len >= 1 && r->pv[0] == r->best);
}

/* The quiet-first mate in two: the root search finds it at depth 3, says so with its distance,
 * stops there although 20 plies were allowed, and reports every iteration. */
static void ab_root_finds_mate_and_stops(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *s = ab_create(f->v, f->e, 4 << 20);
    test_set_fen(f->pos, f->v, "4k4/9/9/9/9/9/8p/9/1R7/R2K5 w - - 0 1");
    AbLimits lim = {0};
    lim.max_depth = 20;
    lim.info = count_info;
    info_calls = info_last_depth = 0;
    AbRootResult r;
    assert_int_equal(ab_root_search(s, f->pos, 4, &lim, &r), 0);
    assert_int_equal(r.score, AB_MATE - 3);
    assert_int_equal(r.depth, 3);
    assert_int_equal(info_calls, 3);
    assert_false(r.stopped);
    assert_true(r.pv_len == 3); /* the mating line, to the mate */
    Undo u[3];
    for (int i = 0; i < 3; i++) {
        assert_true(pos_move_is_legal(f->pos, r.pv[i]));
        pos_do_move(f->pos, r.pv[i], &u[i]);
    }
    assert_int_equal(pos_game_status(f->pos).result, RESULT_RED_WINS);
    for (int i = 2; i >= 0; i--)
        pos_undo_move(f->pos, r.pv[i], &u[i]);
    /* Root move scores: the best exact, the others no higher. */
    int best_score = -AB_INF;
    for (int i = 0; i < r.nmoves; i++) {
        if (r.moves[i] == r.best)
            best_score = r.move_score[i];
        else
            assert_true(r.move_score[i] <= r.score);
    }
    assert_int_equal(best_score, r.score);
    /* A position without a legal move is refused. */
    test_set_fen(f->pos, f->v, "4k4/3P1P3/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert_int_equal(ab_root_search(s, f->pos, 4, &lim, &r), -1);
    ab_free(s);
    fixture_free(f);
}

/* Limits: a node cap ends the search within the poll's granularity, a stop flag already set and
 * a deadline already past still give depth 1 and a legal move, and the start position is
 * restored. */
static void ab_root_limits(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    AbSearch *s = ab_create(f->v, f->e, 4 << 20);
    pos_init_start(f->pos, f->v);
    char before[256], after[256];
    pos_get_fen(f->pos, before, sizeof before);
    AbLimits lim = {0};
    lim.max_depth = 30;
    lim.max_nodes = 20000;
    AbRootResult r;
    assert_int_equal(ab_root_search(s, f->pos, 4, &lim, &r), 0);
    assert_true(r.stopped);
    assert_true(r.depth >= 2 && r.depth < 30);
    assert_int_equal(r.nodes, 20000); /* a cap on positions holds exactly */
    assert_true(pos_move_is_legal(f->pos, r.best));
    pos_get_fen(f->pos, after, sizeof after);
    assert_string_equal(before, after);
    atomic_bool stop;
    atomic_init(&stop, true);
    AbLimits halt = {0};
    halt.max_depth = 30;
    halt.stop = &stop;
    ab_clear(s);
    assert_int_equal(ab_root_search(s, f->pos, 4, &halt, &r), 0);
    assert_int_equal(r.depth, 1);
    assert_true(r.stopped);
    assert_true(pos_move_is_legal(f->pos, r.best));
    AbLimits late = {0};
    late.max_depth = 30;
    late.deadline = 1e-9; /* long past */
    assert_int_equal(ab_root_search(s, f->pos, 4, &late, &r), 0);
    assert_int_equal(r.depth, 1);
    assert_true(pos_move_is_legal(f->pos, r.best));
    /* Without limits it goes to max_depth. */
    AbLimits fixed = {0};
    fixed.max_depth = 4;
    assert_int_equal(ab_root_search(s, f->pos, 4, &fixed, &r), 0);
    assert_int_equal(r.depth, 4);
    assert_false(r.stopped);
    /* From a position with exchanges in the air, caps that fall inside capture searches. */
    assert_int_equal(pos_set_fen(f->pos, f->v,
                                 "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
                                 NULL), 0);
    for (uint64_t cap = 5001; cap <= 5009; cap++) {
        AbLimits c = {0};
        c.max_depth = 30;
        c.max_nodes = cap;
        ab_clear(s);
        assert_int_equal(ab_root_search(s, f->pos, 8, &c, &r), 0);
        assert_int_equal(r.nodes, cap);
        assert_true(r.stopped && pos_move_is_legal(f->pos, r.best));
    }
    ab_free(s);
    fixture_free(f);
}

/* Jieqi's first move is nearly always a reveal: the root search values those as chance nodes
 * (the mean over the identities left) to depth 3 and returns a legal, undrawn move whose score
 * is finite. */
static void ab_root_chance_nodes(void **state)
{
    (void)state;
    Fixture *f = fixture("jieqi");
    AbSearch *s = ab_create(f->v, f->e, 4 << 20);
    pos_init_start(f->pos, f->v);
    AbLimits lim = {0};
    lim.max_depth = 3;
    AbRootResult r;
    assert_int_equal(ab_root_search(s, f->pos, 4, &lim, &r), 0);
    assert_int_equal(r.depth, 3);
    assert_true(pos_move_is_legal(f->pos, r.best));
    assert_true(abs(r.score) < AB_MATE_BOUND);
    if (hidden_is_chance(f->pos, r.best))
        assert_int_equal(r.pv_len, 1); /* the line ends at the undrawn reveal */
    ab_free(s);
    fixture_free(f);
}

/* search = ab through mcts_search in every shipped rule set (each .ini of configs/variants):
 * eight plies of a game under a 15 ms move time, then under a 3000-position cap with an
 * unlimited playout budget, then at ab_depth 2, each move legal; the timed search reports its
 * depth and at least one progress call. */
static int progress_calls;

static void count_progress(const SearchInfo *info, void *user)
{
    (void)user;
    assert_true(info->depth >= 1);
    progress_calls++;
}

static void ab_root_in_every_rule_set(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/configs/variants", XQ_SOURCE_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    int sets = 0;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".ini") != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 4), de->d_name);
        Fixture *f = fixture(name);
        sets++;
        for (int mode = 0; mode < 3; mode++) {
            SearchParams p;
            params_default(&p);
            XqError err;
            assert_int_equal(params_set(&p, "search", "ab", &err), 0);
            p.hash_mb = 1;
            SearchControl c = SEARCH_CONTROL_INIT;
            if (mode == 0) {
                p.movetime = 15;
                c.info = count_progress;
                c.info_interval_ms = 1;
            } else if (mode == 1) {
                p.playouts = INT_MAX;
                c.max_playouts = 3000;
            } else {
                p.ab_depth = 2;
            }
            Mcts *m = mcts_create(f->v, f->e, &p);
            assert_non_null(m);
            mcts_set_control(m, &c);
            pos_init_start(f->pos, f->v);
            Rng rng;
            rng_init(&rng, 5);
            HiddenDeal deal;
            if (hidden_on(f->v)) {
                hidden_deal(f->pos, &rng, &deal);
                hidden_show_start(f->pos, &deal, &rng);
            }
            progress_calls = 0;
            for (int ply = 0; ply < 8; ply++) {
                if (pos_game_status(f->pos).result != RESULT_NONE)
                    break;
                SearchResult r;
                assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
                if (!pos_move_is_legal(f->pos, r.best)) {
                    char b1[16], fen[256];
                    iccs(f->v, r.best, b1);
                    pos_get_fen(f->pos, fen, sizeof fen);
                    fail_msg("%s, mode %d, ply %d: illegal move %s in %s", name, mode, ply, b1, fen);
                }
                assert_true(r.depth >= 1);
                if (mode == 2)
                    assert_true(r.depth == 2 || r.proven);
                if (mode == 1)
                    assert_true(r.playouts < 3000 + 20000);
                assert_true(mcts_pick(&r, 1.0, &rng) == r.best); /* one visit: any temperature */
                Move mv = hidden_on(f->v) ? hidden_resolve(f->pos, r.best, &deal) : r.best;
                mcts_advance(m, mv);
                Undo u;
                pos_do_move(f->pos, mv, &u);
            }
            if (mode == 0)
                assert_true(progress_calls > 0);
            mcts_free(m);
        }
        fixture_free(f);
    }
    closedir(d);
    assert_true(sets >= 11);
}

/* ab_nodes: an untimed alpha-beta move stops at exactly that many positions, deeper than ab_depth
 * would have gone, and the same search gives the same move and count again (the property gated
 * matches rely on); a cap below the playout budget's positions wins, and 0 leaves ab_depth. */
static void ab_nodes_caps_positions_exactly(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    Move first = XQ_MOVE_NONE;
    for (int run = 0; run < 3; run++) {
        SearchParams p;
        params_default(&p);
        XqError err;
        assert_int_equal(params_set(&p, "search", "ab", &err), 0);
        assert_int_equal(params_set(&p, "ab_nodes", run < 2 ? "20000" : "0", &err), 0);
        p.ab_depth = 2;
        p.hash_mb = 1;
        Mcts *m = mcts_create(f->v, f->e, &p);
        assert_non_null(m);
        pos_init_start(f->pos, f->v);
        Rng rng;
        rng_init(&rng, 5);
        SearchResult r;
        assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
        if (run < 2) {
            assert_int_equal(r.playouts, 20000);
            assert_true(r.depth > 2);
            if (run == 0)
                first = r.best;
            else
                assert_int_equal(r.best, first);
        } else {
            assert_int_equal(r.depth, 2);
            assert_true(r.playouts < 20000);
        }
        mcts_free(m);
    }
    SearchParams p;
    params_default(&p);
    XqError err;
    assert_int_equal(params_set(&p, "ab_nodes", "-1", &err), -1);
    fixture_free(f);
}

/* ---- attack maps ---------------------------------------------------------------------------- */

static uint64_t attacks_of(const Position *pos, const AttackMap *a, Side s, const char *from,
                           const char *to)
{
    const char *p = from;
    Point pf = variant_parse_point(pos->v, &p);
    p = to;
    Point pt = variant_parse_point(pos->v, &p);
    assert_int_not_equal(pf, XQ_NO_POINT);
    assert_int_not_equal(pt, XQ_NO_POINT);
    assert_int_equal(XQ_PIECE_SIDE(pos->board[pf]), s);
    return a->by[s][pt] >> pos->index[pf] & 1;
}

/* A cannon attacks past its screen only (b6..b9, not b3..b5); the chariot down to its own pawn
 * (which it defends) and no further; a horse whose leg is blocked does not attack that way. */
static void attack_map_patterns(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    test_set_fen(f->pos, f->v, "1r2k4/9/9/9/1p7/9/9/1C7/6r2/3K2N2 w - - 0 1");
    AttackMap *a = malloc(sizeof *a);
    attack_map_build(f->pos, a);
    assert_true(attacks_of(f->pos, a, RED, "b2", "b9"));
    assert_true(attacks_of(f->pos, a, RED, "b2", "b6"));
    assert_false(attacks_of(f->pos, a, RED, "b2", "b5"));
    assert_false(attacks_of(f->pos, a, RED, "b2", "b4"));
    assert_false(attacks_of(f->pos, a, RED, "b2", "c2"));
    assert_true(attacks_of(f->pos, a, BLACK, "b9", "b5"));
    assert_true(attacks_of(f->pos, a, BLACK, "b9", "b6"));
    assert_false(attacks_of(f->pos, a, BLACK, "b9", "b4"));
    assert_true(attacks_of(f->pos, a, RED, "g0", "e1"));
    assert_true(attacks_of(f->pos, a, RED, "g0", "i1"));
    assert_false(attacks_of(f->pos, a, RED, "g0", "f2")); /* leg g1 blocked */
    assert_false(attacks_of(f->pos, a, RED, "g0", "h2"));
    assert_true(attacks_of(f->pos, a, BLACK, "g1", "e1"));
    free(a);
    fixture_free(f);
}

/* ---- the tree ------------------------------------------------------------------------------- */

/* A horse attacked by a chariot and guarded by nothing (a position from a real game): with the
 * exchange estimate its retreat is among the likeliest moves, without it one of forty. */
static void see_prior_saves_attacked_piece(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    pos_init_start(f->pos, f->v);
    test_play(f->pos, "b2b5 c6c5 e3e4 b7b6 h2h9 i9h9 b5b9 a9b9 e4e5 e6e5 g0e2 b6e6 h0f1 b9b1");
    SearchParams p;
    params_default(&p);
    p.playouts = 1;
    float prior[2];
    for (int see = 0; see < 2; see++) {
        p.prior_see = see;
        Mcts *m = mcts_create(f->v, f->e, &p);
        Rng rng;
        rng_init(&rng, 1);
        SearchResult r;
        assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
        prior[see] = mcts_root_prior(m, parse(f->pos, "f1d2"));
        mcts_free(m);
    }
    assert_true(prior[0] > 0 && prior[0] < 0.1f);
    assert_true(prior[1] > 2.0f * prior[0]);
    fixture_free(f);
}

/* child_values: the root's mate in one is a proven terminal child after the first playout. */
static void child_values_prove_mate_at_expansion(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    test_set_fen(f->pos, f->v, "4k4/R8/9/9/9/9/p8/9/9/1R1K5 w - - 0 1");
    SearchParams p;
    params_default(&p);
    p.child_values = 1;
    p.playouts = 50;
    Mcts *m = mcts_create(f->v, f->e, &p);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    assert_int_equal(r.proven, 1);
    assert_int_equal(r.playouts, 1); /* the proof ends the search */
    char buf[16];
    iccs(f->v, r.best, buf);
    assert_string_equal(buf, "b0b9");
    mcts_free(m);
    fixture_free(f);
}

/* A free chariot: with child values and implicit minimax backups the capture is found with a
 * handful of playouts, and the root child values report it (the capture's value is the best). */
static void child_values_and_minimax_take_free_chariot(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    test_set_fen(f->pos, f->v, "4k4/9/9/r8/4p4/9/4R4/9/9/R2K5 w - - 0 1");
    SearchParams p;
    params_default(&p);
    p.child_values = 1;
    p.minimax_weight = 0.5;
    p.prior_see = 1;
    p.playouts = 8;
    Mcts *m = mcts_create(f->v, f->e, &p);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    char buf[16];
    iccs(f->v, r.best, buf);
    assert_string_equal(buf, "a0a6");
    int best = -1;
    for (int i = 0; i < r.nchildren; i++)
        if (best < 0 || r.child_value[i] > r.child_value[best])
            best = i;
    assert_int_equal(r.moves[best], r.best);
    assert_true(r.value > r.static_eval);
    mcts_free(m);
    fixture_free(f);
}

/* early_stop: a playout budget ends once the most visited root move cannot be caught up, with the
 * move the full budget returns; one legal move ends it at the first check. */
static void early_stop_keeps_the_move(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    /* After h2e2 h9g7 (a central cannon, a horse out). */
    test_set_fen(f->pos, f->v, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    SearchParams p;
    params_default(&p);
    p.playouts = 2000;
    SearchResult full, early;
    for (int run = 0; run < 2; run++) {
        p.early_stop = run;
        Mcts *m = mcts_create(f->v, f->e, &p);
        Rng rng;
        rng_init(&rng, 3);
        assert_int_equal(mcts_search(m, f->pos, &rng, false, run ? &early : &full), 0);
        mcts_free(m);
    }
    assert_false(full.early);
    assert_int_equal(full.playouts, 2000);
    assert_true(early.early);
    assert_true(early.playouts < 2000);
    assert_int_equal(early.best, full.best);
    /* Black's one move is a6a5: the chariot holds d8, the facing generals e9. */
    test_set_fen(f->pos, f->v, "3k5/R8/9/p8/9/9/9/9/9/4K4 b - - 0 1");
    MoveList list;
    assert_int_equal(pos_generate_legal(f->pos, &list), 1);
    Mcts *m = mcts_create(f->v, f->e, &p);
    Rng rng;
    rng_init(&rng, 3);
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &early), 0);
    assert_true(early.early);
    assert_true(early.playouts <= 8);
    assert_int_equal(early.best, list.moves[0]);
    mcts_free(m);
    fixture_free(f);
}

/* child_margin: quiet children far below the best searched sibling keep their heuristic values;
 * the captures are always searched, so the free chariot is still taken. */
static void child_margin_keeps_captures(void **state)
{
    (void)state;
    Fixture *f = fixture("xiangqi");
    test_set_fen(f->pos, f->v, "4k4/9/9/r8/4p4/9/4R4/9/9/R2K5 w - - 0 1");
    SearchParams p;
    params_default(&p);
    p.child_values = 1;
    p.child_margin = 1;
    p.playouts = 8;
    Mcts *m = mcts_create(f->v, f->e, &p);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
    char buf[16];
    iccs(f->v, r.best, buf);
    assert_string_equal(buf, "a0a6");
    mcts_free(m);
    fixture_free(f);
}

/* Every shipped rule set plays with the new options (leaf searches, child values, minimax
 * backups, exchange priors, a restricted child set): legal moves, the same game for the same
 * seed, and a second game after mcts_reset equal to the first (the table is cleared). */
static void new_options_in_every_rule_set(void **state)
{
    (void)state;
    static const char *const VARIANTS[] = {"xiangqi", "jieqi", "jieqi-folk", "banqi", "banqi-hp",
                                           "sniper", "river-camp", "tuoqi", "cube", "five-tigers",
                                           "mixed"};
    static const char *const SETTINGS[][6] = {
        {"child_values", "1", "minimax_weight", "0.3", "prior_see", "1"},
        {"leaf_depth", "1", "minimax_weight", "0.5", "pv_prior", "0.3"},
        {"child_values", "1", "child_top", "4", "leaf_depth", "1"},
        {"child_values", "1", "child_margin", "1", "early_stop", "1"},
        {"leaf_depth", "3", "qsearch_depth", "2", "early_stop", "1"},
    };
    for (size_t vi = 0; vi < sizeof VARIANTS / sizeof VARIANTS[0]; vi++) {
        Fixture *f = fixture(VARIANTS[vi]);
        for (size_t si = 0; si < sizeof SETTINGS / sizeof SETTINGS[0]; si++) {
            SearchParams p;
            params_default(&p);
            p.playouts = 24;
            p.hash_mb = 1;
            XqError err;
            for (int k = 0; k < 6; k += 2)
                assert_int_equal(params_set(&p, SETTINGS[si][k], SETTINGS[si][k + 1], &err), 0);
            Mcts *m = mcts_create(f->v, f->e, &p);
            assert_non_null(m);
            Move game[2][8];
            for (int run = 0; run < 2; run++) {
                mcts_reset(m);
                pos_init_start(f->pos, f->v);
                Rng rng;
                rng_init(&rng, 9);
                HiddenDeal deal;
                if (hidden_on(f->v)) {
                    hidden_deal(f->pos, &rng, &deal);
                    hidden_show_start(f->pos, &deal, &rng);
                }
                for (int ply = 0; ply < 8; ply++) {
                    game[run][ply] = XQ_MOVE_NONE;
                    if (pos_game_status(f->pos).result != RESULT_NONE)
                        break;
                    SearchResult r;
                    assert_int_equal(mcts_search(m, f->pos, &rng, false, &r), 0);
                    if (!pos_move_is_legal(f->pos, r.best)) {
                        char b1[16], fen[256];
                        iccs(f->v, r.best, b1);
                        pos_get_fen(f->pos, fen, sizeof fen);
                        fail_msg("%s, settings %zu, ply %d: illegal move %s in %s", VARIANTS[vi],
                                 si, ply, b1, fen);
                    }
                    /* A reveal shows the identity the deal gave the piece. */
                    Move mv = hidden_on(f->v) ? hidden_resolve(f->pos, r.best, &deal) : r.best;
                    game[run][ply] = mv;
                    mcts_advance(m, mv);
                    Undo u;
                    pos_do_move(f->pos, mv, &u);
                }
            }
            if (memcmp(game[0], game[1], sizeof game[0]) != 0)
                fail_msg("%s, settings %zu: the second game differs", VARIANTS[vi], si);
            mcts_free(m);
        }
        fixture_free(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tt_stores_and_replaces),
        cmocka_unit_test(ab_finds_mate_in_1),
        cmocka_unit_test(ab_finds_mate_in_2),
        cmocka_unit_test(ab_stalemate_by_the_rules),
        cmocka_unit_test(ab_capture_search_settles_exchanges),
        cmocka_unit_test(ab_null_move_prunes),
        cmocka_unit_test(ab_expectation_over_reveals),
        cmocka_unit_test(ab_reveal_outcomes_searched_below_the_root),
        cmocka_unit_test(ab_pruning_finds_mates),
        cmocka_unit_test(ab_pruning_keeps_won_captures),
        cmocka_unit_test(see_prune_skips_losing_captures),
        cmocka_unit_test(ab_history_pruning),
        cmocka_unit_test(ab_eval_cache_is_exact),
        cmocka_unit_test(ab_root_finds_mate_and_stops),
        cmocka_unit_test(ab_root_limits),
        cmocka_unit_test(ab_root_chance_nodes),
        cmocka_unit_test(ab_root_in_every_rule_set),
        cmocka_unit_test(attack_map_patterns),
        cmocka_unit_test(see_prior_saves_attacked_piece),
        cmocka_unit_test(child_values_prove_mate_at_expansion),
        cmocka_unit_test(child_values_and_minimax_take_free_chariot),
        cmocka_unit_test(early_stop_keeps_the_move),
        cmocka_unit_test(child_margin_keeps_captures),
        cmocka_unit_test(new_options_in_every_rule_set),
        cmocka_unit_test(ab_nodes_caps_positions_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
