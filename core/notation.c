/* notation.c - ICCS and WXF move notation. */
#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void move_to_iccs(const Variant *v, Move m, char *buf)
{
    char a[8], b[8];
    variant_point_name(v, XQ_MOVE_FROM(m), a);
    variant_point_name(v, XQ_MOVE_TO(m), b);
    snprintf(buf, 16, "%s%s", a, b);
}

Move move_parse(Position *pos, const char *text, char *why, size_t why_size)
{
    const Variant *v = pos->v;
    const char *s = text;
    while (*s == ' ')
        s++;
    Point from = variant_parse_point(v, &s);
    if (*s == '-')
        s++;
    Point to = variant_parse_point(v, &s);
    while (*s == ' ')
        s++;
    if (from == XQ_NO_POINT || to == XQ_NO_POINT || *s) {
        snprintf(why, why_size, "'%s' is not a move on this board (expected e.g. h2e2)", text);
        return XQ_MOVE_NONE;
    }
    Move m = XQ_MOVE(from, to);
    Piece pc = pos->board[from];
    if (!pc) {
        snprintf(why, why_size, "'%s': no piece on the from point", text);
        return XQ_MOVE_NONE;
    }
    if (XQ_PIECE_SIDE(pc) != pos->side) {
        snprintf(why, why_size, "'%s': the piece on the from point belongs to %s, not the side "
                 "to move", text, XQ_PIECE_SIDE(pc) == RED ? "red" : "black");
        return XQ_MOVE_NONE;
    }
    MoveList pseudo;
    pos_generate_pseudo(pos, &pseudo);
    bool found = false;
    for (int i = 0; i < pseudo.count; i++)
        found |= pseudo.moves[i] == m;
    if (!found) {
        snprintf(why, why_size, "'%s': the %s cannot move there", text,
                 v->kinds[XQ_PIECE_KIND(pc)].name);
        return XQ_MOVE_NONE;
    }
    if (!pos_is_legal(pos, m)) {
        snprintf(why, why_size, "'%s': leaves the own general attacked", text);
        return XQ_MOVE_NONE;
    }
    return m;
}
