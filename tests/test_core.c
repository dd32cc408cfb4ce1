/* test_core.c - rules core tests: golden perft, invariants under random play, hand-made piece
 * rule positions, FEN and variant-file errors, ICCS parsing and WXF notation. */
#include "test_util.h"

#include <dirent.h>

#include "data/perft_table.h"
#include "perft.h"
#include "rng.h"

static Variant *xq; /* standard xiangqi, loaded once for the whole group */
static Position pos, pos2;

static int load_xiangqi(void **state)
{
    (void)state;
    XqError err;
    xq = variant_load_file(XQ_SOURCE_DIR "/configs/variants/xiangqi.ini", &err);
    return xq ? 0 : -1;
}

static int free_xiangqi(void **state)
{
    (void)state;
    variant_free(xq);
    return 0;
}

/* ---- helpers -------------------------------------------------------------------------------- */

static Point point_named(const char *name)
{
    const char *s = name;
    Point p = variant_parse_point(xq, &s);
    if (p == XQ_NO_POINT || *s)
        fail_msg("'%s' is not a point", name);
    return p;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorts the blank-separated words of `in` into `out`, joined by single blanks. */
static void sort_words(const char *in, char *out, size_t size)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", in);
    char *words[512];
    int n = 0;
    for (char *w = strtok(buf, " "); w && n < 512; w = strtok(NULL, " "))
        words[n++] = w;
    qsort(words, (size_t)n, sizeof *words, compare_strings);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s%s", i ? " " : "", words[i]);
}

/* Legal moves of the position in ICCS, optionally only those from one point (NULL: all). */
static void legal_moves_text(Position *p, const char *from, char *out, size_t size)
{
    MoveList list;
    pos_generate_legal(p, &list);
    char raw[4096] = "";
    size_t len = 0;
    Point f = from ? point_named(from) : XQ_NO_POINT;
    for (int i = 0; i < list.count; i++) {
        if (from && XQ_MOVE_FROM(list.moves[i]) != f)
            continue;
        char m[16];
        move_to_iccs(p->v, list.moves[i], m);
        /* Keep only the destination when listing one piece's moves. */
        len += (size_t)snprintf(raw + len, sizeof raw - len, "%s ", from ? m + strlen(from) : m);
    }
    sort_words(raw, out, size);
}

/* The legal destinations of the piece on `from` must be exactly `expected` (any order). */
static void expect_dests(const char *fen, const char *from, const char *expected)
{
    test_set_fen(&pos, xq, fen);
    char got[4096], want[4096];
    legal_moves_text(&pos, from, got, sizeof got);
    sort_words(expected, want, sizeof want);
    if (strcmp(got, want) != 0)
        fail_msg("%s, piece on %s: legal destinations [%s], expected [%s]", fen, from, got, want);
}

/* All legal moves of the position must be exactly `expected` (ICCS, any order). */
static void expect_all_moves(const char *fen, const char *expected)
{
    test_set_fen(&pos, xq, fen);
    char got[4096], want[4096];
    legal_moves_text(&pos, NULL, got, sizeof got);
    sort_words(expected, want, sizeof want);
    if (strcmp(got, want) != 0)
        fail_msg("%s: legal moves [%s], expected [%s]", fen, got, want);
    int words = 0;
    for (const char *c = want; *c; c++)
        words += (c == want || c[-1] == ' ') && *c != ' ';
    assert_int_equal(pos_count_legal(&pos), words);
}

/* ---- perft ---------------------------------------------------------------------------------- */

static void perft_published_depth4(void **state)
{
    (void)state;
    for (int i = 0; i < PERFT_NCASES; i++) {
        test_set_fen(&pos, xq, PERFT_CASES[i].fen);
        for (int d = 1; d <= 4; d++) {
            uint64_t got = perft(&pos, d);
            if (got != PERFT_CASES[i].nodes[d])
                fail_msg("position %d (%s): perft(%d) = %llu, expected %llu", i + 1,
                         PERFT_CASES[i].fen, d, (unsigned long long)got,
                         (unsigned long long)PERFT_CASES[i].nodes[d]);
        }
    }
}

/* Leaves that are captures and leaves that give check, as in perft.md's published split. */
static void perft_split(Position *p, int depth, uint64_t *captures, uint64_t *checks)
{
    MoveList list;
    pos_generate_legal(p, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        bool capture = p->board[XQ_MOVE_TO(m)] != XQ_EMPTY;
        Undo u;
        pos_do_move(p, m, &u);
        if (depth == 1) {
            *captures += capture;
            *checks += p->in_check;
        } else {
            perft_split(p, depth - 1, captures, checks);
        }
        pos_undo_move(p, m, &u);
    }
}

static void perft_start_captures_and_checks(void **state)
{
    (void)state;
    static const uint64_t want_checks[] = {0, 0, 6, 384}, want_captures[] = {0, 2, 72, 3159};
    for (int d = 1; d <= 3; d++) {
        uint64_t captures = 0, checks = 0;
        pos_init_start(&pos, xq);
        perft_split(&pos, d, &captures, &checks);
        assert_int_equal(captures, want_captures[d]);
        assert_int_equal(checks, want_checks[d]);
    }
}

/* ---- invariants under random play ------------------------------------------------------------ */

enum { GAME_PLY_CAP = 300, RANDOM_GAMES = 10000 };

typedef struct Snapshot {
    unsigned char head[offsetof(Position, hist)];
} Snapshot;

static Snapshot snaps[GAME_PLY_CAP];
static Move played[GAME_PLY_CAP];
static Undo undos[GAME_PLY_CAP];
static HistoryEntry hist_copy[GAME_PLY_CAP];

