/* test_hidden.c - hidden-piece rule sets jieqi, jieqi-folk, banqi, banqi-hp (RULES.md 2-5,
 * core/mod_hidden.c): hand-made positions per rule, perft with every drawn identity a branch,
 * FEN round trips with pools, random-play invariants with random deals (200 games per rule set
 * here, 10,000 in the slow twin built with -DXQ_SLOW) and the chance-node convergence of the
 * search. Expected values are derived by hand from RULES.md. */
#include "test_util.h"

#include <math.h>

#include "hidden.h"
#include "ini.h"
#include "eval_private.h"
#include "mcts.h"
#include "perft.h"
#include "seat.h"
#include "status.h"

#ifdef XQ_SLOW
enum { RANDOM_GAMES = 10000 };
#else
enum { RANDOM_GAMES = 200 };
#endif

/* True if a legal move goes from..to (any reveal suffix). */
static bool legal(Position *pos, const char *text)
{
    char why[256];
    return move_parse(pos, text, why, sizeof why) != XQ_MOVE_NONE;
}

static void play(Position *pos, const char *text)
{
    char why[256];
    Move m = move_parse(pos, text, why, sizeof why);
    if (m == XQ_MOVE_NONE)
        fail_msg("%s", why);
    assert_false(hidden_is_chance(pos, m));
    Undo u;
    pos_do_move(pos, m, &u);
    char msg[256];
    if (pos_validate(pos, msg, sizeof msg) != 0)
        fail_msg("after %s: %s", text, msg);
}

static void expect_fen(const Position *pos, const char *want)
{
    char fen[512];
    pos_get_fen(pos, fen, sizeof fen);
    assert_string_equal(fen, want);
}

static GameStatus status(Position *pos)
{
    return pos_game_status(pos);
}

/* The shipped rule set `name` with the first `from` replaced by `to`; NULL with *err if it does
 * not load (load_with fails the test instead). */
static Variant *try_with(const char *name, const char *from, const char *to, XqError *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/variants/%s.ini", XQ_SOURCE_DIR, name);
    char *text = ini_read_file(path, err);
    assert_non_null(text);
    char *at = strstr(text, from);
    assert_non_null(at);
    size_t n = strlen(text) + strlen(to) + 1;
    char *out = malloc(n);
    assert_non_null(out);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    Variant *v = variant_load_text(out, name, err);
    free(text);
    free(out);
    return v;
}

static Variant *load_with(const char *name, const char *from, const char *to)
{
    XqError err;
    Variant *v = try_with(name, from, to, &err);
    if (!v)
        fail_msg("%s", err.message);
    return v;
}

static Position *new_pos(void)
{
    Position *p = malloc(sizeof *p);
    assert_non_null(p);
    return p;
}

/* ---- banqi (RULES.md 4) --------------------------------------------------------------------- */

static void banqi_perft_and_flip(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = new_pos();
    pos_init_start(pos, v);
    /* 32 flips, each of 14 identities (7 kinds x 2 colours). */
    assert_int_equal(perft(pos, 1), 32 * 14);
    /* The first flip shows a black horse: seat 0 plays black. The FEN names colours: the horse is
     * black (lower case), and seat 1, which plays red, is to move (w). */
    play(pos, "a0a0n");
    assert_int_equal(XQ_PIECE_SIDE(pos->board[variant_point(v, 0, 0)]), RED);
    expect_fen(pos, "XXXXXXXX/XXXXXXXX/XXXXXXXX/nXXXXXXX w - - 0 1 "
                    "[hidden:K1A2B2R2N2C2P5k1a2b2r2n1c2p5/b]");
    assert_int_equal(hidden_seat_colour(pos, RED), BLACK);
    /* Seat 1 may flip (31) or ... nothing else: it has no face-up piece. */
    MoveList list;
    assert_int_equal(pos_generate_legal(pos, &list), 31);
    variant_free(v);
    free(pos);
}

static void banqi_rank_captures(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = new_pos();
    /* Seat 0 red: chariot a0 takes a horse; general b0 takes the general b1 (equal rank). */
    test_set_fen(pos, v, "8/8/nk4Xa/RK2p2P w - - 0 1 [hidden:r1/r]");
    assert_true(legal(pos, "a0a1"));
    assert_true(legal(pos, "b0b1"));      /* K takes k: equal rank */
    assert_false(legal(pos, "a0b0"));     /* own piece */
    variant_free(v);
    free(pos);
}

static void banqi_exceptions(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = new_pos();
    /* General a0 next to a black pawn a1: cannot take it. Pawn h0 next to the black general h1:
     * takes it. Chariot d0 next to black advisor d1: cannot. */
    test_set_fen(pos, v, "8/8/p2a3k/K2R3P w - - 0 1 [hidden:-/r]");
    assert_false(legal(pos, "a0a1"));
    assert_true(legal(pos, "h0h1"));
    assert_false(legal(pos, "d0d1"));
    assert_true(legal(pos, "a0b0"));
    variant_free(v);
    free(pos);
}

static void banqi_cannon_jumps_face_down_screen(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = new_pos();
    /* Cannon a0, face-down screen a1, black general a3: captured by the jump (any rank). The
     * adjacent black pawn b0 cannot be taken by the cannon, nor the face-down a1. */
    test_set_fen(pos, v, "8/k7/8/CpX4K w - - 0 1 [hidden:r1/r]");
    assert_false(legal(pos, "a0b0"));
    test_set_fen(pos, v, "k7/8/X7/Cp5K w - - 0 1 [hidden:r1/r]");
    assert_true(legal(pos, "a0a3"));
    assert_false(legal(pos, "a0a1"));
    assert_false(legal(pos, "a0b0"));
    assert_true(legal(pos, "a1a1"));       /* the face-down piece may be flipped */
    variant_free(v);
    free(pos);
}

static void banqi_cannon_rank_option(void **state)
{
    (void)state;
    Variant *v = load_with("banqi", "\ncannon = jump", "\ncannon = rank");
    Position *pos = new_pos();
    test_set_fen(pos, v, "k7/8/X7/Cp5K w - - 0 1 [hidden:r1/r]");
    assert_false(legal(pos, "a0a3"));      /* no jump */
    assert_true(legal(pos, "a0b0"));       /* cannon takes the pawn by rank */
    variant_free(v);
    free(pos);
}

static void banqi_wins_and_draws(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = new_pos();
    /* Seat 1 (black) has no face-up piece and no black identity left in the pool: it lost. */
    test_set_fen(pos, v, "8/8/8/K6X b - - 3 9 [hidden:P1/r]");
    GameStatus st = status(pos);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_NO_PIECES);
    /* Black general a3 boxed in by red pawns it cannot take, no flips: no legal action. */
    test_set_fen(pos, v, "kP6/P7/8/7K b - - 3 9 [hidden:-/r]");
    st = status(pos);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_STALEMATE);
    /* 180 plies without capture or flip draw; a flip starts the count again. */
    test_set_fen(pos, v, "k7/8/8/K6X w - - 179 90 [hidden:P1/r]");
    play(pos, "a0b0");
    st = status(pos);
    assert_int_equal(st.result, RESULT_DRAW);
    assert_int_equal(st.reason, TERM_MOVE_LIMIT);
    test_set_fen(pos, v, "k7/8/8/K6X w - - 179 90 [hidden:P1/r]");
    play(pos, "h0h0P");
    assert_int_equal(pos->no_capture, 0);
    assert_int_equal(status(pos).result, RESULT_NONE);
    variant_free(v);
    free(pos);
}

static void banqi_repetition_draws(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = new_pos();
    test_set_fen(pos, v, "k7/8/8/K7 w - - 10 9 [hidden:-/r]");
    play(pos, "a0b0");
    play(pos, "a3b3");
    play(pos, "b0a0");
    play(pos, "b3a3");
    play(pos, "a0b0");
    play(pos, "a3b3");
    play(pos, "b0a0");
    assert_int_equal(status(pos).result, RESULT_NONE);
    play(pos, "b3a3");
    GameStatus st = status(pos);
    assert_int_equal(st.result, RESULT_DRAW);
    assert_int_equal(st.reason, TERM_REPETITION_DRAW);
    variant_free(v);
    free(pos);
}

