/* test_variants4.c - sniper, mixed, cube and five-tigers (RULES.md 6, 11, 9, 10): hand-made
 * positions for every rule and option, pinned start perft, random-play invariants. Built twice:
 * the fast program plays a few hundred random games per rule set, test_variants4_slow (label
 * slow, -DXQ_SLOW) 10,000 (plus the same hand cases). Expected moves are derived by hand from RULES.md. */
#include "test_util.h"

#include "random_play.h"
#include "rules_test.h"

#include "ini.h"
#include "perft.h"
#include "rng.h"
#include "status.h"

#ifdef XQ_SLOW
enum { RANDOM_GAMES = 10000 };
#else
enum { RANDOM_GAMES = 300 };
#endif
enum { GAME_PLY_CAP = 4000 };

static Position pos, pos2;

/* ---- sniper (RULES.md 6) --------------------------------------------------------------------- */

static void sniper_perft(void **state)
{
    (void)state;
    /* perft.md: counted by an independent engine; depth 1 by hand in docs/variants/sniper.md. */
    static const uint64_t want[] = {54, 2895, 144563, 7174120};
    expect_perft("sniper", want, 4);
}

static void sniper_moves_by_hop_captures_by_slide(void **state)
{
    (void)state;
    Variant *v = test_load_variant("sniper");
    /* Z b4; own pawn b6 (screen), black pawn b8; black rook e4; nothing south or west.
     * North: b5 is no landing (no screen yet), b7 beyond the screen, b8 not capturable by hop.
     * East: e4 captured like a chariot; beyond it f4-j4 by hopping the rook. */
    test_set_fen(&pos, v, "5k4/1p8/10/1P8/10/1Z2r5/10/10/10/3K6 w - - 0 1");
    expect_moves(&pos, "b4", "b7 e4 f4 g4 h4 i4 j4");
    /* No screen on any line: the sniper cannot move at all. */
    test_set_fen(&pos, v, "5k4/10/10/10/Z9/10/10/10/10/3K6 w - - 0 1");
    expect_moves(&pos, "a5", "");
    /* First piece own: no capture; hop beyond an own screen onto empty points only. */
    test_set_fen(&pos, v, "5k4/10/10/10/10/10/10/10/10/ZP1K6 w - - 0 1");
    expect_moves(&pos, "a0", "c0");
    variant_free(v);
}

static void sniper_tenth_palace_point(void **state)
{
    (void)state;
    Variant *v = test_load_variant("sniper");
    /* g1 joins f1 (rank line) and f0, f2 (advisor lines): general and advisors use it. */
    test_set_fen(&pos, v, "4k5/10/10/10/10/10/10/10/6K3/5A4 w - - 0 1");
    expect_moves(&pos, "g1", "f1");
    expect_moves(&pos, "f0", "e1");
    test_set_fen(&pos, v, "4k5/10/10/10/10/10/10/10/6A3/3K6 w - - 0 1");
    expect_moves(&pos, "g1", "f0 f2");
    /* Black's tenth point g8 mirrors it. */
    test_set_fen(&pos, v, "4k5/6a3/10/10/10/10/10/10/10/3K6 b - - 0 1");
    expect_moves(&pos, "g8", "f7 f9");
    variant_free(v);
}

static void sniper_start_pieces(void **state)
{
    (void)state;
    Variant *v = test_load_variant("sniper");
    pos_init_start(&pos, v);
    /* j2 sniper: hops the j3 pawn to j4 / j5, the h2 cannon to g2-c2; the sixth pawn j3 -> j4. */
    expect_moves(&pos, "j2", "c2 d2 e2 f2 g2 j4 j5");
    expect_moves(&pos, "j3", "j4");
    expect_moves(&pos, "i0", "i1 i2 j0");
    variant_free(v);
}

/* ---- mixed (RULES.md 11) --------------------------------------------------------------------- */

static const char *MIXED_BACK = "P1bakabnr/9/1r5p1/2p1p1p1p/9/9/2P1P1P1P/1N5P1/9/R1BAKABNR w - - 0 1";

