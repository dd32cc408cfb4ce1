/* cmd_selfplay.c - `xqlab selfplay`: a batch of self-play games into an HDF5 dataset, with
 * progress, a balance summary, clean interruption and --resume. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "driver.h"
#include "ini.h"

static atomic_bool stop_requested;

static void on_signal(int sig)
{
    atomic_store(&stop_requested, true);
    /* A second signal of the same kind ends the process the usual way. */
    signal(sig, SIG_DFL);
}

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab selfplay -v VARIANT [-n GAMES] [-o OUT.h5] [options]\n\n"
        "Plays GAMES self-play games with MCTS on all cores (one game per thread at a time),\n"
        "writes every position with its search statistics to OUT.h5 and prints a balance\n"
        "summary. Game i is seeded from (seed, i): the same options give the same games and\n"
        "the same dataset for any thread count.\n\n"
        "options:\n"
        "  -v, --variant V      rule set name (xqlab variants) or variant file\n"
        "  -n, --games N        games to play (default 100)\n"
        "  -o, --output FILE    dataset to write (default VARIANT-selfplay.h5); written as\n"
        "                       FILE.tmp and renamed when complete\n"
        "      --no-output      play and summarise without writing a dataset\n"
        "  -t, --threads T      worker threads (default: all cores, or OMP_NUM_THREADS)\n"
        "      --playouts P     playouts per move (overrides the preset)\n"
        "      --seed S         base seed (default 1)\n"
        "      --fen FEN        start every game from this position (default: the variant's)\n"
        "      --preset NAME    run preset: quick, standard, strong, or a file (configs/runs)\n"
        "      --weights FILE   evaluation weights (default configs/weights/VARIANT.ini)\n"
        "      --set KEY=VALUE  any search parameter (see docs/cli.md), repeatable\n"
        "      --resume         continue an interrupted run from FILE.tmp\n"
        "      --progress MODE  live (terminal line), log (a line every --log-interval s),\n"
        "                       quiet; default: live on a terminal, log otherwise\n"
        "      --log-interval S seconds between progress lines in log mode (default 30)\n"
        "      --flush-games N  flush the file at least every N games (default 64; also every\n"
        "                       2 s): a killed run loses at most the games since the last flush\n"
        "      --json           print the summary as JSON on stdout\n\n"
        "SIGINT / SIGTERM: no new game starts, games in flight finish and are written, the\n"
        "file stays as FILE.tmp; run the same command with --resume to complete it. Exit\n"
        "status: 0 done, 1 error, 2 bad usage, 130 interrupted.\n");
}

/* Reads a whole text file (weights) for provenance. */
static char *read_text(const char *path)
{
    XqError err;
    return ini_read_file(path, &err);
}

/* Totals of every game in a finished dataset (after a resume the summary covers the whole
 * file, not only the games of this run). */
static int totals_from_file(const char *path, RunTotals *totals, XqError *err)
{
    DatasetReader *r = dsr_open(path, err);
    if (!r)
        return -1;
    int rc = 0;
    uint64_t n = dsr_summary(r)->ngames;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        GameRecord g;
        rc = dsr_read_game(r, i, &g, err);
        if (rc == 0) {
            rc = totals_add(totals, &g, -1);
            game_record_free(&g);
        }
    }
    dsr_close(r);
    return rc;
}

