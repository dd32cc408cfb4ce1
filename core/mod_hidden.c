/* mod_hidden.c - rule module: face-down pieces, reveals and flips, pools, colour assignment, hit
 * points and the hidden-piece game ends (docs/variants.md [hidden];
 * the encoding is described in hidden.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "module.h"
#include "notation.h"
#include "repetition.h"

/* ---- loading -------------------------------------------------------------------------------- */

static const MoveTable NO_MOVES[XQ_MAX_POINTS];

static void hidden_defaults(Variant *v)
{
    HiddenOptions *o = &v->hidden;
    memset(o, 0, sizeof *o);
    o->hidden_kind = -1;
    o->general_kind = -1;
    memset(o->native, -1, sizeof o->native);
}

static int kind_letter(const Variant *v, const char *s, const char *key, const char *file, int line,
                       XqError *err)
{
    int k = s[0] && !s[1] ? variant_find_kind_by_letter(v, s[0]) : -1;
    if (k < 0)
        return module_fail(err, file, line, "[hidden] %s: '%s' is not a piece letter", key, s);
    return k;
}

/* native = a FEN board: the kind whose start point each point is (docs/variants/jieqi.md,
 * jieqi-folk.md). */
static int parse_native(Variant *v, const char *s, const char *file, int line, XqError *err)
{
    for (int rank = v->ranks - 1; rank >= 0; rank--) {
        int file_ = 0;
        while (*s && *s != '/') {
            if (isdigit((unsigned char)*s)) {
                file_ += (int)strtol(s, (char **)&s, 10);
                continue;
            }
            int k = variant_find_kind_by_letter(v, *s);
            Point p = variant_point(v, file_, rank);
            if (k < 0 || p == XQ_NO_POINT)
                return module_fail(err, file, line, "[hidden] native: bad letter or point on "
                                   "rank %d", rank);
            v->hidden.native[p] = (int8_t)k;
            file_++;
            s++;
        }
        if (file_ != v->files || (rank > 0 && *s != '/'))
            return module_fail(err, file, line, "[hidden] native: rank %d does not have %d files",
                               rank, v->files);
        if (*s == '/')
            s++;
    }
    return 0;
}

static int hidden_parse(Variant *v, const IniEntry *e, const char *file, XqError *err)
{
    HiddenOptions *o = &v->hidden;
    const char *k = e->key, *val = e->value;
    bool b;
    if (!strcmp(k, "mode")) {
        if (!strcmp(val, "jieqi"))
            o->mode = HIDDEN_JIEQI;
        else if (!strcmp(val, "folk"))
            o->mode = HIDDEN_FOLK;
        else if (!strcmp(val, "banqi"))
            o->mode = HIDDEN_BANQI;
        else
            return module_fail(err, file, e->line, "[hidden] mode: jieqi, folk or banqi, not '%s'", val);
    } else if (!strcmp(k, "hidden")) {
        int x = kind_letter(v, val, k, file, e->line, err);
        if (x < 0)
            return -1;
        o->hidden_kind = (int8_t)x;
    } else if (!strcmp(k, "general")) {
        int x = kind_letter(v, val, k, file, e->line, err);
        if (x < 0)
            return -1;
        o->general_kind = (int8_t)x;
    } else if (!strcmp(k, "native")) {
        return parse_native(v, val, file, e->line, err);
    } else if (!strcmp(k, "native_as")) {
        /* "A:Y": a face-down piece on a native-A point moves as kind Y (jieqi's palace rule). */
        char a[2] = {val[0], 0}, y[2] = {val[0] ? val[1] == ':' ? val[2] : 0 : 0, 0};
        int ka = kind_letter(v, a, k, file, e->line, err), ky;
        if (ka < 0 || (ky = kind_letter(v, y, k, file, e->line, err)) < 0)
            return -1;
        bool found = false;
        for (int p = 0; p < XQ_MAX_POINTS; p++)
            if (o->native[p] == ka) {
                o->native[p] = (int8_t)ky;
                found = true;
            }
        if (!found)
            return module_fail(err, file, e->line, "[hidden] native_as: no native point holds '%c' "
                               "(native_as comes after native)", val[0]);
    } else if (!strcmp(k, "capture_knowledge")) {
        if (!strcmp(val, "nobody"))
            o->knowledge = KNOW_NOBODY;
        else if (!strcmp(val, "capturer"))
            o->knowledge = KNOW_CAPTURER;
        else if (!strcmp(val, "both"))
            o->knowledge = KNOW_BOTH;
        else
            return module_fail(err, file, e->line, "[hidden] capture_knowledge: nobody, capturer "
                               "or both, not '%s'", val);
    } else if (!strcmp(k, "reveal_resets_limit") || !strcmp(k, "chase_loses")) {
        if (module_parse_bool(val, &b) < 0)
            return module_fail(err, file, e->line, "[hidden] %s: yes or no", k);
        if (k[0] == 'r')
            o->resets_limit = b;
        else
            o->chase_loses = b;
    } else if (!strcmp(k, "reveal_capturers")) {
        if (strcmp(val, "none") && module_kind_mask(v, val, &o->reveal_capturers) < 0)
            return module_fail(err, file, e->line, "[hidden] reveal_capturers: piece letters");
    } else if (!strcmp(k, "cannon")) {
        /* docs/variants/banqi.md: jump (the cannon's hop atoms) or rank (its [powered cannon]
         * atoms). */
        int c = variant_find_kind_by_letter(v, 'C');
        if (c < 0 || (strcmp(val, "jump") && strcmp(val, "rank")))
            return module_fail(err, file, e->line, "[hidden] cannon: jump or rank (needs a kind C)");
        o->rank_kinds = !strcmp(val, "rank") ? (uint16_t)(1u << c) : 0;
    } else if (!strcmp(k, "face_up_start") || !strcmp(k, "hp")) {
        char *end;
        long n = strtol(val, &end, 10);
        if (*end || n < 0 || n > 250)
            return module_fail(err, file, e->line, "[hidden] %s: a number 0-250", k);
        if (k[0] == 'f')
            o->face_up_start = (int)n;
        else
            o->hp = (int)n;
    } else if (!strcmp(k, "hp_cost")) {
        /* "K:30 A:10 ..." */
        const char *s = val;
        while (*s) {
            while (*s == ' ' || *s == ',')
                s++;
            if (!*s)
                break;
            int kk = variant_find_kind_by_letter(v, *s);
            if (kk < 0 || s[1] != ':')
                return module_fail(err, file, e->line, "[hidden] hp_cost: LETTER:POINTS ...");
            char *end;
            long n = strtol(s + 2, &end, 10);
            if (end == s + 2 || n < 0 || n > 250)
                return module_fail(err, file, e->line, "[hidden] hp_cost: LETTER:POINTS ...");
            o->hp_cost[kk] = (uint8_t)n;
            s = end;
        }
    } else {
        return module_fail(err, file, e->line, "unknown key '%s' in [hidden] (expected mode, hidden, "
                           "general, native, native_as, capture_knowledge, reveal_resets_limit, "
                           "chase_loses, reveal_capturers, cannon, face_up_start, hp, hp_cost)", k);
    }
    return 0;
}