static void banqi_flip_undo_restores(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = new_pos();
    pos_init_start(pos, v);
    char before[512], after[512];
    pos_get_fen(pos, before, sizeof before);
    uint64_t key = pos->key;
    char why[256];
    Move m = move_parse(pos, "c2c2k", why, sizeof why);
    Undo u;
    pos_do_move(pos, m, &u);
    assert_int_equal(pos->board[XQ_MOVE_FROM(m)], XQ_PIECE(RED, 0)); /* seat 0 took black: K is its */
    pos_undo_move(pos, m, &u);
    pos_get_fen(pos, after, sizeof after);
    assert_string_equal(before, after);
    assert_true(pos->key == key);
    variant_free(v);
    free(pos);
}

/* A flip nested inside a capture (the search's do / do / undo / undo). Seat 0's general g0 takes
 * seat 1's only piece, the advisor h0, which was last in seat 1's list; seat 1 then flips b3, a
 * black pawn, which moves b3 from seat 0's list into the slot past the end of seat 1's. Undoing
 * both must give back the lists, the FEN and the key exactly: the capture's undo may not take
 * that stale slot for a piece to move back (it once reset b3's index in seat 0's list to 0). */
static void banqi_flip_inside_capture_undo(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = new_pos();
    const char *fen = "XX6/8/8/6Ka w - - 0 1 [hidden:P1p1/r]";
    assert_int_equal(pos_set_fen(pos, v, fen, NULL), 0);
    uint64_t key = pos->key;
    char why[256], msg[256];
    Move take = move_parse(pos, "g0h0", why, sizeof why);
    assert_true(take != XQ_MOVE_NONE);
    Undo u1, u2;
    pos_do_move(pos, take, &u1);
    assert_int_equal(pos->count[BLACK], 0);
    Move flip = move_parse(pos, "b3b3p", why, sizeof why);
    assert_true(flip != XQ_MOVE_NONE);
    pos_do_move(pos, flip, &u2);
    assert_int_equal(pos->count[BLACK], 1);
    assert_int_equal(pos->count[RED], 2); /* a3 and the general */
    pos_undo_move(pos, flip, &u2);
    pos_undo_move(pos, take, &u1);
    if (pos_validate(pos, msg, sizeof msg) != 0)
        fail_msg("%s", msg);
    expect_fen(pos, fen);
    assert_true(pos->key == key);
    assert_int_equal(pos->count[RED], 3);
    assert_int_equal(pos->count[BLACK], 1);
    variant_free(v);
    free(pos);
}

/* ---- banqi-hp (RULES.md 5) ------------------------------------------------------------------ */

static void hp_cannon_never_moves_takes_face_down(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi-hp");
    Position *pos = new_pos();
    /* Red cannon a0, screen b... a1 black pawn, a2 face down (a red advisor, as we draw it):
     * the cannon takes it and red loses 10 hit points. */
    test_set_fen(pos, v, "k7/X7/p7/C6K w - - 0 1 [hidden:A1/r/60/60]");
    assert_false(legal(pos, "a0b0"));      /* the cannon cannot move */
    char why[256];
    Move m = move_parse(pos, "a0a2?", why, sizeof why);
    assert_true(hidden_is_chance(pos, m));
    play(pos, "a0a2*A");
    expect_fen(pos, "k7/C7/p7/7K b - - 0 1 [hidden:-/r/50/60]");
    variant_free(v);
    free(pos);
}

static void hp_capture_table(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi-hp");
    Position *pos = new_pos();
    /* Horse b1 takes the cannon b2 and the pawn a1, not the chariot c1 nor the elephant b0. */
    test_set_fen(pos, v, "k7/1c6/pNr5/1b5K w - - 0 1 [hidden:-/r/60/60]");
    assert_true(legal(pos, "b1b2"));
    assert_true(legal(pos, "b1a1"));
    assert_false(legal(pos, "b1c1"));
    assert_false(legal(pos, "b1b0"));
    /* Pawn takes only the general; general everything but the pawn. */
    test_set_fen(pos, v, "8/8/kP6/p6K w - - 0 1 [hidden:-/r/60/60]");
    assert_true(legal(pos, "b1a1"));
    test_set_fen(pos, v, "8/8/Kp6/r6k w - - 0 1 [hidden:-/r/60/60]");
    assert_false(legal(pos, "a1b1"));
    assert_true(legal(pos, "a1a0"));
    variant_free(v);
    free(pos);
}

static void hp_loss(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi-hp");
    Position *pos = new_pos();
    /* Black has 2 hit points: losing its pawn ends the game. */
    test_set_fen(pos, v, "k7/8/8/Rp5K w - - 0 1 [hidden:-/r/60/2]");
    play(pos, "a0b0");
    GameStatus st = status(pos);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_HP_LOST);
    assert_int_equal(hidden_hp(pos, BLACK), 0);
    variant_free(v);
    free(pos);
}

/* RULES.md 5 costs: general 30, advisor 10. Red's general takes the black advisor: black 60 -> 50,
 * play goes on. Red's pawn takes the black general of a seat at 30: 30 - 30 = 0, black loses on
 * hit points although it still has pieces (the general is not royal in banqi-hp). */
static void hp_costs_by_kind(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi-hp");
    Position *pos = new_pos();
    test_set_fen(pos, v, "7p/8/8/Ka5k w - - 0 1 [hidden:-/r/60/60]");
    play(pos, "a0b0");
    assert_int_equal(hidden_hp(pos, BLACK), 50);
    assert_int_equal(hidden_hp(pos, RED), 60);
    assert_int_equal(status(pos).result, RESULT_NONE);
    test_set_fen(pos, v, "7p/8/8/Pk5K w - - 0 1 [hidden:-/r/60/30]");
    play(pos, "a0b0");
    assert_int_equal(hidden_hp(pos, BLACK), 0);
    GameStatus st = status(pos);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_HP_LOST);
    variant_free(v);
    free(pos);
}

static void hp_draw_40_flips_do_not_reset(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi-hp");
    Position *pos = new_pos();
    test_set_fen(pos, v, "k7/8/8/K6X w - - 39 20 [hidden:P1/r/60/60]");
    play(pos, "h0h0P");
    GameStatus st = status(pos);
    assert_int_equal(st.result, RESULT_DRAW);
    assert_int_equal(st.reason, TERM_MOVE_LIMIT);
    variant_free(v);
    free(pos);
}

static void hp_perpetual_chase_loses(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi-hp");
    Position *pos = new_pos();
    /* The black horse shuttles c3-d3, the red chariot follows below it, attacking it after
     * every move: red chases perpetually and loses at the third occurrence. */
    test_set_fen(pos, v, "2n4k/2R5/8/7K b - - 10 9 [hidden:-/r/60/60]");
    const char *cycle[4] = {"c3d3", "c2d2", "d3c3", "d2c2"};
    for (int i = 0; i < 8; i++)
        play(pos, cycle[i % 4]);
    GameStatus st = status(pos);
    assert_int_equal(st.result, RESULT_BLACK_WINS);
    assert_int_equal(st.reason, TERM_PERPETUAL_CHASE);
    /* A repetition without a chase draws: both generals shuttle. */
    test_set_fen(pos, v, "k7/8/8/K7 w - - 10 9 [hidden:-/r/60/60]");
    const char *idle[4] = {"a0b0", "a3b3", "b0a0", "b3a3"};
    for (int i = 0; i < 8; i++)
        play(pos, idle[i % 4]);
    st = status(pos);
    assert_int_equal(st.result, RESULT_DRAW);
    assert_int_equal(st.reason, TERM_REPETITION_DRAW);
    variant_free(v);
    free(pos);
}

/* A chase is a move that creates a new attack: a piece that merely stays attacked is not chased.
 * The red cannon a0 (a cannon never moves) stands attacking the black elephant a3 over the
 * face-down a1 while Red shuffles its general h0-h1 and Black its general e3-d3: no move of
 * either side makes an attack, so the threefold repetition draws. */
static void hp_standing_threat_is_no_chase(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi-hp");
    Position *pos = new_pos();
    test_set_fen(pos, v, "b3k3/8/X7/C6K w - - 10 9 [hidden:p1/r/60/60]");
    assert_true(legal(pos, "a0a3"));
    const char *cycle[4] = {"h0h1", "e3d3", "h1h0", "d3e3"};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(status(pos).result, RESULT_NONE);
        play(pos, cycle[i % 4]);
    }
    GameStatus st = status(pos);
    assert_int_equal(st.result, RESULT_DRAW);
    assert_int_equal(st.reason, TERM_REPETITION_DRAW);
    variant_free(v);
    free(pos);
}

