/* notation.h - move notation: ICCS / UCCI coordinates ("h2e2", "H2-E2") and WXF. */
#ifndef XQ_NOTATION_H
#define XQ_NOTATION_H

#include "position.h"

/* Writes a move in ICCS form ("h2e2", "a9a10") into buf (at least 16 bytes). */
void move_to_iccs(const Variant *v, Move m, char *buf);

/* Parses an ICCS move ("h2e2", "H2-E2") of the position and checks it is legal.
 * Returns the move, or XQ_MOVE_NONE with *why set ("not a move", "illegal: ..."). */
Move move_parse(Position *pos, const char *text, char *why, size_t why_size);

/* Writes into why the reason the move from `from` to `to` (written `text`) is not legal here: no
 * piece there, the opponent's piece, "the horse cannot move there", "leaves the own general
 * attacked", face-down pieces cannot be captured, ... For the move parsers (rule modules add the
 * reasons of their own notation). */
void move_explain_illegal(Position *pos, Point from, Point to, const char *text, char *why, size_t size);

/* Writes a move of standard xiangqi in WXF notation ("C2.5", "H8+7", "R+.3") into buf (at
 * least 8 bytes). The move must be legal in pos. Returns 0, or -1 if the variant's pieces do not
 * map onto WXF letters. */
int move_to_wxf(const Position *pos, Move m, char *buf);

/* Parses a WXF move of standard xiangqi ("C2.5", "H8+7", "R+.3") of the position: the legal move
 * that move_to_wxf writes as `text`. Also read as the common spellings are: lower-case letters,
 * N for the horse, B for the elephant, '=' for '.', "+R.3" for "R+.3", and a tandem piece named
 * by its file ("A6+5" for "A-+5") when only one legal move fits. Returns XQ_MOVE_NONE if no legal move has
 * that text (or the rule set has no WXF). */
Move move_parse_wxf(Position *pos, const char *text);

/* True if v is standard xiangqi (name "xiangqi", no rule modules): game records then write moves
 * in WXF by default, else in ICCS. */
bool notation_wxf_default(const Variant *v);

#endif
