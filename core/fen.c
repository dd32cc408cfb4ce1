/* fen.c - FEN reading and writing (docs/variants.md "FEN"). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "module.h"
#include "position.h"
#include "seat.h"

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

/* The colour of a piece on the board. Sides are seats (types.h); where the first reveal assigns
 * the colours (core/seat.h) a face-up piece of seat 0 plays black once seat 0 drew black. Before
 * any assignment the side bit is the colour (hidden.h). */
static Side piece_colour(const Position *pos, Piece pc)
{
    if (!variant_assigns_colours(pos->v) || hidden_is_down(pos->v, pc))
        return XQ_PIECE_SIDE(pc);
    return (Side)(XQ_PIECE_SIDE(pc) ^ (pos->module[MS_HIDDEN_COLOUR] == 2));
}

static const char *fen_colour(Side s)
{
    return s == RED ? "red" : "black";
}

/* A piece letter as read, before seats are known (the bracketed fields come last). */
typedef struct Placed {
    Point p;
    int kind;
    Side colour;     /* the letter's case: upper red, lower black */
    char letter;
} Placed;

/* Face-down pieces (hidden.h): where they may stand and what their letter's case means. */
static int check_face_down(const Position *pos, const Placed *pl, Side *seat, XqError *err)
{
    const Variant *v = pos->v;
    const HiddenOptions *o = &v->hidden;
    char name[8];
    variant_point_name(v, pl->p, name);
    Side half = v->point_rank[pl->p] < v->ranks / 2 ? RED : BLACK;
    if (o->mode == HIDDEN_BANQI) {
        if (pl->colour != RED)
            return fen_fail(err, "'%c' on %s: face-down pieces are written X (nobody owns them "
                            "before they are flipped)", pl->letter, name);
        *seat = RED; /* all in seat 0's list; any seat may flip them (hidden.h) */
        return 0;
    }
    int native = o->native[pl->p];
    if (native < 0 || (o->mode == HIDDEN_JIEQI && (v->kinds[native].royal || pl->colour != half)))
        return fen_fail(err, "'%c' on %s: a face-down piece stands on one of its own side's start "
                        "points (not the general's)", pl->letter, name);
    if (o->mode == HIDDEN_FOLK && pl->colour != half)
        return fen_fail(err, "'%c' on %s: a face-down piece's letter names the half it stands on "
                        "(X on the first mover's half, x on the second mover's)", pl->letter, name);
    *seat = pl->colour;
    return 0;
}

/* Pieces of a colour and kind in the position: face up on the board, unrevealed in the pools,
 * held off the board (camp, reserve). None may exceed what the rule set's start holds. */
static int check_piece_counts(const Position *pos, XqError *err)
{
    const Variant *v = pos->v;
    if (!v->piece_set_known)
        return 0; /* the start position itself, which defines the set */
    bool hidden = hidden_on(v);
    Holding held[XQ_MAX_HOLDINGS];
    int nheld = variant_holdings(v, held);
    if (!hidden && !nheld)
        return 0; /* promotions may make more of a kind than the start had (tuoqi queens) */
    int n[2][XQ_MAX_KINDS] = {{0}};
    bool checked[XQ_MAX_KINDS] = {false};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < pos->count[s]; i++) {
            Piece pc = pos->board[pos->list[s][i]];
            if (!hidden_is_down(v, pc))
                n[piece_colour(pos, pc)][XQ_PIECE_KIND(pc)]++;
        }
    for (int k = 0; k < v->nkinds; k++)
        checked[k] = hidden && k != v->hidden.hidden_kind;
    for (int c = 0; c < 2 && hidden; c++)
        for (int k = 0; k < HIDDEN_POOL_KINDS && k < v->nkinds; k++)
            n[c][k] += hidden_pool(pos, (Side)c, k);
    for (int h = 0; h < nheld; h++) {
        checked[held[h].kind] = true;
        for (int c = 0; c < 2; c++)
            n[c][held[h].kind] += pos_held(pos, (Side)c, &held[h]);
    }
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < v->nkinds; k++)
            if (checked[k] && n[c][k] > v->piece_set[c][k])
                return fen_fail(err, "%d %s %s%s (%s), but the rule set has %d", n[c][k],
                                fen_colour((Side)c), v->kinds[k].name, n[c][k] == 1 ? "" : "s",
                                hidden ? "face up and in the unrevealed pool"
                                       : "on the board and held off it", v->piece_set[c][k]);
    return 0;
}

