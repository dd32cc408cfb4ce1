/* cmd_ladder.c - `xqlab ladder -v VARIANT --playouts 50,200,800 -n N`: the same games at several
 * search budgets, and how balance and the draw rate move with playing strength. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "driver.h"
#include "ini.h"
#include "output.h"
#include "hidden.h"
#include "search_options.h"
#include "seat.h"
#include "weights.h"

enum { MAX_RUNGS = 16 };

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab ladder -v VARIANT --playouts P1,P2,... | --movetime MS1,MS2,... [-n GAMES]\n"
        "                    [options]\n\n"
        "Plays GAMES self-play games at each search budget (playouts, or milliseconds, per\n"
        "move) with the same\n"
        "base seed, so game i of every rung starts from the same seed, and prints per budget:\n"
        "red wins / draws / black wins (first / second mover for hidden-piece rule sets), the\n"
        "first mover's score with its 95%% win/draw/loss interval, the draw rate with its\n"
        "interval, the smallest first-move advantage the rung can detect, the balance index\n"
        "and the mean length; then the change from the smallest to the largest budget with\n"
        "its 95%% interval and p-value (weak play hides first-move advantage), and the\n"
        "weights used. Without -o no dataset is written.\n\n"
        "options:\n"
        "  -v, --variant V      rule set name or variant file\n"
        "      --playouts LIST  comma-separated budgets, e.g. 50,200,800 (at most 16)\n"
        "      --movetime LIST  timed budgets instead, milliseconds per move, e.g. 10,40,160:\n"
        "                       each rung also reports the playouts per move it reached (a\n"
        "                       timed run: the games depend on the machine's speed)\n"
        "  -n, --games N        games per budget (default 100)\n"
        "      --seed S         base seed (default 1)\n"
        "      --preset NAME    run preset (quick, standard, strong, ab or a file); --playouts wins\n"
        "      --weights FILE   evaluation weights (default: the nearest shipped file, as in\n"
        "                       selfplay; 'none': piece values only)\n"
        "      --set KEY=VALUE  any search parameter, repeatable\n"
        "      --fen FEN        start every game from this position\n"
        "      --openings FILE  opening book: games 2k and 2k+1 of every rung start from opening k\n"
        "                       (cycling), as in selfplay\n"
        "  -t, --threads T      worker threads (default: all cores)\n"
        "  -o, --output DIR     also write DIR/VARIANT-pP.h5 (timed: VARIANT-tMS.h5) per\n"
        "                       budget (DIR is created;\n"
        "                       existing files are not overwritten)\n"
        "      --force          replace existing datasets in DIR and plot files\n"
        "      --progress MODE  live, log or quiet (default: quiet)\n"
        "      --markdown | --json\n"
        "      --plots DIR      also write DIR/ladder.png (score and draw rate by budget)\n"
        ANALYSIS_PLOT_USAGE
        "  -h, --help\n\n"
        "Exit status: 0, 1 on a run-time error, 2 on a usage error.\n");
}

typedef struct Rung {
    int playouts;               /* the budget; a timed rung: the playouts per move it reached */
    int movetime;               /* a timed rung's milliseconds per move (0: a playout budget) */
    RunTotals totals;
    Wdl red;                     /* the first mover's results */
    ResultSummary r;
    double seconds;
} Rung;

/* A comma-separated budget list of --playouts or --movetime. */
static int parse_budgets(const char *option, const char *text, long max, int *out, int *n)
{
    *n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > max || (*end && *end != ','))
            return cli_error(EXIT_USAGE, "ladder", "%s expects budgets like 50,200,800 (1 to %ld), not '%s'",
                             option, max, text);
        if (*n == MAX_RUNGS)
            return cli_error(EXIT_USAGE, "ladder", "%s: at most %d budgets", option, MAX_RUNGS);
        out[(*n)++] = (int)v;
        p = *end ? end + 1 : end;
    }
    return *n ? EXIT_OK : cli_error(EXIT_USAGE, "ladder", "%s: no budget given", option);
}