/* A face-down piece moves by the table of its native kind on its point (for the seat of that
 * half), so move generation, attacks on generals and chases see it without special cases. */
static int hidden_finish(Variant *v, const char *file, XqError *err)
{
    HiddenOptions *o = &v->hidden;
    if (o->hidden_kind < HIDDEN_POOL_KINDS)
        return module_fail(err, file, 0, "[hidden] needs hidden = LETTER of a kind declared after "
                           "the first %d (the pooled kinds)", HIDDEN_POOL_KINDS);
    if (o->mode == HIDDEN_FOLK && o->general_kind < 0)
        return module_fail(err, file, 0, "[hidden] mode = folk needs general = LETTER");
    if (o->rank_kinds && !(v->powered_kinds & o->rank_kinds))
        return module_fail(err, file, 0, "[hidden] cannon = rank needs a [powered cannon] section");
    /* Options of one mode set in another would be silently without effect. */
    if (o->general_kind >= 0 && o->mode != HIDDEN_FOLK)
        return module_fail(err, file, 0, "[hidden] general applies to mode = folk only");
    if (o->knowledge != KNOW_NOBODY && o->mode != HIDDEN_JIEQI)
        return module_fail(err, file, 0, "[hidden] capture_knowledge applies to mode = jieqi only");
    if (o->reveal_capturers && o->mode != HIDDEN_BANQI)
        return module_fail(err, file, 0, "[hidden] reveal_capturers applies to mode = banqi only");
    for (int k = 0; k < XQ_MAX_KINDS && !o->hp; k++)
        if (o->hp_cost[k])
            return module_fail(err, file, 0, "[hidden] hp_cost needs hp (hit points)");
    for (int p = 0; p < v->npoints; p++) {
        Side s = v->point_rank[p] < v->ranks / 2 ? RED : BLACK;
        v->table[o->hidden_kind][s][p] = v->table[o->hidden_kind][XQ_OTHER(s)][p] = NO_MOVES[0];
        if (o->native[p] >= 0)
            v->table[o->hidden_kind][s][p] = v->table[o->native[p]][s][p];
    }
    return 0;
}

/* ---- state ---------------------------------------------------------------------------------- */

int hidden_pool(const Position *pos, Side colour, int kind)
{
    uint8_t b = pos->module[MS_HIDDEN_POOL + colour * 4 + kind / 2];
    return kind & 1 ? b >> 4 : b & 15;
}

static void pool_set(Position *pos, Side colour, int kind, int n)
{
    int i = MS_HIDDEN_POOL + colour * 4 + kind / 2;
    uint8_t b = pos->module[i];
    b = kind & 1 ? (uint8_t)((b & 15) | (n << 4)) : (uint8_t)((b & 0xf0) | n);
    pos_module_set(pos, i, b);
}

int hidden_pool_total(const Position *pos, Side colour)
{
    int n = 0;
    for (int k = 0; k < HIDDEN_POOL_KINDS; k++)
        n += hidden_pool(pos, colour, k);
    return n;
}

int hidden_down_count(const Position *pos)
{
    int n = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pos->count[s]; i++)
            n += hidden_is_down(pos->v, pos->board[pos->list[s][i]]);
    return n;
}

int hidden_seat_colour(const Position *pos, Side seat)
{
    uint8_t c = pos->module[MS_HIDDEN_COLOUR];
    return c ? (int)(seat ^ (c == 2)) : -1;
}

static Side seat_of_colour(const Position *pos, Side colour)
{
    return (Side)(colour ^ (pos->module[MS_HIDDEN_COLOUR] == 2));
}

/* Does a capture of a face-down piece by the side to move show its identity (jieqi): to both
 * sides (`both`), or to the capturer inside its own search view (`capturer`, hidden.h)? */
static bool shows_capture(const Position *pos)
{
    uint8_t k = pos->v->hidden.knowledge;
    return k == KNOW_BOTH || (k == KNOW_CAPTURER && pos->module[MS_HIDDEN_VIEW] == pos->side + 1);
}

int hidden_hp(const Position *pos, Side seat)
{
    return pos->v->hidden.hp ? pos->module[MS_HIDDEN_HP + seat] : 0;
}

static void hidden_init(Position *pos)
{
    const HiddenOptions *o = &pos->v->hidden;
    for (int i = 0; i < 8; i++)
        pos->module[MS_HIDDEN_POOL + i] = 0;
    pos->module[MS_HIDDEN_COLOUR] = o->mode == HIDDEN_JIEQI ? 1 : 0;
    pos->module[MS_HIDDEN_HP] = pos->module[MS_HIDDEN_HP + 1] = (uint8_t)o->hp;
    pos->module[MS_HIDDEN_VIEW] = 0;
}

static void hidden_fen_write(const Position *pos, char *buf, size_t size);

/* "[hidden:A2B2N2R2C2P5a2b2n2r2c2p5]" (jieqi), "[hidden:POOL/C]" (C = '-', 'r' or 'b': the
 * colour of seat 0), banqi-hp "[hidden:POOL/C/60/60]". A letter without a count means 1. */
static int hidden_fen_read(Position *pos, const char *body, XqError *err)
{
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    const char *s = body;
    int n[2][HIDDEN_POOL_KINDS] = {{0}};
    if (*s == '-')
        s++;
    while (*s && *s != '/') {
        int k = variant_find_kind_by_letter(v, *s);
        if (k < 0 || k >= HIDDEN_POOL_KINDS || !isalpha((unsigned char)*s))
            return module_fail(err, "FEN", 0, "[hidden:%s]: '%c' is not a pooled piece", body, *s);
        Side c = isupper((unsigned char)*s) ? RED : BLACK;
        s++;
        long cnt = 1;
        if (isdigit((unsigned char)*s))
            cnt = strtol(s, (char **)&s, 10);
        if (cnt < 0 || n[c][k] + cnt > 15)
            return module_fail(err, "FEN", 0, "[hidden:%s]: at most 15 of a kind", body);
        n[c][k] += (int)cnt;
    }
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < HIDDEN_POOL_KINDS; k++)
            pool_set(pos, (Side)c, k, n[c][k]);
    if (o->mode != HIDDEN_JIEQI) {
        if (*s++ != '/' || (*s != '-' && *s != 'r' && *s != 'b'))
            return module_fail(err, "FEN", 0, "[hidden:%s]: expected POOL/C with C one of - r b",
                               body);
        pos->module[MS_HIDDEN_COLOUR] = *s == '-' ? 0 : *s == 'r' ? 1 : 2;
        s++;
    }
    if (o->hp) {
        for (int i = 0; i < 2; i++) {
            long hp = *s == '/' ? strtol(s + 1, (char **)&s, 10) : -1;
            if (hp < 0 || hp > 250)
                return module_fail(err, "FEN", 0, "[hidden:%s]: expected /HP/HP", body);
            pos->module[MS_HIDDEN_HP + i] = (uint8_t)hp;
        }
    }
    if (*s)
        return module_fail(err, "FEN", 0, "[hidden:%s]: unexpected '%s'", body, s);
    return 0;
}