static void hp_show_start_and_colour_swap(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi-hp");
    Position *pos = new_pos();
    pos_init_start(pos, v);
    Rng rng;
    rng_init(&rng, 7);
    HiddenDeal d;
    hidden_deal(pos, &rng, &d);
    hidden_show_start(pos, &d, &rng);
    assert_int_equal(hidden_down_count(pos), 28);
    assert_int_equal(hidden_pool_total(pos, RED) + hidden_pool_total(pos, BLACK), 28);
    char msg[128];
    assert_int_equal(pos_validate(pos, msg, sizeof msg), 0);
    /* Before colours are assigned only flips are legal (28 of them). */
    MoveList list;
    assert_int_equal(pos_generate_legal(pos, &list), 28);
    /* A first flip of black swaps the face-up pieces to seats; undo swaps back exactly. */
    char before[512], after[512];
    pos_get_fen(pos, before, sizeof before);
    for (int i = 0; i < list.count; i++) {
        Move m = hidden_resolve(pos, list.moves[i], &d);
        Undo u;
        pos_do_move(pos, m, &u);
        assert_int_equal(pos_validate(pos, msg, sizeof msg), 0);
        assert_int_equal(hidden_seat_colour(pos, RED), hidden_code_colour(XQ_MOVE_EXTRA(m)));
        pos_undo_move(pos, m, &u);
        pos_get_fen(pos, after, sizeof after);
        assert_string_equal(before, after);
    }
    variant_free(v);
    free(pos);
}

/* The seat-swapped deal of --paired-deals: half a turn, colours exchanged (banqi-hp before any
 * flip: face-up pieces carry their colour). The red cannon g0 becomes a black one on b3, the
 * black advisor h0 a red one on a3, the face-down a3 stays seat 0's on h0 with its dealt red
 * pawn turned black; pools and hit points change colour. Swapping twice gives the start back. */
static void hp_paired_deal_swaps_seats(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi-hp");
    Position *pos = new_pos();
    const char *fen = "X7/8/8/6Ca w - - 0 1 [hidden:P1/-/60/50]";
    assert_int_equal(pos_set_fen(pos, v, fen, NULL), 0);
    HiddenDeal d;
    memset(&d, 0, sizeof d);
    Point a3 = variant_point(v, 0, 3), h0 = variant_point(v, 7, 0);
    int pawn = -1;
    for (int k = 0; k < v->nkinds; k++)
        if (v->kinds[k].letter == 'P')
            pawn = k;
    assert_true(pawn >= 0);
    d.id[a3] = hidden_code(RED, pawn);
    hidden_swap_seats(pos, &d);
    expect_fen(pos, "Ac6/8/8/7X w - - 0 1 [hidden:p1/-/50/60]");
    char msg[256];
    assert_int_equal(pos_validate(pos, msg, sizeof msg), 0);
    assert_int_equal(d.id[h0], hidden_code(BLACK, pawn));
    assert_int_equal(d.id[a3], 0);
    hidden_swap_seats(pos, &d);
    expect_fen(pos, fen);
    assert_int_equal(d.id[a3], hidden_code(RED, pawn));
    variant_free(v);
    free(pos);
}

/* ---- jieqi (RULES.md 2) --------------------------------------------------------------------- */

static void jieqi_perft_and_reveal(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi");
    Position *pos = new_pos();
    pos_init_start(pos, v);
    /* The 44 xiangqi start moves; the 43 of face-down pieces each draw one of 6 kinds. */
    assert_int_equal(perft(pos, 1), 43 * 6 + 1);
    char why[256];
    Move m = move_parse(pos, "a0a1", why, sizeof why);
    assert_true(hidden_is_chance(pos, m));
    Move out[HIDDEN_MAX_OUTCOMES];
    double prob[HIDDEN_MAX_OUTCOMES];
    assert_int_equal(hidden_outcomes(pos, m, out, prob), 6);
    double total = 0;
    for (int i = 0; i < 6; i++)
        total += prob[i];
    assert_true(fabs(total - 1.0) < 1e-12);
    assert_true(fabs(prob[5] - 5.0 / 15.0) < 1e-12); /* pawn: 5 of 15 */
    play(pos, "a0a1R");
    expect_fen(pos, "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/R8/1XXXKXXXX b - - 1 1 "
                    "[hidden:A2B2N2R1C2P5a2b2n2r2c2p5]");
    variant_free(v);
    free(pos);
}

static void jieqi_face_down_advisor_palace(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi");
    Position *pos = new_pos();
    pos_init_start(pos, v);
    assert_true(legal(pos, "d0e1"));
    assert_false(legal(pos, "d0c1"));
    /* Face-up advisor and elephant are not confined (advisor d3 -> c4, elephant c5 -> e7). */
    test_set_fen(pos, v, "3k5/9/9/9/2B6/9/3A5/9/9/4K4 w - - 0 1 [hidden:-]");
    assert_true(legal(pos, "d3c4"));
    assert_true(legal(pos, "c5e7"));
    variant_free(v);
    free(pos);
}

static void jieqi_cannon_over_face_down_and_capture_unseen(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi");
    Position *pos = new_pos();
    pos_init_start(pos, v);
    /* The face-down cannon b2 jumps the face-down b7 and takes the face-down b9; nobody sees
     * the captured piece: black's pool keeps 15 identities for 14 face-down pieces. */
    play(pos, "b2b9C");
    assert_int_equal(hidden_pool_total(pos, BLACK), 15);
    assert_int_equal(hidden_pool_total(pos, RED), 14);
    assert_int_equal(hidden_down_count(pos), 28);
    variant_free(v);
    free(pos);
}

static void jieqi_capture_knowledge_both(void **state)
{
    (void)state;
    Variant *v = load_with("jieqi", "\ncapture_knowledge = nobody", "\ncapture_knowledge = both");
    Position *pos = new_pos();
    pos_init_start(pos, v);
    char why[256];
    Move m = move_parse(pos, "b2b9", why, sizeof why);
    Move out[HIDDEN_MAX_OUTCOMES];
    double prob[HIDDEN_MAX_OUTCOMES];
    /* The mover draws one of 6 kinds, the captured piece one of 6: 36 outcomes. */
    assert_int_equal(hidden_outcomes(pos, m, out, prob), 36);
    play(pos, "b2b9C*R");
    assert_int_equal(hidden_pool(pos, BLACK, variant_find_kind_by_letter(v, 'R')), 1);
    variant_free(v);
    free(pos);
}

/* native_as rewrites the points native set: written first it would do nothing, so it is refused;
 * so are options of another mode; an unknown key names the accepted ones. */
static void hidden_option_errors(void **state)
{
    (void)state;
    const char *native = "native = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR\n";
    char both[256], swapped[256], unknown[256];
    snprintf(both, sizeof both, "%snative_as = A:Y\n", native);
    snprintf(swapped, sizeof swapped, "native_as = A:Y\n%s", native);
    snprintf(unknown, sizeof unknown, "face_down = yes\n%s", native);
    XqError err;
    assert_null(try_with("jieqi", both, swapped, &err));
    assert_non_null(strstr(err.message, "[hidden] native_as: no native point holds 'A'"));
    assert_null(try_with("jieqi", native, unknown, &err));
    assert_non_null(strstr(err.message, "unknown key 'face_down' in [hidden] (expected mode,"));
    /* An option of another mode would do nothing: refused. */
    assert_null(try_with("jieqi", "hidden = X\n", "hidden = X\ngeneral = K\n", &err));
    assert_non_null(strstr(err.message, "[hidden] general applies to mode = folk only"));
    assert_null(try_with("banqi", "cannon = jump\n", "capture_knowledge = capturer\n", &err));
    assert_non_null(strstr(err.message, "[hidden] capture_knowledge applies to mode = jieqi only"));
    assert_null(try_with("jieqi", "capture_knowledge = nobody", "reveal_capturers = C", &err));
    assert_non_null(strstr(err.message, "[hidden] reveal_capturers applies to mode = banqi only"));
    assert_null(try_with("banqi-hp", "hp = 60\n", "", &err));
    assert_non_null(strstr(err.message, "[hidden] hp_cost needs hp"));
}

