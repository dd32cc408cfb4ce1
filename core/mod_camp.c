/* mod_camp.c - rule module: the off-grid river camp (大本营) of docs/variants/river-camp.md, entered
 * instead of crossing the river and left onto the enemy bank line, and facing generals as check. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"

_Static_assert(MS_CAMP + 2 <= XQ_MOD_STATE, "camp bytes must fit the module state");

/* Camp byte of a side: 2 bits of count per enterable kind, in the order of [camp] pieces. The
 * contents, not the order of entry, make the state, so equal camps hash equally. */
static int camp_count(const Position *pos, Side s, int slot)
{
    return pos->module[MS_CAMP + s] >> (2 * slot) & 3;
}

static int camp_total(const Position *pos, Side s)
{
    int n = 0;
    for (int i = 0; i < pos->v->camp.nkinds; i++)
        n += camp_count(pos, s, i);
    return n;
}

static int camp_slot(const Variant *v, int kind)
{
    for (int i = 0; i < v->camp.nkinds; i++)
        if (v->camp.kinds[i] == kind)
            return i;
    return -1;
}

static void camp_defaults(Variant *v)
{
    CampOptions *o = &v->camp;
    memset(o, 0, sizeof *o);
    o->capacity = 3; /* seed 001: at most three own pieces in the camp */
    o->home_zone = o->exit_zone = -1;
    o->facing_check = true;
}

static int parse_pair(const char *s, int *x, int *y)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (*end != ',')
        return -1;
    long b = strtol(end + 1, &end, 10);
    if (*end || a < -9 || a > 9 || b < -9 || b > 9)
        return -1;
    *x = (int)a;
    *y = (int)b;
    return 0;
}

/* "enter = N leap 1,2 block 0,1": the crossing moves that let a piece enter (leaps: the 8
 * images, blocks transformed with them); "enter = R slide" / "enter = P step": forward. */
static int parse_gate(Variant *v, const IniEntry *e, const char *file, XqError *err)
{
    CampOptions *o = &v->camp;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", e->value);
    char *tok[16];
    int n = 0;
    for (char *t = strtok(buf, " \t"); t && n < 16; t = strtok(NULL, " \t"))
        tok[n++] = t;
    if (n < 2 || strlen(tok[0]) != 1)
        goto bad;
    int kind = variant_find_kind_by_letter(v, (char)toupper((unsigned char)tok[0][0]));
    if (kind < 0)
        goto bad;
    CampGate g = {.kind = (int8_t)kind};
    if (!strcmp(tok[1], "slide") || !strcmp(tok[1], "step")) {
        if (n != 2)
            goto bad;
        g.how = tok[1][1] == 'l' ? CAMP_GATE_SLIDE : CAMP_GATE_STEP;
        if (o->ngates >= CAMP_MAX_GATES)
            goto bad;
        o->gates[o->ngates++] = g;
        return 0;
    }
    int dx, dy, bx[2], by[2], nb = 0;
    if (strcmp(tok[1], "leap") || n < 3 || parse_pair(tok[2], &dx, &dy) < 0)
        goto bad;
    /* "block X,Y" pairs: two tokens per step. */
    for (int t = 3; t < n; t += 2) {
        if (strcmp(tok[t], "block") || t + 1 >= n || nb >= 2 || parse_pair(tok[t + 1], &bx[nb], &by[nb]) < 0)
            goto bad;
        nb++;
    }
    for (int s = 0; s < 8; s++) {
        bool swap = s & 4, fx = s & 1, fy = s & 2;
        int x = swap ? dy : dx, y = swap ? dx : dy;
        x = fx ? -x : x;
        y = fy ? -y : y;
        bool dup = false;
        for (int i = 0; i < o->ngates; i++)
            dup |= o->gates[i].kind == kind && o->gates[i].how == CAMP_GATE_LEAP &&
                   o->gates[i].dx == x && o->gates[i].dy == y;
        if (dup)
            continue;
        if (o->ngates >= CAMP_MAX_GATES)
            goto bad;
        g.how = CAMP_GATE_LEAP;
        g.dx = (int8_t)x;
        g.dy = (int8_t)y;
        g.nblocks = (uint8_t)nb;
        for (int b = 0; b < nb; b++) {
            int px = swap ? by[b] : bx[b], py = swap ? bx[b] : by[b];
            g.bx[b] = (int8_t)(fx ? -px : px);
            g.by[b] = (int8_t)(fy ? -py : py);
        }
        o->gates[o->ngates++] = g;
    }
    return 0;
bad:
    return module_fail(err, file, e->line, "[camp] enter: '%s' is not LETTER slide, LETTER step "
                       "or LETTER leap dx,dy [block dx,dy]... (at most %d gates)", e->value,
                       CAMP_MAX_GATES);
}