int cmd_selfplay(int argc, char **argv)
{
    const char *variant_arg = NULL, *out = NULL, *preset = NULL, *weights = NULL;
    const char *progress = NULL, *fen = NULL;
    long games = 100, threads = 0, playouts = -1;
    uint64_t seed = 1;
    double log_interval = 30;
    long flush_games = 64;
    bool no_output = false, resume = false, json = false;
    const char *sets[64];
    int nsets = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if ((!strcmp(a, "-v") || !strcmp(a, "--variant")) && has) {
            variant_arg = argv[++i];
        } else if ((!strcmp(a, "-n") || !strcmp(a, "--games")) && has) {
            if (cli_parse_int("selfplay", "--games", argv[++i], 1, 1000000000L, &games) < 0)
                return EXIT_USAGE;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has) {
            out = argv[++i];
        } else if (!strcmp(a, "--no-output")) {
            no_output = true;
        } else if ((!strcmp(a, "-t") || !strcmp(a, "--threads")) && has) {
            if (cli_parse_int("selfplay", "--threads", argv[++i], 1, 1024, &threads) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--playouts") && has) {
            if (cli_parse_int("selfplay", "--playouts", argv[++i], 1, 10000000, &playouts) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--seed") && has) {
            if (cli_parse_u64("selfplay", "--seed", argv[++i], &seed) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--fen") && has) {
            fen = argv[++i];
        } else if (!strcmp(a, "--preset") && has) {
            preset = argv[++i];
        } else if (!strcmp(a, "--weights") && has) {
            weights = argv[++i];
        } else if (!strcmp(a, "--set") && has) {
            if (nsets == 64)
                return cli_error(EXIT_USAGE, "selfplay", "too many --set options");
            sets[nsets++] = argv[++i];
        } else if (!strcmp(a, "--resume")) {
            resume = true;
        } else if (!strcmp(a, "--progress") && has) {
            progress = argv[++i];
            if (strcmp(progress, "live") && strcmp(progress, "log") && strcmp(progress, "quiet"))
                return cli_error(EXIT_USAGE, "selfplay", "--progress expects live, log or quiet, "
                                 "not '%s'", progress);
        } else if (!strcmp(a, "--log-interval") && has) {
            if (cli_parse_double("selfplay", "--log-interval", argv[++i], 0.1, 86400, &log_interval) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--flush-games") && has) {
            if (cli_parse_int("selfplay", "--flush-games", argv[++i], 1, 1000000, &flush_games) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else {
            usage(stderr);
            return cli_error(EXIT_USAGE, "selfplay", "unknown option or missing value: '%s'", a);
        }
    }
    if (!variant_arg)
        return cli_error(EXIT_USAGE, "selfplay", "needs -v VARIANT (xqlab variants lists them)");
    if (no_output && (out || resume))
        return cli_error(EXIT_USAGE, "selfplay", "--no-output cannot be combined with -o or --resume");

    int status = EXIT_OK;
    Variant *v = NULL;
    Evaluator *e = NULL;
    char *weights_text = NULL;
    RunTotals totals = {0};
    char default_out[512], path[1024];
    XqError err;

    SearchParams params;
    params_default(&params);
    if (preset) {
        const char *file = strchr(preset, '/') || strstr(preset, ".ini")
                               ? preset : cli_config_path("runs", preset, path, sizeof path);
        if (!file) {
            status = cli_error(EXIT_USAGE, "selfplay", "unknown preset '%s' (no %s/runs/%s.ini)",
                               preset, cli_config_dir(), preset);
            goto cleanup;
        }
        if (params_load_file(&params, file, &err) < 0) {
            status = cli_report("selfplay", &err);
            goto cleanup;
        }
    }
    for (int i = 0; i < nsets; i++) {
        char kv[256];
        snprintf(kv, sizeof kv, "%s", sets[i]);
        char *eq = strchr(kv, '=');
        if (!eq) {
            status = cli_error(EXIT_USAGE, "selfplay", "--set expects KEY=VALUE, not '%s'", sets[i]);
            goto cleanup;
        }
        *eq = '\0';
        if (params_set(&params, kv, eq + 1, &err) < 0) {
            status = cli_error(EXIT_USAGE, "selfplay", "--set %s: %s", sets[i], err.message);
            goto cleanup;
        }
    }
    if (playouts > 0)
        params.playouts = (int)playouts;

    v = cli_load_variant(variant_arg);
    if (!v) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    if (fen) {
        Position *check = malloc(sizeof *check);
        int frc = check ? pos_set_fen(check, v, fen, &err) : -1;
        free(check);
        if (frc < 0) {
            status = cli_error(EXIT_USAGE, "selfplay", "bad --fen: %s", check ? err.message : "out of memory");
            goto cleanup;
        }
    }
    if (!weights)
        weights = cli_config_path("weights", v->name, path, sizeof path);
    e = eval_create(v, weights, &err);
    if (!e) {
        status = cli_report("selfplay", &err);
        goto cleanup;
    }
    weights_text = weights ? read_text(weights) : NULL;
    if (!no_output && !out) {
        snprintf(default_out, sizeof default_out, "%s-selfplay.h5", v->name);
        out = default_out;
    }
    if (out && !resume && access(out, F_OK) == 0) {
        status = cli_error(EXIT_FAILURE_RUN, "selfplay", "%s already exists: choose another -o "
                           "or remove it (nothing was overwritten)", out);
        goto cleanup;
    }

    char command_line[2048] = "";
    size_t used = 0;
    for (int i = 0; i < argc && used < sizeof command_line - 1; i++)
        used += (size_t)snprintf(command_line + used, sizeof command_line - used, "%s%s",
                                 i ? " " : "xqlab ", argv[i]);

    SelfplayOptions o = SELFPLAY_OPTIONS_INIT;
    o.variant = v;
    o.start_fen = fen;
    o.eval = e;
    o.params = &params;
    o.seed = seed;
    o.games = (uint64_t)games;
    o.threads = (int)threads;
    o.out_path = out;
    o.resume = resume;
    o.weights_text = weights_text ? weights_text : "";
    o.command_line = command_line;
    o.log_interval = log_interval;
    o.flush_games = (int)flush_games;
    o.stop = &stop_requested;
    if (!progress)
        o.progress = isatty(STDERR_FILENO) ? PROGRESS_LIVE : PROGRESS_LOG;
    else
        o.progress = !strcmp(progress, "live") ? PROGRESS_LIVE
                     : !strcmp(progress, "log") ? PROGRESS_LOG : PROGRESS_QUIET;

    atomic_store(&stop_requested, false);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    SelfplayReport report;
    int rc = selfplay_run(&o, &totals, &report, &err);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (rc < 0) {
        status = cli_report("selfplay", &err);
        goto cleanup;
    }
    if (report.interrupted) {
        fprintf(stderr, "xqlab selfplay: interrupted after %llu of %ld games; the finished games "
                "are in %s.tmp: run the same command with --resume to complete it\n",
                (unsigned long long)(report.resumed_games + report.played), games,
                out ? out : "(no output)");
        status = 130;
    } else if (report.resumed_games > 0 && out) {
        totals_free(&totals);
        if (totals_from_file(out, &totals, &err) < 0) {
            status = cli_report("selfplay", &err);
            goto cleanup;
        }
    }
    double rate = report.wall_seconds > 0 ? (double)report.played / report.wall_seconds : 0;
    if (json) {
        totals_print_json(&totals, stdout);
    } else {
        printf("xqlab selfplay: %s, %llu games played in %.1f s (%.2f games/s, %d playouts/move)%s\n",
               v->name, (unsigned long long)report.played, report.wall_seconds, rate,
               params.playouts, report.resumed_games ? ", resumed run" : "");
        totals_print(&totals, stdout);
        if (out && !report.interrupted)
            printf("dataset      %s\n", out);
    }
cleanup:
    totals_free(&totals);
    free(weights_text);
    eval_free(e);
    variant_free(v);
    return status;
}
