/* see.c - static exchange evaluation by the swap list on a copy of the board. */
#include "see.h"

#include <string.h>

#include "hidden.h"
#include "walk.h"

enum { SEE_MAX_SWAPS = 40 };

/* A royal piece is chosen last, and whatever takes it ends the exchange. */
static const double ROYAL_VALUE = 1e6;

bool see_supported(const Variant *v)
{
    return v->modules == 0 && !hidden_on(v);
}

static inline double piece_value(const Variant *v, const double *value, Piece pc)
{
    int kind = XQ_PIECE_KIND(pc);
    return (v->royal_mask >> kind & 1) ? ROYAL_VALUE : value[kind];
}

/* The point of the least valuable piece of side `us` that captures on `to` on the board b
 * (pieces of pos that have not moved in the exchange), XQ_NO_POINT if none. */
static Point least_attacker(const Position *pos, const Piece *b, const double *value, Side us,
                            Point to)
{
    const Variant *v = pos->v;
    Point best = XQ_NO_POINT;
    double best_value = 2 * ROYAL_VALUE;
    Move caps[XQ_MAX_MOVES];
    for (int i = 0; i < pos->count[us]; i++) {
        Point from = pos->list[us][i];
        Piece pc = b[from];
        if (from == to || pc != pos->board[from])
            continue; /* moved onto `to` or taken there */
        double val = piece_value(v, value, pc);
        if (val >= best_value)
            continue;
        if (!pointset_has(&v->capture_reach[XQ_PIECE_KIND(pc)][us][from], to))
            continue; /* cannot reach `to` even on an empty board */
        const MoveTable *t = &v->table[XQ_PIECE_KIND(pc)][us][from];
        if (t->leap_count + 2 * t->ray_count > XQ_MAX_MOVES)
            continue;
        int n = walk_captures_t(v, b, from, t, caps, 0);
        for (int k = 0; k < n; k++)
            if (XQ_MOVE_TO(caps[k]) == to) {
                best = from;
                best_value = val;
                break;
            }
    }
    return best;
}

double see(const Position *pos, const double *value, Move mv)
{
    const Variant *v = pos->v;
    Point from = XQ_MOVE_FROM(mv), to = XQ_MOVE_TO(mv);
    if (!pos->board[to])
        return 0;
    Piece b[sizeof pos->board / sizeof pos->board[0]];
    memcpy(b, pos->board, sizeof b);
    double gain[SEE_MAX_SWAPS];
    int d = 0;
    gain[0] = piece_value(v, value, b[to]);
    double on_to = piece_value(v, value, b[from]); /* what the next capture on `to` takes */
    b[to] = b[from];
    b[from] = XQ_EMPTY;
    Side side = XQ_OTHER(pos->side);
    while (d + 1 < SEE_MAX_SWAPS) {
        Point a = least_attacker(pos, b, value, side, to);
        if (a == XQ_NO_POINT)
            break;
        Piece pc = b[a], taken = b[to];
        b[to] = pc;
        b[a] = XQ_EMPTY;
        if ((v->royal_mask >> XQ_PIECE_KIND(pc) & 1) &&
            least_attacker(pos, b, value, XQ_OTHER(side), to) != XQ_NO_POINT) {
            b[a] = pc; /* the royal piece may not recapture into a capture */
            b[to] = taken;
            break;
        }
        d++;
        gain[d] = on_to - gain[d - 1];
        on_to = piece_value(v, value, pc);
        side = XQ_OTHER(side);
    }
    /* Each side takes back only when that beats stopping. */
    for (; d > 0; d--)
        if (-gain[d] < gain[d - 1])
            gain[d - 1] = -gain[d];
    return gain[0];
}
