/* merge.c - xqlab merge: checks that files are the complete shards of one run and joins them, as a
 * copy or as a virtual-dataset index, in game-index order with the offset columns rebased. */
/* realpath() is an X/Open function. */
#define _XOPEN_SOURCE 700
#include "merge.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_file.h"
#include "schema.h"
#include "shards.h"
#include "vds.h"

enum { BLOCK_CHUNKS = 32 };   /* output chunks staged per write: about 8 MiB of raw rows */

typedef struct Source {
    const char *path;
    hid_t file;
    uint64_t first_game, games;
    uint64_t rows[LEN_COUNT];
    uint64_t base[LEN_COUNT];    /* rows of every class in the shards before this one */
    char created[32];
    char relpath[PATH_MAX];      /* from the output's folder (index mode) */
    int version;                 /* format_version: the output keeps the shards' version */
    int shard_index, shard_count; /* the shard's place in its run's split */
} Source;

void merge_shard_range(uint64_t games, int index, int count, uint64_t *first, uint64_t *n)
{
    /* Exact for any games < 2^64 / count: the product fits in 128 bits only as two halves, so
     * split games = q * count + r. */
    uint64_t q = games / (uint64_t)count, r = games % (uint64_t)count;
    uint64_t lo = q * (uint64_t)index + r * (uint64_t)index / (uint64_t)count;
    uint64_t hi = q * (uint64_t)(index + 1) + r * (uint64_t)(index + 1) / (uint64_t)count;
    *first = lo;
    *n = hi - lo;
}

