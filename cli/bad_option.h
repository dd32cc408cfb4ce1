/* bad_option.h - the one answer every command gives to an option it does not know: one line,
 * with the nearest option of its --help ("did you mean --playouts?"), never the whole usage. */
#ifndef XQ_CLI_BAD_OPTION_H
#define XQ_CLI_BAD_OPTION_H

#include <stdio.h>

/* Prints one line to stderr for argument `arg` that the command's parser did not accept:
 *   xqlab CMD: unknown option '--playout' (did you mean --playouts?)
 *   xqlab CMD: --playouts needs a value            (a known option, last on the line)
 *   xqlab CMD: unknown option '--zzz' (xqlab CMD --help lists the options)
 *   xqlab CMD: unexpected argument 'foo' (xqlab CMD --help)
 * The known options are the ones the command's help text names (-x, --long-name), so a
 * suggestion is always an option the help documents. `usage` prints that help; `help` is the text
 * itself (cli_bad_option_text). Returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, const char *arg, void (*usage)(FILE *out));
int cli_bad_option_text(const char *cmd, const char *arg, const char *help);

/* The option of `help` nearest to `arg` (edit distance with transpositions, at most 2, or at most a
 * third of the name; or the only option `arg` is a prefix of), written into buf; returns buf, or
 * NULL when nothing is near. Exposed for the tests. */
const char *cli_nearest_option(const char *help, const char *arg, char *buf, size_t size);

#endif
