/* cmd_bench.c - `xqlab bench WORKLOAD`: fixed workloads whose numbers are the project's speed
 * figures and whose counts are regression signatures. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "commands.h"
#include "bad_option.h"
#include "common.h"

static const Command WORKLOADS[] = {
    {"perft", "move generation: perft of the published positions", bench_perft},
    {"selfplay", "search and self-play: playouts/s, games/hour, scaling, dataset cost", bench_selfplay},
    {"tune", "weight tuner on a dataset: extraction and fit time for 1 M positions", bench_tune},
    {"eval", "static evaluation: nanoseconds per call in every rule set, score signature", bench_eval},
    {"strength", "play strength against an external UCI engine (Fairy-Stockfish): Elo, time odds", bench_strength},
};
enum { NWORKLOADS = sizeof WORKLOADS / sizeof WORKLOADS[0] };

static void usage(FILE *out)
{
    fprintf(out, "usage: xqlab bench WORKLOAD [options]   (xqlab bench WORKLOAD --help)\n\n"
                 "workloads:\n");
    for (int i = 0; i < NWORKLOADS; i++)
        fprintf(out, "  %-10s %s\n", WORKLOADS[i].name, WORKLOADS[i].summary);
}

int cmd_bench(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (cli_is_help(argv[1])) {
        usage(stdout);
        return EXIT_OK;
    }
    for (int i = 0; i < NWORKLOADS; i++)
        if (!strcmp(argv[1], WORKLOADS[i].name))
            return WORKLOADS[i].run(argc - 1, argv + 1);
    return cli_error(EXIT_USAGE, "bench", "unknown workload '%s' (perft, selfplay, tune, eval or strength)", argv[1]);
}
