/* search_options.h - the search-parameter options shared by selfplay, match and ladder:
 * --preset NAME|FILE and --set KEY=VALUE, and the warning when a limit they set was hit. */
#ifndef XQ_CLI_SEARCH_OPTIONS_H
#define XQ_CLI_SEARCH_OPTIONS_H

#include "params.h"

/* Loads a run preset into *p: a shipped name (configs/runs/NAME.ini) or a path to an .ini file.
 * Prints the error as "xqlab CMD: ..." and returns EXIT_USAGE (unknown preset) or
 * EXIT_FAILURE_RUN (a bad file, with file:line); EXIT_OK on success. */
int cli_load_preset(const char *cmd, const char *preset, SearchParams *p);

/* Applies "KEY=VALUE" settings in order. Prints the first error as "xqlab CMD: --set ..." and
 * returns EXIT_USAGE; EXIT_OK on success. */
int cli_apply_sets(const char *cmd, const char *const *sets, int nsets, SearchParams *p);

/* Resource-bound warning (docs/errors.md): `searches` searches (of `who`, e.g. "player A", or
 * NULL) filled the node arena of `arena_nodes` nodes and stopped with fewer playouts; `raise`
 * says how to raise it (e.g. "--set arena_nodes=N"). Prints nothing when searches is 0. */
void cli_warn_arena(const char *cmd, const char *who, uint64_t searches, int arena_nodes,
                    const char *raise);

#endif
