/* mod_reserve.c - rule module: captured pieces go to their owner's reserve and come back by
 * exchanging a piece on a zone (docs/variants/mixed.md, mixed: a pawn on the enemy back rank for a
 * captured own cannon, as a whole move, written "h9h9=C"). */
#include <stdio.h>
#include <string.h>

#include "module.h"

static void reserve_defaults(Variant *v)
{
    v->reserve.zone = -1;
}

/* [reserve] pieces = C, exchange = P, zone = enemy_back. */
static int reserve_parse(Variant *v, const IniEntry *e, const char *file, XqError *err)
{
    ReserveOptions *o = &v->reserve;
    if (!strcmp(e->key, "pieces") || !strcmp(e->key, "exchange")) {
        uint16_t mask;
        if (module_kind_mask(v, e->value, &mask) < 0)
            return module_fail(err, file, e->line, "[reserve] %s: '%s' is not a list of piece "
                               "letters", e->key, e->value);
        if (e->key[0] == 'p') {
            if (mask & (mask - 1))
                return module_fail(err, file, e->line, "[reserve] pieces: give exactly one "
                                   "piece letter, not '%s'", e->value);
            o->kinds = mask;
        } else {
            o->exchange_kinds = mask;
        }
    } else if (!strcmp(e->key, "zone")) {
        o->zone = variant_find_zone(v, e->value);
        if (o->zone < 0)
            return module_fail(err, file, e->line, "[reserve] zone: unknown zone '%s' (declare "
                               "it in [zones])", e->value);
    } else {
        return module_fail(err, file, e->line, "unknown key '%s' in [reserve] (expected pieces, "
                           "exchange, zone)", e->key);
    }
    return 0;
}

static int reserve_finish(Variant *v, const char *file, XqError *err)
{
    const ReserveOptions *o = &v->reserve;
    if (!o->kinds || !o->exchange_kinds)
        return module_fail(err, file, 0, "[reserve] needs pieces = LETTER and exchange = "
                           "LETTERS");
    if (o->zone < 0)
        return module_fail(err, file, 0, "[reserve] needs zone = ZONE");
    return 0;
}

static int reserve_kind(const Variant *v)
{
    int k = 0;
    while (!(v->reserve.kinds >> k & 1))
        k++;
    return k;
}

static void reserve_init(Position *pos)
{
    pos->module[MS_RESERVE + RED] = pos->module[MS_RESERVE + BLACK] = 0;
}

/* "[reserve:C/c]": Red's reserve pieces, '/', Black's; a letter per piece. */
static int reserve_fen_read(Position *pos, const char *body, XqError *err)
{
    const Variant *v = pos->v;
    int k = reserve_kind(v), side = RED, n[2] = {0, 0};
    char up = v->kinds[k].letter, low = (char)(up - 'A' + 'a');
    for (const char *c = body; *c; c++) {
        if (*c == '/' && side == RED) {
            side = BLACK;
        } else if ((side == RED && *c == up) || (side == BLACK && *c == low)) {
            if (++n[side] > 200)
                return module_fail(err, "FEN", 0, "[reserve] holds too many pieces");
        } else if (*c != '-') {
            return module_fail(err, "FEN", 0, "[reserve:%s]: expected %c letters, '/', %c "
                               "letters", body, up, low);
        }
    }
    if (side != BLACK)
        return module_fail(err, "FEN", 0, "[reserve:%s]: expected red/black", body);
    pos->module[MS_RESERVE + RED] = (uint8_t)n[RED];
    pos->module[MS_RESERVE + BLACK] = (uint8_t)n[BLACK];
    return 0;
}

static void reserve_fen_write(const Position *pos, char *buf, size_t size)
{
    const Variant *v = pos->v;
    char up = v->kinds[reserve_kind(v)].letter;
    size_t n = 0;
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < pos->module[MS_RESERVE + s] && n + 2 < size; i++)
            buf[n++] = s == RED ? up : (char)(up - 'A' + 'a');
        if (s == RED && n + 2 < size)
            buf[n++] = '/';
    }
    buf[n] = '\0';
}

/* docs/variants/mixed.md: a pawn on the enemy back rank may be exchanged for a captured own cannon.
 */
static int reserve_generate(const Position *pos, MoveList *list, int n)
{
    const Variant *v = pos->v;
    Side us = pos->side;
    if (!pos->module[MS_RESERVE + us])
        return n;
    int k = reserve_kind(v);
    for (int i = 0; i < pos->count[us] && n < XQ_MAX_MOVES; i++) {
        Point p = pos->list[us][i];
        if ((v->reserve.exchange_kinds >> XQ_PIECE_KIND(pos->board[p]) & 1) &&
            variant_in_zone(v, v->reserve.zone, us, p) &&
            variant_in_zone(v, v->kinds[k].stand_zone, us, p))
            list->moves[n++] = XQ_MOVE_SPECIAL(p, p, k, XQ_FLAG_EXCHANGE);
    }
    return n;
}

