/* runcheck.c - is a dataset file the work of this run? The comparison behind --resume,
 * --resume-if-present and their "already complete" (dataset.h: dataset_run_difference). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dataset.h"
#include "schema.h"
#include "shards.h"

static const char *text_or_empty(const char *s)
{
    return s ? s : "";
}

/* "shard I/N", or "no shard" for a single run. */
static void shard_name(int index, int count, char *buf, size_t size)
{
    if (count <= 1)
        snprintf(buf, size, "no --shard");
    else
        snprintf(buf, size, "shard %d/%d", index, count);
}

bool dataset_run_difference(const DatasetMeta *file, const DatasetMeta *run, char *buf, size_t size)
{
    char diff[200];
    if (strcmp(text_or_empty(file->variant_name), text_or_empty(run->variant_name))) {
        snprintf(buf, size, "-v: the file's run played %s, this run %s", text_or_empty(file->variant_name),
                 text_or_empty(run->variant_name));
        return true;
    }
    if (shards_text_difference(text_or_empty(file->variant_text), text_or_empty(run->variant_text), diff,
                               sizeof diff)) {
        snprintf(buf, size, "-v: the variant file text differs (%s)", diff);
        return true;
    }
    if (file->npoints != run->npoints) {
        snprintf(buf, size, "-v: the file has %d points per board, the run %d", file->npoints, run->npoints);
        return true;
    }
    if (file->base_seed != run->base_seed) {
        snprintf(buf, size, "--seed: the file's run has %" PRIu64 ", this run %" PRIu64, file->base_seed,
                 run->base_seed);
        return true;
    }
    if ((file->shard_count > 1 || run->shard_count > 1) &&
        (file->shard_index != run->shard_index || file->shard_count != run->shard_count)) {
        char a[40], b[40];
        shard_name(file->shard_index, file->shard_count, a, sizeof a);
        shard_name(run->shard_index, run->shard_count, b, sizeof b);
        snprintf(buf, size, "--shard: the file's run has %s, this run %s", a, b);
        return true;
    }
    if (file->run_games && run->run_games && file->run_games != run->run_games) {
        snprintf(buf, size, "-n: the file's run has %" PRIu64 " games, this run %" PRIu64, file->run_games,
                 run->run_games);
        return true;
    }
    if (file->first_game != run->first_game || file->game_count != run->game_count) {
        snprintf(buf, size, "-n: the file's run holds games %" PRIu64 "..%" PRIu64 ", this run %" PRIu64
                 "..%" PRIu64, file->first_game, file->first_game + file->game_count - 1, run->first_game,
                 run->first_game + run->game_count - 1);
        return true;
    }
    if (shards_text_difference(text_or_empty(file->params_text), text_or_empty(run->params_text), diff,
                               sizeof diff)) {
        snprintf(buf, size, "search settings (--preset, --set, --playouts, --movetime): %s", diff);
        return true;
    }
    if (shards_text_difference(text_or_empty(file->weights_text), text_or_empty(run->weights_text), diff,
                               sizeof diff)) {
        snprintf(buf, size, "--weights: the weights text differs (%s)", diff);
        return true;
    }
    if (file->start_text && run->start_text && strcmp(file->start_text, run->start_text)) {
        snprintf(buf, size, "start position (--fen, --openings): the file's run has '%.60s', this run '%.60s'",
                 file->start_text, run->start_text);
        return true;
    }
    return false;
}

int dsw_check_finished(const char *path, const DatasetMeta *run, XqError *err)
{
    DatasetReader *r = dsr_open(path, err);
    if (!r)
        return -1;
    const DatasetSummary *s = dsr_summary(r);
    DatasetMeta file = {
        .variant_name = s->variant_name,
        .variant_text = s->variant_text,
        .weights_text = s->weights_text,
        .params_text = s->params_text,
        .base_seed = s->base_seed,
        .shard_index = s->shard_index,
        .shard_count = s->shard_count,
        .first_game = s->first_game,
        .game_count = s->game_count,
        .npoints = s->npoints,
        .start_text = s->start_text,
        .run_games = s->run_games,
    };
    char diff[XQ_MSG_MAX];
    int rc = 0;
    if (dataset_run_difference(&file, run, diff, sizeof diff))
        rc = schema_fail(err, path, "is another run's finished file: %s", diff);
    dsr_close(r);
    return rc;
}

static bool same_text(const char *a, const char *b)
{
    return !strcmp(text_or_empty(a), text_or_empty(b));
}

int dataset_files_distinct(const char *const *paths, int count, XqError *err)
{
    DatasetReader **r = calloc((size_t)(count > 0 ? count : 1), sizeof *r);
    if (!r)
        return schema_fail(err, count > 0 ? paths[0] : "(no file)", "out of memory");
    int rc = 0;
    for (int j = 0; j < count && rc == 0; j++) {
        if (!(r[j] = dsr_open(paths[j], err))) {
            rc = -1;
            break;
        }
        const DatasetSummary *b = dsr_summary(r[j]);
        struct stat sj;
        bool have_j = stat(paths[j], &sj) == 0;
        for (int i = 0; i < j && rc == 0; i++) {
            const DatasetSummary *a = dsr_summary(r[i]);
            struct stat si;
            if (!strcmp(paths[i], paths[j]) ||
                (have_j && stat(paths[i], &si) == 0 && si.st_dev == sj.st_dev && si.st_ino == sj.st_ino)) {
                rc = schema_fail(err, paths[j], "is given twice (also as %s): give each dataset once", paths[i]);
                break;
            }
            if (a->base_seed != b->base_seed || !same_text(a->variant_text, b->variant_text) ||
                !same_text(a->params_text, b->params_text) || !same_text(a->weights_text, b->weights_text) ||
                (a->start_text && b->start_text && strcmp(a->start_text, b->start_text)) || !a->game_count ||
                !b->game_count)
                continue;
            uint64_t a_end = a->first_game + a->game_count, b_end = b->first_game + b->game_count;
            if (a->first_game < b_end && b->first_game < a_end) {
                uint64_t lo = a->first_game > b->first_game ? a->first_game : b->first_game;
                uint64_t hi = (a_end < b_end ? a_end : b_end) - 1;
                rc = schema_fail(err, paths[j], "holds games of %s again (games %" PRIu64 "..%" PRIu64 " of one run, "
                                 "base seed %" PRIu64 ": a merged file and one of its shards?): give each game once",
                                 paths[i], lo, hi, a->base_seed);
            }
        }
    }
    for (int i = 0; i < count; i++)
        dsr_close(r[i]);
    free(r);
    return rc;
}