static Variant *load_capturer(void)
{
    return load_with("jieqi", "\ncapture_knowledge = nobody", "\ncapture_knowledge = capturer");
}

static Point at(const Variant *v, const char *name)
{
    const char *s = name;
    return variant_parse_point(v, &s);
}

/* RULES.md 2, capture_knowledge = capturer: the capture itself is a plain move that leaves the
 * identity in the public pool (nobody else sees it); the capturer's record gets it from the
 * deal. Quiet moves, and captures of face-up pieces, teach nothing. */
static void jieqi_capturer_records_what_it_takes(void **state)
{
    (void)state;
    Variant *v = load_capturer();
    Position *pos = new_pos();
    int R = variant_find_kind_by_letter(v, 'R');
    test_set_fen(pos, v, "3k5/9/9/4x4/9/9/9/9/4R4/4K4 w - - 0 1 [hidden:r1p1]");
    HiddenDeal d;
    memset(&d, 0, sizeof d);
    d.id[at(v, "e6")] = hidden_code(BLACK, R);
    HiddenKnowledge k;
    memset(&k, 0, sizeof k);
    char why[256];
    Move quiet = move_parse(pos, "e1e2", why, sizeof why);
    hidden_knowledge_note(pos, quiet, &d, &k);
    HiddenKnowledge none;
    memset(&none, 0, sizeof none);
    assert_memory_equal(&k, &none, sizeof k);
    Move take = move_parse(pos, "e1e6", why, sizeof why);
    assert_int_equal(XQ_MOVE_FLAGS(take), 0); /* not a chance event in the game */
    hidden_knowledge_note(pos, take, &d, &k);
    assert_int_equal(k.seen[RED][R], 1);
    assert_int_equal(k.seen[BLACK][R], 0);
    play(pos, "e1e6");
    assert_int_equal(hidden_pool(pos, BLACK, R), 1);
    assert_int_equal(hidden_pool_total(pos, BLACK), 2);
    /* With `nobody` the same capture teaches nothing. */
    Variant *nobody = test_load_variant("jieqi");
    test_set_fen(pos, nobody, "3k5/9/9/4x4/9/9/9/9/4R4/4K4 w - - 0 1 [hidden:r1p1]");
    memset(&k, 0, sizeof k);
    hidden_knowledge_note(pos, move_parse(pos, "e1e6", why, sizeof why), &d, &k);
    assert_memory_equal(&k, &none, sizeof k);
    variant_free(nobody);
    variant_free(v);
    free(pos);
}

/* Positions equal byte for byte up to the end of the history (entries past it are scratch). */
static void expect_same_position(const Position *a, const Position *b)
{
    assert_int_equal(a->hist_len, b->hist_len);
    assert_memory_equal(a, b, offsetof(Position, hist) + (size_t)a->hist_len * sizeof a->hist[0]);
}

/* The searching side's view (hidden_view_enter): red took a face-down chariot earlier (public
 * pool r1p1 for one face-down black piece), so red knows e6 is a pawn. In red's view black's pool
 * is p1, red's capture of e6 is a chance event with that one outcome, black's capture of red's
 * face-down a3 stays unseen, repetitions against the history still match, and leaving the view
 * restores the position byte for byte. */
static void jieqi_capturer_view(void **state)
{
    (void)state;
    Variant *v = load_capturer();
    Position *pos = new_pos();
    int R = variant_find_kind_by_letter(v, 'R'), P = variant_find_kind_by_letter(v, 'P');
    test_set_fen(pos, v, "r2k5/9/9/4x4/9/9/X8/9/4R4/4K4 w - - 0 1 [hidden:P1r1p1]");
    /* A cycle of four quiet plies: the position is in the history again. */
    play(pos, "e1e2");
    play(pos, "d9d8");
    play(pos, "e2e1");
    play(pos, "d8d9");
    assert_true(pos->hist[0].key == pos->key);
    Position *saved = new_pos();
    memcpy(saved, pos, sizeof *pos);
    char fen[512];
    pos_get_fen(pos, fen, sizeof fen);

    HiddenKnowledge k;
    memset(&k, 0, sizeof k);
    k.seen[RED][R] = 2; /* more than the pool holds: refused, nothing changed */
    HiddenView view;
    assert_int_equal(hidden_view_enter(pos, &k, &view), -1);
    expect_same_position(pos, saved);

    k.seen[RED][R] = 1;
    k.seen[BLACK][P] = 1; /* black's knowledge is not red's: ignored in red's view */
    assert_int_equal(hidden_view_enter(pos, &k, &view), 0);
    assert_true(view.on);
    assert_int_equal(hidden_pool(pos, BLACK, R), 0);
    assert_int_equal(hidden_pool(pos, BLACK, P), 1);
    assert_int_equal(hidden_pool(pos, RED, P), 1);
    assert_true(pos->key != saved->key);
    assert_true(pos->key == pos_compute_key(pos));
    assert_true(pos->hist[0].key == pos->key);
    assert_true(pos_game_status(pos).result == RESULT_NONE);

    char why[256];
    Move take = move_parse(pos, "e1e6", why, sizeof why);
    assert_true(hidden_is_chance(pos, take));
    Move out[HIDDEN_MAX_OUTCOMES];
    double prob[HIDDEN_MAX_OUTCOMES];
    assert_int_equal(hidden_outcomes(pos, take, out, prob), 1);
    assert_true(prob[0] == 1.0);
    assert_int_equal(XQ_MOVE_EXTRA(out[0]) >> 4, P + 1);
    assert_int_equal(hidden_view_game_move(pos, take), XQ_MOVE(at(v, "e1"), at(v, "e6")));
    /* A face-down mover's reveal keeps its own identity in the game, not the captured one. */
    Move both = XQ_MOVE_SPECIAL(at(v, "a3"), at(v, "a4"), (P + 1) | (P + 1) << 4, XQ_FLAG_REVEAL);
    assert_int_equal(XQ_MOVE_EXTRA(hidden_view_game_move(pos, both)), P + 1);
    Undo u, u2;
    pos_do_move(pos, out[0], &u);
    assert_int_equal(hidden_pool_total(pos, BLACK), 0);
    pos_undo_move(pos, out[0], &u);
    /* Black's turn inside red's view: its capture of red's face-down piece is unseen. */
    Move quiet = move_parse(pos, "e1e2", why, sizeof why);
    pos_do_move(pos, quiet, &u);
    Move theirs = move_parse(pos, "a9a3", why, sizeof why);
    assert_int_equal(XQ_MOVE_FLAGS(theirs), 0);
    pos_do_move(pos, theirs, &u2);
    assert_int_equal(hidden_pool(pos, RED, P), 1);
    pos_undo_move(pos, theirs, &u2);
    pos_undo_move(pos, quiet, &u);

    hidden_view_leave(pos, &view);
    expect_same_position(pos, saved);
    expect_fen(pos, fen);
    /* Without the option there is no view. */
    Variant *nobody = test_load_variant("jieqi");
    test_set_fen(pos, nobody, "3k5/9/9/4x4/9/9/9/9/4R4/4K4 w - - 0 1 [hidden:r1p1]");
    memcpy(saved, pos, sizeof *pos);
    assert_int_equal(hidden_view_enter(pos, &k, &view), 0);
    assert_false(view.on);
    expect_same_position(pos, saved);
    variant_free(nobody);
    variant_free(v);
    free(saved);
    free(pos);
}

