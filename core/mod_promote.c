/* mod_promote.c - rule module: a piece landing in a zone is promoted at once, in the same move
 * (docs/variants/tuoqi.md, tuoqi: a pawn stepping onto the enemy queen point becomes a queen). */
#include <stdio.h>
#include <string.h>

#include "module.h"

static void promote_defaults(Variant *v)
{
    v->promote.kinds = 0;
    v->promote.zone = v->promote.to = -1;
}

/* [promotion] pieces = P, zone = promotion, to = Q. */
static int promote_parse(Variant *v, const IniEntry *e, const char *file, XqError *err)
{
    PromoteOptions *o = &v->promote;
    if (!strcmp(e->key, "pieces") || !strcmp(e->key, "to")) {
        uint16_t mask;
        if (module_kind_mask(v, e->value, &mask) < 0)
            return module_fail(err, file, e->line, "[promotion] %s: '%s' is not a list of piece "
                               "letters", e->key, e->value);
        if (e->key[0] == 'p') {
            o->kinds = mask;
        } else {
            if (mask & (mask - 1))
                return module_fail(err, file, e->line, "[promotion] to: give exactly one piece "
                                   "letter, not '%s'", e->value);
            for (o->to = 0; !(mask >> o->to & 1); o->to++)
                ;
        }
    } else if (!strcmp(e->key, "zone")) {
        o->zone = variant_find_zone(v, e->value);
        if (o->zone < 0)
            return module_fail(err, file, e->line, "[promotion] zone: unknown zone '%s' (declare "
                               "it in [zones])", e->value);
    } else {
        return module_fail(err, file, e->line, "unknown key '%s' in [promotion] (expected "
                           "pieces, zone, to)", e->key);
    }
    return 0;
}

static int promote_finish(Variant *v, const char *file, XqError *err)
{
    const PromoteOptions *o = &v->promote;
    if (!o->kinds || o->zone < 0 || o->to < 0)
        return module_fail(err, file, 0, "[promotion] needs pieces = LETTERS, zone = ZONE and "
                           "to = LETTER");
    if (v->royal_mask & (o->kinds | 1u << o->to))
        return module_fail(err, file, 0, "[promotion] cannot promote a royal piece or to one");
    return 0;
}

int promote_kind_at(const Variant *v, int kind, Side side, Point p)
{
    const PromoteOptions *o = &v->promote;
    if (!(v->modules & MOD_PROMOTE) || !(o->kinds >> kind & 1) ||
        !variant_in_zone(v, o->zone, side, p))
        return -1;
    return o->to;
}

/* The table walk yields the plain step into the zone; the legal list carries it flagged, so
 * do / undo change the piece (legality is the same: the square's occupancy does not change). */
static int promote_filter(Position *pos, MoveList *list)
{
    const Variant *v = pos->v;
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (XQ_MOVE_FLAGS(m))
            continue;
        Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
        int to_kind = promote_kind_at(v, XQ_PIECE_KIND(pos->board[from]), pos->side, to);
        if (to_kind >= 0)
            list->moves[i] = XQ_MOVE_SPECIAL(from, to, to_kind, XQ_FLAG_PROMOTE);
    }
    return list->count;
}

static void promote_do(Position *pos, Move m, Undo *u)
{
    Point to = XQ_MOVE_TO(m);
    u->captured = pos_move_piece(pos, XQ_MOVE_FROM(m), to, &u->captured_slot);
    u->replaced = pos->board[to];
    pos_replace_piece(pos, to, XQ_PIECE(pos->side, XQ_MOVE_EXTRA(m)));
}

static void promote_undo(Position *pos, Move m, const Undo *u)
{
    Point to = XQ_MOVE_TO(m);
    pos->board[to] = u->replaced; /* key restored by the caller */
    pos_unmove_piece(pos, XQ_MOVE_FROM(m), to, u->captured, u->captured_slot);
}

static bool promote_owns(uint8_t flags)
{
    return flags == XQ_FLAG_PROMOTE;
}

const RuleModule MOD_PROMOTE_MODULE = {
    .section = "promotion",
    .bit = MOD_PROMOTE,
    .defaults = promote_defaults,
    .parse_option = promote_parse,
    .finish_load = promote_finish,
    .filter_legal = promote_filter,
    .do_special = promote_do,
    .undo_special = promote_undo,
    .owns_flags = promote_owns,
};
