/* module.c - the rule-module registry and the dispatch the generic core calls when a variant
 * switches modules on (the seam is described in module.h). */
#include "module.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const RuleModule *const MODULES[] = {
    &MOD_RESERVE_MODULE,
    &MOD_CUBE_MODULE,
    &MOD_MULTIMOVE_MODULE,
    &MOD_CAMP_MODULE,
    &MOD_DISPLACE_MODULE,
    &MOD_PROMOTE_MODULE,
    &MOD_HIDDEN_MODULE,
};
enum { NMODULES = (int)(sizeof MODULES / sizeof MODULES[0]) };

int module_count(void)
{
    return NMODULES;
}

const RuleModule *module_at(int i)
{
    return i >= 0 && i < NMODULES ? MODULES[i] : NULL;
}

const RuleModule *module_for_section(const char *section)
{
    for (int i = 0; i < NMODULES; i++)
        if (!strcmp(MODULES[i]->section, section))
            return MODULES[i];
    return NULL;
}

int module_fail(XqError *err, const char *file, int line, const char *fmt, ...)
{
    if (err) {
        snprintf(err->file, sizeof err->file, "%s", file);
        err->line = line;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int module_kind_mask(const Variant *v, const char *letters, uint16_t *mask)
{
    *mask = 0;
    for (const char *c = letters; *c; c++) {
        if (*c == ' ' || *c == ',' || *c == '\t')
            continue;
        int k = variant_find_kind_by_letter(v, *c);
        if (k < 0 || !isalpha((unsigned char)*c))
            return -1;
        *mask |= (uint16_t)(1u << k);
    }
    return *mask ? 0 : -1;
}

int module_parse_bool(const char *s, bool *out)
{
    if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "on") || !strcmp(s, "1")) {
        *out = true;
        return 0;
    }
    if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "off") || !strcmp(s, "0")) {
        *out = false;
        return 0;
    }
    return -1;
}

#define FOR_ENABLED(v, mod)                                                                      \
    for (int mi_ = 0; mi_ < NMODULES; mi_++)                                                     \
        for (const RuleModule *mod = MODULES[mi_]; mod && ((v)->modules & mod->bit); mod = NULL)

static const RuleModule *flag_owner(const Variant *v, uint8_t flags)
{
    FOR_ENABLED(v, mod)
        if (mod->owns_flags && mod->owns_flags(flags))
            return mod;
    return NULL;
}

void module_init_state(Position *pos)
{
    FOR_ENABLED(pos->v, mod)
        if (mod->init_state)
            mod->init_state(pos);
}

int module_fen_read(Position *pos, const char *field, XqError *err)
{
    const char *colon = strchr(field, ':');
    size_t len = colon ? (size_t)(colon - field) : 0;
    FOR_ENABLED(pos->v, mod)
        if (mod->fen_tag && colon && strlen(mod->fen_tag) == len && !strncmp(mod->fen_tag, field, len))
            return mod->fen_read(pos, colon + 1, err);
    if (err) {
        snprintf(err->file, sizeof err->file, "FEN");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "extra state field '[%.100s]' is not used by "
                 "this rule set", field);
    }
    return -1;
}

void module_fen_write(const Position *pos, char *buf, size_t size)
{
    size_t n = strlen(buf);
    FOR_ENABLED(pos->v, mod) {
        if (!mod->fen_write || n + 4 >= size)
            continue;
        char body[128];
        mod->fen_write(pos, body, sizeof body);
        n += (size_t)snprintf(buf + n, size - n, " [%s:%s]", mod->fen_tag, body);
        if (n >= size)
            n = size - 1;
    }
}

void module_do_move(Position *pos, Move m, Undo *u)
{
    const Variant *v = pos->v;
    Side us = pos->side;
    pos_begin_ply(pos, m, u);
    uint8_t flags = XQ_MOVE_FLAGS(m);
    if (flags) {
        const RuleModule *owner = flag_owner(v, flags);
        owner->do_special(pos, m, u);
    } else {
        u->captured = pos_move_piece(pos, XQ_MOVE_FROM(m), XQ_MOVE_TO(m), &u->captured_slot);
    }
    pos->hist[pos->hist_len - 1].captured = u->captured ? u->captured : u->captured2;
    FOR_ENABLED(v, mod)
        if (mod->after_move)
            mod->after_move(pos, m, us, u);
    pos_finish_ply(pos, us, u->captured || u->captured2);
}

