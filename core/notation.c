/* notation.c - ICCS and WXF move notation. */
#include "notation.h"

#include "hidden.h"
#include "module.h"
#include "seat.h"

#include <ctype.h>
#include <strings.h>
#include <stdio.h>
#include <string.h>

void move_to_iccs(const Variant *v, Move m, char *buf)
{
    /* Rule-module moves carry their suffix ("h9h9=C", "e3e4+g3g4"; core/module.h). */
    if (XQ_MOVE_FLAGS(m) && v->modules && module_move_text(v, m, buf, 16))
        return;
    char a[8], b[8];
    variant_point_name(v, XQ_MOVE_FROM(m), a);
    variant_point_name(v, XQ_MOVE_TO(m), b);
    snprintf(buf, 16, "%s%s", a, b);
}

/* Compares move text ignoring case, blanks and the '-' of "H2-E2". */
static bool same_move_text(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' || *a == '-')
            a++;
        while (*b == ' ' || *b == '-')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
        a++;
        b++;
    }
}

/* The name of the piece on p for a reason: its kind, or what a face-down piece moves as. */
static void piece_label(const Position *pos, Point p, char *buf, size_t size)
{
    const Variant *v = pos->v;
    Piece pc = pos->board[p];
    if (hidden_on(v) && hidden_is_down(v, pc)) {
        int native = v->hidden.native[p];
        if (native >= 0 && v->hidden.mode != HIDDEN_BANQI)
            snprintf(buf, size, "face-down piece (moving as a %s)", v->kinds[native].name);
        else
            snprintf(buf, size, "face-down piece");
        return;
    }
    snprintf(buf, size, "%s", v->kinds[XQ_PIECE_KIND(pc)].name);
}

void move_explain_illegal(Position *pos, Point from, Point to, const char *text, char *why, size_t size)
{
    const Variant *v = pos->v;
    Piece pc = pos->board[from];
    if (!pc) {
        snprintf(why, size, "'%s': no piece on the from point", text);
        return;
    }
    bool banqi_flip = hidden_on(v) && v->hidden.mode == HIDDEN_BANQI && hidden_is_down(v, pc);
    if (XQ_PIECE_SIDE(pc) != pos->side && !banqi_flip) {
        int colour = pos_seat_colour(pos, XQ_PIECE_SIDE(pc));
        if (hidden_on(v) && hidden_is_down(v, pc))
            snprintf(why, size, "'%s': the face-down piece on the from point stands on the "
                     "opponent's half", text);
        else if (colour == RED || colour == BLACK)
            snprintf(why, size, "'%s': the piece on the from point belongs to %s, not the side to "
                     "move", text, colour_name(colour));
        else
            snprintf(why, size, "'%s': the piece on the from point belongs to the %s, not the side "
                     "to move", text, seat_name(XQ_PIECE_SIDE(pc)));
        return;
    }
    char label[64];
    piece_label(pos, from, label, sizeof label);
    if (banqi_flip && from != to) {
        snprintf(why, size, "'%s': a face-down piece does not move; it is flipped where it stands "
                 "(e.g. %.2s%.2s)", text, text, text);
        return;
    }
    MoveList pseudo;
    pos_generate_pseudo(pos, &pseudo);
    Move found = XQ_MOVE_NONE;
    for (int i = 0; i < pseudo.count && found == XQ_MOVE_NONE; i++)
        if (XQ_MOVE_FROM(pseudo.moves[i]) == from && XQ_MOVE_TO(pseudo.moves[i]) == to)
            found = pseudo.moves[i];
    if (found == XQ_MOVE_NONE) {
        if (hidden_on(v) && v->hidden.mode != HIDDEN_JIEQI && hidden_is_down(v, pos->board[to]) &&
            pos_piece_attacks(pos, from, to))
            snprintf(why, size, "'%s': face-down pieces cannot be captured", text);
        else
            snprintf(why, size, "'%s': the %s cannot move there", text, label);
        return;
    }
    if (!pos_is_legal(pos, found)) {
        snprintf(why, size, "'%s': leaves the own general attacked", text);
        return;
    }
    /* Pseudo-legal and safe, yet not legal: a rule the tables do not show. */
    if (hidden_on(v) && pos_seat_colour(pos, RED) < 0) {
        snprintf(why, size, "'%s': before a reveal has assigned the colours the first mover must "
                 "reveal a piece", text);
        return;
    }
    if (hidden_on(v) && v->hidden.mode != HIDDEN_JIEQI && hidden_is_down(v, pos->board[to])) {
        snprintf(why, size, "'%s': face-down pieces cannot be captured", text);
        return;
    }
    snprintf(why, size, "'%s' is not a legal move here", text);
}

