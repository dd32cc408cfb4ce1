/* test_status.c - game status: mate, stalemate, natural move limit with its check cap, and the
 * repetition verdicts (golden cases of tests/data/repetition_cases.txt, one per rule option). */
#include "test_util.h"

#include "repetition.h"
#include "status.h"

static Position pos;

/* The shipped xiangqi file with `key = old` replaced by `key = new` (rule options). */
static Variant *variant_with(const char *old_line, const char *new_line)
{
    Variant *base = test_load_variant("xiangqi");
    const char *at = strstr(base->text, old_line);
    if (!at)
        fail_msg("xiangqi.ini has no line '%s'", old_line);
    size_t size = strlen(base->text) + strlen(new_line) + 1;
    char *text = malloc(size);
    assert_non_null(text);
    snprintf(text, size, "%.*s%s%s", (int)(at - base->text), base->text, new_line,
             at + strlen(old_line));
    XqError err;
    Variant *v = variant_load_text(text, "xiangqi-option", &err);
    if (!v)
        fail_msg("variant text rejected: %s", err.message);
    free(text);
    variant_free(base);
    return v;
}

static void assert_status(GameStatus st, Result result, Termination reason)
{
    char buf[128];
    game_status_format(st, buf, sizeof buf);
    if (st.result != result || st.reason != reason)
        fail_msg("status is '%s' (result %d, reason %d), expected result %d reason %d", buf,
                 st.result, st.reason, result, reason);
}

/* Plays the moves one at a time, requiring the game to go on until the last one. */
static void play_ongoing(Position *p, const char *moves)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", moves);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        GameStatus st = pos_game_status(p);
        if (st.result != RESULT_NONE)
            fail_msg("game ended before move %s", tok);
        test_play(p, tok);
    }
}

/* ---- repetition cases from the data file ---- */

typedef struct RepCase {
    char title[160];
    char fen[160];
    char moves[1024];
    char side;          /* side to move after the moves: 'w' or 'b' */
    int expect;         /* +1 side to move wins, -1 loses, 0 draw, 2 not asserted */
} RepCase;

enum { MAX_CASES = 64 };

static int load_cases(RepCase *cases)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/repetition_cases.txt", XQ_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char line[2048];
    int n = 0;
    RepCase cur;
    memset(&cur, 0, sizeof cur);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        const char *colon = strchr(line, ':');
        if (line[0] == '#') {
            snprintf(cur.title, sizeof cur.title, "%.150s", line + 2);
        } else if (!strncmp(line, "FEN: ", 5)) {
            snprintf(cur.fen, sizeof cur.fen, "%.150s", line + 5);
        } else if (!strncmp(line, "moves(", 6) && colon) {
            snprintf(cur.moves, sizeof cur.moves, "%.1000s", colon + 2);
        } else if (!strncmp(line, "after moves side to move = ", 27)) {
            cur.side = line[27];
            const char *e = strstr(line, "expected game end = ");
            assert_non_null(e);
            e += strlen("expected game end = ");
            if (strstr(e, "WINS"))
                cur.expect = 1;
            else if (strstr(e, "LOSES"))
                cur.expect = -1;
            else if (strstr(e, "DRAW"))
                cur.expect = 0;
            else if (strstr(e, "not asserted"))
                cur.expect = 2;
            else
                fail_msg("unknown expectation '%s'", e);
            assert_true(n < MAX_CASES);
            cases[n++] = cur;
            memset(&cur, 0, sizeof cur);
        }
    }
    fclose(f);
    return n;
}

/* Result from Red's view for "side to move wins / loses / draws". */
static Result expected_result(const RepCase *c)
{
    if (c->expect == 0)
        return RESULT_DRAW;
    bool red_to_move = c->side == 'w';
    bool red_wins = (c->expect == 1) == red_to_move;
    return red_wins ? RESULT_RED_WINS : RESULT_BLACK_WINS;
}

static const RepCase *find_case(const RepCase *cases, int n, const char *fen, const char *first_move)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(cases[i].fen, fen) && !strncmp(cases[i].moves, first_move, strlen(first_move)))
            return &cases[i];
    fail_msg("no case with FEN %s", fen);
    return NULL;
}