/* [camp] pieces = N R C P, capacity = 3, home = own_half, exit = enemy_bank, facing = check,
 * enter = ... (one line per crossing move). */
static int camp_parse(Variant *v, const IniEntry *e, const char *file, XqError *err)
{
    CampOptions *o = &v->camp;
    if (!strcmp(e->key, "pieces")) {
        uint16_t mask;
        if (module_kind_mask(v, e->value, &mask) < 0)
            return module_fail(err, file, e->line, "[camp] pieces: '%s' is not a list of piece "
                               "letters", e->value);
        o->nkinds = 0;
        for (int k = 0; k < v->nkinds; k++) {
            if (!(mask >> k & 1))
                continue;
            if (o->nkinds >= CAMP_MAX_KINDS || v->kinds[k].royal)
                return module_fail(err, file, e->line, "[camp] pieces: at most %d kinds, none "
                                   "of them royal", CAMP_MAX_KINDS);
            o->kinds[o->nkinds++] = (int8_t)k;
        }
    } else if (!strcmp(e->key, "capacity")) {
        const char *c = e->value;
        if (strlen(c) != 1 || c[0] < '1' || c[0] > '3')
            return module_fail(err, file, e->line, "[camp] capacity must be 1, 2 or 3, not '%s'", c);
        o->capacity = c[0] - '0';
    } else if (!strcmp(e->key, "home") || !strcmp(e->key, "exit")) {
        int z = variant_find_zone(v, e->value);
        if (z < 0)
            return module_fail(err, file, e->line, "[camp] %s: unknown zone '%s' (declare it in "
                               "[zones])", e->key, e->value);
        if (e->key[0] == 'h')
            o->home_zone = z;
        else
            o->exit_zone = z;
    } else if (!strcmp(e->key, "facing")) {
        if (!strcmp(e->value, "check"))
            o->facing_check = true;
        else if (!strcmp(e->value, "ignore"))
            o->facing_check = false;
        else
            return module_fail(err, file, e->line, "[camp] facing must be check or ignore, not "
                               "'%s'", e->value);
    } else if (!strcmp(e->key, "enter")) {
        return parse_gate(v, e, file, err);
    } else {
        return module_fail(err, file, e->line, "unknown key '%s' in [camp] (expected pieces, "
                           "capacity, home, exit, facing, enter)", e->key);
    }
    return 0;
}

static int camp_finish(Variant *v, const char *file, XqError *err)
{
    const CampOptions *o = &v->camp;
    if (!o->nkinds || o->home_zone < 0 || o->exit_zone < 0)
        return module_fail(err, file, 0, "[camp] needs pieces = LETTERS, home = ZONE and exit = "
                           "ZONE");
    for (int i = 0; i < o->ngates; i++)
        if (camp_slot(v, o->gates[i].kind) < 0)
            return module_fail(err, file, 0, "[camp] enter: the %s is not one of the camp "
                               "pieces", v->kinds[o->gates[i].kind].name);
    if (o->facing_check && (!v->royal_mask || v->rules.flying_general != FLYING_NONE))
        return module_fail(err, file, 0, "[camp] facing = check needs a royal piece and "
                           "flying_general = no");
    return 0;
}

static void camp_init(Position *pos)
{
    pos->module[MS_CAMP + RED] = pos->module[MS_CAMP + BLACK] = 0;
}

/* "[camp:RN/p]": Red's camp pieces (upper case), '/', Black's (lower case). */
static int camp_fen_read(Position *pos, const char *body, XqError *err)
{
    const Variant *v = pos->v;
    int side = RED;
    uint8_t bytes[2] = {0, 0};
    for (const char *c = body; *c; c++) {
        if (*c == '/' && side == RED) {
            side = BLACK;
            continue;
        }
        int k = variant_find_kind_by_letter(v, (char)toupper((unsigned char)*c));
        int slot = k < 0 ? -1 : camp_slot(v, k);
        bool upper = isupper((unsigned char)*c) != 0;
        if (slot < 0 || upper != (side == RED))
            return module_fail(err, "FEN", 0, "[camp:%s]: expected camp piece letters (upper "
                               "case red), '/', lower case black", body);
        int cnt = (bytes[side] >> (2 * slot) & 3) + 1;
        if (cnt > 3)
            return module_fail(err, "FEN", 0, "[camp:%s]: too many pieces", body);
        bytes[side] = (uint8_t)((bytes[side] & ~(3u << (2 * slot))) | (unsigned)cnt << (2 * slot));
    }
    if (side != BLACK)
        return module_fail(err, "FEN", 0, "[camp:%s]: expected red/black", body);
    pos->module[MS_CAMP + RED] = bytes[RED];
    pos->module[MS_CAMP + BLACK] = bytes[BLACK];
    for (int s = 0; s < 2; s++)
        if (camp_total(pos, (Side)s) > v->camp.capacity)
            return module_fail(err, "FEN", 0, "[camp:%s]: a camp holds at most %d pieces", body,
                               v->camp.capacity);
    return 0;
}

