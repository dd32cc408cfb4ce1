/* common.h - shared pieces of the command-line front end: option parsing, variant lookup,
 * error reporting. */
#ifndef XQ_CLI_COMMON_H
#define XQ_CLI_COMMON_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "variant.h"

/* Exit codes. */
enum { EXIT_OK = 0, EXIT_FAILURE_RUN = 1, EXIT_USAGE = 2 };

/* A subcommand: name, one-line summary, entry point (argv[0] is the subcommand name). */
typedef struct Command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} Command;

/* Directory of the shipped configs (configs/), overridable with XQLAB_CONFIG_DIR. */
const char *cli_config_dir(void);

/* Resolves a variant argument: a path to an .ini file, or the name of a shipped rule set
 * (configs/variants/NAME.ini). Prints the error (file:line: what) and returns NULL on failure. */
Variant *cli_load_variant(const char *arg);

/* Resolves the path of a shipped config ("weights", "xiangqi") into buf; returns buf or NULL if
 * no such file exists. */
const char *cli_config_path(const char *folder, const char *name, char *buf, size_t size);

/* The Fairy-Stockfish definition the project ships for rule set `name` (configs/fairy/NAME.ini),
 * to load through VariantPath: its path in buf, or NULL for standard xiangqi (built into the
 * engine) and for rule sets without one. */
const char *cli_fairy_variant_file(const char *name, char *buf, size_t size);

/* The command line as provenance ("xqlab ARGV0 ARGV1 ..."), cut to fit in buf. Returns buf. */
const char *cli_command_line(int argc, char **argv, char *buf, size_t size);

/* Prints "xqlab CMD: message" to stderr. Returns EXIT_USAGE or EXIT_FAILURE_RUN as given. */
int cli_error(int code, const char *cmd, const char *fmt, ...);

/* Prints an XqError as "xqlab CMD: file:line: message". Returns EXIT_FAILURE_RUN. */
int cli_report(const char *cmd, const XqError *err);

/* Parses whole numbers and reals strictly (the whole string), with range checks; on failure
 * prints "xqlab CMD: OPTION expects ..." and returns -1. */
int cli_parse_int(const char *cmd, const char *option, const char *text, long min, long max, long *out);
int cli_parse_u64(const char *cmd, const char *option, const char *text, uint64_t *out);
int cli_parse_double(const char *cmd, const char *option, const char *text, double min, double max, double *out);

/* True if the argument asks for help (-h or --help). */
bool cli_is_help(const char *arg);

/* Stop requests for long runs (selfplay, match): SIGINT, SIGTERM and SIGUSR1 (Slurm's warning
 * before the time limit) set the flag; a second SIGINT ends the process the usual way, a second
 * SIGTERM or SIGUSR1 only repeats the request. cli_stop_flag gives the flag to pass to the run;
 * cli_stop_signals_catch installs the handlers (the flag is never cleared);
 * cli_stop_signals_release restores the defaults, unless cli_stop_signals_hold was called.
 *
 * cli_stop_signals_hold installs them for the rest of the process: main calls it before
 * selfplay and match start, so a signal while they load their files or print their summary is
 * a stop request too (exit 130), never the default death (exit 138 / 143). cli_stop_status,
 * called by main with the command's status, flushes stdout and turns EXIT_OK into 130 (with a
 * note on stderr) if a stop was requested. */
const atomic_bool *cli_stop_flag(void);
void cli_stop_signals_catch(void);
void cli_stop_signals_release(void);
void cli_stop_signals_hold(void);
int cli_stop_status(const char *cmd, int status);

/* Monotonic clock in seconds. */
double cli_now(void);

#endif
