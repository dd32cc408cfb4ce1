/* uci_engine.h - an external engine driven over UCI by the strength referee: start and hand-shake,
 * rule set and options, new game, a move for a position within a wall-clock budget, Fairy-Stockfish
 * perft, and its CPU time; a dead, silent or garbling engine is reported, never waited for.
 *
 * Moves cross this interface in the project's notation (ICCS, ranks from 0); an engine that
 * counts ranks from 1 (Fairy-Stockfish) is translated both ways. Threads: one UciEngine per
 * thread; a UciLog may be shared. The caller ignores SIGPIPE (subprocess.h). */
#ifndef XQ_UCI_ENGINE_H
#define XQ_UCI_ENGINE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "subprocess.h"

/* Every line sent to and received from the engines, for debugging (shared by threads). */
typedef struct UciLog {
    FILE *file;
    pthread_mutex_t lock;
    double t0;           /* subprocess_now() at the start: lines carry seconds since then */
} UciLog;

enum { UCI_RANKS_AUTO = -1 };

typedef struct UciEngineSpec {
    const char *command;         /* shell command line of the engine */
    const char *role;            /* which side this is in messages ("xqlab", "engine") */
    int rank_base;               /* ranks from 0 or 1; UCI_RANKS_AUTO: 1 for Fairy-Stockfish */
    const char *variant;         /* rule set to select with UCI_Variant, NULL for none */
    const char *variant_path;    /* a variants file to load first (VariantPath), or NULL */
    int noptions;
    const char *const *options;  /* "Name=Value" pairs for setoption, in order */
    double startup_timeout;      /* seconds for uciok / readyok / perft answers */
    const char *stderr_path;     /* where the engine's standard error goes (NULL: nowhere) */
    UciLog *log;                 /* NULL: no log */
} UciEngineSpec;

typedef enum {
    UCI_OK = 0,
    UCI_DIED,        /* the engine exited or closed its output */
    UCI_TIMEOUT,     /* no answer within the time allowed */
    UCI_BAD_OUTPUT,  /* an answer that is not what UCI says (e.g. bestmove without a move) */
    UCI_REFUSED,     /* it cannot do what was asked: no such rule set or option */
    UCI_STOPPED,     /* the caller's stop flag was raised */
} UciStatus;

/* Short name of a status ("died", "timeout", ...). */
const char *uci_status_name(UciStatus s);

enum { UCI_MAX_OPTIONS = 128 };

typedef struct UciEngine {
    const UciEngineSpec *spec;
    Subprocess proc;
    char name[128];              /* from "id name", or the command */
    bool fairy;                  /* Fairy-Stockfish (by its id name) */
    int fairy_version;           /* its release (11 for "Fairy-Stockfish 11.1"); 0 if unknown or a
                                  * development build (dated, e.g. "Fairy-Stockfish 011226") */
    int rank_base;               /* in force: 0 or 1 */
    bool has_variant_option;
    char variants[4096];         /* values of its UCI_Variant combo, space separated */
    int noptions;
    char option_names[UCI_MAX_OPTIONS][64];
    char loader_output[512];     /* what it printed while loading the variants file */
    char detail[512];            /* what went wrong, for the last failing call */
    int game;                    /* game number shown in log lines (set by the caller) */
} UciEngine;

/* Starts the engine and hands shake: uci / uciok (reading id and options), the options of the
 * spec (each must be one the engine lists), the rule set (UCI_Variant, after loading
 * spec->variant_path through VariantPath if the engine has that option), isready / readyok.
 * On failure e->detail says what happened and the process is already ended. An engine without a
 * UCI_Variant option is taken to play standard xiangqi only. */
UciStatus uci_engine_start(UciEngine *e, const UciEngineSpec *spec, const atomic_bool *stop);

/* ucinewgame, then isready / readyok. */
UciStatus uci_engine_new_game(UciEngine *e, const atomic_bool *stop);

/* Sends the position (base_fen, NULL for the start position, then `nmoves` moves in ICCS) and
 * `go movetime MS`, and waits until `deadline` (subprocess_now clock) for bestmove. best gets the
 * move in ICCS (ranks from 0); a move that cannot be translated is passed on as the engine wrote
 * it, for the caller to reject. */
UciStatus uci_engine_go(UciEngine *e, const char *base_fen, const char *const *moves, int nmoves,
                        int movetime_ms, double deadline, char *best, size_t size,
                        const atomic_bool *stop);

/* The last score an engine reported for a position (its "info" lines, principal variation 1):
 * centipawns for the side to move, or a mate in `value` moves (negative: it is mated). */
typedef struct UciScore {
    bool have;        /* any score line came */
    bool mate;
    int value;
    int depth;        /* the depth of that line (0 if it named none) */
} UciScore;

/* As uci_engine_go with any limit of "go" (`limit`, e.g. "nodes 5000", "depth 8",
 * "movetime 50"), keeping the last score of the engine's info lines in *score (NULL: none). */
UciStatus uci_engine_analyse(UciEngine *e, const char *base_fen, const char *const *moves, int nmoves,
                             const char *limit, double deadline, char *best, size_t size,
                             UciScore *score, const atomic_bool *stop);

/* Fairy-Stockfish's `go perft DEPTH` from a position: the leaf count, and, if `divide` is not
 * NULL, the first moves it lists (ICCS, ranks from 0, up to max_divide of them, each at least
 * 16 bytes) and how many (*ndivide). */
UciStatus uci_engine_perft(UciEngine *e, const char *base_fen, const char *const *moves, int nmoves,
                           int depth, uint64_t *nodes, char (*divide)[16], int max_divide,
                           int *ndivide, const atomic_bool *stop);

/* CPU milliseconds the engine process has used since it started; -1 if unknown. */
double uci_engine_cpu_ms(const UciEngine *e);

/* True while the process runs (a failed call may have ended it). */
bool uci_engine_running(const UciEngine *e);

/* Sends quit and ends the process (killed if it has not exited within a second). NULL-safe and
 * safe on an engine that failed to start. */
void uci_engine_quit(UciEngine *e);

#endif