static void camp_fen_write(const Position *pos, char *buf, size_t size)
{
    const Variant *v = pos->v;
    size_t n = 0;
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < v->camp.nkinds; i++) {
            char c = v->kinds[v->camp.kinds[i]].letter;
            for (int j = 0; j < camp_count(pos, (Side)s, i) && n + 2 < size; j++)
                buf[n++] = s == RED ? c : (char)tolower((unsigned char)c);
        }
        if (s == RED && n + 2 < size)
            buf[n++] = '/';
    }
    buf[n] = '\0';
}

/* docs/variants/river-camp.md: a piece may enter if a move of it crossing out of its home half is
 * possible up to the river (leg free, path clear); what stands beyond does not matter. */
static bool can_enter(const Position *pos, Point p, int kind, Side us)
{
    const Variant *v = pos->v;
    const CampOptions *o = &v->camp;
    int home = o->home_zone, f = v->point_file[p], r = v->point_rank[p];
    int fwd = us == RED ? 1 : -1;
    for (int i = 0; i < o->ngates; i++) {
        const CampGate *g = &o->gates[i];
        if (g->kind != kind)
            continue;
        if (g->how == CAMP_GATE_LEAP) {
            Point q = variant_point(v, f + g->dx, r + fwd * g->dy);
            if (q == XQ_NO_POINT || variant_in_zone(v, home, us, q))
                continue;
            bool free = true;
            for (int b = 0; b < g->nblocks; b++)
                free &= !pos->board[variant_point(v, f + g->bx[b], r + fwd * g->by[b])];
            if (free)
                return true;
            continue;
        }
        Direction d = us == RED ? DIR_N : DIR_S;
        Point q = v->neighbor[p][d];
        if (g->how == CAMP_GATE_SLIDE)
            while (q != XQ_NO_POINT && variant_in_zone(v, home, us, q) && !pos->board[q])
                q = v->neighbor[q][d];
        if (q != XQ_NO_POINT && !variant_in_zone(v, home, us, q))
            return true;
    }
    return false;
}

static int camp_generate(const Position *pos, MoveList *list, int n)
{
    const Variant *v = pos->v;
    const CampOptions *o = &v->camp;
    Side us = pos->side;
    if (camp_total(pos, us) < o->capacity) {
        for (int i = 0; i < pos->count[us] && n < XQ_MAX_MOVES; i++) {
            Point p = pos->list[us][i];
            int kind = XQ_PIECE_KIND(pos->board[p]);
            if (camp_slot(v, kind) >= 0 && variant_in_zone(v, o->home_zone, us, p) &&
                can_enter(pos, p, kind, us))
                list->moves[n++] = XQ_MOVE_SPECIAL(p, p, kind, XQ_FLAG_CAMP_ENTER);
        }
    }
    /* Leaving: to any empty point of the exit line, without capturing (seed 001). */
    for (int i = 0; i < o->nkinds; i++) {
        if (!camp_count(pos, us, i))
            continue;
        int kind = o->kinds[i];
        for (int p = 0; p < v->npoints && n < XQ_MAX_MOVES; p++)
            if (!pos->board[p] && variant_in_zone(v, o->exit_zone, us, (Point)p) &&
                variant_in_zone(v, v->kinds[kind].stand_zone, us, (Point)p))
                list->moves[n++] = XQ_MOVE_SPECIAL(p, p, kind, XQ_FLAG_CAMP_LEAVE);
    }
    return n;
}

static void set_count(Position *pos, Side s, int slot, int count)
{
    unsigned b = pos->module[MS_CAMP + s];
    b = (b & ~(3u << (2 * slot))) | (unsigned)count << (2 * slot);
    pos_module_set(pos, MS_CAMP + s, (uint8_t)b);
}

