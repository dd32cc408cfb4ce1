/* test_book.c - opening books: the three line forms, replayed history, and every refusal with
 * its file:line. */
#include "test_util.h"

#include <unistd.h>

#include "book.h"
#include "status.h"

static char *write_book(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/xq_book_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void reads_the_three_forms(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    char *path = write_book("# comment line\n"
                            "h2e2 h9g7   # moves from the start\n"
                            "\n"
                            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"
                            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2\r\n");
    Book b;
    XqError err;
    assert_int_equal(book_load(&b, v, path, &err), 0);
    assert_int_equal(b.count, 3);
    assert_int_equal(b.entries[0].line, 2);
    assert_int_equal(b.entries[0].nmoves, 2);
    assert_string_equal(b.entries[0].base_fen, "");
    assert_string_equal(b.entries[0].fen,
                        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    assert_int_equal(b.entries[1].nmoves, 0);
    assert_int_equal(b.entries[2].line, 5);
    assert_int_equal(b.entries[2].nmoves, 1);
    assert_string_equal(b.entries[2].fen,
                        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b - - 1 1");
    /* The replayed position keeps the opening's moves in its history. */
    Position *pos = malloc(sizeof *pos);
    book_position(&b, 0, v, pos);
    char fen[256];
    pos_get_fen(pos, fen, sizeof fen);
    assert_string_equal(fen, b.entries[0].fen);
    assert_int_equal(pos->hist_len, 2);
    free(pos);
    book_free(&b);
    book_free(&b); /* twice is harmless */
    unlink(path);
    variant_free(v);
}

static void expect_refusal(const Variant *v, const char *text, int line, const char *message)
{
    char *path = write_book(text);
    Book b;
    XqError err;
    assert_int_equal(book_load(&b, v, path, &err), -1);
    assert_int_equal(err.line, line);
    assert_string_equal(err.file, path);
    if (!strstr(err.message, message))
        fail_msg("message '%s' lacks '%s'", err.message, message);
    assert_int_equal(b.count, 0);
    assert_null(b.entries);
    unlink(path);
}

static void refuses_bad_lines(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    expect_refusal(v, "h2e2\nh2e2 h2e3\n", 2, "move 2:");
    expect_refusal(v, "h2e2 zz\n", 1, "move 2: 'zz' is not a move");
    expect_refusal(v, "rnbakabnr/9/1c5c1 w\n", 1, "bad FEN");
    expect_refusal(v, "# only comments\n\n", 0, "holds no opening");
    /* A move after a line's last move ended the game (a1a8 stalemates the black general). */
    expect_refusal(v, "h2e2\n3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1 moves a1a8 d9d8\n", 2,
                   "move 'd9d8' comes after the end of the game");
    variant_free(v);
    Book b;
    XqError err;
    v = test_load_variant("xiangqi");
    assert_int_equal(book_load(&b, v, "/nonexistent/book.txt", &err), -1);
    assert_non_null(strstr(err.message, "cannot open"));
    variant_free(v);
}

static void refuses_an_opening_that_ends_the_game(void **state)
{
    (void)state;
    Variant *v = test_load_variant("xiangqi");
    /* Line 1 goes on; on line 2 the chariot mates along the d file (the flying general guards
     * e9). */
    char *path = write_book("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1 moves a1b1\n"
                            "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1 moves a1d1\n");
    Book b;
    XqError err;
    int rc = book_load(&b, v, path, &err);
    unlink(path);
    assert_int_equal(rc, -1);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "ends the game"));
    variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_the_three_forms),
        cmocka_unit_test(refuses_bad_lines),
        cmocka_unit_test(refuses_an_opening_that_ends_the_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
