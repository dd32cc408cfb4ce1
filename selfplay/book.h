/* book.h - opening books: files of start positions for matches, self-play and the strength
 * benchmark, one opening a line. */
#ifndef XQ_BOOK_H
#define XQ_BOOK_H

#include "position.h"

/* One opening: a base position (the variant's start position, or a FEN) and the moves played
 * from it, checked legal and leaving the game undecided. */
typedef struct BookEntry {
    char base_fen[256];    /* "" = the variant's start position */
    int nmoves;
    Move *moves;           /* nmoves moves from the base position */
    char fen[256];         /* the position after the moves */
    int line;              /* 1-based line of the file */
} BookEntry;

typedef struct Book {
    int count;
    BookEntry *entries;
} Book;

/* Reads an opening book for variant v. Each line that is not blank or a comment (from '#' to the
 * end of the line) is one opening, in one of three forms:
 *   h2e2 h9g7 b0c2           moves (ICCS, as `xqlab play` takes them) from the start position
 *   FEN                      a position (six FEN fields, plus any bracketed module fields)
 *   FEN moves h2e2 h9g7      moves from that position
 * Every move must be legal and the game must go on after the last one. Errors name file:line and
 * the move; an empty book is an error. Returns 0, or -1 with *err (nothing to free then). */
int book_load(Book *b, const Variant *v, const char *path, XqError *err);

/* Frees the entries (NULL allowed; the struct itself is the caller's). */
void book_free(Book *b);

/* Sets pos to opening i by replaying its moves from its base position, so the position's
 * history (for repetition verdicts) holds them. Cannot fail on an entry book_load accepted. */
void book_position(const Book *b, int i, const Variant *v, Position *pos);

#endif