static void jieqi_move_limit_and_check(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi");
    Position *pos = new_pos();
    /* 80 plies without capture draw. */
    test_set_fen(pos, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 79 40 [hidden:-]");
    play(pos, "d0d1");
    GameStatus st = status(pos);
    assert_int_equal(st.result, RESULT_DRAW);
    assert_int_equal(st.reason, TERM_MOVE_LIMIT);
    /* A face-down piece on a0 moves as the chariot native there. */
    test_set_fen(pos, v, "4k4/9/9/9/9/9/9/9/9/X2K5 w - - 0 1 [hidden:R1]");
    assert_true(legal(pos, "a0a9"));
    variant_free(v);
    free(pos);
}

/* RULES.md 2: face-up advisors and elephants are not confined. Red advisor e4 steps to d5 across
 * the river; elephant c4 goes to e6 (eye d5 empty) but not to a6 (eye b5 holds a black pawn). The
 * black general stands on d9 so that the advisor leaving the e-file exposes nothing. */
static void jieqi_revealed_pieces_unconfined(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi");
    Position *pos = new_pos();
    test_set_fen(pos, v, "3k5/9/9/9/1p7/2B1A4/9/9/9/4K4 w - - 0 1 [hidden:-]");
    assert_true(legal(pos, "e4d5"));
    assert_true(legal(pos, "e4f3"));
    assert_true(legal(pos, "c4e6"));
    assert_false(legal(pos, "c4a6"));
    variant_free(v);
    free(pos);
}

/* RULES.md 2: a face-down piece on a0 moves as a chariot (a0a5) and is revealed; the pool holds
 * only a pawn, so it turns up a pawn on a5, Red's enemy half, and keeps pawn rules from there:
 * forward and sideways, never back. The pool is then empty. */
static void jieqi_revealed_pawn_keeps_pawn_rules(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi");
    Position *pos = new_pos();
    test_set_fen(pos, v, "3k5/9/9/9/9/9/9/9/9/X3K4 w - - 0 1 [hidden:P1]");
    char why[128];
    Move m = move_parse(pos, "a0a5", why, sizeof why);
    assert_int_not_equal(m, XQ_MOVE_NONE);
    assert_true(hidden_is_chance(pos, m));
    Move out[HIDDEN_MAX_OUTCOMES];
    double prob[HIDDEN_MAX_OUTCOMES];
    assert_int_equal(hidden_outcomes(pos, m, out, prob), 1); /* only the pawn */
    assert_true(prob[0] == 1.0);
    play(pos, "a0a5P");
    assert_int_equal(hidden_pool_total(pos, RED), 0);
    play(pos, "d9d8");
    assert_true(legal(pos, "a5a6"));
    assert_true(legal(pos, "a5b5"));
    assert_false(legal(pos, "a5a4"));
    variant_free(v);
    free(pos);
}

static void jieqi_pool_fen_round_trip(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi");
    Position *pos = new_pos();
    const char *fen = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1 "
                      "[hidden:A2B2N2R2C2P5a2b2n2r2c2p5]";
    test_set_fen(pos, v, fen);
    expect_fen(pos, fen);
    XqError err;
    /* Too few identities for the face-down pieces. */
    assert_int_equal(pos_set_fen(pos, v, "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/"
                                 "XXXXKXXXX w - - 0 1 [hidden:A2B2N2R2C2P4a2b2n2r2c2p5]", &err), -1);
    variant_free(v);
    free(pos);
}

/* ---- jieqi-folk (RULES.md 3) ---------------------------------------------------------------- */

/* Seats and colours (core/seat.h): banqi's seat 0 drew black and takes seat 1's last piece. The
 * FEN names colours (black to move is seat 0); results are by seat and translate to colours. */
static void seat_and_colour_of_results(void **state)
{
    (void)state;
    Variant *v = test_load_variant("banqi");
    Position *pos = new_pos();
    test_set_fen(pos, v, "8/8/8/rP6 b - - 0 1 [hidden:-/b]");
    assert_int_equal(pos->side, RED);
    assert_int_equal(XQ_PIECE_SIDE(pos->board[variant_point(v, 0, 0)]), RED);
    assert_int_equal(pos_seat_colour(pos, RED), BLACK);
    assert_int_equal(pos_seat_colour(pos, BLACK), RED);
    play(pos, "a0b0");
    GameStatus st = status(pos);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_NO_PIECES);
    assert_int_equal(result_by_colour(st.result, BLACK), RESULT_BLACK_WINS);
    assert_int_equal(result_by_seat(RESULT_BLACK_WINS, BLACK), RESULT_RED_WINS);
    assert_int_equal(result_winner_seat(st.result), 0);
    char buf[128];
    pos_status_describe(pos, st, buf, sizeof buf);
    assert_string_equal(buf, "win for black, the first mover (no pieces left)");
    game_status_describe(v, (GameStatus){RESULT_BLACK_WINS, TERM_HP_LOST}, COLOUR_UNASSIGNED, buf,
                         sizeof buf);
    assert_string_equal(buf, "win for the second mover (hit points lost)");
    game_status_describe(v, (GameStatus){RESULT_DRAW, TERM_MOVE_LIMIT}, BLACK, buf, sizeof buf);
    assert_string_equal(buf, "draw (move limit)");
    /* No colour won a decisive game whose colours were never assigned. */
    assert_int_equal(result_by_colour(RESULT_RED_WINS, COLOUR_UNASSIGNED), RESULT_NONE);
    assert_int_equal(result_by_colour(RESULT_DRAW, COLOUR_UNASSIGNED), RESULT_DRAW);
    assert_int_equal(seat_of_colour(RED, BLACK), 1);
    assert_int_equal(seat_of_colour(RED, COLOUR_UNASSIGNED), -1);
    assert_string_equal(seat_name(RED), "first mover");
    assert_string_equal(seat_name(BLACK), "second mover");
    assert_string_equal(colour_name(BLACK), "black");
    assert_string_equal(colour_name(COLOUR_UNASSIGNED), "unassigned");
    const char *assigning[] = {"banqi", "banqi-hp", "jieqi-folk"}, *fixed[] = {"jieqi", "xiangqi"};
    for (int i = 0; i < 3; i++) {
        Variant *w = test_load_variant(assigning[i]);
        assert_true(variant_assigns_colours(w));
        variant_free(w);
    }
    for (int i = 0; i < 2; i++) {
        Variant *w = test_load_variant(fixed[i]);
        assert_false(variant_assigns_colours(w));
        game_status_describe(w, (GameStatus){RESULT_BLACK_WINS, TERM_CHECKMATE}, RED, buf, sizeof buf);
        assert_string_equal(buf, "win for black (checkmate)");
        variant_free(w);
    }
    /* Before any reveal only the first mover can be to move: "b" is refused, "w" is seat 0. */
    XqError err;
    assert_int_equal(pos_set_fen(pos, v, "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX b - - 0 1 "
                                 "[hidden:K1A2B2R2N2C2P5k1a2b2r2n2c2p5/-]", &err), -1);
    assert_non_null(strstr(err.message, "no colours are assigned yet"));
    variant_free(v);
    free(pos);
}

/* Positions the hidden-piece rules cannot reach are refused, naming what is wrong. */
static void expect_refused(const char *name, const char *fen, const char *fragment)
{
    Variant *v = test_load_variant(name);
    Position *pos = new_pos();
    XqError err;
    memset(&err, 0, sizeof err);
    if (pos_set_fen(pos, v, fen, &err) == 0)
        fail_msg("%s: '%s' was accepted", name, fen);
    if (!strstr(err.message, fragment))
        fail_msg("%s: '%s': \"%s\" does not contain \"%s\"", name, fen, err.message, fragment);
    variant_free(v);
    free(pos);
}

static void hidden_fen_refusals(void **state)
{
    (void)state;
    /* jieqi: the generals start face up, so none is in a pool; pools and face-up pieces
     * together hold at most the set; face-down pieces stand on their own start points. */
    expect_refused("jieqi", "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1 "
                   "[hidden:K1A2B2N2R2C2P5a2b2n2r2c2p5]", "2 red generals");
    expect_refused("jieqi", "4k4/9/9/9/9/9/9/9/9/RRRK5 w - - 0 1 [hidden:R1]", "4 red chariots");
    expect_refused("jieqi", "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/X8/2X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1 "
                   "[hidden:A2B2N2R2C2P5a2b2n2r2c2p5]", "'X' on a4: a face-down piece stands on one "
                   "of its own side's start points");
    expect_refused("jieqi", "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXKXXXXX w - - 0 1 "
                   "[hidden:A2B2N2R2C2P5a2b2n2r2c2p5]", "'X' on e0");
    expect_refused("jieqi", "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/x1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1 "
                   "[hidden:A2B2N2R2C2P5a2b2n2r2c2p5]", "'x' on a3");
    expect_refused("jieqi", "4k4/9/9/9/9/9/9/9/9/4KY3 w - - 0 1 [hidden:-]", "1 red veiled advisor");
    /* banqi: face-down pieces are written X; a general face up and one in the pool are two. */
    expect_refused("banqi", "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXx w - - 0 1 "
                   "[hidden:K1A2B2R2N2C2P5k1a2b2r2n2c2p5/-]", "face-down pieces are written X");
    expect_refused("banqi", "8/8/8/KX6 w - - 0 1 [hidden:K1/r]", "2 red generals");
    expect_refused("banqi-hp", "8/8/8/AX6 w - - 0 1 [hidden:A2/r/60/60]", "3 red advisors");
    /* jieqi-folk: the letter of a face-down piece names the half it stands on. */
    expect_refused("jieqi-folk", "xxxxxxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXxXXXX w - - 0 1 "
                   "[hidden:K1A2B2N2R2C2P5k1a2b2n2r2c2p5/-]", "'x' on e0");
    expect_refused("jieqi-folk", "xxxxxxxxx/9/1x5x1/x1x1x1x1x/9/X8/2X1X1X1X/1X5X1/9/XXXXXXXXX w - - 0 1 "
                   "[hidden:K1A2B2N2R2C2P5k1a2b2n2r2c2p5/-]", "'X' on a4");
    /* Any bracketed field once. */
    expect_refused("banqi", "8/8/8/KX6 w - - 0 1 [hidden:r1/r] [hidden:r1/r]", "given twice");
}

