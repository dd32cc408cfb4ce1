/* mod_multimove.c - rule module: multi-move turns (docs/variants/five-tigers.md). One side's turn
 * is either one move of a piece not in `double`, or two sub-moves of pieces in `double` (one piece
 * twice or two pieces once each), the second mandatory when one is legal (option: optional); each
 * sub-move must leave the mover's general safe. A whole turn is one Move: the first sub-move in
 * from / to, the second in extra (its from point) and flags (XQ_FLAG_DOUBLE | its offset), so the
 * game, the search and the records see one ply per turn. A position between the sub-moves exists
 * only when set up from a FEN ("[turn:2]"); its moves are single second sub-moves, or the pass
 * (written 0000) that ends the turn when the second is optional or impossible. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"
#include "notation.h"

static void multi_defaults(Variant *v)
{
    v->multi.side = RED;
    v->multi.double_kinds = 0;
    v->multi.second_optional = false;
    v->multi.no_return = false;
}

/* [multimove] side = red, double = P, second = mandatory | optional, return = allowed | forbidden. */
static int multi_parse(Variant *v, const IniEntry *e, const char *file, XqError *err)
{
    MultiMoveOptions *o = &v->multi;
    if (!strcmp(e->key, "side")) {
        if (!strcmp(e->value, "red"))
            o->side = RED;
        else if (!strcmp(e->value, "black"))
            o->side = BLACK;
        else
            return module_fail(err, file, e->line, "[multimove] side must be red or black, not "
                               "'%s'", e->value);
    } else if (!strcmp(e->key, "double")) {
        if (module_kind_mask(v, e->value, &o->double_kinds) < 0)
            return module_fail(err, file, e->line, "[multimove] double: '%s' is not a list of "
                               "piece letters", e->value);
    } else if (!strcmp(e->key, "second")) {
        if (!strcmp(e->value, "mandatory"))
            o->second_optional = false;
        else if (!strcmp(e->value, "optional"))
            o->second_optional = true;
        else
            return module_fail(err, file, e->line, "[multimove] second must be mandatory or "
                               "optional, not '%s'", e->value);
    } else if (!strcmp(e->key, "return")) {
        if (!strcmp(e->value, "allowed"))
            o->no_return = false;
        else if (!strcmp(e->value, "forbidden"))
            o->no_return = true;
        else
            return module_fail(err, file, e->line, "[multimove] return must be allowed or "
                               "forbidden, not '%s'", e->value);
    } else {
        return module_fail(err, file, e->line, "unknown key '%s' in [multimove] (expected side, "
                           "double, second, return)", e->key);
    }
    return 0;
}

/* Chebyshev distance between two points. */
static int distance(const Variant *v, Point a, Point b)
{
    int df = abs(v->point_file[a] - v->point_file[b]), dr = abs(v->point_rank[a] - v->point_rank[b]);
    return df > dr ? df : dr;
}

/* The farthest any move of `kind` (for `side`) can go, over every point. */
static int farthest_move(const Variant *v, int kind, Side side)
{
    int far = 0;
    for (Point p = 0; p < v->npoints; p++) {
        const MoveTable *t = &v->table[kind][side][p];
        for (int i = 0; i < t->leap_count; i++) {
            int d = distance(v, p, v->leaps[t->leap_first + i].to);
            far = d > far ? d : far;
        }
        for (int i = 0; i < t->ray_count; i++) {
            const Ray *r = &v->rays[t->ray_first + i];
            int n = r->flags & (RAY_HOP_MOVE | RAY_HOP_CAPTURE) ? r->len : r->slide_max;
            for (int j = 0; j < n && j < r->len; j++) {
                int d = distance(v, p, v->ray_points[r->first + j]);
                far = d > far ? d : far;
            }
        }
    }
    return far;
}

