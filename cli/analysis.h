/* analysis.h - shared pieces of the analysis commands (report, openings, compare, ladder,
 * export): output formats, dataset sets with their errors, JSON text, the plot script. */
#ifndef XQ_CLI_ANALYSIS_H
#define XQ_CLI_ANALYSIS_H

#include <stdbool.h>
#include <stdio.h>

#include "results.h"
#include "shards.h"

typedef enum { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_JSON } OutputFormat;

/* Opens the shard set, printing "xqlab CMD: FILE: what is wrong" on failure. Returns EXIT_OK or
 * EXIT_FAILURE_RUN. */
int analysis_open(const char *cmd, ShardSet *set, char **paths, int count);

/* Prints a JSON string literal. */
void json_string(FILE *out, const char *s);

/* Prints a number for JSON (NaN and infinities as null). */
void json_number(FILE *out, double x);

/* An interval as a JSON pair "[lo, hi]". */
void json_interval(FILE *out, const ScoreInterval *s);

/* The result keys report, compare and ladder share (no braces): "red_wins", "draws",
 * "black_wins" (the first mover is "red": seat 0 in the hidden-piece rule sets), "red_score",
 * "red_score_ci95" (trinomial), "first_mover_advantage_significant", "draw_rate",
 * "draw_rate_ci95", "win_rate_ci95" and "loss_rate_ci95" (the first mover's, binomial), "resolution",
 * "games_for_half_width"; with hidden pieces also "hidden":
 * {"by_colour": ..., "paired_deals": ...}. */
void analysis_json_results(FILE *out, const Wdl *first, const HiddenTally *hidden, const ResultSummary *r);

/* The run's length cap (max_plies) from a dataset's search settings text; 0 if not there. */
int analysis_length_cap(const char *params_text);

/* Prints text for a Markdown table cell: '|' escaped as "\|", newlines as spaces. */
void md_cell(FILE *out, const char *text);

/* Percent with one decimal ("53.3%"). */
const char *analysis_percent(double x, char *buf, size_t size);

/* Where and how the plots are drawn: --plots DIR, --plot-size WxH (pixels, default 1600x1000),
 * --plot-dpi N (default 150; the size stays in pixels), --force (replace existing PNG files). */
typedef struct PlotOptions {
    const char *dir;             /* NULL: no plots */
    int width, height, dpi;
    bool force;
} PlotOptions;

#define PLOT_OPTIONS_INIT {NULL, 1600, 1000, 150, false}

/* Runs the plot script (scripts/analysis/plot_analysis.py, XQLAB_SCRIPT_DIR overrides the
 * folder) with /usr/bin/python3 (XQLAB_PYTHON overrides), feeding `json` on its stdin and the
 * size and dpi on its command line. The script writes its PNG files into a scratch folder inside
 * plot->dir (created if missing, never followed if it is a symbolic link); then every file is
 * claimed as an output (cli/output.h: an existing one is replaced only with --force, never
 * through a link) and, only if all claims succeed, renamed into the folder and listed on stderr
 * ("plot: DIR/NAME"), so a refused run leaves the folder as it was. Errors (no Python, no
 * matplotlib: Debian package python3-matplotlib) are printed as "xqlab CMD: ...". Returns
 * EXIT_OK or EXIT_FAILURE_RUN. */
int analysis_plot(const char *cmd, const char *json, size_t len, const PlotOptions *plot);

/* Before the work: refuses (EXIT_FAILURE_RUN, "xqlab CMD: ...") when plot->dir holds one of the
 * NULL-terminated file names and --force was not given, so a long run is not wasted on a plot
 * analysis_plot would refuse at the end. EXIT_OK without plots. */
int analysis_plot_precheck(const char *cmd, const PlotOptions *plot, const char *const *names);

/* Parses --json / --markdown / --plots DIR / --plot-size WxH / --plot-dpi N / --force at
 * argv[*i]; true if it was one of them. Prints an error and sets *bad for a bad value. */
bool analysis_output_option(const char *cmd, int argc, char **argv, int *i, OutputFormat *format,
                            PlotOptions *plot, bool *bad);

/* The usage lines of the plot options, for --help. */
#define ANALYSIS_PLOT_USAGE                                                                      \
    "  --plot-size WxH  plot size in pixels (default 1600x1000)\n"                                \
    "  --plot-dpi N     dots per inch of the PNG files (default 150: the text size; the pixel\n"  \
    "                   size stays WxH)\n"                                                        \
    "  --force          replace existing output files (plots in DIR and the command's other\n"    \
    "                   outputs; never an input), else the command refuses\n"

/* Command line of this run ("xqlab report a.h5 --json") for provenance. */
void analysis_command_line(int argc, char **argv, char *buf, size_t size);

#endif