static void check_fen_round_trip(const Position *p)
{
    char a[512], b[512];
    XqError err;
    pos_get_fen(p, a, sizeof a);
    if (pos_set_fen(&pos2, p->v, a, &err) != 0)
        fail_msg("written FEN '%s' is rejected: %s", a, err.message);
    pos_get_fen(&pos2, b, sizeof b);
    if (strcmp(a, b) != 0)
        fail_msg("FEN '%s' reads back as '%s'", a, b);
    if (pos2.key != p->key)
        fail_msg("FEN '%s' reads back with a different key", a);
    if (pos2.in_check != p->in_check)
        fail_msg("FEN '%s' reads back with a different check flag", a);
}

/* A uniformly random legal move, or XQ_MOVE_NONE if there is none. Draws from the pseudo-legal
 * list and discards illegal draws, which is uniform over the legal moves and much cheaper than
 * full legal generation (the generators are pinned by perft; `cross_check` compares them too). */
static Move random_legal_move(Position *p, Rng *rng, bool cross_check)
{
    MoveList list;
    pos_generate_pseudo(p, &list);
    int legal = -1;
    if (cross_check) {
        MoveList full;
        legal = pos_generate_legal(p, &full);
        if (legal != pos_count_legal(p))
            fail_msg("generate (%d) and count (%d) disagree", legal, pos_count_legal(p));
    }
    int left = list.count;
    while (left > 0) {
        int i = (int)rng_below(rng, (uint32_t)left);
        Move m = list.moves[i];
        if (pos_is_legal(p, m)) {
            if (cross_check && !pos_move_is_legal(p, m))
                fail_msg("a legal move is missing from the legal list");
            return m;
        }
        list.moves[i] = list.moves[--left];
    }
    if (cross_check && legal != 0)
        fail_msg("no legal move found, but the generator lists %d", legal);
    return XQ_MOVE_NONE;
}

/* Plays one random game from *p (up to the ply cap or the end), checking the key, the internal
 * lists and (if asked) the FEN round trip after every move, then undoes the whole game checking
 * that each undo restores the position byte for byte. Returns the plies played. */
static int random_game(Position *p, Rng *rng, bool fen_every_ply)
{
    int base = p->hist_len, n = 0;
    char msg[256];
    for (; n < GAME_PLY_CAP; n++) {
        Move m = random_legal_move(p, rng, fen_every_ply);
        if (m == XQ_MOVE_NONE)
            break;
        memcpy(snaps[n].head, p, sizeof snaps[n].head);
        played[n] = m;
        bool gives = pos_gives_check(p, m);
        pos_do_move(p, m, &undos[n]);
        if (gives != p->in_check)
            fail_msg("ply %d: pos_gives_check says %d, the move gave check %d", n, gives, p->in_check);
        if (p->key != pos_compute_key(p))
            fail_msg("incremental key differs from the recomputed key at ply %d", n);
        if (pos_validate(p, msg, sizeof msg) != 0)
            fail_msg("ply %d: %s", n, msg);
        if (pos_royal_attacked(p, XQ_OTHER(p->side)))
            fail_msg("ply %d: a legal move left the mover's general attacked", n);
        if (p->in_check != pos_royal_attacked(p, p->side))
            fail_msg("ply %d: in_check flag is wrong", n);
        if (fen_every_ply)
            check_fen_round_trip(p);
    }
    if (!fen_every_ply)
        check_fen_round_trip(p);
    assert_int_equal(p->hist_len, base + n);
    memcpy(hist_copy, p->hist + base, (size_t)n * sizeof *hist_copy);
    for (int i = n - 1; i >= 0; i--) {
        pos_undo_move(p, played[i], &undos[i]);
        if (memcmp(p, snaps[i].head, sizeof snaps[i].head) != 0)
            fail_msg("undo of ply %d does not restore the position byte for byte", i);
        const HistoryEntry *h = &hist_copy[i];
        if (h->key != p->key || h->move != played[i] || h->captured != undos[i].captured)
            fail_msg("history entry of ply %d does not describe the move", i);
    }
    /* Undo only shortens the history: the entries that stay live keep their bytes. */
    if (n && memcmp(p->hist + base, hist_copy, (size_t)n * sizeof *hist_copy) != 0)
        fail_msg("undo changed a live history entry");
    return n;
}

static void random_games_keep_invariants(void **state)
{
    (void)state;
    /* The start position and every perft position take turns as the first position. */
    Rng rng;
    rng_init(&rng, 20240601);
    long total = 0;
    for (int g = 0; g < RANDOM_GAMES; g++) {
        int start = g % (PERFT_NCASES + 1);
        if (start == PERFT_NCASES)
            pos_init_start(&pos, xq);
        else
            test_set_fen(&pos, xq, PERFT_CASES[start].fen);
        /* A full FEN round trip after every ply on one game in eight, at the end on the rest. */
        total += random_game(&pos, &rng, g % 8 == 0);
    }
    /* Most random games run long; a tiny total would mean the games stopped early. */
    assert_true(total > (long)RANDOM_GAMES * 50);
}

/* ---- piece rules (hand-made positions; expected moves derived from RULES.md section 1) ------- */

static void horse_leg(void **state)
{
    (void)state;
    /* Red horse b0 has a2, c2 (leg b1) and d1 (leg c0); the red pawn on b1 blocks a2 and c2. */
    const char *fen = "3k5/9/9/9/4p4/4N4/6p2/9/1P7/1N3K3 w - - 0 1";
    expect_dests(fen, "b0", "d1");
    /* Horse e4: d6 / f6 need leg e5 (black pawn there: blocked); d2 / f2 leg e3, c5 / c3 leg d4,
     * g5 / g3 leg f4 are free; g3 holds a black pawn and is a capture. */
    expect_dests(fen, "e4", "d2 f2 c5 c3 g5 g3");
    /* Without the blockers: b0 reaches a2, c2, d1. */
    expect_dests("3k5/9/9/9/9/9/9/9/9/1N3K3 w - - 0 1", "b0", "a2 c2 d1");
    /* A horse gives check only through a free leg: black horse g2 checks e1 via leg f2. */
    test_set_fen(&pos, xq, "3k5/9/9/9/9/9/9/6n2/4K4/9 w - - 0 1");
    assert_true(pos.in_check);
    test_set_fen(&pos, xq, "3k5/9/9/9/9/9/9/5An2/4K4/9 w - - 0 1");
    assert_false(pos.in_check);
}