/* Enter: the piece leaves the board (lists and key) into the camp byte; its list slot is kept
 * in u->captured_slot so undo puts it back where it was. Leave: it is appended to the list; the
 * stale list entry it overwrites is kept in u->captured2_slot. */
static void camp_do(Position *pos, Move m, Undo *u)
{
    const Variant *v = pos->v;
    Side us = pos->side;
    Point p = XQ_MOVE_FROM(m);
    int kind = XQ_MOVE_EXTRA(m), slot = camp_slot(v, kind);
    Piece pc = XQ_PIECE(us, kind);
    if (XQ_MOVE_FLAGS(m) == XQ_FLAG_CAMP_ENTER) {
        uint8_t sl = pos->index[p];
        u->captured_slot = sl;
        Point last = pos->list[us][--pos->count[us]];
        pos->list[us][sl] = last;
        pos->index[last] = sl;
        pos->index[p] = 0;
        pos->board[p] = XQ_EMPTY;
        pos->key ^= v->zobrist_piece[pc][p];
        set_count(pos, us, slot, camp_count(pos, us, slot) + 1);
    } else {
        u->captured2_slot = pos->list[us][pos->count[us]];
        pos->index[p] = pos->count[us];
        pos->list[us][pos->count[us]++] = p;
        pos->board[p] = pc;
        pos->key ^= v->zobrist_piece[pc][p];
        set_count(pos, us, slot, camp_count(pos, us, slot) - 1);
    }
}

static void camp_undo(Position *pos, Move m, const Undo *u)
{
    Side us = pos->side; /* the mover again: the caller restored the side first */
    Point p = XQ_MOVE_FROM(m);
    if (XQ_MOVE_FLAGS(m) == XQ_FLAG_CAMP_ENTER) {
        uint8_t sl = u->captured_slot;
        Point moved = pos->list[us][sl];
        pos->list[us][pos->count[us]] = moved;
        pos->index[moved] = pos->count[us];
        pos->count[us]++;
        pos->list[us][sl] = p;
        pos->index[p] = sl;
        pos->board[p] = XQ_PIECE(us, XQ_MOVE_EXTRA(m));
    } else {
        pos->count[us]--;
        pos->list[us][pos->count[us]] = u->captured2_slot;
        pos->board[p] = XQ_EMPTY;
        pos->index[p] = 0;
    }
}

/* A camp piece is intact and comes back at the mover's choice: full value to the evaluation. */
static int camp_holdings(const Variant *v, Holding *out, int n)
{
    for (int i = 0; i < v->camp.nkinds && n < XQ_MAX_HOLDINGS; i++)
        out[n++] = (Holding){.name = "camp", .kind = v->camp.kinds[i], .worth = 1.0};
    return n;
}

static int camp_held(const Position *pos, Side side, int kind)
{
    int slot = camp_slot(pos->v, kind);
    return slot < 0 ? 0 : camp_count(pos, side, slot);
}

/* True if the two royal pieces stand on one line with nothing between (seed 001: 对面). */
static bool generals_face(const Position *pos)
{
    const Variant *v = pos->v;
    Point k = pos->royal[RED], e = pos->royal[BLACK];
    if (k == XQ_NO_POINT || e == XQ_NO_POINT)
        return false;
    for (int d = DIR_N; d < DIR_COUNT; d += 2) {
        Point q = v->neighbor[k][d];
        while (q != XQ_NO_POINT && !pos->board[q])
            q = v->neighbor[q][d];
        if (q == e)
            return true;
    }
    return false;
}

/* docs/variants/river-camp.md: a facing counts as check given by the side that created it. In a
 * position the side to move never created it (it would have had to end it), so it is that side's
 * check. */
static bool camp_royal_attacked(const Position *pos, Side side)
{
    if (pos_royal_attacked_by(pos, side, 0xffffu))
        return true;
    return pos->v->camp.facing_check && side == pos->side && generals_face(pos);
}

/* Legality of every move: the mover's royal piece is not attacked afterwards, and a facing that
 * stood before the move (the opponent's check) still standing after it is not allowed. */
static bool camp_is_legal(Position *pos, Move m)
{
    Side us = pos->side;
    bool facing_before = pos->v->camp.facing_check && generals_face(pos);
    Undo u;
    pos_do_move(pos, m, &u);
    bool ok = !pos_royal_attacked_by(pos, us, 0xffffu) && !(facing_before && generals_face(pos));
    pos_undo_move(pos, m, &u);
    return ok;
}

