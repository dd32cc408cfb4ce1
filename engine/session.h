/* session.h - the state every protocol drives: the rule set, weights and search settings, the game
 * (a start position and the moves since), and the search, which runs on a thread of its own so
 * the command reader stays free to answer `stop`, `isready` and `quit` at once.
 *
 * Threading: the protocol's command thread calls every function here; the search thread only
 * calls the SessionCallbacks. session_stop and session_abort wait for the search thread, so the
 * game and settings never change under a running search. */
#ifndef XQ_ENGINE_SESSION_H
#define XQ_ENGINE_SESSION_H

#include <stdbool.h>

#include "mcts.h"
#include "output.h"
#include "status.h"
#include "timeman.h"

typedef struct Session Session;

/* Limits of one search (UCI go, UCCI go, XBoard's level / st / sd / time). */
typedef struct EngineLimits {
    TimeControl time;      /* a fixed move time or the clock (timeman.h) */
    int nodes;             /* playouts (0: no playout limit) */
    int depth;             /* stop once this many plies of the principal variation have been
                            * searched below: their nodes visited at least twice (0: none) */
    bool infinite;         /* search until session_stop (also UCI go ponder) */
} EngineLimits;

/* Progress and result of a search, merged over the search threads. Moves are the game's. */
typedef struct EngineReport {
    int playouts;          /* new playouts, all threads */
    double seconds;        /* since the go command */
    double playouts_per_second;
    float value;           /* root value for the side to move, in [-1, 1] */
    int proven;            /* +1 / -1: a forced win / loss was proven, in proven_plies plies */
    int proven_plies;
    int arena_permille;    /* share of the first thread's node arena in use */
    int pv_len;
    Move pv[MCTS_PV_MAX];
    int depth;             /* plies of the principal variation searched below (nodes visited
                            * at least twice): the protocols' "depth" */
    Move best;             /* result only: the move to play (XQ_MOVE_NONE: no legal move) */
    bool truncated;        /* result only: an arena filled before the budget was spent */
} EngineReport;

/* Called from the search thread. `info` every info_interval_ms while searching (NULL: never);
 * `done` once with the result (aborted: session_abort ended it and no move is to be played;
 * the report is then still filled). `done` runs while the session is locked against new
 * commands: it may call session_push_move but nothing else of this header. */
typedef struct SessionCallbacks {
    void (*info)(void *user, const EngineReport *report);
    void (*done)(void *user, const EngineReport *report, bool aborted);
    void *user;
} SessionCallbacks;

/* Settings the front end starts the session with. */
typedef struct SessionConfig {
    const char *config_dir;        /* shipped configs: variants/NAME.ini, weights/NAME.ini */
    const char *variant;           /* rule set name or .ini path (NULL: "xiangqi") */
    const char *weights;           /* weights file, "none" (NULL: the nearest shipped one) */
    const SearchParams *params;    /* base search parameters (NULL: the defaults) */
} SessionConfig;

enum { SESSION_ERR_MAX = 512 };

/* Creates a session in the start position of the configured rule set. NULL with the reason in
 * err (at least SESSION_ERR_MAX bytes) if the rule set or weights cannot be loaded. */
Session *session_create(const SessionConfig *cfg, EngineOutput *out, char *err);
/* Stops any search and frees everything (NULL allowed). */
void session_free(Session *s);

/* ---- settings (not while searching: the protocols stop the search first) ---- */

/* Rule set by shipped name or .ini path; the game restarts from its start position and the
 * weights follow (the WeightsFile if one is set and fits, else the nearest shipped file). */
int session_set_variant(Session *s, const char *name_or_path, char *err);
const Variant *session_variant(const Session *s);
/* The shipped rule set names (sorted), for option lists; valid while the session lives. */
int session_variant_names(const Session *s, const char *const **names);
/* Weights file; NULL or "" selects the nearest shipped weights file (eval/weights_choice.h:
 * the one naming most of the rule set's features), "none" every weight at its default (the
 * piece values of the rule set). */
