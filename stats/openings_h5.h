/* openings_h5.h - writes an opening tree as the HDF5 group /openings of a new file. */
#ifndef XQ_OPENINGS_H5_H
#define XQ_OPENINGS_H5_H

#include "openings.h"

/* Writes the tree to PATH as the group /openings: one row per node (node 0 the root) in the
 * columns parent (int32, -1 at the root), depth (uint8), move (uint32, Move), text (S16: WXF or
 * ICCS), games, red_wins, draws, black_wins (uint64), score, score_lo, score_hi (Red's score and
 * its 95% win/draw/loss interval, interval.h) and share (of the parent's games) (float64); the group's attributes
 * hold variant_name, root_fen, depth, games, first_move_entropy (bits) and sources (the dataset
 * paths, one a line). The columns are not compressed, so any HDF5 reader opens them without
 * the zstd plugin. The file is written as PATH.tmp (created exclusively: a PATH.tmp that exists
 * is refused, never truncated or followed) and renamed, replacing an older PATH, but never when
 * PATH is one of the `sources` (an input dataset is not touched). The caller claims PATH first
 * (cli/output.h: the lock, --force, a stale PATH.tmp). Returns 0 or -1 with *err. */
int openings_h5_write(const char *path, const OpeningTree *t, const char *const *sources, int nsources,
                      XqError *err);

#endif