static int multi_finish(Variant *v, const char *file, XqError *err)
{
    if (!v->multi.double_kinds)
        return module_fail(err, file, 0, "[multimove] needs double = LETTERS");
    if (v->modules & ~(unsigned)(MOD_MULTIMOVE | MOD_RESERVE))
        return module_fail(err, file, 0, "[multimove] can only be combined with [reserve]");
    /* A turn stores its second sub-move as an offset of at most 3 files and 3 ranks: refuse
     * kinds that could go further rather than leave their long moves out. */
    for (int k = 0; k < v->nkinds; k++) {
        int far = v->multi.double_kinds >> k & 1 ? farthest_move(v, k, v->multi.side) : 0;
        if (far > 3)
            return module_fail(err, file, 0, "[multimove] double: %s moves up to %d points away; a "
                               "second sub-move may go at most 3 files and 3 ranks",
                               v->kinds[k].name, far);
    }
    return 0;
}

static void multi_init(Position *pos)
{
    pos->module[MS_MULTI_PENDING] = 0;
}

/* "[turn:1]": the next move starts a turn; "[turn:2]": the second sub-move is next. */
static int multi_fen_read(Position *pos, const char *body, XqError *err)
{
    if (strcmp(body, "1") && strcmp(body, "2"))
        return module_fail(err, "FEN", 0, "[turn:%s]: expected 1 or 2", body);
    if (body[0] == '2' && pos->side != pos->v->multi.side)
        return module_fail(err, "FEN", 0, "[turn:2]: only the side with double moves has a "
                           "second sub-move");
    pos->module[MS_MULTI_PENDING] = body[0] == '2';
    return 0;
}

static void multi_fen_write(const Position *pos, char *buf, size_t size)
{
    snprintf(buf, size, "%d", pos->module[MS_MULTI_PENDING] ? 2 : 1);
}

static inline bool is_double_piece(const Position *pos, Point p)
{
    return pos->board[p] && (pos->v->multi.double_kinds >> XQ_PIECE_KIND(pos->board[p]) & 1);
}

/* The second sub-move is stored as an offset of at most 3 files and 3 ranks. */
static bool fits_double(const Variant *v, Move m2)
{
    int df = v->point_file[XQ_MOVE_TO(m2)] - v->point_file[XQ_MOVE_FROM(m2)];
    int dr = v->point_rank[XQ_MOVE_TO(m2)] - v->point_rank[XQ_MOVE_FROM(m2)];
    return df >= -3 && df <= 3 && dr >= -3 && dr <= 3;
}

static Move make_double(const Variant *v, Move m1, Move m2)
{
    Point f2 = XQ_MOVE_FROM(m2), t2 = XQ_MOVE_TO(m2);
    int df = v->point_file[t2] - v->point_file[f2], dr = v->point_rank[t2] - v->point_rank[f2];
    return XQ_MOVE_SPECIAL(XQ_MOVE_FROM(m1), XQ_MOVE_TO(m1), f2,
                           XQ_FLAG_DOUBLE | XQ_DOUBLE_CODE(df, dr));
}

static Move pass_move(const Position *pos)
{
    Point p = pos->royal[pos->side] != XQ_NO_POINT ? pos->royal[pos->side] : pos->list[pos->side][0];
    return XQ_MOVE_SPECIAL(p, p, 0, XQ_FLAG_PASS);
}