void module_undo_move(Position *pos, Move m, const Undo *u)
{
    pos_unfinish_ply(pos, u);
    uint8_t flags = XQ_MOVE_FLAGS(m);
    if (flags)
        flag_owner(pos->v, flags)->undo_special(pos, m, u);
    else
        pos_unmove_piece(pos, XQ_MOVE_FROM(m), XQ_MOVE_TO(m), u->captured, u->captured_slot);
}

const MoveTable *module_table(const Position *pos, int kind, Side side, Point from)
{
    FOR_ENABLED(pos->v, mod)
        if (mod->table_of) {
            const MoveTable *t = mod->table_of(pos, kind, side);
            if (t)
                return t + from;
        }
    return &pos->v->table[kind][side][from];
}

const MoveTable *pos_piece_table(const Position *pos, Point from)
{
    Piece pc = pos->board[from];
    if (!pos->v->modules)
        return &pos->v->table[XQ_PIECE_KIND(pc)][XQ_PIECE_SIDE(pc)][from];
    return module_table(pos, XQ_PIECE_KIND(pc), XQ_PIECE_SIDE(pc), from);
}

bool variant_tables_vary(const Variant *v)
{
    FOR_ENABLED(v, mod)
        if (mod->table_of)
            return true;
    return false;
}

int variant_holdings(const Variant *v, Holding *out)
{
    int n = 0;
    FOR_ENABLED(v, mod)
        if (mod->holdings) {
            int first = n;
            n = mod->holdings(v, out, n);
            for (int i = first; i < n; i++)
                out[i].module = mi_;
        }
    return n;
}

int pos_held(const Position *pos, Side side, const Holding *h)
{
    return MODULES[h->module]->held(pos, side, h->kind);
}

int module_generate_pseudo(const Position *pos, MoveList *list)
{
    Side us = pos->side;
    int n = 0;
    for (int i = 0; i < pos->count[us]; i++) {
        Point from = pos->list[us][i];
        n = pos_walk_piece(pos, from, module_table(pos, XQ_PIECE_KIND(pos->board[from]), us, from),
                           list, n);
    }
    FOR_ENABLED(pos->v, mod)
        if (mod->generate)
            n = mod->generate(pos, list, n);
    list->count = n;
    return n;
}

bool module_is_legal(Position *pos, Move m)
{
    uint8_t flags = XQ_MOVE_FLAGS(m);
    /* A module that owns flags 0 judges plain moves too (mod_camp: who created a facing). */
    const RuleModule *owner = flag_owner(pos->v, flags);
    if (!flags && (!owner || !owner->is_legal))
        return pos_plain_move_is_legal(pos, m);
    if (!owner)
        return false;
    if (owner->is_legal)
        return owner->is_legal(pos, m);
    Side us = pos->side;
    Undo u;
    module_do_move(pos, m, &u);
    bool ok = !pos_royal_attacked(pos, us);
    module_undo_move(pos, m, &u);
    return ok;
}

int module_generate_legal(Position *pos, MoveList *list)
{
    /* A side whose royal piece was taken (by a five-tigers second sub-move) has lost: the game
     * is over and has no moves. */
    if (pos->v->royal_mask && pos->royal[pos->side] == XQ_NO_POINT) {
        list->count = 0;
        return 0;
    }
    MoveList pseudo;
    module_generate_pseudo(pos, &pseudo);
    int n = 0;
    for (int i = 0; i < pseudo.count; i++)
        if (module_is_legal(pos, pseudo.moves[i]))
            list->moves[n++] = pseudo.moves[i];
    list->count = n;
    FOR_ENABLED(pos->v, mod)
        if (mod->filter_legal)
            list->count = mod->filter_legal(pos, list);
    return list->count;
}

int module_count_legal(Position *pos)
{
    MoveList list;
    return module_generate_legal(pos, &list);
}

bool module_royal_attacked(const Position *pos, Side side)
{
    FOR_ENABLED(pos->v, mod)
        if (mod->royal_attacked)
            return mod->royal_attacked(pos, side);
    return pos_royal_attacked_by(pos, side, 0xffffu);
}

bool module_move_text(const Variant *v, Move m, char *buf, size_t size)
{
    const RuleModule *owner = flag_owner(v, XQ_MOVE_FLAGS(m));
    if (!owner || !owner->move_text)
        return false;
    owner->move_text(v, m, buf, size);
    return true;
}

bool module_explain_illegal(Position *pos, const char *text, char *why, size_t size)
{
    FOR_ENABLED(pos->v, mod)
        if (mod->explain && mod->explain(pos, text, why, size))
            return true;
    return false;
}
