/* main.c - the xqlab front end: dispatches to one subcommand. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"

static const Command COMMANDS[] = {
    {"selfplay", "play a batch of self-play games into an HDF5 dataset, print a balance summary", cmd_selfplay},
    {"match", "play two players against each other in colour-swapped pairs", cmd_match},
    {"variants", "list the shipped rule sets, or check a variant file", cmd_variants},
    {"perft", "count the leaves of the legal move tree (move generation check)", cmd_perft},
    {"play", "replay moves from a position and print the FEN and game status", cmd_play},
    {"bench", "fixed benchmark workloads (perft, selfplay, tune): speed and signature", cmd_bench},
    {"inspect", "show what a dataset file holds and its summary", cmd_inspect},
    {"tune", "fit evaluation weights to self-play results; piece values with errors", cmd_tune},
    {"label", "a copy of a dataset with a teacher engine's scores as its root values, for tune", cmd_label},
    {"train", "the training loop: generations of self-play, tune and SPRT-gated promotion", cmd_train},
    {"report", "balance card of datasets: score, draws, lengths, special moves, branching", cmd_report},
    {"openings", "opening tree of datasets: lines, results, shares, first-move entropy", cmd_openings},
    {"compare", "A/B comparison of two sets of datasets: score and draw-rate differences, verdict", cmd_compare},
    {"export", "write games of datasets as Xiangqi PGN (WXF / ICCS), with a read-back check", cmd_export},
    {"import", "read PGN game collections (ICCS / WXF) into a dataset; bad games refused", cmd_import},
    {"ladder", "self-play at several search budgets: how balance and draws move with strength", cmd_ladder},
    {"analyse", "search one position: best move, value, principal variation, root moves", cmd_analyse},
    {"engine", "run as a UCI / UCCI / XBoard engine for GUIs and match tools", cmd_engine},
    {"merge", "join the shards of a run into one dataset, or a virtual-dataset index over them", cmd_merge},
};
enum { NCOMMANDS = sizeof COMMANDS / sizeof COMMANDS[0] };

static void usage(FILE *out)
{
    fprintf(out, "xqlab %s - self-play, datasets and balance testing for xiangqi variants\n\n"
                 "usage: xqlab COMMAND [options]   (xqlab COMMAND --help for its options)\n\n"
                 "commands:\n", XQLAB_VERSION);
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(out, "\nVariants are names of configs/variants/*.ini or paths to .ini files.\n"
                 "Documentation: docs/ (start with docs/cli.md).\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (cli_is_help(argv[1])) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("xqlab %s\n", XQLAB_VERSION);
        return EXIT_OK;
    }
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], COMMANDS[i].name)) {
            /* The commands that stop cleanly (exit 130) do so from their first instruction to
             * their last line of output (cli/common.h). */
            bool stops = !strcmp(argv[1], "selfplay") || !strcmp(argv[1], "match");
            if (stops)
                cli_stop_signals_hold();
            int status = COMMANDS[i].run(argc - 1, argv + 1);
            return stops ? cli_stop_status(argv[1], status) : status;
        }
    fprintf(stderr, "xqlab: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
