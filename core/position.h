/* position.h - a game position: board, side to move, counters, incremental Zobrist key and the
 * history that repetition verdicts need; do / undo with a caller-owned undo record. */
#ifndef XQ_POSITION_H
#define XQ_POSITION_H

#include "variant.h"

/* One ply of history, enough to judge repetitions and replay the cycle. */
typedef struct HistoryEntry {
    uint64_t key;      /* key of the position before the move */
    Move move;         /* move played from that position */
    Piece captured;
    bool gave_check;   /* the move left the opponent in check */
} HistoryEntry;

typedef struct Position {
    const Variant *v;
    Piece board[256];      /* indexed by point; board[XQ_NO_POINT] stays empty */
    Side side;
    int ply;               /* plies played since the start position */
    int move_number;       /* FEN full-move number */
    int no_capture;        /* plies since the last capture (FEN half-move field) */
    int limit_count;       /* plies counted towards the natural move limit */
    int checks[2];         /* checks given per side since the last capture */
    bool reply_uncounted;  /* the previous ply was an uncounted check: its reply is not counted */
    bool in_check;         /* side to move is in check */
    uint64_t key;
    Point royal[2];        /* point of each side's royal piece (XQ_NO_POINT if none) */
    /* Piece lists: the points of each side's pieces; index[p] is p's slot in its list. */
    uint8_t count[2];
    Point list[2][XQ_MAX_PIECES];
    uint8_t index[XQ_MAX_POINTS];
    uint8_t module[XQ_MOD_STATE]; /* rule-module state (core/module.h), hashed into key */
    int hist_len;          /* entries in hist (positions before each move since the start) */
    HistoryEntry hist[XQ_MAX_HISTORY];
} Position;

/* Undo record, owned by the caller. */
typedef struct Undo {
    Piece captured;
    uint8_t captured_slot; /* its slot in the piece list */
    int no_capture, limit_count, checks[2];
    bool reply_uncounted, in_check;
    uint64_t key;
    /* Rule modules only: a second capture (double moves) and the module state before. */
    Piece captured2;
    uint8_t captured2_slot;
    Piece replaced;        /* a piece a module move changed in place (exchange) */
    Piece promoted;        /* the mover before a promotion by a displacement move (else empty) */
    uint8_t module[XQ_MOD_STATE];
} Undo;

/* Sets up the variant's start position. */
void pos_init_start(Position *pos, const Variant *v);

/* Sets up from a FEN; returns 0 or -1 with *err (file "FEN", line 0) explaining what is wrong. */
int pos_set_fen(Position *pos, const Variant *v, const char *fen, XqError *err);

/* Reads a FEN of the convention before dataset format 4, where in the rule sets whose first reveal
 * assigns the colours (core/seat.h) the letters' case and the side to move named seats (upper
 * case and w: the first mover) instead of colours; the same as pos_set_fen elsewhere. For
 * reading old datasets (export/reader.c). */
int pos_set_fen_seat_letters(Position *pos, const Variant *v, const char *fen, XqError *err);

/* Writes the FEN of the position (buf of at least 256 bytes). */
void pos_get_fen(const Position *pos, char *buf, size_t size);

/* Plays a legal move (caller's responsibility). The history must have room (XQ_MAX_HISTORY). */
void pos_do_move(Position *pos, Move m, Undo *u);
void pos_undo_move(Position *pos, Move m, const Undo *u);

/* Pseudo-legal and legal move generation. Returns the number of moves. */
int pos_generate_pseudo(const Position *pos, MoveList *list);
int pos_generate_legal(Position *pos, MoveList *list);
/* Counts legal moves without storing them (perft leaves). */
int pos_count_legal(Position *pos);
/* True if the pseudo-legal move m leaves the mover's royal piece safe. */
bool pos_is_legal(Position *pos, Move m);
/* True if the move is legal in this position (generates and compares). */
bool pos_move_is_legal(Position *pos, Move m);

/* True if side's royal piece stands attacked. */
bool pos_royal_attacked(const Position *pos, Side side);

/* True if the plain move mv (no rule-module flags) of the side to move would leave the
 * opponent's royal piece attacked: the board is changed in place, tested and restored. */
bool pos_gives_check(Position *pos, Move mv);
/* Number of pieces of `by` attacking point p (generic, not for the hot path); fills up to
 * `max` attacker points if `from` is not NULL. */
int pos_attackers(Position *pos, Point p, Side by, Point *from, int max);
/* True if the piece on `from` (pseudo-)attacks point `to` on the current board: it could capture
 * there if an enemy piece of the kind now on `to` stood there. Restores the board. */
bool pos_piece_attacks(Position *pos, Point from, Point to);

/* Off-board holdings: pieces a rule module keeps off the board (the river camp, the mixed
 * reserve) that the board alone does not show. Holding i of a variant is the pieces of `kind`
 * kept by the module of section `name`, worth `worth` times the kind's value to their owner
 * (1: the piece is still in play; less: it comes back only under conditions). */
enum { XQ_MAX_HOLDINGS = 8 };
typedef struct Holding {
    const char *name;  /* module section ("camp", "reserve") */
    int kind;
    double worth;
    int module;        /* index of the owning module (core/module.c) */
} Holding;
/* The variant's holdings (out: XQ_MAX_HOLDINGS entries); returns how many (0 for most). */
int variant_holdings(const Variant *v, Holding *out);
/* Pieces of `side` in holding h (from variant_holdings) in this position. */
int pos_held(const Position *pos, Side side, const Holding *h);

/* The move table the piece on `from` moves by in this position: the compiled plain one unless
 * a rule module changes it (the cube's powered tables). */
const MoveTable *pos_piece_table(const Position *pos, Point from);
/* True if some rule module of the variant changes move tables by position (pos_piece_table
 * then differs from the plain table). */
bool variant_tables_vary(const Variant *v);

/* Zobrist key recomputed from scratch (for invariants). */
uint64_t pos_compute_key(const Position *pos);

/* Consistency check of the internal lists and key: 0 if fine, else a description in msg. */
int pos_validate(const Position *pos, char *msg, size_t size);

#endif
