/* mod_displace.c - rule module: displacement moves (驱步, docs/variants/tuoqi.md, tuoqi): a piece
 * lands on an enemy piece X by its displacement pattern and the mover sends X on by one or two of
 * X's own non-capturing moves; written "c1d4@e6". */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"

static void displace_defaults(Variant *v)
{
    memset(&v->displace, 0, sizeof v->displace);
    for (int k = 0; k < XQ_MAX_KINDS; k++)
        v->displace.kind[k].within_zone = -1;
    v->displace.max_moves = 2; /* seed 000: 一至两个步次 */
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

/* "run N" | "screens N" | "double" | "leap dx,dy [block dx,dy]... [over dx,dy] [sym=all|lr|none]
 * [within=ZONE] [undrawn]". Leap images and their blocking / occupied points as for atoms. */
static int parse_pattern(Variant *v, DisplacePattern *d, const char *value)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", value);
    char *tok[16];
    int n = 0;
    for (char *t = strtok(buf, " \t"); t && n < 16; t = strtok(NULL, " \t"))
        tok[n++] = t;
    if (n == 0)
        return -1;
    memset(d, 0, sizeof *d);
    d->within_zone = -1;
    if (!strcmp(tok[0], "run") || !strcmp(tok[0], "screens")) {
        int c = n == 2 ? atoi(tok[1]) : 0;
        if (c < 1 || c > 8)
            return -1;
        d->how = tok[0][0] == 'r' ? DISPLACE_RUN : DISPLACE_SCREENS;
        d->count = (uint8_t)c;
        return 0;
    }
    if (!strcmp(tok[0], "double")) {
        d->how = DISPLACE_DOUBLE;
        return n == 1 ? 0 : -1;
    }
    int dx, dy, bx[2], by[2], nb = 0, ox = 0, oy = 0, no = 0;
    const char *sym = "all";
    if (strcmp(tok[0], "leap") || n < 2 || parse_pair(tok[1], &dx, &dy) < 0)
        return -1;
    for (int t = 2; t < n; t++) {
        if (!strcmp(tok[t], "block") && t + 1 < n && nb < 2) {
            if (parse_pair(tok[++t], &bx[nb], &by[nb]) < 0)
                return -1;
            nb++;
        } else if (!strcmp(tok[t], "over") && t + 1 < n && !no) {
            if (parse_pair(tok[++t], &ox, &oy) < 0)
                return -1;
            no = 1;
        } else if (!strncmp(tok[t], "sym=", 4)) {
            sym = tok[t] + 4;
            if (strcmp(sym, "all") && strcmp(sym, "lr") && strcmp(sym, "none"))
                return -1;
        } else if (!strncmp(tok[t], "within=", 7)) {
            d->within_zone = variant_find_zone(v, tok[t] + 7);
            if (d->within_zone < 0)
                return -1;
        } else if (!strcmp(tok[t], "undrawn")) {
            d->undrawn = true;
        } else {
            return -1;
        }
    }
    d->how = DISPLACE_LEAP;
    d->nblocks = (uint8_t)nb;
    d->nover = (uint8_t)no;
    for (int s = 0; s < 8; s++) {
        bool swap = s & 4, fx = s & 1, fy = s & 2;
        if ((!strcmp(sym, "none") && s) || (!strcmp(sym, "lr") && (swap || fy)))
            continue;
        int x = swap ? dy : dx, y = swap ? dx : dy;
        x = fx ? -x : x;
        y = fy ? -y : y;
        bool dup = false;
        for (int i = 0; i < d->nleaps; i++)
            dup |= d->dx[i] == x && d->dy[i] == y;
        if (dup)
            continue;
        int i = d->nleaps++;
        d->dx[i] = (int8_t)x;
        d->dy[i] = (int8_t)y;
        for (int b = 0; b < nb; b++) {
            int px = swap ? by[b] : bx[b], py = swap ? bx[b] : by[b];
            d->bx[i][b] = (int8_t)(fx ? -px : px);
            d->by[i][b] = (int8_t)(fy ? -py : py);
        }
        int px = swap ? oy : ox, py = swap ? ox : oy;
        d->ox[i] = (int8_t)(fx ? -px : px);
        d->oy[i] = (int8_t)(fy ? -py : py);
    }
    return 0;
}

