/* cmd_selfplay.c - `xqlab selfplay`: a batch of self-play games into an HDF5 dataset, with
 * progress, a balance summary, clean interruption and --resume. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "driver.h"
#include "search_options.h"
#include "merge.h"
#include "weights.h"
#include "output.h"
#ifdef XQLAB_WITH_MPI
#include "selfplay_mpi.h"
#endif

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
        "      --movetime MS    milliseconds per move instead of a playout budget: a timed\n"
        "                       run (recorded as movetime in the dataset; its games depend on\n"
        "                       the machine's speed, so they do not replay move for move)\n"
        "      --seed S         base seed (default 1)\n"
        "      --fen FEN        start every game from this position (default: the variant's)\n"
        "      --openings FILE  opening book: games 2k and 2k+1 start from opening k (cycling\n"
        "                       through the book); a line is moves from the start, a FEN, or\n"
        "                       FEN moves ...; the moves are part of the games (unsearched)\n"
        "      --preset NAME    run preset: quick, standard, strong, ab, or a file (configs/runs)\n"
        "      --weights FILE   evaluation weights; default: the nearest shipped file, the\n"
        "                       one naming most of the rule set's features (docs/cli.md);\n"
        "                       'none': piece values only\n"
        "      --set KEY=VALUE  any search parameter (see docs/cli.md), repeatable\n"
        "      --resume         continue an interrupted run from FILE.tmp\n"
        "      --resume-if-present  resume FILE.tmp if it exists, report FILE complete if it\n"
        "                       exists (exit 0), else start: for requeued batch jobs\n"
        "      --force          replace an existing FILE, or discard the interrupted run in\n"
        "                       FILE.tmp, and start again\n"
        "      --shard I/N      play only shard I (0-based) of N of the -n games: game indices\n"
        "                       floor(I*n/N) .. floor((I+1)*n/N)-1, seeded as in one big run;\n"
        "                       join the shards with xqlab merge (docs/cluster.md)\n"
        "      --progress MODE  live (terminal line), log (a line every --log-interval s),\n"
        "                       quiet; default: live on a terminal, log otherwise\n"
        "      --log-interval S seconds between progress lines in log mode (default 30)\n"
        "      --flush-games N  flush the file at least every N games (default 64; also every\n"
        "                       2 s): a killed run loses at most the games since the last flush\n"
        "      --paired-deals   hidden-piece rule sets: games 2k and 2k+1 share a deal, the\n"
        "                       second with the seats swapped (board turned, colours\n"
        "                       exchanged), to cancel the luck of the deal\n"
        "      --json           print the summary as JSON on stdout\n\n"
        "SIGINT / SIGTERM / SIGUSR1 (Slurm's warning before the time limit): no new game\n"
        "starts, games in flight finish and are written, the file stays as FILE.tmp; run the\n"
        "same command with --resume to complete it. A second SIGINT ends the process at\n"
        "once; a second SIGTERM / SIGUSR1 (scancel and a batch script both send one) does\n"
        "not. Exit status: 0 done, 1 error, 2 bad usage, 130 interrupted.\n"
#ifdef XQLAB_WITH_MPI
        "\nUnder mpirun each rank plays shard RANK/SIZE into OUT.shard-RRRR-of-SSSS.h5; rank 0\n"
        "shows the progress and summary of all ranks and writes OUT.h5 as a virtual-dataset\n"
        "index over the shards (docs/cluster.md).\n"
#endif
        );
}

/* The summary as one JSON object: what was run (variant, settings, weights, seed, start, dataset
 * path) and then the totals of totals_print_json. */
