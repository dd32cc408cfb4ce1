/* module.h - private to core/: the seam between the generic rules core and the rule modules
 * (reserve exchange, cube generals, multi-move turns) that atoms cannot express.
 *
 * The seam. A rule module is one file core/mod_NAME.c exporting one RuleModule value, listed in
 * MODULES[] in module.c. It is switched on by its own section [NAME] in the variant file
 * (`parse_option` sees every key, `finish_load` resolves letters and zones once the pieces are
 * known) and sets its bit in Variant.modules. The generic core pays for modules only through a
 * test of Variant.modules (or of a move's flags) outside its inner loops; with no module on,
 * standard xiangqi runs the plain table walks unchanged.
 *
 * State. A module owns a fixed range of bytes in Position.module (offsets MS_* below). The bytes
 * are hashed (Variant.zobrist_module, value 0 hashes to 0), saved whole in the Undo record and
 * restored by pos_undo_move, and written / read as a bracketed FEN field `[tag:...]` by the
 * module's fen hooks. Modules change their bytes only through pos_module_set so the key stays
 * incremental.
 *
 * Moves. A module's own moves carry a flag in bits 24-31 (XQ_FLAG_*), with the extra byte for
 * a kind or a point. `generate` appends pseudo-legal module moves; `do_special` / `undo_special`
 * apply them (given the generic helpers below); `after_move` updates module state after any
 * move; `filter_legal` may rewrite the legal list (multi-move turns). A module may also change
 * how pieces move (`table_of`: e.g. the cube's powered tables) and who attacks a royal piece
 * (`royal_attacked`: e.g. the cube's face-gated flying general).
 *
 * Later rule sets plug in the same way: river camp = an off-grid camp count in module bytes
 * with its own move flag (enter / leave camp); tuoqi displacement = a flagged move with the
 * displaced piece's target in `extra`; jieqi / banqi hidden pieces = pools in module bytes, a
 * reveal / flip flag, and a chance hook for the search. */
#ifndef XQ_MODULE_H
#define XQ_MODULE_H

#include "ini.h"
#include "position.h"

/* Module state layout (bytes of Position.module). */
enum {
    MS_RESERVE = 0,        /* mod_reserve: [side] pieces in reserve */
    MS_CUBE_FACE = 2,      /* mod_cube: [side] kind on the top face */
    MS_CUBE_ROLLED = 4,    /* mod_cube: [side] 1 if that side's last own move was a roll */
    MS_MULTI_PENDING = 6,  /* mod_multimove: 1 if the second sub-move of a turn is next */
    MS_HIDDEN_POOL = 8,    /* mod_hidden: bytes 8-15, unrevealed pool, [colour * 4 + kind / 2],
                            * a 4-bit count per kind (kinds 0-6) */
    MS_HIDDEN_COLOUR = 16, /* mod_hidden: 0 colours unassigned, 1 seat 0 is red, 2 seat 0 black */
    MS_HIDDEN_HP = 17,     /* mod_hidden: bytes 17-18, [seat] hit points (banqi-hp) */
    MS_HIDDEN_VIEW = 19,   /* mod_hidden: 0 the public position, 1 + seat: that seat's search
                            * view under capture_knowledge = capturer (hidden_view_enter) */
    MS_CAMP = 24,          /* mod_camp: [side] camp contents, 2 bits per enterable kind */
};

typedef struct RuleModule {
    const char *section;   /* variant-file section that switches the module on */
    unsigned bit;          /* MOD_* */
    const char *fen_tag;   /* tag of its FEN field */
    /* Loading: option defaults, one call per key of the section (pieces and zones are known),
     * then one to check the whole. */
    void (*defaults)(Variant *v);
    int (*parse_option)(Variant *v, const IniEntry *e, const char *file, XqError *err);
    int (*finish_load)(Variant *v, const char *file, XqError *err);
    /* State: defaults for a FEN without the field; the field's body read and written. */
    void (*init_state)(Position *pos);
    int (*fen_read)(Position *pos, const char *body, XqError *err);
    void (*fen_write)(const Position *pos, char *buf, size_t size);
    /* Moves. */
    int (*generate)(const Position *pos, MoveList *list, int n);
    void (*do_special)(Position *pos, Move m, Undo *u);
    void (*undo_special)(Position *pos, Move m, const Undo *u);
    void (*after_move)(Position *pos, Move m, Side mover, const Undo *u);
    int (*filter_legal)(Position *pos, MoveList *list);
    const MoveTable *(*table_of)(const Position *pos, int kind, Side side);
    bool (*royal_attacked)(const Position *pos, Side side);
    /* Flagged moves: does the module own these flags; is such a move legal (NULL: play it and
     * test the mover's royal piece); its ICCS text with the module's suffix ("h9h9=C"). */
    bool (*owns_flags)(uint8_t flags);
    bool (*is_legal)(Position *pos, Move m);
    void (*move_text)(const Variant *v, Move m, char *buf, size_t size);
    /* Pieces the module keeps off the board (camp, reserve), for the evaluation: `holdings`
     * appends the kinds it may hold to out[n..] (returns the new count), `held` counts a side's
     * pieces of one of them in a position. */
    int (*holdings)(const Variant *v, Holding *out, int n);
    int (*held)(const Position *pos, Side side, int kind);
    /* A move text of the module's own notation that is no legal move: writes why into `why` and
     * returns true; false if the text is not the module's to judge. */
    bool (*explain)(Position *pos, const char *text, char *why, size_t size);
} RuleModule;