/* Rule-module variants: the text must be one of the legal moves as move_to_iccs writes them. */
static Move parse_module_move(Position *pos, const char *text, char *why, size_t why_size)
{
    MoveList list;
    pos_generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        char buf[24];
        move_to_iccs(pos->v, list.moves[i], buf);
        if (same_move_text(buf, text))
            return list.moves[i];
    }
    /* A camp piece leaving may be written without its letter ("@e5" for "R@e5", mod_camp.c)
     * when only one kind can land there. */
    const char *t = text;
    while (*t == ' ')
        t++;
    if (*t == '@') {
        Move found = XQ_MOVE_NONE;
        int n = 0;
        for (int i = 0; i < list.count; i++) {
            char buf[24];
            move_to_iccs(pos->v, list.moves[i], buf);
            if (buf[0] && buf[1] == '@' && same_move_text(buf + 1, t)) {
                found = list.moves[i];
                n++;
            }
        }
        if (n == 1)
            return found;
    }
    /* Why not: the module whose notation it is says so, else the plain part is judged. */
    if (module_explain_illegal(pos, t, why, why_size))
        return XQ_MOVE_NONE;
    const char *s = t;
    Point from = variant_parse_point(pos->v, &s);
    if (*s == '-')
        s++;
    Point to = variant_parse_point(pos->v, &s);
    if (from == XQ_NO_POINT || to == XQ_NO_POINT) {
        snprintf(why, why_size, "'%s' is not a move on this board (expected e.g. h2e2)", text);
        return XQ_MOVE_NONE;
    }
    /* A legal move followed by something else. */
    for (int i = 0; i < list.count; i++) {
        char buf[24];
        move_to_iccs(pos->v, list.moves[i], buf);
        size_t bl = strlen(buf);
        if (strlen(t) > bl && !strncasecmp(t, buf, bl)) {
            snprintf(why, why_size, "'%s': unexpected '%s' after the move %s", text, t + bl, buf);
            return XQ_MOVE_NONE;
        }
    }
    /* Legal moves between these points written otherwise: name them. */
    char alts[160] = "";
    size_t n = 0;
    int nalts = 0;
    for (int i = 0; i < list.count; i++) {
        if (XQ_MOVE_FROM(list.moves[i]) != from || XQ_MOVE_TO(list.moves[i]) != to)
            continue;
        char buf[24];
        move_to_iccs(pos->v, list.moves[i], buf);
        if (nalts++ < 4 && n < sizeof alts)
            n += (size_t)snprintf(alts + n, sizeof alts - n, "%s%s", n ? ", " : "", buf);
    }
    if (nalts) {
        snprintf(why, why_size, "'%s' is not legal here; written with these points: %s%s", text, alts,
                 nalts > 4 ? ", ..." : "");
        return XQ_MOVE_NONE;
    }
    move_explain_illegal(pos, from, to, text, why, why_size);
    return XQ_MOVE_NONE;
}

