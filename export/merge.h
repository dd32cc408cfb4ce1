/* merge.h - joins the shards of one self-play run: a copy into one dataset equal to a
 * single-process run, or an HDF5 virtual-dataset (VDS) index that reads through the shards. */
#ifndef XQ_MERGE_H
#define XQ_MERGE_H

#include "dataset.h"

typedef struct MergeStats {
    int shards;
    uint64_t games, positions, policy, moves;
    uint64_t first_game;
    uint64_t bytes_written;     /* size of the output file */
    char missing[400];          /* shards of the run left out (allow_partial), "" for a whole run */
} MergeStats;

/* Game range of shard `index` of `count` for a run of `games` games starting at game 0:
 * [floor(index * games / count), floor((index + 1) * games / count)). */
void merge_shard_range(uint64_t games, int index, int count, uint64_t *first, uint64_t *n);

/* Shard file name of an MPI or job-array run: "BASE.shard-IIII-of-NNNN.h5", where BASE is `out`
 * without a trailing ".h5". Returns -1 if buf is too small. */
int merge_shard_path(const char *out, int index, int count, char *buf, size_t size);

/* Checks that `paths` are the complete shards of one run and joins them into `out` (written as
 * OUT.tmp, created exclusively, and renamed; an existing OUT is refused unless `replace`). The
 * caller holds the output's lock and has removed a stale OUT.tmp (cli/output.h). Refused with *err naming the file: a missing
 * file, an unfinished shard (PATH.tmp, no closed_utc, fewer games than its range), another
 * variant, search settings, weights, board or base seed, a file given twice, overlapping ranges,
 * a gap between ranges, a different start position, a VDS index as input, and an incomplete set:
 * each shard records its place in the run's split (shard_index of shard_count), so shards missing
 * before the first or after the last one given are named. With allow_partial such a contiguous
 * subset is merged and stats->missing names what was left out (the caller warns); the output
 * then holds only the games given. Shards may be given in any order; games come out in
 * game-index order with every offset column rebased, so the result holds exactly what one
 * process playing the whole range would have written.
 * index = false: a copy of every column (decoded and compressed again in large blocks).
 * index = true: a VDS index: every column is a virtual dataset mapping the shards' columns,
 * except the five offset columns (/games/first_position, first_policy, first_move,
 * /positions/game, first_policy), which are stored rebased; the group /index records each source
 * (relative path, created_utc, row counts) so readers can check the sources before reading.
 * `command_line` is recorded in the output. Returns 0 or -1 with *err. */
int merge_shards(const char *const *paths, int count, const char *out, bool index, bool allow_partial,
                 bool replace, const char *command_line, MergeStats *stats, XqError *err);

#endif
