/* mod_cube.c - rule module: cube generals (超然象棋, docs/variants/cube.md). Each general is a cube
 * whose faces are piece kinds; a turn may roll it so an adjacent face comes up (not on two
 * consecutive own turns); the kind on top moves by its [powered] atoms; a general with the
 * general face up attacks along its open file the enemy general, whatever its top face. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "module.h"

static void cube_defaults(Variant *v)
{
    CubeOptions *o = &v->cube;
    memset(o->opposite, -1, sizeof o->opposite);
    o->faces = 0;
    o->start_face = -1;
    o->roll_twice = false;
    o->face_flying = true;
}

/* [cube] opposite = K-P N-B C-A, start = K, roll_twice = no, face_flying = yes. */
static int cube_parse(Variant *v, const IniEntry *e, const char *file, XqError *err)
{
    CubeOptions *o = &v->cube;
    if (!strcmp(e->key, "opposite")) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", e->value);
        for (char *t = strtok(buf, " ,\t"); t; t = strtok(NULL, " ,\t")) {
            int a = strlen(t) == 3 && t[1] == '-' ? variant_find_kind_by_letter(v, t[0]) : -1;
            int b = a >= 0 ? variant_find_kind_by_letter(v, t[2]) : -1;
            if (b < 0 || a == b || o->opposite[a] >= 0 || o->opposite[b] >= 0)
                return module_fail(err, file, e->line, "[cube] opposite: '%s' is not a new pair "
                                   "of piece letters such as K-P", t);
            o->opposite[a] = (int8_t)b;
            o->opposite[b] = (int8_t)a;
            o->faces |= (uint16_t)((1u << a) | (1u << b));
        }
    } else if (!strcmp(e->key, "start")) {
        o->start_face = strlen(e->value) == 1 ? variant_find_kind_by_letter(v, e->value[0]) : -1;
        if (o->start_face < 0)
            return module_fail(err, file, e->line, "[cube] start: '%s' is not a piece letter",
                               e->value);
    } else if (!strcmp(e->key, "roll_twice") || !strcmp(e->key, "face_flying")) {
        bool *b = e->key[0] == 'r' ? &o->roll_twice : &o->face_flying;
        if (module_parse_bool(e->value, b) < 0)
            return module_fail(err, file, e->line, "[cube] %s must be yes or no, not '%s'",
                               e->key, e->value);
    } else {
        return module_fail(err, file, e->line, "unknown key '%s' in [cube] (expected opposite, "
                           "start, roll_twice, face_flying)", e->key);
    }
    return 0;
}

static int royal_kind(const Variant *v)
{
    for (int k = 0; k < v->nkinds; k++)
        if (v->royal_mask >> k & 1)
            return k;
    return -1;
}

static int cube_finish(Variant *v, const char *file, XqError *err)
{
    CubeOptions *o = &v->cube;
    int n = 0;
    for (int k = 0; k < v->nkinds; k++)
        n += o->faces >> k & 1;
    if (n != 6)
        return module_fail(err, file, 0, "[cube] opposite must name three pairs (six faces), "
                           "not %d faces", n);
    if (royal_kind(v) < 0 || !(o->faces >> royal_kind(v) & 1))
        return module_fail(err, file, 0, "[cube] needs a royal piece whose letter is a face");
    if (o->start_face < 0)
        o->start_face = royal_kind(v);
    if (!(o->faces >> o->start_face & 1))
        return module_fail(err, file, 0, "[cube] start must be one of the faces");
    if (o->face_flying && v->rules.flying_general != FLYING_NONE)
        return module_fail(err, file, 0, "[cube] face_flying = yes replaces the flying general: "
                           "set flying_general = no in [rules]");
    return 0;
}

static void cube_init(Position *pos)
{
    for (int s = 0; s < 2; s++) {
        pos->module[MS_CUBE_FACE + s] = (uint8_t)pos->v->cube.start_face;
        pos->module[MS_CUBE_ROLLED + s] = 0;
    }
}

