/* vds.c - proves that every source of a virtual-dataset index is present, finished and whole before
 * a reader touches the index's data (HDF5 itself reads missing sources as fill values). */
#include "vds.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schema.h"

enum { MAX_OPEN_SOURCES = 4096 };

/* Source files opened once each during a check. */
typedef struct SourceCache {
    int count;
    char **names;       /* resolved paths */
    hid_t *files;
} SourceCache;

static void cache_close(SourceCache *c)
{
    for (int i = 0; i < c->count; i++) {
        if (c->files[i] >= 0)
            H5Fclose(c->files[i]);
        free(c->names[i]);
    }
    free(c->names);
    free(c->files);
    memset(c, 0, sizeof *c);
}

/* Where HDF5 1.10 looks first for a relative source name: the folder of the file holding the
 * virtual dataset. (It falls back to the working directory, which the check never relies on: a
 * source missing beside the index is refused.) */
static void resolve(const char *index_path, const char *name, char *buf, size_t size)
{
    if (name[0] == '/') {
        snprintf(buf, size, "%s", name);
        return;
    }
    const char *slash = strrchr(index_path, '/');
    if (!slash)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "%.*s/%s", (int)(slash - index_path), index_path, name);
}

/* Opens (or finds) source `resolved`; -1 with *err if it is missing or not an HDF5 file. */
static hid_t cache_open(SourceCache *c, const char *index_path, const char *resolved, XqError *err)
{
    for (int i = 0; i < c->count; i++)
        if (!strcmp(c->names[i], resolved))
            return c->files[i];
    if (access(resolved, R_OK) != 0) {
        schema_fail(err, index_path, "index source %s is missing (HDF5 would read its rows as fill values "
                                     "without an error; restore the shard or merge again)", resolved);
        return -1;
    }
    if (c->count == MAX_OPEN_SOURCES) {
        schema_fail(err, index_path, "more than %d index sources", MAX_OPEN_SOURCES);
        return -1;
    }
    char **names = realloc(c->names, (size_t)(c->count + 1) * sizeof *names);
    if (names)
        c->names = names;
    hid_t *files = realloc(c->files, (size_t)(c->count + 1) * sizeof *files);
    if (files)
        c->files = files;
    char *copy = strdup(resolved);
    if (!names || !files || !copy) {
        free(copy);
        schema_fail(err, index_path, "out of memory");
        return -1;
    }
    hid_t f = H5Fopen(resolved, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        free(copy);
        schema_fail(err, index_path, "index source %s is not a readable HDF5 file", resolved);
        return -1;
    }
    c->names[c->count] = copy;
    c->files[c->count] = f;
    c->count++;
    return f;
}

/* Every mapping of a virtual column reads rows that exist in its source. */
static int check_mappings(SourceCache *cache, hid_t file, const char *path, Column c, bool *is_virtual, XqError *err)
{
    const char *name = SCHEMA_COLUMNS[c].path;
    *is_virtual = false;
    if (H5Lexists(file, name, H5P_DEFAULT) <= 0)
        return 0; /* the reader reports missing columns itself */
    int rc = -1;
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT), dcpl = -1;
    if (d < 0 || (dcpl = H5Dget_create_plist(d)) < 0) {
        schema_fail(err, path, "cannot open dataset %s", name);
        goto cleanup;
    }
    if (H5Pget_layout(dcpl) != H5D_VIRTUAL) {
        rc = 0;
        goto cleanup;
    }
    *is_virtual = true;
    size_t n = 0;
    if (H5Pget_virtual_count(dcpl, &n) < 0) {
        schema_fail(err, path, "cannot read the mappings of %s", name);
        goto cleanup;
    }
    for (size_t i = 0; i < n; i++) {
        char src_file[PATH_MAX], src_dset[256], resolved[PATH_MAX + 256];
        ssize_t lf = H5Pget_virtual_filename(dcpl, i, src_file, sizeof src_file);
        ssize_t ld = H5Pget_virtual_dsetname(dcpl, i, src_dset, sizeof src_dset);
        if (lf < 0 || ld < 0 || (size_t)lf >= sizeof src_file || (size_t)ld >= sizeof src_dset) {
            schema_fail(err, path, "cannot read mapping %zu of %s", i, name);
            goto cleanup;
        }
        hid_t sf = file;
        if (strcmp(src_file, ".")) {
            resolve(path, src_file, resolved, sizeof resolved);
            if ((sf = cache_open(cache, path, resolved, err)) < 0)
                goto cleanup;
        } else {
            snprintf(resolved, sizeof resolved, "%s", path);
        }
        hid_t sspace = H5Pget_virtual_srcspace(dcpl, i), sd = -1, dspace = -1;
        hsize_t lo[2] = {0, 0}, hi[2] = {0, 0}, dims[2] = {0, 0};
        bool ok = false;
        if (sspace >= 0 && H5Lexists(sf, src_dset, H5P_DEFAULT) > 0 && (sd = H5Dopen2(sf, src_dset, H5P_DEFAULT)) >= 0 &&
            (dspace = H5Dget_space(sd)) >= 0) {
            int rank = H5Sget_simple_extent_dims(dspace, dims, NULL);
            hssize_t npoints = H5Sget_select_npoints(sspace);
            ok = rank >= 1 && rank <= 2 && npoints >= 0 &&
                 (npoints == 0 || (H5Sget_select_bounds(sspace, lo, hi) >= 0 && hi[0] < dims[0] &&
                                   (rank == 1 || hi[1] < dims[1])));
        }
        if (dspace >= 0)
            H5Sclose(dspace);
        if (sd >= 0)
            H5Dclose(sd);
        if (sspace >= 0)
            H5Sclose(sspace);
        if (!ok) {
            H5Eclear2(H5E_DEFAULT);
            schema_fail(err, path, "index source %s lacks rows of %s that %s maps (the shard changed after the "
                                   "index was made; merge again)", resolved, src_dset, name);
            goto cleanup;
        }
    }
    rc = 0;