int hidden_check_pools(const Position *pos, XqError *err)
{
    const Variant *v = pos->v;
    char field[128];
    field[0] = '\0';
    hidden_fen_write(pos, field, sizeof field);
    /* Every face-down piece needs an identity in its pool. */
    int down[2] = {0, 0};
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < pos->count[side]; i++)
            down[side] += hidden_is_down(v, pos->board[pos->list[side][i]]);
    if (v->hidden.mode == HIDDEN_JIEQI) {
        for (int side = 0; side < 2; side++)
            if (hidden_pool_total(pos, (Side)side) < down[side])
                return module_fail(err, "FEN", 0, "[hidden:%s]: fewer unrevealed identities than "
                                   "face-down pieces of %s", field, side == RED ? "red" : "black");
    } else if (hidden_pool_total(pos, RED) + hidden_pool_total(pos, BLACK) < down[0] + down[1]) {
        return module_fail(err, "FEN", 0, "[hidden:%s]: fewer unrevealed identities than face-down "
                           "pieces", field);
    }
    return 0;
}

static void hidden_fen_write(const Position *pos, char *buf, size_t size)
{
    const Variant *v = pos->v;
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, __VA_ARGS__)
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < HIDDEN_POOL_KINDS; k++) {
            int cnt = hidden_pool(pos, (Side)c, k);
            char l = v->kinds[k].letter;
            if (cnt)
                PUT("%c%d", c == RED ? l : (char)tolower((unsigned char)l), cnt);
        }
    if (n == 0)
        PUT("-");
    if (v->hidden.mode != HIDDEN_JIEQI)
        PUT("/%c", "-rb"[pos->module[MS_HIDDEN_COLOUR] % 3]);
    if (v->hidden.hp)
        PUT("/%d/%d", pos->module[MS_HIDDEN_HP], pos->module[MS_HIDDEN_HP + 1]);
#undef PUT
}

/* ---- board helpers -------------------------------------------------------------------------- */

/* Removes the piece on p from its side's list (the last entry takes its slot). */
static uint8_t list_remove(Position *pos, Point p)
{
    Side s = XQ_PIECE_SIDE(pos->board[p]);
    uint8_t slot = pos->index[p];
    Point last = pos->list[s][--pos->count[s]];
    pos->list[s][slot] = last;
    pos->index[last] = slot;
    pos->index[p] = 0;
    return slot;
}

/* Inverse of list_remove for a piece of side s on p that had slot `slot`. */
static void list_restore(Position *pos, Side s, Point p, uint8_t slot)
{
    if (slot != pos->count[s]) { /* else p was last: the entry past the end is stale */
        Point moved = pos->list[s][slot];
        pos->list[s][pos->count[s]] = moved;
        pos->index[moved] = pos->count[s];
    }
    pos->count[s]++;
    pos->list[s][slot] = p;
    pos->index[p] = slot;
}

static void list_append(Position *pos, Side s, Point p)
{
    pos->index[p] = pos->count[s];
    pos->list[s][pos->count[s]++] = p;
}

/* Rebuilds both piece lists and royal points in FEN order (ranks from the top, files from the
 * left), so an undo that rebuilds them restores a position read from a FEN exactly. */
static void rebuild_lists(Position *pos)
{
    const Variant *v = pos->v;
    pos->count[0] = pos->count[1] = 0;
    pos->royal[0] = pos->royal[1] = XQ_NO_POINT;
    for (int r = v->ranks - 1; r >= 0; r--)
        for (int f = 0; f < v->files; f++) {
            Point p = variant_point(v, f, r);
            Piece pc = p == XQ_NO_POINT ? XQ_EMPTY : pos->board[p];
            if (p == XQ_NO_POINT)
                continue;
            pos->index[p] = 0;
            if (!pc)
                continue;
            list_append(pos, XQ_PIECE_SIDE(pc), p);
            if (v->kinds[XQ_PIECE_KIND(pc)].royal)
                pos->royal[XQ_PIECE_SIDE(pc)] = p;
        }
}

/* Swaps the side bit of every face-up piece (banqi-hp: seat 0 drew black at its first flip, so
 * the pieces face up since the deal change from colour to seat). Lists rebuilt, key kept. */
static void swap_face_up(Position *pos)
{
    const Variant *v = pos->v;
    for (int p = 0; p < v->npoints; p++) {
        Piece pc = pos->board[p];
        if (pc && !hidden_is_down(v, pc)) {
            Piece q = (Piece)(pc ^ 16);
            pos->key ^= v->zobrist_piece[pc][p] ^ v->zobrist_piece[q][p];
            pos->board[p] = q;
        }
    }
    rebuild_lists(pos);
}

/* Puts pc on p in place of the piece there, moving it between lists if the side changes;
 * returns the old slot (for unset_piece). */
static uint8_t set_piece(Position *pos, Point p, Piece pc)
{
    Piece old = pos->board[p];
    if (XQ_PIECE_SIDE(old) == XQ_PIECE_SIDE(pc)) {
        pos_replace_piece(pos, p, pc);
        return pos->index[p];
    }
    const Variant *v = pos->v;
    uint8_t slot = list_remove(pos, p);
    pos->key ^= v->zobrist_piece[old][p] ^ v->zobrist_piece[pc][p];
    pos->board[p] = pc;
    list_append(pos, XQ_PIECE_SIDE(pc), p);
    return slot;
}

/* Undoes set_piece (the key is restored by the caller). */
static void unset_piece(Position *pos, Point p, Piece old, uint8_t slot)
{
    Piece cur = pos->board[p];
    if (XQ_PIECE_SIDE(cur) != XQ_PIECE_SIDE(old)) {
        Side s = XQ_PIECE_SIDE(cur);
        pos->count[s]--;
        list_restore(pos, XQ_PIECE_SIDE(old), p, slot);
    }
    pos->board[p] = old;
}

/* ---- moves ---------------------------------------------------------------------------------- */

/* Face-down pieces move only by reveal moves (generated below); banqi's cannon = rank uses the
 * cannon's [powered] table. */
static const MoveTable *hidden_table(const Position *pos, int kind, Side side)
{
    const Variant *v = pos->v;
    if (kind == v->hidden.hidden_kind)
        return NO_MOVES;
    if (v->hidden.rank_kinds >> kind & 1)
        return v->powered[kind][side];
    return NULL;
}