/* "[limit:L/R/B]" or "[limit:L/R/B*]": plies counted towards the natural move limit, checks given
 * by Red and by Black since the last capture, '*': the next ply answers an uncounted check
 * (written only where they differ from a FEN without the field: L = the no-capture counter,
 * no checks). */
static int limit_field_read(Position *pos, const char *body, XqError *err)
{
    const char *c = body;
    long x[3];
    for (int i = 0; i < 3; i++) {
        char *end;
        x[i] = strtol(c, &end, 10);
        if (end == c || !isdigit((unsigned char)*c) || x[i] > 100000 ||
            (i < 2 ? *end != '/' : (*end && strcmp(end, "*"))))
            return fen_fail(err, "[limit:%s]: expected LIMIT/REDCHECKS/BLACKCHECKS, e.g. "
                            "[limit:40/11/3], optionally followed by '*'", body);
        c = end + (i < 2);
        if (i == 2)
            pos->reply_uncounted = *end == '*';
    }
    if (x[0] > pos->no_capture)
        return fen_fail(err, "[limit:%s]: the limit count %ld exceeds the no-capture counter %d",
                        body, x[0], pos->no_capture);
    if (x[1] + x[2] > pos->no_capture)
        return fen_fail(err, "[limit:%s]: %ld checks in %d plies since the last capture", body,
                        x[1] + x[2], pos->no_capture);
    pos->limit_count = (int)x[0];
    pos->checks[RED] = (int)x[1];
    pos->checks[BLACK] = (int)x[2];
    return 0;
}