/* Turns the legal single moves into the legal turns (docs/variants/five-tigers.md). */
static int multi_filter(Position *pos, MoveList *list)
{
    const Variant *v = pos->v;
    if (pos->side != v->multi.side)
        return list->count;
    int n = 0;
    if (pos->module[MS_MULTI_PENDING]) {
        /* Second sub-move: pieces of the double kinds only; pass if allowed or forced. */
        for (int i = 0; i < list->count; i++)
            if (!XQ_MOVE_FLAGS(list->moves[i]) && is_double_piece(pos, XQ_MOVE_FROM(list->moves[i])))
                list->moves[n++] = list->moves[i];
        if ((v->multi.second_optional || n == 0) && pos->count[pos->side] > 0)
            list->moves[n++] = pass_move(pos);
        return n;
    }
    MoveList firsts;
    firsts.count = 0;
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (!XQ_MOVE_FLAGS(m) && is_double_piece(pos, XQ_MOVE_FROM(m)))
            firsts.moves[firsts.count++] = m;
        else
            list->moves[n++] = m;
    }
    for (int i = 0; i < firsts.count; i++) {
        Move m1 = firsts.moves[i];
        uint64_t key = pos->key;
        uint8_t slot = 0;
        Piece cap = pos_move_piece(pos, XQ_MOVE_FROM(m1), XQ_MOVE_TO(m1), &slot);
        pos->module[MS_MULTI_PENDING] = 1;
        MoveList seconds;
        pos_generate_legal(pos, &seconds);
        pos->module[MS_MULTI_PENDING] = 0;
        pos_unmove_piece(pos, XQ_MOVE_FROM(m1), XQ_MOVE_TO(m1), cap, slot);
        pos->key = key;
        bool single = v->multi.second_optional;
        int added = 0;
        for (int j = 0; j < seconds.count; j++) {
            Move m2 = seconds.moves[j];
            /* return = forbidden: no turn that leaves the board as it was (a pawn stepping
             * sideways and back is a pass in effect). */
            bool back = XQ_MOVE_FROM(m2) == XQ_MOVE_TO(m1) && XQ_MOVE_TO(m2) == XQ_MOVE_FROM(m1);
            if (XQ_MOVE_FLAGS(m2) == XQ_FLAG_PASS)
                single = true;
            else if (back && v->multi.no_return)
                continue;
            else if (n < XQ_MAX_MOVES && fits_double(v, m2)) {
                list->moves[n++] = make_double(v, m1, m2);
                added++;
            }
        }
        if (!added)
            single = true; /* no second sub-move is legal: the first alone is the turn */
        if (single && n < XQ_MAX_MOVES)
            list->moves[n++] = m1;
    }
    return n;
}

static void multi_do(Position *pos, Move m, Undo *u)
{
    if (XQ_MOVE_FLAGS(m) == XQ_FLAG_PASS)
        return;
    Move m2 = module_double_second(pos->v, m);
    u->captured = pos_move_piece(pos, XQ_MOVE_FROM(m), XQ_MOVE_TO(m), &u->captured_slot);
    u->captured2 = pos_move_piece(pos, XQ_MOVE_FROM(m2), XQ_MOVE_TO(m2), &u->captured2_slot);
}

static void multi_undo(Position *pos, Move m, const Undo *u)
{
    if (XQ_MOVE_FLAGS(m) == XQ_FLAG_PASS)
        return;
    Move m2 = module_double_second(pos->v, m);
    pos_unmove_piece(pos, XQ_MOVE_FROM(m2), XQ_MOVE_TO(m2), u->captured2, u->captured2_slot);
    pos_unmove_piece(pos, XQ_MOVE_FROM(m), XQ_MOVE_TO(m), u->captured, u->captured_slot);
}

/* Every move ends the mover's turn. */
static void multi_after(Position *pos, Move m, Side mover, const Undo *u)
{
    (void)m, (void)mover, (void)u;
    if (pos->module[MS_MULTI_PENDING])
        pos_module_set(pos, MS_MULTI_PENDING, 0);
}

/* Each sub-move must leave the general safe (docs/variants/five-tigers.md), checked one after the
 * other. */
