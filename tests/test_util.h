/* test_util.h - shared helpers for the cmocka test programs. */
#ifndef XQ_TEST_UTIL_H
#define XQ_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "position.h"

/* Loads configs/variants/NAME.ini from the source tree or fails the test. */
static inline Variant *test_load_variant(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/variants/%s.ini", XQ_SOURCE_DIR, name);
    XqError err;
    Variant *v = variant_load_file(path, &err);
    if (!v) {
        char buf[1024];
        xq_error_format(&err, buf, sizeof buf);
        fail_msg("%s", buf);
    }
    return v;
}

/* Sets a FEN or fails the test. */
static inline void test_set_fen(Position *pos, const Variant *v, const char *fen)
{
    XqError err;
    if (pos_set_fen(pos, v, fen, &err) != 0)
        fail_msg("bad FEN '%s': %s", fen, err.message);
}

/* Plays space-separated ICCS moves or fails the test. */
static inline void test_play(Position *pos, const char *moves)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        char why[256];
        Move m = move_parse(pos, tok, why, sizeof why);
        if (m == XQ_MOVE_NONE)
            fail_msg("%s", why);
        Undo u;
        pos_do_move(pos, m, &u);
    }
}

#endif