/* Plays a case under variant v and returns the status after the last move. */
static GameStatus run_case(const Variant *v, const RepCase *c)
{
    /* Not play_ongoing: in "Chase with chasing side to move" the 3rd occurrence of an earlier
     * position is already reached at move 9; the case judges the position after move 12. */
    test_set_fen(&pos, v, c->fen);
    test_play(&pos, c->moves);
    assert_int_equal(pos.side == RED ? 'w' : 'b', c->side);
    char before[256], after[256];
    pos_get_fen(&pos, before, sizeof before);
    uint64_t key = pos.key;
    int hist_len = pos.hist_len;
    GameStatus st = pos_game_status(&pos);
    /* The verdict replays the cycle on a copy: the position must be untouched. */
    pos_get_fen(&pos, after, sizeof after);
    assert_string_equal(before, after);
    assert_true(pos.key == key);
    assert_int_equal(pos.hist_len, hist_len);
    char msg[256];
    assert_int_equal(pos_validate(&pos, msg, sizeof msg), 0);
    return st;
}

static void repetition_cases_asian(void **state)
{
    (void)state;
    static RepCase cases[MAX_CASES];
    int n = load_cases(cases);
    assert_int_equal(n, 22);
    Variant *v = test_load_variant("xiangqi");
    assert_int_equal(v->rules.repetition, REP_ASIAN);
    int failures = 0;
    for (int i = 0; i < n; i++) {
        const RepCase *c = &cases[i];
        GameStatus st = run_case(v, c);
        char buf[128];
        game_status_format(st, buf, sizeof buf);
        if (c->expect == 2) {
            /* "result not asserted": the game must still end by the repetition rule. */
            if (st.result == RESULT_NONE) {
                print_error("case %d (%s): game goes on\n", i + 1, c->title);
                failures++;
            }
            continue;
        }
        Result want = expected_result(c);
        bool reason_ok = want == RESULT_DRAW ? st.reason == TERM_REPETITION_DRAW
                                             : st.reason == TERM_PERPETUAL_CHECK ||
                                                   st.reason == TERM_PERPETUAL_CHASE;
        if (st.result != want || !reason_ok) {
            print_error("case %d (%s, %s): got '%s', expected result %d\n", i + 1, c->title,
                        c->fen, buf, want);
            failures++;
        }
    }
    variant_free(v);
    assert_int_equal(failures, 0);
}

/* The perpetual-check and perpetual-chase golden cases name the right termination. */
static void repetition_reasons(void **state)
{
    (void)state;
    static RepCase cases[MAX_CASES];
    int n = load_cases(cases);
    Variant *v = test_load_variant("xiangqi");
    /* Black checks with every move (pawn e2/f2 against the king on e1/f1). */
    GameStatus st = run_case(v, find_case(cases, n, "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1", "f1e1"));
    assert_status(st, RESULT_RED_WINS, TERM_PERPETUAL_CHECK);
    /* Red's cannon attacks the black chariot with every move. */
    st = run_case(v, find_case(cases, n, "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
                               "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2\0"));
    assert_status(st, RESULT_BLACK_WINS, TERM_PERPETUAL_CHASE);
    variant_free(v);
}

