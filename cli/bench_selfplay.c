/* bench_selfplay.c - `xqlab bench selfplay`: fixed self-play workload measuring playouts per
 * second per thread, games per hour per core, thread scaling, dataset cost and size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "bad_option.h"
#include "common.h"
#include "driver.h"
#include "search_options.h"

typedef struct BenchRun {
    double wall, write_seconds, playouts_per_thread_second, games_per_hour_per_core;
    uint64_t plies, playouts, positions;
    double bytes_per_position;
} BenchRun;

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, compare_doubles);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* Peak resident set of the process so far, in MiB (Linux reports ru_maxrss in KiB). */
static double peak_rss_mib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss / 1024.0 : 0.0;
}

static int run_once(const Variant *v, const Evaluator *e, const SearchParams *p, long games,
                    int threads, const char *out, BenchRun *r)
{
    SelfplayOptions o = SELFPLAY_OPTIONS_INIT;
    o.variant = v;
    o.eval = e;
    o.params = p;
    o.seed = 20261130;
    o.games = (uint64_t)games;
    o.threads = threads;
    o.out_path = out;
    o.progress = PROGRESS_QUIET;
    o.command_line = "xqlab bench selfplay";
    RunTotals t = {0};
    SelfplayReport rep;
    XqError err;
    if (out)
        unlink(out);
    int rc = selfplay_run(&o, &t, &rep, &err);
    if (rc < 0) {
        totals_free(&t);
        return cli_report("bench selfplay", &err);
    }
    memset(r, 0, sizeof *r);
    r->wall = rep.wall_seconds;
    r->write_seconds = rep.write_seconds;
    r->plies = t.plies_sum;
    r->positions = t.positions;
    r->playouts = rep.playouts;
    /* Thread time spent in games, so the per-thread rate does not depend on the thread count. */
    r->playouts_per_thread_second = t.game_seconds > 0 ? (double)rep.playouts / t.game_seconds : 0;
    r->games_per_hour_per_core = rep.wall_seconds > 0
                                     ? (double)games / rep.wall_seconds * 3600.0 / threads : 0;
    if (out) {
        struct stat st;
        if (stat(out, &st) == 0 && t.positions)
            r->bytes_per_position = (double)st.st_size / (double)t.positions;
        unlink(out);
    }
    totals_free(&t);
    return 0;
}

static const char HELP[] =
    "usage: xqlab bench selfplay [--games N] [--playouts P] [--repeat R] [--preset NAME]\n"
    "                            [--set KEY=VALUE]... [--weights FILE]\n\n"
    "Standard xiangqi self-play (seed fixed): N games (default 40) on 1 thread and\n"
    "on 2 threads, each R times (default 3), with the default settings or those of\n"
    "--preset (a shipped name or a file) and --set (any search parameter, applied\n"
    "after the preset; --playouts P is --set playouts=P, default 200), weights\n"
    "configs/weights/xiangqi.ini or --weights FILE. Prints medians of playouts per\n"
    "second per thread, games per hour per core, the 2-thread speed-up, the share of\n"
    "wall time spent writing the dataset, bytes per stored position, and a signature\n"
    "(plies and playouts, identical for any thread count).\n";

