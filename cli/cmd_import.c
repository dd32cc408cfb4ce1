/* cmd_import.c - `xqlab import GAMES.pgn... -o OUT.h5`: PGN collections (ICCS or WXF) as a
 * dataset that report, openings and compare read; bad games are refused one by one. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bad_option.h"
#include "commands.h"
#include "common.h"
#include "output.h"
#include "pgn_import.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab import GAMES.pgn... -o OUT.h5 [-v VARIANT] [--strict] [--force]\n\n"
        "Reads PGN game collections (moves in ICCS or, for standard xiangqi, WXF; the public\n"
        "xiangqi databases and xqlab's own export) and writes their games as a dataset, so that\n"
        "report, openings and compare show human or engine games beside self-play. Every move is\n"
        "replayed with the rules core; a game that does not replay (a bad tag or FEN, an illegal\n"
        "move, a result its final position contradicts, another rule set) is refused with its\n"
        "file, line, game number and move, and the other games are kept. Positions carry no\n"
        "search statistics (root_value and static_eval missing, no policy). Format: docs/pgn.md.\n\n"
        "options:\n"
        "  -o, --output FILE  the dataset; written as FILE.tmp and renamed when complete\n"
        "  -v, --variant V    rule set of the games (default: the first game's [Variant] tag,\n"
        "                     xiangqi without one); games of another rule set are refused\n"
        "      --strict       refuse the whole import (write nothing) if any game is bad\n"
        "      --force        replace FILE if it exists (never without, never an input)\n"
        "  -h, --help\n\n"
        "Exit status: 0 done (also with refused games, each named on stderr), 1 no game could be\n"
        "imported, a file cannot be read or written, or --strict saw a bad game; 2 bad usage.\n");
}

/* 64-bit FNV-1a, for the dataset's base seed: two imports of different games then never look
 * like overlapping shards of one run to readers that combine files. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* One pass over every file: without a writer it counts the good games and names the bad ones;
 * with one it appends the good ones. Returns EXIT_OK, or EXIT_FAILURE_RUN when a file cannot be
 * read or writing fails (named on stderr). */
static int import_pass(const Variant *v, char **paths, int npaths, DatasetWriter *w, uint64_t *good,
                       uint64_t *bad, uint64_t *hash)
{
    XqError err;
    *good = *bad = 0;
    for (int f = 0; f < npaths; f++) {
        PgnReader *r = pgn_reader_open(paths[f], &err);
        if (!r)
            return cli_report("import", &err);
        for (uint64_t number = 1;; number++) {
            PgnGame pg;
            int got = pgn_reader_next(r, v, &pg, &err);
            if (got == 0)
                break;
            GameRecord g;
            if (got > 0 && pgn_import_game(v, &pg, *good, &g, &err) < 0) {
                snprintf(err.file, sizeof err.file, "%s", paths[f]);
                err.line = pg.first_line;
                got = -1;
            }
            if (got < 0) {
                (*bad)++;
                if (!w)
                    fprintf(stderr, "xqlab import: %s:%d: game %" PRIu64 " refused: %s\n", err.file, err.line, number,
                            err.message);
                pgn_game_free(&pg);
                continue;
            }
            pgn_game_free(&pg);
            if (!w)
                *hash = fnv1a(*hash, g.moves, (size_t)g.nmoves * sizeof *g.moves);
            int rc = w ? dsw_append(w, &g, &err) : 0;
            game_record_free(&g);
            if (rc < 0) {
                pgn_reader_close(r);
                return cli_report("import", &err);
            }
            (*good)++;
        }
        pgn_reader_close(r);
    }
    return EXIT_OK;
}