Move move_parse(Position *pos, const char *text, char *why, size_t why_size)
{
    const Variant *v = pos->v;
    if (hidden_on(v))
        return hidden_parse_move(pos, text, why, why_size); /* reveal suffixes (hidden.h) */
    if (v->modules)
        return parse_module_move(pos, text, why, why_size);
    const char *s = text;
    while (*s == ' ')
        s++;
    Point from = variant_parse_point(v, &s);
    if (*s == '-')
        s++;
    Point to = variant_parse_point(v, &s);
    while (*s == ' ')
        s++;
    if (from == XQ_NO_POINT || to == XQ_NO_POINT) {
        snprintf(why, why_size, "'%s' is not a move on this board (expected e.g. h2e2)", text);
        return XQ_MOVE_NONE;
    }
    if (*s) {
        snprintf(why, why_size, "'%s': unexpected '%s' after the move", text, s);
        return XQ_MOVE_NONE;
    }
    Move m = XQ_MOVE(from, to);
    Piece pc = pos->board[from];
    if (pc && XQ_PIECE_SIDE(pc) == pos->side && pos_move_is_legal(pos, m))
        return m;
    move_explain_illegal(pos, from, to, text, why, why_size);
    return XQ_MOVE_NONE;
}

/* ---- WXF ----------------------------------------------------------------------------------- WXF
 * / AXF notation (wxf.org "Official xiangqi piece names and notation", docs/variants/xiangqi.md):
 * piece letter, the file it stands on counted from the mover's own right (1-9), '+' forward, '-'
 * backward or '.' sideways, then the destination file for pieces that move diagonally (advisor,
 * elephant, horse) or on a sideways move, else the number of ranks moved. */

/* WXF letter of a kind, from its variant letter or alias; 0 if it has none. */
static char wxf_letter(const PieceKind *pk)
{
    const char cand[2] = {pk->letter, pk->alias};
    for (int i = 0; i < 2; i++) {
        switch (cand[i]) {
        case 'K': return 'K';
        case 'A': return 'A';
        case 'B': case 'E': return 'E';
        case 'N': case 'H': return 'H';
        case 'R': return 'R';
        case 'C': return 'C';
        case 'P': return 'P';
        default: break;
        }
    }
    return 0;
}

/* WXF file number (1-9) of board file f for side s: each side counts from its own right. */
static int wxf_file(int f, Side s)
{
    return s == RED ? 9 - f : f + 1;
}

