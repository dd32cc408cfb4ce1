/* cmd_merge.c - `xqlab merge`: joins the shards of one self-play run into one dataset (a copy) or
 * an HDF5 virtual-dataset index. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "merge.h"
#include "output.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab merge SHARD.h5... -o ALL.h5 [--index] [--allow-partial] [--json]\n\n"
        "Joins the shards of one self-play run (selfplay --shard I/N, a Slurm job array, an MPI\n"
        "run) into ALL.h5: games in game-index order with every offset rebased, so the result\n"
        "equals the dataset one process would have written for the whole range. Shards may be\n"
        "given in any order. Refused, naming the file: a missing shard, an unfinished one (.tmp),\n"
        "other variant / settings / weights / base seed, a file twice, overlapping ranges, a gap,\n"
        "and an incomplete set (shards of the run left out before the first or after the last one\n"
        "given: each shard records its place, shard I of N).\n\n"
        "options:\n"
        "  -o, --output FILE  the joined file; written as FILE.tmp and renamed\n"
        "      --force        replace an existing FILE (never one of the shards)\n"
        "      --index        write an HDF5 virtual-dataset index that reads through the shards\n"
        "                     instead of copying them (shards must stay beside it; every xqlab\n"
        "                     reader checks them first, since HDF5 reads a missing one as zeros)\n"
        "      --allow-partial\n"
        "                     merge a contiguous part of a run's shards (the output holds only\n"
        "                     their games); the shards left out are named in a warning\n"
        "      --json         print the summary as JSON on stdout\n\n"
        "Exit status: 0 done, 1 refused or failed, 2 bad usage.\n");
}

int cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    bool index = false, allow_partial = false, json = false, force = false;
    CliOutput output = CLI_OUTPUT_INIT;
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    if (!paths)
        return cli_error(EXIT_FAILURE_RUN, "merge", "out of memory");
    int count = 0, status = EXIT_OK;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            usage(stdout);
            goto done;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--index")) {
            index = true;
        } else if (!strcmp(a, "--allow-partial")) {
            allow_partial = true;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            status = cli_bad_option("merge", a, usage);
            goto done;
        } else {
            paths[count++] = a;
        }
    }
    if (!out) {
        status = cli_error(EXIT_USAGE, "merge", "needs -o OUT.h5");
        goto done;
    }
    if (count == 0) {
        status = cli_error(EXIT_USAGE, "merge", "needs at least one shard file");
        goto done;
    }
    /* Provenance: the shards are named in the index itself, so a long list is shortened. */
    char command_line[4096];
    const char *flags = index ? (allow_partial ? " --index --allow-partial" : " --index")
                              : (allow_partial ? " --allow-partial" : "");
    if (count <= 4)
        snprintf(command_line, sizeof command_line, "xqlab merge%s %s%s%s%s%s%s%s -o %s", flags,
                 paths[0], count > 1 ? " " : "", count > 1 ? paths[1] : "", count > 2 ? " " : "",
                 count > 2 ? paths[2] : "", count > 3 ? " " : "", count > 3 ? paths[3] : "", out);
    else
        snprintf(command_line, sizeof command_line, "xqlab merge%s %s ... %s (%d shards) -o %s",
                 flags, paths[0], paths[count - 1], count, out);

    double t0 = cli_now();
    if ((status = cli_output_claim(&output, "merge", "-o", out, force ? CLI_OUTPUT_FORCE : 0, paths, count)) !=
        EXIT_OK)
        goto done;
    MergeStats st;
    XqError err;
    if (merge_shards(paths, count, out, index, allow_partial, force, command_line, &st, &err) < 0) {
        status = cli_report("merge", &err);
        goto done;
    }
    if (st.missing[0])
        fprintf(stderr, "xqlab merge: warning: %s: incomplete shard set: %s missing; merged games %llu..%llu only "
                        "(--allow-partial)\n", out, st.missing, (unsigned long long)st.first_game,
                (unsigned long long)(st.first_game + st.games - (st.games ? 1 : 0)));
    double seconds = cli_now() - t0;
    if (json)
        printf("{\"kind\": \"merge\", \"output\": \"%s\", \"index\": %s, \"shards\": %d, \"first_game\": %llu, "
               "\"games\": %llu, \"positions\": %llu, \"policy_rows\": %llu, \"moves\": %llu, \"bytes\": %llu, "
               "\"seconds\": %.3f}\n",
               out, index ? "true" : "false", st.shards, (unsigned long long)st.first_game,
               (unsigned long long)st.games, (unsigned long long)st.positions, (unsigned long long)st.policy,
               (unsigned long long)st.moves, (unsigned long long)st.bytes_written, seconds);
    else
        printf("xqlab merge: %d shards, games %llu..%llu (%llu games, %llu positions) -> %s%s, %.1f MB, %.1f s\n",
               st.shards, (unsigned long long)st.first_game,
               (unsigned long long)(st.first_game + st.games - (st.games ? 1 : 0)), (unsigned long long)st.games,
               (unsigned long long)st.positions, out, index ? " (virtual-dataset index)" : "",
               (double)st.bytes_written / 1e6, seconds);
done:
    cli_output_release(&output);
    free(paths);
    return status;
}