static void elephant_eye_and_river(void **state)
{
    (void)state;
    /* Red elephant c4: a2 (eye b3), e2 (eye d3 holds a red pawn: blocked); a6 and e6 lie across
     * the river. Elephant g0: e2 (eye f1) and i2 (eye h1). */
    const char *fen = "5k3/9/9/9/2b6/2B6/3P5/9/9/3K2B2 w - - 0 1";
    expect_dests(fen, "c4", "a2");
    expect_dests(fen, "g0", "e2 i2");
    /* Black elephant c5 (mirrored): a7 and e7 only; a3 / e3 are across the river. */
    expect_dests("5k3/9/9/9/2b6/2B6/3P5/9/9/3K2B2 b - - 0 1", "c5", "a7 e7");
}

static void advisor_and_general_in_palace(void **state)
{
    (void)state;
    /* The e-file is closed by a black pawn on e6: general d2 steps to d1 or e2 (c2 and d3 are
     * outside the palace, diagonal steps are not general moves). Advisor f0 has only e1. */
    const char *fen = "4k4/9/9/4p4/9/9/9/3K5/9/5A3 w - - 0 1";
    expect_dests(fen, "d2", "d1 e2");
    expect_dests(fen, "f0", "e1");
    /* Advisor on the palace centre reaches all four corners. */
    expect_dests("3k5/9/9/9/9/9/9/9/4A4/5K3 w - - 0 1", "e1", "d0 d2 f2");
    /* General on e1 steps orthogonally to f1, e0, e2 (the black pawn e5 closes the e-file);
     * d1 would face the black general on the open d-file. */
    expect_dests("3k5/9/9/9/4p4/9/9/9/4K4/9 w - - 0 1", "e1", "f1 e0 e2");
}

static void cannon_screens(void **state)
{
    (void)state;
    /* Cannon b4: quiet moves b3, b2, a4, c4 (no screen needed, b5 is occupied); captures b7
     * over the red pawn b5 and b0 over the black pawn b1 (one screen of either colour); it
     * cannot take d4 (no screen), the red pawn e4 (own) or f4 (two screens). */
    const char *fen = "5k3/9/1n7/9/1P7/1C1pPn3/9/9/1p7/1n1K5 w - - 0 1";
    expect_dests(fen, "b4", "b3 b2 a4 c4 b7 b0");
}

static void chariot_blocked(void **state)
{
    (void)state;
    /* Chariot c3: up to the black pawn c6 (capture), down to c1 (own elephant c0), left to a3,
     * right to e3 (own pawn f3). */
    expect_dests("5k3/9/9/2p6/9/9/2R2P3/9/9/2BK5 w - - 0 1", "c3", "c4 c5 c6 c2 c1 b3 a3 d3 e3");
}

static void pawns_before_and_after_river(void **state)
{
    (void)state;
    const char *red = "3k2P2/9/9/P3P4/2p6/2P6/6p2/9/9/4K4 w - - 0 1";
    expect_dests(red, "c4", "c5");          /* own half: forward only (here a capture) */
    expect_dests(red, "e6", "e7 d6 f6");    /* crossed: forward and sideways, never back */
    expect_dests(red, "a6", "a7 b6");       /* edge file */
    expect_dests(red, "g9", "f9 h9");       /* last rank: sideways only */
    const char *black = "3k2P2/9/9/P3P4/2p6/2P6/6p2/9/9/4K4 b - - 0 1";
    expect_dests(black, "c5", "c4");        /* black forward is towards rank 0 */
    expect_dests(black, "g3", "g2 f3 h3");
}

