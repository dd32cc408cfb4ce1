/* uci_notation.h - coordinate moves between rank conventions: ICCS, UCCI and Pikafish count
 * ranks from 0 ("h2e2", the project's notation), Fairy-Stockfish's UCI counts them from 1
 * ("h3e3"); files are letters from 'a' in both. */
#ifndef XQ_UCI_NOTATION_H
#define XQ_UCI_NOTATION_H

#include <stddef.h>

/* Rewrites every square of `in` (a file letter followed by rank digits) with its rank moved by
 * `delta` (+1: from ranks-from-0 to ranks-from-1, -1: back), copying anything else (a suffix such
 * as a promotion letter) unchanged. Returns 0, or -1 if `in` does not start with a square, a rank
 * would leave 0..99, or the result does not fit in `size` bytes. */
int uci_move_shift_ranks(const char *in, int delta, char *out, size_t size);

#endif