/* [displacement] moves = 2, then one line per displacing piece: LETTER = PATTERN. */
static int displace_parse(Variant *v, const IniEntry *e, const char *file, XqError *err)
{
    if (!strcmp(e->key, "moves")) {
        int m = atoi(e->value);
        if (m < 1 || m > 2)
            return module_fail(err, file, e->line, "[displacement] moves must be 1 or 2");
        v->displace.max_moves = m;
        return 0;
    }
    int k = strlen(e->key) == 1 ? variant_find_kind_by_letter(v, (char)toupper((unsigned char)e->key[0])) : -1;
    if (k < 0)
        return module_fail(err, file, e->line, "unknown key '%s' in [displacement] (expected "
                           "moves or a piece letter)", e->key);
    if (parse_pattern(v, &v->displace.kind[k], e->value) < 0)
        return module_fail(err, file, e->line, "[displacement] %s: '%s' is not run N, screens N, "
                           "double or leap dx,dy [block dx,dy] [over dx,dy] [sym=..] [within=ZONE] "
                           "[undrawn]", e->key, e->value);
    return 0;
}

/* Adds to `out` the empty points the piece on `at` reaches by one non-capturing move of table slice
 * t on board b (leaps, slides and hops to empty points; docs/variants/tuoqi.md: basic moves). */
static void walk_quiet(const Variant *v, const Piece *b, const MoveTable *t, PointSet *out)
{
    const LeapEntry *e = v->leaps + t->leap_first;
    for (int i = 0; i < t->leap_count; i++, e++)
        if ((e->mode & ATOM_MOVE) && !(b[e->block[0]] | b[e->block[1]]) && !b[e->to])
            pointset_add(out, e->to);
    const Ray *r = v->rays + t->ray_first;
    for (int j = 0; j < t->ray_count; j++, r++) {
        const Point *pts = v->ray_points + r->first;
        int k = 0;
        for (; k < r->len && !b[pts[k]]; k++)
            if ((r->flags & RAY_SLIDE_MOVE) && k < r->slide_max)
                pointset_add(out, pts[k]);
        if (k == r->len || !(r->flags & RAY_HOP_MOVE))
            continue;
        k++;
        for (int s = 1; s < r->screens && k < r->len; k++)
            s += b[pts[k]] != 0;
        for (; k < r->len && !b[pts[k]]; k++) {
            pointset_add(out, pts[k]);
            if (r->flags & RAY_HOP_NEXT)
                break; /* land=next: only the point right behind the screen */
        }
    }
}

/* Adds the moves from -> t displacing the enemy X on t: X's destinations are its one or two
 * non-capturing moves on the board with the mover standing on t (seed 000: 可转弯). */
static int add_displacements(const Position *pos, Point from, Point t, MoveList *list, int n)
{
    const Variant *v = pos->v;
    Piece x = pos->board[t], mover = pos->board[from];
    Side them = XQ_PIECE_SIDE(x);
    int kx = XQ_PIECE_KIND(x);
    Piece b[256];
    memcpy(b, pos->board, sizeof b);
    b[from] = XQ_EMPTY;
    PointSet first = {{0}}, all = {{0}};
    walk_quiet(v, b, &v->table[kx][them][t], &first);
    all = first;
    if (v->displace.max_moves > 1) {
        b[t] = mover;
        for (int p = 0; p < v->npoints; p++) {
            if (!pointset_has(&first, (Point)p))
                continue;
            b[p] = x;
            walk_quiet(v, b, &v->table[kx][them][p], &all);
            b[p] = XQ_EMPTY;
        }
    }
    for (int p = 0; p < v->npoints && n < XQ_MAX_MOVES; p++)
        if (pointset_has(&all, (Point)p) && p != t)
            list->moves[n++] = XQ_MOVE_SPECIAL(from, t, p, XQ_FLAG_DISPLACE);
    return n;
}

static bool enemy_on(const Position *pos, Point p, Side us)
{
    return p != XQ_NO_POINT && pos->board[p] && XQ_PIECE_SIDE(pos->board[p]) != us;
}

/* The points t a piece of kind k on `from` displaces from, by its pattern (docs/variants/tuoqi.md).
 */