int move_to_wxf(const Position *pos, Move m, char *buf)
{
    const Variant *v = pos->v;
    buf[0] = '\0';
    if (v->files != 9 || v->ranks != 10)
        return -1;
    /* Every kind must have its own WXF letter, or a letter could name two kinds. */
    char letters[XQ_MAX_KINDS];
    for (int k = 0; k < v->nkinds; k++) {
        letters[k] = wxf_letter(&v->kinds[k]);
        if (!letters[k])
            return -1;
        for (int j = 0; j < k; j++)
            if (letters[j] == letters[k])
                return -1;
    }
    Point from = XQ_MOVE_FROM(m), to = XQ_MOVE_TO(m);
    Piece pc = pos->board[from];
    if (!pc)
        return -1;
    Side s = XQ_PIECE_SIDE(pc);
    int kind = XQ_PIECE_KIND(pc);
    char letter = letters[kind];
    int f = v->point_file[from], r = v->point_rank[from];
    int tf = v->point_file[to], tr = v->point_rank[to];

    /* Pieces of this kind and side on the mover's file: how many, and how many of them stand
     * further forward (from the mover's side) than the mover. */
    int n = 0, ahead = 0, tandem_files = 0;
    for (int file = 0; file < v->files; file++) {
        int here = 0;
        for (int rank = 0; rank < v->ranks; rank++) {
            Point p = variant_point(v, file, rank);
            if (p == XQ_NO_POINT || pos->board[p] != pc)
                continue;
            here++;
            if (file == f && (s == RED ? rank > r : rank < r))
                ahead++;
        }
        if (file == f)
            n = here;
        if (here >= 2)
            tandem_files++;
    }
    char digit = (char)('0' + wxf_file(f, s));
    char first, second;
    if (n == 1) {
        first = letter;
        second = digit;
    } else if (tandem_files >= 2) {
        /* Rule (IV): with tandems on two files the file digit replaces the letter; the middle
         * of three keeps its file digit. */
        if (n > 3)
            return -1;
        first = digit;
        second = ahead == 0 ? '+' : ahead == n - 1 ? '-' : digit;
    } else if (n <= 3) {
        /* Two or three on one file: front '+', rear '-', a middle piece uses its file. */
        first = letter;
        second = ahead == 0 ? '+' : ahead == n - 1 ? '-' : digit;
    } else if (n <= 5) {
        /* Rules (II) and (III): the foremost and rearmost of four or five are "++" and "--";
         * second front / back are letter + / -; the middle of five uses its file. */
        int behind = n - 1 - ahead;
        if (ahead == 0) {
            first = '+';
            second = '+';
        } else if (behind == 0) {
            first = '-';
            second = '-';
        } else {
            first = letter;
            second = ahead == 1 ? '+' : behind == 1 ? '-' : digit;
        }
    } else {
        return -1; /* more than five on one file: WXF has no notation for it */
    }

    int dr = tr - r;
    if (s == BLACK)
        dr = -dr;
    char dir = dr > 0 ? '+' : dr < 0 ? '-' : '.';
    bool diagonal = letter == 'A' || letter == 'E' || letter == 'H';
    int number = (dr == 0 || diagonal) ? wxf_file(tf, s) : (dr > 0 ? dr : -dr);
    if (number < 1 || number > 9)
        return -1;
    snprintf(buf, 8, "%c%c%c%d", first, second, dir, number);
    return 0;
}

Move move_parse_wxf(Position *pos, const char *text)
{
    char want[8];
    size_t n = strlen(text);
    if (n < 4 || n >= sizeof want)
        return XQ_MOVE_NONE;
    for (size_t i = 0; i <= n; i++) {
        char c = (char)toupper((unsigned char)text[i]);
        want[i] = c == 'N' ? 'H' : c == 'B' ? 'E' : c == '=' ? '.' : c;
    }
    /* "+R.3" (the mark before the letter) is a common spelling of the official "R+.3". */
    if ((want[0] == '+' || want[0] == '-') && isalpha((unsigned char)want[1])) {
        char mark = want[0];
        want[0] = want[1];
        want[1] = mark;
    }
    MoveList list;
    int count = pos_generate_legal(pos, &list);
    char buf[16];
    for (int i = 0; i < count; i++)
        if (move_to_wxf(pos, list.moves[i], buf) == 0 && !strcmp(buf, want))
            return list.moves[i];
    /* A tandem piece named by its file instead of '+' / '-' ("A6+5" for "A-+5"), as sources
     * write advisors and elephants, whose move alone tells the two apart: accepted when exactly
     * one legal move fits. */
    if (n != 4 || !isalpha((unsigned char)want[0]) || !isdigit((unsigned char)want[1]))
        return XQ_MOVE_NONE;
    Move found = XQ_MOVE_NONE;
    int matches = 0;
    for (int i = 0; i < count; i++) {
        Move m = list.moves[i];
        Piece pc = pos->board[XQ_MOVE_FROM(m)];
        if (move_to_wxf(pos, m, buf) != 0 || buf[0] != want[0] || (buf[1] != '+' && buf[1] != '-') ||
            strcmp(buf + 2, want + 2) ||
            wxf_file(pos->v->point_file[XQ_MOVE_FROM(m)], XQ_PIECE_SIDE(pc)) != want[1] - '0')
            continue;
        found = m;
        matches++;
    }
    return matches == 1 ? found : XQ_MOVE_NONE;
}

bool notation_wxf_default(const Variant *v)
{
    return !strcmp(v->name, "xiangqi") && v->modules == 0;
}
