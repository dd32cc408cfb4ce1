/* types.h - the shared vocabulary of the rules core: points, sides, pieces, moves. */
#ifndef XQ_TYPES_H
#define XQ_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits. Point ids fit a byte (255 = no point). */
enum {
    XQ_MAX_POINTS = 255,
    XQ_NO_POINT = 255,
    XQ_MAX_FILES = 16,
    XQ_MAX_RANKS = 16,
    XQ_MAX_KINDS = 15,      /* piece kinds per variant; kind index 0..14 */
    XQ_MAX_PIECES = 48,     /* pieces per side on the board */
    XQ_MAX_MOVES = 512,     /* legal moves in one position */
    XQ_MAX_ZONES = 16,
    XQ_MAX_HISTORY = 4096,  /* plies kept in a position's history */
    XQ_NAME_MAX = 32,
    XQ_MSG_MAX = 256,
};

typedef uint8_t Point;

/* Sides. RED is the first mover (South, bottom of the board): sides are seats. In the rule sets
 * where the first reveal assigns the colours, seat RED may play the black pieces (core/seat.h). */
typedef enum { RED = 0, BLACK = 1 } Side;
#define XQ_OTHER(s) ((Side)((s) ^ 1))

/* Piece code on a board point: 0 = empty, else 1 + kind + 16 * side.
 *   bits 0-3: kind + 1 (1..15), bit 4: side (0 red, 1 black). */
typedef uint8_t Piece;
#define XQ_EMPTY ((Piece)0)
#define XQ_PIECE(side, kind) ((Piece)(((side) << 4) | ((kind) + 1)))
#define XQ_PIECE_KIND(p) ((int)((p) & 15) - 1)
#define XQ_PIECE_SIDE(p) ((Side)(((p) >> 4) & 1))

/* Compass directions along drawn lines; direction d and (d + 4) & 7 are opposite.
 * North is towards higher ranks (Black's side). */
typedef enum { DIR_N, DIR_NE, DIR_E, DIR_SE, DIR_S, DIR_SW, DIR_W, DIR_NW, DIR_COUNT } Direction;
#define XQ_DIR_OPPOSITE(d) (((d) + 4) & 7)

/* A move, 32 bits:
 *   bits  0- 7  from point
 *   bits  8-15  to point
 *   bits 16-23  extra point or kind (rule modules: displacement target, promotion kind)
 *   bits 24-31  flags (XQ_MOVE_*)
 * A plain move has extra = 0 and flags = 0, so it compares equal to XQ_MOVE(from, to). */
typedef uint32_t Move;
#define XQ_MOVE(from, to) ((Move)(from) | ((Move)(to) << 8))
#define XQ_MOVE_FROM(m) ((Point)((m) & 0xff))
#define XQ_MOVE_TO(m) ((Point)(((m) >> 8) & 0xff))
#define XQ_MOVE_EXTRA(m) ((uint8_t)(((m) >> 16) & 0xff))
#define XQ_MOVE_FLAGS(m) ((uint8_t)((m) >> 24))
#define XQ_MOVE_NONE ((Move)0xffffffffu)
#define XQ_MOVE_SPECIAL(from, to, extra, flags)                                                  \
    ((Move)(from) | ((Move)(to) << 8) | ((Move)(extra) << 16) | ((Move)(flags) << 24))

/* Move flags of rule-module moves (core/module.h). A plain move has flags 0. */
enum {
    XQ_FLAG_EXCHANGE = 1,  /* mod_reserve: the piece on from = to becomes kind `extra` */
    XQ_FLAG_ROLL = 2,      /* mod_cube: from = to = general; `extra` = kind of the new top face */
    XQ_FLAG_PASS = 3,      /* mod_multimove: ends a turn without its second sub-move */
    XQ_FLAG_CAMP_ENTER = 0x10, /* mod_camp: the piece on from = to goes into its camp */
    XQ_FLAG_CAMP_LEAVE = 0x11, /* mod_camp: a camp piece of kind `extra` lands on to = from */
    XQ_FLAG_DISPLACE = 0x12,   /* mod_displace: from -> to displaces the enemy on to to `extra` */
    XQ_FLAG_PROMOTE = 0x13,    /* mod_promote: from -> to, the piece becomes kind `extra` */
    XQ_FLAG_REVEAL = 0x20,     /* mod_hidden: the move turns a face-down piece up; `extra` = the
                                * identity (0 = not yet drawn: a chance event, core/hidden.h) */
    XQ_FLAG_DOUBLE = 0x80, /* mod_multimove: a second sub-move follows; extra = its from point,
                            * flags & 0x7f = its (file, rank) offset, see XQ_DOUBLE_CODE */
};
/* Offset code of a second sub-move: file and rank deltas in -3..3 each. */
#define XQ_DOUBLE_CODE(df, dr) ((uint8_t)(((df) + 3) + 7 * ((dr) + 3)))
#define XQ_DOUBLE_DF(code) ((int)((code) & 0x7f) % 7 - 3)
#define XQ_DOUBLE_DR(code) ((int)((code) & 0x7f) / 7 - 3)

/* Bytes of rule-module state in a position (core/module.h lays them out). */
enum { XQ_MOD_STATE = 32 };

typedef struct MoveList {
    int count;
    Move moves[XQ_MAX_MOVES];
} MoveList;

/* Result of a finished game by seat: RESULT_RED_WINS means the first mover (side RED) won. Where
 * colours are assigned in play the winner's colour may differ (core/seat.h). */
typedef enum { RESULT_NONE = -2, RESULT_BLACK_WINS = -1, RESULT_DRAW = 0, RESULT_RED_WINS = 1 } Result;

/* Why a game ended (stored in datasets: values are stable). */
typedef enum {
    TERM_NONE = 0,
    TERM_CHECKMATE = 1,
    TERM_STALEMATE = 2,
    TERM_MOVE_LIMIT = 3,
    TERM_REPETITION_DRAW = 4,
    TERM_PERPETUAL_CHECK = 5,
    TERM_PERPETUAL_CHASE = 6,
    TERM_RESIGNATION = 7,
    TERM_LENGTH_CAP = 8,
    TERM_ROYAL_CAPTURED = 9,
    TERM_NO_PIECES = 10,
    TERM_HP_LOST = 11,      /* banqi-hp: the side's hit points reached 0 (mod_hidden) */
    TERM_COUNT
} Termination;

#endif