/* none / check-only / asian / chinese on the same games. */
static void repetition_options(void **state)
{
    (void)state;
    static RepCase cases[MAX_CASES];
    int n = load_cases(cases);
    Variant *none = variant_with("repetition = asian", "repetition = none");
    Variant *check = variant_with("repetition = asian", "repetition = check-only");
    Variant *asian = test_load_variant("xiangqi");
    Variant *chinese = variant_with("repetition = asian", "repetition = chinese");
    assert_int_equal(none->rules.repetition, REP_NONE);
    assert_int_equal(check->rules.repetition, REP_CHECK_ONLY);
    assert_int_equal(chinese->rules.repetition, REP_CHINESE);

    /* Perpetual check by black: a draw without repetition rules, a loss under the others. */
    const RepCase *pc = find_case(cases, n, "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1", "f1e1");
    assert_status(run_case(none, pc), RESULT_DRAW, TERM_REPETITION_DRAW);
    assert_status(run_case(check, pc), RESULT_RED_WINS, TERM_PERPETUAL_CHECK);
    assert_status(run_case(asian, pc), RESULT_RED_WINS, TERM_PERPETUAL_CHECK);
    assert_status(run_case(chinese, pc), RESULT_RED_WINS, TERM_PERPETUAL_CHECK);

    /* Red's cannon chases the chariot, no checks: only asian and chinese punish the chase
     * (chinese: cannon on chariot gains material, 29.1; black's chariot only attacks a protected
     * pawn, 闲). */
    const RepCase *ch = find_case(cases, n,
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2\0");
    assert_status(run_case(none, ch), RESULT_DRAW, TERM_REPETITION_DRAW);
    assert_status(run_case(check, ch), RESULT_DRAW, TERM_REPETITION_DRAW);
    assert_status(run_case(asian, ch), RESULT_BLACK_WINS, TERM_PERPETUAL_CHASE);
    assert_status(run_case(chinese, ch), RESULT_BLACK_WINS, TERM_PERPETUAL_CHASE);

    /* D39: red chases the pinned black chariot f8 with every move. Black's advisor shuttles
     * f9-e8 and back; each shuttle cuts the red rook's (then the cannon's) line to the horse g8
     * that the black chariot attacks. Asian (the reference engine): cutting a protector's line
     * is not a chase, so red loses. Chinese 29.2: the capture Rxg8 becomes a threat with that
     * move and did not exist before, so black chases too: both forbidden, a draw (26.3). */
    const RepCase *d39 = find_case(cases, n, "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1", "b6b8");
    assert_status(run_case(asian, d39), RESULT_BLACK_WINS, TERM_PERPETUAL_CHASE);
    assert_status(run_case(chinese, d39), RESULT_DRAW, TERM_REPETITION_DRAW);
    assert_status(run_case(check, d39), RESULT_DRAW, TERM_REPETITION_DRAW);

    variant_free(none);
    variant_free(check);
    variant_free(asian);
    variant_free(chinese);
}

/* Chinese 28.12: 长捉 is chasing "one piece or several"; asian needs one and the same piece. */
static void chase_of_two_pieces(void **state)
{
    (void)state;
    /* Red's chariot shuttles a2-b2: from b2 it newly attacks the black cannon b7 up the b-file,
     * from a2 the black horse a7 up the a-file; both are unprotected (the horse's leg to b7's
     * neighbours is blocked by the cannon, a cannon needs a screen). Black shuttles its general
     * e9-e8, which attacks nothing. The start position recurs after moves 4 and 8. */
    const char *fen = "4k4/9/nc7/9/9/9/9/R8/9/3K5 w - - 0 1";
    const char *moves = "a2b2 e9e8 b2a2 e8e9 a2b2 e9e8 b2a2 e8e9";
    Variant *asian = test_load_variant("xiangqi");
    Variant *chinese = variant_with("repetition = asian", "repetition = chinese");
    Variant *check = variant_with("repetition = asian", "repetition = check-only");
    const Variant *all[3] = {asian, chinese, check};
    const Result want[3] = {RESULT_DRAW, RESULT_BLACK_WINS, RESULT_DRAW};
    const Termination why[3] = {TERM_REPETITION_DRAW, TERM_PERPETUAL_CHASE, TERM_REPETITION_DRAW};
    for (int i = 0; i < 3; i++) {
        test_set_fen(&pos, all[i], fen);
        play_ongoing(&pos, moves);
        assert_int_equal(rep_count_occurrences(&pos), 2);
        assert_status(pos_game_status(&pos), want[i], why[i]);
    }
    variant_free(asian);
    variant_free(chinese);
    variant_free(check);
}

/* ---- mate, stalemate ---- */

static void checkmate_loses(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    /* Black general e9 checked along rank 9 by the chariot a9; rank 8 held by the chariot b8. */
    test_set_fen(&pos, v, "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert_true(pos.in_check);
    assert_status(pos_game_status(&pos), RESULT_RED_WINS, TERM_CHECKMATE);
    /* The same pattern against red: mated side to move loses whatever its colour. */
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/9/9/1r7/r3K4 w - - 0 1");
    assert_status(pos_game_status(&pos), RESULT_BLACK_WINS, TERM_CHECKMATE);
    variant_free(v);
}

static void stalemate_loses_or_draws(void **state)
{
    (void)state;
    /* Black general e9 not in check: d9 faces the red general (flying general), e8 is held by
     * the chariot a8 and the pawn f8, f9 by the pawn. RULES.md conventions: stalemate loses. */
    const char *fen = "4k4/R4P3/9/9/9/9/9/9/9/3K5 b - - 0 1";
    Variant *v = test_load_variant("xiangqi");
    test_set_fen(&pos, v, fen);
    assert_false(pos.in_check);
    assert_int_equal(pos_count_legal(&pos), 0);
    assert_status(pos_game_status(&pos), RESULT_RED_WINS, TERM_STALEMATE);
    variant_free(v);

    v = variant_with("stalemate = loss", "stalemate = draw");
    assert_false(v->rules.stalemate_loses);
    test_set_fen(&pos, v, fen);
    assert_status(pos_game_status(&pos), RESULT_DRAW, TERM_STALEMATE);
    variant_free(v);
}

/* ---- natural move limit ---- */

static void move_limit_draws(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    /* RULES.md 1: 60 moves (120 plies) without capture, at most 10 checks per side counted. */
    assert_int_equal(v->rules.move_limit, 120);
    assert_int_equal(v->rules.check_cap, 10);
    /* 116 plies without capture already; four quiet plies reach the limit. */
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 116 80");
    play_ongoing(&pos, "a0a1 d9d8 a1a2");
    assert_status(pos_game_status(&pos), RESULT_NONE, TERM_NONE);
    test_play(&pos, "d8d9");
    assert_status(pos_game_status(&pos), RESULT_DRAW, TERM_MOVE_LIMIT);

    /* A capture restarts the count: the same four plies with a capture on the third. */
    test_set_fen(&pos, v, "3k5/9/9/9/9/9/p8/9/9/R3K4 w - - 116 80");
    play_ongoing(&pos, "a0a1 d9d8 a1a3 d8d9");
    assert_status(pos_game_status(&pos), RESULT_NONE, TERM_NONE);
    assert_int_equal(pos.no_capture, 1);
    variant_free(v);
}

/* The same sequence with 3 red checks, under a small limit (6 plies) and cap (1 check). */
static void move_limit_check_cap(void **state)
{
    (void)state;
    /* Red chariot checks the black general along ranks 9, 8, 7 while it steps down and back
     * (the red general on d0 keeps the black general off the d-file), then quiet moves. */
    const char *fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    const char *checks = "a1a9 e9e8 a9a8 e8e7 a8a7 e7e8";

    /* Without a cap every ply counts: the 6th ply reaches the limit. */
    Variant *v = variant_with("move_limit = 120\ncheck_cap = 10", "move_limit = 6\ncheck_cap = 0");
    test_set_fen(&pos, v, fen);
    play_ongoing(&pos, checks);
    assert_status(pos_game_status(&pos), RESULT_DRAW, TERM_MOVE_LIMIT);
    variant_free(v);

    /* Cap 1: red's first check and its reply count (2 plies); the 2nd and 3rd checks and their
     * replies do not (seed 002 23.3); then 4 quiet plies reach 6. */
    v = variant_with("move_limit = 120\ncheck_cap = 10", "move_limit = 6\ncheck_cap = 1");
    test_set_fen(&pos, v, fen);
    play_ongoing(&pos, checks);
    assert_int_equal(pos.limit_count, 2);
    assert_int_equal(pos.checks[RED], 3);
    play_ongoing(&pos, "a7b7 e8e9 b7b6");
    assert_status(pos_game_status(&pos), RESULT_NONE, TERM_NONE);
    test_play(&pos, "e9e8");
    assert_int_equal(pos.limit_count, 6);
    assert_status(pos_game_status(&pos), RESULT_DRAW, TERM_MOVE_LIMIT);
    variant_free(v);
}

/* The FEN holds the whole natural-limit state: after Red's third check under cap 1 the limit
 * count (2) differs from the no-capture counter (5), Red has given 3 checks and Black's reply will
 * not count. A FEN without the field would read back as 5 counted plies. The position read back
 * plays on exactly as the original, to the limit. */
static void move_limit_state_in_fen(void **state)
{
    (void)state;
    Variant *v = variant_with("move_limit = 120\ncheck_cap = 10", "move_limit = 6\ncheck_cap = 1");
    test_set_fen(&pos, v, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1");
    play_ongoing(&pos, "a1a9 e9e8 a9a8 e8e7 a8a7");
    char fen[256];
    pos_get_fen(&pos, fen, sizeof fen);
    assert_string_equal(fen, "9/9/R3k4/9/9/9/9/9/9/3K5 b - - 5 3 [limit:2/3/0*]");
    Position *back = malloc(sizeof *back);
    assert_non_null(back);
    test_set_fen(back, v, fen);
    assert_int_equal(back->limit_count, 2);
    assert_int_equal(back->checks[RED], 3);
    assert_int_equal(back->checks[BLACK], 0);
    assert_true(back->reply_uncounted);
    assert_int_equal(back->key, pos.key);
    const char *rest[] = {"e7e8", "a7b7", "e8e9", "b7b6", "e9e8"};
    for (int i = 0; i < 5; i++) {
        GameStatus a = pos_game_status(&pos), b = pos_game_status(back);
        assert_int_equal(a.result, RESULT_NONE);
        assert_int_equal(b.result, RESULT_NONE);
        test_play(&pos, rest[i]);
        test_play(back, rest[i]);
        assert_int_equal(back->limit_count, pos.limit_count);
    }
    assert_status(pos_game_status(back), RESULT_DRAW, TERM_MOVE_LIMIT);
    /* Without cap-uncounted plies the field is not written; a FEN without it starts the count at
     * the no-capture counter. */
    test_set_fen(back, v, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 4 3");
    assert_int_equal(back->limit_count, 4);
    pos_get_fen(back, fen, sizeof fen);
    assert_string_equal(fen, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 4 3");
    /* Refused: a count above the counter, more checks than plies, a malformed or repeated field. */
    XqError err;
    const char *bad[] = {
        "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 4 3 [limit:5/0/0]",
        "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 4 3 [limit:2/3/2]",
        "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 4 3 [limit:2/1]",
        "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 4 3 [limit:2/1/0x]",
        "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 4 3 [limit:2/1/0] [limit:2/1/0]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (pos_set_fen(back, v, bad[i], &err) == 0)
            fail_msg("accepted '%s'", bad[i]);
    free(back);
    variant_free(v);
}

static void mate_on_limit_ply_wins(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    /* Ply 120 is a quiet mating move: the mate wins (RULES.md 1). */
    test_set_fen(&pos, v, "4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 119 80");
    test_play(&pos, "a1a9");
    assert_int_equal(pos.limit_count, 120);
    assert_status(pos_game_status(&pos), RESULT_RED_WINS, TERM_CHECKMATE);
    /* Ply 120 stalemates black: stalemate loses, also on the limit ply. */
    test_set_fen(&pos, v, "4k4/R8/5P3/9/9/9/9/9/9/3K5 w - - 119 80");
    test_play(&pos, "f7f8");
    assert_status(pos_game_status(&pos), RESULT_RED_WINS, TERM_STALEMATE);
    /* A quiet non-mating ply 120 draws. */
    test_set_fen(&pos, v, "4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 119 80");
    test_play(&pos, "a1a2");
    assert_status(pos_game_status(&pos), RESULT_DRAW, TERM_MOVE_LIMIT);
    variant_free(v);
}

static void status_format(void **state)
{
    (void)state;
    char buf[64];
    game_status_format((GameStatus){RESULT_RED_WINS, TERM_CHECKMATE}, buf, sizeof buf);
    assert_string_equal(buf, "win for red (checkmate)");
    game_status_format((GameStatus){RESULT_DRAW, TERM_MOVE_LIMIT}, buf, sizeof buf);
    assert_string_equal(buf, "draw (move limit)");
    game_status_format((GameStatus){RESULT_NONE, TERM_NONE}, buf, sizeof buf);
    assert_string_equal(buf, "ongoing");
    game_status_format((GameStatus){RESULT_BLACK_WINS, TERM_PERPETUAL_CHECK}, buf, sizeof buf);
    assert_string_equal(buf, "win for black (perpetual check)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(repetition_cases_asian),
        cmocka_unit_test(repetition_reasons),
        cmocka_unit_test(repetition_options),
        cmocka_unit_test(chase_of_two_pieces),
        cmocka_unit_test(checkmate_loses),
        cmocka_unit_test(stalemate_loses_or_draws),
        cmocka_unit_test(move_limit_draws),
        cmocka_unit_test(move_limit_check_cap),
        cmocka_unit_test(move_limit_state_in_fen),
        cmocka_unit_test(mate_on_limit_ply_wins),
        cmocka_unit_test(status_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