cleanup:
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (d >= 0)
        H5Dclose(d);
    return rc;
}

/* Row count of column c of an open source file, or UINT64_MAX. */
static uint64_t column_rows(hid_t f, Column c)
{
    uint64_t rows = UINT64_MAX;
    hid_t d = H5Lexists(f, SCHEMA_COLUMNS[c].path, H5P_DEFAULT) > 0 ? H5Dopen2(f, SCHEMA_COLUMNS[c].path, H5P_DEFAULT) : -1;
    hid_t s = d >= 0 ? H5Dget_space(d) : -1;
    hsize_t dims[2] = {0, 0};
    if (s >= 0 && H5Sget_simple_extent_dims(s, dims, NULL) >= 1)
        rows = dims[0];
    if (s >= 0)
        H5Sclose(s);
    if (d >= 0)
        H5Dclose(d);
    return rows;
}

/* One line of the index's source list: a finished shard, the one the index was made from. */
static int check_listed_source(SourceCache *cache, const char *path, char *line, XqError *err)
{
    char *fields[6];
    int n = 0;
    for (char *p = line; n < 6; n++) {
        fields[n] = p;
        char *tab = strchr(p, '\t');
        if (!tab) {
            n++;
            break;
        }
        *tab = '\0';
        p = tab + 1;
    }
    if (n != 6)
        return schema_fail(err, path, "the source list of %s has a malformed line", VDS_INDEX_GROUP);
    uint64_t rows[LEN_COUNT];
    static const LengthClass order[4] = {LEN_GAMES, LEN_POSITIONS, LEN_POLICY, LEN_MOVES};
    for (int k = 0; k < 4; k++) {
        char *end;
        rows[order[k]] = strtoull(fields[2 + k], &end, 10);
        if (*end)
            return schema_fail(err, path, "the source list of %s has a malformed row count", VDS_INDEX_GROUP);
    }
    char resolved[PATH_MAX + 256];
    resolve(path, fields[0], resolved, sizeof resolved);
    hid_t f = cache_open(cache, path, resolved, err);
    if (f < 0)
        return -1;
    if (H5Lexists(f, VDS_INDEX_GROUP, H5P_DEFAULT) > 0)
        return schema_fail(err, path, "index source %s is itself an index", resolved);
    int32_t version = DATASET_FORMAT_VERSION;
    if (attr_read_i32(f, "format_version", &version) < 0)
        return schema_fail(err, path, "index source %s has no format_version", resolved);
    bool vlen_ok = schema_vlen_strings(version);
    char *closed = attr_read_string(f, "closed_utc", vlen_ok), *created = attr_read_string(f, "created_utc", vlen_ok);
    bool finished = closed && closed[0], same = created && !strcmp(created, fields[1]);
    char created_copy[64];
    snprintf(created_copy, sizeof created_copy, "%s", created ? created : "?");
    free(closed);
    free(created);
    if (!finished)
        return schema_fail(err, path, "index source %s is not a finished shard (no closed_utc)", resolved);
    if (!same)
        return schema_fail(err, path, "index source %s is not the file the index was made from (created %s, "
                                      "indexed %s): merge --index again", resolved, created_copy, fields[1]);
    for (int c = 0; c < NCOLUMNS; c++) {
        if (!schema_column_in((Column)c, version))
            continue; /* not in that format: neither in the shard nor in the index */
        uint64_t have = column_rows(f, (Column)c), want = rows[SCHEMA_COLUMNS[c].length];
        if (have != want)
            return schema_fail(err, path, "index source %s: %s has %" PRIu64 " rows, the index expects %" PRIu64,
                               resolved, SCHEMA_COLUMNS[c].path, have == UINT64_MAX ? 0 : have, want);
    }
    return 0;
}

int vds_check(hid_t file, const char *path, int version, bool *is_index, XqError *err)
{
    *is_index = H5Lexists(file, VDS_INDEX_GROUP, H5P_DEFAULT) > 0;
    SourceCache cache = {0};
    int rc = -1;
    bool any_virtual = false;
    for (int c = 0; c < NCOLUMNS; c++) {
        bool v;
        if (check_mappings(&cache, file, path, (Column)c, &v, err) < 0)
            goto cleanup;
        any_virtual |= v;
    }
    if (any_virtual || *is_index) {
        const char *prefix = getenv("HDF5_VDS_PREFIX");
        if (prefix && *prefix) {
            schema_fail(err, path, "is a virtual-dataset index and HDF5_VDS_PREFIX is set: HDF5 would look for "
                                   "the shards elsewhere than beside the index; unset it");
            goto cleanup;
        }
    }
    if (*is_index) {
        hid_t g = H5Gopen2(file, VDS_INDEX_GROUP, H5P_DEFAULT);
        char *text = g >= 0 ? attr_read_string(g, "sources", schema_vlen_strings(version)) : NULL;
        if (g >= 0)
            H5Gclose(g);
        if (!text) {
            schema_fail(err, path, "%s has no source list", VDS_INDEX_GROUP);
            goto cleanup;
        }
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
            if (check_listed_source(&cache, path, line, err) < 0) {
                free(text);
                goto cleanup;
            }
        free(text);
    }
    rc = 0;
cleanup:
    cache_close(&cache);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}
