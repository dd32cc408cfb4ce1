/* cmd_ladder.c - `xqlab ladder -v VARIANT --playouts 50,200,800 -n N`: the same games at several
 * search budgets, and how balance and the draw rate move with playing strength. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "driver.h"
#include "ini.h"
#include "output.h"
#include "search_options.h"
#include "weights.h"

enum { MAX_RUNGS = 16 };

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab ladder -v VARIANT --playouts P1,P2,... [-n GAMES] [options]\n\n"
        "Plays GAMES self-play games at each search budget (playouts per move) with the same\n"
        "base seed, so game i of every rung starts from the same seed, and prints per budget:\n"
        "red wins / draws / black wins, Red's score with a Wilson 95%% interval, the balance\n"
        "index, the draw rate and the mean length; then the change from the smallest to the\n"
        "largest budget with its 95%% interval and p-value (weak play hides first-move\n"
        "advantage). Without -o no dataset is written.\n\n"
        "options:\n"
        "  -v, --variant V      rule set name or variant file\n"
        "      --playouts LIST  comma-separated budgets, e.g. 50,200,800 (at most 16)\n"
        "  -n, --games N        games per budget (default 100)\n"
        "      --seed S         base seed (default 1)\n"
        "      --preset NAME    run preset (quick, standard, strong or a file); --playouts wins\n"
        "      --weights FILE   evaluation weights (default: the nearest shipped file, as in\n"
        "                       selfplay; 'none': piece values only)\n"
        "      --set KEY=VALUE  any search parameter, repeatable\n"
        "      --fen FEN        start every game from this position\n"
        "      --openings FILE  opening book: games 2k and 2k+1 of every rung start from opening k\n"
        "                       (cycling), as in selfplay\n"
        "  -t, --threads T      worker threads (default: all cores)\n"
        "  -o, --output DIR     also write DIR/VARIANT-pP.h5 per budget (DIR is created;\n"
        "                       existing files are not overwritten)\n"
        "      --force          replace existing datasets in DIR and plot files\n"
        "      --progress MODE  live, log or quiet (default: quiet)\n"
        "      --markdown | --json\n"
        "      --plots DIR      also write DIR/ladder.png (score and draw rate by budget)\n"
        "  -h, --help\n\n"
        "Exit status: 0, 1 on a run-time error, 2 on a usage error.\n");
}

typedef struct Rung {
    int playouts;
    RunTotals totals;
    Wdl red;
    double seconds;
} Rung;

static int parse_playouts(const char *text, int *out, int *n)
{
    *n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 10000000 || (*end && *end != ','))
            return cli_error(EXIT_USAGE, "ladder", "--playouts expects budgets like 50,200,800, not '%s'", text);
        if (*n == MAX_RUNGS)
            return cli_error(EXIT_USAGE, "ladder", "--playouts: at most %d budgets", MAX_RUNGS);
        out[(*n)++] = (int)v;
        p = *end ? end + 1 : end;
    }
    return *n ? EXIT_OK : cli_error(EXIT_USAGE, "ladder", "--playouts: no budget given");
}

static void print_json(FILE *out, const char *variant, const Rung *r, int n, uint64_t seed)
{
    fprintf(out, "{\"kind\": \"ladder\", \"variant\": ");
    json_string(out, variant);
    fprintf(out, ", \"base_seed\": %" PRIu64 ", \"rungs\": [", seed);
    for (int i = 0; i < n; i++) {
        double lo, hi, dlo, dhi;
        uint64_t g = wdl_games(&r[i].red);
        wilson_interval((double)r[i].red.wins + 0.5 * (double)r[i].red.draws, (double)g, STATS_Z95, &lo, &hi);
        wilson_interval((double)r[i].red.draws, (double)g, STATS_Z95, &dlo, &dhi);
        double score = wdl_score(&r[i].red);
        fprintf(out, "%s{\"playouts\": %d, \"games\": %" PRIu64 ", \"red_wins\": %" PRIu64 ", \"draws\": %" PRIu64
                ", \"black_wins\": %" PRIu64 ", \"red_score\": ", i ? ", " : "", r[i].playouts, g, r[i].red.wins,
                r[i].red.draws, r[i].red.losses);
        json_number(out, score);
        fprintf(out, ", \"red_score_ci95\": [");
        json_number(out, lo);
        fprintf(out, ", ");
        json_number(out, hi);
        fprintf(out, "], \"balance_index\": ");
        json_number(out, g ? 1 - (score > 0.5 ? 2 * score - 1 : 1 - 2 * score) : 0);
        fprintf(out, ", \"draw_rate\": ");
        json_number(out, g ? (double)r[i].red.draws / (double)g : 0);
        fprintf(out, ", \"draw_rate_ci95\": [");
        json_number(out, dlo);
        fprintf(out, ", ");
        json_number(out, dhi);
        fprintf(out, "], \"mean_length\": ");
        json_number(out, g ? (double)r[i].totals.plies_sum / (double)r[i].totals.games : 0);
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

static void print_text(FILE *out, const char *variant, const Rung *r, int n, bool md)
{
    fprintf(out, "%sBalance ladder: %s, %" PRIu64 " games per budget\n\n", md ? "# " : "", variant,
            wdl_games(&r[0].red));
    if (md)
        fprintf(out, "| playouts | red / draw / black | red score | 95%% CI | balance | draw rate | mean length | seconds |\n"
                     "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    else
        fprintf(out, "%8s  %-18s %9s  %-16s %8s %9s %8s %8s\n", "playouts", "red/draw/black", "red score", "95% CI",
                "balance", "draw rate", "length", "seconds");
    for (int i = 0; i < n; i++) {
        double lo, hi;
        uint64_t g = wdl_games(&r[i].red);
        wilson_interval((double)r[i].red.wins + 0.5 * (double)r[i].red.draws, (double)g, STATS_Z95, &lo, &hi);
        double score = wdl_score(&r[i].red), balance = g ? 1 - (score > 0.5 ? 2 * score - 1 : 1 - 2 * score) : 0;
        char wdl[64], ci[32];
        snprintf(wdl, sizeof wdl, "%" PRIu64 "/%" PRIu64 "/%" PRIu64, r[i].red.wins, r[i].red.draws, r[i].red.losses);
        snprintf(ci, sizeof ci, "%.1f%% .. %.1f%%", 100 * lo, 100 * hi);
        fprintf(out, md ? "| %d | %s | %.1f%% | %s | %.3f | %.1f%% | %.1f | %.1f |\n"
                        : "%8d  %-18s %8.1f%%  %-16s %8.3f %8.1f%% %8.1f %8.1f\n",
                r[i].playouts, wdl, 100 * score, ci, balance, g ? 100.0 * (double)r[i].red.draws / (double)g : 0.0,
                r[i].totals.games ? (double)r[i].totals.plies_sum / (double)r[i].totals.games : 0.0, r[i].seconds);
    }
    if (n >= 2) {
        ScoreDiff s = stats_score_diff(&r[0].red, &r[n - 1].red);
        ScoreDiff d = stats_proportion_diff(r[0].red.draws, wdl_games(&r[0].red), r[n - 1].red.draws,
                                            wdl_games(&r[n - 1].red));
        fprintf(out, "\nfrom %d to %d playouts: red score %+.1f points (95%% CI %+.1f .. %+.1f, p = %.3g), draw rate "
                "%+.1f points (95%% CI %+.1f .. %+.1f, p = %.3g)\n", r[0].playouts, r[n - 1].playouts, 100 * s.diff,
                100 * s.lo, 100 * s.hi, s.p, 100 * d.diff, 100 * d.lo, 100 * d.hi, d.p);
    }
}

int cmd_ladder(int argc, char **argv)
{
    const char *variant_arg = NULL, *preset = NULL, *weights = NULL, *out_dir = NULL, *progress = "quiet";
    const char *plots = NULL, *sets[64], *fen = NULL, *openings = NULL;
    bool force = false;
    int nsets = 0, budgets[MAX_RUNGS], nbudgets = 0;
    long games = 100, threads = 0;
    uint64_t seed = 1;
    OutputFormat format = FORMAT_TEXT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc, bad = false;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if (analysis_output_option("ladder", argc, argv, &i, &format, &plots, &force, &bad)) {
            if (bad)
                return EXIT_USAGE;
        } else if ((!strcmp(a, "-v") || !strcmp(a, "--variant")) && has) {
            variant_arg = argv[++i];
        } else if (!strcmp(a, "--playouts") && has) {
            if (parse_playouts(argv[++i], budgets, &nbudgets) != EXIT_OK)
                return EXIT_USAGE;
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
        return cli_error(EXIT_USAGE, "ladder", "needs --playouts P1,P2,... (e.g. 50,200,800)");
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
    e = cli_weights_load("ladder", v, weights, &wchoice);
    if (!e || !(weights_text = cli_weights_text("ladder", &wchoice))) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    if (out_dir && (status = cli_output_folder("ladder", "-o", out_dir)) != EXIT_OK)
        goto cleanup;
    /* Every rung's dataset is claimed before the first game (cli/output.h). */
    if (out_dir && !(outs = calloc(MAX_RUNGS, sizeof *outs))) {
        status = cli_error(EXIT_FAILURE_RUN, "ladder", "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < nbudgets && out_dir; i++) {
        char file[PATH_MAX];
        snprintf(file, sizeof file, "%s/%s-p%d.h5", out_dir, v->name, budgets[i]);
        const char *inputs[1] = {wchoice.path};
        if ((status = cli_output_claim(&outs[i], "ladder", "-o", file, force ? CLI_OUTPUT_FORCE : 0, inputs,
                                       wchoice.path[0] ? 1 : 0)) != EXIT_OK)
            goto cleanup;
        nouts++;
    }
    char command_line[2048];
    analysis_command_line(argc, argv, command_line, sizeof command_line);
    for (int i = 0; i < nbudgets; i++) {
        SearchParams p = params;
        p.playouts = budgets[i];
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
        if (selfplay_run(&o, &rungs[i].totals, &report, &err) < 0) {
            status = cli_report("ladder", &err);
            goto cleanup;
        }
        rungs[i].red = (Wdl){rungs[i].totals.red_wins, rungs[i].totals.draws, rungs[i].totals.black_wins};
        rungs[i].seconds = report.wall_seconds;
        char who[48];
        snprintf(who, sizeof who, "the %d-playout rung", budgets[i]);
        cli_warn_arena("ladder", who, report.truncated_searches, p.arena_nodes, "--set arena_nodes=N");
        if (format == FORMAT_TEXT && !strcmp(progress, "quiet"))
            fprintf(stderr, "xqlab ladder: %d playouts: %ld games in %.1f s\n", budgets[i], games, report.wall_seconds);
    }
    if (format == FORMAT_JSON)
        print_json(stdout, v->name, rungs, nbudgets, seed);
    else
        print_text(stdout, v->name, rungs, nbudgets, format == FORMAT_MARKDOWN);
    if (plots) {
        char *json = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&json, &len);
        if (!mem) {
            status = cli_error(EXIT_FAILURE_RUN, "ladder", "out of memory");
            goto cleanup;
        }
        print_json(mem, v->name, rungs, nbudgets, seed);
        fclose(mem);
        status = analysis_plot("ladder", json, len, plots, force);
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
