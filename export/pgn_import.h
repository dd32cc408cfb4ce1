/* pgn_import.h - a game read from PGN as a dataset game record: every position replayed by the
 * rules core, the result checked against the final position, no search statistics. */
#ifndef XQ_PGN_IMPORT_H
#define XQ_PGN_IMPORT_H

#include "dataset.h"
#include "pgn.h"

/* Builds *g (index `index`, arrays malloc'd: free with game_record_free) from a game that
 * pgn_reader_next read with variant v. Positions carry board, rule-module state, side, ply and
 * no-capture count; the search columns say "not searched": root_value and static_eval NaN
 * (stored as the missing marker), best XQ_MOVE_NONE, visits 0, no policy. The termination is the
 * rules' verdict on the final position when they ended the game (the result must then agree),
 * else the [Termination] tag when it names one of termination_name's reasons, else TERM_NONE
 * (stopped by the players: resignation, agreement, time). Returns 0, or -1 with *err saying what
 * is wrong (a result the final position contradicts, a move after the game ended, out of
 * memory); err->file and err->line are left to the caller. */
int pgn_import_game(const Variant *v, const PgnGame *pg, uint64_t index, GameRecord *g, XqError *err);

#endif