int bench_selfplay(int argc, char **argv)
{
    long games = 40, playouts = 0, repeat = 3;
    const char *preset = NULL, *weights = NULL;
    const char **sets = calloc((size_t)argc, sizeof *sets);
    int nsets = 0;
    if (!sets)
        return cli_error(EXIT_FAILURE_RUN, "bench selfplay", "out of memory");
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(HELP, stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "--games") && i + 1 < argc) {
            if (cli_parse_int("bench selfplay", "--games", argv[++i], 2, 100000, &games) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(argv[i], "--playouts") && i + 1 < argc) {
            if (cli_parse_int("bench selfplay", "--playouts", argv[++i], 1, 100000, &playouts) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            if (cli_parse_int("bench selfplay", "--repeat", argv[++i], 1, 50, &repeat) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(argv[i], "--preset") && i + 1 < argc) {
            preset = argv[++i];
        } else if (!strcmp(argv[i], "--set") && i + 1 < argc) {
            sets[nsets++] = argv[++i];
        } else if (!strcmp(argv[i], "--weights") && i + 1 < argc) {
            weights = argv[++i];
        } else {
            free(sets);
            return cli_bad_option_text("bench selfplay", argv[i], HELP);
        }
    }
    SearchParams p;
    params_default(&p);
    int rc = preset ? cli_load_preset("bench selfplay", preset, &p) : EXIT_OK;
    if (rc == EXIT_OK)
        rc = cli_apply_sets("bench selfplay", sets, nsets, &p);
    free(sets);
    if (rc != EXIT_OK)
        return rc;
    if (playouts > 0)
        p.playouts = (int)playouts;
    if (p.movetime > 0)
        return cli_error(EXIT_USAGE, "bench selfplay", "movetime: the benchmark needs a playout "
                         "budget (its games must be the same on 1 and 2 threads)");
    int status = EXIT_OK;
    XqError err;
    char wpath[1024], out[256];
    Variant *v = cli_load_variant("xiangqi");
    Evaluator *e = NULL;
    double *pps = calloc((size_t)repeat, sizeof(double)), *gph1 = calloc((size_t)repeat, sizeof(double));
    double *gph2 = calloc((size_t)repeat, sizeof(double)), *speedup = calloc((size_t)repeat, sizeof(double));
    double *wshare = calloc((size_t)repeat, sizeof(double)), *bpp = calloc((size_t)repeat, sizeof(double));
    if (!v || !pps || !gph1 || !gph2 || !speedup || !wshare || !bpp) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    e = eval_create(v, weights ? weights : cli_config_path("weights", "xiangqi", wpath, sizeof wpath),
                    &err);
    if (!e) {
        status = cli_report("bench selfplay", &err);
        goto cleanup;
    }
    snprintf(out, sizeof out, "/tmp/xqlab-bench-%ld.h5", (long)getpid());
    uint64_t signature_plies = 0, signature_playouts = 0;
    /* Peak memory: the 1-thread run's peak over the start-up's is one thread's arena, buffers and
     * the writer; the 2-thread run adds a second worker (peaks only grow, so run it second). */
    double rss_start = peak_rss_mib(), rss_one = 0, rss_two = 0;
    for (long r = 0; r < repeat; r++) {
        BenchRun one, two;
        if (run_once(v, e, &p, games, 1, out, &one) != 0) {
            status = EXIT_FAILURE_RUN;
            goto cleanup;
        }
        if (r == 0)
            rss_one = peak_rss_mib();
        if (run_once(v, e, &p, games, 2, out, &two) != 0) {
            status = EXIT_FAILURE_RUN;
            goto cleanup;
        }
        if (r == 0)
            rss_two = peak_rss_mib();
        if (one.plies != two.plies || one.playouts != two.playouts) {
            status = cli_error(EXIT_FAILURE_RUN, "bench selfplay", "1 and 2 threads played "
                               "different games (%llu vs %llu plies): determinism is broken",
                               (unsigned long long)one.plies, (unsigned long long)two.plies);
            goto cleanup;
        }
        signature_plies = one.plies;
        signature_playouts = one.playouts;
        pps[r] = one.playouts_per_thread_second;
        gph1[r] = one.games_per_hour_per_core;
        gph2[r] = two.games_per_hour_per_core;
        speedup[r] = one.wall / two.wall;
        wshare[r] = 100.0 * two.write_seconds / two.wall;
        bpp[r] = two.bytes_per_position;
        fprintf(stderr, "run %ld: 1 thread %.1f s, 2 threads %.1f s\n", r + 1, one.wall, two.wall);
    }
    char budget[64];
    if (p.search == SEARCH_AB && p.movetime > 0)
        snprintf(budget, sizeof budget, "alpha-beta %d ms/move", p.movetime);
    else if (p.search == SEARCH_AB)
        snprintf(budget, sizeof budget, "alpha-beta depth %d/move", p.ab_depth);
    else if (p.movetime > 0)
        snprintf(budget, sizeof budget, "%d ms/move", p.movetime);
    else
        snprintf(budget, sizeof budget, "%d playouts/move", p.playouts);
    printf("bench selfplay: xiangqi, %ld games, %s, %ld runs (medians)%s%s\n", games, budget,
           repeat, preset ? ", preset " : "", preset ? preset : "");
    printf("playouts/s per thread      %.0f\n", median(pps, (int)repeat));
    printf("games/hour per core        %.0f (1 thread), %.0f (2 threads)\n", median(gph1, (int)repeat),
           median(gph2, (int)repeat));
    printf("speed-up 2 threads vs 1    %.2fx\n", median(speedup, (int)repeat));
    printf("dataset writing            %.2f%% of wall time (writer thread busy time)\n",
           median(wshare, (int)repeat));
    printf("bytes per stored position  %.1f (file size / positions; xqlab inspect splits it)\n",
           median(bpp, (int)repeat));
    printf("peak memory (ru_maxrss)    %.1f MiB process; per thread %.1f MiB (1 thread), %.1f MiB "
           "(2 threads: peak over start-up / 2); arena %.1f MiB per thread (arena_nodes = %d)\n",
           rss_two, rss_one - rss_start, (rss_two - rss_start) / 2.0,
           (double)p.arena_nodes * MCTS_NODE_BYTES / (1024.0 * 1024.0), p.arena_nodes);
    printf("signature                  %llu plies, %llu playouts\n",
           (unsigned long long)signature_plies, (unsigned long long)signature_playouts);
cleanup:
    free(pps);
    free(gph1);
    free(gph2);
    free(speedup);
    free(wshare);
    free(bpp);
    eval_free(e);
    variant_free(v);
    return status;
}