/* The banqi-hp cannon's capture of a face-down piece: jump exactly one piece along a line. */
static int hop_onto_down(const Position *pos, Point from, MoveList *list, int n)
{
    const Variant *v = pos->v;
    for (int d = DIR_N; d < DIR_COUNT; d += 2) {
        Point q = v->neighbor[from][d];
        while (q != XQ_NO_POINT && !pos->board[q])
            q = v->neighbor[q][d];
        if (q == XQ_NO_POINT)
            continue;
        q = v->neighbor[q][d];
        while (q != XQ_NO_POINT && !pos->board[q])
            q = v->neighbor[q][d];
        if (q != XQ_NO_POINT && hidden_is_down(v, pos->board[q]) && n < XQ_MAX_MOVES)
            list->moves[n++] = XQ_MOVE_SPECIAL(from, q, 0, XQ_FLAG_REVEAL);
    }
    return n;
}

static int hidden_generate(const Position *pos, MoveList *list, int n)
{
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    Side us = pos->side;
    int x = o->hidden_kind;
    if (o->mode == HIDDEN_BANQI) {
        /* docs/variants/banqi.md: any face-down piece may be flipped (they all stand in seat 0's
         * list). */
        for (int i = 0; i < pos->count[RED] && n < XQ_MAX_MOVES; i++) {
            Point p = pos->list[RED][i];
            if (XQ_PIECE_KIND(pos->board[p]) == x)
                list->moves[n++] = XQ_MOVE_SPECIAL(p, p, 0, XQ_FLAG_REVEAL);
        }
        if (o->reveal_capturers && pos->module[MS_HIDDEN_COLOUR])
            for (int i = 0; i < pos->count[us]; i++) {
                Point p = pos->list[us][i];
                if (o->reveal_capturers >> XQ_PIECE_KIND(pos->board[p]) & 1)
                    n = hop_onto_down(pos, p, list, n);
            }
        return n;
    }
    /* jieqi / folk: a face-down piece moves as its native kind and is turned up
     * (docs/variants/jieqi.md, jieqi-folk.md). */
    for (int i = 0; i < pos->count[us]; i++) {
        Point p = pos->list[us][i];
        if (XQ_PIECE_KIND(pos->board[p]) != x)
            continue;
        MoveList tmp;
        int k = pos_walk_piece(pos, p, &v->table[x][us][p], &tmp, 0);
        for (int j = 0; j < k && n < XQ_MAX_MOVES; j++) {
            Point to = XQ_MOVE_TO(tmp.moves[j]);
            if (o->mode == HIDDEN_FOLK && hidden_is_down(v, pos->board[to]))
                continue; /* docs/variants/jieqi-folk.md: face-down pieces cannot be captured */
            list->moves[n++] = XQ_MOVE_SPECIAL(p, to, 0, XQ_FLAG_REVEAL);
        }
    }
    return n;
}

/* Legal-list rules the tables cannot say: face-down pieces cannot be captured (folk, banqi) or are
 * shown when captured (jieqi, capture_knowledge = both, or the capturer's search view); before
 * colours are assigned the first mover may only reveal (docs/variants/jieqi-folk.md, banqi.md). */
static int hidden_filter(Position *pos, MoveList *list)
{
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    bool unassigned = !pos->module[MS_HIDDEN_COLOUR];
    bool shown = shows_capture(pos);
    int n = 0;
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        bool reveal = XQ_MOVE_FLAGS(m) == XQ_FLAG_REVEAL;
        if (unassigned && !(reveal && (o->mode == HIDDEN_FOLK || XQ_MOVE_FROM(m) == XQ_MOVE_TO(m))))
            continue;
        if (!reveal && hidden_is_down(v, pos->board[XQ_MOVE_TO(m)])) {
            if (o->mode != HIDDEN_JIEQI)
                continue;
            if (shown)
                m = XQ_MOVE_SPECIAL(XQ_MOVE_FROM(m), XQ_MOVE_TO(m), 0, XQ_FLAG_REVEAL);
        }
        list->moves[n++] = m;
    }
    return n;
}

static bool hidden_owns(uint8_t flags)
{
    return flags == XQ_FLAG_REVEAL;
}

/* A reveal is legal if the same plain move is: the identity changes no attack on the mover's
 * general (it is the mover's own piece, or a captured one). */
static bool hidden_is_legal(Position *pos, Move m)
{
    if (XQ_MOVE_FROM(m) == XQ_MOVE_TO(m))
        return true;
    return pos_plain_move_is_legal(pos, XQ_MOVE(XQ_MOVE_FROM(m), XQ_MOVE_TO(m)));
}

static void take_from_pool(Position *pos, uint8_t code)
{
    Side c = hidden_code_colour(code);
    int k = hidden_code_kind(code);
    pool_set(pos, c, k, hidden_pool(pos, c, k) - 1);
}

/* Colour assignment by seat 0's first reveal (docs/variants/jieqi-folk.md, banqi.md); returns true
 * if the face-up pieces had to change sides. */
static bool assign_colour(Position *pos, uint8_t code)
{
    if (pos->module[MS_HIDDEN_COLOUR])
        return false;
    Side c = hidden_code_colour(code);
    pos_module_set(pos, MS_HIDDEN_COLOUR, c == RED ? 1 : 2);
    if (c == BLACK)
        swap_face_up(pos);
    return c == BLACK;
}

static void hidden_do(Position *pos, Move m, Undo *u)
{
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    uint8_t x = XQ_MOVE_EXTRA(m);
    Side us = pos->side, them = XQ_OTHER(us);
    if (o->mode != HIDDEN_JIEQI)
        x &= 0x1f;
    u->replaced = pos->board[from];
    if (o->mode == HIDDEN_JIEQI) {
        if (hidden_is_down(v, pos->board[from])) {
            take_from_pool(pos, hidden_code(us, (x & 15) - 1));
            pos_replace_piece(pos, from, XQ_PIECE(us, (x & 15) - 1));
        }
        if (x >> 4) {
            take_from_pool(pos, hidden_code(them, (x >> 4) - 1));
            pos_replace_piece(pos, to, XQ_PIECE(them, (x >> 4) - 1));
        }
        u->captured = pos_move_piece(pos, from, to, &u->captured_slot);
    } else if (from == to) {
        assign_colour(pos, x);
        take_from_pool(pos, x);
        Piece pc = XQ_PIECE(seat_of_colour(pos, hidden_code_colour(x)), hidden_code_kind(x));
        u->captured2_slot = set_piece(pos, from, pc);
    } else if (hidden_is_down(v, pos->board[from])) {
        assign_colour(pos, x);
        take_from_pool(pos, x);
        u->captured = pos_move_piece(pos, from, to, &u->captured_slot);
        Piece pc = XQ_PIECE(seat_of_colour(pos, hidden_code_colour(x)), hidden_code_kind(x));
        u->captured2_slot = set_piece(pos, to, pc);
    } else {
        /* banqi-hp: a cannon takes a face-down piece, whoever owns it (docs/variants/banqi-hp.md).
         */
        take_from_pool(pos, x);
        Piece down = pos->board[to];
        pos->key ^= v->zobrist_piece[down][to];
        u->captured_slot = list_remove(pos, to);
        pos->board[to] = XQ_EMPTY;
        u->captured = down;
        uint8_t unused;
        pos_move_piece(pos, from, to, &unused);
    }
}