static void flying_general(void **state)
{
    (void)state;
    /* The horse e4 is the only piece between the generals: every horse move opens the file. The
     * general may step to e1 (still shielded), d0 or f0. */
    expect_all_moves("4k4/9/9/9/9/9/4N4/9/9/4K4 w - - 0 1", "e0d0 e0f0 e0e1");
    /* General d2 may not step onto the open e-file facing the black general on e9. */
    expect_dests("4k4/9/9/9/9/9/9/3K5/9/5A3 w - - 0 1", "d2", "d1");
    /* Black general e9: d9 faces the red general on the open d-file. */
    expect_dests("4k4/9/9/9/9/9/9/3K5/9/5A3 b - - 0 1", "e9", "e8 f9");
    /* Facing generals in a FEN: the side not to move is "in check". */
    test_set_fen(&pos, xq, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    XqError err;
    assert_int_equal(pos_set_fen(&pos, xq, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &err), -1);
}

static void check_evasion(void **state)
{
    (void)state;
    /* Black chariot e7 checks the red general e0 along the open file. The general cannot move
     * (d0 / f0 hold advisors, e1 stays on the file); either advisor or the chariot a1 can block
     * on e1, and the horse g6 can capture e7 or block on e5. */
    expect_all_moves("5k3/9/4r4/6N2/9/9/9/9/R8/3AKA3 w - - 0 1", "d0e1 f0e1 a1e1 g6e7 g6e5");
}

static void pinned_pieces(void **state)
{
    (void)state;
    /* Chariot e3 pinned on the file by the black chariot e8: it moves along the file only; the
     * general may go to e1 or f0 (d0 faces the black general on d9). */
    expect_all_moves("3k5/4r4/9/9/9/9/4R4/9/9/4K4 w - - 0 1",
                     "e3e1 e3e2 e3e4 e3e5 e3e6 e3e7 e3e8 e0e1 e0f0");
    /* Cannon e7 behind two screens (pawn e4, horse e2): the horse may not leave the file (one
     * screen would remain); the pawn may advance along it. */
    expect_all_moves("3k5/9/4c4/9/9/4P4/9/4N4/9/4K4 w - - 0 1", "e4e5 e0e1 e0f0");
}

static void start_position_moves(void **state)
{
    (void)state;
    expect_all_moves("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                     "a0a1 a0a2 i0i1 i0i2 b0a2 b0c2 h0g2 h0i2 c0a2 c0e2 g0e2 g0i2 d0e1 f0e1 e0e1 "
                     "b2b3 b2b4 b2b5 b2b6 b2b1 b2a2 b2c2 b2d2 b2e2 b2f2 b2g2 b2b9 "
                     "h2h3 h2h4 h2h5 h2h6 h2h1 h2i2 h2g2 h2f2 h2e2 h2d2 h2c2 h2h9 "
                     "a3a4 c3c4 e3e4 g3g4 i3i4");
}

static void stalemate_has_no_moves(void **state)
{
    (void)state;
    /* Black general d9: the red chariot e7 covers e9; d8 is free, c9 is outside the palace. */
    test_set_fen(&pos, xq, "3k5/9/4R4/9/9/9/9/9/9/5K3 b - - 0 1");
    char got[256];
    legal_moves_text(&pos, NULL, got, sizeof got);
    assert_string_equal(got, "d9d8");
    /* Add a red chariot on a8 covering d8: no legal move, not in check (stalemate). */
    test_set_fen(&pos, xq, "3k5/R8/4R4/9/9/9/9/9/9/5K3 b - - 0 1");
    assert_false(pos.in_check);
    assert_int_equal(pos_count_legal(&pos), 0);
}

/* ---- FEN ------------------------------------------------------------------------------------ */

static void fen_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < PERFT_NCASES; i++) {
        test_set_fen(&pos, xq, PERFT_CASES[i].fen);
        char out[256];
        pos_get_fen(&pos, out, sizeof out);
        assert_string_equal(out, PERFT_CASES[i].fen);
    }
    test_set_fen(&pos, xq, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 17 42");
    char out[256];
    pos_get_fen(&pos, out, sizeof out);
    assert_string_equal(out, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 17 42");
    assert_int_equal(pos.no_capture, 17);
    assert_int_equal(pos.move_number, 42);
    assert_int_equal(pos.side, BLACK);
    /* Counters are optional; the side defaults to red. */
    test_set_fen(&pos, xq, "4k4/9/9/9/9/9/9/9/9/3K5");
    pos_get_fen(&pos, out, sizeof out);
    assert_string_equal(out, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
}

static void fen_reads_aliases(void **state)
{
    (void)state;
    /* E / H are read as elephant / horse and written back as B / N. */
    test_set_fen(&pos, xq, "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
    test_set_fen(&pos2, xq, xq->start_fen);
    assert_true(pos.key == pos2.key);
    char out[256];
    pos_get_fen(&pos, out, sizeof out);
    assert_string_equal(out, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_int_equal(perft(&pos, 2), 1920);
}

static void expect_fen_error(const char *fen, const char *fragment)
{
    XqError err;
    memset(&err, 0, sizeof err);
    if (pos_set_fen(&pos, xq, fen, &err) == 0)
        fail_msg("FEN '%s' was accepted, expected an error containing \"%s\"", fen, fragment);
    assert_string_equal(err.file, "FEN");
    if (!strstr(err.message, fragment))
        fail_msg("FEN '%s': message \"%s\" does not contain \"%s\"", fen, err.message, fragment);
}

static void fen_rejects_malformed(void **state)
{
    (void)state;
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K1X3 w - - 0 1", "unknown piece letter 'X' on rank 0");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K4 w - - 0 1", "rank 0 does not have exactly 9 files");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K6 w - - 0 1", "empty run of 6 goes past the last file on rank 0");
    /* 4294967305 = 2^32 + 9: must not wrap around to a valid run of 9. */
    expect_fen_error("4k4/4294967305/9/9/9/9/9/9/9/3K5 w - - 0 1", "goes past the last file on rank 8");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K5 wb - - 0 1", "side to move must be w or b, not 'wb");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K5P w - - 0 1", "too many points on rank 0");
    expect_fen_error("4k4/8/9/9/9/9/9/9/9/3K5 w - - 0 1", "rank 8 does not have exactly 9 files");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K5/9 w - - 0 1", "after the last rank");
    expect_fen_error("4k4/9/9/9/9/9/9/9/3K5 w - - 0 1", "expected '/' after rank 1");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/9 w - - 0 1", "red has no royal piece");
    expect_fen_error("9/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "black has no royal piece");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3KK4 w - - 0 1", "more than one royal piece for red");
    expect_fen_error("3kk4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "more than one royal piece for black");
    expect_fen_error("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "in check");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1", "K on a0 is outside the zone");
    expect_fen_error("4k4/9/9/9/9/9/9/A8/9/3K5 w - - 0 1", "A on a2 is outside the zone");
    expect_fen_error("4k4/9/9/9/4B4/9/9/9/9/3K5 w - - 0 1", "B on e5 is outside the zone");
    expect_fen_error("4k4/9/9/9/9/4b4/9/9/9/3K5 w - - 0 1", "b on e4 is outside the zone");
    expect_fen_error("3k5/9/3R5/9/9/9/9/9/9/5K3 w - - 0 1", "the side not to move (black) is in check");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K5 x - - 0 1", "side to move must be w or b");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1", "expected a number, not 'x'");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 -3", "expected a number, not '-3'");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 7", "too many fields");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 [camp:RR/n]", "extra state field");
    expect_fen_error("4k4/0/9/9/9/9/9/9/9/3K5 w - - 0 1", "at least 1");
    expect_fen_error("4k4/9/9/9/9/9/9/9/9/3K5w - - 0 1", "rank 0");
    expect_fen_error("", "rank 9 does not have exactly 9 files");
}

/* ---- variant files --------------------------------------------------------------------------- */

/* A small valid variant; tests replace one line (1-based) to break it. */
static const char *const TINY[] = {
    "[variant]",                      /* 1 */
    "name = tiny",                    /* 2 */
    "start = 2k/3/3/K2 w - - 0 1",    /* 3 */
    "[board]",                        /* 4 */
    "files = 3",                      /* 5 */
    "ranks = 4",                      /* 6 */
    "grid = a0-c3",                   /* 7 */
    "[zones]",                        /* 8 */
    "home = a0-c1",                   /* 9 */
    "[piece king]",                   /* 10 */
    "letter = K",                     /* 11 */
    "royal = yes",                    /* 12 */
    "step = orth",                    /* 13 */
    "[piece rook]",                   /* 14 */
    "letter = R",                     /* 15 */
    "slide = orth",                   /* 16 */
    "[rules]",                        /* 17 */
    "flying_general = file",          /* 18 */
};
enum { TINY_LINES = (int)(sizeof TINY / sizeof TINY[0]) };

static void tiny_text(char *buf, size_t size, int line, const char *replacement)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 1; i <= TINY_LINES; i++)
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s\n",
                                i == line ? replacement : TINY[i - 1]);
}

