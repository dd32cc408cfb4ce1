/* bench_tune.c - `xqlab bench tune`: the tuner's speed on real data (feature extraction, BFGS
 * fit, Hessian) and a check that its sums do not depend on the thread count. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bad_option.h"
#include "common.h"
#include "dataset.h"
#include "tune.h"
#include "weights.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab bench tune DATA.h5... [--positions N] [-t T]\n\n"
        "Reads games from the datasets until N positions (default 1000000, every position\n"
        "kept) are loaded, extracts their features, fits the weights as `xqlab tune` does\n"
        "(validation 10%%, patience 10) and prints the time of each phase, positions per\n"
        "second and BFGS iterations. Then evaluates the loss and gradient at the fitted\n"
        "weights with 1 thread and with T threads and checks they are bit-identical.\n"
        "The signature (rows, iterations, final training loss) repeats for the same data.\n");
}

int bench_tune(int argc, char **argv)
{
    const char *files[256];
    int nfiles = 0;
    uint64_t positions = 1000000;
    long threads = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "--positions") && i + 1 < argc) {
            if (cli_parse_u64("bench tune", "--positions", argv[++i], &positions) < 0)
                return EXIT_USAGE;
        } else if ((!strcmp(argv[i], "-t") || !strcmp(argv[i], "--threads")) && i + 1 < argc) {
            if (cli_parse_int("bench tune", "--threads", argv[++i], 1, 1024, &threads) < 0)
                return EXIT_USAGE;
        } else if (argv[i][0] == '-') {
            return cli_bad_option("bench tune", argv[i], usage);
        } else if (nfiles == 256) {
            return cli_error(EXIT_USAGE, "bench tune", "more than 256 dataset files");
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if (nfiles == 0) {
        usage(stderr);
        return cli_error(EXIT_USAGE, "bench tune", "needs a dataset (e.g. from xqlab selfplay)");
    }
    XqError err;
    DatasetReader *rd = dsr_open(files[0], &err);
    if (!rd)
        return cli_report("bench tune", &err);
    Variant *v = variant_load_text(dsr_summary(rd)->variant_text, files[0], &err);
    dsr_close(rd);
    if (!v)
        return cli_report("bench tune", &err);
    WeightsChoice wchoice;
    Evaluator *e = cli_weights_load("bench tune", v, NULL, WEIGHTS_FOR_DEFAULT, &wchoice);
    if (!e) {
        variant_free(v);
        return EXIT_FAILURE_RUN;
    }
    TuneOptions o = TUNE_OPTIONS_INIT;
    o.max_positions = positions;
    o.all_positions = true;
    /* Explicit counts: omp_set_num_threads(1) for the 1-thread pass would otherwise stick. */
    int nthreads = threads > 0 ? (int)threads : omp_get_max_threads();
    o.threads = nthreads;
    TuneData d;
    TuneResult r;
    memset(&r, 0, sizeof r);
    int status = EXIT_FAILURE_RUN;
    int nf = eval_feature_count(e);
    double *w0 = malloc((size_t)nf * sizeof *w0), *g1 = malloc((size_t)nf * sizeof *g1);
    double *gt = malloc((size_t)nf * sizeof *gt);
    if (!w0 || !g1 || !gt) {
        cli_error(EXIT_FAILURE_RUN, "bench tune", "out of memory");
        goto cleanup_noload;
    }
    for (int i = 0; i < nf; i++)
        w0[i] = eval_weight(e, i);
    double t0 = cli_now();
    if (tune_load(&d, e, v, files, nfiles, &o, &err) != 0) {
        status = cli_report("bench tune", &err);
        goto cleanup_noload;
    }
    double t1 = cli_now();
    if (tune_fit(&d, &o, w0, &r, &err) != 0) {
        status = cli_report("bench tune", &err);
        goto cleanup;
    }
    double t2 = cli_now();
    TuneOptions one = o;
    one.threads = 1;
    double l1 = tune_objective(&d, &one, r.w, 0, d.ntrain, true, g1);
    double t3 = cli_now();
    double lt = tune_objective(&d, &o, r.w, 0, d.ntrain, true, gt);
    double t4 = cli_now();
    bool same = memcmp(&l1, &lt, sizeof l1) == 0 && memcmp(g1, gt, (size_t)nf * sizeof *g1) == 0;
    printf("bench tune: %s, %llu games, %llu positions (%llu train), %d features, %d threads\n",
           v->name, (unsigned long long)d.ngames, (unsigned long long)d.nrows,
           (unsigned long long)d.ntrain, nf, nthreads);
    printf("  load + replay + features  %7.2f s  %9.0f positions/s\n", t1 - t0, (double)d.nrows / (t1 - t0));
    printf("  BFGS fit + Hessian        %7.2f s  %d iterations (best %d, %s)\n", t2 - t1,
           r.iterations, r.best_iteration, r.stop_reason);
    printf("  one loss + gradient pass  %7.4f s (1 thread)  %7.4f s (%d threads)\n", t3 - t2,
           t4 - t3, nthreads);
    printf("  total                     %7.2f s\n", t2 - t0);
    printf("  thread-count determinism  %s\n", same ? "bit-identical" : "DIFFERENT");
    printf("signature: rows %llu iterations %d train_loss %.9f\n", (unsigned long long)d.nrows,
           r.iterations, r.train_loss);
    status = same ? EXIT_OK : EXIT_FAILURE_RUN;
cleanup:
    tune_result_free(&r);
    tune_data_free(&d);
cleanup_noload:
    free(w0);
    free(g1);
    free(gt);
    eval_free(e);
    variant_free(v);
    return status;
}