static void hidden_undo(Position *pos, Move m, const Undo *u)
{
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    uint8_t x = XQ_MOVE_EXTRA(m);
    Side us = pos->side;
    if (o->mode == HIDDEN_JIEQI) {
        pos_unmove_piece(pos, from, to, u->captured, u->captured_slot);
        pos->board[from] = u->replaced;
        if (x >> 4)
            pos->board[to] = XQ_PIECE(XQ_OTHER(us), o->hidden_kind);
        return;
    }
    /* The module bytes are restored already: an unassigned colour means this move assigned it. */
    x &= 0x1f;
    bool swapped = !pos->module[MS_HIDDEN_COLOUR] && hidden_code_colour(x) == BLACK;
    if (from == to) {
        unset_piece(pos, from, u->replaced, u->captured2_slot);
    } else if (hidden_is_down(v, u->replaced)) {
        unset_piece(pos, to, u->replaced, u->captured2_slot);
        pos_unmove_piece(pos, from, to, u->captured, u->captured_slot);
    } else {
        pos_unmove_piece(pos, from, to, XQ_EMPTY, 0);
        pos->board[to] = u->captured;
        list_restore(pos, XQ_PIECE_SIDE(u->captured), to, u->captured_slot);
    }
    if (swapped) {
        for (int p = 0; p < v->npoints; p++)
            if (pos->board[p] && !hidden_is_down(v, pos->board[p]))
                pos->board[p] ^= 16;
        rebuild_lists(pos);
    }
}

/* Natural-limit reset by reveals (folk, banqi) and hit points (banqi-hp). */
static void hidden_after(Position *pos, Move m, Side mover, const Undo *u)
{
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    bool reveal = XQ_MOVE_FLAGS(m) == XQ_FLAG_REVEAL;
    if (reveal && o->resets_limit) {
        /* pos_finish_ply counts this ply next: start both counts from zero. */
        pos->no_capture = -1;
        pos->limit_count = -1;
    }
    if (o->hp && u->captured) {
        Side owner;
        int kind;
        if (hidden_is_down(v, u->captured)) {
            uint8_t x = XQ_MOVE_EXTRA(m) & 0x1f;
            owner = seat_of_colour(pos, hidden_code_colour(x));
            kind = hidden_code_kind(x);
        } else {
            owner = XQ_OTHER(mover);
            kind = XQ_PIECE_KIND(u->captured);
        }
        int hp = pos->module[MS_HIDDEN_HP + owner] - o->hp_cost[kind];
        pos_module_set(pos, MS_HIDDEN_HP + owner, (uint8_t)(hp > 0 ? hp : 0));
    }
}

/* ---- notation ------------------------------------------------------------------------------- */

static char code_letter(const Variant *v, uint8_t code)
{
    char l = v->kinds[hidden_code_kind(code)].letter;
    return hidden_code_colour(code) == RED ? l : (char)tolower((unsigned char)l);
}

/* "a0a1R" (jieqi reveal), "c3c3n" (flip), "b1b4*k" (a face-down piece taken and shown), '?' for
 * an identity not drawn yet. Jieqi letters take the mover's case; the side is in the move. */
static void hidden_text(const Variant *v, Move m, char *buf, size_t size)
{
    char a[8], b[8];
    variant_point_name(v, XQ_MOVE_FROM(m), a);
    variant_point_name(v, XQ_MOVE_TO(m), b);
    uint8_t x = XQ_MOVE_EXTRA(m);
    snprintf(buf, size, "%s%s%s", a, b, x ? "" : "?");
    if (!x)
        return;
    size_t n = strlen(buf);
    if (v->hidden.mode == HIDDEN_JIEQI) {
        /* The side is not in the move: jieqi letters are written upper case. */
        if ((x & 15) && n + 1 < size) {
            buf[n++] = v->kinds[(x & 15) - 1].letter;
            buf[n] = '\0';
        }
        if ((x >> 4) && n + 2 < size) {
            buf[n++] = '*';
            buf[n++] = v->kinds[(x >> 4) - 1].letter;
            buf[n] = '\0';
        }
        return;
    }
    snprintf(buf + n, size - n, "%s%c", x & XQ_REVEAL_TARGET ? "*" : "", code_letter(v, x & 0x1f));
}

/* Reads a reveal letter at *c: a pooled kind of `colour` (jieqi: the letter's case is free, the
 * colour follows from the move; else the case is the colour). 0 with *why on a bad letter. */
static int reveal_letter(const Position *pos, const char **c, int colour, const char *text, char *why,
                         size_t why_size, uint8_t *code)
{
    const Variant *v = pos->v;
    char l = **c;
    int k = isalpha((unsigned char)l) ? variant_find_kind_by_letter(v, l) : -1;
    if (k < 0 || k >= HIDDEN_POOL_KINDS) {
        snprintf(why, why_size, "'%s': expected the letter of the identity turned up, not '%s' "
                 "(e.g. a0a1R; a taken face-down piece shown adds *L)", text, *c);
        return 0;
    }
    Side col = colour >= 0 ? (Side)colour : isupper((unsigned char)l) ? RED : BLACK;
    if (hidden_pool(pos, col, k) == 0) {
        snprintf(why, why_size, "'%s': no %s %s is left in the unrevealed pool", text,
                 col == RED ? "red" : "black", v->kinds[k].name);
        return 0;
    }
    *code = hidden_code(col, k);
    (*c)++;
    return 1;
}