static void expect_variant_error(int line, const char *replacement, int err_line, const char *fragment)
{
    char text[2048];
    tiny_text(text, sizeof text, line, replacement);
    XqError err;
    memset(&err, 0, sizeof err);
    Variant *v = variant_load_text(text, "tiny.ini", &err);
    if (v) {
        variant_free(v);
        fail_msg("line %d = '%s' was accepted, expected \"%s\"", line, replacement, fragment);
    }
    if (err.line != err_line || !strstr(err.message, fragment))
        fail_msg("line %d = '%s': got %s:%d: %s; expected line %d and \"%s\"", line, replacement,
                 err.file, err.line, err.message, err_line, fragment);
    char formatted[1024], prefix[64];
    xq_error_format(&err, formatted, sizeof formatted);
    if (err_line > 0)
        snprintf(prefix, sizeof prefix, "tiny.ini:%d: ", err_line);
    else
        snprintf(prefix, sizeof prefix, "tiny.ini: ");
    assert_true(strncmp(formatted, prefix, strlen(prefix)) == 0);
}

static void variant_tiny_loads(void **state)
{
    (void)state;
    char text[2048];
    tiny_text(text, sizeof text, 0, NULL);
    XqError err;
    Variant *v = variant_load_text(text, "tiny.ini", &err);
    if (!v)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    assert_int_equal(v->npoints, 12);
    assert_int_equal(v->nkinds, 2);
    /* Red has only the general a0: b0 and a1 (the black general c3 is on another file). */
    static Position p;
    pos_init_start(&p, v);
    MoveList list;
    pos_generate_legal(&p, &list);
    assert_int_equal(list.count, 2);
    variant_free(v);
}

