/* position.c - position state: piece lists, incremental key, counters, do / undo. */
#include "position.h"

#include <assert.h>

#include "module.h"
#include <stdio.h>
#include <string.h>

uint64_t pos_compute_key(const Position *pos)
{
    const Variant *v = pos->v;
    uint64_t key = 0;
    for (int p = 0; p < v->npoints; p++)
        if (pos->board[p])
            key ^= v->zobrist_piece[pos->board[p]][p];
    if (pos->side == BLACK)
        key ^= v->zobrist_side;
    for (int i = 0; i < XQ_MOD_STATE; i++)
        key ^= v->zobrist_module[i][pos->module[i]];
    return key;
}

void pos_init_start(Position *pos, const Variant *v)
{
    XqError err;
    int rc = pos_set_fen(pos, v, v->start_fen, &err);
    assert(rc == 0); /* the loader checked the start FEN */
    (void)rc;
}

static void update_limit_counters(Position *pos, Side mover, bool capture)
{
    const RuleOptions *r = &pos->v->rules;
    if (capture) {
        pos->no_capture = 0;
        pos->limit_count = 0;
        pos->checks[0] = pos->checks[1] = 0;
        pos->reply_uncounted = false;
        return;
    }
    pos->no_capture++;
    /* Seed 002 (23.3): after a side's check_cap-th check since the last capture, its further
     * checks and the replies to them do not count towards the natural move limit. */
    bool uncounted = pos->reply_uncounted;
    pos->reply_uncounted = false;
    if (pos->in_check) {
        pos->checks[mover]++;
        if (r->check_cap > 0 && pos->checks[mover] > r->check_cap) {
            uncounted = true;
            pos->reply_uncounted = true;
        }
    }
    if (!uncounted)
        pos->limit_count++;
}

/* Saves the generic undo fields and opens the history entry of m. */
static inline HistoryEntry *begin_ply(Position *pos, Move m, Undo *u)
{
    assert(pos->hist_len < XQ_MAX_HISTORY);
    u->no_capture = pos->no_capture;
    u->limit_count = pos->limit_count;
    u->checks[0] = pos->checks[0];
    u->checks[1] = pos->checks[1];
    u->reply_uncounted = pos->reply_uncounted;
    u->in_check = pos->in_check;
    u->key = pos->key;
    HistoryEntry *h = &pos->hist[pos->hist_len++];
    h->key = pos->key;
    h->move = m;
    return h;
}

/* Moves a piece, capturing what stands on `to`: board, piece lists, royal points, key terms. */
static inline Piece move_piece(Position *pos, Point from, Point to, uint8_t *slot)
{
    const Variant *v = pos->v;
    Piece pc = pos->board[from], cap = pos->board[to];
    Side us = XQ_PIECE_SIDE(pc), them = XQ_OTHER(us);
    uint64_t key = pos->key ^ v->zobrist_piece[pc][from] ^ v->zobrist_piece[pc][to];
    if (cap) {
        assert(XQ_PIECE_SIDE(cap) == them);
        key ^= v->zobrist_piece[cap][to];
        uint8_t sl = pos->index[to];
        *slot = sl;
        Point last = pos->list[them][--pos->count[them]];
        pos->list[them][sl] = last;
        pos->index[last] = sl;
        if (pos->royal[them] == to)
            pos->royal[them] = XQ_NO_POINT;
    }
    pos->board[to] = pc;
    pos->board[from] = XQ_EMPTY;
    pos->list[us][pos->index[from]] = to;
    pos->index[to] = pos->index[from];
    pos->index[from] = 0; /* empty points keep index 0, so undo restores the struct exactly */
    if (pos->royal[us] == from)
        pos->royal[us] = to;
    pos->key = key;
    return cap;
}

static inline void unmove_piece(Position *pos, Point from, Point to, Piece captured, uint8_t slot)
{
    Piece pc = pos->board[to];
    Side us = XQ_PIECE_SIDE(pc), them = XQ_OTHER(us);
    pos->board[from] = pc;
    pos->list[us][pos->index[to]] = from;
    pos->index[from] = pos->index[to];
    if (pos->royal[us] == to)
        pos->royal[us] = from;
    pos->board[to] = captured;
    pos->index[to] = 0;
    if (captured) {
        /* The entry past the end is stale (a module may have reused it since the capture): only
         * a piece that took the captured one's slot moves back to the end. */
        if (slot != pos->count[them]) {
            Point moved = pos->list[them][slot];
            pos->list[them][pos->count[them]] = moved;
            pos->index[moved] = pos->count[them];
        }
        pos->count[them]++;
        pos->list[them][slot] = to;
        pos->index[to] = slot;
        if (pos->v->kinds[XQ_PIECE_KIND(captured)].royal)
            pos->royal[them] = to;
    }
}

/* Hands the move to the other side and updates the counters; `check` says whether its royal
 * piece may stand attacked now (else it does not). */
static inline void finish_ply_check(Position *pos, Side us, bool capture, bool check)
{
    Side them = XQ_OTHER(us);
    pos->key ^= pos->v->zobrist_side;
    pos->side = them;
    pos->ply++;
    if (them == RED)
        pos->move_number++;
    pos->in_check = check && pos->royal[them] != XQ_NO_POINT && pos_royal_attacked(pos, them);
    pos->hist[pos->hist_len - 1].gave_check = pos->in_check;
    update_limit_counters(pos, us, capture);
}

