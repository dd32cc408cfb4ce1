/* pgn.h - Xiangqi PGN: writes game records (WXF moves for standard xiangqi, ICCS for the other
 * rule sets) and reads such files back into moves of the rules core. */
#ifndef XQ_PGN_H
#define XQ_PGN_H

#include <stdio.h>

#include "dataset.h"

/* Move notation of a written game: WXF ("C2.5") exists only for standard xiangqi; ICCS ("h2e2")
 * for every rule set (GUIs such as XBoard read ICCS, not WXF). */
typedef enum PgnNotation {
    PGN_NOTATION_DEFAULT = 0, /* WXF for standard xiangqi, ICCS otherwise */
    PGN_NOTATION_WXF,
    PGN_NOTATION_ICCS,
} PgnNotation;

/* Header values of one game (borrowed; NULL or "" leaves the tag out, except the seven-tag roster
 * which is written with "?" when missing), and the notation of its moves. `red` and `black` name
 * the players of the first and the second mover's seat; the writer puts each under the [Red] or
 * [Black] tag of the colour it played (they differ where the first reveal assigns the colours,
 * core/seat.h). */
typedef struct PgnTags {
    const char *event, *site, *date, *round, *red, *black;
    PgnNotation notation;
    bool xboard_fen; /* [FEN] with XBoard's letters for standard xiangqi: H horse, E elephant */
    const char *termination;  /* replaces the record's termination name when set ("time forfeit") */
} PgnTags;

/* Writes one game: [Game "Chinese Chess"] first, then Event, Site, Date, Round, Red, Black,
 * Result, Variant (the rule set's name), [FirstMover "red" | "black" | "?"] (the first mover's
 * colour) for rule sets whose first reveal assigns the colours, [SetUp "1"] and [FEN] when the
 * start is not the variant's start, [Format] (WXF or ICCS), Termination and PlyCount; then the
 * moves, 80 columns wide, and the result. The result token is by colour ("1-0": the player of the
 * red pieces won); before any reveal assigned colours it counts the first mover as Red. Replays
 * the moves (WXF needs the position). Returns 0, or -1 with *err if a move does not replay, WXF
 * is asked for a rule set other than standard xiangqi, or writing fails. */
int pgn_write_game(FILE *out, const Variant *v, const GameRecord *g, const PgnTags *tags, XqError *err);

enum { PGN_MAX_TAGS = 32 };

/* One game read back. */
typedef struct PgnGame {
    int ntags;
    char tag_name[PGN_MAX_TAGS][32];
    char tag_value[PGN_MAX_TAGS][256];
    char start_fen[256];     /* [FEN] or the variant's start position */
    Result result;           /* by seat (core/seat.h), from the result token and [FirstMover];
                              * RESULT_NONE for "*" */
    int nmoves;
    Move *moves;             /* owned (pgn_game_free) */
    int first_line;          /* line of the game's first tag in the file */
} PgnGame;

/* Value of a tag of a game read back, or NULL. */
const char *pgn_tag(const PgnGame *g, const char *name);
void pgn_game_free(PgnGame *g);

typedef struct PgnReader PgnReader;

/* Reads the whole file; NULL with *err if it cannot be read. */
PgnReader *pgn_reader_open(const char *path, XqError *err);

/* Reads the next game into *g, parsing its moves (WXF or ICCS as [Format] says; without the
 * tag either is accepted) by replaying them with variant v, which must match its [Variant]
 * (absent: xiangqi). start_fen is the [FEN] rewritten by the rules core (a piece
 * letter's alias, e.g. XBoard's H and E for N and B, becomes the letter). Returns 1 for a game, 0 at the end of the file, -1 with *err naming the
 * file, line and token that is wrong; after -1 the next call reads the next game (a game ends
 * where a line opens with '[' after its moves). */
int pgn_reader_next(PgnReader *r, const Variant *v, PgnGame *g, XqError *err);

/* The [Variant] tag of the next game without reading the game ("xiangqi" when it has none) into
 * buf. Returns 1, or 0 at the end of the file. */
int pgn_reader_peek_variant(PgnReader *r, char *buf, size_t size);

void pgn_reader_close(PgnReader *r);

#endif