static void folk_perft_and_colour(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi-folk");
    Position *pos = new_pos();
    pos_init_start(pos, v);
    /* 44 moves of South's face-down pieces, 14 identities each. */
    assert_int_equal(perft(pos, 1), 44 * 14);
    /* South reveals a black chariot: South plays black; the chariot is South's. The FEN names
     * colours: a black chariot (lower case), North (red) to move (w). */
    play(pos, "a0a1r");
    assert_int_equal(hidden_seat_colour(pos, RED), BLACK);
    assert_int_equal(XQ_PIECE_SIDE(pos->board[variant_point(v, 0, 1)]), RED);
    expect_fen(pos, "xxxxxxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/r8/1XXXXXXXX w - - 0 1 "
                    "[hidden:K1A2B2N2R2C2P5k1a2b2n2r1c2p5/b]");
    /* North reveals a black piece too: it belongs to South. */
    play(pos, "i9i8r");
    assert_int_equal(XQ_PIECE_SIDE(pos->board[variant_point(v, 8, 8)]), RED);
    variant_free(v);
    free(pos);
}

static void folk_face_down_not_capturable(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi-folk");
    Position *pos = new_pos();
    /* South's face-up chariot a1 cannot take North's face-down a6, only move up to it. */
    test_set_fen(pos, v, "4k4/9/9/x8/9/9/9/9/R8/4K4 w - - 0 1 [hidden:p1/r]");
    assert_false(legal(pos, "a1a6"));
    assert_true(legal(pos, "a1a5"));
    variant_free(v);
    free(pos);
}

static void folk_face_down_capture_stands(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi-folk");
    Position *pos = new_pos();
    /* South's face-down "horse" b0 takes North's pawn c2 and turns out to be North's advisor:
     * the capture stands and the advisor is North's. */
    test_set_fen(pos, v, "4k4/9/9/9/9/9/9/2p6/9/1X2K4 w - - 0 1 [hidden:a1/r]");
    play(pos, "b0c2a");
    assert_int_equal(pos->board[variant_point(v, 2, 2)], XQ_PIECE(BLACK, 1));
    assert_int_equal(pos->count[RED], 1);
    variant_free(v);
    free(pos);
}

static void folk_capture_general_wins_no_check(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi-folk");
    Position *pos = new_pos();
    /* No check: South's general may step onto the rank of North's chariot. */
    test_set_fen(pos, v, "9/9/9/9/9/9/9/9/r8/2K1k4 w - - 0 1 [hidden:-/r]");
    assert_true(legal(pos, "c0c1"));
    GameStatus st;
    test_set_fen(pos, v, "9/9/9/9/9/9/9/9/1r7/1K2k4 b - - 0 1 [hidden:-/r]");
    play(pos, "b1b0");
    st = status(pos);
    assert_int_equal(st.result, RESULT_BLACK_WINS);
    assert_int_equal(st.reason, TERM_ROYAL_CAPTURED);
    variant_free(v);
    free(pos);
}

static void folk_pieces_unconfined(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi-folk");
    Position *pos = new_pos();
    /* General a4 steps anywhere orthogonally; uncrossed pawn e3 only forward; crossed pawn c6
     * sideways too. */
    test_set_fen(pos, v, "4k4/9/9/2P6/9/K8/4P4/9/9/9 w - - 0 1 [hidden:-/r]");
    assert_true(legal(pos, "a4b4"));
    assert_true(legal(pos, "a4a5"));
    assert_false(legal(pos, "e3d3"));
    assert_true(legal(pos, "e3e4"));
    assert_true(legal(pos, "c6b6"));
    variant_free(v);
    free(pos);
}

/* RULES.md 3: South's first reveal is red, so South plays red. North then moves a face-down piece
 * of its half (i9, a chariot point) and turns up a red chariot: it belongs to South (side 0), who
 * may move it at once; North gains nothing from it. */
static void folk_south_red_and_pieces_change_hands(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi-folk");
    Position *pos = new_pos();
    pos_init_start(pos, v);
    play(pos, "a3a4P");
    assert_int_equal(hidden_seat_colour(pos, RED), RED);
    assert_int_equal(hidden_seat_colour(pos, BLACK), BLACK);
    play(pos, "i9i8R");
    assert_int_equal(XQ_PIECE_SIDE(pos->board[variant_point(v, 8, 8)]), RED);
    assert_true(legal(pos, "i8h8"));    /* South moves the chariot North turned up */
    assert_int_equal(hidden_pool_total(pos, RED) + hidden_pool_total(pos, BLACK), 30);
    variant_free(v);
    free(pos);
}

/* RULES.md 3: a pawn moves forward for its owner until it has crossed the river, then sideways
 * too, never back. South is red: North's (black) pawn on e4 has crossed (down, sideways, not up);
 * its pawn on e6 has not (only down). */
static void folk_pawn_direction_by_owner(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi-folk");
    Position *pos = new_pos();
    test_set_fen(pos, v, "k8/9/9/4p4/9/4p4/9/9/9/K8 b - - 0 1 [hidden:-/r]");
    assert_true(legal(pos, "e4e3"));
    assert_true(legal(pos, "e4d4"));
    assert_true(legal(pos, "e4f4"));
    assert_false(legal(pos, "e4e5"));
    assert_true(legal(pos, "e6e5"));
    assert_false(legal(pos, "e6d6"));
    assert_false(legal(pos, "e6e7"));
    variant_free(v);
    free(pos);
}

static void folk_limit_reset_by_reveal(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi-folk");
    Position *pos = new_pos();
    test_set_fen(pos, v, "4k4/9/9/9/9/9/9/9/9/R3K3X w - - 119 60 [hidden:p1/r]");
    play(pos, "i0i1p");
    assert_int_equal(status(pos).result, RESULT_NONE);
    test_set_fen(pos, v, "4k4/9/9/9/9/9/9/9/9/R3K3X w - - 119 60 [hidden:p1/r]");
    play(pos, "a0a1");
    assert_int_equal(status(pos).reason, TERM_MOVE_LIMIT);
    variant_free(v);
    free(pos);
}

/* ---- evaluation ------------------------------------------------------------------------------ */

/* Index of a feature by name, or fails. */
static int feature_index(const Evaluator *e, const char *name)
{
    for (int i = 0; i < eval_feature_count(e); i++)
        if (!strcmp(eval_feature_name(e, i), name))
            return i;
    fail_msg("no feature %s", name);
    return -1;
}

/* Expected material of face-down pieces from the public pools, in the variant file's values.
 * jieqi (values A 2, B 2.5, N 4, R 9, C 4.5, P 1): Red's one face-down piece is R or P, mean
 * (9 + 1) / 2 = 5; Black's is a or c, (2 + 4.5) / 2 = 3.25; seat 0 minus seat 1 = 1.75. The
 * start is symmetric: 0. banqi (K 6, P 1): two face-down pieces, shared pool {K, p}: each is
 * +6 or -1 for a red seat 0 with probability 1/2, 2 x 5 / 2 = 5; seat 0 black: -5; colours
 * unassigned: 0. The default weights price it at 1 and the face-down kind's material at 0. */