/* "[cube:K/n*]": Red's top face, '/', Black's (lower case); '*' after a face: that side rolled
 * on its last own turn and may not roll now. */
static int cube_fen_read(Position *pos, const char *body, XqError *err)
{
    const Variant *v = pos->v;
    const char *c = body;
    for (int s = 0; s < 2; s++) {
        int k = *c ? variant_find_kind_by_letter(v, *c) : -1;
        bool upper = *c && isupper((unsigned char)*c);
        if (k < 0 || !(v->cube.faces >> k & 1) || upper != (s == RED))
            return module_fail(err, "FEN", 0, "[cube:%s]: expected a red face letter, '/', a "
                               "black one (e.g. K/k), each optionally followed by '*'", body);
        c++;
        pos->module[MS_CUBE_FACE + s] = (uint8_t)k;
        pos->module[MS_CUBE_ROLLED + s] = *c == '*';
        if (*c == '*')
            c++;
        if (s == RED && *c++ != '/')
            return module_fail(err, "FEN", 0, "[cube:%s]: expected '/' after the red face", body);
    }
    if (*c)
        return module_fail(err, "FEN", 0, "[cube:%s]: unexpected '%s'", body, c);
    return 0;
}

static void cube_fen_write(const Position *pos, char *buf, size_t size)
{
    const Variant *v = pos->v;
    char r = v->kinds[pos->module[MS_CUBE_FACE + RED]].letter;
    char b = (char)tolower((unsigned char)v->kinds[pos->module[MS_CUBE_FACE + BLACK]].letter);
    snprintf(buf, size, "%c%s/%c%s", r, pos->module[MS_CUBE_ROLLED + RED] ? "*" : "", b,
             pos->module[MS_CUBE_ROLLED + BLACK] ? "*" : "");
}

/* docs/variants/cube.md: roll the own general 90 degrees (one of the four faces adjacent to the
 * top: not the top, not its opposite); not on two consecutive own turns (option roll_twice). */
static int cube_generate(const Position *pos, MoveList *list, int n)
{
    const Variant *v = pos->v;
    Side us = pos->side;
    Point k = pos->royal[us];
    if (k == XQ_NO_POINT || (pos->module[MS_CUBE_ROLLED + us] && !v->cube.roll_twice))
        return n;
    int top = pos->module[MS_CUBE_FACE + us];
    for (int f = 0; f < v->nkinds && n < XQ_MAX_MOVES; f++)
        if ((v->cube.faces >> f & 1) && f != top && f != v->cube.opposite[top])
            list->moves[n++] = XQ_MOVE_SPECIAL(k, k, f, XQ_FLAG_ROLL);
    return n;
}

static void cube_do(Position *pos, Move m, Undo *u)
{
    (void)u;
    pos_module_set(pos, MS_CUBE_FACE + pos->side, XQ_MOVE_EXTRA(m));
}

static void cube_undo(Position *pos, Move m, const Undo *u)
{
    (void)pos, (void)m, (void)u; /* the face is module state, restored by the caller */
}

static void cube_after(Position *pos, Move m, Side mover, const Undo *u)
{
    (void)u;
    pos_module_set(pos, MS_CUBE_ROLLED + mover, XQ_MOVE_FLAGS(m) == XQ_FLAG_ROLL);
}

/* docs/variants/cube.md: the top face powers the own pieces of that kind (its [powered] atoms). */
static const MoveTable *cube_table(const Position *pos, int kind, Side side)
{
    const Variant *v = pos->v;
    if (pos->module[MS_CUBE_FACE + side] == kind && (v->powered_kinds >> kind & 1))
        return v->powered[kind][side];
    return NULL;
}