static void variant_errors_name_the_line(void **state)
{
    (void)state;
    expect_variant_error(7, "gird = a0-c3", 7, "unknown key 'gird' in [board]");
    expect_variant_error(7, "grid = a0-c9", 7, "'a0-c9' is not a point or range on the board");
    expect_variant_error(7, "lines = a0-b2", 7, "neither orthogonal nor diagonal");
    expect_variant_error(5, "files = 0", 5, "files and ranks between 1 and 16");
    expect_variant_error(16, "slide = up", 16, "unknown direction set 'up'");
    expect_variant_error(16, "slide = orth via=castle", 16, "unknown zone 'castle'");
    expect_variant_error(16, "slide = orth to=home", 16, "to= is not supported on slides");
    expect_variant_error(13, "step = orth from=moat", 13, "unknown zone 'moat'");
    expect_variant_error(12, "stand = keep", 12, "unknown zone 'keep'");
    expect_variant_error(15, "letter = K", 15, "letter 'K' is already used by another piece");
    expect_variant_error(15, "letter = RR", 15, "'letter' must be a single letter");
    expect_variant_error(15, "alias = K", 15, "letter 'K' is already used");
    expect_variant_error(3, "; no start here", 0, "needs a start position");
    expect_variant_error(2, "; no name here", 0, "needs a name");
    expect_variant_error(3, "start = 2k/3/3/K w - - 0 1", 3, "start position: rank 0 does not have exactly 3 files");
    expect_variant_error(3, "start = 2k/3/3/R2 w - - 0 1", 3, "start position: red has no royal piece");
    expect_variant_error(16, "; no moves", 15, "piece 'rook' has no moves");
    expect_variant_error(15, "; no letter", 16, "piece 'rook' has no letter");
    expect_variant_error(16, "leap = 1x2", 16, "leap offset '1x2' is not of the form dx,dy");
    expect_variant_error(16, "leap = 0,0", 16, "leap offset '0,0'");
    expect_variant_error(16, "slide = orth max=0", 16, "max must be between 1 and 255");
    expect_variant_error(16, "hop = orth screens=9", 16, "screens must be between 1 and 8");
    expect_variant_error(16, "hop = orth capture screens=2", 16, "capturing hops over more than one screen");
    expect_variant_error(16, "leap = 1,2 sym=spin", 16, "sym must be all, lr or none");
    expect_variant_error(16, "slide = orth block 0,1", 16, "'block' takes an offset");
    expect_variant_error(16, "leap = 1,2 block 0,1 block 1,1 block 1,0", 16, "at most two");
    expect_variant_error(16, "slide = orth quickly", 16, "unknown atom option 'quickly'");
    expect_variant_error(16, "slide = orth targets=Q", 16, "targets: no piece has letter 'Q'");
    expect_variant_error(16, "slide =", 16, "'slide' needs directions or an offset");
    expect_variant_error(16, "speed = 3", 16, "unknown piece key 'speed'");
    expect_variant_error(12, "royal = perhaps", 12, "royal must be yes or no");
    expect_variant_error(12, "value = lots", 12, "value must be a number");
    /* Nothing given twice silently wins: sections and keys (a piece's moves excepted). */
    expect_variant_error(14, "[piece king]", 14, "section [piece king] is given twice (first on line 10)");
    expect_variant_error(8, "[rules]", 17, "section [rules] is given twice (first on line 8)");
    expect_variant_error(12, "letter = R", 12, "key 'letter' is given twice in [piece king] (first on line 11)");
    expect_variant_error(6, "files = 4", 6, "key 'files' is given twice in [board] (first on line 5)");
    /* Piece values seed the evaluation: finite, 0 to 1000. */
    expect_variant_error(12, "value = nan", 12, "value must be a number from 0 to 1000");
    expect_variant_error(12, "value = inf", 12, "value must be a number from 0 to 1000");
    expect_variant_error(12, "value = 1e300", 12, "value must be a number from 0 to 1000");
    expect_variant_error(12, "value = -2", 12, "value must be a number from 0 to 1000");
    /* The name becomes part of output paths. */
    expect_variant_error(2, "name = ../../x", 2, "name must be a plain file name");
    expect_variant_error(2, "name = my variant", 2, "name must be a plain file name");
    expect_variant_error(2, "name = .hidden", 2, "name must be a plain file name");
    expect_variant_error(2, "name = a-name-that-is-longer-than-thirty-one", 2, "name must be a plain file name");
    expect_variant_error(14, "[pieces]", 15, "piece sections are written [piece NAME]");
    expect_variant_error(17, "[house rules]", 18, "unknown section [house rules]");
    expect_variant_error(18, "flying = file", 18, "unknown rule 'flying'");
    expect_variant_error(18, "flying_general = sometimes", 18, "flying_general must be file, lines or no");
    expect_variant_error(18, "stalemate = win", 18, "stalemate must be loss or draw");
    expect_variant_error(18, "move_limit = -5", 18, "'move_limit' must be a non-negative whole number");
    expect_variant_error(18, "repetition_count = 1", 18, "repetition_count must be at least 2");
    expect_variant_error(18, "repetition = sometimes", 18, "repetition must be none, check-only");
    expect_variant_error(2, "title = tiny", 2, "unknown key 'title' in [variant]");
    expect_variant_error(9, "home = a0-c1 moat", 9, "'moat' is not a point, range or earlier zone");
    expect_variant_error(9, "home =", 9, "zone 'home' is empty");
    expect_variant_error(4, "[board", 4, "expected ']'");
    expect_variant_error(7, "grid a0-c3", 7, "expected 'key = value'");
    expect_variant_error(12, "royal = no", 0, "flying_general needs a royal piece");
}

static void variant_missing_board_or_pieces(void **state)
{
    (void)state;
    XqError err;
    Variant *v = variant_load_text("[variant]\nname = x\nstart = 1 w\n", "x.ini", &err);
    assert_null(v);
    assert_non_null(strstr(err.message, "missing [board] section"));
    v = variant_load_text("[variant]\nname = x\nstart = 1 w\n[board]\nfiles = 1\nranks = 1\n"
                          "grid = a0\n", "x.ini", &err);
    assert_null(v);
    assert_non_null(strstr(err.message, "no [piece NAME] sections"));
    v = variant_load_text("key = 1\n", "x.ini", &err);
    assert_null(v);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.message, "key outside of any [section]"));
    v = variant_load_file(XQ_SOURCE_DIR "/configs/variants/no-such-variant.ini", &err);
    assert_null(v);
    assert_non_null(strstr(err.message, "cannot open"));
}

static void variant_too_many_moves_rejected(void **state)
{
    (void)state;
    /* 42 queens on an open 15 x 15 board: 600 legal first moves, more than a MoveList holds
     * (found while fuzzing: generation used to write past the list). */
    XqError err;
    Variant *v = variant_load_file(XQ_SOURCE_DIR "/tests/data/too-many-moves.ini", &err);
    assert_null(v);
    assert_int_equal(err.line, 6);
    assert_non_null(strstr(err.message, "has 600 legal moves, more than the 512"));
    /* The 330-move position of the fuzzing find fits since lists hold 512. */
    v = variant_load_file(XQ_SOURCE_DIR "/tests/fuzz/corpus/variant/regress-move-list-overflow.ini", &err);
    assert_non_null(v);
    Position *start = malloc(sizeof *start);
    assert_non_null(start);
    pos_init_start(start, v);
    MoveList list;
    assert_int_equal(pos_generate_legal(start, &list), 330);
    free(start);
    variant_free(v);
}

static void variant_shipped_files_load(void **state)
{
    (void)state;
    const char *dir = XQ_SOURCE_DIR "/configs/variants";
    DIR *d = opendir(dir);
    assert_non_null(d);
    int loaded = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        XqError err;
        Variant *v = variant_load_file(path, &err);
        if (!v) {
            char msg[1024];
            xq_error_format(&err, msg, sizeof msg);
            closedir(d);
            fail_msg("%s", msg);
        }
        static Position p;
        pos_init_start(&p, v);
        char msg[256];
        assert_int_equal(pos_validate(&p, msg, sizeof msg), 0);
        variant_free(v);
        loaded++;
    }
    closedir(d);
    assert_true(loaded >= 1);
}