static double balance_index(const ResultSummary *r)
{
    return r->games ? 1 - fabs(2 * r->first.mean - 1) : 0;
}

static double mean_length(const Rung *r)
{
    return r->totals.games ? (double)r->totals.plies_sum / (double)r->totals.games : 0;
}

static void print_json(FILE *out, const Variant *v, const Rung *r, int n, uint64_t seed, const char *weights)
{
    fprintf(out, "{\"kind\": \"ladder\", \"variant\": ");
    json_string(out, v->name);
    fprintf(out, ", \"base_seed\": %" PRIu64 ", \"hidden_pieces\": %s, \"colours_assigned_in_game\": %s, \"weights\": ",
            seed, hidden_on(v) ? "true" : "false", variant_assigns_colours(v) ? "true" : "false");
    json_string(out, weights);
    fprintf(out, ", \"rungs\": [");
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s{\"movetime\": %d, \"playouts\": %d, \"games\": %" PRIu64 ", ", i ? ", " : "", r[i].movetime,
                r[i].playouts, r[i].r.games);
        analysis_json_results(out, &r[i].red, &r[i].totals.hidden, &r[i].r);
        fprintf(out, ", \"balance_index\": ");
        json_number(out, balance_index(&r[i].r));
        fprintf(out, ", \"mean_length\": ");
        json_number(out, mean_length(&r[i]));
        fprintf(out, ", \"seconds\": ");
        json_number(out, r[i].seconds);
        fprintf(out, "}");
    }
    fprintf(out, "]");
    if (n >= 2) {
        ScoreDiff s = stats_score_diff(&r[0].red, &r[n - 1].red);
        ScoreDiff d = stats_proportion_diff(r[0].red.draws, wdl_games(&r[0].red), r[n - 1].red.draws,
                                            wdl_games(&r[n - 1].red));
        fprintf(out, ", \"trend\": {\"red_score_change\": ");
        json_number(out, s.diff);
        fprintf(out, ", \"red_score_change_ci95\": [");
        json_number(out, s.lo);
        fprintf(out, ", ");
        json_number(out, s.hi);
        fprintf(out, "], \"red_score_p\": ");
        json_number(out, s.p);
        fprintf(out, ", \"draw_rate_change\": ");
        json_number(out, d.diff);
        fprintf(out, ", \"draw_rate_change_ci95\": [");
        json_number(out, d.lo);
        fprintf(out, ", ");
        json_number(out, d.hi);
        fprintf(out, "], \"draw_rate_p\": ");
        json_number(out, d.p);
        fprintf(out, "}");
    }
    fprintf(out, "}\n");
}