static bool multi_is_legal(Position *pos, Move m)
{
    if (XQ_MOVE_FLAGS(m) == XQ_FLAG_PASS)
        return pos->module[MS_MULTI_PENDING] != 0;
    Move m1 = XQ_MOVE(XQ_MOVE_FROM(m), XQ_MOVE_TO(m)), m2 = module_double_second(pos->v, m);
    if (XQ_MOVE_TO(m2) == XQ_NO_POINT || !pos_plain_move_is_legal(pos, m1))
        return false;
    uint64_t key = pos->key;
    uint8_t slot = 0;
    Piece cap = pos_move_piece(pos, XQ_MOVE_FROM(m1), XQ_MOVE_TO(m1), &slot);
    bool ok = pos_plain_move_is_legal(pos, m2);
    pos_unmove_piece(pos, XQ_MOVE_FROM(m1), XQ_MOVE_TO(m1), cap, slot);
    pos->key = key;
    return ok;
}

/* The first kind with double moves (the pawn), to name it. */
static int first_double_kind(const Variant *v)
{
    int k = 0;
    while (!(v->multi.double_kinds >> k & 1))
        k++;
    return k;
}

/* Reads "a3a4" at *s; false if it is not two points. */
static bool read_sub_move(const Variant *v, const char **s, Point *from, Point *to)
{
    while (**s == ' ')
        (*s)++;
    *from = variant_parse_point(v, s);
    if (**s == '-')
        (*s)++;
    *to = variant_parse_point(v, s);
    return *from != XQ_NO_POINT && *to != XQ_NO_POINT;
}

/* A legal single sub-move (the table walk and the general's safety), on the board as it is. */
static bool sub_move_ok(Position *pos, Point from, Point to)
{
    MoveList l;
    int n = pos_walk_piece(pos, from, &pos->v->table[XQ_PIECE_KIND(pos->board[from])][pos->side][from],
                           &l, 0);
    for (int i = 0; i < n; i++)
        if (XQ_MOVE_TO(l.moves[i]) == to)
            return pos_plain_move_is_legal(pos, XQ_MOVE(from, to));
    return false;
}

/* The reasons of the turn rules (docs/variants/five-tigers.md): a mandatory second pawn move, a
 * second sub-move that is not a pawn's, a piece that moves alone, a bad second sub-move. */
