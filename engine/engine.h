/* engine.h - `xqlab engine`: the program as a UCI, UCCI or XBoard engine. Commands are read
 * from `in` and answered on `out`; the protocol is the one the first command names (uci,
 * ucci, xboard; any other first command is read as UCI, as Fairy-Stockfish does). */
#ifndef XQ_ENGINE_H
#define XQ_ENGINE_H

#include <stdio.h>

#include "session.h"

/* Runs until quit or the end of input. `log` (NULL: none) receives every command and answer.
 * Returns 0, or -1 with the reason in err (SESSION_ERR_MAX bytes) if the session cannot start
 * (a bad rule set or weights file in cfg). */
int engine_run(FILE *in, FILE *out, FILE *log, const SessionConfig *cfg, char *err);

#endif
