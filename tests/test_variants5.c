/* test_variants5.c - river camp and tuoqi (RULES.md 7, 8): hand-made positions for every rule
 * and option, pinned start perft, random-play invariants. Built twice: the fast program plays a
 * few hundred random games per rule set, test_variants5_slow (label slow, -DXQ_SLOW) 10,000 (plus
 * the same hand cases). Expected moves are derived by hand from RULES.md. */
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

/* Displacement moves (with '@' after the to point) of the piece on `from`, without the prefix. */
static void expect_displacements(Position *p, const char *from, const char *expected)
{
    MoveList list;
    pos_generate_legal(p, &list);
    char raw[8192] = "", got[8192], want[8192];
    size_t len = 0, fl = strlen(from);
    for (int i = 0; i < list.count; i++) {
        char m[16];
        move_to_iccs(p->v, list.moves[i], m);
        if (strncmp(m, from, fl) == 0 && strchr(m, '@') && m[0] != '@' && m[strlen(m) - 1] != '@')
            len += (size_t)snprintf(raw + len, sizeof raw - len, "%s ", m + fl);
    }
    sort_words(raw, got, sizeof got);
    sort_words(expected, want, sizeof want);
    if (strcmp(got, want) != 0)
        fail_msg("displacements from %s: expected '%s', got '%s'", from, want, got);
}

static int count_prefix(Position *p, const char *prefix)
{
    MoveList list;
    pos_generate_legal(p, &list);
    int n = 0;
    for (int i = 0; i < list.count; i++) {
        char m[16];
        move_to_iccs(p->v, list.moves[i], m);
        n += strncmp(m, prefix, strlen(prefix)) == 0;
    }
    return n;
}

/* ---- river camp (RULES.md 7) ----------------------------------------------------------------- */

static const char *RC_GATES = "4k4/9/9/9/4p4/4P4/2N3P2/9/9/R3K4 w - - 0 1";


static void camp_perft(void **state)
{
    (void)state;
    /* Depth 1 by hand in docs/variants/river-camp.md (42: the 44 of xiangqi without the two
     * cannon moves across the river and their two captures, plus two advisor moves and the two
     * cannons' camp entries). */
    const uint64_t want[] = {42, 1764, 71092};
    expect_perft("river-camp", want, 3);
}

/* Entry needs the move possible up to the river: horse leg free, chariot path clear, pawn on the
 * bank; what stands beyond does not matter. */
static void camp_entry_conditions(void **state)
{
    (void)state;
    Variant *v = test_load_variant("river-camp");
    test_set_fen(&pos, v, RC_GATES);
    assert_int_equal(count_prefix(&pos, "a0@"), 1);
    assert_int_equal(count_prefix(&pos, "c3@"), 1);
    assert_int_equal(count_prefix(&pos, "e4@"), 1);
    assert_int_equal(count_prefix(&pos, "g3@"), 0);
    assert_int_equal(count_prefix(&pos, "e0@"), 0);
    /* A pawn on c4 blocks the horse's leg (and can enter itself from the bank). */
    test_set_fen(&pos, v, "4k4/9/9/9/4p4/2P1P4/2N3P2/9/9/R3K4 w - - 0 1");
    assert_int_equal(count_prefix(&pos, "c3@"), 0);
    assert_int_equal(count_prefix(&pos, "c4@"), 1);
    /* A piece on a3 blocks the chariot's path; one on a5, beyond the river, does not. */
    test_set_fen(&pos, v, "4k4/9/9/9/4p4/4P4/P1N3P2/9/9/R3K4 w - - 0 1");
    assert_int_equal(count_prefix(&pos, "a0@"), 0);
    test_set_fen(&pos, v, "4k4/9/9/9/p3p4/4P4/2N3P2/9/9/R3K4 w - - 0 1");
    assert_int_equal(count_prefix(&pos, "a0@"), 1);
    variant_free(v);
}

