/* rules_test.h - helpers shared by the rule-set test programs: legal-move lists as sorted ICCS
 * text, FEN and perft expectations, variant files with one line changed. */
#ifndef XQ_TEST_RULES_TEST_H
#define XQ_TEST_RULES_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "position.h"

/* Sorts the blank-separated words of `in` into `out`. */
void sort_words(const char *in, char *out, size_t size);
/* All legal moves in ICCS (with module suffixes), sorted; with `prefix`, only moves starting
 * with it, written without it. */
void moves_text(Position *p, const char *prefix, char *out, size_t size);
/* Fails unless the legal moves (from `prefix`, if given) are exactly the words of `expected`. */
void expect_moves(Position *p, const char *prefix, const char *expected);
/* True if the ICCS text of some legal move equals `text`. */
bool has_move(Position *p, const char *text);
/* Fails unless the position's FEN is `want`. */
void expect_fen(const Position *p, const char *want);
/* The shipped variant `name` with the first occurrence of `from` replaced by `to`; the test
 * fails if it does not load. try_text_variant returns NULL with *err instead. */
Variant *load_text_variant(const char *name, const char *from, const char *to);
Variant *try_text_variant(const char *name, const char *from, const char *to, XqError *err);
/* Fails unless perft of the start position gives want[0..depth-1]. */
void expect_perft(const char *name, const uint64_t *want, int depth);

#endif