static int displace_generate(const Position *pos, MoveList *list, int n)
{
    const Variant *v = pos->v;
    Side us = pos->side;
    int fwd = us == RED ? 1 : -1;
    for (int i = 0; i < pos->count[us]; i++) {
        Point from = pos->list[us][i];
        int k = XQ_PIECE_KIND(pos->board[from]);
        const DisplacePattern *d = &v->displace.kind[k];
        int stand = v->kinds[k].stand_zone, f = v->point_file[from], r = v->point_rank[from];
        Point targets[16];
        int nt = 0;
        if (d->how == DISPLACE_RUN || d->how == DISPLACE_SCREENS) {
            /* Chariot: exactly `count` adjacent pieces, then the enemy right after them.
             * Cannon: exactly `count` pieces with any gaps, then the next piece. */
            for (int dir = DIR_N; dir < DIR_COUNT; dir += 2) {
                Point q = v->neighbor[from][dir];
                int seen = 0;
                while (q != XQ_NO_POINT && seen < d->count) {
                    if (pos->board[q])
                        seen++;
                    else if (d->how == DISPLACE_RUN)
                        break;
                    q = v->neighbor[q][dir];
                }
                if (seen < d->count)
                    continue;
                while (d->how == DISPLACE_SCREENS && q != XQ_NO_POINT && !pos->board[q])
                    q = v->neighbor[q][dir];
                if (enemy_on(pos, q, us))
                    targets[nt++] = q;
            }
        } else if (d->how == DISPLACE_LEAP) {
            for (int j = 0; j < d->nleaps; j++) {
                Point q = variant_point(v, f + d->dx[j], r + fwd * d->dy[j]);
                if (!enemy_on(pos, q, us))
                    continue;
                bool ok = true;
                for (int bi = 0; bi < d->nblocks; bi++)
                    ok &= !pos->board[variant_point(v, f + d->bx[j][bi], r + fwd * d->by[j][bi])];
                if (d->nover)
                    ok &= pos->board[variant_point(v, f + d->ox[j], r + fwd * d->oy[j])] != XQ_EMPTY;
                if (d->within_zone >= 0)
                    ok &= variant_in_zone(v, d->within_zone, us, from) &&
                          variant_in_zone(v, d->within_zone, us, q);
                if (d->undrawn)
                    for (int dir = 0; dir < DIR_COUNT; dir++)
                        ok &= v->neighbor[from][dir] != q;
                if (ok && nt < 16)
                    targets[nt++] = q;
            }
        } else if (d->how == DISPLACE_DOUBLE) {
            /* General, advisor, elephant: two of its own moves in one straight line, the first
             * to an empty point, the second landing where its basic rules allow. */
            const MoveTable *t1 = &v->table[k][us][from];
            const LeapEntry *e1 = v->leaps + t1->leap_first;
            for (int a = 0; a < t1->leap_count; a++, e1++) {
                Point mid = e1->to;
                if (!(e1->mode & ATOM_MOVE) || pos->board[mid] || pos->board[e1->block[0]] ||
                    pos->board[e1->block[1]])
                    continue;
                int df = v->point_file[mid] - f, dr = v->point_rank[mid] - r;
                Point want = variant_point(v, v->point_file[mid] + df, v->point_rank[mid] + dr);
                const MoveTable *t2 = &v->table[k][us][mid];
                const LeapEntry *e2 = v->leaps + t2->leap_first;
                for (int c = 0; c < t2->leap_count; c++, e2++)
                    if (e2->to == want && enemy_on(pos, want, us) && nt < 16 &&
                        !(pos->board[e2->block[0]] | pos->board[e2->block[1]]))
                        targets[nt++] = want;
            }
        }
        for (int j = 0; j < nt; j++)
            if (variant_in_zone(v, stand, us, targets[j]))
                n = add_displacements(pos, from, targets[j], list, n);
    }
    return n;
}

/* The mover lands on X's point taking X off the board, then X is put on its destination (which
 * may be the point the mover left). A mover landing in its promotion zone (a pawn's jump onto the
 * enemy queen point) and an X sent into its own are promoted as a piece stepping there is
 * (docs/variants/tuoqi.md). Not a capture: u->captured stays empty; X is kept in u->replaced,
 * the unpromoted mover in u->promoted, X's list slot in u->captured_slot and the list entry its
 * re-entry overwrites in u->captured2_slot, so undo restores the lists exactly. */
static void displace_do(Position *pos, Move m, Undo *u)
{
    const Variant *v = pos->v;
    Point from = XQ_MOVE_FROM(m), t = XQ_MOVE_TO(m), dest = XQ_MOVE_EXTRA(m);
    Piece x = pos_move_piece(pos, from, t, &u->captured_slot);
    Side them = XQ_PIECE_SIDE(x);
    u->replaced = x;
    Piece mover = pos->board[t];
    int mk = promote_kind_at(v, XQ_PIECE_KIND(mover), XQ_PIECE_SIDE(mover), t);
    if (mk >= 0) {
        u->promoted = mover;
        pos_replace_piece(pos, t, XQ_PIECE(XQ_PIECE_SIDE(mover), mk));
    }
    int pk = promote_kind_at(v, XQ_PIECE_KIND(x), them, dest);
    Piece put = pk >= 0 ? XQ_PIECE(them, pk) : x;
    u->captured2_slot = pos->list[them][pos->count[them]];
    pos->index[dest] = pos->count[them];
    pos->list[them][pos->count[them]++] = dest;
    pos->board[dest] = put;
    pos->key ^= v->zobrist_piece[put][dest];
    if (v->kinds[XQ_PIECE_KIND(x)].royal)
        pos->royal[them] = dest;
}

