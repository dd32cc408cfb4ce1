/* vds.h - private to export/: checks a virtual-dataset index before anything reads through it.
 * HDF5 reads the rows of a missing (or shorter) source of a virtual dataset as fill values without
 * any error, so a reader must prove every source is there first. */
#ifndef XQ_EXPORT_VDS_H
#define XQ_EXPORT_VDS_H

#include <hdf5.h>

#include "dataset.h"

/* Group of an index file (written by xqlab merge --index) listing its sources: attribute
 * "sources", one line per shard: relative path, created_utc, games, positions, policy rows,
 * moves, separated by tabs. */
#define VDS_INDEX_GROUP "/index"
#define VDS_INDEX_DESCRIPTION                                                                      \
    "virtual-dataset index over the shards listed in 'sources' (relative to this file's folder): "  \
    "path, created_utc, games, positions, policy rows, moves"

/* Checks the open file `path` before its columns are read. For every virtual dataset among the
 * columns: each source file exists where HDF5 will look (relative names: beside the index) and
 * its source dataset has every row the mapping reads. If the file is an index (VDS_INDEX_GROUP):
 * each listed source is a finished shard (closed_utc set), is the file the index was made from
 * (same created_utc) and has the recorded row counts. HDF5_VDS_PREFIX (which would move the
 * sources) is refused. `version` is the file's format version (its string attributes are read
 * as schema_vlen_strings allows; each source's by its own version). Sets *is_index. Returns 0, or
 * -1 with *err naming the source and the index. */
int vds_check(hid_t file, const char *path, int version, bool *is_index, XqError *err);

#endif