int merge_shard_path(const char *out, int index, int count, char *buf, size_t size)
{
    size_t len = strlen(out);
    if (len > 3 && !strcmp(out + len - 3, ".h5"))
        len -= 3;
    int n = snprintf(buf, size, "%.*s.shard-%04d-of-%04d.h5", (int)len, out, index, count);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

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

/* Length class whose running total must be added to column c when shards are joined, or -1. */
static int rebase_class(Column c)
{
    switch (c) {
    case C_GAME_FIRST_POSITION: return LEN_POSITIONS;
    case C_GAME_FIRST_POLICY: case C_POS_FIRST_POLICY: return LEN_POLICY;
    case C_GAME_FIRST_MOVE: return LEN_MOVES;
    case C_POS_GAME: return LEN_GAMES;
    default: return -1;
    }
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* Reads one element of column c of an open shard. */
static int read_cell(const Source *s, Column c, uint64_t row, void *out, XqError *err)
{
    int rc = -1;
    hid_t d = H5Dopen2(s->file, SCHEMA_COLUMNS[c].path, H5P_DEFAULT);
    hid_t m = d >= 0 ? schema_mem_type_of(d, SCHEMA_COLUMNS[c].type) : -1;
    if (d >= 0 && m >= 0 && schema_read_rows(d, m, row, 1, 1, out) == 0)
        rc = 0;
    else
        schema_fail(err, s->path, "cannot read row %" PRIu64 " of %s", row, SCHEMA_COLUMNS[c].path);
    if (m >= 0)
        H5Tclose(m);
    if (d >= 0)
        H5Dclose(d);
    return rc;
}

/* Relative path from folder `from` (absolute, resolved) to file `to` (absolute, resolved). */
static int relative_path(const char *from, const char *to, char *buf, size_t size)
{
    size_t common = 0, i = 0;
    /* Longest common prefix ending at a folder boundary. */
    while (from[i] && to[i] && from[i] == to[i]) {
        i++;
        if (to[i] == '/' && (from[i] == '/' || from[i] == '\0'))
            common = i;
    }
    if (from[i] == '\0' && to[i] == '/')
        common = i;
    if (!strcmp(from, "/"))
        common = 0;
    size_t used = 0;
    buf[0] = '\0';
    for (const char *p = from + common; *p; p++)
        if (*p == '/' && used + 3 < size) {
            memcpy(buf + used, "../", 3);
            used += 3;
            buf[used] = '\0';
        }
    const char *rest = to + common;
    while (*rest == '/')
        rest++;
    int n = snprintf(buf + used, size - used, "%s", rest);
    return n < 0 || (size_t)n >= size - used ? -1 : 0;
}

/* Folder of `path`, resolved, into buf. */
static int resolved_folder(const char *path, char *buf)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    return realpath(dir, buf) ? 0 : -1;
}

static int compare_first_game(const void *a, const void *b)
{
    const Source *x = a, *y = b;
    return x->first_game < y->first_game ? -1 : x->first_game > y->first_game;
}

/* "PREFIXshard I of N" or "PREFIXshards I..J of N" into buf. */
static void shard_list(char *buf, size_t size, const char *prefix, int from, int to, int count)
{
    if (from == to)
        snprintf(buf, size, "%sshard %d of %d", prefix, from, count);
    else
        snprintf(buf, size, "%sshards %d..%d of %d", prefix, from, to, count);
}

/* The shards of the run missing before the first and after the last source (sorted, contiguous),
 * told by the first source's place in its split and the last one's: "" if the sources are a
 * whole run. Returns the source next to the first missing shard, or NULL. */
static const Source *missing_shards(const Source *src, int count, char *buf, size_t size)
{
    const Source *first = &src[0], *last = &src[count - 1], *at = NULL;
    char head[160] = "", tail[160] = "";
    if (first->first_game > 0) {
        /* A file of a partial merge starts late but says shard 0 of 1: only its games tell. */
        char which[80];
        if (first->shard_index > 0)
            shard_list(which, sizeof which, "", 0, first->shard_index - 1, first->shard_count);
        snprintf(head, sizeof head, "%s%sgames 0..%" PRIu64 "%s", first->shard_index > 0 ? which : "",
                 first->shard_index > 0 ? " (" : "", first->first_game - 1, first->shard_index > 0 ? ")" : "");
        at = first;
    }
    if (last->shard_index < last->shard_count - 1) {
        char which[80];
        shard_list(which, sizeof which, "", last->shard_index + 1, last->shard_count - 1, last->shard_count);
        snprintf(tail, sizeof tail, "%s (games from %" PRIu64 " on)", which, last->first_game + last->games);
        if (!at)
            at = last;
    }
    snprintf(buf, size, "%s%s%s", head, head[0] && tail[0] ? " and " : "", tail);
    return at;
}

/* Opens and checks every shard; fills src sorted by first game. A set that is not a whole run is
 * refused unless allow_partial, which describes the missing shards in `missing` instead. */
static int plan_sources(const char *const *paths, int count, bool allow_partial, Source *src, char *missing,
                        size_t missing_size, XqError *err)
{
    for (int i = 0; i < count; i++) {
        const char *p = paths[i];
        char tmp[PATH_MAX + 8];
        snprintf(tmp, sizeof tmp, "%s.tmp", p);
        if (has_suffix(p, ".tmp"))
            return fail(err, p, "is an unfinished shard (.tmp): complete it with the same selfplay command "
                                "and --resume, then merge the finished file");
        if (access(p, F_OK) != 0) {
            if (access(tmp, F_OK) == 0)
                return fail(err, p, "is not finished: only %s exists (complete it with the same selfplay "
                                    "command and --resume)", tmp);
            return fail(err, p, "missing shard file (no such file)");
        }
    }
    /* Same rule set, settings, weights and board; no file twice; no overlapping ranges. */
    ShardSet set;
    if (shards_open(&set, paths, count, err) < 0)
        return -1;
    int rc = -1;
    const DatasetSummary *s0 = shards_summary(&set, 0);
    for (int i = 0; i < count; i++) {
        const DatasetSummary *s = shards_summary(&set, i);
        Source *o = &src[i];
        o->path = paths[i];
        if (s->closed_utc[0] == '\0') {
            fail(err, paths[i], "is not finished (no closed_utc): complete it with selfplay --resume");
            goto cleanup;
        }
        if (s->ngames != s->game_count) {
            fail(err, paths[i], "holds %" PRIu64 " games but its range is %" PRIu64 " games (%" PRIu64 "..%" PRIu64 ")",
                 s->ngames, s->game_count, s->first_game, s->first_game + s->game_count - 1);
            goto cleanup;
        }
        if (s->base_seed != s0->base_seed) {
            fail(err, paths[i], "does not belong with %s: base seed %" PRIu64 " vs %" PRIu64 " (another run)",
                 paths[0], s->base_seed, s0->base_seed);
            goto cleanup;
        }
        if (s->format_version != s0->format_version) {
            fail(err, paths[i], "does not belong with %s: format version %d vs %d (written by another "
                                "xqlab version)", paths[0], s->format_version, s0->format_version);
            goto cleanup;
        }
        o->version = s->format_version;
        o->shard_index = s->shard_index;
        o->shard_count = s->shard_count;
        o->first_game = s->first_game;
        o->games = s->ngames;
        o->rows[LEN_GAMES] = s->ngames;
        o->rows[LEN_POSITIONS] = s->npositions;
        o->rows[LEN_POLICY] = s->npolicy;
        o->rows[LEN_MOVES] = s->nmoves;
        snprintf(o->created, sizeof o->created, "%s", s->created_utc);
    }
    rc = 0;
cleanup:
    shards_close(&set);
    if (rc < 0)
        return -1;

    for (int i = 0; i < count; i++) {
        Source *o = &src[i];
        if ((o->file = H5Fopen(o->path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
            return schema_fail(err, o->path, "cannot open the file");
        if (H5Lexists(o->file, VDS_INDEX_GROUP, H5P_DEFAULT) > 0)
            return fail(err, o->path, "is a virtual-dataset index, not a shard: merge the shards it lists");
        /* The rows must be the games of the range, in order (the writer keeps indices increasing). */
        uint64_t first = 0, last = 0;
        if (o->games > 0 && (read_cell(o, C_GAME_INDEX, 0, &first, err) < 0 ||
                             read_cell(o, C_GAME_INDEX, o->games - 1, &last, err) < 0))
            return -1;
        if (o->games > 0 && (first != o->first_game || last != o->first_game + o->games - 1))
            return fail(err, o->path, "holds games %" PRIu64 "..%" PRIu64 ", not its range %" PRIu64 "..%" PRIu64,
                        first, last, o->first_game, o->first_game + o->games - 1);
    }
    qsort(src, (size_t)count, sizeof *src, compare_first_game);
    char fen0[FEN_BYTES + 1] = {0};
    for (int i = 0; i < count; i++) {
        Source *o = &src[i];
        if (i > 0) {
            const Source *prev = &src[i - 1];
            uint64_t expect = prev->first_game + prev->games;
            if (o->first_game > expect) {
                char which[80] = "";
                if (o->shard_count == prev->shard_count && o->shard_index > prev->shard_index + 1)
                    shard_list(which, sizeof which, "; missing ", prev->shard_index + 1, o->shard_index - 1,
                               o->shard_count);
                return fail(err, o->path, "leaves a gap: games %" PRIu64 "..%" PRIu64 " are in no shard given "
                                          "(after %s%s)", expect, o->first_game - 1, prev->path, which);
            }
            if (o->first_game < expect)
                return fail(err, o->path, "overlaps %s: the same games twice (from game %" PRIu64 ")",
                            prev->path, o->first_game);
        }
        for (int k = 0; k < LEN_COUNT; k++)
            o->base[k] = i == 0 ? 0 : src[i - 1].base[k] + src[i - 1].rows[k];
        char fen[FEN_BYTES + 1] = {0};
        if (o->games > 0 && read_cell(o, C_GAME_START_FEN, 0, fen, err) < 0)
            return -1;
        if (i == 0)
            memcpy(fen0, fen, sizeof fen0);
        else if (o->games > 0 && src[0].games > 0 && strcmp(fen, fen0))
            return fail(err, o->path, "does not belong with %s: games start from '%s', not '%s'",
                        src[0].path, fen, fen0);
    }
    const Source *next_to = missing_shards(src, count, missing, missing_size);
    if (next_to && !allow_partial)
        return fail(err, next_to->path, "incomplete shard set: %s missing; give every shard of the run, or "
                                        "--allow-partial to merge games %" PRIu64 "..%" PRIu64 " only",
                    missing, src[0].first_game, src[count - 1].first_game + src[count - 1].games - 1);
    return 0;
}

/* Column c of the output as a copy: the source rows of every shard in order, read and written in
 * blocks of whole output chunks (so each chunk is compressed once), offsets rebased. */
static int copy_column(hid_t out, const char *out_path, Column c, const Source *src, int count, int npoints,
                       uint64_t total, hid_t dcpl, hid_t ftype, XqError *err)
{
    const ColumnSpec *spec = &SCHEMA_COLUMNS[c];
    int width = schema_width(c, npoints), rank = schema_is_2d(c) ? 2 : 1;
    int cls = rebase_class(c);
    hsize_t chunk[2] = {1, 1};
    if (H5Pget_chunk(dcpl, 2, chunk) < 1 || chunk[0] == 0)
        return schema_fail(err, src[0].path, "%s is not chunked", spec->path);
    size_t row_bytes = schema_type_size(spec->type) * (size_t)width;
    uint64_t block = (uint64_t)chunk[0] * BLOCK_CHUNKS;
    int rc = -1;
    hid_t dset = -1, mtype = schema_mem_type(schema_column_type(c, src[0].version)), space = -1, fspace = -1, mspace = -1,
          in = -1;
    uint8_t *buf = malloc((size_t)block * row_bytes);
    hsize_t dims[2] = {total, (hsize_t)width}, maxdims[2] = {H5S_UNLIMITED, (hsize_t)width};
    if (!buf || mtype < 0) {
        schema_fail(err, out_path, "out of memory copying %s", spec->path);
        goto cleanup;
    }
    if ((space = H5Screate_simple(rank, dims, maxdims)) < 0 ||
        (dset = H5Dcreate2(out, spec->path, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0) {
        schema_fail(err, out_path, "cannot create dataset %s", spec->path);
        goto cleanup;
    }
    uint64_t staged = 0, written = 0;
    for (int i = 0; i <= count; i++) {
        uint64_t rows = i < count ? src[i].rows[spec->length] : 0, at = 0;
        if (i < count && (in = H5Dopen2(src[i].file, spec->path, H5P_DEFAULT)) < 0) {
            schema_fail(err, src[i].path, "cannot open %s", spec->path);
            goto cleanup;
        }
        while (at < rows || (i == count && staged > 0)) {
            if (at < rows) {
                uint64_t n = rows - at < block - staged ? rows - at : block - staged;
                uint8_t *dst = buf + (size_t)staged * row_bytes;
                if (schema_read_rows(in, mtype, at, n, width, dst) < 0) {
                    schema_fail(err, src[i].path, "cannot read rows %" PRIu64 "..%" PRIu64 " of %s", at, at + n - 1,
                                spec->path);
                    goto cleanup;
                }
                if (cls >= 0) {
                    uint64_t *v = (uint64_t *)(void *)dst, add = src[i].base[cls];
                    for (uint64_t k = 0; k < n; k++)
                        v[k] += add;
                }
                staged += n;
                at += n;
            }
            if (staged == block || (i == count && staged > 0)) {
                hsize_t off[2] = {written, 0}, cnt[2] = {staged, (hsize_t)width};
                if ((fspace = H5Dget_space(dset)) < 0 ||
                    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, cnt, NULL) < 0 ||
                    (mspace = H5Screate_simple(rank, cnt, NULL)) < 0 ||
                    H5Dwrite(dset, mtype, mspace, fspace, H5P_DEFAULT, buf) < 0) {
                    schema_fail(err, out_path, "cannot write rows %" PRIu64 "..%" PRIu64 " of %s", written,
                                written + staged - 1, spec->path);
                    goto cleanup;
                }
                H5Sclose(fspace);
                H5Sclose(mspace);
                fspace = mspace = -1;
                written += staged;
                staged = 0;
            }
        }
        if (in >= 0)
            H5Dclose(in);
        in = -1;
    }
    rc = 0;
cleanup:
    if (in >= 0)
        H5Dclose(in);
    if (fspace >= 0)
        H5Sclose(fspace);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (space >= 0)
        H5Sclose(space);
    if (mtype >= 0)
        H5Tclose(mtype);
    if (dset >= 0 && H5Dclose(dset) < 0 && rc == 0)
        rc = schema_fail(err, out_path, "cannot close %s", spec->path);
    free(buf);
    return rc;
}

/* Column c of the index as a virtual dataset: shard i's whole column mapped at its base row. */
static int virtual_column(hid_t out, const char *out_path, Column c, const Source *src, int count, int npoints,
                          uint64_t total, hid_t ftype, XqError *err)
{
    const ColumnSpec *spec = &SCHEMA_COLUMNS[c];
    int width = schema_width(c, npoints), rank = schema_is_2d(c) ? 2 : 1;
    int rc = -1;
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), space = -1, vspace = -1, sspace = -1, dset = -1;
    hsize_t dims[2] = {total, (hsize_t)width};
    if (dcpl < 0 || (space = H5Screate_simple(rank, dims, NULL)) < 0) {
        schema_fail(err, out_path, "cannot set up %s", spec->path);
        goto cleanup;
    }
    for (int i = 0; i < count; i++) {
        uint64_t rows = src[i].rows[spec->length];
        if (rows == 0)
            continue;
        hsize_t off[2] = {src[i].base[spec->length], 0}, cnt[2] = {rows, (hsize_t)width};
        if ((vspace = H5Scopy(space)) < 0 || H5Sselect_hyperslab(vspace, H5S_SELECT_SET, off, NULL, cnt, NULL) < 0 ||
            (sspace = H5Screate_simple(rank, cnt, NULL)) < 0 ||
            H5Pset_virtual(dcpl, vspace, src[i].relpath, spec->path, sspace) < 0) {
            schema_fail(err, out_path, "cannot map %s of %s", spec->path, src[i].path);
            goto cleanup;
        }
        H5Sclose(vspace);
        H5Sclose(sspace);
        vspace = sspace = -1;
    }
    if ((dset = H5Dcreate2(out, spec->path, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0) {
        schema_fail(err, out_path, "cannot create the virtual dataset %s", spec->path);
        goto cleanup;
    }
    rc = 0;
cleanup:
    if (dset >= 0 && H5Dclose(dset) < 0 && rc == 0)
        rc = schema_fail(err, out_path, "cannot close %s", spec->path);
    if (vspace >= 0)
        H5Sclose(vspace);
    if (sspace >= 0)
        H5Sclose(sspace);
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return rc;
}

static int write_column(hid_t out, const char *out_path, Column c, const Source *src, int count, int npoints,
                        uint64_t total, bool index, XqError *err)
{
    const ColumnSpec *spec = &SCHEMA_COLUMNS[c];
    int rc = -1;
    hid_t in = H5Dopen2(src[0].file, spec->path, H5P_DEFAULT), dcpl = -1, ftype = -1, dset = -1;
    if (in < 0 || (dcpl = H5Dget_create_plist(in)) < 0 || (ftype = H5Dget_type(in)) < 0) {
        schema_fail(err, src[0].path, "cannot read the layout of %s", spec->path);
        goto cleanup;
    }
    /* The offset columns hold numbers that change with the shard's place; a VDS maps values, it
     * cannot add a base, so the index stores them rebased (they are a small part of the data). */
    if (index && rebase_class(c) < 0 && total > 0)
        rc = virtual_column(out, out_path, c, src, count, npoints, total, ftype, err);
    else
        rc = copy_column(out, out_path, c, src, count, npoints, total, dcpl, ftype, err);
    if (rc < 0)
        goto cleanup;
    rc = -1;
    hsize_t idx = 0;
    if ((dset = H5Dopen2(out, spec->path, H5P_DEFAULT)) < 0 ||
        H5Aiterate2(in, H5_INDEX_NAME, H5_ITER_INC, &idx, schema_copy_attribute, &dset) < 0) {
        schema_fail(err, out_path, "cannot copy the attributes of %s", spec->path);
        goto cleanup;
    }
    rc = 0;
cleanup:
    if (dset >= 0)
        H5Dclose(dset);
    if (ftype >= 0)
        H5Tclose(ftype);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (in >= 0)
        H5Dclose(in);
    return rc;
}

/* Root attributes of the joined file: those of a single run over the whole range. */
static int write_root(hid_t out, const char *out_path, const Source *src, int count, const char *command_line,
                      XqError *err)
{
    int rc = -1;
    hid_t f = src[0].file;
    char *texts[6] = {0};
    static const char *const names[6] = {"program_version", "variant_name", "variant_text", "weights_text",
                                         "params_text", "command_line"};
    for (int i = 0; i < 6; i++)
        if (!(texts[i] = attr_read_string(f, names[i], schema_vlen_strings(src[0].version)))) {
            schema_fail(err, src[0].path, "root attribute %s is missing", names[i]);
            goto cleanup;
        }
    uint64_t seed = 0;
    int32_t npoints = 0;
    if (attr_read_u64(f, "base_seed", &seed) < 0 || attr_read_i32(f, "npoints", &npoints) < 0) {
        schema_fail(err, src[0].path, "root attributes base_seed / npoints are missing");
        goto cleanup;
    }
    const char *created = src[0].created;
    for (int i = 1; i < count; i++)
        if (strcmp(src[i].created, created) < 0)
            created = src[i].created;
    char host[256] = "unknown", now[32];
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    schema_utc_now(now, sizeof now);
    size_t cl_size = strlen(command_line) + strlen(texts[5]) + 64;
    char *cl = malloc(cl_size);
    if (!cl) {
        schema_fail(err, out_path, "out of memory");
        goto cleanup;
    }
    snprintf(cl, cl_size, "%s (shards written by: %s)", command_line, texts[5]);
    uint64_t games = src[count - 1].first_game + src[count - 1].games - src[0].first_game;
    char letters[40];
    /* A whole run is shard 0 of 1. A partial merge that lacks the run's last shards keeps the
     * place of its own last one, so a later merge of it still finds the shards after it missing. */
    const Source *last = &src[count - 1];
    bool end_missing = last->shard_index < last->shard_count - 1;
    if (attr_write_i32(out, "format_version", src[0].version) < 0 ||
        attr_write_string(out, "program_version", texts[0]) < 0 ||
        attr_write_string(out, "variant_name", texts[1]) < 0 ||
        attr_write_string(out, "variant_text", texts[2]) < 0 ||
        attr_write_string(out, "weights_text", texts[3]) < 0 ||
        attr_write_string(out, "params_text", texts[4]) < 0 ||
        attr_write_string(out, "command_line", cl) < 0 ||
        attr_write_u64(out, "base_seed", seed) < 0 ||
        attr_write_i32(out, "shard_index", end_missing ? last->shard_index : 0) < 0 ||
        attr_write_i32(out, "shard_count", end_missing ? last->shard_count : 1) < 0 ||
        attr_write_u64(out, "first_game", src[0].first_game) < 0 ||
        attr_write_u64(out, "game_count", games) < 0 ||
        attr_write_i32(out, "npoints", npoints) < 0 ||
        attr_write_string(out, "host", host) < 0 ||
        attr_write_string(out, "created_utc", created) < 0 ||
        attr_write_string(out, "closed_utc", now) < 0 ||
        (src[0].version >= 5 && schema_piece_letters(texts[2], letters, sizeof letters) == 0 &&
         attr_write_string(out, "piece_letters", letters) < 0))
        schema_fail(err, out_path, "cannot write the root attributes");
    else
        rc = 0;
    /* How the games start and the run's -n, where the shards record them (shards_open checked
     * they agree): a merged file is the run's result for --resume and tune too. */
    char *start = rc == 0 ? attr_read_string(f, "start", schema_vlen_strings(src[0].version)) : NULL;
    uint64_t run_games = 0;
    if (rc == 0 && start && attr_write_string(out, "start", start) < 0)
        rc = schema_fail(err, out_path, "cannot write the root attribute start");
    if (rc == 0 && attr_read_u64(f, "run_games", &run_games) < 0) {
        run_games = 0;
        H5Eclear2(H5E_DEFAULT);
    }
    if (rc == 0 && run_games && attr_write_u64(out, "run_games", run_games) < 0)
        rc = schema_fail(err, out_path, "cannot write the root attribute run_games");
    free(start);
    free(cl);
cleanup:
    for (int i = 0; i < 6; i++)
        free(texts[i]);
    return rc;
}

/* The /index group: one line per source, "relative path TAB created_utc TAB games TAB positions
 * TAB policy rows TAB moves", in game order. */
static int write_index_group(hid_t out, const char *out_path, const Source *src, int count, XqError *err)
{
    size_t size = 1, used = 0;
    for (int i = 0; i < count; i++)
        size += strlen(src[i].relpath) + 160;
    char *text = malloc(size);
    if (!text)
        return schema_fail(err, out_path, "out of memory");
    text[0] = '\0';
    for (int i = 0; i < count; i++)
        used += (size_t)snprintf(text + used, size - used, "%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
                                 src[i].relpath, src[i].created, src[i].rows[LEN_GAMES], src[i].rows[LEN_POSITIONS],
                                 src[i].rows[LEN_POLICY], src[i].rows[LEN_MOVES]);
    int rc = -1;
    hid_t g = H5Gcreate2(out, VDS_INDEX_GROUP, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g >= 0 && attr_write_i32(g, "source_count", count) == 0 && attr_write_string(g, "sources", text) == 0 &&
        attr_write_string(g, "description", VDS_INDEX_DESCRIPTION) == 0)
        rc = 0;
    else
        schema_fail(err, out_path, "cannot write the group %s", VDS_INDEX_GROUP);
    if (g >= 0)
        H5Gclose(g);
    free(text);
    return rc;
}

static int write_output(const char *tmp, const char *out, Source *src, int count, bool index,
                        const char *command_line, XqError *err)
{
    int rc = -1;
    /* Exclusive: the caller removed a stale OUT.tmp under its lock (cli/output.h), so one that
     * exists now is another writer's, never to be truncated or followed. A write that fails (a
     * full disk) is hidden from HDF5, which crashes at exit after a close that failed, and
     * reported after the close (safe_file.h). */
    H5SafeStatus io = {0};
    errno = 0;
    hid_t fapl = h5safe_fapl(H5SAFE_DIRECT, &io);
    hid_t f = fapl < 0 ? -1 : H5Fcreate(tmp, H5F_ACC_EXCL, H5P_DEFAULT, fapl);
    int e = errno;
    if (fapl >= 0)
        H5Pclose(fapl);
    if (f < 0)
        return schema_fail(err, tmp, "cannot create the file%s%s", e ? ": " : "", e ? strerror(e) : "");
    int32_t npoints = 0;
    uint64_t total[LEN_COUNT];
    for (int k = 0; k < LEN_COUNT; k++)
        total[k] = src[count - 1].base[k] + src[count - 1].rows[k];
    if (attr_read_i32(src[0].file, "npoints", &npoints) < 0) {
        schema_fail(err, src[0].path, "root attribute npoints is missing");
        goto cleanup;
    }
    if (index) {
        char folder[PATH_MAX], shard[PATH_MAX];
        if (resolved_folder(out, folder) < 0) {
            schema_fail(err, out, "cannot resolve its folder: %s", strerror(errno));
            goto cleanup;
        }
        for (int i = 0; i < count; i++) {
            if (!realpath(src[i].path, shard) || relative_path(folder, shard, src[i].relpath, sizeof src[i].relpath) < 0) {
                schema_fail(err, src[i].path, "cannot resolve its path relative to %s", folder);
                goto cleanup;
            }
            if (strchr(src[i].relpath, '\t') || strchr(src[i].relpath, '\n')) {
                schema_fail(err, src[i].path, "a shard path with a tab or newline cannot be indexed");
                goto cleanup;
            }
        }
    }
    if (write_root(f, tmp, src, count, command_line, err) < 0)
        goto cleanup;
    static const char *const groups[] = {"/games", "/positions", "/policy"};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        hid_t g = H5Gcreate2(f, groups[i], H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (g < 0) {
            schema_fail(err, tmp, "cannot create group %s", groups[i]);
            goto cleanup;
        }
        H5Gclose(g);
    }
    /* Every column of the shards' format, the hidden-piece ones of format 2 included. */
    for (int c = 0; c < NCOLUMNS; c++)
        if (schema_column_in((Column)c, src[0].version) &&
            write_column(f, tmp, (Column)c, src, count, npoints, total[SCHEMA_COLUMNS[c].length], index, err) < 0)
            goto cleanup;
    if (index && write_index_group(f, tmp, src, count, err) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    if (H5Fclose(f) < 0 && rc == 0)
        rc = schema_fail(err, tmp, "cannot close the file");
    /* The disk's failure is the cause of whatever went wrong after it (HDF5 read back zeros). */
    if (io.error)
        rc = h5safe_fail(err, tmp, "cannot write the file", &io);
    return rc;
}

int merge_shards(const char *const *paths, int count, const char *out, bool index, bool allow_partial,
                 bool replace, const char *command_line, MergeStats *stats, XqError *err)
{
    schema_quiet_hdf5();
    memset(stats, 0, sizeof *stats);
    if (count < 1)
        return fail(err, out, "no shard files given");
    if (!replace && access(out, F_OK) == 0)
        return fail(err, out, "already exists: choose another -o, or add --force to replace it (nothing was "
                    "overwritten)");
    if (xq_zstd_register() < 0)
        return fail(err, out, "cannot register the zstd filter");
    Source *src = calloc((size_t)count, sizeof *src);
    if (!src)
        return fail(err, out, "out of memory");
    for (int i = 0; i < count; i++)
        src[i].file = -1;
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    int rc = plan_sources(paths, count, allow_partial, src, stats->missing, sizeof stats->missing, err);
    if (rc == 0)
        rc = write_output(tmp, out, src, count, index, command_line, err);
    for (int i = 0; i < count; i++)
        if (src[i].file >= 0)
            H5Fclose(src[i].file);
    if (rc == 0) {
        /* Read the result back through the reader (structure, offsets, index sources) before it
         * gets its final name. */
        DatasetReader *r = dsr_open(tmp, err);
        if (!r)
            rc = -1;
        else {
            const DatasetSummary *s = dsr_summary(r);
            stats->shards = count;
            stats->games = s->ngames;
            stats->positions = s->npositions;
            stats->policy = s->npolicy;
            stats->moves = s->nmoves;
            stats->first_game = src[0].first_game;
            dsr_close(r);
        }
    }
    if (rc == 0) {
        int fd = open(tmp, O_RDONLY);
        if (fd >= 0) {
            (void)fsync(fd);
            close(fd);
        }
        if (rename(tmp, out) != 0)
            rc = fail(err, tmp, "cannot rename to %s: %s", out, strerror(errno));
    }
    if (rc < 0)
        remove(tmp);
    else {
        struct stat st;
        if (stat(out, &st) == 0)
            stats->bytes_written = (uint64_t)st.st_size;
    }
    free(src);
    return rc;
}