static void mixed_perft(void **state)
{
    (void)state;
    static const uint64_t want[] = {33, 1081, 34316, 1088710};
    expect_perft("mixed", want, 4);
}

static void mixed_exchange_needs_reserve_and_back_rank(void **state)
{
    (void)state;
    Variant *v = test_load_variant("mixed");
    char fen[256];
    /* Pawn a9 on Black's back rank, a captured red cannon in reserve: the exchange is a move. */
    snprintf(fen, sizeof fen, "%s [reserve:C/]", MIXED_BACK);
    test_set_fen(&pos, v, fen);
    expect_moves(&pos, "a9", "a9=C b9");
    /* No captured cannon: no exchange. */
    snprintf(fen, sizeof fen, "%s [reserve:/]", MIXED_BACK);
    test_set_fen(&pos, v, fen);
    expect_moves(&pos, "a9", "b9");
    /* Only Black has one: Red still cannot. */
    snprintf(fen, sizeof fen, "%s [reserve:/c]", MIXED_BACK);
    test_set_fen(&pos, v, fen);
    expect_moves(&pos, "a9", "b9");
    /* A pawn short of the back rank: no exchange. */
    test_set_fen(&pos, v, "2bakabnr/P8/1r5p1/2p1p1p1p/9/9/2P1P1P1P/1N5P1/9/R1BAKABNR w - - 0 1 [reserve:C/]");
    expect_moves(&pos, "a8", "a9 b8");
    variant_free(v);
}

static void mixed_exchange_plays_and_undoes(void **state)
{
    (void)state;
    Variant *v = test_load_variant("mixed");
    char fen[256];
    snprintf(fen, sizeof fen, "%s [reserve:C/c]", MIXED_BACK);
    test_set_fen(&pos, v, fen);
    expect_fen(&pos, "P1bakabnr/9/1r5p1/2p1p1p1p/9/9/2P1P1P1P/1N5P1/9/R1BAKABNR w - - 0 1 [reserve:C/c]");
    Position before = pos;
    char why[128];
    Move m = move_parse(&pos, "a9a9=C", why, sizeof why);
    assert_int_not_equal(m, XQ_MOVE_NONE);
    Undo u;
    pos_do_move(&pos, m, &u);
    /* The pawn became a cannon, the reserve cannon used; not a capture (counter 0 -> 1). */
    expect_fen(&pos, "C1bakabnr/9/1r5p1/2p1p1p1p/9/9/2P1P1P1P/1N5P1/9/R1BAKABNR b - - 1 1 [reserve:/c]");
    assert_true(pos.key == pos_compute_key(&pos));
    pos_undo_move(&pos, m, &u);
    assert_memory_equal(&pos, &before, offsetof(Position, hist));
    variant_free(v);
}

static void mixed_captured_cannon_goes_to_reserve(void **state)
{
    (void)state;
    Variant *v = test_load_variant("mixed");
    pos_init_start(&pos, v);
    expect_fen(&pos, "rnbakabnr/9/1c5p1/p1p1p1p1p/9/9/P1P1P1P1P/1C5P1/9/RNBAKABNR w - - 0 1 [reserve:/]");
    /* Red's cannon takes the b9 horse (no reserve change: a horse), Black's chariot takes the
     * cannon: Red now has a cannon in reserve. */
    test_play(&pos, "b2b9");
    expect_fen(&pos, "rCbakabnr/9/1c5p1/p1p1p1p1p/9/9/P1P1P1P1P/7P1/9/RNBAKABNR b - - 0 1 [reserve:/]");
    test_play(&pos, "a9b9");
    expect_fen(&pos, "1rbakabnr/9/1c5p1/p1p1p1p1p/9/9/P1P1P1P1P/7P1/9/RNBAKABNR w - - 0 2 [reserve:C/]");
    variant_free(v);
}

