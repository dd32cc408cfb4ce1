/* referee.h - one game between two UCI engines from an opening: every move checked legal and the
 * game adjudicated by the rules core (mate, stalemate, repetition verdicts, move limit), each
 * engine's CPU and wall time measured; an engine that dies, falls silent or plays an illegal
 * move loses the game. Also the rules check that an engine plays the rule set as xqlab does. */
#ifndef XQ_REFEREE_H
#define XQ_REFEREE_H

#include "book.h"
#include "status.h"
#include "uci_engine.h"

typedef enum {
    GAME_END_RULES = 0,   /* decided by the rules (pos_game_status) */
    GAME_END_LENGTH_CAP,  /* the referee's ply cap: a draw */
    GAME_END_DIED,        /* an engine died or closed its output: it loses */
    GAME_END_TIMEOUT,     /* an engine sent no move within movetime + grace: it loses */
    GAME_END_ILLEGAL,     /* an engine sent an illegal or unreadable move: it loses */
    GAME_END_STOPPED,     /* the run was stopped: no result */
    GAME_END_COUNT
} GameEnd;

/* Name of a way a game ended ("rules", "engine died", "time forfeit", ...). */
const char *game_end_name(GameEnd end);

typedef struct RefereeSetup {
    const Variant *v;
    const char *base_fen;       /* the opening's base position, NULL for the start position */
    const Move *opening;        /* the opening's moves from it */
    int nopening;
    int movetime_ms[2];         /* wall-clock time per move, by colour (RED, BLACK) */
    double grace;               /* seconds past the movetime before a silent engine loses */
    int max_plies;              /* plies from the base position (opening included) before the game
                                 * is drawn by the cap; at most XQ_MAX_HISTORY - 16 */
    const atomic_bool *stop;    /* may be NULL */
} RefereeSetup;

typedef struct RefereeGame {
    Result result;              /* from Red's view; RESULT_NONE when stopped */
    Termination reason;         /* the rules' reason (TERM_LENGTH_CAP for the cap), TERM_NONE for
                                 * engine failures */
    GameEnd end;
    Side culprit;               /* engine failures: the colour whose engine failed */
    UciStatus culprit_status;   /* and its status (died, timeout, bad output) */
    char detail[640];           /* engine failures: what happened */
    int nmoves;                 /* moves from the base position, the opening's first */
    Move *moves;                /* owned: referee_game_free */
    int engine_moves[2];        /* moves each colour's engine chose */
    double cpu_ms[2];           /* CPU each colour's engine used during the game (-1: unknown) */
    double wall_ms[2];          /* summed wall time from go to bestmove */
    double max_wall_ms[2];      /* the longest of them */
} RefereeGame;

/* Plays one game: engines[RED] moves for Red, engines[BLACK] for Black (both started; they may be
 * the same engine only if it is one process that plays both sides, which is allowed). Sends
 * ucinewgame first. Returns 0, or -1 if out of memory (g->detail says so). A failed engine is
 * left running or not; the caller restarts it before its next game. */
int referee_play(const RefereeSetup *s, UciEngine *engines[2], RefereeGame *g);

void referee_game_free(RefereeGame *g);

/* The rules check of an engine that can count (Fairy-Stockfish's `go perft`): from the variant's
 * start position and from the first `openings` openings of `book` (NULL: none), its legal moves
 * (translated) must be the rules core's and its perft at `depth` must match. Returns 0 if they
 * agree, 1 if they differ (msg says where), -1 if the engine failed (msg says how). */
int referee_check_rules(UciEngine *e, const Variant *v, const Book *book, int openings, int depth,
                        char *msg, size_t size, const atomic_bool *stop);

#endif
