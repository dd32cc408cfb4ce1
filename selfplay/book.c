/* book.c - opening books: one start position a line (moves, a FEN, or a FEN and moves), each
 * checked by replaying it with the rules core. */
#include "book.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "status.h"

static int fail(XqError *err, const char *path, int line, const char *fmt, ...)
{
    snprintf(err->file, sizeof err->file, "%s", path);
    err->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* Parses one opening line (comment already cut, not blank) into *e. */
static int parse_line(BookEntry *e, const Variant *v, char *text, const char *path, int line,
                      XqError *err)
{
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return fail(err, path, line, "out of memory");
    memset(e, 0, sizeof *e);
    e->line = line;
    char *moves = text;
    int rc = -1;
    /* A FEN's board field has '/' between ranks; a move never does. */
    char *first_space = strpbrk(text, " \t");
    size_t first_len = first_space ? (size_t)(first_space - text) : strlen(text);
    if (memchr(text, '/', first_len)) {
        char *kw = strstr(text, " moves ");
        if (!kw && strlen(text) >= 6 && !strcmp(text + strlen(text) - 6, " moves"))
            kw = text + strlen(text) - 6;
        if (kw) {
            *kw = '\0';
            moves = kw + 6;
        } else {
            moves = text + strlen(text);
        }
        if (strlen(text) >= sizeof e->base_fen) {
            fail(err, path, line, "FEN too long (at most 255 characters)");
            goto done;
        }
        XqError ferr;
        if (pos_set_fen(pos, v, text, &ferr) != 0) {
            fail(err, path, line, "bad FEN: %s", ferr.message);
            goto done;
        }
        snprintf(e->base_fen, sizeof e->base_fen, "%s", text);
    } else {
        pos_init_start(pos, v);
    }
    GameStatus st = pos_game_status(pos);
    int cap = 0;
    for (char *tok = strtok(moves, " \t,"); tok; tok = strtok(NULL, " \t,")) {
        if (st.result != RESULT_NONE) {
            fail(err, path, line, "move '%s' comes after the end of the game", tok);
            goto done;
        }
        char why[XQ_MSG_MAX];
        Move m = move_parse(pos, tok, why, sizeof why);
        if (m == XQ_MOVE_NONE) {
            fail(err, path, line, "move %d: %s", e->nmoves + 1, why);
            goto done;
        }
        if (e->nmoves == cap) {
            cap = cap ? 2 * cap : 16;
            Move *grown = realloc(e->moves, (size_t)cap * sizeof *grown);
            if (!grown) {
                fail(err, path, line, "out of memory");
                goto done;
            }
            e->moves = grown;
        }
        e->moves[e->nmoves++] = m;
        Undo u;
        pos_do_move(pos, m, &u);
        st = pos_game_status(pos);
    }
    if (st.result != RESULT_NONE) {
        char what[96];
        game_status_format(st, what, sizeof what);
        fail(err, path, line, "the opening ends the game (%s)", what);
        goto done;
    }
    pos_get_fen(pos, e->fen, sizeof e->fen);
    rc = 0;
done:
    if (rc != 0) {
        free(e->moves);
        e->moves = NULL;
    }
    free(pos);
    return rc;
}

int book_load(Book *b, const Variant *v, const char *path, XqError *err)
{
    memset(b, 0, sizeof *b);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err->file, sizeof err->file, "%s", path);
        err->line = 0;
        snprintf(err->message, sizeof err->message, "cannot open: %s", strerror(errno));
        return -1;
    }
    char text[4096];
    int line = 0, cap = 0;
    while (fgets(text, sizeof text, f)) {
        line++;
        size_t len = strlen(text);
        if (len == sizeof text - 1 && text[len - 1] != '\n' && !feof(f)) {
            fail(err, path, line, "line too long (at most 4094 characters)");
            goto fail;
        }
        char *hash = strchr(text, '#');
        if (hash)
            *hash = '\0';
        len = strlen(text);
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' ' ||
                           text[len - 1] == '\t'))
            text[--len] = '\0';
        char *start = text + strspn(text, " \t");
        if (!*start)
            continue;
        if (b->count == cap) {
            cap = cap ? 2 * cap : 64;
            BookEntry *grown = realloc(b->entries, (size_t)cap * sizeof *grown);
            if (!grown) {
                fail(err, path, line, "out of memory");
                goto fail;
            }
            b->entries = grown;
        }
        if (parse_line(&b->entries[b->count], v, start, path, line, err) != 0)
            goto fail;
        b->count++;
    }
    if (ferror(f)) {
        fail(err, path, line, "read error: %s", strerror(errno));
        goto fail;
    }
    fclose(f);
    if (b->count == 0) {
        fail(err, path, 0, "the book holds no opening (every line is blank or a comment)");
        book_free(b);
        return -1;
    }
    return 0;
fail:
    fclose(f);
    book_free(b);
    return -1;
}

void book_free(Book *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->count; i++)
        free(b->entries[i].moves);
    free(b->entries);
    b->entries = NULL;
    b->count = 0;
}

void book_position(const Book *b, int i, const Variant *v, Position *pos)
{
    const BookEntry *e = &b->entries[i];
    if (e->base_fen[0]) {
        XqError ignored;
        int rc = pos_set_fen(pos, v, e->base_fen, &ignored);
        (void)rc; /* checked by book_load */
    } else {
        pos_init_start(pos, v);
    }
    for (int k = 0; k < e->nmoves; k++) {
        Undo u;
        pos_do_move(pos, e->moves[k], &u);
    }
}