/* "e4@" (enter) or "R@e5" / "@e5" (leave) that is no legal camp move. */
static bool camp_explain(Position *pos, const char *text, char *why, size_t size)
{
    const Variant *v = pos->v;
    const CampOptions *o = &v->camp;
    const char *at = strchr(text, '@');
    if (!at)
        return false;
    Side us = pos->side;
    const char *s = text;
    if (!at[1]) { /* entering */
        Point p = variant_parse_point(v, &s);
        if (p == XQ_NO_POINT || s != at)
            return false;
        Piece pc = pos->board[p];
        if (!pc || XQ_PIECE_SIDE(pc) != us)
            return false;
        int kind = XQ_PIECE_KIND(pc);
        const char *name = v->kinds[kind].name;
        if (camp_slot(v, kind) < 0)
            snprintf(why, size, "'%s': a %s cannot enter the camp", text, name);
        else if (camp_total(pos, us) >= o->capacity)
            snprintf(why, size, "'%s': the camp is full (%d pieces)", text, o->capacity);
        else if (!variant_in_zone(v, o->home_zone, us, p))
            snprintf(why, size, "'%s': a piece enters the camp from its own half only", text);
        else if (!can_enter(pos, p, kind, us))
            snprintf(why, size, "'%s': the %s could not cross the river from here (its way to the "
                     "river is blocked)", text, name);
        else
            snprintf(why, size, "'%s': leaves the own general attacked", text);
        return true;
    }
    /* leaving: an optional piece letter, '@', the landing point */
    int kind = -1;
    if (at == text + 1)
        kind = variant_find_kind_by_letter(v, text[0]);
    else if (at != text)
        return false;
    s = at + 1;
    Point p = variant_parse_point(v, &s);
    if (p == XQ_NO_POINT || *s) {
        snprintf(why, size, "'%s': a camp piece leaves as LETTER@POINT (e.g. R@e5)", text);
        return true;
    }
    int slot = kind >= 0 ? camp_slot(v, kind) : -1;
    if (at == text && !camp_total(pos, us))
        snprintf(why, size, "'%s': the camp of the side to move is empty", text);
    else if (at == text)
        snprintf(why, size, "'%s': name the piece that leaves (e.g. R%s)", text, at);
    else if (slot < 0 || !camp_count(pos, us, slot))
        snprintf(why, size, "'%s': no %s in the camp of the side to move", text,
                 kind >= 0 ? v->kinds[kind].name : "such piece");
    else if (pos->board[p])
        snprintf(why, size, "'%s': a camp piece lands on an empty point", text);
    else if (!variant_in_zone(v, o->exit_zone, us, p))
        snprintf(why, size, "'%s': a camp piece lands on the enemy's river-bank line (zone %s)", text,
                 v->zones[o->exit_zone].name);
    else
        snprintf(why, size, "'%s': leaves the own general attacked", text);
    return true;
}

/* Owns its two flags, and flags 0 for legality (plain moves can create or keep a facing). */
static bool camp_owns(uint8_t flags)
{
    return flags == 0 || flags == XQ_FLAG_CAMP_ENTER || flags == XQ_FLAG_CAMP_LEAVE;
}

/* Project-defined notation (docs/variants/river-camp.md): entering "e4@", leaving "R@e5" (the piece
 * letter, upper case for both sides, as in drop moves; move_parse also takes "@e5" when only one
 * kind can). */
static void camp_text(const Variant *v, Move m, char *buf, size_t size)
{
    char a[8];
    variant_point_name(v, XQ_MOVE_FROM(m), a);
    if (XQ_MOVE_FLAGS(m) == XQ_FLAG_CAMP_ENTER)
        snprintf(buf, size, "%s@", a);
    else
        snprintf(buf, size, "%c@%s", v->kinds[XQ_MOVE_EXTRA(m)].letter, a);
}

const RuleModule MOD_CAMP_MODULE = {
    .section = "camp",
    .bit = MOD_CAMP,
    .fen_tag = "camp",
    .defaults = camp_defaults,
    .parse_option = camp_parse,
    .finish_load = camp_finish,
    .init_state = camp_init,
    .fen_read = camp_fen_read,
    .fen_write = camp_fen_write,
    .generate = camp_generate,
    .do_special = camp_do,
    .undo_special = camp_undo,
    .royal_attacked = camp_royal_attacked,
    .owns_flags = camp_owns,
    .is_legal = camp_is_legal,
    .move_text = camp_text,
    .explain = camp_explain,
    .holdings = camp_holdings,
    .held = camp_held,
};