static void mixed_exchange_cannot_ignore_check(void **state)
{
    (void)state;
    Variant *v = test_load_variant("mixed");
    /* Red general e0 in check from the rook on e5 (e-file open): exchanging a9 changes nothing
     * on the e-file, so it is illegal; Black's pawn on Red's back rank exchanges as "x0x0=C". */
    test_set_fen(&pos, v, "P2k5/9/9/9/4r4/9/9/9/9/p3K4 w - - 0 1 [reserve:C/c]");
    assert_true(pos.in_check);
    assert_false(has_move(&pos, "a9a9=C"));
    test_set_fen(&pos, v, "P2k5/9/9/9/9/9/9/9/9/p4K3 b - - 0 1 [reserve:C/c]");
    assert_true(has_move(&pos, "a0a0=C"));
    /* A malformed reserve field is rejected. */
    XqError err;
    assert_int_equal(pos_set_fen(&pos2, v, "P2k5/9/9/9/9/9/9/9/9/p4K3 b - - 0 1 [reserve:N/]", &err), -1);
    variant_free(v);
}

/* ---- cube (RULES.md 9) ----------------------------------------------------------------------- */

static void cube_perft(void **state)
{
    (void)state;
    /* d1 = 44 xiangqi moves + 4 rolls; d2 = 1920 + 44 * 4 rolls + 4 rolls * 48 replies = 2288
     * (docs/variants/cube.md); d3, d4 pinned after the hand checks. d4 is 8 fewer than when two
     * general faces up could face each other: the four-ply lines where an advisor leaves its
     * start point and both generals step onto the opened d- or f-file (advisor d0e1 or f0e1,
     * then general e0d0 / e0f0; or general e0e1, then e1d1 / e1f1; against advisor d9e8 then
     * general e9d9, or general e9e8 then e8d8, and the same on the f-file): 2 + 2 + 4. */
    static const uint64_t want[] = {48, 2288, 104170, 4722794};
    expect_perft("cube", want, 4);
}

