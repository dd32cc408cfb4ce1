/* openings_h5.c - the opening tree as the HDF5 group /openings of a separate output file. */
#include "openings_h5.h"

#include "interval.h"

#include <errno.h>
#include <hdf5.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interval.h"
#include "safe_file.h"
#include "schema.h"

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

static int write_column(hid_t group, const char *name, hid_t type, hsize_t rows, const void *data)
{
    hid_t space = H5Screate_simple(1, &rows, NULL);
    if (space < 0)
        return -1;
    hid_t d = H5Dcreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d >= 0 && H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0 ? 0 : -1;
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(space);
    return rc;
}

static int write_attr(hid_t obj, const char *name, hid_t type, const void *value)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a >= 0 && H5Awrite(a, type, value) >= 0 ? 0 : -1;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(space);
    return rc;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Writes the group into an open file; 0 or -1. */
static int write_group(hid_t file, const OpeningTree *t, const char *sources)
{
    size_t n = (size_t)t->count;
    int rc = -1;
    int32_t *parent = malloc(n * sizeof *parent);
    uint8_t *depth = malloc(n);
    uint32_t *move = malloc(n * sizeof *move);
    char *text = calloc(n, 16);
    uint64_t *counts = malloc(4 * n * sizeof *counts);
    double *reals = malloc(4 * n * sizeof *reals);
    hid_t group = -1, str16 = -1;
    if (!parent || !depth || !move || !text || !counts || !reals)
        goto cleanup;
    for (size_t i = 0; i < n; i++) {
        const OpeningNode *o = &t->nodes[i];
        parent[i] = o->parent;
        depth[i] = (uint8_t)o->depth;
        move[i] = o->move;
        memcpy(text + 16 * i, o->text, strnlen(o->text, 15));
        uint64_t games = wdl_games(&o->red);
        counts[i] = games;
        counts[n + i] = o->red.wins;
        counts[2 * n + i] = o->red.draws;
        counts[3 * n + i] = o->red.losses;
        reals[i] = wdl_score(&o->red);
        ScoreInterval si;
        interval_wdl(&o->red, STATS_Z95, &si);
        reals[n + i] = si.lo;
        reals[2 * n + i] = si.hi;
        reals[3 * n + i] = openings_share(t, (int)i);
    }
    group = H5Gcreate2(file, "/openings", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    str16 = H5Tcopy(H5T_C_S1);
    if (group < 0 || str16 < 0 || H5Tset_size(str16, 16) < 0 || H5Tset_strpad(str16, H5T_STR_NULLPAD) < 0)
        goto cleanup;
    hsize_t rows = n;
    if (write_column(group, "parent", H5T_STD_I32LE, rows, parent) < 0 ||
        write_column(group, "depth", H5T_STD_U8LE, rows, depth) < 0 ||
        write_column(group, "move", H5T_STD_U32LE, rows, move) < 0 ||
        write_column(group, "text", str16, rows, text) < 0 ||
        write_column(group, "games", H5T_STD_U64LE, rows, counts) < 0 ||
        write_column(group, "red_wins", H5T_STD_U64LE, rows, counts + n) < 0 ||
        write_column(group, "draws", H5T_STD_U64LE, rows, counts + 2 * n) < 0 ||
        write_column(group, "black_wins", H5T_STD_U64LE, rows, counts + 3 * n) < 0 ||
        write_column(group, "score", H5T_IEEE_F64LE, rows, reals) < 0 ||
        write_column(group, "score_lo", H5T_IEEE_F64LE, rows, reals + n) < 0 ||
        write_column(group, "score_hi", H5T_IEEE_F64LE, rows, reals + 2 * n) < 0 ||
        write_column(group, "share", H5T_IEEE_F64LE, rows, reals + 3 * n) < 0)
        goto cleanup;
    int32_t tree_depth = t->depth;
    uint64_t games = wdl_games(&t->nodes[0].red);
    double entropy = openings_child_entropy(t, 0);
    /* Fixed-length strings, as in the datasets (export/schema.h). */
    if (attr_write_string(group, "variant_name", t->v->name) < 0 ||
        attr_write_string(group, "root_fen", t->root_fen) < 0 ||
        attr_write_string(group, "sources", sources) < 0 ||
        attr_write_string(group, "move_notation", t->wxf ? "WXF" : "ICCS") < 0 ||
        write_attr(group, "depth", H5T_NATIVE_INT32, &tree_depth) < 0 ||
        write_attr(group, "games", H5T_NATIVE_UINT64, &games) < 0 ||
        write_attr(group, "first_move_entropy", H5T_NATIVE_DOUBLE, &entropy) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    if (str16 >= 0)
        H5Tclose(str16);
    if (group >= 0)
        H5Gclose(group);
    free(parent);
    free(depth);
    free(move);
    free(text);
    free(counts);
    free(reals);
    return rc;
}

int openings_h5_write(const char *path, const OpeningTree *t, const char *const *sources, int nsources,
                      XqError *err)
{
    for (int i = 0; i < nsources; i++)
        if (!strcmp(path, sources[i]) || same_file(path, sources[i]))
            return fail(err, path, "is an input dataset: write the opening tree to a separate file");
    size_t len = 1;
    for (int i = 0; i < nsources; i++)
        len += strlen(sources[i]) + 1;
    if (len - 1 > ATTR_TEXT_MAX)
        return fail(err, path, "the list of input files is %zu bytes: the sources attribute holds at most %d",
                    len - 1, ATTR_TEXT_MAX);
    char *joined = malloc(len), tmp[1100];
    if (!joined)
        return fail(err, path, "out of memory");
    joined[0] = '\0';
    for (int i = 0; i < nsources; i++) {
        strcat(joined, sources[i]);
        if (i + 1 < nsources)
            strcat(joined, "\n");
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    /* A failed write (a full disk) is hidden from HDF5, which crashes at exit after a close
     * that failed, and reported after the close (export/safe_file.h). */
    H5SafeStatus io = {0};
    errno = 0;
    hid_t fapl = h5safe_fapl(H5SAFE_DIRECT, &io);
    hid_t file = fapl < 0 ? -1 : H5Fcreate(tmp, H5F_ACC_EXCL, H5P_DEFAULT, fapl);
    int e = errno;
    if (fapl >= 0)
        H5Pclose(fapl);
    if (file < 0) {
        free(joined);
        return fail(err, tmp, "cannot create the file%s%s", e ? ": " : "", e ? strerror(e) : "");
    }
    int rc = write_group(file, t, joined);
    free(joined);
    if (H5Fclose(file) < 0)
        rc = -1;
    if (io.error) {
        unlink(tmp);
        return fail(err, tmp, "cannot write the file: %s", strerror(io.error));
    }
    if (rc < 0) {
        unlink(tmp);
        return fail(err, tmp, "cannot write the /openings group");
    }
    if (rename(tmp, path) != 0) {
        unlink(tmp);
        return fail(err, path, "cannot rename %s to it", tmp);
    }
    return 0;
}