/* Three pieces fill the camp: no entry; each kind leaves onto the 8 empty bank points. */
static void camp_capacity_and_leaving(void **state)
{
    (void)state;
    /* The capacity is 1, 2 or 3, the whole value ("2x" was once read as 2). */
    XqError err;
    assert_null(try_text_variant("river-camp", "capacity = 3", "capacity = 2x", &err));
    assert_non_null(strstr(err.message, "[camp] capacity must be 1, 2 or 3, not '2x'"));
    assert_null(try_text_variant("river-camp", "capacity = 3", "capacity = 4", &err));
    Variant *v = test_load_variant("river-camp");
    test_set_fen(&pos, v, "4k4/9/9/9/4p4/4P4/2N3P2/9/9/R3K4 w - - 0 1 [camp:PRN/]");
    expect_fen(&pos, "4k4/9/9/9/4p4/4P4/2N3P2/9/9/R3K4 w - - 0 1 [camp:NRP/]");
    assert_int_equal(count_prefix(&pos, "a0@") + count_prefix(&pos, "c3@") + count_prefix(&pos, "e4@"), 0);
    expect_moves(&pos, "R@", "a5 b5 c5 d5 f5 g5 h5 i5");
    assert_int_equal(count_prefix(&pos, "N@"), 8);
    assert_int_equal(count_prefix(&pos, "P@"), 8);
    char why[128];
    assert_int_equal(move_parse(&pos, "R@e5", why, sizeof why), XQ_MOVE_NONE); /* no capture */
    assert_int_not_equal(pos_set_fen(&pos2, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 [camp:RRNP/]", &err), 0);
    assert_int_not_equal(pos_set_fen(&pos2, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 [camp:B/]", &err), 0);
    variant_free(v);
}

/* The camp is in the FEN and the key; undo restores the position byte for byte. */
static void camp_state_fen_key_undo(void **state)
{
    (void)state;
    Variant *v = test_load_variant("river-camp");
    pos_init_start(&pos, v);
    Position before = pos;
    char why[128];
    Move m = move_parse(&pos, "h2@", why, sizeof why);
    assert_int_not_equal(m, XQ_MOVE_NONE);
    Undo u;
    pos_do_move(&pos, m, &u);
    expect_fen(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 1 1 [camp:C/]");
    assert_true(pos.key == pos_compute_key(&pos));
    assert_true(pos.key != before.key);
    pos_undo_move(&pos, m, &u);
    assert_memory_equal(&pos, &before, offsetof(Position, hist));
    /* Leaving and its undo. */
    test_play(&pos, "h2@ b7@");
    Position mid = pos;
    m = move_parse(&pos, "@h5", why, sizeof why);
    assert_int_not_equal(m, XQ_MOVE_NONE);
    pos_do_move(&pos, m, &u);
    expect_fen(&pos, "rnbakabnr/9/7c1/p1p1p1p1p/7C1/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 3 2 [camp:/c]");
    assert_true(pos.key == pos_compute_key(&pos));
    pos_undo_move(&pos, m, &u);
    assert_memory_equal(&pos, &mid, offsetof(Position, hist));
    variant_free(v);
}

/* No direct crossing except chariots and cannons on the edge files. */
/* The camp holds pieces that exist: with both chariots on the board no chariot is in the camp. */
static void camp_contents_within_the_set(void **state)
{
    (void)state;
    Variant *v = test_load_variant("river-camp");
    XqError err;
    test_set_fen(&pos, v, "4k4/9/9/9/4p4/4P4/2N3P2/9/9/R3K4 w - - 0 1 [camp:R/]");
    assert_int_equal(pos_set_fen(&pos, v, "4k4/9/9/9/4p4/4P4/2N3P2/9/9/R3K3R w - - 0 1 [camp:R/]",
                                 &err), -1);
    assert_non_null(strstr(err.message, "3 red chariots (on the board and held off it), but the rule set has 2"));
    assert_int_equal(pos_set_fen(&pos, v, "4k4/9/9/9/4p4/4P4/2N3P2/9/9/R3K4 w - - 0 1 [camp:PPP/ppp] "
                                 "[camp:/]", &err), -1);
    assert_non_null(strstr(err.message, "given twice"));
    variant_free(v);
}

static void camp_no_direct_crossing(void **state)
{
    (void)state;
    Variant *v = test_load_variant("river-camp");
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/4R4/9/9/R3K4 w - - 0 1");
    expect_moves(&pos, "e3", "e4 e2 e1 f3 g3 h3 i3 d3 c3 b3 a3 @");
    expect_moves(&pos, "a0", "a1 a2 a3 a4 a5 a6 a7 a8 a9 b0 c0 d0 @");
    /* A horse in its own half never lands across the river. */
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/2N6/9/9/3K5 w - - 0 1");
    expect_moves(&pos, "c3", "a4 a2 b1 d1 e2 e4 @");
    variant_free(v);
}

/* A crossed pawn steps forward, backward or sideways, never back across the river. */
static void camp_crossed_pawn(void **state)
{
    (void)state;
    Variant *v = test_load_variant("river-camp");
    test_set_fen(&pos, v, "3k5/9/9/4P4/2P6/9/9/9/9/4K4 w - - 0 1");
    expect_moves(&pos, "e6", "e7 d6 f6 e5");
    expect_moves(&pos, "c5", "c6 b5 d5");
    variant_free(v);
}

/* General and advisors anywhere in the 27-point back area. */
static void camp_back_area(void **state)
{
    (void)state;
    Variant *v = test_load_variant("river-camp");
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/9/9/2K3A2/9 w - - 0 1");
    expect_moves(&pos, "c1", "b1 d1 c0 c2");
    expect_moves(&pos, "g1", "f0 h0 f2 h2");
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/9/K8/9/9 w - - 0 1");
    expect_moves(&pos, "a2", "a1 b2");
    variant_free(v);
}

/* Facing is allowed, is check by the side that made it, and must be ended. */
static void camp_facing_is_check(void **state)
{
    (void)state;
    Variant *v = test_load_variant("river-camp");
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_true(has_move(&pos, "d0e0"));
    test_play(&pos, "d0e0");
    assert_true(pos.in_check);
    assert_false(pos_royal_attacked(&pos, RED));
    expect_moves(&pos, NULL, "e9d9 e9f9");
    variant_free(v);
    /* facing = ignore: no check, the black general may stay on the file. */
    v = load_text_variant("river-camp", "facing = check", "facing = ignore");
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    test_play(&pos, "d0e0");
    assert_false(pos.in_check);
    expect_moves(&pos, NULL, "e9d9 e9f9 e9e8");
    variant_free(v);
}

/* "@e5" names the leaving piece only when one kind can land there. */
static void camp_notation(void **state)
{
    (void)state;
    Variant *v = test_load_variant("river-camp");
    char why[128];
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 [camp:NR/]");
    assert_int_equal(move_parse(&pos, "@c5", why, sizeof why), XQ_MOVE_NONE);
    Move r = move_parse(&pos, "R@c5", why, sizeof why);
    assert_int_not_equal(r, XQ_MOVE_NONE);
    char text[16];
    move_to_iccs(v, r, text);
    assert_string_equal(text, "R@c5");
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 [camp:R/]");
    assert_int_equal(move_parse(&pos, "@c5", why, sizeof why), r);
    variant_free(v);
}

/* Entering removes the piece from the board: not allowed if that exposes the general. */
static void camp_entry_must_keep_general_safe(void **state)
{
    (void)state;
    Variant *v = test_load_variant("river-camp");
    /* The red pawn a4 shields the general a0 from the chariot a9 (edge files cross). */
    test_set_fen(&pos, v, "r2k5/9/9/9/9/P8/9/9/9/K8 w - - 0 1");
    assert_int_equal(count_prefix(&pos, "a4@"), 0);
    test_set_fen(&pos, v, "n2k5/9/9/9/9/P8/9/9/9/K8 w - - 0 1");
    assert_int_equal(count_prefix(&pos, "a4@"), 1);
    variant_free(v);
}

/* ---- tuoqi (RULES.md 8) ---------------------------------------------------------------------- */

static void tuoqi_perft(void **state)
{
    (void)state;
    /* Depth 1 by hand in docs/variants/tuoqi.md. */
    const uint64_t want[] = {56, 3132, 172308};
    expect_perft("tuoqi", want, 3);
}

/* The ring: straight sides, no turning at corners; the queen points join it to the f file. */
static void tuoqi_ring_sliders(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/11/11/11/11/4K6/R10 w - - 0 1");
    expect_moves(&pos, "a0", "a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 b0 c0 d0 e0 f0 g0 h0 i0 j0 k0");
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/11/11/11/11/4K6/5R5 w - - 0 1");
    expect_moves(&pos, "f0", "f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 f11 a0 b0 c0 d0 e0 g0 h0 i0 j0 k0");
    variant_free(v);
}

/* Queens: palaces and ring only; horses never land on the ring; generals walk the ring. */
static void tuoqi_queen_horse_general(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/11/11/11/11/4K6/5Q5 w - - 0 1");
    expect_moves(&pos, "f0", "f1 f2 f3 a0 b0 c0 d0 e0 g0 h0 i0 j0 k0");
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/11/11/11/11/2N1K6/11 w - - 0 1");
    expect_moves(&pos, "c1", "b3 d3 e2");
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/11/11/11/11/11/5K5 w - - 0 1");
    expect_moves(&pos, "f0", "e0 g0 f1");
    variant_free(v);
}

/* Facing generals are forbidden on every straight line, ring sides included. */
static void tuoqi_facing_any_line(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    XqError err;
    assert_int_not_equal(pos_set_fen(&pos, v, "11/11/11/11/11/11/11/11/11/k10/11/K10 w - - 0 1", &err), 0);
    assert_int_not_equal(pos_set_fen(&pos, v, "5k5/11/11/11/11/11/11/11/11/11/11/5K5 w - - 0 1", &err), 0);
    /* b0 and b11 lie on different ring sides: no line joins them. */
    assert_int_equal(pos_set_fen(&pos, v, "1k9/11/11/11/11/11/11/11/11/11/11/1K9 w - - 0 1", &err), 0);
    variant_free(v);
}

/* A pawn stepping onto the enemy queen point is a queen at once; undo brings the pawn back. */
static void tuoqi_promotion(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/5P5/4k6/11/11/11/11/11/11/11/5K5/11 w - - 0 1");
    expect_moves(&pos, "f10", "f11 e10 g10");
    Position before = pos;
    char why[128];
    Move m = move_parse(&pos, "f10f11", why, sizeof why);
    assert_int_not_equal(m, XQ_MOVE_NONE);
    Undo u;
    pos_do_move(&pos, m, &u);
    expect_fen(&pos, "5Q5/11/4k6/11/11/11/11/11/11/11/5K5/11 b - - 1 1");
    assert_true(pos.key == pos_compute_key(&pos));
    pos_undo_move(&pos, m, &u);
    assert_memory_equal(&pos, &before, offsetof(Position, hist));
    variant_free(v);
}

/* A pawn reaching the enemy queen point by its displacement jump (diagonally over the palace
 * corner onto the queen) is promoted too: d9 over e10 to f11 sends the queen to a0 and the pawn
 * is a queen with the queen's moves; undo restores the pawn and the queen. Black likewise: d2
 * over e1 to f0. */
static void tuoqi_promotion_by_displacement(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    const char *fens[2] = {"5q5/4a6/3P7/6k4/11/11/11/11/11/11/4K6/11 w - - 0 1",
                           "11/4k6/11/11/11/11/11/11/11/3p7/4A1K4/5Q5 b - - 0 1"};
    const char *moves[2] = {"d9f11@a0", "d2f0@k11"};
    const char *after[2] = {"5Q5/4a6/11/6k4/11/11/11/11/11/11/4K6/q10 b - - 1 1",
                            "10Q/4k6/11/11/11/11/11/11/11/11/4A1K4/5q5 w - - 1 2"};
    for (int i = 0; i < 2; i++) {
        test_set_fen(&pos, v, fens[i]);
        Position before = pos;
        char why[128];
        Move m = move_parse(&pos, moves[i], why, sizeof why);
        if (m == XQ_MOVE_NONE)
            fail_msg("%s: %s", moves[i], why);
        Undo u;
        pos_do_move(&pos, m, &u);
        expect_fen(&pos, after[i]);
        assert_true(pos.key == pos_compute_key(&pos));
        char msg[128];
        assert_int_equal(pos_validate(&pos, msg, sizeof msg), 0);
        pos_undo_move(&pos, m, &u);
        assert_memory_equal(&pos, &before, offsetof(Position, hist));
    }
    /* The promoted queen moves as a queen: from f11 along the ring and into the palace. */
    test_set_fen(&pos, v, "5Q5/4a6/11/6k4/11/11/11/11/11/11/4K6/q10 w - - 1 1");
    assert_true(count_prefix(&pos, "f11") > 0);
    assert_true(has_move(&pos, "f11g11"));
    variant_free(v);
}

/* Chariot: over exactly three adjacent pieces; X (an elephant) makes one or two of its moves. */
static void tuoqi_displace_chariot(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/6k4/11/11/11/1b9/1p9/1P9/1N9/1R9/4K6/11 w - - 0 1");
    expect_displacements(&pos, "b2", "b6@d8 b6@b10 b6@f10 b6@f6");
    /* Forbidden: X (a pawn that cannot step forward) has no move. */
    test_set_fen(&pos, v, "11/6k4/11/11/11/1p9/1p9/1P9/1N9/1R9/4K6/11 w - - 0 1");
    expect_displacements(&pos, "b2", "");
    variant_free(v);
}

static void tuoqi_displace_horse(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/3p7/11/11/2N8/4K6/11 w - - 0 1");
    expect_displacements(&pos, "c2", "d5@d4 d5@c5 d5@e5 d5@d3 d5@c4 d5@e4 d5@b5 d5@f5");
    /* A piece on either point straight ahead (c3 here) blocks it. */
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/3p7/11/2P8/2N8/4K6/11 w - - 0 1");
    expect_displacements(&pos, "c2", "");
    variant_free(v);
}

static void tuoqi_displace_cannon(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/6k4/11/3p7/11/11/11/3p7/11/3P7/3CK6/11 w - - 0 1");
    expect_displacements(&pos, "d1", "d8@d7 d8@d6");
    variant_free(v);
}

static void tuoqi_displace_pawn(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/6k4/11/11/5p5/4p6/3P7/11/11/11/4K6/11 w - - 0 1");
    expect_displacements(&pos, "d5", "f7@f6 f7@f5");
    variant_free(v);
}

/* General: two steps in a line; X may not end up checking the mover's general (e3, g3). */
static void tuoqi_displace_general(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/4k6/11/11/11/11/11/11/5p5/11/5K5/11 w - - 0 1");
    expect_displacements(&pos, "f1", "f3@f2 f3@f1 f3@e2 f3@g2 f3@d3 f3@h3");
    variant_free(v);
}

static void tuoqi_displace_advisor(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/4k6/11/11/11/11/11/11/6p4/11/4AK5/11 w - - 0 1");
    expect_displacements(&pos, "e1", "g3@g2 g3@f3 g3@h3 g3@h2 g3@e3 g3@i3");
    variant_free(v);
}

static void tuoqi_displace_elephant(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/5p5/11/11/11/1B2K6/11 w - - 0 1");
    expect_displacements(&pos, "b1", "f5@f4 f5@e5 f5@g5 f5@f3 f5@e4 f5@g4 f5@d5 f5@h5");
    variant_free(v);
}

/* Camel: one diagonal step. Forbidden: leaving the own general facing the enemy one, unless X
 * is sent onto the file between them. */
static void tuoqi_displace_camel(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/6k4/11/11/11/5p5/4T6/11/11/11/4K6/11 w - - 0 1");
    expect_displacements(&pos, "e5", "f6@f5 f6@f4 f6@e5 f6@g5");
    test_set_fen(&pos, v, "11/4k6/11/11/11/5p5/4T6/11/11/11/4K6/11 w - - 0 1");
    expect_displacements(&pos, "e5", "f6@e5");
    variant_free(v);
}

/* Queen: across the undrawn diagonal f1-e2 of a palace square; play, notation, undo. */
static void tuoqi_displace_queen(void **state)
{
    (void)state;
    Variant *v = test_load_variant("tuoqi");
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/11/11/11/4p6/4KQ5/11 w - - 0 1");
    expect_displacements(&pos, "f1", "e2@d2 e2@f2 e2@c2 e2@g2");
    Position before = pos;
    char why[128];
    Move m = move_parse(&pos, "f1e2@f2", why, sizeof why);
    assert_int_not_equal(m, XQ_MOVE_NONE);
    Undo u;
    pos_do_move(&pos, m, &u);
    expect_fen(&pos, "11/6k4/11/11/11/11/11/11/11/4Qp5/4K6/11 b - - 1 1");
    assert_true(pos.key == pos_compute_key(&pos));
    pos_undo_move(&pos, m, &u);
    assert_memory_equal(&pos, &before, offsetof(Position, hist));
    variant_free(v);
}

/* moves = 1: X makes exactly one move. */
static void tuoqi_displace_one_move_option(void **state)
{
    (void)state;
    Variant *v = load_text_variant("tuoqi", "moves = 2", "moves = 1");
    test_set_fen(&pos, v, "11/6k4/11/11/11/11/3p7/11/11/2N8/4K6/11 w - - 0 1");
    expect_displacements(&pos, "c2", "d5@d4 d5@c5 d5@e5");
    variant_free(v);
}

/* ---- random play: invariants and game ends (tests/random_play.c) -------------------------- */

static void random_games(const char *name)
{
    random_play_games(name, RANDOM_GAMES, GAME_PLY_CAP, 20261130);
}

static void camp_random(void **state) { (void)state; random_games("river-camp"); }
static void tuoqi_random(void **state) { (void)state; random_games("tuoqi"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(camp_perft),
        cmocka_unit_test(camp_entry_conditions),
        cmocka_unit_test(camp_capacity_and_leaving),
        cmocka_unit_test(camp_state_fen_key_undo),
        cmocka_unit_test(camp_contents_within_the_set),
        cmocka_unit_test(camp_no_direct_crossing),
        cmocka_unit_test(camp_crossed_pawn),
        cmocka_unit_test(camp_back_area),
        cmocka_unit_test(camp_facing_is_check),
        cmocka_unit_test(camp_notation),
        cmocka_unit_test(camp_entry_must_keep_general_safe),
        cmocka_unit_test(tuoqi_perft),
        cmocka_unit_test(tuoqi_ring_sliders),
        cmocka_unit_test(tuoqi_queen_horse_general),
        cmocka_unit_test(tuoqi_facing_any_line),
        cmocka_unit_test(tuoqi_promotion),
        cmocka_unit_test(tuoqi_promotion_by_displacement),
        cmocka_unit_test(tuoqi_displace_chariot),
        cmocka_unit_test(tuoqi_displace_horse),
        cmocka_unit_test(tuoqi_displace_cannon),
        cmocka_unit_test(tuoqi_displace_pawn),
        cmocka_unit_test(tuoqi_displace_general),
        cmocka_unit_test(tuoqi_displace_advisor),
        cmocka_unit_test(tuoqi_displace_elephant),
        cmocka_unit_test(tuoqi_displace_camel),
        cmocka_unit_test(tuoqi_displace_queen),
        cmocka_unit_test(tuoqi_displace_one_move_option),
        cmocka_unit_test(camp_random),
        cmocka_unit_test(tuoqi_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