Move hidden_parse_move(Position *pos, const char *text, char *why, size_t why_size)
{
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    const char *s = text;
    while (*s == ' ')
        s++;
    Point from = variant_parse_point(v, &s);
    if (*s == '-')
        s++;
    Point to = variant_parse_point(v, &s);
    if (from == XQ_NO_POINT || to == XQ_NO_POINT) {
        snprintf(why, why_size, "'%s' is not a move on this board (expected e.g. a0a1R)", text);
        return XQ_MOVE_NONE;
    }
    MoveList list;
    pos_generate_legal(pos, &list);
    Move m = XQ_MOVE_NONE;
    for (int i = 0; i < list.count; i++)
        if (XQ_MOVE_FROM(list.moves[i]) == from && XQ_MOVE_TO(list.moves[i]) == to)
            m = list.moves[i];
    if (m == XQ_MOVE_NONE) {
        move_explain_illegal(pos, from, to, text, why, why_size);
        return XQ_MOVE_NONE;
    }
    const char *c = s;
    size_t len = strlen(c);
    while (len && c[len - 1] == ' ')
        len--;
    if (XQ_MOVE_FLAGS(m) != XQ_FLAG_REVEAL) {
        if (!len)
            return m;
        snprintf(why, why_size, "'%s': this move reveals nothing, so it takes no suffix", text);
        return XQ_MOVE_NONE;
    }
    if (!len || (len == 1 && *c == '?') || (len == 2 && !strncmp(c, "*?", 2)))
        return m;
    /* Drawn identities: each must still be in its pool, nothing may follow them. */
    uint8_t x = 0, code;
    Side us = pos->side;
    bool down_from = hidden_is_down(v, pos->board[from]) && from != to;
    if (o->mode == HIDDEN_JIEQI) {
        bool need_to = shows_capture(pos) && hidden_is_down(v, pos->board[to]);
        if (down_from) {
            if (!reveal_letter(pos, &c, us, text, why, why_size, &code))
                return XQ_MOVE_NONE;
            x |= (uint8_t)(hidden_code_kind(code) + 1);
        }
        if (need_to && *c == '*') {
            c++;
            if (!reveal_letter(pos, &c, XQ_OTHER(us), text, why, why_size, &code))
                return XQ_MOVE_NONE;
            x |= (uint8_t)((hidden_code_kind(code) + 1) << 4);
        } else if (need_to) {
            snprintf(why, why_size, "'%s': the taken face-down piece is shown: add *L, its "
                     "identity", text);
            return XQ_MOVE_NONE;
        }
    } else {
        bool target = !down_from && from != to; /* a banqi-hp cannon takes a face-down piece */
        if (target && *c++ != '*') {
            snprintf(why, why_size, "'%s': the identity of the taken face-down piece is written "
                     "*L (e.g. %.4s*k)", text, text);
            return XQ_MOVE_NONE;
        }
        if (!reveal_letter(pos, &c, -1, text, why, why_size, &code))
            return XQ_MOVE_NONE;
        x = (uint8_t)(code | (target ? XQ_REVEAL_TARGET : 0));
    }
    if ((size_t)(c - s) < len) {
        snprintf(why, why_size, "'%s': unexpected '%.*s' after the move", text, (int)(len - (size_t)(c - s)), c);
        return XQ_MOVE_NONE;
    }
    return m | (Move)x << 16;
}

/* ---- chance ---------------------------------------------------------------------------------- */

bool hidden_is_chance(const Position *pos, Move m)
{
    (void)pos;
    return XQ_MOVE_FLAGS(m) == XQ_FLAG_REVEAL && XQ_MOVE_EXTRA(m) == 0;
}

int hidden_outcomes(const Position *pos, Move m, Move *out, double *prob)
{
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    Move base = m & 0xff00ffffu;
    int n = 0;
    if (o->mode == HIDDEN_JIEQI) {
        Side us = pos->side, them = XQ_OTHER(us);
        bool df = hidden_is_down(v, pos->board[from]);
        bool dt = shows_capture(pos) && hidden_is_down(v, pos->board[to]);
        double tf = hidden_pool_total(pos, us), tt = hidden_pool_total(pos, them);
        for (int kf = df ? 0 : -1; kf < (df ? HIDDEN_POOL_KINDS : 0); kf++) {
            double pf = kf < 0 ? 1.0 : hidden_pool(pos, us, kf) / tf;
            if (pf <= 0)
                continue;
            for (int kt = dt ? 0 : -1; kt < (dt ? HIDDEN_POOL_KINDS : 0); kt++) {
                double pt = kt < 0 ? 1.0 : hidden_pool(pos, them, kt) / tt;
                if (pt <= 0)
                    continue;
                out[n] = base | (Move)((kf + 1) | (kt + 1) << 4) << 16;
                prob[n++] = pf * pt;
            }
        }
        return n;
    }
    double total = hidden_pool_total(pos, RED) + hidden_pool_total(pos, BLACK);
    uint8_t target = from != to && !hidden_is_down(v, pos->board[from]) ? XQ_REVEAL_TARGET : 0;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < HIDDEN_POOL_KINDS; k++) {
            int cnt = hidden_pool(pos, (Side)c, k);
            if (!cnt)
                continue;
            out[n] = base | (Move)(hidden_code((Side)c, k) | target) << 16;
            prob[n++] = cnt / total;
        }
    return n;
}

Move hidden_resolve(const Position *pos, Move m, const HiddenDeal *d)
{
    if (!hidden_is_chance(pos, m))
        return m;
    const Variant *v = pos->v;
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    uint8_t x;
    if (v->hidden.mode == HIDDEN_JIEQI) {
        x = (uint8_t)(hidden_is_down(v, pos->board[from]) ? d->id[from] & 15 : 0);
        if (shows_capture(pos) && hidden_is_down(v, pos->board[to]))
            x |= (uint8_t)((d->id[to] & 15) << 4);
    } else if (hidden_is_down(v, pos->board[from])) {
        x = d->id[from];
    } else {
        x = (uint8_t)(d->id[to] | XQ_REVEAL_TARGET);
    }
    return m | (Move)x << 16;
}

void hidden_knowledge_note(const Position *pos, Move m, const HiddenDeal *d, HiddenKnowledge *k)
{
    const Variant *v = pos->v;
    Point to = XQ_MOVE_TO(m);
    if (v->hidden.knowledge != KNOW_CAPTURER || v->hidden.mode != HIDDEN_JIEQI ||
        XQ_MOVE_FROM(m) == to || !hidden_is_down(v, pos->board[to]) || !d->id[to])
        return;
    int kind = hidden_code_kind(d->id[to]);
    if (kind >= 0 && kind < HIDDEN_POOL_KINDS && k->seen[pos->side][kind] < 15)
        k->seen[pos->side][kind]++;
}

int hidden_view_enter(Position *pos, const HiddenKnowledge *k, HiddenView *view)
{
    const Variant *v = pos->v;
    view->on = false;
    if (!hidden_on(v) || v->hidden.mode != HIDDEN_JIEQI || v->hidden.knowledge != KNOW_CAPTURER)
        return 0;
    Side us = pos->side, them = XQ_OTHER(us);
    for (int kind = 0; k && kind < HIDDEN_POOL_KINDS; kind++)
        if (k->seen[us][kind] > hidden_pool(pos, them, kind))
            return -1;
    memcpy(view->module, pos->module, sizeof view->module);
    uint64_t key = pos->key;
    for (int kind = 0; k && kind < HIDDEN_POOL_KINDS; kind++)
        pool_set(pos, them, kind, hidden_pool(pos, them, kind) - k->seen[us][kind]);
    pos_module_set(pos, MS_HIDDEN_VIEW, (uint8_t)(us + 1));
    view->delta = key ^ pos->key;
    for (int i = 0; i < pos->hist_len; i++)
        pos->hist[i].key ^= view->delta;
    view->on = true;
    return 0;
}

