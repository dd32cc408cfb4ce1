/* pgn.c - Xiangqi PGN writer and reader (WXF moves for standard xiangqi, ICCS otherwise). */
#include "pgn.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hidden.h"
#include "ini.h"
#include "notation.h"
#include "seat.h"
#include "status.h"

static int fail(XqError *err, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = line;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *result_token(int result)
{
    switch (result) {
    case 1: return "1-0";
    case -1: return "0-1";
    case 0: return "1/2-1/2";
    default: return "*";
    }
}

/* Writes a tag with the value's quotes and backslashes escaped. */
static void write_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', out);
        fputc(*p == '\n' ? ' ' : *p, out);
    }
    fputs("\"]\n", out);
}

static const char *or_unknown(const char *s)
{
    return s && *s ? s : "?";
}

/* XBoard 4.9 reads a xiangqi FEN only with H for horses and E for elephants; the project's FEN
 * (like UCCI's) writes N and B. Only the board field changes. */
static void fen_to_xboard(const char *fen, char *buf, size_t size)
{
    snprintf(buf, size, "%s", fen);
    for (char *p = buf; *p && *p != ' '; p++)
        *p = *p == 'N' ? 'H' : *p == 'n' ? 'h' : *p == 'B' ? 'E' : *p == 'b' ? 'e' : *p;
}

int pgn_write_game(FILE *out, const Variant *v, const GameRecord *g, const PgnTags *tags, XqError *err)
{
    bool wxf = tags->notation == PGN_NOTATION_WXF ||
               (tags->notation == PGN_NOTATION_DEFAULT && notation_wxf_default(v));
    if (wxf && !notation_wxf_default(v))
        return fail(err, "PGN", 0, "WXF notation is defined for standard xiangqi only, not %s: use ICCS", v->name);
    const char *fen = g->start_fen[0] ? g->start_fen : v->start_fen;
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return fail(err, "PGN", 0, "out of memory");
    XqError fen_err;
    if (pos_set_fen(pos, v, fen, &fen_err) < 0) {
        free(pos);
        return fail(err, "PGN", 0, "game index %" PRIu64 ": bad start FEN: %s", g->index, fen_err.message);
    }
    /* Colours by the first reveal (core/seat.h): the players' tags and the result token follow
     * the colours they played; before any reveal the first mover counts as Red. */
    bool assigns = variant_assigns_colours(v);
    int seat0 = assigns ? g->seat_colour : RED;
    bool swapped = seat0 == BLACK;
    char buf[32];
    write_tag(out, "Game", "Chinese Chess");
    write_tag(out, "Event", or_unknown(tags->event));
    write_tag(out, "Site", or_unknown(tags->site));
    write_tag(out, "Date", or_unknown(tags->date));
    write_tag(out, "Round", or_unknown(tags->round));
    write_tag(out, "Red", or_unknown(swapped ? tags->black : tags->red));
    write_tag(out, "Black", or_unknown(swapped ? tags->red : tags->black));
    write_tag(out, "Result", result_token(result_by_colour((Result)g->result, swapped ? BLACK : RED)));
    write_tag(out, "Variant", v->name);
    if (assigns)
        write_tag(out, "FirstMover", seat0 == RED || seat0 == BLACK ? colour_name(seat0) : "?");
    if (strcmp(fen, v->start_fen)) {
        char xfen[256];
        write_tag(out, "SetUp", "1");
        if (tags->xboard_fen && notation_wxf_default(v)) {
            fen_to_xboard(fen, xfen, sizeof xfen);
            write_tag(out, "FEN", xfen);
        } else {
            write_tag(out, "FEN", fen);
        }
    }
    write_tag(out, "Format", wxf ? "WXF" : "ICCS");
    if (tags->termination && *tags->termination)
        write_tag(out, "Termination", tags->termination);
    else if (g->termination < TERM_COUNT && g->termination != TERM_NONE)
        write_tag(out, "Termination", termination_name((Termination)g->termination));
    snprintf(buf, sizeof buf, "%d", g->nmoves);
    write_tag(out, "PlyCount", buf);
    fputc('\n', out);

    int column = 0, rc = 0;
    Undo undo;
    MoveList list;
    HiddenDeal deal;
    if (g->has_deal)
        memcpy(deal.id, g->deal, sizeof deal.id);
    for (int ply = 0; ply < g->nmoves && rc == 0; ply++) {
        Move m = g->moves[ply];
        if (ply >= XQ_MAX_HISTORY - 1) {
            rc = fail(err, "PGN", 0, "game index %" PRIu64 ": too many moves to replay", g->index);
            break;
        }
        int n = pos_generate_legal(pos, &list);
        bool legal = false;
        for (int i = 0; i < n && !legal; i++)
            legal = hidden_same_move(pos, list.moves[i], m, g->has_deal ? &deal : NULL);
        char text[32], token[48];
        move_to_iccs(v, m, text);
        if (!legal) {
            rc = fail(err, "PGN", 0, "game index %" PRIu64 ", ply %d: recorded move %s is not legal in the replayed position",
                      g->index, ply, text);
            break;
        }
        if (wxf && move_to_wxf(pos, m, buf) == 0)
            snprintf(text, sizeof text, "%s", buf);
        if (pos->side == RED)
            snprintf(token, sizeof token, "%d. %s", pos->move_number, text);
        else if (ply == 0)
            snprintf(token, sizeof token, "%d... %s", pos->move_number, text);
        else
            snprintf(token, sizeof token, "%s", text);
        int len = (int)strlen(token);
        if (column && column + 1 + len > 79) {
            fputc('\n', out);
            column = 0;
        }
        column += fprintf(out, "%s%s", column ? " " : "", token);
        pos_do_move(pos, m, &undo);
    }
    free(pos);
    if (rc == 0) {
        const char *res = result_token(result_by_colour((Result)g->result, swapped ? BLACK : RED));
        if (column && column + 1 + (int)strlen(res) > 79)
            fputs("\n", out);
        else if (column)
            fputc(' ', out);
        fprintf(out, "%s\n\n", res);
        if (ferror(out))
            rc = fail(err, "PGN", 0, "write error");
    }
    return rc;
}

