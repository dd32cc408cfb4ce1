/* cmd_inspect.c - `xqlab inspect FILE.h5 [--json]`: what a dataset file holds, its provenance,
 * outcome counts and the bytes on disk per dataset and per position. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "dataset.h"
#include "status.h"

static const char *const RESULT_NAMES[3] = {"black_wins", "draws", "red_wins"};

static void usage(FILE *out)
{
    fprintf(out, "usage: xqlab inspect FILE.h5 [--json]\n\n"
                 "Checks the structure of a dataset file written by selfplay (format, every dataset,\n"
                 "lengths and offsets) and prints what it holds: variant, seed, shard, counts of\n"
                 "games / positions / policy rows, win-draw-loss and termination counts, and the\n"
                 "bytes on disk per dataset and per position. An unfinished PATH.tmp works too.\n\n"
                 "  --json   one JSON object instead of text\n"
                 "  -h, --help\n\n"
                 "Exit status: 0, 1 if the file is missing or damaged, 2 on a usage error.\n"
                 "Layout: docs/data-format.md.\n");
}

/* Prints a JSON string literal. */
static void json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", stdout);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

static double per(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static void print_text(const char *path, const DatasetReader *r, const DatasetOutcomes *o, long long file_bytes)
{
    const DatasetSummary *s = dsr_summary(r);
    printf("file         %s (%lld bytes, format %d, xqlab %s)\n", path, file_bytes, s->format_version,
           s->program_version);
    printf("variant      %s (%d points)\n", s->variant_name, s->npoints);
    printf("seed         %" PRIu64 "   shard %d of %d   games %" PRIu64 "..%" PRIu64 " planned\n", s->base_seed,
           s->shard_index, s->shard_count, s->first_game,
           s->game_count ? s->first_game + s->game_count - 1 : s->first_game);
    printf("host         %s   created %s   closed %s\n", s->host, s->created_utc,
           s->closed_utc[0] ? s->closed_utc : "(not closed: unfinished run)");
    printf("command      %s\n", s->command_line);
    printf("contents     %" PRIu64 " games, %" PRIu64 " positions, %" PRIu64 " policy rows (%.1f per position), "
           "%" PRIu64 " moves\n", s->ngames, s->npositions, s->npolicy, per(s->npolicy, s->npositions), s->nmoves);
    printf("results      red wins %" PRIu64 ", draws %" PRIu64 ", black wins %" PRIu64, o->result[2], o->result[1],
           o->result[0]);
    if (o->other_result)
        printf(", unknown %" PRIu64, o->other_result);
    printf("   (resignation off in %" PRIu64 ")\n", o->resign_disabled);
    printf("terminations");
    for (int t = 0; t < TERM_COUNT; t++)
        if (o->termination[t])
            printf("  %s %" PRIu64, termination_name((Termination)t), o->termination[t]);
    if (o->other_termination)
        printf("  unknown %" PRIu64, o->other_termination);
    printf("\nwall time    %.1f s in games (%.2f s per game)\n\n", o->wall_seconds,
           s->ngames ? o->wall_seconds / (double)s->ngames : 0.0);
    printf("%-26s %-7s %12s %12s %10s %7s\n", "dataset", "dtype", "rows", "bytes", "B/position", "ratio");
    uint64_t stored = 0;
    for (int i = 0; i < dsr_dataset_count(r); i++) {
        const DatasetInfo *d = dsr_dataset_info(r, i);
        stored += d->stored_bytes;
        printf("%-26s %-7s %12" PRIu64 " %12" PRIu64 " %10.3f %7.1f\n", d->path, d->dtype, d->rows, d->stored_bytes,
               per(d->stored_bytes, s->npositions), per(d->raw_bytes, d->stored_bytes));
    }
    printf("%-26s %-7s %12s %12" PRIu64 " %10.3f\n", "all datasets", "", "", stored, per(stored, s->npositions));
    printf("%-26s %-7s %12s %12lld %10.3f\n", "whole file", "", "", file_bytes,
           per((uint64_t)file_bytes, s->npositions));
}

static void print_json(const char *path, const DatasetReader *r, const DatasetOutcomes *o, long long file_bytes)
{
    const DatasetSummary *s = dsr_summary(r);
    printf("{\"file\": ");
    json_string(path);
    printf(", \"file_bytes\": %lld, \"format_version\": %d, \"program_version\": ", file_bytes, s->format_version);
    json_string(s->program_version);
    printf(", \"variant\": ");
    json_string(s->variant_name);
    printf(", \"npoints\": %d, \"base_seed\": %" PRIu64 ", \"shard_index\": %d, \"shard_count\": %d, "
           "\"first_game\": %" PRIu64 ", \"game_count\": %" PRIu64 ", \"host\": ",
           s->npoints, s->base_seed, s->shard_index, s->shard_count, s->first_game, s->game_count);
    json_string(s->host);
    printf(", \"created_utc\": ");
    json_string(s->created_utc);
    printf(", \"closed_utc\": ");
    json_string(s->closed_utc);
    printf(", \"command_line\": ");
    json_string(s->command_line);
    printf(", \"games\": %" PRIu64 ", \"positions\": %" PRIu64 ", \"policy_rows\": %" PRIu64 ", \"moves\": %" PRIu64,
           s->ngames, s->npositions, s->npolicy, s->nmoves);
    printf(", \"results\": {");
    for (int i = 2; i >= 0; i--)
        printf("\"%s\": %" PRIu64 ", ", RESULT_NAMES[i], o->result[i]);
    printf("\"unknown\": %" PRIu64 "}, \"resign_disabled\": %" PRIu64 ", \"wall_seconds\": %.3f, \"terminations\": {",
           o->other_result, o->resign_disabled, o->wall_seconds);
    for (int t = 0; t < TERM_COUNT; t++) {
        json_string(termination_name((Termination)t));
        printf(": %" PRIu64 ", ", o->termination[t]);
    }
    printf("\"unknown\": %" PRIu64 "}, \"datasets\": [", o->other_termination);
    uint64_t stored = 0;
    for (int i = 0; i < dsr_dataset_count(r); i++) {
        const DatasetInfo *d = dsr_dataset_info(r, i);
        stored += d->stored_bytes;
        printf("%s{\"path\": ", i ? ", " : "");
        json_string(d->path);
        printf(", \"dtype\": ");
        json_string(d->dtype);
        printf(", \"rows\": %" PRIu64 ", \"raw_bytes\": %" PRIu64 ", \"stored_bytes\": %" PRIu64
               ", \"bytes_per_position\": %.4f}", d->rows, d->raw_bytes, d->stored_bytes, per(d->stored_bytes, s->npositions));
    }
    printf("], \"stored_bytes\": %" PRIu64 ", \"bytes_per_position\": %.4f, \"file_bytes_per_position\": %.4f}\n",
           stored, per(stored, s->npositions), per((uint64_t)file_bytes, s->npositions));
}

int cmd_inspect(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_OK;
        }
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_bad_option("inspect", argv[i], usage);
        else if (path)
            return cli_error(EXIT_USAGE, "inspect", "one file at a time ('%s' and '%s')", path, argv[i]);
        else
            path = argv[i];
    }
    if (!path) {
        usage(stderr);
        return EXIT_USAGE;
    }
    XqError err;
    DatasetReader *r = dsr_open(path, &err);
    if (!r)
        return cli_report("inspect", &err);
    DatasetOutcomes outcomes;
    if (dsr_outcomes(r, &outcomes, &err) != 0) {
        dsr_close(r);
        return cli_report("inspect", &err);
    }
    struct stat st;
    long long file_bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
    if (json)
        print_json(path, r, &outcomes, file_bytes);
    else
        print_text(path, r, &outcomes, file_bytes);
    dsr_close(r);
    return EXIT_OK;
}