/* `seat_letters`: the FEN was written with letters and side naming seats (pos_set_fen_seat_letters). */
static int read_fen(Position *pos, const Variant *v, const char *fen, bool seat_letters, XqError *err)
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
    Placed placed[XQ_MAX_POINTS];
    int nplaced = 0;
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
            placed[nplaced++] = (Placed){p, kind, isupper((unsigned char)*s) ? RED : BLACK, *s};
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
    Side to_move = RED; /* the colour to move, as written */
    if (*s == 'w' || *s == 'r' || *s == 'W' || *s == 'R')
        to_move = RED;
    else if (*s == 'b' || *s == 'B')
        to_move = BLACK;
    else if (*s)
        return fen_fail(err, "side to move must be w or b, not '%s'", s);
    if (*s && s[1] && s[1] != ' ')
        return fen_fail(err, "side to move must be w or b, not '%s'", s);
    if (*s)
        s++;
    pos->side = to_move;
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
    pos->limit_count = pos->no_capture;
    /* Bracketed fields: the natural-limit counts ("[limit:...]") and rule-module state, e.g.
     * "[cube:K/N*]"; each at most once. */
    char tags[16][16];
    int ntags = 0;
    while (*s == '[') {
        const char *end = strchr(s, ']');
        if (!end)
            return fen_fail(err, "extra state field '%s' has no closing ']'", s);
        char field[128];
        if ((size_t)(end - s - 1) >= sizeof field)
            return fen_fail(err, "extra state field '%.40s...' is too long", s);
        memcpy(field, s + 1, (size_t)(end - s - 1));
        field[end - s - 1] = '\0';
        const char *colon = strchr(field, ':');
        size_t tlen = colon ? (size_t)(colon - field) : strlen(field);
        for (int i = 0; i < ntags; i++)
            if (strlen(tags[i]) == tlen && !strncmp(tags[i], field, tlen))
                return fen_fail(err, "extra state field '[%.*s:...]' is given twice", (int)tlen, field);
        if (ntags < 16 && tlen < sizeof tags[0])
            snprintf(tags[ntags++], sizeof tags[0], "%.*s", (int)tlen, field);
        if (colon && tlen == 5 && !strncmp(field, "limit", 5)) {
            if (limit_field_read(pos, colon + 1, err) < 0)
                return -1;
        } else if (!v->modules) {
            return fen_fail(err, "extra state field '[%s]' is not used by this rule set", field);
        } else if (module_fen_read(pos, field, err) < 0) {
            return -1;
        }
        s = end + 1;
        while (*s == ' ')
            s++;
    }
    if (*s)
        return fen_fail(err, "unexpected '%s' after the last field", s);
    /* Letters and the side to move name colours (upper case red). Where the first reveal
     * assigns the colours the engine's sides are seats: turn colours into seats. */
    bool seat_swap = false;
    if (variant_assigns_colours(v) && !seat_letters) {
        uint8_t c0 = pos->module[MS_HIDDEN_COLOUR];
        if (!c0 && to_move != RED)
            return fen_fail(err, "black to move, but no colours are assigned yet (the first "
                            "mover moves first, written w, and its first reveal assigns them)");
        seat_swap = c0 == 2;
        pos->side = (Side)(to_move ^ seat_swap);
    }
    int royals[2] = {0, 0};
    for (int i = 0; i < nplaced; i++) {
        const Placed *pl = &placed[i];
        Side side = (Side)(pl->colour ^ seat_swap);
        if (hidden_on(v) && pl->kind == v->hidden.hidden_kind &&
            check_face_down(pos, pl, &side, err) < 0)
            return -1;
        if (pos->count[side] >= XQ_MAX_PIECES)
            return fen_fail(err, "too many pieces for one side (at most %d)", XQ_MAX_PIECES);
        const PieceKind *pk = &v->kinds[pl->kind];
        if (!variant_in_zone(v, pk->stand_zone, side, pl->p)) {
            char name[8], msg[64];
            variant_point_name(v, pl->p, name);
            snprintf(msg, sizeof msg, "%c on %s", pl->letter, name);
            return fen_fail(err, "%s is outside the zone where that piece may stand", msg);
        }
        if (pk->royal && ++royals[side] > 1)
            return fen_fail(err, "more than one royal piece for %s", fen_colour(pl->colour));
        add_piece(pos, pl->p, XQ_PIECE(side, pl->kind));
    }
    /* Without a [hidden:] field the pools are empty: face-down pieces would have no identity. */
    if (hidden_on(v) && hidden_check_pools(pos, err) < 0)
        return -1;
    if (check_piece_counts(pos, err) < 0)
        return -1;
    if (v->royal_mask) {
        /* With multi-move turns a second sub-move may take the other side's general
         * (mod_multimove.c): that final position, the other side to move, is readable. */
        bool taken_ok = (v->modules & MOD_MULTIMOVE) && pos->side != v->multi.side;
        for (int side = 0; side < 2; side++)
            if (royals[side] != 1 && !(taken_ok && side == (int)pos->side && royals[side] == 0))
                return fen_fail(err, "%s has no royal piece", fen_colour((Side)side));
    }
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

int pos_set_fen(Position *pos, const Variant *v, const char *fen, XqError *err)
{
    return read_fen(pos, v, fen, false, err);
}

int pos_set_fen_seat_letters(Position *pos, const Variant *v, const char *fen, XqError *err)
{
    return read_fen(pos, v, fen, true, err);
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
            PUT("%c", piece_colour(pos, pc) == RED ? c : (char)tolower((unsigned char)c));
        }
        if (empty)
            PUT("%d", empty);
        if (rank > 0)
            PUT("/");
    }
    Side to_move = pos->side;
    if (variant_assigns_colours(v) && pos->module[MS_HIDDEN_COLOUR] == 2)
        to_move = XQ_OTHER(to_move);
    PUT(" %c - - %d %d", to_move == RED ? 'w' : 'b', pos->no_capture, pos->move_number);
    if (v->rules.check_cap > 0 && (pos->limit_count != pos->no_capture || pos->checks[RED] ||
                                   pos->checks[BLACK] || pos->reply_uncounted))
        PUT(" [limit:%d/%d/%d%s]", pos->limit_count, pos->checks[RED], pos->checks[BLACK],
            pos->reply_uncounted ? "*" : "");
#undef PUT
    if (v->modules && n < size)
        module_fen_write(pos, buf, size);
}