static void cube_rolls_adjacent_not_twice(void **state)
{
    (void)state;
    Variant *v = test_load_variant("cube");
    pos_init_start(&pos, v);
    /* General face up: the four faces other than general and its opposite, pawn. */
    expect_moves(&pos, "e0e0", "^A ^B ^C ^N");
    test_play(&pos, "e0e0^N e9e9^C");
    expect_fen(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 2 2 [cube:N*/c*]");
    /* Red rolled last turn: no roll now. */
    expect_moves(&pos, "e0e0", "");
    test_play(&pos, "a0a1 i9i8");
    /* Top N: adjacent are K, P, C, A (not N, not its opposite B); Black (top C) may now roll
     * again next turn too. */
    expect_moves(&pos, "e0e0", "^A ^C ^K ^P");
    variant_free(v);
}

static void cube_face_in_key_and_fen(void **state)
{
    (void)state;
    Variant *v = test_load_variant("cube");
    pos_init_start(&pos, v);
    uint64_t k0 = pos.key;
    test_set_fen(&pos2, v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 [cube:N/k]");
    assert_true(pos2.key != k0);
    test_set_fen(&pos2, v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 [cube:K*/k]");
    assert_true(pos2.key != k0);
    test_set_fen(&pos2, v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 [cube:K/k]");
    assert_true(pos2.key == k0);
    XqError err;
    assert_int_equal(pos_set_fen(&pos2, v, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 [cube:R/k]", &err), -1);
    assert_int_equal(pos_set_fen(&pos2, v, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 [cube:k/K]", &err), -1);
    variant_free(v);
}

static void cube_powered_horse_and_elephant(void **state)
{
    (void)state;
    Variant *v = test_load_variant("cube");
    /* Horse c2 with own pawns on the legs c3, b2, d2: b4 / d4 need leg c3, a3 / a1 leg b2,
     * e3 / e1 leg d2, b0 / d0 leg c1 (empty): only b0 and d0 when hobbling applies. */
    const char *base = "3k5/9/9/9/9/9/2P6/1PNP5/9/5K3 w - - 0 1";
    char fen[256];
    snprintf(fen, sizeof fen, "%s [cube:K/k]", base);
    test_set_fen(&pos, v, fen);
    expect_moves(&pos, "c2", "b0 d0");
    /* Horse face up: never hobbled. */
    snprintf(fen, sizeof fen, "%s [cube:N/k]", base);
    test_set_fen(&pos, v, fen);
    expect_moves(&pos, "c2", "a1 a3 b0 b4 d0 d4 e1 e3");
    /* Elephant c0 with the d1 eye blocked: e2 only when the elephant face is up; never across
     * the river either way. */
    snprintf(fen, sizeof fen, "%s", "3k5/9/9/9/9/9/9/9/3P5/2B2K3 w - - 0 1 [cube:K/k]");
    test_set_fen(&pos, v, fen);
    expect_moves(&pos, "c0", "a2");
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/9/9/3P5/2B2K3 w - - 0 1 [cube:B/k]");
    expect_moves(&pos, "c0", "a2 e2");
    variant_free(v);
}

static void cube_powered_advisor_cannon_pawn(void **state)
{
    (void)state;
    Variant *v = test_load_variant("cube");
    /* Advisor d0, face A: e1 and, along the same palace line, f2. */
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/9/9/9/3A1K3 w - - 0 1 [cube:A/k]");
    expect_moves(&pos, "d0", "e1 f2");
    /* No jumping: with e1 occupied the advisor cannot reach f2. */
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/9/9/4P4/3A1K3 w - - 0 1 [cube:A/k]");
    expect_moves(&pos, "d0", "");
    /* Cannon a0 with a pawn on a2 and the general on f0: plain a1 and b0-e0; face C also
     * jumps the pawn to a3..a9 and the general to g0..i0. */
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/9/P8/9/C4K3 w - - 0 1 [cube:K/k]");
    expect_moves(&pos, "a0", "a1 b0 c0 d0 e0");
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/9/P8/9/C4K3 w - - 0 1 [cube:C/k]");
    expect_moves(&pos, "a0", "a1 a3 a4 a5 a6 a7 a8 a9 b0 c0 d0 e0 g0 h0 i0");
    /* Pawn e3 before the river: forward only; face P also sideways, capturing d3. */
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/3pP4/9/9/5K3 w - - 0 1 [cube:K/k]");
    expect_moves(&pos, "e3", "e4");
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/3pP4/9/9/5K3 w - - 0 1 [cube:P/k]");
    expect_moves(&pos, "e3", "d3 e4 f3");
    variant_free(v);
}

/* A general with the general face up attacks along its open file the enemy general whatever that
 * one's top face ("otherwise as xiangqi": two general faces may not face each other either); a
 * general whose general face is down attacks nothing along the file. */
static void cube_face_flying(void **state)
{
    (void)state;
    Variant *v = test_load_variant("cube");
    XqError err;
    /* Open e-file, both general faces up: each attacks the other, so the side not to move is in
     * check whoever is to move: no such position. */
    assert_int_equal(pos_set_fen(&pos2, v, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 [cube:K/k]", &err), -1);
    assert_int_equal(pos_set_fen(&pos2, v, "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1 [cube:K/k]", &err), -1);
    /* Red general face up, Black's not: Black is attacked, so with Red to move it is an
     * illegal position, and with Black to move Black is in check. */
    assert_int_equal(pos_set_fen(&pos2, v, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 [cube:K/n]", &err), -1);
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1 [cube:K/n]");
    assert_true(pos.in_check);
    /* Neither general face up: they may face each other. */
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 [cube:N/c]");
    assert_false(pos.in_check);
    /* Black's general face up checks Red's horse-face general: no roll helps (Black's attack does
     * not depend on Red's face, and the general face up would only attack back); the general
     * steps off the file. */
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 [cube:N/k]");
    assert_true(pos.in_check);
    expect_moves(&pos, "e0", "d0 f0");
    /* Stepping onto the open file of a general-face general is illegal for either face... */
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 [cube:K/k]");
    assert_false(has_move(&pos, "d0e0"));
    assert_true(has_move(&pos, "d0d1"));
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 [cube:N/k]");
    assert_false(has_move(&pos, "d0e0"));
    assert_true(has_move(&pos, "d0d1"));
    /* ... and with the own general face up against a face-down one it is check. */
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 [cube:K/n]");
    test_play(&pos, "d0e0");
    assert_true(pos.in_check);
    variant_free(v);
}

static void cube_options(void **state)
{
    (void)state;
    /* roll_twice = yes: a side may roll again right after rolling. */
    Variant *v = load_text_variant("cube", "roll_twice = no", "roll_twice = yes");
    pos_init_start(&pos, v);
    test_play(&pos, "e0e0^N e9e9^C");
    expect_moves(&pos, "e0e0", "^A ^C ^K ^P");
    variant_free(v);
    /* Another opposite layout: K-N, P-B, C-A leaves K, N out of the first roll. */
    v = load_text_variant("cube", "opposite = K-P, N-B, C-A", "opposite = K-N, P-B, C-A");
    pos_init_start(&pos, v);
    expect_moves(&pos, "e0e0", "^A ^B ^C ^P");
    variant_free(v);
    /* face_flying = no: facing generals never attack. */
    v = load_text_variant("cube", "face_flying = yes", "face_flying = no");
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1 [cube:K/n]");
    assert_false(pos.in_check);
    variant_free(v);
}

/* ---- five tigers (RULES.md 10) --------------------------------------------------------------- */

static void tigers_perft(void **state)
{
    (void)state;
    /* d1 = 7 single moves + 25 ordered pawn pairs; d2 = 32 * 48 (docs/variants/five-tigers.md). */
    static const uint64_t want[] = {32, 1536, 56219, 2560262};
    expect_perft("five-tigers", want, 4);
}

/* perft_divide callback: the leaves below the branch written `want` (ICCS), in ctx. */
typedef struct Branch {
    const Variant *v;
    const char *want;
    int64_t leaves;
} Branch;

static void find_branch(void *ctx, Move m, uint64_t leaves)
{
    Branch *b = ctx;
    char text[24];
    move_to_iccs(b->v, m, text);
    if (!strcmp(text, b->want))
        b->leaves = (int64_t)leaves;
}

/* A turn whose second sub-move takes the black general ends the game: perft counts nothing below
 * it. Red: general d0, pawn e7; Black: chariot a9, general e9. Red has 11 turns (d0d1, d0e0 and
 * nine pawn pairs); e7e8+e8e9 takes the general. Below the other ten Black has 131 replies in
 * all (e.g. after d0d1: the chariot's 9 + 3 points, the general only f9, since e8 is the pawn's
 * and d9 faces the red general: 13), so depth 2 is 131, not 144 with Black moving on without a
 * general. */
static void tigers_perft_after_general_taken(void **state)
{
    (void)state;
    Variant *v = test_load_variant("five-tigers");
    test_set_fen(&pos, v, "r3k4/9/4P4/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_int_equal(perft(&pos, 1), 11);
    Branch taken = {v, "e7e8+e8e9", -1}, quiet = {v, "d0d1", -1};
    assert_int_equal(perft_divide(&pos, 2, find_branch, &taken), 131);
    perft_divide(&pos, 2, find_branch, &quiet);
    assert_int_equal(taken.leaves, 0);
    assert_int_equal(quiet.leaves, 13);
    assert_int_equal(perft(&pos, 2), 131);
    test_play(&pos, "e7e8+e8e9");
    assert_int_equal(perft(&pos, 1), 0);
    GameStatus st = pos_game_status(&pos);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_ROYAL_CAPTURED);
    variant_free(v);
}

/* Repetition follows a piece moved by a turn's second sub-move: Red's pawn goes c5-b5-a5 and back
 * in two-step turns, the black chariot follows it along rank 8 (c8-a8, a8-c8), attacking it
 * (a crossed pawn, unprotected) with every move: Black chases one and the same piece perpetually
 * and loses at the third occurrence. Red attacks nothing and gives no check. */
static void tigers_repetition_follows_second_sub_move(void **state)
{
    (void)state;
    Variant *v = test_load_variant("five-tigers");
    test_set_fen(&pos, v, "3k5/2r6/8P/9/2P6/9/9/9/9/4K4 w - - 0 1 [turn:1]");
    const char *moves[] = {"c5b5+b5a5", "c8a8", "a5b5+b5c5", "a8c8",
                           "c5b5+b5a5", "c8a8", "a5b5+b5c5", "a8c8"};
    for (int i = 0; i < 8; i++) {
        GameStatus st = pos_game_status(&pos);
        if (st.result != RESULT_NONE)
            fail_msg("the game ended before move %d (%s)", i + 1, moves[i]);
        test_play(&pos, moves[i]);
    }
    GameStatus st = pos_game_status(&pos);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_PERPETUAL_CHASE);
    variant_free(v);
}

/* One pawn sideways and back is a turn that changes nothing but the side to move (a pass in
 * effect): allowed by default, forbidden by [multimove] return = forbidden. The crossed pawn e5
 * alone: first e6, d5 or f5, then from each three steps, two of them (d5e5, f5e5) back. */
static void tigers_return_option(void **state)
{
    (void)state;
    const char *fen = "3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1";
    Variant *v = test_load_variant("five-tigers");
    test_set_fen(&pos, v, fen);
    expect_moves(&pos, "e5", "e6+e6e7 e6+e6d6 e6+e6f6 d5+d5d6 d5+d5c5 d5+d5e5 f5+f5f6 f5+f5g5 f5+f5e5");
    variant_free(v);
    v = load_text_variant("five-tigers", "return = allowed", "return = forbidden");
    test_set_fen(&pos, v, fen);
    expect_moves(&pos, "e5", "e6+e6e7 e6+e6d6 e6+e6f6 d5+d5d6 d5+d5c5 f5+f5f6 f5+f5g5");
    char why[256];
    assert_true(move_parse(&pos, "e5d5+d5e5", why, sizeof why) == XQ_MOVE_NONE);
    assert_non_null(strstr(why, "may not bring the pawn back where it started"));
    variant_free(v);
    XqError err;
    assert_null(try_text_variant("five-tigers", "return = allowed", "return = sometimes", &err));
    assert_non_null(strstr(err.message, "return must be allowed or forbidden"));
}

static void tigers_start_turns(void **state)
{
    (void)state;
    Variant *v = test_load_variant("five-tigers");
    pos_init_start(&pos, v);
    expect_fen(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/9/9/2BAKAB2 w - - 0 1 [turn:1]");
    /* The e-pawn first: then itself again or any other pawn; never alone (mandatory). */
    expect_moves(&pos, "e3e4", "+a3a4 +c3c4 +e4e5 +g3g4 +i3i4");
    expect_moves(&pos, "c0", "a2 e2");
    expect_moves(&pos, "e0", "e1");
    /* Playing a turn: both pawns moved, Black to move, one ply. */
    test_play(&pos, "e3e4+g3g4");
    expect_fen(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4P1P2/P1P5P/9/9/2BAKAB2 b - - 1 1 [turn:1]");
    assert_int_equal(pos.ply, 1);
    /* Black moves normally: single moves only. */
    expect_moves(&pos, "a6", "a5");
    variant_free(v);
}

static void tigers_second_move_optional(void **state)
{
    (void)state;
    Variant *v = load_text_variant("five-tigers", "second = mandatory", "second = optional");
    pos_init_start(&pos, v);
    /* The five single pawn moves join the 32 turns. */
    MoveList list;
    assert_int_equal(pos_generate_legal(&pos, &list), 37);
    assert_true(has_move(&pos, "e3e4"));
    variant_free(v);
}

/* A second sub-move is stored within 3 files and 3 ranks: a kind that can go further is
 * refused at load (it used to load with its long second sub-moves silently missing); a horse
 * (2 points) is fine. */
static void tigers_double_reach_checked(void **state)
{
    (void)state;
    XqError err;
    assert_null(try_text_variant("five-tigers", "double = P", "double = PR", &err));
    assert_non_null(strstr(err.message, "[multimove] double: chariot moves up to 9 points away"));
    Variant *v = try_text_variant("five-tigers", "double = P", "double = PN", &err);
    assert_non_null(v);
    variant_free(v);
}

static void tigers_single_when_no_second(void **state)
{
    (void)state;
    Variant *v = test_load_variant("five-tigers");
    /* Black cannon e7 behind two screens (black pawn e5, red pawn e3). After e3e4 the only
     * further pawn move e4xe5 would leave one screen: check. So e3e4 is a whole turn. */
    test_set_fen(&pos, v, "4k4/9/4c4/9/4p4/9/4P4/9/9/4K4 w - - 0 1");
    expect_moves(&pos, NULL, "e0d0 e0e1 e0f0 e3e4");
    variant_free(v);
}

static void tigers_safety_after_each_submove(void **state)
{
    (void)state;
    Variant *v = test_load_variant("five-tigers");
    /* Rook e8 pins the e5 pawn. e5f5 then d5e5 would end with the file closed again, but the
     * first sub-move exposes the general: every turn starting e5f5 / e5d5 is illegal. */
    test_set_fen(&pos, v, "3k5/4r4/9/9/3PP4/9/9/9/9/4K4 w - - 0 1");
    expect_moves(&pos, "e5f5", "");
    expect_moves(&pos, "e5e6", "+d5c5 +d5d6 +d5e5 +e6e7");
    expect_moves(&pos, "d5c5", "+c5b5 +c5c6 +c5d5 +e5e6");
    /* The second sub-move must not expose it either: d5d6 then e5f5 is absent. */
    assert_false(has_move(&pos, "d5d6+e5f5"));
    variant_free(v);
}

static void tigers_pending_state_fen(void **state)
{
    (void)state;
    Variant *v = test_load_variant("five-tigers");
    /* Between the sub-moves (only from a FEN): pawn moves only, no general / elephant moves,
     * no pass while a pawn move is legal. */
    test_set_fen(&pos, v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4P4/P1P3P1P/9/9/2BAKAB2 w - - 0 1 [turn:2]");
    expect_moves(&pos, NULL, "a3a4 c3c4 e4e5 g3g4 i3i4");
    Position before = pos;
    test_play(&pos, "g3g4");
    expect_fen(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4P1P2/P1P5P/9/9/2BAKAB2 b - - 1 1 [turn:1]");
    pos = before;
    XqError err;
    assert_int_equal(pos_set_fen(&pos2, v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4P4/P1P3P1P/9/9/2BAKAB2 b - - 0 1 [turn:2]", &err), -1);
    variant_free(v);
    /* Optional second move: the pass ends the turn. */
    v = load_text_variant("five-tigers", "second = mandatory", "second = optional");
    test_set_fen(&pos, v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4P4/P1P3P1P/9/9/2BAKAB2 w - - 0 1 [turn:2]");
    expect_moves(&pos, NULL, "0000 a3a4 c3c4 e4e5 g3g4 i3i4");
    test_play(&pos, "0000");
    expect_fen(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4P4/P1P3P1P/9/9/2BAKAB2 b - - 1 1 [turn:1]");
    variant_free(v);
}

static void tigers_second_submove_takes_general(void **state)
{
    (void)state;
    Variant *v = test_load_variant("five-tigers");
    /* Black's general e9 is not attacked by a single move, but two pawn steps reach it: the
     * second sub-move takes it and Red wins (project-defined, docs/variants/five-tigers.md). */
    test_set_fen(&pos, v, "4k4/9/4P4/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_true(has_move(&pos, "e7e8+e8e9"));
    test_play(&pos, "e7e8+e8e9");
    expect_fen(&pos, "4P4/9/9/9/9/9/9/9/9/3K5 b - - 0 1 [turn:1]");
    GameStatus st = pos_game_status(&pos);
    assert_int_equal(st.result, RESULT_RED_WINS);
    assert_int_equal(st.reason, TERM_ROYAL_CAPTURED);
    test_set_fen(&pos2, v, "4P4/9/9/9/9/9/9/9/9/3K5 b - - 0 1 [turn:1]");
    variant_free(v);
}

static void tigers_double_capture_undo(void **state)
{
    (void)state;
    Variant *v = test_load_variant("five-tigers");
    /* Crossed pawns d5 and f5 take the black pawns beside them: two captures in one turn. */
    test_set_fen(&pos, v, "3k5/9/9/9/2pP1Pp2/9/9/9/9/4K4 w - - 0 1");
    Position before = pos;
    char why[128];
    Move m = move_parse(&pos, "d5c5+f5g5", why, sizeof why);
    assert_int_not_equal(m, XQ_MOVE_NONE);
    Undo u;
    pos_do_move(&pos, m, &u);
    expect_fen(&pos, "3k5/9/9/9/2P3P2/9/9/9/9/4K4 b - - 0 1 [turn:1]");
    assert_true(pos.key == pos_compute_key(&pos));
    pos_undo_move(&pos, m, &u);
    assert_memory_equal(&pos, &before, offsetof(Position, hist));
    variant_free(v);
}

/* ---- random play: invariants and game ends (tests/random_play.c) -------------------------- */

static void random_games(const char *name)
{
    random_play_games(name, RANDOM_GAMES, GAME_PLY_CAP, 20261130);
}

static void sniper_random(void **state) { (void)state; random_games("sniper"); }
static void mixed_random(void **state) { (void)state; random_games("mixed"); }
static void cube_random(void **state) { (void)state; random_games("cube"); }
static void tigers_random(void **state) { (void)state; random_games("five-tigers"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sniper_perft),
        cmocka_unit_test(sniper_moves_by_hop_captures_by_slide),
        cmocka_unit_test(sniper_tenth_palace_point),
        cmocka_unit_test(sniper_start_pieces),
        cmocka_unit_test(mixed_perft),
        cmocka_unit_test(mixed_exchange_needs_reserve_and_back_rank),
        cmocka_unit_test(mixed_exchange_plays_and_undoes),
        cmocka_unit_test(mixed_captured_cannon_goes_to_reserve),
        cmocka_unit_test(mixed_exchange_cannot_ignore_check),
        cmocka_unit_test(cube_perft),
        cmocka_unit_test(cube_rolls_adjacent_not_twice),
        cmocka_unit_test(cube_face_in_key_and_fen),
        cmocka_unit_test(cube_powered_horse_and_elephant),
        cmocka_unit_test(cube_powered_advisor_cannon_pawn),
        cmocka_unit_test(cube_face_flying),
        cmocka_unit_test(cube_options),
        cmocka_unit_test(tigers_perft),
        cmocka_unit_test(tigers_perft_after_general_taken),
        cmocka_unit_test(tigers_repetition_follows_second_sub_move),
        cmocka_unit_test(tigers_return_option),
        cmocka_unit_test(tigers_start_turns),
        cmocka_unit_test(tigers_second_move_optional),
        cmocka_unit_test(tigers_double_reach_checked),
        cmocka_unit_test(tigers_single_when_no_second),
        cmocka_unit_test(tigers_safety_after_each_submove),
        cmocka_unit_test(tigers_pending_state_fen),
        cmocka_unit_test(tigers_double_capture_undo),
        cmocka_unit_test(tigers_second_submove_takes_general),
        cmocka_unit_test(sniper_random),
        cmocka_unit_test(mixed_random),
        cmocka_unit_test(cube_random),
        cmocka_unit_test(tigers_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
