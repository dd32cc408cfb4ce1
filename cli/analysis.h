/* analysis.h - shared pieces of the analysis commands (report, openings, compare, ladder,
 * export): output formats, dataset sets with their errors, JSON text, the plot script. */
#ifndef XQ_CLI_ANALYSIS_H
#define XQ_CLI_ANALYSIS_H

#include <stdio.h>

#include "shards.h"

typedef enum { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_JSON } OutputFormat;

/* Opens the shard set, printing "xqlab CMD: FILE: what is wrong" on failure. Returns EXIT_OK or
 * EXIT_FAILURE_RUN. */
int analysis_open(const char *cmd, ShardSet *set, char **paths, int count);

/* Prints a JSON string literal. */
void json_string(FILE *out, const char *s);

/* Prints a number for JSON (NaN and infinities as null). */
void json_number(FILE *out, double x);

/* Percent with one decimal ("53.3%"). */
const char *analysis_percent(double x, char *buf, size_t size);

/* Runs the plot script (scripts/analysis/plot_analysis.py, XQLAB_SCRIPT_DIR overrides the
 * folder) with /usr/bin/python3 (XQLAB_PYTHON overrides), feeding `json` on its stdin. The script
 * writes its PNG files into a scratch folder inside dir (dir is created if missing, never
 * followed if it is a symbolic link); then every file is claimed as an output (cli/output.h: an
 * existing one is replaced only with `force`, never through a link) and, only if all claims
 * succeed, renamed into dir and listed on stderr ("plot: DIR/NAME"), so a refused run leaves dir
 * as it was. Errors (no Python, no matplotlib: Debian package python3-matplotlib) are printed as
 * "xqlab CMD: ...". Returns EXIT_OK or EXIT_FAILURE_RUN. */
int analysis_plot(const char *cmd, const char *json, size_t len, const char *dir, bool force);

/* Parses --json / --markdown / --plots DIR / --force at argv[*i]; true if it was one of them.
 * Prints an error and sets *bad for a missing DIR. */
bool analysis_output_option(const char *cmd, int argc, char **argv, int *i, OutputFormat *format,
                            const char **plots_dir, bool *force, bool *bad);

/* Command line of this run ("xqlab report a.h5 --json") for provenance. */
void analysis_command_line(int argc, char **argv, char *buf, size_t size);

#endif