static void print_text(FILE *out, const Variant *v, const Rung *r, int n, bool md, const char *weights)
{
    const char *variant = v->name;
    bool hidden = variant_assigns_colours(v);
    const char *wdl_head = hidden ? "first/draw/second" : "red/draw/black", *score_head = hidden ? "1st score" : "red score";
    fprintf(out, "%sBalance ladder: %s, %" PRIu64 " games per budget\n\n", md ? "# " : "", variant, r[0].r.games);
    bool timed = r[0].movetime > 0;
    if (md)
        fprintf(out, "| %s%s | %s | %s | 95%% CI | draw rate | 95%% CI | resolves | balance | mean length | seconds |\n"
                     "|---:|%s---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", timed ? "ms/move | " : "",
                timed ? "playouts/move" : "playouts", wdl_head, score_head, timed ? "---:|" : "");
    else
        fprintf(out, "%s%8s  %-17s %9s  %-15s %9s  %-15s %8s %8s %7s %8s\n", timed ? " ms/move " : "", "playouts",
                wdl_head, score_head, "95% CI", "draw rate", "95% CI", "resolves", "balance", "length", "seconds");
    for (int i = 0; i < n; i++) {
        const ResultSummary *s = &r[i].r;
        char wdl[64], ci[32], dci[32], res[16];
        snprintf(wdl, sizeof wdl, "%" PRIu64 "/%" PRIu64 "/%" PRIu64, r[i].red.wins, r[i].red.draws, r[i].red.losses);
        snprintf(ci, sizeof ci, "%.1f%% .. %.1f%%", 100 * s->first.lo, 100 * s->first.hi);
        snprintf(dci, sizeof dci, "%.1f%% .. %.1f%%", 100 * s->draws.lo, 100 * s->draws.hi);
        snprintf(res, sizeof res, "+-%.1f", 100 * s->resolution);
        if (timed)
            fprintf(out, md ? "| %d " : "%8d ", r[i].movetime);
        fprintf(out, md ? "| %d | %s | %.1f%% | %s | %.1f%% | %s | %s | %.3f | %.1f | %.1f |\n"
                        : "%8d  %-17s %8.1f%%  %-15s %8.1f%%  %-15s %8s %8.3f %7.1f %8.1f\n",
                r[i].playouts, wdl, 100 * s->first.mean, ci, 100 * s->draws.mean, dci, res, balance_index(s),
                mean_length(&r[i]), r[i].seconds);
    }
    if (n >= 2) {
        ScoreDiff s = stats_score_diff(&r[0].red, &r[n - 1].red);
        ScoreDiff d = stats_proportion_diff(r[0].red.draws, wdl_games(&r[0].red), r[n - 1].red.draws,
                                            wdl_games(&r[n - 1].red));
        fprintf(out, "\nfrom %d to %d %s: %s %+.1f points (95%% CI %+.1f .. %+.1f, p = %.3g), draw rate "
                "%+.1f points (95%% CI %+.1f .. %+.1f, p = %.3g)\n", timed ? r[0].movetime : r[0].playouts,
                timed ? r[n - 1].movetime : r[n - 1].playouts, timed ? "ms/move" : "playouts", hidden ? "first mover's score" : "red score", 100 * s.diff, 100 * s.lo, 100 * s.hi, s.p, 100 * d.diff,
                100 * d.lo, 100 * d.hi, d.p);
    }
    fprintf(out, "%s(resolves: the smallest first-move advantage, in points, a rung's games detect at 95%%)\n"
            "%sweights: ", n >= 2 ? "" : "\n", md ? "\n" : "");
    if (md)
        md_cell(out, weights);
    else
        fputs(weights, out);
    fputc('\n', out);
}

