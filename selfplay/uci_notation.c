/* uci_notation.c - coordinate moves between ranks-from-0 and ranks-from-1 conventions. */
#include "uci_notation.h"

#include <stdio.h>

static int is_file(char c) { return c >= 'a' && c <= 'z'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

int uci_move_shift_ranks(const char *in, int delta, char *out, size_t size)
{
    if (!is_file(in[0]) || !is_digit(in[1]))
        return -1;
    size_t o = 0;
    for (const char *p = in; *p;) {
        if (is_file(p[0]) && is_digit(p[1])) {
            char file = *p++;
            int rank = 0, digits = 0;
            while (is_digit(*p)) {
                rank = rank * 10 + (*p++ - '0');
                if (++digits > 2)
                    return -1;
            }
            rank += delta;
            if (rank < 0 || rank > 99)
                return -1;
            int n = snprintf(out + o, size > o ? size - o : 0, "%c%d", file, rank);
            if (n < 0 || (size_t)n >= (size > o ? size - o : 0))
                return -1;
            o += (size_t)n;
        } else {
            if (o + 1 >= size)
                return -1;
            out[o++] = *p++;
        }
    }
    if (o >= size)
        return -1;
    out[o] = '\0';
    return 0;
}