static inline void finish_ply(Position *pos, Side us, bool capture)
{
    finish_ply_check(pos, us, capture, true);
}

/* Whether the plain move from -> to, played, may have attacked the royal piece of `them`, which
 * the side that moved left safe (variant_move_may_check). */
static inline bool may_check(const Position *pos, Side them, Point from, Point to)
{
    Point k = pos->royal[them];
    return k != XQ_NO_POINT && variant_move_may_check(pos->v, XQ_OTHER(them),
                                                      XQ_PIECE_KIND(pos->board[to]), from, to, k);
}

static inline void restore_counters(Position *pos, const Undo *u)
{
    pos->hist_len--;
    pos->no_capture = u->no_capture;
    pos->limit_count = u->limit_count;
    pos->checks[0] = u->checks[0];
    pos->checks[1] = u->checks[1];
    pos->reply_uncounted = u->reply_uncounted;
    pos->in_check = u->in_check;
    pos->key = u->key;
}

void pos_do_move(Position *pos, Move m, Undo *u)
{
    if (pos->v->modules) {
        module_do_move(pos, m, u);
        return;
    }
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    Side us = pos->side;
    assert(pos->board[from] && XQ_PIECE_SIDE(pos->board[from]) == us);
    HistoryEntry *h = begin_ply(pos, m, u);
    Piece cap = move_piece(pos, from, to, &u->captured_slot);
    u->captured = cap;
    h->captured = cap;
    finish_ply_check(pos, us, cap != XQ_EMPTY, may_check(pos, XQ_OTHER(us), from, to));
}

void pos_undo_move(Position *pos, Move m, const Undo *u)
{
    if (pos->v->modules) {
        module_undo_move(pos, m, u);
        return;
    }
    Side them = pos->side, us = XQ_OTHER(them);
    unmove_piece(pos, XQ_MOVE_FROM(m), XQ_MOVE_TO(m), u->captured, u->captured_slot);
    pos->side = us;
    pos->ply--;
    if (them == RED)
        pos->move_number--;
    restore_counters(pos, u);
}

/* ---- helpers for rule modules (core/module.h) --------------------------------------------- */

void pos_begin_ply(Position *pos, Move m, Undo *u)
{
    HistoryEntry *h = begin_ply(pos, m, u);
    h->captured = XQ_EMPTY;
    u->captured = u->captured2 = XQ_EMPTY;
    u->captured_slot = u->captured2_slot = 0;
    u->replaced = u->promoted = XQ_EMPTY;
    memcpy(u->module, pos->module, sizeof u->module);
}

Piece pos_move_piece(Position *pos, Point from, Point to, uint8_t *slot)
{
    return move_piece(pos, from, to, slot);
}

void pos_unmove_piece(Position *pos, Point from, Point to, Piece captured, uint8_t slot)
{
    unmove_piece(pos, from, to, captured, slot);
}

void pos_replace_piece(Position *pos, Point p, Piece pc)
{
    const Variant *v = pos->v;
    Piece old = pos->board[p];
    assert(old && XQ_PIECE_SIDE(old) == XQ_PIECE_SIDE(pc));
    pos->key ^= v->zobrist_piece[old][p] ^ v->zobrist_piece[pc][p];
    pos->board[p] = pc;
}

void pos_finish_ply(Position *pos, Side mover, bool capture)
{
    finish_ply(pos, mover, capture);
}

/* Undoes the generic part of a module move: side, ply, counters, key, module state. */
void pos_unfinish_ply(Position *pos, const Undo *u)
{
    Side them = pos->side;
    pos->side = XQ_OTHER(them);
    pos->ply--;
    if (them == RED)
        pos->move_number--;
    restore_counters(pos, u);
    memcpy(pos->module, u->module, sizeof pos->module);
}

int pos_validate(const Position *pos, char *msg, size_t size)
{
    const Variant *v = pos->v;
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < pos->count[s]; i++) {
            Point p = pos->list[s][i];
            if (p >= v->npoints || !pos->board[p] || (int)XQ_PIECE_SIDE(pos->board[p]) != s ||
                pos->index[p] != i) {
                snprintf(msg, size, "piece list of side %d slot %d is inconsistent", s, i);
                return -1;
            }
        }
    }
    int n[2] = {0, 0};
    for (int p = 0; p < v->npoints; p++)
        if (pos->board[p]) {
            n[XQ_PIECE_SIDE(pos->board[p])]++;
            if (v->kinds[XQ_PIECE_KIND(pos->board[p])].royal &&
                pos->royal[XQ_PIECE_SIDE(pos->board[p])] != p) {
                snprintf(msg, size, "royal point of side %d is stale", XQ_PIECE_SIDE(pos->board[p]));
                return -1;
            }
        }
    if (n[0] != pos->count[0] || n[1] != pos->count[1]) {
        snprintf(msg, size, "piece counts %d/%d differ from lists %d/%d", n[0], n[1],
                 pos->count[0], pos->count[1]);
        return -1;
    }
    if (pos->board[XQ_NO_POINT] != XQ_EMPTY) {
        snprintf(msg, size, "sentinel point is occupied");
        return -1;
    }
    if (pos_compute_key(pos) != pos->key) {
        snprintf(msg, size, "incremental key differs from recomputed key");
        return -1;
    }
    return 0;
}
