/* fen.c - FEN reading and writing (RULES.md "Conventions"). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "module.h"
#include "position.h"

static int fen_fail(XqError *err, const char *fmt, ...)
{
    if (err) {
        snprintf(err->file, sizeof err->file, "FEN");
        err->line = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void add_piece(Position *pos, Point p, Piece pc)
{
    Side s = XQ_PIECE_SIDE(pc);
    pos->board[p] = pc;
    pos->index[p] = pos->count[s];
    pos->list[s][pos->count[s]++] = p;
    if (pos->v->kinds[XQ_PIECE_KIND(pc)].royal)
        pos->royal[s] = p;
}

int pos_set_fen(Position *pos, const Variant *v, const char *fen, XqError *err)
{
    memset(pos, 0, offsetof(Position, hist));
    pos->v = v;
    pos->royal[RED] = pos->royal[BLACK] = XQ_NO_POINT;
    pos->move_number = 1;
    if (v->modules)
        module_init_state(pos);
    const char *s = fen;
    while (*s == ' ')
        s++;
    int royals[2] = {0, 0};
    for (int rank = v->ranks - 1; rank >= 0; rank--) {
        int file = 0;
        while (*s && *s != '/' && *s != ' ') {
            if (isdigit((unsigned char)*s)) {
                long n = strtol(s, (char **)&s, 10);
                if (n < 1)
                    return fen_fail(err, "empty-run count must be at least 1 on rank %d", rank);
                /* Bounded here: a huge run would otherwise wrap the file counter. */
                if (n > v->files - file)
                    return fen_fail(err, "empty run of %ld goes past the last file on rank %d", n, rank);
                file += (int)n;
                continue;
            }
            int kind = variant_find_kind_by_letter(v, *s);
            if (kind < 0) {
                char l[2] = {*s, 0};
                return fen_fail(err, "unknown piece letter '%s' on rank %d", l, rank);
            }
            if (file >= v->files)
                return fen_fail(err, "too many points on rank %d", rank);
            Point p = variant_point(v, file, rank);
            if (p == XQ_NO_POINT)
                return fen_fail(err, "piece on a point that does not exist (rank %d)", rank);
            Side side = isupper((unsigned char)*s) ? RED : BLACK;
            if (pos->count[side] >= XQ_MAX_PIECES)
                return fen_fail(err, "too many pieces for one side (at most %d)", XQ_MAX_PIECES);
            const PieceKind *pk = &v->kinds[kind];
            if (!variant_in_zone(v, pk->stand_zone, side, p)) {
                char name[8], msg[64];
                variant_point_name(v, p, name);
                snprintf(msg, sizeof msg, "%c on %s", *s, name);
                return fen_fail(err, "%s is outside the zone where that piece may stand", msg);
            }
            if (pk->royal && ++royals[side] > 1)
                return fen_fail(err, "more than one royal piece for %s",
                                side == RED ? "red" : "black");
            add_piece(pos, p, XQ_PIECE(side, kind));
            file++;
            s++;
        }
        if (file != v->files)
            return fen_fail(err, "rank %d does not have exactly %d files", rank, v->files);
        if (rank > 0) {
            if (*s != '/')
                return fen_fail(err, "expected '/' after rank %d", rank);
            s++;
        }
    }
    if (*s && *s != ' ')
        return fen_fail(err, "unexpected '%s' after the last rank", s);
    while (*s == ' ')
        s++;
    if (*s == 'w' || *s == 'r' || *s == 'W' || *s == 'R')
        pos->side = RED;
    else if (*s == 'b' || *s == 'B')
        pos->side = BLACK;
    else if (*s)
        return fen_fail(err, "side to move must be w or b, not '%s'", s);
    if (*s && s[1] && s[1] != ' ')
        return fen_fail(err, "side to move must be w or b, not '%s'", s);
    if (*s)
        s++;
    /* Optional fields: two placeholders, the no-capture counter, the move number. */
    int fields = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s || *s == '[')
            break;
        const char *start = s;
        while (*s && *s != ' ')
            s++;
        fields++;
        if (fields <= 2)
            continue;
        char *end;
        long x = strtol(start, &end, 10);
        if (end != s || x < 0 || x > 100000) {
            char tok[32];
            snprintf(tok, sizeof tok, "%.*s", (int)(s - start), start);
            return fen_fail(err, "expected a number, not '%s' (field %d)", tok, fields + 2);
        }
        if (fields == 3)
            pos->no_capture = (int)x;
        else if (fields == 4)
            pos->move_number = x > 0 ? (int)x : 1;
        else
            return fen_fail(err, "too many fields");
    }
    /* Bracketed fields carry rule-module state (RULES.md Conventions), e.g. "[cube:K/N*]". */
    while (*s == '[') {
        const char *end = strchr(s, ']');
        if (!end)
            return fen_fail(err, "extra state field '%s' has no closing ']'", s);
        if (!v->modules)
            return fen_fail(err, "extra state field '%s' is not used by this rule set", s);
        char field[128];
        if ((size_t)(end - s - 1) >= sizeof field)
            return fen_fail(err, "extra state field '%.40s...' is too long", s);
        memcpy(field, s + 1, (size_t)(end - s - 1));
        field[end - s - 1] = '\0';
        if (module_fen_read(pos, field, err) < 0)
            return -1;
        s = end + 1;
        while (*s == ' ')
            s++;
    }
    if (*s)
        return fen_fail(err, "unexpected '%s' after the last field", s);
    /* Without a [hidden:] field the pools are empty: face-down pieces would have no identity. */
    if (hidden_on(v) && hidden_check_pools(pos, err) < 0)
        return -1;
    if (v->royal_mask) {
        /* With multi-move turns a second sub-move may take the other side's general (RULES.md
         * 10, mod_multimove.c): that final position, the other side to move, is readable. */
        bool taken_ok = (v->modules & MOD_MULTIMOVE) && pos->side != v->multi.side;
        for (int side = 0; side < 2; side++)
            if (royals[side] != 1 && !(taken_ok && side == (int)pos->side && royals[side] == 0))
                return fen_fail(err, "%s has no royal piece", side == RED ? "red" : "black");
    }
    pos->limit_count = pos->no_capture;
    pos->key = pos_compute_key(pos);
    if (pos_royal_attacked(pos, XQ_OTHER(pos->side)))
        return fen_fail(err, "the side not to move (%s) is in check", pos->side == RED ? "black" : "red");
    pos->in_check = pos_royal_attacked(pos, pos->side);
    /* Move lists have a fixed size; a variant file can build positions that exceed it. */
    int moves = pos_count_legal(pos);
    if (moves > XQ_MAX_MOVES)
        return fen_fail(err, "the side to move has %d legal moves, more than the %d a move list "
                        "holds", moves, XQ_MAX_MOVES);
    return 0;
}

void pos_get_fen(const Position *pos, char *buf, size_t size)
{
    const Variant *v = pos->v;
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, __VA_ARGS__)
    for (int rank = v->ranks - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < v->files; file++) {
            Point p = variant_point(v, file, rank);
            Piece pc = p == XQ_NO_POINT ? XQ_EMPTY : pos->board[p];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                PUT("%d", empty);
            empty = 0;
            char c = v->kinds[XQ_PIECE_KIND(pc)].letter;
            PUT("%c", XQ_PIECE_SIDE(pc) == RED ? c : (char)tolower((unsigned char)c));
        }
        if (empty)
            PUT("%d", empty);
        if (rank > 0)
            PUT("/");
    }
    PUT(" %c - - %d %d", pos->side == RED ? 'w' : 'b', pos->no_capture, pos->move_number);
#undef PUT
    if (v->modules && n < size)
        module_fen_write(pos, buf, size);
}