static void eval_expected_hidden_material(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi");
    Position *pos = new_pos();
    test_set_fen(pos, v, "x2k5/9/9/9/9/9/9/9/9/X3K4 w - - 0 1 [hidden:R1P1a1c1]");
    assert_true(fabs(eval_hidden_expected(pos) - 1.75) < 1e-12);
    XqError err;
    Evaluator *e = eval_create(v, NULL, &err);
    assert_non_null(e);
    int fi = feature_index(e, "hidden.expected_material");
    /* After every older feature, before the finer families (per-point terms first). */
    assert_true(fi > feature_index(e, "side.to_move"));
    assert_int_equal(fi + 1, feature_index(e, "pst.general.d0"));
    assert_true(eval_weight(e, fi) == 1.0);
    assert_true(eval_weight(e, feature_index(e, "material.hidden")) == 0.0);
    float *x = calloc((size_t)eval_feature_count(e), sizeof *x);
    assert_non_null(x);
    eval_features(e, pos, x);
    assert_true(fabsf(x[fi] - 1.75f) < 1e-6f);
    free(x);
    eval_free(e);
    pos_init_start(pos, v);
    assert_true(fabs(eval_hidden_expected(pos)) < 1e-12);
    variant_free(v);

    v = test_load_variant("banqi");
    test_set_fen(pos, v, "XX6/8/8/R6k w - - 0 1 [hidden:K1p1/r]");
    assert_true(fabs(eval_hidden_expected(pos) - 5.0) < 1e-12);
    test_set_fen(pos, v, "XX6/8/8/R6k w - - 0 1 [hidden:K1p1/b]");
    assert_true(fabs(eval_hidden_expected(pos) + 5.0) < 1e-12);
    pos_init_start(pos, v);
    assert_true(eval_hidden_expected(pos) == 0.0);
    variant_free(v);

    /* Other rule sets have no such feature. */
    v = test_load_variant("xiangqi");
    e = eval_create(v, NULL, &err);
    assert_non_null(e);
    for (int i = 0; i < eval_feature_count(e); i++)
        assert_string_not_equal(eval_feature_name(e, i), "hidden.expected_material");
    eval_free(e);
    variant_free(v);
    free(pos);
}

/* ---- chance nodes --------------------------------------------------------------------------- */

/* A searcher of variant v with the default evaluation and `playouts` per search; the parameters
 * live in the struct, which must stay put while the searcher is used. */
typedef struct Searcher {
    Evaluator *e;
    SearchParams p;
    Mcts *m;
} Searcher;

static void searcher_open(Searcher *s, const Variant *v, int playouts, int arena_nodes)
{
    XqError err;
    s->e = eval_create(v, NULL, &err);
    assert_non_null(s->e);
    params_default(&s->p);
    s->p.playouts = playouts;
    if (arena_nodes)
        s->p.arena_nodes = arena_nodes;
    s->m = mcts_create(v, s->e, &s->p);
    assert_non_null(s->m);
}

static void searcher_close(Searcher *s)
{
    mcts_free(s->m);
    eval_free(s->e);
}

/* Banqi rules on a 2x1 board: black general a0, one face-down piece b0 whose pool holds one red
 * and three black pawns (the other three lost unseen). Red's only action is the flip: a red pawn
 * (1/4) leaves the black general with no legal action (it cannot take a pawn): red wins; a black
 * pawn (3/4) leaves red without pieces: red loses. Exact value for red: 1/4 - 3/4 = -1/2. */
static void chance_root_value_converges(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/variants/banqi.ini", XQ_SOURCE_DIR);
    XqError err;
    char *text = ini_read_file(path, &err);
    assert_non_null(text);
    char *a = strstr(text, "files = 8\nranks = 4\ngrid = a0-h3");
    assert_non_null(a);
    memcpy(a, "files = 2\nranks = 1\ngrid = a0-b0", strlen("files = 2\nranks = 1\ngrid = a0-b0"));
    char *st = strstr(text, "start = ");
    char *eol = strchr(st, '\n');
    size_t n = strlen(text) + 64;
    char *out = malloc(n);
    snprintf(out, n, "%.*sstart = kX w - - 0 1 [hidden:P1p3/r]%s", (int)(st - text), text, eol);
    Variant *v = variant_load_text(out, "banqi-2x1", &err);
    if (!v)
        fail_msg("%s", err.message);
    free(text);
    free(out);
    Searcher sr;
    searcher_open(&sr, v, 4000, 100000);
    Position *pos = new_pos();
    pos_init_start(pos, v);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    assert_int_equal(mcts_search(sr.m, pos, &rng, false, &r), 0);
    assert_int_equal(r.nchildren, 1);
    assert_true(hidden_is_chance(pos, r.moves[0]));
    /* The first playout values the root by its evaluation; the other 3,999 average the two
     * outcomes in pool proportion, so the error is at most ~1/4000 plus the stratification's
     * one-visit lag. */
    assert_true(fabs(r.value - (-0.5)) < 0.002);
    searcher_close(&sr);
    variant_free(v);
    free(pos);
}

/* The capturer's knowledge decides the move. Black's only face-down piece stands on the pawn
 * point e6 (it can only step to e5); the public pool r1p1 says it is a chariot or a pawn. If it
 * is a chariot, turning it up on e5 mates red (e0 boxed in by its own pawns d0, f0), so red must
 * make room first (e0e1, d0d1 or f0f1); if it is a pawn, red's h6 pawn should take the free
 * chariot h7. Red took the other identity earlier and knows which (seen_kind; 0: red has seen
 * nothing, as if the piece had been lost unseen to someone else). */
static Move capturer_choice(int seen_kind, float *value)
{
    Variant *v = load_capturer();
    Searcher sr;
    searcher_open(&sr, v, 3000, 0);
    Position *pos = new_pos();
    test_set_fen(pos, v, "3k5/9/7r1/4x2P1/9/9/9/9/9/3PKP3 w - - 0 1 [hidden:r1p1]");
    HiddenKnowledge k;
    memset(&k, 0, sizeof k);
    if (seen_kind)
        k.seen[RED][variant_find_kind_by_letter(v, (char)seen_kind)] = 1;
    mcts_set_knowledge(sr.m, &k);
    Rng rng;
    rng_init(&rng, 1);
    SearchResult r;
    char fen[512];
    pos_get_fen(pos, fen, sizeof fen);
    assert_int_equal(mcts_search(sr.m, pos, &rng, false, &r), 0);
    expect_fen(pos, fen);
    Move best = r.best;
    *value = r.value;
    searcher_close(&sr);
    variant_free(v);
    free(pos);
    return best;
}

static void capturer_knowledge_decides_the_move(void **state)
{
    (void)state;
    Variant *v = load_capturer();
    Move grab = XQ_MOVE(at(v, "h6"), at(v, "h7"));
    Move safe[3] = {XQ_MOVE(at(v, "e0"), at(v, "e1")), XQ_MOVE(at(v, "d0"), at(v, "d1")),
                    XQ_MOVE(at(v, "f0"), at(v, "f1"))};
    variant_free(v);
    float pawn, chariot, unknown;
    /* Red saw the chariot: e6 is a pawn. */
    assert_int_equal(capturer_choice('R', &pawn), grab);
    /* Red saw the pawn: e6 is a chariot. */
    Move m = capturer_choice('P', &chariot);
    assert_true(m == safe[0] || m == safe[1] || m == safe[2]);
    /* Nothing seen (the pool's 50:50): worth less than the sure pawn, more than the chariot
     * (measured: 0.19, -0.39, -0.89). */
    capturer_choice(0, &unknown);
    assert_true(pawn > unknown + 0.2f);
    assert_true(unknown > chariot + 0.2f);
}

/* Games played by the search, each move's identity drawn from the game's deal (as self-play
 * does): the search must leave the position exactly as it found it (FEN, key, lists) and every
 * move played must leave a valid position. Deep do / undo stacks with reveals nested in captures
 * are what random play does not make. */