void hidden_view_leave(Position *pos, const HiddenView *view)
{
    if (!view->on)
        return;
    memcpy(pos->module, view->module, sizeof pos->module);
    pos->key ^= view->delta;
    for (int i = 0; i < pos->hist_len; i++)
        pos->hist[i].key ^= view->delta;
}

Move hidden_view_game_move(const Position *pos, Move m)
{
    const Variant *v = pos->v;
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    if (XQ_MOVE_FLAGS(m) != XQ_FLAG_REVEAL || v->hidden.mode != HIDDEN_JIEQI)
        return m;
    if (!hidden_is_down(v, pos->board[from]))
        return XQ_MOVE(from, to);
    return m & ~((Move)0xf0 << 16); /* a face-down mover: the game shows only its identity */
}

bool hidden_same_move(const Position *pos, Move gen, Move m, const HiddenDeal *deal)
{
    if (gen == m)
        return true;
    if (!hidden_on(pos->v) || !hidden_is_chance(pos, gen) || (gen & 0xff00ffffu) != (m & 0xff00ffffu))
        return false;
    if (deal)
        return hidden_resolve(pos, gen, deal) == m;
    Move out[HIDDEN_MAX_OUTCOMES];
    double prob[HIDDEN_MAX_OUTCOMES];
    int n = hidden_outcomes(pos, gen, out, prob);
    for (int i = 0; i < n; i++)
        if (out[i] == m)
            return true;
    return false;
}

uint64_t hidden_perft(Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    MoveList list;
    pos_generate_legal(pos, &list);
    uint64_t total = 0;
    for (int i = 0; i < list.count; i++) {
        Move out[HIDDEN_MAX_OUTCOMES];
        double prob[HIDDEN_MAX_OUTCOMES];
        int n = 1;
        out[0] = list.moves[i];
        if (hidden_is_chance(pos, list.moves[i]))
            n = hidden_outcomes(pos, list.moves[i], out, prob);
        if (depth == 1) {
            total += (uint64_t)n;
            continue;
        }
        for (int j = 0; j < n; j++) {
            Undo u;
            pos_do_move(pos, out[j], &u);
            total += hidden_perft(pos, depth - 1);
            pos_undo_move(pos, out[j], &u);
        }
    }
    return total;
}

/* Shuffles the multiset of pooled identities of `colours` onto the face-down points listed. */
static void deal_points(const Position *pos, Rng *rng, const Point *pts, int npts, int colours,
                        HiddenDeal *d)
{
    uint8_t bag[64];
    int n = 0;
    for (int c = 0; c < 2; c++)
        if (colours >> c & 1)
            for (int k = 0; k < HIDDEN_POOL_KINDS; k++)
                for (int i = 0; i < hidden_pool(pos, (Side)c, k) && n < 64; i++)
                    bag[n++] = hidden_code((Side)c, k);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)(i + 1));
        uint8_t t = bag[i];
        bag[i] = bag[j];
        bag[j] = t;
    }
    for (int i = 0; i < npts && i < n; i++)
        d->id[pts[i]] = bag[i];
}

void hidden_deal(const Position *pos, Rng *rng, HiddenDeal *d)
{
    const Variant *v = pos->v;
    memset(d, 0, sizeof *d);
    Point pts[2][XQ_MAX_POINTS];
    int n[2] = {0, 0};
    for (int p = 0; p < v->npoints; p++)
        if (hidden_is_down(v, pos->board[p])) {
            int s = v->hidden.mode == HIDDEN_JIEQI ? XQ_PIECE_SIDE(pos->board[p]) : 0;
            pts[s][n[s]++] = (Point)p;
        }
    if (v->hidden.mode == HIDDEN_JIEQI) {
        deal_points(pos, rng, pts[RED], n[RED], 1, d);
        deal_points(pos, rng, pts[BLACK], n[BLACK], 2, d);
    } else {
        deal_points(pos, rng, pts[0], n[0], 3, d);
    }
}

void hidden_show_start(Position *pos, const HiddenDeal *d, Rng *rng)
{
    const Variant *v = pos->v;
    Point pts[XQ_MAX_POINTS];
    int n = 0;
    for (int p = 0; p < v->npoints; p++)
        if (hidden_is_down(v, pos->board[p]))
            pts[n++] = (Point)p;
    for (int i = 0; i < v->hidden.face_up_start && n > 0; i++) {
        int j = (int)rng_below(rng, (uint32_t)n);
        Point p = pts[j];
        pts[j] = pts[--n];
        uint8_t code = d->id[p];
        take_from_pool(pos, code);
        /* Colours unassigned: the side bit is the colour (hidden.h). */
        pos->board[p] = XQ_PIECE(hidden_code_colour(code), hidden_code_kind(code));
    }
    rebuild_lists(pos);
    pos->key = pos_compute_key(pos);
}

void hidden_swap_seats(Position *pos, HiddenDeal *d)
{
    const Variant *v = pos->v;
    Piece board[XQ_MAX_POINTS];
    HiddenDeal out;
    memset(&out, 0, sizeof out);
    for (int p = 0; p < v->npoints; p++) {
        Point q = variant_point(v, v->files - 1 - v->point_file[p], v->ranks - 1 - v->point_rank[p]);
        Piece pc = pos->board[p];
        /* banqi's face-down pieces all stand in seat 0 (hidden.h); any other piece changes
         * colour, and with it its seat or the seat of the half it stands on. */
        if (pc && !(v->hidden.mode == HIDDEN_BANQI && hidden_is_down(v, pc)))
            pc = (Piece)(pc ^ 16);
        board[q] = pc;
        out.id[q] = d->id[p] ? (uint8_t)(d->id[p] ^ 16) : 0;
    }
    for (int p = 0; p < v->npoints; p++)
        pos->board[p] = board[p];
    for (int k = 0; k < HIDDEN_POOL_KINDS; k++) {
        int red = hidden_pool(pos, RED, k);
        pool_set(pos, RED, k, hidden_pool(pos, BLACK, k));
        pool_set(pos, BLACK, k, red);
    }
    uint8_t hp = pos->module[MS_HIDDEN_HP];
    pos->module[MS_HIDDEN_HP] = pos->module[MS_HIDDEN_HP + 1];
    pos->module[MS_HIDDEN_HP + 1] = hp;
    *d = out;
    rebuild_lists(pos);
    pos->key = pos_compute_key(pos);
}

/* ---- game end ------------------------------------------------------------------------------- */

static Result loss_for(Side s)
{
    return s == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
}

static bool has_kind(const Position *pos, Side seat, int kind)
{
    for (int i = 0; i < pos->count[seat]; i++)
        if (XQ_PIECE_KIND(pos->board[pos->list[seat][i]]) == kind)
            return true;
    return false;
}

/* Marks in `out` the face-up enemy pieces that side's move m, just played on p, attacks anew: some
 * piece of `side` attacks the point and did not attack it from where it stood before the move
 * (`before`: the attack table of the board before m). */
