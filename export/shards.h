/* shards.h - a set of dataset files (shards) read as one: opened through the DatasetReader,
 * checked to belong together, games addressed by one running index. */
#ifndef XQ_SHARDS_H
#define XQ_SHARDS_H

#include "dataset.h"

typedef struct ShardSet {
    int count;
    const char **paths;          /* borrowed from the caller, count of them */
    DatasetReader **readers;     /* owned */
    uint64_t *first_row;         /* running index of each shard's first game; owned */
    uint64_t ngames;             /* games in all shards */
    Variant *variant;            /* loaded from the shards' variant text; owned */
} ShardSet;

/* Opens every path and checks they belong together: the same variant text, search parameters
 * (params_text), weights text and board size, start position and -n (where both files record
 * them); no file given twice; no two shards holding the
 * same games (same base seed, overlapping planned game ranges). On failure returns -1 with *err
 * naming the file(s) and the first difference (e.g. "playouts = 64" against "playouts = 200");
 * *set is then empty. Paths must outlive the set. */
int shards_open(ShardSet *set, const char *const *paths, int count, XqError *err);

/* Summary of shard i. */
const DatasetSummary *shards_summary(const ShardSet *set, int i);

/* Reads game k (0 <= k < ngames; shards in the order given) like dsr_read_game. */
int shards_read_game(ShardSet *set, uint64_t k, GameRecord *g, XqError *err);

/* Path of the shard that holds game k. */
const char *shards_path_of(const ShardSet *set, uint64_t k);

/* Closes every reader and frees the set (an empty set is fine). */
void shards_close(ShardSet *set);

/* First line where two texts differ (lines compared with trailing blanks removed): writes
 * "line N: 'left' vs 'right'" (a missing line shows as end of text) into buf. Returns false if
 * the texts are equal line by line. */
bool shards_text_difference(const char *a, const char *b, char *buf, size_t size);

#endif