extern const RuleModule MOD_RESERVE_MODULE, MOD_CUBE_MODULE, MOD_MULTIMOVE_MODULE;
extern const RuleModule MOD_CAMP_MODULE, MOD_DISPLACE_MODULE, MOD_PROMOTE_MODULE;
extern const RuleModule MOD_HIDDEN_MODULE;

/* mod_promote: the kind a piece of `kind` and `side` becomes on point p (-1: none). */
int promote_kind_at(const Variant *v, int kind, Side side, Point p);

/* Module registry. */
int module_count(void);
const RuleModule *module_at(int i);
const RuleModule *module_for_section(const char *section);

/* Dispatch (only called when v->modules != 0). */
void module_init_state(Position *pos);
int module_fen_read(Position *pos, const char *field, XqError *err);
void module_fen_write(const Position *pos, char *buf, size_t size);
void module_do_move(Position *pos, Move m, Undo *u);
void module_undo_move(Position *pos, Move m, const Undo *u);
int module_generate_pseudo(const Position *pos, MoveList *list);
int module_generate_legal(Position *pos, MoveList *list);
int module_count_legal(Position *pos);
bool module_is_legal(Position *pos, Move m);
bool module_royal_attacked(const Position *pos, Side side);
const MoveTable *module_table(const Position *pos, int kind, Side side, Point from);
/* Why a move text is not legal, by the module whose notation it is (RuleModule.explain). */
bool module_explain_illegal(Position *pos, const char *text, char *why, size_t size);
/* ICCS text of a flagged move (buf of at least 16 bytes); false if no module owns the flags. */
bool module_move_text(const Variant *v, Move m, char *buf, size_t size);
/* Plain-move legality by the board swap of pos_is_legal (no flags). */
bool pos_plain_move_is_legal(Position *pos, Move m);

/* Loader helpers: fills *err (returns -1); parses piece letters ("P", "K A B") into a kind mask
 * (returns -1 on an unknown letter); parses yes / no. */
int module_fail(XqError *err, const char *file, int line, const char *fmt, ...);
int module_kind_mask(const Variant *v, const char *letters, uint16_t *mask);
int module_parse_bool(const char *s, bool *out);

/* Sets a module state byte, keeping the key incremental. */
static inline void pos_module_set(Position *pos, int index, uint8_t value)
{
    const Variant *v = pos->v;
    pos->key ^= v->zobrist_module[index][pos->module[index]] ^ v->zobrist_module[index][value];
    pos->module[index] = value;
}

/* Generic helpers from position.c for modules' do / undo. */
/* Moves the piece on from to to (capturing what stands there); returns the captured piece and
 * its piece-list slot in *slot. Board, lists, royal points and the key's piece terms. */
Piece pos_move_piece(Position *pos, Point from, Point to, uint8_t *slot);
void pos_unmove_piece(Position *pos, Point from, Point to, Piece captured, uint8_t slot);
/* Replaces the piece on p (same side) by `pc`, keeping lists and key. */
void pos_replace_piece(Position *pos, Point p, Piece pc);
/* Ends a ply: side to move, counters, check state, history check flag; and its undo (also
 * restoring the module state saved by pos_begin_ply). */
void pos_unfinish_ply(Position *pos, const Undo *u);
void pos_finish_ply(Position *pos, Side mover, bool capture);
/* Saves the generic undo fields and opens a history entry for m. */
void pos_begin_ply(Position *pos, Move m, Undo *u);
/* Walks the pseudo-legal plain moves of the piece on from with table t. */
int pos_walk_piece(const Position *pos, Point from, const MoveTable *t, MoveList *list, int n);
/* Royal attack by the plain tables from attacker kinds in `kinds` only. */
bool pos_royal_attacked_by(const Position *pos, Side side, unsigned kinds);

/* Second sub-move of a double move. */
static inline Move module_double_second(const Variant *v, Move m)
{
    Point from = XQ_MOVE_EXTRA(m);
    int code = XQ_MOVE_FLAGS(m) & 0x7f;
    Point to = variant_point(v, v->point_file[from] + XQ_DOUBLE_DF(code),
                             v->point_rank[from] + XQ_DOUBLE_DR(code));
    return XQ_MOVE(from, to);
}

#endif