static void attacked_by(Position *p, Side side, Move m, const uint64_t (*before)[4], bool *out)
{
    Side them = XQ_OTHER(side);
    memset(out, 0, XQ_MAX_POINTS * sizeof *out);
    for (int j = 0; j < p->count[them]; j++) {
        Point x = p->list[them][j];
        if (hidden_is_down(p->v, p->board[x]))
            continue;
        for (int a = 0; a < p->count[side] && !out[x]; a++) {
            Point at = p->list[side][a];
            if (!pos_piece_attacks(p, at, x))
                continue;
            Point was = at == XQ_MOVE_TO(m) ? XQ_MOVE_FROM(m) : at;
            out[x] = !(before[x][was >> 6] >> (was & 63) & 1);
        }
    }
}

/* The attack table of p's board: for every enemy point x, the points of side's pieces
 * attacking it. */
static void attack_table(Position *p, Side side, uint64_t (*table)[4])
{
    Side them = XQ_OTHER(side);
    memset(table, 0, XQ_MAX_POINTS * sizeof *table);
    for (int j = 0; j < p->count[them]; j++) {
        Point x = p->list[them][j];
        if (hidden_is_down(p->v, p->board[x]))
            continue;
        for (int a = 0; a < p->count[side]; a++) {
            Point at = p->list[side][a];
            if (pos_piece_attacks(p, at, x))
                table[x][at >> 6] |= (uint64_t)1 << (at & 63);
        }
    }
}

/* banqi-hp (docs/variants/banqi-hp.md): over the cycle of a threefold repetition, does every move
 * of `side` create a new attack on one and the same enemy piece (followed as it moves)? A piece
 * that merely stays attacked by a standing threat is not chased, as in the perpetual chase of
 * xiangqi. The cycle holds only plain moves (a capture or a reveal changes the key for good), so
 * it is undone and replayed on a copy. */
static bool chases(const Position *pos, Side side, int start)
{
    Position *p = malloc(sizeof *p);
    uint64_t (*before)[4] = malloc(XQ_MAX_POINTS * sizeof *before);
    if (!p || !before) {
        free(p);
        free(before);
        return false;
    }
    memcpy(p, pos, sizeof *p);
    for (int i = p->hist_len - 1; i >= start; i--) {
        Move m = p->hist[i].move;
        pos_unmove_piece(p, XQ_MOVE_FROM(m), XQ_MOVE_TO(m), XQ_EMPTY, 0);
    }
    Side mover = (Side)(pos->side ^ ((pos->hist_len - start) & 1));
    bool target[XQ_MAX_POINTS], first = true, any = false;
    memset(target, 0, sizeof target);
    for (int i = start; i < pos->hist_len; i++, mover = XQ_OTHER(mover)) {
        Move m = p->hist[i].move;
        Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
        if (mover == side)
            attack_table(p, side, before);
        uint8_t unused;
        pos_move_piece(p, from, to, &unused);
        if (mover != side) {
            /* Follow the chased piece as it moves. */
            if (target[from]) {
                target[from] = false;
                target[to] = true;
            }
            continue;
        }
        bool now[XQ_MAX_POINTS];
        attacked_by(p, side, m, (const uint64_t (*)[4])before, now);
        any = false;
        for (int q = 0; q < p->v->npoints; q++) {
            target[q] = first ? now[q] : target[q] && now[q];
            any |= target[q];
        }
        first = false;
        if (!any)
            break;
    }
    free(before);
    free(p);
    return any;
}

static GameStatus chase_verdict(Position *pos)
{
    uint64_t key = pos->key;
    int start = -1;
    for (int i = pos->hist_len - 2; i >= 0; i -= 2) {
        if (pos->hist[i].captured || XQ_MOVE_FLAGS(pos->hist[i].move))
            break;
        if (pos->hist[i].key == key) {
            start = i;
            break;
        }
    }
    for (int i = start + 1; start >= 0 && i < pos->hist_len; i++)
        if (pos->hist[i].captured || XQ_MOVE_FLAGS(pos->hist[i].move))
            start = -1;
    if (start < 0)
        return (GameStatus){RESULT_DRAW, TERM_REPETITION_DRAW};
    bool c[2] = {chases(pos, RED, start), chases(pos, BLACK, start)};
    if (c[0] != c[1])
        return (GameStatus){loss_for(c[0] ? RED : BLACK), TERM_PERPETUAL_CHASE};
    return (GameStatus){RESULT_DRAW, TERM_REPETITION_DRAW};
}

GameStatus hidden_game_status(Position *pos, int legal_moves)
{
    (void)legal_moves;
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    GameStatus none = {RESULT_NONE, TERM_NONE};
    Side order[2] = {XQ_OTHER(pos->side), pos->side};
    for (int i = 0; i < 2; i++) {
        Side s = order[i];
        if (o->hp && pos->module[MS_HIDDEN_HP + s] == 0)
            return (GameStatus){loss_for(s), TERM_HP_LOST};
    }
    int colour0 = pos->module[MS_HIDDEN_COLOUR];
    if (!colour0)
        return none;
    for (int i = 0; i < 2; i++) {
        Side s = order[i];
        Side colour = (Side)hidden_seat_colour(pos, s);
        if (o->mode == HIDDEN_FOLK && !has_kind(pos, s, o->general_kind) &&
            hidden_pool(pos, colour, o->general_kind) == 0)
            return (GameStatus){loss_for(s), TERM_ROYAL_CAPTURED};
        if (o->mode == HIDDEN_BANQI) {
            /* docs/variants/banqi.md: a side without pieces (face up, or still face down) loses. */
            int down = hidden_down_count(pos), pooled = hidden_pool_total(pos, colour);
            int left = pos->count[s] - (s == RED ? down : 0) + (pooled < down ? pooled : down);
            if (left == 0)
                return (GameStatus){loss_for(s), TERM_NO_PIECES};
        }
    }
    if (o->chase_loses && pos->no_capture >= 4 &&
        rep_count_occurrences(pos) + 1 >= v->rules.repetition_count)
        return chase_verdict(pos);
    return none;
}

const RuleModule MOD_HIDDEN_MODULE = {
    .section = "hidden",
    .bit = MOD_HIDDEN,
    .fen_tag = "hidden",
    .defaults = hidden_defaults,
    .parse_option = hidden_parse,
    .finish_load = hidden_finish,
    .init_state = hidden_init,
    .fen_read = hidden_fen_read,
    .fen_write = hidden_fen_write,
    .generate = hidden_generate,
    .do_special = hidden_do,
    .undo_special = hidden_undo,
    .after_move = hidden_after,
    .filter_legal = hidden_filter,
    .table_of = hidden_table,
    .owns_flags = hidden_owns,
    .is_legal = hidden_is_legal,
    .move_text = hidden_text,
};