/* ---- reading ---- */

struct PgnReader {
    char path[512];
    char *text;
    const char *p;
    int line;
    Position *pos;
};

PgnReader *pgn_reader_open(const char *path, XqError *err)
{
    PgnReader *r = calloc(1, sizeof *r);
    if (!r) {
        fail(err, path, 0, "out of memory");
        return NULL;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    r->text = ini_read_file(path, err);
    r->pos = malloc(sizeof *r->pos);
    if (!r->text || !r->pos) {
        if (r->text)
            fail(err, path, 0, "out of memory");
        pgn_reader_close(r);
        return NULL;
    }
    r->p = r->text;
    r->line = 1;
    return r;
}

void pgn_reader_close(PgnReader *r)
{
    if (!r)
        return;
    free(r->text);
    free(r->pos);
    free(r);
}

void pgn_game_free(PgnGame *g)
{
    free(g->moves);
    g->moves = NULL;
    g->nmoves = 0;
}

const char *pgn_tag(const PgnGame *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (!strcmp(g->tag_name[i], name))
            return g->tag_value[i];
    return NULL;
}

/* Skips blanks, newlines, {comments} and ;comments, counting lines. */
static void skip_space(PgnReader *r)
{
    for (;;) {
        char c = *r->p;
        if (c == '\n') {
            r->line++;
            r->p++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            r->p++;
        } else if (c == '{') {
            while (*r->p && *r->p != '}') {
                if (*r->p == '\n')
                    r->line++;
                r->p++;
            }
            if (*r->p)
                r->p++;
        } else if (c == ';') {
            while (*r->p && *r->p != '\n')
                r->p++;
        } else {
            return;
        }
    }
}

static int read_tag(PgnReader *r, PgnGame *g, XqError *err)
{
    int line = r->line;
    r->p++; /* '[' */
    char name[32];
    size_t n = 0;
    while (*r->p && (isalnum((unsigned char)*r->p) || *r->p == '_')) {
        if (n + 1 < sizeof name)
            name[n++] = *r->p;
        r->p++;
    }
    name[n] = '\0';
    while (*r->p == ' ' || *r->p == '\t')
        r->p++;
    if (!n || *r->p != '"')
        return fail(err, r->path, line, "bad tag: expected [Name \"value\"]");
    r->p++;
    char value[256];
    n = 0;
    while (*r->p && *r->p != '"' && *r->p != '\n') {
        if (*r->p == '\\' && r->p[1])
            r->p++;
        if (n + 1 < sizeof value)
            value[n++] = *r->p;
        r->p++;
    }
    value[n] = '\0';
    if (*r->p != '"')
        return fail(err, r->path, line, "tag %s: value not closed by '\"'", name);
    r->p++;
    while (*r->p == ' ' || *r->p == '\t')
        r->p++;
    if (*r->p != ']')
        return fail(err, r->path, line, "tag %s: expected ']'", name);
    r->p++;
    if (g->ntags == PGN_MAX_TAGS)
        return fail(err, r->path, line, "more than %d tags in one game", PGN_MAX_TAGS);
    snprintf(g->tag_name[g->ntags], sizeof g->tag_name[0], "%s", name);
    snprintf(g->tag_value[g->ntags], sizeof g->tag_value[0], "%s", value);
    g->ntags++;
    return 0;
}

static int add_move(PgnGame *g, int *cap, Move m)
{
    if (g->nmoves == *cap) {
        int c = *cap ? 2 * *cap : 128;
        Move *mv = realloc(g->moves, (size_t)c * sizeof *mv);
        if (!mv)
            return -1;
        g->moves = mv;
        *cap = c;
    }
    g->moves[g->nmoves++] = m;
    return 0;
}

/* The end of the game that starts at p: the first line opening with '[' after its movetext
 * (outside {comments}), or the end of the text. */
static char *game_end(char *p)
{
    bool in_moves = false, in_comment = false;
    char *s = p;
    while (*s) {
        const char *t = s;
        while (*t == ' ' || *t == '\t' || *t == '\r')
            t++;
        if (!in_comment && *t == '[' && in_moves)
            return s;
        if (!in_comment && *t && *t != '\n' && *t != '[')
            in_moves = true;
        for (; *s && *s != '\n'; s++) {
            if (*s == '{')
                in_comment = true;
            else if (*s == '}')
                in_comment = false;
        }
        if (*s)
            s++;
    }
    return s;
}

static int parse_game(PgnReader *r, const Variant *v, PgnGame *g, XqError *err);

int pgn_reader_peek_variant(PgnReader *r, char *buf, size_t size)
{
    const char *p = r->p;
    int line = r->line;
    skip_space(r);
    int rc = 0;
    buf[0] = '\0';
    PgnGame *g = calloc(1, sizeof *g);
    if (*r->p && g) {
        XqError err;
        while (*r->p == '[' && read_tag(r, g, &err) == 0)
            skip_space(r);
        const char *variant = pgn_tag(g, "Variant");
        snprintf(buf, size, "%s", variant && *variant ? variant : "xiangqi");
        for (char *c = buf; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        rc = 1;
    }
    free(g);
    r->p = p;
    r->line = line;
    return rc;
}

int pgn_reader_next(PgnReader *r, const Variant *v, PgnGame *g, XqError *err)
{
    memset(g, 0, sizeof *g);
    g->result = RESULT_NONE;
    skip_space(r);
    if (!*r->p)
        return 0;
    /* The game is parsed as if the text ended with it, so that whatever is wrong inside, the next
     * call starts at the next game. */
    char *start = (char *)r->p, *end = game_end(start);
    int start_line = r->line;
    char saved = *end;
    *end = '\0';
    int rc = parse_game(r, v, g, err);
    *end = saved;
    if (rc < 0)
        pgn_game_free(g);
    r->line = start_line;
    for (const char *c = start; c < end; c++)
        r->line += *c == '\n';
    r->p = end;
    return rc;
}

static int parse_game(PgnReader *r, const Variant *v, PgnGame *g, XqError *err)
{
    g->first_line = r->line;
    while (*r->p == '[') {
        if (read_tag(r, g, err) < 0)
            return -1;
        skip_space(r);
    }
    const char *variant = pgn_tag(g, "Variant");
    /* Case does not matter: other programs write "Xiangqi" too. */
    if (strcasecmp(variant ? variant : "xiangqi", v->name))
        return fail(err, r->path, g->first_line, "game of variant %s, but reading with %s", variant ? variant : "xiangqi",
                    v->name);
    const char *format = pgn_tag(g, "Format");
    bool try_wxf = !format || !strcmp(format, "WXF"), try_iccs = !format || !strcmp(format, "ICCS");
    if (!try_wxf && !try_iccs)
        return fail(err, r->path, g->first_line, "[Format \"%s\"] is not WXF or ICCS", format);
    const char *fen = pgn_tag(g, "FEN");
    snprintf(g->start_fen, sizeof g->start_fen, "%s", fen ? fen : v->start_fen);
    XqError fen_err;
    if (pos_set_fen(r->pos, v, g->start_fen, &fen_err) < 0)
        return fail(err, r->path, g->first_line, "bad [FEN]: %s", fen_err.message);
    /* The project's letters (a rule set's aliases, e.g. XBoard's H and E, read as N and B). */
    pos_get_fen(r->pos, g->start_fen, sizeof g->start_fen);

    int cap = 0;
    Undo undo;
    for (;;) {
        skip_space(r);
        if (!*r->p || *r->p == '[') {
            pgn_game_free(g);
            return fail(err, r->path, r->line, "game from line %d has no result token (1-0, 0-1, 1/2-1/2 or *)",
                        g->first_line);
        }
        char token[64];
        size_t n = 0;
        while (*r->p && !isspace((unsigned char)*r->p) && *r->p != '{' && *r->p != ';' && *r->p != '[') {
            if (n + 1 < sizeof token)
                token[n++] = *r->p;
            r->p++;
        }
        token[n] = '\0';
        if (!strcmp(token, "1-0") || !strcmp(token, "0-1") || !strcmp(token, "1/2-1/2") || !strcmp(token, "*")) {
            Result by_colour = token[0] == '*' ? RESULT_NONE : token[1] == '/' ? RESULT_DRAW
                               : token[0] == '1' ? RESULT_RED_WINS : RESULT_BLACK_WINS;
            /* The token is by colour; [FirstMover "black"] turns it back into the result by
             * seat (without the tag, as in files of earlier versions, it is by seat already). */
            const char *first = pgn_tag(g, "FirstMover");
            bool black_first = first && !strcmp(first, "black");
            g->result = result_by_seat(by_colour, black_first ? BLACK : RED);
            return 1;
        }
        /* Move number: digits and dots ("12.", "12..."), possibly glued to the move. */
        const char *t = token;
        if (isdigit((unsigned char)*t)) {
            while (isdigit((unsigned char)*t))
                t++;
            if (*t == '.') {
                while (*t == '.')
                    t++;
            } else {
                t = token;
            }
        }
        if (!*t)
            continue;
        if (r->pos->hist_len >= XQ_MAX_HISTORY - 1) {
            pgn_game_free(g);
            return fail(err, r->path, r->line, "too many moves in the game from line %d", g->first_line);
        }
        Move m = XQ_MOVE_NONE;
        char why[128] = "";
        if (try_wxf)
            m = move_parse_wxf(r->pos, t);
        if (m == XQ_MOVE_NONE && try_iccs)
            m = move_parse(r->pos, t, why, sizeof why);
        if (m != XQ_MOVE_NONE && hidden_on(r->pos->v) && hidden_is_chance(r->pos, m)) {
            /* Only drawn reveals can be played (hidden.h). */
            snprintf(why, sizeof why, "a reveal must name the identity turned up");
            m = XQ_MOVE_NONE;
        }
        if (m == XQ_MOVE_NONE) {
            /* A WXF-shaped token gets no ICCS explanation ("not a move on this board"). */
            if (try_wxf && strpbrk(t, "+.="))
                why[0] = '\0';
            return fail(err, r->path, r->line, "move %d%s %s (ply %d) is not a legal %s move%s%s", r->pos->move_number,
                        r->pos->side == RED ? "." : "...", t, g->nmoves + 1,
                        try_wxf && try_iccs ? "WXF or ICCS" : try_wxf ? "WXF" : "ICCS", why[0] ? ": " : "", why);
        }
        if (add_move(g, &cap, m) < 0) {
            pgn_game_free(g);
            return fail(err, r->path, r->line, "out of memory");
        }
        pos_do_move(r->pos, m, &undo);
    }
}
