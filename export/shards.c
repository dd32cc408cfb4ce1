/* shards.c - open several dataset files as one set and refuse files that do not belong together. */
#include "shards.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fail(XqError *err, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = 0;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* Next line of *s without its newline and trailing blanks, into buf; false at the end. */
static bool next_line(const char **s, char *buf, size_t size)
{
    if (!*s || !**s)
        return false;
    const char *end = strchr(*s, '\n');
    size_t len = end ? (size_t)(end - *s) : strlen(*s);
    size_t keep = len;
    while (keep > 0 && ((*s)[keep - 1] == ' ' || (*s)[keep - 1] == '\t' || (*s)[keep - 1] == '\r'))
        keep--;
    if (keep >= size)
        keep = size - 1;
    memcpy(buf, *s, keep);
    buf[keep] = '\0';
    *s += end ? len + 1 : len;
    return true;
}

bool shards_text_difference(const char *a, const char *b, char *buf, size_t size)
{
    char la[160], lb[160];
    for (int line = 1;; line++) {
        bool ha = next_line(&a, la, sizeof la), hb = next_line(&b, lb, sizeof lb);
        if (!ha && !hb)
            return false;
        if (ha != hb || strcmp(la, lb)) {
            snprintf(buf, size, "line %d: '%s' vs '%s'", line, ha ? la : "(end of text)",
                     hb ? lb : "(end of text)");
            return true;
        }
    }
}

static const char *text_or_empty(const char *s)
{
    return s ? s : "";
}

/* Checks shard j against shard 0 and against every earlier shard for duplicates. */
static int check_pair(ShardSet *set, int j, XqError *err)
{
    const DatasetSummary *a = dsr_summary(set->readers[0]), *b = dsr_summary(set->readers[j]);
    const char *pa = set->paths[0], *pb = set->paths[j];
    char diff[400], what[512];
    if (shards_text_difference(text_or_empty(a->variant_text), text_or_empty(b->variant_text), diff, sizeof diff)) {
        snprintf(what, sizeof what, "variant %s vs %s, variant text %s", a->variant_name, b->variant_name, diff);
        return fail(err, pb, "does not belong with %s: different rule sets (%s)", pa, what);
    }
    if (shards_text_difference(text_or_empty(a->params_text), text_or_empty(b->params_text), diff, sizeof diff))
        return fail(err, pb, "does not belong with %s: different search settings (params_text %s)", pa, diff);
    if (shards_text_difference(text_or_empty(a->weights_text), text_or_empty(b->weights_text), diff, sizeof diff))
        return fail(err, pb, "does not belong with %s: different evaluation weights (weights_text %s)", pa, diff);
    if (a->start_text && b->start_text && strcmp(a->start_text, b->start_text))
        return fail(err, pb, "does not belong with %s: different start positions ('%.60s' vs '%.60s')", pa,
                    b->start_text, a->start_text);
    if (a->run_games && b->run_games && a->run_games != b->run_games)
        return fail(err, pb, "does not belong with %s: a run of %" PRIu64 " games, not %" PRIu64 " (another -n)", pa,
                    b->run_games, a->run_games);
    if (a->npoints != b->npoints) {
        snprintf(what, sizeof what, "%d vs %d board points", a->npoints, b->npoints);
        return fail(err, pb, "does not belong with %s: %s", pa, what);
    }
    struct stat sj;
    bool have_j = stat(pb, &sj) == 0;
    for (int i = 0; i < j; i++) {
        struct stat si;
        const DatasetSummary *c = dsr_summary(set->readers[i]);
        if (have_j && stat(set->paths[i], &si) == 0 && si.st_dev == sj.st_dev && si.st_ino == sj.st_ino)
            return fail(err, pb, "is given twice (also as %s)", set->paths[i]);
        uint64_t c_end = c->first_game + c->game_count, b_end = b->first_game + b->game_count;
        if (c->base_seed == b->base_seed && c->game_count && b->game_count && c->first_game < b_end &&
            b->first_game < c_end) {
            snprintf(what, sizeof what, "games %" PRIu64 "..%" PRIu64 " and %" PRIu64 "..%" PRIu64 " of base seed %" PRIu64,
                     b->first_game, b_end - 1, c->first_game, c_end - 1, b->base_seed);
            return fail(err, pb, "overlaps %s: the same games twice (%s)", set->paths[i], what);
        }
    }
    return 0;
}

int shards_open(ShardSet *set, const char *const *paths, int count, XqError *err)
{
    memset(set, 0, sizeof *set);
    if (count < 1)
        return fail(err, "(no file)", "no dataset files given");
    set->paths = (const char **)paths;
    set->readers = calloc((size_t)count, sizeof *set->readers);
    set->first_row = calloc((size_t)count, sizeof *set->first_row);
    if (!set->readers || !set->first_row) {
        shards_close(set);
        return fail(err, paths[0], "out of memory");
    }
    for (int i = 0; i < count; i++) {
        set->readers[i] = dsr_open(paths[i], err);
        if (!set->readers[i]) {
            shards_close(set);
            return -1;
        }
        set->count = i + 1;
        if (i > 0 && check_pair(set, i, err) < 0) {
            shards_close(set);
            return -1;
        }
        set->first_row[i] = set->ngames;
        set->ngames += dsr_summary(set->readers[i])->ngames;
    }
    const DatasetSummary *s = dsr_summary(set->readers[0]);
    set->variant = variant_load_text(text_or_empty(s->variant_text), s->variant_name, err);
    if (!set->variant) {
        char inner[sizeof err->message];
        snprintf(inner, sizeof inner, "%s", err->message);
        shards_close(set);
        return fail(err, paths[0], "its variant text does not load: %s", inner);
    }
    return 0;
}

const DatasetSummary *shards_summary(const ShardSet *set, int i)
{
    return dsr_summary(set->readers[i]);
}

static int shard_of(const ShardSet *set, uint64_t k)
{
    int i = set->count - 1;
    while (i > 0 && set->first_row[i] > k)
        i--;
    return i;
}

int shards_read_game(ShardSet *set, uint64_t k, GameRecord *g, XqError *err)
{
    int i = shard_of(set, k);
    return dsr_read_game(set->readers[i], k - set->first_row[i], g, err);
}

const char *shards_path_of(const ShardSet *set, uint64_t k)
{
    return set->paths[shard_of(set, k)];
}

void shards_close(ShardSet *set)
{
    for (int i = 0; i < set->count; i++)
        dsr_close(set->readers[i]);
    free(set->readers);
    free(set->first_row);
    variant_free(set->variant);
    memset(set, 0, sizeof *set);
}