static bool cube_attacked(const Position *pos, Side side)
{
    const Variant *v = pos->v;
    Point k = pos->royal[side];
    if (k == XQ_NO_POINT)
        return false;
    Side them = XQ_OTHER(side);
    int top = pos->module[MS_CUBE_FACE + them];
    unsigned powered = (v->powered_kinds >> top & 1) ? 1u << top : 0u;
    if (pos_royal_attacked_by(pos, side, 0xffffu & ~powered))
        return true;
    if (powered) {
        for (int i = 0; i < pos->count[them]; i++) {
            Point from = pos->list[them][i];
            if (XQ_PIECE_KIND(pos->board[from]) != top)
                continue;
            MoveList l;
            int n = pos_walk_piece(pos, from, v->powered[top][them] + from, &l, 0);
            for (int j = 0; j < n; j++)
                if (XQ_MOVE_TO(l.moves[j]) == k)
                    return true;
        }
    }
    /* A general with the general face up attacks along its open file the enemy general, whatever
     * that one's top face (超然象棋: it "flies" at a cube whose general face is down, and
     * "otherwise as xiangqi", where two generals may not face each other). */
    int general = 0;
    while (!(v->royal_mask >> general & 1))
        general++;
    if (v->cube.face_flying && top == general) {
        Point q = k;
        for (int d = DIR_N; d <= DIR_S; d += DIR_S - DIR_N) {
            for (q = v->neighbor[k][d]; q != XQ_NO_POINT && !pos->board[q]; q = v->neighbor[q][d])
                ;
            if (q != XQ_NO_POINT && q == pos->royal[them])
                return true;
        }
    }
    return false;
}

/* "e0e0^N" that is no legal roll: the point, the face, two rolls in a row, or the general left
 * attacked. */
static bool cube_explain(Position *pos, const char *text, char *why, size_t size)
{
    const Variant *v = pos->v;
    const char *hat = strchr(text, '^');
    if (!hat)
        return false;
    const char *s = text;
    Point a = variant_parse_point(v, &s), b = variant_parse_point(v, &s);
    Side us = pos->side;
    int f = hat[1] && !hat[2] ? variant_find_kind_by_letter(v, hat[1]) : -1;
    int top = pos->module[MS_CUBE_FACE + us];
    if (s != hat || a == XQ_NO_POINT || a != b || a != pos->royal[us])
        snprintf(why, size, "'%s': a roll is written with the own general's point twice, '^' and "
                 "the new top face (e.g. e0e0^N)", text);
    else if (f < 0 || !(v->cube.faces >> f & 1))
        snprintf(why, size, "'%s': '%s' is not a face of the cube", text, hat + 1);
    else if (pos->module[MS_CUBE_ROLLED + us] && !v->cube.roll_twice)
        snprintf(why, size, "'%s': the general rolled on the last own turn; no two rolls in a row",
                 text);
    else if (f == top)
        snprintf(why, size, "'%s': the %s face is already on top", text, v->kinds[f].name);
    else if (f == v->cube.opposite[top])
        snprintf(why, size, "'%s': the %s face is opposite the top; a roll brings up one of the four "
                 "faces next to it", text, v->kinds[f].name);
    else
        snprintf(why, size, "'%s': the roll leaves the own general attacked", text);
    return true;
}

static bool cube_owns(uint8_t flags)
{
    return flags == XQ_FLAG_ROLL;
}

/* Project-defined notation: the general's point twice, '^', the letter of the new top face. */
static void cube_text(const Variant *v, Move m, char *buf, size_t size)
{
    char a[8];
    variant_point_name(v, XQ_MOVE_FROM(m), a);
    snprintf(buf, size, "%s%s^%c", a, a, v->kinds[XQ_MOVE_EXTRA(m)].letter);
}

const RuleModule MOD_CUBE_MODULE = {
    .section = "cube",
    .bit = MOD_CUBE,
    .fen_tag = "cube",
    .defaults = cube_defaults,
    .parse_option = cube_parse,
    .finish_load = cube_finish,
    .init_state = cube_init,
    .fen_read = cube_fen_read,
    .fen_write = cube_fen_write,
    .generate = cube_generate,
    .do_special = cube_do,
    .undo_special = cube_undo,
    .after_move = cube_after,
    .table_of = cube_table,
    .royal_attacked = cube_attacked,
    .owns_flags = cube_owns,
    .move_text = cube_text,
    .explain = cube_explain,
};