static void print_json(const RunTotals *totals, const Variant *v, const SearchParams *params, const char *weights,
                       uint64_t seed, const char *fen, const char *openings, const char *dataset,
                       const SelfplayReport *report)
{
    char *body = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&body, &len);
    if (!mem)
        return;
    totals_print_json(totals, v, NULL, mem);
    fclose(mem);
    printf("{\"kind\": \"selfplay\", \"variant\": ");
    json_string(stdout, v->name);
    printf(", \"dataset\": ");
    if (dataset)
        json_string(stdout, dataset);
    else
        printf("null");
    printf(", \"seed\": %llu, \"fen\": ", (unsigned long long)seed);
    if (fen)
        json_string(stdout, fen);
    else
        printf("null");
    printf(", \"openings\": ");
    if (openings)
        json_string(stdout, openings);
    else
        printf("null");
    printf(", \"weights\": ");
    json_string(stdout, weights);
    printf(", \"played\": %llu, \"resumed_games\": %llu, \"wall_seconds\": %.3f, \"timed\": %s, "
           "\"searches\": %llu, \"playouts\": %llu, \"settings\": {",
           (unsigned long long)report->played, (unsigned long long)report->resumed_games, report->wall_seconds,
           params->movetime > 0 ? "true" : "false", (unsigned long long)report->searches,
           (unsigned long long)report->playouts);
    for (int i = 0; i < params_count(); i++) {
        char value[64];
        ParamRange range;
        params_format(params, i, value, sizeof value);
        printf("%s\"%s\": ", i ? ", " : "", params_name(i));
        if (params_range(i, &range) == 0 && range.type == PARAM_BOOL)
            printf("%s", strcmp(value, "0") && strcmp(value, "false") ? "true" : "false");
        else if (range.type == PARAM_CHOICE)
            printf("\"%s\"", value);
        else
            printf("%s", value);
    }
    printf("}, %s", body && body[0] == '{' ? body + 1 : "}\n");
    free(body);
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
    const char *progress = NULL, *fen = NULL, *openings = NULL;
    long games = 100, threads = 0, playouts = -1, movetime = -1;
    uint64_t seed = 1;
    double log_interval = 30;
    long flush_games = 64;
    bool no_output = false, resume = false, json = false, resume_if_present = false;
    bool paired_deals = false, force = false;
    long shard_index = -1, shard_count = 0;
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
        } else if (!strcmp(a, "--movetime") && has) {
            if (cli_parse_int("selfplay", "--movetime", argv[++i], 1, 86400000, &movetime) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--seed") && has) {
            if (cli_parse_u64("selfplay", "--seed", argv[++i], &seed) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--fen") && has) {
            fen = argv[++i];
        } else if (!strcmp(a, "--openings") && has) {
            openings = argv[++i];
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
        } else if (!strcmp(a, "--resume-if-present")) {
            resume_if_present = true;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (!strcmp(a, "--shard") && has) {
            const char *spec = argv[++i], *slash = strchr(spec, '/');
            char left[32];
            if (!slash || (size_t)(slash - spec) >= sizeof left)
                return cli_error(EXIT_USAGE, "selfplay", "--shard expects I/N (shard I of N, 0 <= I < N), not '%s'", spec);
            snprintf(left, sizeof left, "%.*s", (int)(slash - spec), spec);
            if (cli_parse_int("selfplay", "--shard count", slash + 1, 1, 1000000, &shard_count) < 0 ||
                cli_parse_int("selfplay", "--shard index", left, 0, 999999, &shard_index) < 0)
                return EXIT_USAGE;
            if (shard_index >= shard_count)
                return cli_error(EXIT_USAGE, "selfplay", "--shard %s: the index must be below the count (0-based)", spec);
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
        } else if (!strcmp(a, "--paired-deals")) {
            paired_deals = true;
        } else {
            return cli_bad_option("selfplay", a, usage);
        }
    }
    if (!variant_arg)
        return cli_error(EXIT_USAGE, "selfplay", "needs -v VARIANT (xqlab variants lists them)");
    if (no_output && (out || resume || resume_if_present))
        return cli_error(EXIT_USAGE, "selfplay", "--no-output cannot be combined with -o or --resume");
    if (resume && resume_if_present)
        return cli_error(EXIT_USAGE, "selfplay", "--resume and --resume-if-present exclude each other");
    if (fen && openings)
        return cli_error(EXIT_USAGE, "selfplay", "--fen and --openings exclude each other");
    if (force && (resume || resume_if_present))
        return cli_error(EXIT_USAGE, "selfplay", "--force starts the run again: it cannot be combined with --resume");
    if (force && no_output)
        return cli_error(EXIT_USAGE, "selfplay", "--force replaces the output: it cannot be combined with --no-output");
    uint64_t first_game = 0, shard_games = (uint64_t)games;
    if (shard_count > 0) {
        merge_shard_range((uint64_t)games, (int)shard_index, (int)shard_count, &first_game, &shard_games);
        if (shard_games == 0)
            return cli_error(EXIT_USAGE, "selfplay", "--shard %ld/%ld of %ld games is empty: use at most %ld shards",
                             shard_index, shard_count, games, games);
    }
#ifdef XQLAB_WITH_MPI
    /* Under mpirun every rank is a shard and -o names the index rank 0 writes over them. */
    SelfplayMpi mpi;
    if (selfplay_mpi_begin(&mpi) < 0)
        return cli_error(EXIT_FAILURE_RUN, "selfplay", "MPI initialisation failed");
    if (mpi.active) {
        if (shard_count > 0 || no_output) {
            selfplay_mpi_end(&mpi, EXIT_USAGE);
            return cli_error(EXIT_USAGE, "selfplay", "under mpirun each rank is a shard: --shard and --no-output do not apply");
        }
        if ((uint64_t)games < (uint64_t)mpi.size) {
            selfplay_mpi_end(&mpi, EXIT_USAGE);
            return cli_error(EXIT_USAGE, "selfplay", "%ld games cannot be split over %d ranks", games, mpi.size);
        }
        shard_index = mpi.rank;
        shard_count = mpi.size;
        merge_shard_range((uint64_t)games, mpi.rank, mpi.size, &first_game, &shard_games);
    }
#endif

    int status = EXIT_OK;
    Variant *v = NULL;
    Book book = {0};
    Evaluator *e = NULL;
    char *weights_text = NULL;
    RunTotals totals = {0};
    bool already_complete = false;
    CliOutput output = CLI_OUTPUT_INIT;
#ifdef XQLAB_WITH_MPI
    CliOutput index_output = CLI_OUTPUT_INIT;
#endif
    char default_out[512];
    XqError err;

    SearchParams params;
    params_default(&params);
    if ((preset && (status = cli_load_preset("selfplay", preset, &params)) != EXIT_OK) ||
        (status = cli_apply_sets("selfplay", sets, nsets, &params)) != EXIT_OK)
        goto cleanup;
    if (playouts > 0 && movetime > 0) {
        status = cli_error(EXIT_USAGE, "selfplay", "--playouts and --movetime are alternatives: "
                           "give one budget per move");
        goto cleanup;
    }
    if (playouts > 0) {
        params.playouts = (int)playouts;
        params.movetime = 0;
    }
    if (movetime > 0)
        params.movetime = (int)movetime;

    v = cli_load_variant(variant_arg);
    if (!v) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    if (paired_deals && !hidden_on(v)) {
        status = cli_error(EXIT_USAGE, "selfplay", "--paired-deals needs a rule set with face-down "
                           "pieces (jieqi, jieqi-folk, banqi, banqi-hp), not %s", v->name);
        goto cleanup;
    }
    if (openings && book_load(&book, v, openings, &err) < 0) {
        status = cli_report("selfplay", &err);
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
    WeightsChoice wchoice;
    e = cli_weights_load("selfplay", v, weights, cli_weights_use(&params), &wchoice);
    if (!e || !(weights_text = cli_weights_text("selfplay", &wchoice))) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    char weights_line[1024];
    weights_describe(&wchoice, e, weights_line, sizeof weights_line);
    if (!no_output && !out) {
        snprintf(default_out, sizeof default_out, "%s-selfplay.h5", v->name);
        out = default_out;
    }
    /* Files this run reads are never its output. */
    const char *inputs[4];
    int ninputs = 0;
    if (wchoice.path[0])
        inputs[ninputs++] = wchoice.path;
    if (strchr(variant_arg, '/') || strstr(variant_arg, ".ini"))
        inputs[ninputs++] = variant_arg;
    if (preset && (strchr(preset, '/') || strstr(preset, ".ini")))
        inputs[ninputs++] = preset;
    if (openings)
        inputs[ninputs++] = openings;
    unsigned flags = CLI_OUTPUT_KEEP_TMP | (force ? CLI_OUTPUT_FORCE : 0) |
                     (resume || resume_if_present ? CLI_OUTPUT_EXISTING : 0);
#ifdef XQLAB_WITH_MPI
    char index_out[1024] = "", shard_out[1100];
    if (mpi.active) {
        snprintf(index_out, sizeof index_out, "%s", out);
        if (merge_shard_path(out, mpi.rank, mpi.size, shard_out, sizeof shard_out) < 0) {
            status = cli_error(EXIT_USAGE, "selfplay", "output name too long: %s", out);
            goto cleanup;
        }
        out = shard_out;
        /* Rank 0 writes the index over the shards at the end (again after a resumed run). */
        if (mpi.rank == 0 &&
            (status = cli_output_claim(&index_output, "selfplay", "-o", index_out, flags & ~CLI_OUTPUT_KEEP_TMP,
                                       inputs, ninputs)) != EXIT_OK)
            goto cleanup;
    }
#endif
    char command_line[2048];
    cli_command_line(argc, argv, command_line, sizeof command_line);

    SelfplayOptions o = SELFPLAY_OPTIONS_INIT;
    o.variant = v;
    o.start_fen = fen;
    o.book = openings ? &book : NULL;
    o.eval = e;
    o.params = &params;
    o.seed = seed;
    o.first_game = first_game;
    o.games = shard_games;
    o.run_games = (uint64_t)games;
    o.shard_index = shard_count > 0 ? (int)shard_index : 0;
    o.shard_count = shard_count > 0 ? (int)shard_count : 1;
    o.threads = (int)threads;
    o.out_path = out;
    o.weights_text = weights_text ? weights_text : "";
    o.command_line = command_line;
    o.log_interval = log_interval;
    o.flush_games = (int)flush_games;
    o.stop = cli_stop_flag();
    o.paired_deals = paired_deals;
    if (!progress)
        o.progress = isatty(STDERR_FILENO) ? PROGRESS_LIVE : PROGRESS_LOG;
    else
        o.progress = !strcmp(progress, "live") ? PROGRESS_LIVE
                     : !strcmp(progress, "log") ? PROGRESS_LOG : PROGRESS_QUIET;

    /* The lock comes before anything looks at or touches OUT.tmp (cli/output.h). */
    if (out && (status = cli_output_claim(&output, "selfplay", "-o", out, flags, inputs, ninputs)) != EXIT_OK)
        goto cleanup;
    struct stat tmp_stat;
    bool have_tmp = out && lstat(output.tmp, &tmp_stat) == 0;
    if (out && (resume || resume_if_present) && output.exists) {
        /* A finished file is this run's result only if this run wrote it (never another seed,
         * variant, shard, ... reported "already complete"). */
        char params_text[SELFPLAY_PARAMS_MAX], start_text[SELFPLAY_START_MAX];
        DatasetMeta meta;
        selfplay_meta(&o, &meta, params_text, start_text);
        if (dsw_check_finished(out, &meta, &err) < 0) {
            status = cli_error(EXIT_FAILURE_RUN, "selfplay", "%s: %s; choose another -o (nothing was touched)",
                               err.file, err.message);
            goto cleanup;
        }
    }
    if (out && (resume || resume_if_present) && output.exists && dsw_finished(out)) {
        /* Finished, maybe killed between the final rename and the clean-up (whose leftovers
         * dsw_finished removed): nothing to resume, the run is complete. */
        already_complete = true;
        resume = false;
    } else if (out && resume_if_present) {
        /* A requeued batch job runs the same command again: finish what is there. */
        resume = have_tmp;
    }
    if (out && !resume && !already_complete && have_tmp && !force) {
        status = cli_error(EXIT_FAILURE_RUN, "selfplay", "%s: holds an interrupted run: run the same command with "
                           "--resume to complete it, or add --force to discard it and start again (nothing was "
                           "touched)", output.tmp);
        goto cleanup;
    }
    if (out && !resume && !already_complete && have_tmp)
        fprintf(stderr, "xqlab selfplay: warning: %s: discarding the interrupted run it holds (--force)\n",
                output.tmp);
    o.resume = resume;

#ifdef XQLAB_WITH_MPI
    /* All ranks run, or none does (a rank that failed above has already said why). */
    if (selfplay_mpi_agree(&mpi, EXIT_OK) != EXIT_OK) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
#endif
    SelfplayReport report;
    memset(&report, 0, sizeof report);
    int rc = 0;
#ifdef XQLAB_WITH_MPI
    bool mpi_active = mpi.active;
#else
    bool mpi_active = false;
#endif
    if (already_complete)
        fprintf(stderr, "xqlab selfplay: %s is already complete; nothing to play\n", out);
    if (!already_complete || mpi_active) {
        cli_stop_signals_catch();
#ifdef XQLAB_WITH_MPI
        if (mpi.active)
            rc = selfplay_mpi_run(&mpi, &o, (uint64_t)games, already_complete, index_out, command_line,
                                  totals_from_file, &totals, &report, &err);
        else
#endif
            rc = selfplay_run(&o, &totals, &report, &err);
        cli_stop_signals_release();
    }
    if (rc < 0) {
        status = cli_report("selfplay", &err);
        goto cleanup;
    }
#ifdef XQLAB_WITH_MPI
    bool print_summary = !mpi.active || mpi.rank == 0;
#else
    bool print_summary = true;
#endif
    if (report.interrupted) {
#ifdef XQLAB_WITH_MPI
        if (mpi.active) {
            /* Each rank speaks of its own shard; rank 0 also of the whole run. */
            if (mpi.shard_interrupted)
                fprintf(stderr, "xqlab selfplay: rank %d of %d: interrupted after %llu of the %llu games of its "
                        "shard; they are in %s.tmp\n", mpi.rank, mpi.size, (unsigned long long)mpi.shard_done,
                        (unsigned long long)mpi.shard_games, out);
            else
                fprintf(stderr, "xqlab selfplay: rank %d of %d: its shard %s is complete (%llu games); another "
                        "rank was interrupted\n", mpi.rank, mpi.size, out, (unsigned long long)mpi.shard_games);
            if (mpi.rank == 0)
                fprintf(stderr, "xqlab selfplay: interrupted after %llu of %llu games of the run (%d ranks); the "
                        "shards are kept: run the same command with the same number of ranks and --resume to "
                        "complete it\n", (unsigned long long)mpi.run_done, (unsigned long long)mpi.run_games,
                        mpi.size);
        } else
#endif
        fprintf(stderr, "xqlab selfplay: interrupted after %llu of %llu games; the finished games "
                "are in %s.tmp: run the same command with --resume to complete it\n",
                (unsigned long long)(report.resumed_games + report.played), (unsigned long long)o.games,
                out ? out : "(no output)");
        status = 130;
        print_summary = false;
    } else if ((report.resumed_games > 0 || already_complete) && out
#ifdef XQLAB_WITH_MPI
               && !mpi.active
#endif
    ) {
        totals_free(&totals);
        if (totals_from_file(out, &totals, &err) < 0) {
            status = cli_report("selfplay", &err);
            goto cleanup;
        }
    }
    cli_warn_arena("selfplay", NULL, report.truncated_searches, params.arena_nodes,
                   "--set arena_nodes=N");
    double rate = report.wall_seconds > 0 ? (double)report.played / report.wall_seconds : 0;
    if (print_summary && json) {
        const char *dataset = out;
#ifdef XQLAB_WITH_MPI
        if (mpi.active)
            dataset = index_out;
#endif
        print_json(&totals, v, &params, weights_line, seed, fen, openings, report.interrupted ? NULL : dataset,
                   &report);
    } else if (print_summary) {
        char budget[96];
        bool ab = params.search == SEARCH_AB;
        if (params.movetime > 0)
            snprintf(budget, sizeof budget, "%s%d ms/move, timed: %.0f %s/move on average",
                     ab ? "alpha-beta, " : "", params.movetime,
                     report.searches ? (double)report.playouts / (double)report.searches : 0.0,
                     ab ? "positions" : "playouts");
        else if (ab)
            snprintf(budget, sizeof budget, "alpha-beta, depth %d/move", params.ab_depth);
        else
            snprintf(budget, sizeof budget, "%d playouts/move", params.playouts);
        printf("xqlab selfplay: %s, %llu games played in %.1f s (%.2f games/s, %s)%s\n",
               v->name, (unsigned long long)report.played, report.wall_seconds, rate, budget,
               report.resumed_games ? ", resumed run" : "");
        totals_print(&totals, v, weights_line, stdout);
#ifdef XQLAB_WITH_MPI
        if (mpi.active)
            printf("dataset      %s (index over %d shards)\n", index_out, mpi.size);
        else
#endif
        if (out && !report.interrupted)
            printf("dataset      %s\n", out);
    }
cleanup:
    cli_output_release(&output);
#ifdef XQLAB_WITH_MPI
    cli_output_release(&index_output);
    status = selfplay_mpi_end(&mpi, status);
#endif
    totals_free(&totals);
    free(weights_text);
    eval_free(e);
    book_free(&book);
    variant_free(v);
    return status;
}
