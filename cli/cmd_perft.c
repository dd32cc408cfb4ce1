/* cmd_perft.c - `xqlab perft`: leaf counts of the legal move tree, optionally per root move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "notation.h"
#include "perft.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: xqlab perft -v VARIANT -d DEPTH [--fen FEN] [--divide]\n\n"
            "Counts the leaves of the legal move tree DEPTH plies deep (no repetition or move-limit\n"
            "pruning) from the variant's start position or FEN. --divide prints the count below\n"
            "each legal root move (ICCS). Where pieces are hidden every identity a reveal can turn\n"
            "up is a branch of its own (a0a1R: ...). A game that has ended (a five-tigers turn took\n"
            "the general) has no leaves below it. Prints leaves, seconds and million leaves per\n"
            "second.\n\n"
            "  -v, --variant V   rule set name (xqlab variants) or variant file\n"
            "  -d, --depth D     plies, 0 to 12\n"
            "      --fen FEN     start from this position (default: the variant's start)\n"
            "      --divide      the count below each root move\n"
            "  -h, --help\n");
}

/* One --divide line: the branch in ICCS (a reveal with its drawn identity) and its leaves. */
static void print_branch(void *ctx, Move m, uint64_t leaves)
{
    char buf[24];
    move_to_iccs((const Variant *)ctx, m, buf);
    printf("%s: %llu\n", buf, (unsigned long long)leaves);
}

int cmd_perft(int argc, char **argv)
{
    const char *variant = NULL, *fen = NULL;
    long depth = -1;
    bool divide = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if ((!strcmp(a, "-v") || !strcmp(a, "--variant")) && i + 1 < argc) {
            variant = argv[++i];
        } else if (!strcmp(a, "--fen") && i + 1 < argc) {
            fen = argv[++i];
        } else if ((!strcmp(a, "-d") || !strcmp(a, "--depth")) && i + 1 < argc) {
            if (cli_parse_int("perft", "--depth", argv[++i], 0, 12, &depth) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--divide")) {
            divide = true;
        } else {
            return cli_bad_option("perft", a, usage);
        }
    }
    if (!variant || depth < 0) {
        usage(stderr);
        return cli_error(EXIT_USAGE, "perft", "needs -v VARIANT and -d DEPTH");
    }
    Variant *v = cli_load_variant(variant);
    if (!v)
        return EXIT_FAILURE_RUN;
    Position *pos = malloc(sizeof *pos);
    int status = EXIT_OK;
    XqError err;
    if (!pos) {
        status = cli_error(EXIT_FAILURE_RUN, "perft", "out of memory");
        goto cleanup;
    }
    if (pos_set_fen(pos, v, fen ? fen : v->start_fen, &err) < 0) {
        status = cli_error(EXIT_USAGE, "perft", "bad --fen: %s", err.message);
        goto cleanup;
    }
    double t0 = cli_now();
    uint64_t total = divide && depth > 0 ? perft_divide(pos, (int)depth, print_branch, (void *)v)
                                         : perft(pos, (int)depth);
    double secs = cli_now() - t0;
    printf("depth %ld leaves %llu time %.3f s speed %.1f M leaves/s\n", depth,
           (unsigned long long)total, secs, secs > 0 ? (double)total / secs / 1e6 : 0.0);
cleanup:
    free(pos);
    variant_free(v);
    return status;
}