int session_set_weights(Session *s, const char *path, char *err);
/* The weights file as set ("" for the nearest shipped one). */
const char *session_weights(const Session *s);
/* Which weights are in use, in one line (weights_describe). */
const char *session_weights_line(const Session *s);
/* One search parameter by name (params_set rules); err names the key and the range. */
int session_set_param(Session *s, const char *key, const char *value, char *err);
const SearchParams *session_params(const Session *s);
/* Root-parallel search threads (1-64) and the node memory of all of them in MiB. */
int session_set_threads(Session *s, int threads, char *err);
int session_set_hash_mb(Session *s, int mb, char *err);
int session_threads(const Session *s);
int session_hash_mb(const Session *s);
/* The per-move overhead the time manager keeps in reserve (ms, 0-10000). */
int session_set_overhead(Session *s, int ms, char *err);
int session_overhead(const Session *s);
/* Milliseconds between progress reports (10-60000). */
int session_set_info_interval(Session *s, int ms, char *err);
int session_info_interval(const Session *s);
/* Allocates what the settings changed (trees of the new size, ...): called at isready so the
 * cost does not count against a clock; session_go does it too if needed. */
int session_prepare(Session *s, char *err);
/* Forgets the search trees (a new game). */
void session_new_game(Session *s);

/* ---- the game ---- */

/* Sets the game: `fen` (NULL: the rule set's start position) and then the moves in order.
 * Moves are in ICCS with the rule set's suffixes (a reveal names its identity, "a0a1R");
 * rank_base 1 reads ranks counted from 1 (Fairy-Stockfish's UCI). On an error the game is
 * marked invalid (session_go refuses it) and err says what and where ("move 3 'h2h9': ...").
 * Returns 0 or -1. */
int session_set_position(Session *s, const char *fen, char *const *moves, int nmoves,
                         int rank_base, char *err);
/* Marks the game invalid with the reason (a refused position command): session_go refuses it. */
void session_invalidate(Session *s, const char *why);
/* Plays one more move (XBoard usermove); on an error the game is unchanged. */
int session_play(Session *s, const char *text, int rank_base, char *err);
/* Plays a legal move of the current position (the engine's own, from a result). */
void session_push_move(Session *s, Move m);
/* Takes back the last n moves (XBoard undo / remove); -1 if there are fewer. */
int session_undo(Session *s, int n);
/* The current position; NULL while the game is invalid (after a refused position). */
const Position *session_position(const Session *s);
/* Why the game is invalid ("" if it is valid). */
const char *session_position_error(const Session *s);
/* Game status of the current position by the rule set (GameStatus.result RESULT_NONE while the
 * game goes on). */
GameStatus session_status(Session *s);
/* Moves played since the start position or FEN. */
int session_game_length(const Session *s);

/* Writes a move of `pos` as the protocols print it: ICCS with the rule set's suffixes, an
 * undrawn reveal without its '?', ranks from rank_base (0 or 1). buf: at least 32 bytes. */
void session_move_text(const Variant *v, Move m, int rank_base, char *buf);

/* ---- searching ---- */

/* Starts a search of the current position on the search thread and returns at once. -1 with
 * err if a search is running, the game is invalid, or nothing can be searched (no legal move:
 * err gives the game status). */
int session_go(Session *s, const EngineLimits *limits, const SessionCallbacks *cb, char *err);
/* True between session_go and the end of its done callback. */
bool session_searching(Session *s);
/* Ends the search now: done is called with the result so far; waits for it. No-op if idle. */
void session_stop(Session *s);
/* Ends the search and tells done it was aborted (no move to play); waits for it. */
void session_abort(Session *s);
/* Waits until the search has finished by itself (not infinite searches). */
void session_wait(Session *s);

/* Centipawn equivalent of a root value with the session's eval_scale (score.h). */
int session_value_cp(const Session *s, float value);

#endif