int cmd_ladder(int argc, char **argv)
{
    const char *variant_arg = NULL, *preset = NULL, *weights = NULL, *out_dir = NULL, *progress = "quiet";
    const char *sets[64], *fen = NULL, *openings = NULL;
    PlotOptions plot = PLOT_OPTIONS_INIT;
    int nsets = 0, budgets[MAX_RUNGS], nbudgets = 0;
    bool timed = false, by_playouts = false;
    long games = 100, threads = 0;
    uint64_t seed = 1;
    OutputFormat format = FORMAT_TEXT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc, bad = false;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if (analysis_output_option("ladder", argc, argv, &i, &format, &plot, &bad)) {
            if (bad)
                return EXIT_USAGE;
        } else if ((!strcmp(a, "-v") || !strcmp(a, "--variant")) && has) {
            variant_arg = argv[++i];
        } else if (!strcmp(a, "--playouts") && has) {
            if (timed || parse_budgets("--playouts", argv[++i], 10000000, budgets, &nbudgets) != EXIT_OK)
                return timed ? cli_error(EXIT_USAGE, "ladder", "--playouts and --movetime are alternatives")
                             : EXIT_USAGE;
            by_playouts = true;
        } else if (!strcmp(a, "--movetime") && has) {
            if (by_playouts || parse_budgets("--movetime", argv[++i], 86400000, budgets, &nbudgets) != EXIT_OK)
                return by_playouts ? cli_error(EXIT_USAGE, "ladder", "--playouts and --movetime are alternatives")
                                   : EXIT_USAGE;
            timed = true;
        } else if ((!strcmp(a, "-n") || !strcmp(a, "--games")) && has) {
            if (cli_parse_int("ladder", "--games", argv[++i], 1, 100000000L, &games) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--seed") && has) {
            if (cli_parse_u64("ladder", "--seed", argv[++i], &seed) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--preset") && has) {
            preset = argv[++i];
        } else if (!strcmp(a, "--weights") && has) {
            weights = argv[++i];
        } else if (!strcmp(a, "--fen") && has) {
            fen = argv[++i];
        } else if (!strcmp(a, "--openings") && has) {
            openings = argv[++i];
        } else if (!strcmp(a, "--set") && has) {
            if (nsets == 64)
                return cli_error(EXIT_USAGE, "ladder", "too many --set options");
            sets[nsets++] = argv[++i];
        } else if ((!strcmp(a, "-t") || !strcmp(a, "--threads")) && has) {
            if (cli_parse_int("ladder", "--threads", argv[++i], 1, 1024, &threads) < 0)
                return EXIT_USAGE;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has) {
            out_dir = argv[++i];
        } else if (!strcmp(a, "--progress") && has) {
            progress = argv[++i];
            if (strcmp(progress, "live") && strcmp(progress, "log") && strcmp(progress, "quiet"))
                return cli_error(EXIT_USAGE, "ladder", "--progress expects live, log or quiet, not '%s'", progress);
        } else {
            return cli_bad_option("ladder", a, usage);
        }
    }
    if (!variant_arg)
        return cli_error(EXIT_USAGE, "ladder", "needs -v VARIANT (xqlab variants lists them)");
    if (!nbudgets)
        return cli_error(EXIT_USAGE, "ladder", "needs --playouts P1,P2,... (e.g. 50,200,800) or --movetime "
                         "MS1,MS2,...");
    if (fen && openings)
        return cli_error(EXIT_USAGE, "ladder", "--fen and --openings exclude each other");

    int status = EXIT_OK;
    Variant *v = NULL;
    Evaluator *e = NULL;
    char *weights_text = NULL;
    Book book = {0};
    Rung *rungs = calloc((size_t)nbudgets, sizeof *rungs);
    CliOutput *outs = NULL;
    int nouts = 0;
    XqError err;
    SearchParams params;
    params_default(&params);
    if (!rungs) {
        status = cli_error(EXIT_FAILURE_RUN, "ladder", "out of memory");
        goto cleanup;
    }
    if ((preset && (status = cli_load_preset("ladder", preset, &params)) != EXIT_OK) ||
        (status = cli_apply_sets("ladder", sets, nsets, &params)) != EXIT_OK)
        goto cleanup;
    v = cli_load_variant(variant_arg);
    if (!v) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    if (openings && book_load(&book, v, openings, &err) < 0) {
        status = cli_report("ladder", &err);
        goto cleanup;
    }
    if (fen) {
        Position *check = malloc(sizeof *check);
        int frc = check ? pos_set_fen(check, v, fen, &err) : -1;
        free(check);
        if (frc < 0) {
            status = cli_error(EXIT_USAGE, "ladder", "bad --fen: %s", check ? err.message : "out of memory");
            goto cleanup;
        }
    }
    WeightsChoice wchoice;
    e = cli_weights_load("ladder", v, weights, cli_weights_use(&params), &wchoice);
    if (!e || !(weights_text = cli_weights_text("ladder", &wchoice))) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    char weights_line[1024];
    weights_describe(&wchoice, e, weights_line, sizeof weights_line);
    static const char *const PLOTS[] = {"ladder.png", NULL};
    if ((status = analysis_plot_precheck("ladder", &plot, PLOTS)) != EXIT_OK)
        goto cleanup;
    if (out_dir && (status = cli_output_folder("ladder", "-o", out_dir)) != EXIT_OK)
        goto cleanup;
    /* Every rung's dataset is claimed before the first game (cli/output.h). */
    if (out_dir && !(outs = calloc(MAX_RUNGS, sizeof *outs))) {
        status = cli_error(EXIT_FAILURE_RUN, "ladder", "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < nbudgets && out_dir; i++) {
        char file[PATH_MAX];
        snprintf(file, sizeof file, "%s/%s-%c%d.h5", out_dir, v->name, timed ? 't' : 'p', budgets[i]);
        const char *inputs[1] = {wchoice.path};
        if ((status = cli_output_claim(&outs[i], "ladder", "-o", file, plot.force ? CLI_OUTPUT_FORCE : 0, inputs,
                                       wchoice.path[0] ? 1 : 0)) != EXIT_OK)
            goto cleanup;
        nouts++;
    }
    char command_line[2048];
    analysis_command_line(argc, argv, command_line, sizeof command_line);
    for (int i = 0; i < nbudgets; i++) {
        SearchParams p = params;
        if (timed) {
            p.movetime = budgets[i];
        } else {
            p.playouts = budgets[i];
            p.movetime = 0;
        }
        SelfplayOptions o = SELFPLAY_OPTIONS_INIT;
        o.variant = v;
        o.start_fen = fen;
        o.book = openings ? &book : NULL;
        o.eval = e;
        o.params = &p;
        o.seed = seed;
        o.games = (uint64_t)games;
        o.threads = (int)threads;
        o.out_path = out_dir ? outs[i].path : NULL;
        o.weights_text = weights_text ? weights_text : "";
        o.command_line = command_line;
        o.progress = !strcmp(progress, "live") ? PROGRESS_LIVE : !strcmp(progress, "log") ? PROGRESS_LOG : PROGRESS_QUIET;
        SelfplayReport report;
        rungs[i].playouts = budgets[i];
        rungs[i].movetime = timed ? budgets[i] : 0;
        if (selfplay_run(&o, &rungs[i].totals, &report, &err) < 0) {
            status = cli_report("ladder", &err);
            goto cleanup;
        }
        if (timed)
            rungs[i].playouts = report.searches ? (int)(report.playouts / report.searches) : 0;
        rungs[i].red = (Wdl){rungs[i].totals.red_wins, rungs[i].totals.draws, rungs[i].totals.black_wins};
        results_summarise(&rungs[i].red, &rungs[i].totals.hidden, &rungs[i].r);
        rungs[i].seconds = report.wall_seconds;
        char who[48];
        snprintf(who, sizeof who, "the %d-%s rung", budgets[i], timed ? "ms" : "playout");
        cli_warn_arena("ladder", who, report.truncated_searches, p.arena_nodes, "--set arena_nodes=N");
        if (format == FORMAT_TEXT && !strcmp(progress, "quiet"))
            fprintf(stderr, "xqlab ladder: %d %s: %ld games in %.1f s\n", budgets[i], timed ? "ms/move" : "playouts",
                    games, report.wall_seconds);
    }
    if (format == FORMAT_JSON)
        print_json(stdout, v, rungs, nbudgets, seed, weights_line);
    else
        print_text(stdout, v, rungs, nbudgets, format == FORMAT_MARKDOWN, weights_line);
    if (plot.dir) {
        char *json = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&json, &len);
        if (!mem) {
            status = cli_error(EXIT_FAILURE_RUN, "ladder", "out of memory");
            goto cleanup;
        }
        print_json(mem, v, rungs, nbudgets, seed, weights_line);
        fclose(mem);
        status = analysis_plot("ladder", json, len, &plot);
        free(json);
    }
cleanup:
    for (int i = 0; i < nouts; i++)
        cli_output_release(&outs[i]);
    free(outs);
    for (int i = 0; rungs && i < nbudgets; i++)
        totals_free(&rungs[i].totals);
    free(rungs);
    free(weights_text);
    eval_free(e);
    book_free(&book);
    variant_free(v);
    return status;
}
