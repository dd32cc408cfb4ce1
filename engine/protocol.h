/* protocol.h - what the three protocol front ends (uci.c, ucci.c, xboard.c) share: the engine
 * context they drive and the reading of command words and numbers. Each front end answers one
 * command line at a time on the command thread; the search reports through its callbacks. */
#ifndef XQ_ENGINE_PROTOCOL_H
#define XQ_ENGINE_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "output.h"
#include "session.h"

/* Per-protocol state of the XBoard front end (xboard.c). */
typedef struct XboardState {
    bool force;              /* force mode: the engine plays neither side */
    Side engine_side;        /* the side the engine plays when not in force mode */
    bool post;               /* thinking output */
    bool analyze;            /* analyze mode: infinite search of the current position */
    int mps;                 /* level: moves per time control (0: the whole game) */
    int64_t base_ms, inc_ms; /* level: base time and increment */
    int64_t movetime_ms;     /* st: a fixed time per move (0: none) */
    int depth;               /* sd: a principal-variation length limit (0: none) */
    int64_t own_ms;          /* time: the engine's clock, centiseconds converted */
    bool own_known;
    int protover;
} XboardState;

typedef struct EngineContext {
    Session *s;
    EngineOutput *out;
    OptionTable options;
    OptionState st;
    Protocol protocol;
    XboardState xb;
} EngineContext;

/* A command split into words: line is modified in place; words point into it. */
typedef struct Words {
    char **w;
    int n, cap;
} Words;

/* Splits line on blanks. Returns -1 on out of memory. */
int words_split(Words *words, char *line);
void words_free(Words *words);
/* Joins words [from, to) with single blanks into buf. */
void words_join(const Words *words, int from, int to, char *buf, size_t size);

/* Strict numbers: the whole word, in range. 0 or -1. */
int word_int64(const char *text, int64_t min, int64_t max, int64_t *out);
/* A non-negative decimal number of seconds or milliseconds ("1.5"), as milliseconds. */
int word_time_ms(const char *text, double unit_ms, int64_t *out);

/* The front ends: `begin` answers the protocol's opening command (uci / ucci / xboard);
 * `command` handles one later line and returns false on quit. */
void uci_begin(EngineContext *c);
bool uci_command(EngineContext *c, Words *cmd);
void ucci_begin(EngineContext *c);
bool ucci_command(EngineContext *c, Words *cmd);
void xboard_begin(EngineContext *c);
bool xboard_command(EngineContext *c, Words *cmd);

/* Handles a setoption-like request for the protocol: finds the option, sets it (the search is
 * stopped first by the caller), and answers errors and notices with `error_prefix` lines
 * ("info string", "tellusererror"). */
void protocol_set_option(EngineContext *c, const char *name, const char *value,
                         const char *error_prefix);

/* position startpos | fen FEN [moves m1 m2 ...] (UCI and UCCI); errors as error_prefix lines,
 * and the game is then invalid until the next good position command. */
void protocol_position(EngineContext *c, Words *cmd, const char *error_prefix);

/* `d`: the rule set, the position as FEN and its status, as error_prefix lines. */
void protocol_show(EngineContext *c, const char *prefix);

#endif