static void displace_undo(Position *pos, Move m, const Undo *u)
{
    Point from = XQ_MOVE_FROM(m), t = XQ_MOVE_TO(m), dest = XQ_MOVE_EXTRA(m);
    Side them = XQ_PIECE_SIDE(u->replaced);
    pos->count[them]--;
    pos->list[them][pos->count[them]] = u->captured2_slot;
    pos->board[dest] = XQ_EMPTY;
    pos->index[dest] = 0;
    if (u->promoted)
        pos->board[t] = u->promoted;
    pos_unmove_piece(pos, from, t, u->replaced, u->captured_slot); /* key: by the caller */
}

/* "c1d4@e6" that is no legal displacement: no such pattern onto d4, X cannot go to e6, or the own
 * general is left attacked. */
static bool displace_explain(Position *pos, const char *text, char *why, size_t size)
{
    const Variant *v = pos->v;
    const char *s = text;
    Point from = variant_parse_point(v, &s);
    if (*s == '-')
        s++;
    Point to = variant_parse_point(v, &s);
    if (from == XQ_NO_POINT || to == XQ_NO_POINT || *s != '@')
        return false;
    s++;
    Point dest = variant_parse_point(v, &s);
    Piece pc = pos->board[from];
    if (!pc || XQ_PIECE_SIDE(pc) != pos->side)
        return false;
    char tn[8];
    variant_point_name(v, to, tn);
    if (dest == XQ_NO_POINT || *s) {
        snprintf(why, size, "'%s': a displacement is written FROM TO@DEST (e.g. c1d4@e6)", text);
        return true;
    }
    MoveList list;
    int n = displace_generate(pos, &list, 0);
    char dests[128] = "";
    size_t len = 0;
    bool pattern = false, target = false;
    for (int i = 0; i < n; i++) {
        Move m = list.moves[i];
        if (XQ_MOVE_FROM(m) != from || XQ_MOVE_TO(m) != to)
            continue;
        pattern = true;
        char d[8];
        variant_point_name(v, XQ_MOVE_EXTRA(m), d);
        if (len < sizeof dests)
            len += (size_t)snprintf(dests + len, sizeof dests - len, "%s%s", len ? " " : "", d);
        target |= XQ_MOVE_EXTRA(m) == dest;
    }
    if (!pattern)
        snprintf(why, size, "'%s': the %s cannot displace onto %s (it must land on an enemy piece "
                 "by its displacement pattern, and that piece must have a move)", text,
                 v->kinds[XQ_PIECE_KIND(pc)].name, tn);
    else if (!target)
        snprintf(why, size, "'%s': the displaced %s cannot go there (it can go to %s)", text,
                 v->kinds[XQ_PIECE_KIND(pos->board[to])].name, dests);
    else
        snprintf(why, size, "'%s': leaves the own general attacked", text);
    return true;
}

static bool displace_owns(uint8_t flags)
{
    return flags == XQ_FLAG_DISPLACE;
}

/* docs/variants/tuoqi.md: the mover's from and to, '@', the displaced piece's destination
 * ("c1d4@e6"). */
static void displace_text(const Variant *v, Move m, char *buf, size_t size)
{
    char a[8], b[8], c[8];
    variant_point_name(v, XQ_MOVE_FROM(m), a);
    variant_point_name(v, XQ_MOVE_TO(m), b);
    variant_point_name(v, XQ_MOVE_EXTRA(m), c);
    snprintf(buf, size, "%s%s@%s", a, b, c);
}

const RuleModule MOD_DISPLACE_MODULE = {
    .section = "displacement",
    .bit = MOD_DISPLACE,
    .defaults = displace_defaults,
    .parse_option = displace_parse,
    .generate = displace_generate,
    .do_special = displace_do,
    .undo_special = displace_undo,
    .owns_flags = displace_owns,
    .move_text = displace_text,
    .explain = displace_explain,
};