static void reserve_do(Position *pos, Move m, Undo *u)
{
    Point p = XQ_MOVE_FROM(m);
    Side us = pos->side;
    u->replaced = pos->board[p];
    pos_replace_piece(pos, p, XQ_PIECE(us, XQ_MOVE_EXTRA(m)));
    pos_module_set(pos, MS_RESERVE + us, (uint8_t)(pos->module[MS_RESERVE + us] - 1));
}

static void reserve_undo(Position *pos, Move m, const Undo *u)
{
    pos->board[XQ_MOVE_FROM(m)] = u->replaced; /* key and reserve restored by the caller */
}

/* A captured piece of a reserve kind goes to its owner's reserve. */
static void reserve_after(Position *pos, Move m, Side mover, const Undo *u)
{
    (void)m;
    const Variant *v = pos->v;
    Side them = XQ_OTHER(mover);
    Piece caps[2] = {u->captured, u->captured2};
    for (int i = 0; i < 2; i++)
        if (caps[i] && (v->reserve.kinds >> XQ_PIECE_KIND(caps[i]) & 1) &&
            pos->module[MS_RESERVE + them] < 255)
            pos_module_set(pos, MS_RESERVE + them, (uint8_t)(pos->module[MS_RESERVE + them] + 1));
}

/* A reserve piece returns only once a pawn of the side reaches the exchange zone, and costs
 * that pawn: a quarter of its value is a guess the tuner can correct (feature reserve.KIND). */
static int reserve_holdings(const Variant *v, Holding *out, int n)
{
    if (n < XQ_MAX_HOLDINGS)
        out[n++] = (Holding){.name = "reserve", .kind = reserve_kind(v), .worth = 0.25};
    return n;
}

static int reserve_held(const Position *pos, Side side, int kind)
{
    return kind == reserve_kind(pos->v) ? pos->module[MS_RESERVE + side] : 0;
}

/* "h9h9=C" that is no legal exchange: reserve empty, wrong piece or point, or the general left
 * attacked. */
static bool reserve_explain(Position *pos, const char *text, char *why, size_t size)
{
    const Variant *v = pos->v;
    const char *eq = strchr(text, '=');
    if (!eq)
        return false;
    const char *s = text;
    Point a = variant_parse_point(v, &s), b = variant_parse_point(v, &s);
    int k = reserve_kind(v);
    Side us = pos->side;
    int want = eq[1] && !eq[2] ? variant_find_kind_by_letter(v, eq[1]) : -1;
    if (s != eq || a == XQ_NO_POINT || a != b || want != k)
        snprintf(why, size, "'%s': an exchange is written with the point twice, '=' and %c (e.g. "
                 "h9h9=%c)", text, v->kinds[k].letter, v->kinds[k].letter);
    else if (!pos->board[a] || XQ_PIECE_SIDE(pos->board[a]) != us ||
             !(v->reserve.exchange_kinds >> XQ_PIECE_KIND(pos->board[a]) & 1))
        snprintf(why, size, "'%s': no piece of the side to move there that may be exchanged", text);
    else if (!pos->module[MS_RESERVE + us])
        snprintf(why, size, "'%s': no captured %s in the reserve to exchange for", text,
                 v->kinds[k].name);
    else if (!variant_in_zone(v, v->reserve.zone, us, a))
        snprintf(why, size, "'%s': a piece is exchanged only on the points of zone %s", text,
                 v->zones[v->reserve.zone].name);
    else
        snprintf(why, size, "'%s': leaves the own general attacked", text);
    return true;
}

static bool reserve_owns(uint8_t flags)
{
    return flags == XQ_FLAG_EXCHANGE;
}

static void reserve_text(const Variant *v, Move m, char *buf, size_t size)
{
    char a[8];
    variant_point_name(v, XQ_MOVE_FROM(m), a);
    snprintf(buf, size, "%s%s=%c", a, a, v->kinds[XQ_MOVE_EXTRA(m)].letter);
}

const RuleModule MOD_RESERVE_MODULE = {
    .section = "reserve",
    .bit = MOD_RESERVE,
    .fen_tag = "reserve",
    .defaults = reserve_defaults,
    .parse_option = reserve_parse,
    .finish_load = reserve_finish,
    .init_state = reserve_init,
    .fen_read = reserve_fen_read,
    .fen_write = reserve_fen_write,
    .generate = reserve_generate,
    .do_special = reserve_do,
    .undo_special = reserve_undo,
    .after_move = reserve_after,
    .owns_flags = reserve_owns,
    .move_text = reserve_text,
    .explain = reserve_explain,
    .holdings = reserve_holdings,
    .held = reserve_held,
};
