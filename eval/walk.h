/* walk.h - private to mcts/: walks a variant's compiled move tables for one piece, counting
 * destinations (mobility) or listing captures, with the same semantics as core/movegen.c but
 * without building move lists the evaluation does not need. */
#ifndef XQ_MCTS_WALK_H
#define XQ_MCTS_WALK_H

#include "position.h"

/* Pseudo-legal destinations of the piece on `from`; *near counts those inside `area`. */
static inline int walk_mobility(const Variant *v, const Piece *b, Point from, const PointSet *area,
                                int *near)
{
    Piece pc = b[from];
    Side us = XQ_PIECE_SIDE(pc);
    const MoveTable *t = &v->table[XQ_PIECE_KIND(pc)][us][from];
    int n = 0, hits = 0;
    const LeapEntry *e = v->leaps + t->leap_first;
    for (int i = 0; i < t->leap_count; i++, e++) {
        if (b[e->block[0]] | b[e->block[1]])
            continue;
        Piece q = b[e->to];
        bool ok = !q ? (e->mode & ATOM_MOVE) != 0
                     : XQ_PIECE_SIDE(q) != us && (e->mode & ATOM_CAPTURE) &&
                           (e->targets >> XQ_PIECE_KIND(q) & 1);
        if (ok) {
            n++;
            hits += pointset_has(area, e->to);
        }
    }
    const Ray *r = v->rays + t->ray_first;
    for (int j = 0; j < t->ray_count; j++, r++) {
        const Point *pts = v->ray_points + r->first;
        int len = r->len, k = 0;
        bool slide_move = (r->flags & RAY_SLIDE_MOVE) != 0;
        for (; k < len && !b[pts[k]]; k++)
            if (slide_move && k < r->slide_max) {
                n++;
                hits += pointset_has(area, pts[k]);
            }
        if (k == len)
            continue;
        Piece q = b[pts[k]];
        if ((r->flags & RAY_SLIDE_CAPTURE) && k < r->slide_max && XQ_PIECE_SIDE(q) != us &&
            (r->targets >> XQ_PIECE_KIND(q) & 1)) {
            n++;
            hits += pointset_has(area, pts[k]);
        }
        if (!(r->flags & (RAY_HOP_MOVE | RAY_HOP_CAPTURE)))
            continue;
        k++;
        for (int s = 1; s < r->screens && k < len; k++)
            s += b[pts[k]] != 0;
        for (; k < len; k++) {
            q = b[pts[k]];
            if (!q) {
                if (r->flags & RAY_HOP_MOVE) {
                    n++;
                    hits += pointset_has(area, pts[k]);
                }
                if (r->flags & RAY_HOP_NEXT)
                    break; /* land=next: only the point right behind the screen */
                continue;
            }
            if ((r->flags & RAY_HOP_CAPTURE) && XQ_PIECE_SIDE(q) != us &&
                (r->targets >> XQ_PIECE_KIND(q) & 1)) {
                n++;
                hits += pointset_has(area, pts[k]);
            }
            break;
        }
    }
    *near += hits;
    return n;
}

/* Appends the pseudo-legal captures of the piece on `from` by the table slice t (the plain one
 * or one a rule module switched to, pos_piece_table) to out[]; returns the new count. */
static inline int walk_captures_t(const Variant *v, const Piece *b, Point from, const MoveTable *t,
                                  Move *out, int n)
{
    Side us = XQ_PIECE_SIDE(b[from]);
    const LeapEntry *e = v->leaps + t->leap_first;
    for (int i = 0; i < t->leap_count; i++, e++) {
        Piece q = b[e->to];
        if (q && XQ_PIECE_SIDE(q) != us && (e->mode & ATOM_CAPTURE) &&
            (e->targets >> XQ_PIECE_KIND(q) & 1) && !(b[e->block[0]] | b[e->block[1]]))
            out[n++] = XQ_MOVE(from, e->to);
    }
    const Ray *r = v->rays + t->ray_first;
    for (int j = 0; j < t->ray_count; j++, r++) {
        if (!(r->flags & (RAY_SLIDE_CAPTURE | RAY_HOP_CAPTURE)))
            continue;
        const Point *pts = v->ray_points + r->first;
        int len = r->len, k = 0;
        while (k < len && !b[pts[k]])
            k++;
        if (k == len)
            continue;
        Piece q = b[pts[k]];
        if ((r->flags & RAY_SLIDE_CAPTURE) && k < r->slide_max && XQ_PIECE_SIDE(q) != us &&
            (r->targets >> XQ_PIECE_KIND(q) & 1))
            out[n++] = XQ_MOVE(from, pts[k]);
        if (!(r->flags & RAY_HOP_CAPTURE))
            continue;
        k++;
        for (int s = 1; s < r->screens && k < len; k++)
            s += b[pts[k]] != 0;
        while (k < len && !b[pts[k]] && !(r->flags & RAY_HOP_NEXT))
            k++;
        if (k == len)
            continue;
        q = b[pts[k]];
        if (XQ_PIECE_SIDE(q) != us && (r->targets >> XQ_PIECE_KIND(q) & 1))
            out[n++] = XQ_MOVE(from, pts[k]);
    }
    return n;
}

/* The same by the piece's plain table. */
static inline int walk_captures(const Variant *v, const Piece *b, Point from, Move *out, int n)
{
    Piece pc = b[from];
    return walk_captures_t(v, b, from, &v->table[XQ_PIECE_KIND(pc)][XQ_PIECE_SIDE(pc)][from], out, n);
}

#endif
