/* special_moves.h - kinds of rule-module moves, read from a move's flags byte (core/types.h), so
 * analysis can count them for any variant without knowing the modules. */
#ifndef XQ_SPECIAL_MOVES_H
#define XQ_SPECIAL_MOVES_H

#include "types.h"

/* Kind of a move: 0 for a plain move, else the flags byte with the bits that carry data rather
 * than the kind cleared (XQ_FLAG_DOUBLE keeps only its own bit: its low bits are an offset). */
uint8_t special_kind_of(Move m);

/* Name of a kind ("cube roll", "double move", ...); kinds no module has named yet read
 * "special move 0xNN" in buf (at least 32 bytes). Returns a static string or buf. */
const char *special_kind_name(uint8_t kind, char *buf, size_t size);

#endif