static void search_games_keep_position(Variant *v, const char *name, int games, int max_plies)
{
    Searcher sr;
    searcher_open(&sr, v, 48, 0);
    Mcts *m = sr.m;
    Position *pos = new_pos();
    Rng rng;
    rng_init(&rng, 7);
    for (int g = 0; g < games; g++) {
        mcts_reset(m);
        pos_init_start(pos, v);
        HiddenDeal d;
        hidden_deal(pos, &rng, &d);
        hidden_show_start(pos, &d, &rng);
        HiddenKnowledge k;
        memset(&k, 0, sizeof k);
        mcts_set_knowledge(m, &k);
        for (int ply = 0; ply < max_plies && pos_game_status(pos).result == RESULT_NONE; ply++) {
            char fen[512], fen2[512], msg[256];
            pos_get_fen(pos, fen, sizeof fen);
            uint64_t key = pos->key;
            SearchResult r;
            assert_int_equal(mcts_search(m, pos, &rng, true, &r), 0);
            pos_get_fen(pos, fen2, sizeof fen2);
            assert_string_equal(fen, fen2);
            assert_true(pos->key == key);
            if (pos_validate(pos, msg, sizeof msg) != 0)
                fail_msg("%s game %d ply %d, after the search: %s", name, g, ply, msg);
            /* The result holds the game's moves: legal here, whatever view the search used. */
            for (int i = 0; i < r.nchildren; i++) {
                MoveList list;
                pos_generate_legal(pos, &list);
                bool found = false;
                for (int j = 0; j < list.count; j++)
                    found |= list.moves[j] == r.moves[i];
                if (!found)
                    fail_msg("%s game %d ply %d: search move %08x is not a game move", name, g,
                             ply, (unsigned)r.moves[i]);
            }
            Move mv = hidden_resolve(pos, mcts_pick(&r, 1.0, &rng), &d);
            assert_false(hidden_is_chance(pos, mv));
            hidden_knowledge_note(pos, mv, &d, &k);
            mcts_advance(m, mv);
            Undo u;
            pos_do_move(pos, mv, &u);
            if (pos_validate(pos, msg, sizeof msg) != 0)
                fail_msg("%s game %d ply %d, after the move: %s", name, g, ply, msg);
        }
    }
    searcher_close(&sr);
    variant_free(v);
    free(pos);
}

static void search_named(const char *name, int games)
{
    search_games_keep_position(test_load_variant(name), name, games, 120);
}

static void search_banqi(void **state) { (void)state; search_named("banqi", 3); }
static void search_banqi_hp(void **state) { (void)state; search_named("banqi-hp", 3); }
static void search_jieqi(void **state) { (void)state; search_named("jieqi", 2); }
static void search_folk(void **state) { (void)state; search_named("jieqi-folk", 2); }
static void search_jieqi_capturer(void **state)
{
    (void)state;
    search_games_keep_position(load_capturer(), "jieqi (capturer)", 2, 120);
}

/* ---- random play ---------------------------------------------------------------------------- */

/* Random games with random deals: every position validates, its FEN round-trips with pools and
 * key, do / undo of every legal drawn move restores the FEN, face-down pieces never outnumber
 * their pools, and games end. */
static void random_games(const char *name, int games)
{
    Variant *v = test_load_variant(name);
    Position *pos = new_pos(), *copy = new_pos();
    Rng rng;
    rng_init(&rng, 12345);
    int ended = 0;
    for (int g = 0; g < games; g++) {
        pos_init_start(pos, v);
        HiddenDeal d;
        hidden_deal(pos, &rng, &d);
        hidden_show_start(pos, &d, &rng);
        for (int ply = 0; ply < 400; ply++) {
            char msg[256], fen[512], fen2[512];
            if (pos_validate(pos, msg, sizeof msg) != 0)
                fail_msg("%s game %d ply %d: %s", name, g, ply, msg);
            pos_get_fen(pos, fen, sizeof fen);
            XqError err;
            if (pos_set_fen(copy, v, fen, &err) != 0)
                fail_msg("%s: FEN '%s' does not read back: %s", name, fen, err.message);
            pos_get_fen(copy, fen2, sizeof fen2);
            assert_string_equal(fen, fen2);
            assert_true(copy->key == pos->key);
            int down = hidden_down_count(pos);
            assert_true(down <= hidden_pool_total(pos, RED) + hidden_pool_total(pos, BLACK));
            MoveList list;
            int n = pos_generate_legal(pos, &list);
            GameStatus st = pos_game_status_n(pos, n);
            if (st.result != RESULT_NONE) {
                ended++;
                break;
            }
            if (g % 16 == 0)
                for (int i = 0; i < n; i++) {
                    Move m = hidden_resolve(pos, list.moves[i], &d);
                    Undo u;
                    pos_do_move(pos, m, &u);
                    pos_undo_move(pos, m, &u);
                    pos_get_fen(pos, fen2, sizeof fen2);
                    assert_string_equal(fen, fen2);
                }
            Move m = hidden_resolve(pos, list.moves[rng_below(&rng, (uint32_t)n)], &d);
            assert_false(hidden_is_chance(pos, m));
            Undo u;
            pos_do_move(pos, m, &u);
        }
    }
    assert_true(ended > 0);
    variant_free(v);
    free(pos);
    free(copy);
}

static void random_banqi(void **state) { (void)state; random_games("banqi", RANDOM_GAMES); }
static void random_banqi_hp(void **state) { (void)state; random_games("banqi-hp", RANDOM_GAMES); }
static void random_jieqi(void **state) { (void)state; random_games("jieqi", RANDOM_GAMES); }
static void random_folk(void **state) { (void)state; random_games("jieqi-folk", RANDOM_GAMES); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(banqi_perft_and_flip),
        cmocka_unit_test(banqi_rank_captures),
        cmocka_unit_test(banqi_exceptions),
        cmocka_unit_test(banqi_cannon_jumps_face_down_screen),
        cmocka_unit_test(banqi_cannon_rank_option),
        cmocka_unit_test(banqi_wins_and_draws),
        cmocka_unit_test(banqi_repetition_draws),
        cmocka_unit_test(banqi_flip_undo_restores),
        cmocka_unit_test(banqi_flip_inside_capture_undo),
        cmocka_unit_test(hp_cannon_never_moves_takes_face_down),
        cmocka_unit_test(hp_capture_table),
        cmocka_unit_test(hp_loss),
        cmocka_unit_test(hp_costs_by_kind),
        cmocka_unit_test(hp_draw_40_flips_do_not_reset),
        cmocka_unit_test(hp_perpetual_chase_loses),
        cmocka_unit_test(hp_standing_threat_is_no_chase),
        cmocka_unit_test(hp_show_start_and_colour_swap),
        cmocka_unit_test(hp_paired_deal_swaps_seats),
        cmocka_unit_test(jieqi_perft_and_reveal),
        cmocka_unit_test(jieqi_face_down_advisor_palace),
        cmocka_unit_test(jieqi_cannon_over_face_down_and_capture_unseen),
        cmocka_unit_test(jieqi_capture_knowledge_both),
        cmocka_unit_test(hidden_option_errors),
        cmocka_unit_test(jieqi_capturer_records_what_it_takes),
        cmocka_unit_test(jieqi_capturer_view),
        cmocka_unit_test(jieqi_move_limit_and_check),
        cmocka_unit_test(jieqi_revealed_pieces_unconfined),
        cmocka_unit_test(jieqi_revealed_pawn_keeps_pawn_rules),
        cmocka_unit_test(jieqi_pool_fen_round_trip),
        cmocka_unit_test(seat_and_colour_of_results),
        cmocka_unit_test(hidden_fen_refusals),
        cmocka_unit_test(folk_perft_and_colour),
        cmocka_unit_test(folk_face_down_not_capturable),
        cmocka_unit_test(folk_face_down_capture_stands),
        cmocka_unit_test(folk_capture_general_wins_no_check),
        cmocka_unit_test(folk_pieces_unconfined),
        cmocka_unit_test(folk_south_red_and_pieces_change_hands),
        cmocka_unit_test(folk_pawn_direction_by_owner),
        cmocka_unit_test(folk_limit_reset_by_reveal),
        cmocka_unit_test(eval_expected_hidden_material),
        cmocka_unit_test(chance_root_value_converges),
        cmocka_unit_test(search_banqi),
        cmocka_unit_test(search_banqi_hp),
        cmocka_unit_test(search_jieqi),
        cmocka_unit_test(search_folk),
        cmocka_unit_test(search_jieqi_capturer),
        cmocka_unit_test(capturer_knowledge_decides_the_move),
        cmocka_unit_test(random_banqi),
        cmocka_unit_test(random_banqi_hp),
        cmocka_unit_test(random_jieqi),
        cmocka_unit_test(random_folk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
