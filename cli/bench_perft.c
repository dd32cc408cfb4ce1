/* bench_perft.c - `xqlab bench perft`: fixed move-generation workload, single thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bad_option.h"
#include "common.h"
#include "perft.h"

/* Standard xiangqi positions of shared/rules/perft.md with their published depth-5 counts. */
static const struct {
    const char *fen;
    uint64_t d4, d5;
} POSITIONS[] = {
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 3290240, 133312995},
    {"r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 1339047, 53112976},
    {"1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", 326201, 10369923},
    {"5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", 202884, 4739553},
    {"2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1", 799537, 30104131},
    {"1r1akabr1/1c7/2n1b1n2/p1p1p3p/6p2/PN3R3/1cP1P1P1P/2C1C1N2/1R7/2BAKAB2 b - - 0 1", 4127198, 175279148},
    {"2b1ka2r/3na2c1/4b3n/8R/8C/4C1P2/P1P1P3P/4B1N2/1r2A4/2BAK4 w - - 0 1", 2399258, 100522442},
    {"1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1", 4485547, 193684305},
    {"4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", 92741, 1452406},
};
enum { NPOSITIONS = sizeof POSITIONS / sizeof POSITIONS[0] };

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char HELP[] =
    "usage: xqlab bench perft [--depth 4|5] [--repeat N]\n\n"
    "Perft of the nine standard xiangqi positions of shared/rules/perft.md at the\n"
    "given depth (default 5), single thread, N times (default 3). Checks every count\n"
    "against the published one and prints leaves, the median time and million\n"
    "leaves per second (start position alone, and all positions).\n";

int bench_perft(int argc, char **argv)
{
    long depth = 5, repeat = 3;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(HELP, stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "--depth") && i + 1 < argc) {
            if (cli_parse_int("bench perft", "--depth", argv[++i], 4, 5, &depth) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            if (cli_parse_int("bench perft", "--repeat", argv[++i], 1, 100, &repeat) < 0)
                return EXIT_USAGE;
        } else {
            return cli_bad_option_text("bench perft", argv[i], HELP);
        }
    }
    Variant *v = cli_load_variant("xiangqi");
    Position *pos = malloc(sizeof *pos);
    double *start_times = calloc((size_t)repeat, sizeof(double));
    double *all_times = calloc((size_t)repeat, sizeof(double));
    int status = EXIT_OK;
    if (!v || !pos || !start_times || !all_times) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    uint64_t total = 0;
    for (long r = 0; r < repeat; r++) {
        total = 0;
        double all = 0;
        for (int i = 0; i < NPOSITIONS; i++) {
            XqError err;
            if (pos_set_fen(pos, v, POSITIONS[i].fen, &err) < 0) {
                status = cli_error(EXIT_FAILURE_RUN, "bench perft", "%s", err.message);
                goto cleanup;
            }
            double t0 = cli_now();
            uint64_t n = perft(pos, (int)depth);
            double t = cli_now() - t0;
            uint64_t expected = depth == 5 ? POSITIONS[i].d5 : POSITIONS[i].d4;
            if (n != expected) {
                status = cli_error(EXIT_FAILURE_RUN, "bench perft", "position %d: %llu leaves, "
                                   "published %llu", i + 1, (unsigned long long)n,
                                   (unsigned long long)expected);
                goto cleanup;
            }
            if (i == 0)
                start_times[r] = t;
            all += t;
            total += n;
        }
        all_times[r] = all;
    }
    qsort(start_times, (size_t)repeat, sizeof(double), compare_doubles);
    qsort(all_times, (size_t)repeat, sizeof(double), compare_doubles);
    double ts = start_times[repeat / 2], ta = all_times[repeat / 2];
    uint64_t start_leaves = depth == 5 ? POSITIONS[0].d5 : POSITIONS[0].d4;
    printf("bench perft: depth %ld, %d positions, %ld runs, all counts match perft.md\n", depth,
           NPOSITIONS, repeat);
    printf("start position: %llu leaves, median %.3f s, %.1f M leaves/s\n",
           (unsigned long long)start_leaves, ts, (double)start_leaves / ts / 1e6);
    printf("all positions:  %llu leaves, median %.3f s, %.1f M leaves/s\n",
           (unsigned long long)total, ta, (double)total / ta / 1e6);
    printf("signature: %llu\n", (unsigned long long)total);
cleanup:
    free(start_times);
    free(all_times);
    free(pos);
    variant_free(v);
    return status;
}