int cmd_import(int argc, char **argv)
{
    const char *out = NULL, *variant_arg = NULL;
    bool strict = false, force = false;
    char **paths = calloc((size_t)argc, sizeof *paths);
    int npaths = 0, status = EXIT_OK;
    if (!paths)
        return cli_error(EXIT_FAILURE_RUN, "import", "out of memory");
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (cli_is_help(a)) {
            usage(stdout);
            free(paths);
            return EXIT_OK;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has) {
            out = argv[++i];
        } else if ((!strcmp(a, "-v") || !strcmp(a, "--variant")) && has) {
            variant_arg = argv[++i];
        } else if (!strcmp(a, "--strict")) {
            strict = true;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (a[0] == '-' && a[1]) {
            status = cli_bad_option("import", a, usage);
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (status == EXIT_OK && !npaths)
        status = cli_error(EXIT_USAGE, "import", "no PGN file given (usage: xqlab import GAMES.pgn... -o OUT.h5)");
    if (status == EXIT_OK && !out)
        status = cli_error(EXIT_USAGE, "import", "needs -o OUT.h5");
    /* The one output rule (cli/output.h): never an existing file without --force, never an input,
     * never a file another process is writing; claimed before any work. */
    CliOutput output = CLI_OUTPUT_INIT;
    if (status == EXIT_OK)
        status = cli_output_claim(&output, "import", "-o", out, force ? CLI_OUTPUT_FORCE : 0,
                                  (const char *const *)paths, npaths);
    if (status != EXIT_OK) {
        free(paths);
        return status;
    }

    Variant *v = NULL;
    XqError err;
    char name[XQ_NAME_MAX * 2] = "";
    if (!variant_arg) {
        PgnReader *r = pgn_reader_open(paths[0], &err);
        if (!r) {
            cli_output_release(&output);
            free(paths);
            return cli_report("import", &err);
        }
        if (!pgn_reader_peek_variant(r, name, sizeof name))
            snprintf(name, sizeof name, "xiangqi");
        pgn_reader_close(r);
        variant_arg = name;
    }
    v = cli_load_variant(variant_arg);
    if (!v) {
        cli_output_release(&output);
        free(paths);
        return EXIT_FAILURE_RUN;
    }

    /* Pass 1 checks every game and names the bad ones; pass 2 writes the good ones (the
     * dataset records how many games it holds from the start). */
    uint64_t good = 0, bad = 0, hash = 1469598103934665603ull, written = 0, bad2 = 0;
    status = import_pass(v, paths, npaths, NULL, &good, &bad, &hash);
    if (status == EXIT_OK && good == 0)
        status = cli_error(EXIT_FAILURE_RUN, "import", "no game could be imported (%" PRIu64 " refused): nothing written",
                           bad);
    if (status == EXIT_OK && strict && bad)
        status = cli_error(EXIT_FAILURE_RUN, "import", "--strict: %" PRIu64 " of %" PRIu64 " games refused: nothing "
                           "written", bad, good + bad);
    if (status != EXIT_OK)
        goto cleanup;

    char command_line[2048];
    cli_command_line(argc, argv, command_line, sizeof command_line);
    DatasetMeta meta = {
        .variant_name = v->name,
        .variant_text = v->text,
        .weights_text = "",
        .params_text = "",
        .command_line = command_line,
        .base_seed = hash,
        .shard_index = 0,
        .shard_count = 1,
        .first_game = 0,
        .game_count = good,
        .npoints = v->npoints,
    };
    uint64_t done = 0;
    DatasetWriter *w = dsw_open(out, &meta, false, &done, &err);
    if (!w) {
        status = cli_report("import", &err);
        goto cleanup;
    }
    status = import_pass(v, paths, npaths, w, &written, &bad2, &hash);
    if (status == EXIT_OK && written != good)
        status = cli_error(EXIT_FAILURE_RUN, "import", "the files changed while they were read (%" PRIu64 " good games, "
                           "then %" PRIu64 "): nothing written", good, written);
    if (status != EXIT_OK) {
        dsw_abandon(w, &err); /* the release removes the PATH.tmp left */
        goto cleanup;
    }
    if (dsw_close(w, &err) < 0) {
        status = cli_report("import", &err);
        goto cleanup;
    }
    fprintf(stderr, "xqlab import: %" PRIu64 " games of %s imported into %s from %d file%s", good, v->name, out, npaths,
            npaths == 1 ? "" : "s");
    if (bad)
        fprintf(stderr, "; %" PRIu64 " refused (named above)", bad);
    fputc('\n', stderr);
cleanup:
    cli_output_release(&output);
    variant_free(v);
    free(paths);
    return status;
}