static bool multi_explain(Position *pos, const char *text, char *why, size_t size)
{
    const Variant *v = pos->v;
    if (pos->side != v->multi.side)
        return false;
    const char *s = text;
    Point f1, t1, f2, t2;
    if (pos->module[MS_MULTI_PENDING]) {
        if (!strncmp(s, "0000", 4) && !s[4]) {
            snprintf(why, size, "'%s': the second pawn move is mandatory (a pawn move is legal "
                     "here)", text);
            return true;
        }
        if (read_sub_move(v, &s, &f1, &t1) && pos->board[f1] &&
            XQ_PIECE_SIDE(pos->board[f1]) == pos->side && !is_double_piece(pos, f1)) {
            snprintf(why, size, "'%s': the second sub-move of a turn moves a %s", text,
                     v->kinds[first_double_kind(v)].name);
            return true;
        }
        return false;
    }
    if (!strncmp(s, "0000", 4) && !s[4]) {
        snprintf(why, size, "'%s': the pass only ends a turn after its first pawn sub-move", text);
        return true;
    }
    if (!read_sub_move(v, &s, &f1, &t1) || !pos->board[f1] || XQ_PIECE_SIDE(pos->board[f1]) != pos->side)
        return false;
    const char *pawn = v->kinds[first_double_kind(v)].name;
    if (!is_double_piece(pos, f1)) {
        if (*s != '+')
            return false;
        snprintf(why, size, "'%s': the %s moves alone; only a %s makes two sub-moves", text,
                 v->kinds[XQ_PIECE_KIND(pos->board[f1])].name, pawn);
        return true;
    }
    if (!sub_move_ok(pos, f1, t1)) {
        move_explain_illegal(pos, f1, t1, text, why, size);
        return true;
    }
    /* The first sub-move is fine: look at the second on the board it leaves. */
    uint64_t key = pos->key;
    uint8_t slot = 0;
    Piece cap = pos_move_piece(pos, f1, t1, &slot);
    pos->module[MS_MULTI_PENDING] = 1;
    MoveList seconds;
    int nsec = pos_generate_legal(pos, &seconds);
    bool none = nsec == 1 && XQ_MOVE_FLAGS(seconds.moves[0]) == XQ_FLAG_PASS;
    char example[32] = "";
    if (!none && nsec > 0) {
        char a[8], b[8], c[8], d[8];
        variant_point_name(v, f1, a);
        variant_point_name(v, t1, b);
        variant_point_name(v, XQ_MOVE_FROM(seconds.moves[0]), c);
        variant_point_name(v, XQ_MOVE_TO(seconds.moves[0]), d);
        snprintf(example, sizeof example, "%s%s+%s%s", a, b, c, d);
    }
    bool done = true;
    if (!*s || *s == ' ') {
        if (!none)
            snprintf(why, size, "'%s': the second pawn move is mandatory: give both, joined by '+' "
                     "(e.g. %s)", text, example);
        else
            done = false;
    } else if (*s != '+') {
        snprintf(why, size, "'%s': unexpected '%s' after the move", text, s);
    } else {
        s++;
        if (!read_sub_move(v, &s, &f2, &t2))
            snprintf(why, size, "'%s': expected a second pawn move after '+' (e.g. %s)", text, example);
        else if (pos->board[f2] && XQ_PIECE_SIDE(pos->board[f2]) == pos->side && !is_double_piece(pos, f2))
            snprintf(why, size, "'%s': the second sub-move of a turn moves a %s", text, pawn);
        else if (*s)
            snprintf(why, size, "'%s': unexpected '%s' after the move", text, s);
        else if (v->multi.no_return && f2 == t1 && t2 == f1)
            snprintf(why, size, "'%s': the second sub-move may not bring the pawn back where it "
                     "started (return = forbidden)", text);
        else if (none)
            snprintf(why, size, "'%s': no second pawn move is legal after %.4s: the first alone is "
                     "the turn", text, text);
        else
            move_explain_illegal(pos, f2, t2, text, why, size);
    }
    pos->module[MS_MULTI_PENDING] = 0;
    pos_unmove_piece(pos, f1, t1, cap, slot);
    pos->key = key;
    return done;
}

static bool multi_owns(uint8_t flags)
{
    return flags == XQ_FLAG_PASS || (flags & XQ_FLAG_DOUBLE);
}

/* docs/variants/five-tigers.md: two ICCS moves joined by '+' ("e3e4+g3g4"); the pass is "0000". */
static void multi_text(const Variant *v, Move m, char *buf, size_t size)
{
    if (XQ_MOVE_FLAGS(m) == XQ_FLAG_PASS) {
        snprintf(buf, size, "0000");
        return;
    }
    Move m2 = module_double_second(v, m);
    char a[8], b[8], c[8], d[8];
    variant_point_name(v, XQ_MOVE_FROM(m), a);
    variant_point_name(v, XQ_MOVE_TO(m), b);
    variant_point_name(v, XQ_MOVE_FROM(m2), c);
    variant_point_name(v, XQ_MOVE_TO(m2), d);
    snprintf(buf, size, "%s%s+%s%s", a, b, c, d);
}

const RuleModule MOD_MULTIMOVE_MODULE = {
    .section = "multimove",
    .bit = MOD_MULTIMOVE,
    .fen_tag = "turn",
    .defaults = multi_defaults,
    .parse_option = multi_parse,
    .finish_load = multi_finish,
    .init_state = multi_init,
    .fen_read = multi_fen_read,
    .fen_write = multi_fen_write,
    .do_special = multi_do,
    .undo_special = multi_undo,
    .after_move = multi_after,
    .filter_legal = multi_filter,
    .owns_flags = multi_owns,
    .is_legal = multi_is_legal,
    .move_text = multi_text,
    .explain = multi_explain,
};