static void variant_xiangqi_options(void **state)
{
    (void)state;
    /* The values RULES.md section 1 prescribes. */
    assert_int_equal(xq->files, 9);
    assert_int_equal(xq->ranks, 10);
    assert_int_equal(xq->npoints, 90);
    assert_int_equal(xq->rules.flying_general, FLYING_FILE);
    assert_true(xq->rules.stalemate_loses);
    assert_int_equal(xq->rules.move_limit, 120);
    assert_int_equal(xq->rules.check_cap, 10);
    assert_int_equal(xq->rules.repetition, REP_ASIAN);
    assert_int_equal(xq->rules.repetition_count, 3);
    assert_string_equal(xq->start_fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    /* Black's palace is Red's mirrored across the river. */
    int palace = variant_find_zone(xq, "palace");
    assert_true(palace >= 0);
    assert_true(variant_in_zone(xq, palace, RED, point_named("e1")));
    assert_false(variant_in_zone(xq, palace, RED, point_named("e8")));
    assert_true(variant_in_zone(xq, palace, BLACK, point_named("e8")));
    assert_true(variant_in_zone(xq, palace, BLACK, point_named("d7")));
    assert_false(variant_in_zone(xq, palace, BLACK, point_named("d2")));
}

/* ---- ICCS ----------------------------------------------------------------------------------- */

static void expect_parse_error(const char *fen, const char *text, const char *fragment)
{
    test_set_fen(&pos, xq, fen);
    char why[256] = "";
    Move m = move_parse(&pos, text, why, sizeof why);
    assert_true(m == XQ_MOVE_NONE);
    if (!strstr(why, fragment))
        fail_msg("'%s': reason \"%s\" does not contain \"%s\"", text, why, fragment);
}

static void iccs_parse(void **state)
{
    (void)state;
    pos_init_start(&pos, xq);
    char why[256];
    Move m = move_parse(&pos, "h2e2", why, sizeof why);
    assert_true(m == XQ_MOVE(point_named("h2"), point_named("e2")));
    assert_true(move_parse(&pos, "H2-E2", why, sizeof why) == m);
    assert_true(move_parse(&pos, "  b0c2 ", why, sizeof why) == XQ_MOVE(point_named("b0"), point_named("c2")));
    char out[16];
    move_to_iccs(xq, m, out);
    assert_string_equal(out, "h2e2");

    const char *start = xq->start_fen;
    expect_parse_error(start, "z9z9", "is not a move on this board");
    expect_parse_error(start, "h2", "is not a move on this board");
    expect_parse_error(start, "h2e2x", "unexpected 'x' after the move");
    expect_parse_error(start, "e5e6", "no piece on the from point");
    expect_parse_error(start, "h7e7", "belongs to black");
    expect_parse_error(start, "h0h1", "the horse cannot move there");
    expect_parse_error(start, "b0d1", "the horse cannot move there"); /* leg c0 is blocked */
    expect_parse_error(start, "c0e4", "the elephant cannot move there");
    expect_parse_error(start, "e3d3", "the pawn cannot move there");
    expect_parse_error("3k5/4r4/9/9/9/9/4R4/9/9/4K4 w - - 0 1", "e3d3", "leaves the own general attacked");
    expect_parse_error("3k5/4r4/9/9/9/9/4R4/9/9/4K4 w - - 0 1", "e0d0", "leaves the own general attacked");
}

/* ---- WXF ------------------------------------------------------------------------------------ */

/* The WXF text of the ICCS move `iccs` in the position of `fen`. */
static void expect_wxf(const char *fen, const char *iccs, const char *want)
{
    test_set_fen(&pos, xq, fen);
    char why[256], got[16];
    Move m = move_parse(&pos, iccs, why, sizeof why);
    if (m == XQ_MOVE_NONE)
        fail_msg("%s: %s", fen, why);
    assert_int_equal(move_to_wxf(&pos, m, got), 0);
    if (strcmp(got, want) != 0)
        fail_msg("%s: %s is %s in WXF, expected %s", fen, iccs, got, want);
}

static void wxf_single_pieces(void **state)
{
    (void)state;
    const char *start = xq->start_fen;
    /* Red counts files 1-9 from its right: file i is 1, file a is 9. */
    expect_wxf(start, "h2e2", "C2.5");
    expect_wxf(start, "h0g2", "H2+3");
    expect_wxf(start, "b0c2", "H8+7");
    expect_wxf(start, "a0a1", "R9+1");
    expect_wxf(start, "i0i2", "R1+2");
    expect_wxf(start, "g3g4", "P3+1");
    expect_wxf(start, "e0e1", "K5+1");
    expect_wxf(start, "f0e1", "A4+5");
    expect_wxf(start, "g0e2", "E3+5");
    expect_wxf(start, "c0e2", "E7+5");
    expect_wxf(start, "b2b9", "C8+7");
    expect_wxf(start, "h2h1", "C2-1");
    /* Black counts from its own right: file a is 1, file i is 9; forward is towards rank 0. */
    const char *black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    expect_wxf(black, "h7e7", "C8.5");
    expect_wxf(black, "b7e7", "C2.5");
    expect_wxf(black, "h9g7", "H8+7");
    expect_wxf(black, "b9c7", "H2+3");
    expect_wxf(black, "f9e8", "A6+5");
    expect_wxf(black, "c9e7", "E3+5");
    expect_wxf(black, "a9a8", "R1+1");
    expect_wxf(black, "c6c5", "P3+1");
    expect_wxf(black, "e9e8", "K5+1");
    expect_wxf(black, "h7h8", "C8-1");
    /* Backward horse moves name the destination file. */
    const char *horses = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w - - 2 2";
    expect_wxf(horses, "g2h0", "H3-2");
    expect_wxf("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R b - - 2 2", "g7h9", "H7-8");
}

static void wxf_tandem_pieces(void **state)
{
    (void)state;
    /* Two red chariots on e (red file 5): front e4, rear e2. */
    const char *rooks = "5k3/9/1c7/9/1c7/4R4/9/4R4/9/3K5 w - - 0 1";
    expect_wxf(rooks, "e4g4", "R+.3");
    expect_wxf(rooks, "e4e9", "R++5");
    expect_wxf(rooks, "e2e1", "R--1");
    expect_wxf(rooks, "e2c2", "R-.7");
    /* Two black cannons on b (black file 2): the front one is the lower, b5. */
    const char *cannons = "5k3/9/1c7/9/1c7/4R4/9/4R4/9/3K5 b - - 0 1";
    expect_wxf(cannons, "b5b3", "C++2");
    expect_wxf(cannons, "b5a5", "C+.1");
    expect_wxf(cannons, "b7b6", "C-+1");
    expect_wxf(cannons, "b7b8", "C--1");
    /* Three red pawns on c (red file 7): front, middle (keeps its file), rear. */
    const char *three = "5k3/9/2P6/2P6/2P3P2/9/9/9/9/4K4 w - - 0 1";
    expect_wxf(three, "c7d7", "P+.6");
    expect_wxf(three, "c6d6", "P7.6");
    expect_wxf(three, "c5d5", "P-.6");
    expect_wxf(three, "c7c8", "P++1");
    expect_wxf(three, "g5g6", "P3+1");
    /* Four pawns on one file: ++, P+, P-, --. */
    const char *four = "5k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
    expect_wxf(four, "c8d8", "++.6");
    expect_wxf(four, "c7d7", "P+.6");
    expect_wxf(four, "c6d6", "P-.6");
    expect_wxf(four, "c5d5", "--.6");
    expect_wxf(four, "c8c9", "+++1");
    /* Five pawns on one file: ++, P+, middle with its file, P-, --. */
    const char *five = "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1";
    expect_wxf(five, "c9d9", "++.6");
    expect_wxf(five, "c8d8", "P+.6");
    expect_wxf(five, "c7d7", "P7.6");
    expect_wxf(five, "c6d6", "P-.6");
    expect_wxf(five, "c5b5", "--.8");
    /* Tandems on two files (3 on red file 7, 2 on red file 3): the file digit replaces P. */
    const char *two_files = "5k3/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1";
    expect_wxf(two_files, "c7d7", "7+.6");
    expect_wxf(two_files, "c6d6", "77.6");
    expect_wxf(two_files, "c5d5", "7-.6");
    expect_wxf(two_files, "c5b5", "7-.8");
    expect_wxf(two_files, "c7c8", "7++1");
    expect_wxf(two_files, "g6f6", "3+.4");
    expect_wxf(two_files, "g5h5", "3-.2");
    expect_wxf(two_files, "g6g7", "3++1");
    /* Black pawns g4, g3 (black file 7): the front one is g3. */
    const char *black = "3k5/9/9/9/9/6p2/6p2/9/9/4K4 b - - 0 1";
    expect_wxf(black, "g3f3", "P+.6");
    expect_wxf(black, "g3g2", "P++1");
    expect_wxf(black, "g4h4", "P-.8");
}

/* Replaces the first occurrence of `from` in `text` by `to` into out. */
static void replace_once(const char *text, const char *from, const char *to, char *out, size_t size)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void wxf_needs_mappable_letters(void **state)
{
    (void)state;
    /* Xiangqi with the chariot lettered Q: no WXF letter, so no WXF output. */
    static char a[8192], b[8192];
    replace_once(xq->text, "letter = R", "letter = Q", a, sizeof a);
    replace_once(a, "start = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
                 "start = qnbakabnq/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/QNBAKABNQ", b, sizeof b);
    XqError err;
    Variant *v = variant_load_text(b, "q.ini", &err);
    if (!v)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    static Position p;
    pos_init_start(&p, v);
    char why[256], out[16];
    Move m = move_parse(&p, "h2e2", why, sizeof why);
    assert_true(m != XQ_MOVE_NONE);
    assert_int_equal(move_to_wxf(&p, m, out), -1);
    variant_free(v);

    /* A board that is not 9 x 10 has no WXF files. */
    char text[2048];
    tiny_text(text, sizeof text, 0, NULL);
    v = variant_load_text(text, "tiny.ini", &err);
    assert_non_null(v);
    pos_init_start(&p, v);
    m = move_parse(&p, "a0b0", why, sizeof why);
    assert_true(m != XQ_MOVE_NONE);
    assert_int_equal(move_to_wxf(&p, m, out), -1);
    variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(perft_published_depth4),
        cmocka_unit_test(perft_start_captures_and_checks),
        cmocka_unit_test(random_games_keep_invariants),
        cmocka_unit_test(horse_leg),
        cmocka_unit_test(elephant_eye_and_river),
        cmocka_unit_test(advisor_and_general_in_palace),
        cmocka_unit_test(cannon_screens),
        cmocka_unit_test(chariot_blocked),
        cmocka_unit_test(pawns_before_and_after_river),
        cmocka_unit_test(flying_general),
        cmocka_unit_test(check_evasion),
        cmocka_unit_test(pinned_pieces),
        cmocka_unit_test(start_position_moves),
        cmocka_unit_test(stalemate_has_no_moves),
        cmocka_unit_test(fen_round_trip),
        cmocka_unit_test(fen_reads_aliases),
        cmocka_unit_test(fen_rejects_malformed),
        cmocka_unit_test(variant_tiny_loads),
        cmocka_unit_test(variant_errors_name_the_line),
        cmocka_unit_test(variant_missing_board_or_pieces),
        cmocka_unit_test(variant_too_many_moves_rejected),
        cmocka_unit_test(variant_shipped_files_load),
        cmocka_unit_test(variant_xiangqi_options),
        cmocka_unit_test(iccs_parse),
        cmocka_unit_test(wxf_single_pieces),
        cmocka_unit_test(wxf_tandem_pieces),
        cmocka_unit_test(wxf_needs_mappable_letters),
    };
    return cmocka_run_group_tests(tests, load_xiangqi, free_xiangqi);
}
