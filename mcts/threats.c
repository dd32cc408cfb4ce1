/* threats.c - attack maps by walking each piece's capture patterns over the board. */
#include "threats.h"

#include <string.h>

#include "hidden.h"

/* Marks the points the piece moving by table t (slot `bit` of its side) could capture on: the ends of
 * its unblocked capture leaps, the points of its sliding captures up to the first piece, and
 * those after the screens of its hopping captures up to the next piece, whoever stands there. */
static void mark_piece(const Position *pos, const MoveTable *t, uint64_t *by,
                       uint64_t bit)
{
    const Variant *v = pos->v;
    const Piece *b = pos->board;
    const LeapEntry *e = v->leaps + t->leap_first;
    for (int i = 0; i < t->leap_count; i++, e++)
        if ((e->mode & ATOM_CAPTURE) && !(b[e->block[0]] | b[e->block[1]]))
            by[e->to] |= bit;
    const Ray *r = v->rays + t->ray_first;
    for (int j = 0; j < t->ray_count; j++, r++) {
        if (!(r->flags & (RAY_SLIDE_CAPTURE | RAY_HOP_CAPTURE)))
            continue;
        const Point *pts = v->ray_points + r->first;
        int len = r->len, k = 0;
        for (; k < len; k++) {
            if ((r->flags & RAY_SLIDE_CAPTURE) && k < r->slide_max)
                by[pts[k]] |= bit;
            if (b[pts[k]])
                break;
        }
        if (!(r->flags & RAY_HOP_CAPTURE) || k >= len)
            continue;
        k++;
        for (int s = 1; s < r->screens && k < len; k++)
            s += b[pts[k]] != 0;
        for (; k < len; k++) {
            by[pts[k]] |= bit;
            if (b[pts[k]])
                break;
        }
    }
}

void attack_map_build(const Position *pos, AttackMap *a)
{
    const Variant *v = pos->v;
    bool vary = variant_tables_vary(v);
    memset(a, 0, sizeof *a);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pos->count[s]; i++) {
            Point from = pos->list[s][i];
            Piece pc = pos->board[from];
            if (hidden_is_down(v, pc))
                continue;
            const MoveTable *t =
                vary ? pos_piece_table(pos, from) : &v->table[XQ_PIECE_KIND(pc)][s][from];
            mark_piece(pos, t, a->by[s], (uint64_t)1 << i);
        }
}
