/* writer.c - the dataset writer: buffers games in memory, appends them to the column datasets of
 * PATH.tmp at each flush (recording the committed row counts in the journal PATH.tmp.games),
 * renames a compact copy to PATH at close, and verifies and resumes an interrupted PATH.tmp. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_file.h"
#include "schema.h"
#include "zstd_filter.h"

enum {
    /* Uncompressed bytes per chunk: well under the 1 MiB default chunk cache (NOTES.md: a chunk
     * larger than the cache made small appends 43x slower), large enough for zstd to find the
     * repetition between consecutive positions. */
    CHUNK_TARGET_BYTES = 256 * 1024,
    /* dsw_append flushes by itself when this many positions are buffered. */
    AUTO_FLUSH_POSITIONS = 32768,
};

typedef struct ByteBuffer {
    uint8_t *data;
    size_t len, cap;
} ByteBuffer;

struct DatasetWriter {
    char path[1024];
    char tmp_path[1040];
    char journal_path[1060];          /* PATH.tmp.games */
    hid_t file;
    hid_t dset[NCOLUMNS];
    hid_t mtype[NCOLUMNS];
    ByteBuffer pending[NCOLUMNS];
    uint64_t disk_rows[NCOLUMNS];     /* rows of each column on disk */
    uint64_t total[LEN_COUNT];        /* rows of each length class, buffered ones included */
    uint64_t pending_positions;
    int npoints;
    unsigned int level;               /* zstd level for new datasets */
    bool have_last;
    uint64_t last_index;
    bool failed;                      /* a flush failed: the file state is unknown */
    H5SafeStatus io;                  /* failures of PATH.tmp's journal (safe_file.h) */
};

static bool buffer_push(ByteBuffer *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *p = realloc(b->data, cap);
        if (!p)
            return false;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    return true;
}

static size_t row_bytes(const DatasetWriter *w, Column c)
{
    const ColumnSpec *s = &SCHEMA_COLUMNS[c];
    return schema_type_size(s->type) * (size_t)schema_width(c, w->npoints);
}

static void writer_free(DatasetWriter *w)
{
    for (int c = 0; c < NCOLUMNS; c++) {
        if (w->dset[c] >= 0)
            H5Dclose(w->dset[c]);
        if (w->mtype[c] >= 0)
            H5Tclose(w->mtype[c]);
        free(w->pending[c].data);
    }
    if (w->file >= 0)
        H5Fclose(w->file);
    free(w);
}

static int write_meta(DatasetWriter *w, const DatasetMeta *m, XqError *err)
{
    char host[256] = "unknown", now[32];
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    schema_utc_now(now, sizeof now);
    hid_t f = w->file;
    const char *const texts[][2] = {
        {"program_version", XQLAB_VERSION}, {"variant_name", m->variant_name}, {"variant_text", m->variant_text},
        {"weights_text", m->weights_text}, {"params_text", m->params_text}, {"command_line", m->command_line},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t len = texts[i][1] ? strlen(texts[i][1]) : 0;
        if (len > ATTR_TEXT_MAX)
            return schema_fail(err, w->tmp_path, "%s is %zu bytes: a text attribute holds at most %d bytes",
                               texts[i][0], len, ATTR_TEXT_MAX);
        if (attr_write_string(f, texts[i][0], texts[i][1]) < 0)
            return schema_fail(err, w->tmp_path, "cannot write the root attribute %s", texts[i][0]);
    }
    /* Board byte -> piece letter, so that a reader needs no rule-set parser (format 5); left out
     * only when the text is not a loadable rule set (synthetic test data). */
    char letters[40];
    if (schema_piece_letters(m->variant_text ? m->variant_text : "", letters, sizeof letters) == 0 &&
        attr_write_string(f, "piece_letters", letters) < 0)
        return schema_fail(err, w->tmp_path, "cannot write the root attribute piece_letters");
    if (attr_write_i32(f, "format_version", DATASET_FORMAT_VERSION) < 0 ||
        attr_write_u64(f, "base_seed", m->base_seed) < 0 ||
        attr_write_i32(f, "shard_index", m->shard_index) < 0 ||
        attr_write_i32(f, "shard_count", m->shard_count) < 0 ||
        attr_write_u64(f, "first_game", m->first_game) < 0 ||
        attr_write_u64(f, "game_count", m->game_count) < 0 ||
        attr_write_i32(f, "npoints", m->npoints) < 0 ||
        attr_write_string(f, "host", host) < 0 ||
        attr_write_string(f, "created_utc", now) < 0 ||
        attr_write_string(f, "closed_utc", "") < 0 ||
        (m->start_text && attr_write_string(f, "start", m->start_text) < 0) ||
        (m->run_games && attr_write_u64(f, "run_games", m->run_games) < 0))
        return schema_fail(err, w->tmp_path, "cannot write the root attributes");
    return 0;
}

static int create_column(DatasetWriter *w, Column c, XqError *err)
{
    const ColumnSpec *spec = &SCHEMA_COLUMNS[c];
    int rc = -1;
    hid_t space = -1, dcpl = -1, ftype = -1;
    int width = schema_width(c, w->npoints);
    int rank = schema_is_2d(c) ? 2 : 1;
    hsize_t dims[2] = {0, (hsize_t)width};
    hsize_t maxdims[2] = {H5S_UNLIMITED, (hsize_t)width};
    size_t rb = row_bytes(w, c);
    hsize_t chunk[2] = {rb < CHUNK_TARGET_BYTES ? CHUNK_TARGET_BYTES / rb : 1, (hsize_t)width};
    unsigned int level = w->level;
    if ((space = H5Screate_simple(rank, dims, maxdims)) < 0 || (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
        H5Pset_chunk(dcpl, rank, chunk) < 0) {
        schema_fail(err, w->tmp_path, "cannot set up the chunking of %s", spec->path);
        goto cleanup;
    }
    /* Shuffle groups byte k of every element together, so the constant high bytes of small
     * integers become long zero runs; it does nothing for one-byte elements. */
    if (schema_type_size(spec->type) > 1 && spec->type != T_FEN && H5Pset_shuffle(dcpl) < 0) {
        schema_fail(err, w->tmp_path, "cannot add the shuffle filter to %s", spec->path);
        goto cleanup;
    }
    if (H5Pset_filter(dcpl, XQ_ZSTD_FILTER_ID, H5Z_FLAG_MANDATORY, 1, &level) < 0) {
        schema_fail(err, w->tmp_path, "cannot add the zstd filter to %s", spec->path);
        goto cleanup;
    }
    if ((ftype = schema_file_type(spec->type)) < 0) {
        schema_fail(err, w->tmp_path, "cannot make the type of %s", spec->path);
        goto cleanup;
    }
    w->dset[c] = H5Dcreate2(w->file, spec->path, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (w->dset[c] < 0) {
        schema_fail(err, w->tmp_path, "cannot create dataset %s", spec->path);
        goto cleanup;
    }
    if (attr_write_string(w->dset[c], "description", spec->doc) < 0) {
        schema_fail(err, w->tmp_path, "cannot describe dataset %s", spec->path);
        goto cleanup;
    }
    if ((c == C_POS_ROOT_VALUE || c == C_POS_STATIC_EVAL) &&
        (attr_write_f64(w->dset[c], "scale", 1.0 / VALUE_SCALE) < 0 ||
         attr_write_i32(w->dset[c], "missing", VALUE_MISSING) < 0)) {
        schema_fail(err, w->tmp_path, "cannot write the scale of %s", spec->path);
        goto cleanup;
    }
    rc = 0;
cleanup:
    if (ftype >= 0)
        H5Tclose(ftype);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

static int create_layout(DatasetWriter *w, XqError *err)
{
    static const char *const groups[] = {"/games", "/positions", "/policy"};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        hid_t g = H5Gcreate2(w->file, groups[i], H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (g < 0)
            return schema_fail(err, w->tmp_path, "cannot create group %s", groups[i]);
        H5Gclose(g);
    }
    for (int c = 0; c < NCOLUMNS; c++)
        if (create_column(w, c, err) < 0)
            return -1;
    return 0;
}

/* Reads one element of a column (the resume path needs a handful of them). */
static int read_one(DatasetWriter *w, Column c, uint64_t row, void *out, XqError *err)
{
    if (schema_read_rows(w->dset[c], w->mtype[c], row, 1, 1, out) < 0)
        return schema_fail(err, w->tmp_path, "cannot read row %" PRIu64 " of %s", row, SCHEMA_COLUMNS[c].path);
    return 0;
}

static void warn(const char *path, const char *what)
{
    fprintf(stderr, "xqlab: warning: %s: %s\n", path, what);
}

/* Creates PATH.tmp (journal mode: every flush reaches the disk whole or not at all, see
 * safe_file.h) or a rebuilt copy of it (direct mode: renamed into place only once complete).
 * Since a flush is all or nothing, HDF5's default file-space strategy is safe here: the space of a
 * chunk a flush replaces is reused by a later write of the same or a later flush, never while the
 * file on disk still points at it (the strategy NONE used before the journal left every replaced
 * chunk behind: the file grew by 0.2-0.5 MB per flush). */
static hid_t create_tmp_file(const char *path, H5SafeMode mode, H5SafeStatus *status)
{
    hid_t fapl = h5safe_fapl(mode, status);
    if (fapl < 0)
        return -1;
    errno = 0;
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    /* H5Pclose clears HDF5's error stack: keep the system's reason (errno) for the message. */
    int saved = errno;
    H5Pclose(fapl);
    errno = saved;
    return f;
}

/* H5Fflush of PATH.tmp, which commits the flush through its redo log: a failure there (a full
 * disk) is in w->io, not in HDF5's return value (safe_file.h). After one the file on disk is
 * still the previous flush's, and nothing more is written to it. */
static int flush_file(DatasetWriter *w, XqError *err)
{
    if (H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
        return schema_fail(err, w->tmp_path, "cannot flush the file to disk");
    if (w->io.error)
        return h5safe_fail(err, w->tmp_path, "cannot flush the file to disk", &w->io);
    return 0;
}

/* Opens PATH.tmp for writing in journal mode (finishing a flush a kill interrupted). */
static hid_t open_tmp_file(const char *path, H5SafeStatus *status)
{
    hid_t fapl = h5safe_fapl(H5SAFE_JOURNAL, status);
    if (fapl < 0)
        return -1;
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, fapl);
    H5Pclose(fapl);
    return f;
}

/* Fails with "cannot create the file" and the system's reason when there is one (errno set by a
 * failed create_tmp_file: a full disk, a read-only or missing directory). */
static int create_fail(XqError *err, const char *path)
{
    int e = errno;
    return schema_fail(err, path, "cannot create the file%s%s", e ? ": " : "", e ? strerror(e) : "");
}

/* ---- the journal PATH.tmp.games ----
 * After every completed flush the row counts it committed are written to PATH.tmp.games.new and
 * renamed over PATH.tmp.games, so the journal is always whole and never ahead of the data. A kill
 * inside a flush can leave HDF5's dimensions newer than the chunks they describe; --resume trusts
 * the journal instead. The journal names the file it describes by device and inode, so one left
 * from another file (or from before a rebuild renamed a new .tmp into place) is never applied. */
static const char JOURNAL_MAGIC[8] = {'X', 'Q', 'J', 'R', 'N', 'L', '0', '1'};

typedef struct Journal {
    char magic[8];
    uint64_t dev, ino;
    uint64_t rows[LEN_COUNT];
    uint64_t check;           /* FNV-1a of the bytes before it */
} Journal;

static uint64_t fnv1a(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* Makes rename() of a finished file survive a power loss too (a kill does not need it). */
static void sync_path(const char *path, bool directory)
{
    int fd = open(path, directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

static void sync_parent(const char *path)
{
    char dir[1040];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    sync_path(dir, true);
}

/* Records that the file at `described` holds w->total rows of every length class. */
static int journal_write(const DatasetWriter *w, const char *described, XqError *err)
{
    struct stat st;
    if (stat(described, &st) != 0)
        return schema_fail(err, described, "cannot stat: %s", strerror(errno));
    Journal j;
    memset(&j, 0, sizeof j);
    memcpy(j.magic, JOURNAL_MAGIC, sizeof j.magic);
    j.dev = (uint64_t)st.st_dev;
    j.ino = (uint64_t)st.st_ino;
    for (int k = 0; k < LEN_COUNT; k++)
        j.rows[k] = w->total[k];
    j.check = fnv1a(&j, offsetof(Journal, check));
    char next[1080];
    snprintf(next, sizeof next, "%s.new", w->journal_path);
    int fd = open(next, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return schema_fail(err, next, "cannot create the journal: %s", strerror(errno));
    /* A full disk may take part of the record first: the rest then fails with its reason. */
    int rc = h5safe_write_all(fd, &j, sizeof j);
    int saved = errno;
    if (close(fd) != 0 && rc == 0) {
        saved = errno;
        rc = -1;
    }
    if (rc != 0) {
        remove(next);
        return schema_fail(err, next, "cannot write the journal: %s", strerror(saved));
    }
    if (rename(next, w->journal_path) != 0)
        return schema_fail(err, next, "cannot rename to %s: %s", w->journal_path, strerror(errno));
    return 0;
}

/* Reads the journal; true if it is whole and describes the file at `path`. */
static bool journal_read(const DatasetWriter *w, const char *path, Journal *j)
{
    struct stat st;
    FILE *f = fopen(w->journal_path, "rb");
    if (!f)
        return false;
    size_t n = fread(j, 1, sizeof *j, f);
    fclose(f);
    return n == sizeof *j && !memcmp(j->magic, JOURNAL_MAGIC, sizeof j->magic) &&
           j->check == fnv1a(j, offsetof(Journal, check)) && stat(path, &st) == 0 &&
           j->dev == (uint64_t)st.st_dev && j->ino == (uint64_t)st.st_ino;
}

static uint64_t chunk_rows(hid_t dset)
{
    hsize_t dims[2] = {0, 0};
    hid_t dcpl = H5Dget_create_plist(dset);
    int rank = dcpl >= 0 ? H5Pget_chunk(dcpl, 2, dims) : -1;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return rank > 0 ? (uint64_t)dims[0] : 0;
}

/* Decodes rows [0, limit) of column c one chunk at a time and sets *good to the rows before the
 * first chunk that fails (the zstd frames carry checksums, so a chunk overwritten or cut short
 * fails here rather than decoding to other numbers). Returns -1 only if memory runs out. */
static int verify_column(DatasetWriter *w, Column c, uint64_t limit, uint64_t *good, XqError *err)
{
    uint64_t step = chunk_rows(w->dset[c]);
    size_t rb = row_bytes(w, c);
    *good = 0;
    if (step == 0) {
        H5Eclear2(H5E_DEFAULT);
        return 0;
    }
    void *buf = malloc((size_t)step * rb);
    if (!buf)
        return schema_fail(err, w->tmp_path, "out of memory checking %s", SCHEMA_COLUMNS[c].path);
    int width = schema_width(c, w->npoints);
    uint64_t at = 0;
    while (at < limit) {
        uint64_t n = limit - at < step ? limit - at : step;
        if (schema_read_rows(w->dset[c], w->mtype[c], at, n, width, buf) < 0) {
            H5Eclear2(H5E_DEFAULT);
            break;
        }
        at += n;
    }
    free(buf);
    *good = at;
    return 0;
}

/* Rows every length class needs for the first `games` game rows (all verified readable). */
static int game_ends(DatasetWriter *w, uint64_t games, uint64_t end[LEN_COUNT], XqError *err)
{
    memset(end, 0, LEN_COUNT * sizeof end[0]);
    end[LEN_GAMES] = games;
    if (games == 0)
        return 0;
    uint64_t first_pos, first_pol, first_move, g = games - 1;
    uint32_t npos, npol, nmov;
    if (read_one(w, C_GAME_FIRST_POSITION, g, &first_pos, err) < 0 ||
        read_one(w, C_GAME_POSITION_COUNT, g, &npos, err) < 0 ||
        read_one(w, C_GAME_FIRST_POLICY, g, &first_pol, err) < 0 ||
        read_one(w, C_GAME_POLICY_COUNT, g, &npol, err) < 0 ||
        read_one(w, C_GAME_FIRST_MOVE, g, &first_move, err) < 0 ||
        read_one(w, C_GAME_MOVE_COUNT, g, &nmov, err) < 0)
        return -1;
    end[LEN_POSITIONS] = first_pos + npos;
    end[LEN_POLICY] = first_pol + npol;
    end[LEN_MOVES] = first_move + nmov;
    return 0;
}

static int open_columns(DatasetWriter *w, XqError *err)
{
    for (int c = 0; c < NCOLUMNS; c++) {
        w->dset[c] = schema_open_column(w->file, c, w->npoints, &w->disk_rows[c], w->tmp_path, err);
        if (w->dset[c] < 0)
            return -1;
    }
    return 0;
}

static int write_column(DatasetWriter *w, Column c, XqError *err);

/* Replaces PATH.tmp by a fresh file holding rows [0, end) of every column, copied from the open
 * file (decoded and compressed again). Trimming in place instead would free chunk addresses that
 * damaged metadata may share with live chunks. The new file is
 * complete and its journal written before it is renamed over PATH.tmp, so a kill at any moment
 * leaves either the old file with its journal or the new one with its own (dsw_open finishes a
 * rename that a kill interrupted). */
static int rebuild(DatasetWriter *w, const uint64_t end[LEN_COUNT], XqError *err)
{
    char next[1060];
    snprintf(next, sizeof next, "%s.new", w->tmp_path);
    int rc = -1;
    void *buf = NULL;
    H5SafeStatus io = {0};
    hid_t old_file = w->file, old[NCOLUMNS];
    for (int c = 0; c < NCOLUMNS; c++) {
        old[c] = w->dset[c];
        w->dset[c] = -1;
        w->disk_rows[c] = 0;
        w->pending[c].len = 0;
    }
    if ((w->file = create_tmp_file(next, H5SAFE_DIRECT, &io)) < 0) {
        create_fail(err, next);
        goto cleanup;
    }
    hsize_t idx = 0;
    if (H5Aiterate2(old_file, H5_INDEX_NAME, H5_ITER_INC, &idx, schema_copy_attribute, &w->file) < 0) {
        schema_fail(err, next, "cannot copy the root attributes of %s", w->tmp_path);
        goto cleanup;
    }
    if (create_layout(w, err) < 0)
        goto cleanup;
    for (int c = 0; c < NCOLUMNS; c++) {
        uint64_t rows = end[SCHEMA_COLUMNS[c].length], step = chunk_rows(w->dset[c]);
        size_t rb = row_bytes(w, c);
        int width = schema_width(c, w->npoints);
        free(buf);
        if (!(buf = malloc((size_t)step * rb))) {
            schema_fail(err, next, "out of memory");
            goto cleanup;
        }
        /* Pieces of whole chunks of the new file: none is written twice. */
        for (uint64_t at = 0; at < rows; at += step) {
            uint64_t n = rows - at < step ? rows - at : step;
            if (schema_read_rows(old[c], w->mtype[c], at, n, width, buf) < 0) {
                schema_fail(err, w->tmp_path, "cannot read rows %" PRIu64 "+%" PRIu64 " of %s", at, n,
                            SCHEMA_COLUMNS[c].path);
                goto cleanup;
            }
            if (!buffer_push(&w->pending[c], buf, (size_t)n * rb)) {
                schema_fail(err, next, "out of memory");
                goto cleanup;
            }
            if (write_column(w, c, err) < 0)
                goto cleanup;
        }
    }
    for (int c = 0; c < NCOLUMNS; c++) {
        herr_t closed = H5Dclose(w->dset[c]);
        w->dset[c] = -1;
        if (closed < 0) {
            schema_fail(err, next, "cannot close %s", SCHEMA_COLUMNS[c].path);
            goto cleanup;
        }
    }
    herr_t closed = H5Fclose(w->file);
    w->file = -1;
    if (io.error) {
        h5safe_fail(err, next, "cannot write the file", &io);
        goto cleanup;
    }
    if (closed < 0) {
        schema_fail(err, next, "cannot close the file");
        goto cleanup;
    }
    for (int k = 0; k < LEN_COUNT; k++)
        w->total[k] = end[k];
    if (journal_write(w, next, err) < 0)
        goto cleanup;
    if (rename(next, w->tmp_path) != 0) {
        schema_fail(err, next, "cannot rename to %s: %s", w->tmp_path, strerror(errno));
        goto cleanup;
    }
    if ((w->file = open_tmp_file(w->tmp_path, &w->io)) < 0) {
        schema_fail(err, w->tmp_path, "cannot reopen the rebuilt file");
        goto cleanup;
    }
    rc = open_columns(w, err);
cleanup:
    free(buf);
    for (int c = 0; c < NCOLUMNS; c++)
        if (old[c] >= 0)
            H5Dclose(old[c]);
    H5Fclose(old_file);
    if (rc < 0 && access(w->tmp_path, F_OK) == 0)
        remove(next);
    return rc;
}

/* Refuses to resume a PATH.tmp that another run wrote: compares its root attributes with the
 * run's meta (dataset_run_difference). A file whose attributes cannot be read is refused too. */
static int resume_same_run(DatasetWriter *w, const DatasetMeta *m, XqError *err)
{
    static const char *const names[] = {"variant_name", "variant_text", "weights_text", "params_text"};
    char *texts[4] = {0}, *start = attr_read_string(w->file, "start", false);
    DatasetMeta file = {.start_text = start};
    int32_t index = 0, count = 1, npoints = 0;
    int rc = 0;
    for (int i = 0; i < 4; i++)
        if (!(texts[i] = attr_read_string(w->file, names[i], false)))
            rc = schema_fail(err, w->tmp_path, "cannot resume: the root attribute %s is missing", names[i]);
    if (rc == 0 && (attr_read_u64(w->file, "base_seed", &file.base_seed) < 0 ||
                    attr_read_i32(w->file, "shard_index", &index) < 0 ||
                    attr_read_i32(w->file, "shard_count", &count) < 0 ||
                    attr_read_u64(w->file, "first_game", &file.first_game) < 0 ||
                    attr_read_u64(w->file, "game_count", &file.game_count) < 0 ||
                    attr_read_i32(w->file, "npoints", &npoints) < 0))
        rc = schema_fail(err, w->tmp_path, "cannot resume: a root number attribute is missing");
    if (rc == 0 && attr_read_u64(w->file, "run_games", &file.run_games) < 0) {
        file.run_games = 0; /* older file */
        H5Eclear2(H5E_DEFAULT);
    }
    if (rc == 0) {
        file.variant_name = texts[0];
        file.variant_text = texts[1];
        file.weights_text = texts[2];
        file.params_text = texts[3];
        file.shard_index = index;
        file.shard_count = count;
        file.npoints = npoints;
        char diff[XQ_MSG_MAX];
        if (dataset_run_difference(&file, m, diff, sizeof diff))
            rc = schema_fail(err, w->tmp_path, "cannot resume another run's file: %s (nothing was touched)", diff);
    }
    for (int i = 0; i < 4; i++)
        free(texts[i]);
    free(start);
    return rc;
}

/* Reopens PATH.tmp: checks it belongs to the same run, then finds what survived. Every column is
 * decoded up to the rows the journal says were committed (or, without a journal, up to its
 * length); the games kept are the longest prefix whose game rows and the rows they point at all
 * decode, and they are copied into a fresh file (rebuild). Returns 0, -1 if the file must not be touched (another run's file) or -2 if nothing
 * in it can be trusted (the caller starts it again). */
static int resume_layout(DatasetWriter *w, const DatasetMeta *m, XqError *err)
{
    int32_t version = 0;
    if (attr_read_i32(w->file, "format_version", &version) < 0) {
        schema_fail(err, w->tmp_path, "no format_version attribute");
        return -2;
    }
    if (version != DATASET_FORMAT_VERSION)
        return schema_fail(err, w->tmp_path, "cannot resume: format version %d, this program writes %d",
                           (int)version, DATASET_FORMAT_VERSION);
    /* Another run's file is never mixed into this one (runcheck.c names the first difference). */
    if (resume_same_run(w, m, err) < 0)
        return -1;
    if (open_columns(w, err) < 0)
        return -2;

    Journal j;
    bool journal = journal_read(w, w->tmp_path, &j);
    uint64_t good[LEN_COUNT] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
    for (int c = 0; c < NCOLUMNS; c++) {
        LengthClass k = SCHEMA_COLUMNS[c].length;
        uint64_t limit = w->disk_rows[c], ok;
        if (journal && j.rows[k] < limit)
            limit = j.rows[k];
        if (verify_column(w, c, limit, &ok, err) < 0)
            return -1;
        if (ok < good[k])
            good[k] = ok;
    }
    /* A game row needs every row it points at: the ends grow with the game count, so the games
     * kept are found by bisection over [0, verified game rows]. */
    uint64_t lo = 0, hi = good[LEN_GAMES], end[LEN_COUNT];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (game_ends(w, mid, end, err) < 0)
            return -2;
        if (end[LEN_POSITIONS] <= good[LEN_POSITIONS] && end[LEN_POLICY] <= good[LEN_POLICY] &&
            end[LEN_MOVES] <= good[LEN_MOVES])
            lo = mid;
        else
            hi = mid - 1;
    }
    if (game_ends(w, lo, end, err) < 0)
        return -2;
    if (journal && lo < j.rows[LEN_GAMES]) {
        char what[200];
        snprintf(what, sizeof what, "%" PRIu64 " of %" PRIu64 " committed games did not survive the interruption "
                 "and will be played again", j.rows[LEN_GAMES] - lo, j.rows[LEN_GAMES]);
        warn(w->tmp_path, what);
    }
    /* Always a fresh file: trimming in place (H5Dset_extent, which rewrites the boundary chunk
     * and frees the chunks past it) was measured to leave, once in 200 kills, a chunk that a
     * later append could not read back; a rebuilt file holds nothing a kill has touched. */
    /* The kept prefix decoded, so a failed copy is the disk's doing (full, read-only, quota):
     * keep PATH.tmp as it is for a later --resume rather than start the run again. */
    if (rebuild(w, end, err) < 0)
        return -1;
    if (lo > 0) {
        uint64_t index;
        if (read_one(w, C_GAME_INDEX, lo - 1, &index, err) < 0)
            return -2;
        w->have_last = true;
        w->last_index = index;
    }
    for (int k = 0; k < LEN_COUNT; k++)
        w->total[k] = end[k];
    char now[32];
    schema_utc_now(now, sizeof now);
    if (attr_write_string(w->file, "resumed_utc", now) < 0) {
        schema_fail(err, w->tmp_path, "cannot write the resumed_utc attribute");
        return -2;
    }
    return 0;
}

/* Closes whatever the writer has open (datasets and file) without freeing it. */
static void close_handles(DatasetWriter *w)
{
    for (int c = 0; c < NCOLUMNS; c++) {
        if (w->dset[c] >= 0)
            H5Dclose(w->dset[c]);
        w->dset[c] = -1;
        w->disk_rows[c] = 0;
        w->pending[c].len = 0;
    }
    if (w->file >= 0)
        H5Fclose(w->file);
    w->file = -1;
    memset(w->total, 0, sizeof w->total);
    w->have_last = false;
}

/* Removes a file that only a killed run can have left behind (ENOENT is the normal case). */
static void remove_stale(const char *path)
{
    /* On a read-only file system remove() fails with EROFS even for a file that is not there:
     * only a file that exists is worth a warning. */
    if (remove(path) != 0 && errno != ENOENT && access(path, F_OK) == 0) {
        char what[300];
        snprintf(what, sizeof what, "cannot remove this leftover of an interrupted run: %s", strerror(errno));
        warn(path, what);
    }
}

bool dsw_finished(const char *path)
{
    if (access(path, F_OK) != 0)
        return false;
    /* dsw_close renames the finished file into place before it removes PATH.tmp: a .tmp next to
     * PATH is a leftover of a kill in between. */
    static const char *const leftovers[5] = {"%s.tmp", "%s.tmp.games", "%s.tmp.new", "%s.tmp.games.new",
                                             "%s.tmp.wal"};
    for (int i = 0; i < 5; i++) {
        char stale[1100];
        snprintf(stale, sizeof stale, leftovers[i], path);
        remove_stale(stale);
    }
    return true;
}

/* Opens PATH.tmp for resuming. Returns 0, -1 (refused) or -2 (start the file again). */
static int resume_open(DatasetWriter *w, const DatasetMeta *meta, XqError *err)
{
    char next[1060];
    snprintf(next, sizeof next, "%s.new", w->tmp_path);
    Journal j;
    /* A kill between writing a rebuilt file's journal and renaming the file: finish the rename. */
    if (access(next, F_OK) == 0 && journal_read(w, next, &j) && rename(next, w->tmp_path) != 0)
        return schema_fail(err, next, "cannot rename to %s: %s", w->tmp_path, strerror(errno));
    if (dsw_finished(w->path))
        return schema_fail(err, w->tmp_path, "cannot resume: no such file (%s is already complete)", w->path);
    if (access(w->tmp_path, F_OK) != 0)
        return schema_fail(err, w->tmp_path, "cannot resume: no such file");
    /* A flush that a kill interrupted after its redo log was complete is finished first; one
     * that cannot be finished (full disk) refuses the resume and leaves both files as they are. */
    if (h5safe_recover(w->tmp_path, err) < 0)
        return -1;
    if ((w->file = open_tmp_file(w->tmp_path, &w->io)) < 0) {
        schema_fail(err, w->tmp_path, "cannot open the file");
        return -2;
    }
    return resume_layout(w, meta, err);
}

DatasetWriter *dsw_open(const char *path, const DatasetMeta *meta, bool resume, uint64_t *games_done,
                        XqError *err)
{
    schema_quiet_hdf5();
    DatasetWriter *w = calloc(1, sizeof *w);
    if (!w) {
        schema_fail(err, path, "out of memory");
        return NULL;
    }
    w->file = -1;
    for (int c = 0; c < NCOLUMNS; c++)
        w->dset[c] = w->mtype[c] = -1;
    if (strlen(path) >= sizeof w->path) {
        schema_fail(err, path, "path too long");
        goto fail;
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    snprintf(w->tmp_path, sizeof w->tmp_path, "%s.tmp", path);
    snprintf(w->journal_path, sizeof w->journal_path, "%s.tmp.games", path);
    if (meta->npoints < 1 || meta->npoints > XQ_MAX_POINTS) {
        schema_fail(err, w->tmp_path, "npoints %d out of range 1..%d", meta->npoints, XQ_MAX_POINTS);
        goto fail;
    }
    w->npoints = meta->npoints;
    if (meta->compression_level < 0 || meta->compression_level > 22) {
        schema_fail(err, w->tmp_path, "zstd level %d out of range 1..22 (0 = default)", meta->compression_level);
        goto fail;
    }
    w->level = meta->compression_level ? (unsigned int)meta->compression_level : XQ_ZSTD_DEFAULT_LEVEL;
    if (xq_zstd_register() < 0) {
        schema_fail(err, w->tmp_path, "cannot register the zstd filter");
        goto fail;
    }
    for (int c = 0; c < NCOLUMNS; c++)
        if ((w->mtype[c] = schema_mem_type(SCHEMA_COLUMNS[c].type)) < 0) {
            schema_fail(err, w->tmp_path, "cannot make the memory type of %s", SCHEMA_COLUMNS[c].path);
            goto fail;
        }

    bool fresh = !resume;
    if (resume) {
        int rc = resume_open(w, meta, err);
        if (rc == -1)
            goto fail;
        if (rc == -2) {
            /* Never a silently wrong file: say what was lost, then play every game again. */
            char what[XQ_MSG_MAX + 80];
            snprintf(what, sizeof what, "cannot be resumed (%s); starting it again from the first game", err->message);
            warn(w->tmp_path, what);
            close_handles(w);
            fresh = true;
        }
    }
    /* Leftovers of a kill: a compact copy dsw_close had not renamed yet, a rebuild or a journal
     * not renamed into place. None of them holds anything PATH.tmp does not. */
    char stale[1080];
    snprintf(stale, sizeof stale, "%s.part", w->path);
    remove_stale(stale);
    snprintf(stale, sizeof stale, "%s.new", w->tmp_path);
    remove_stale(stale);
    snprintf(stale, sizeof stale, "%s.new", w->journal_path);
    remove_stale(stale);
    if (fresh) {
        /* The old journal goes first: H5Fcreate truncates PATH.tmp in place (same inode), and a
         * kill before the new journal is written must not leave the old counts describing it. */
        remove_stale(w->journal_path);
        memset(&w->io, 0, sizeof w->io);
        if ((w->file = create_tmp_file(w->tmp_path, H5SAFE_JOURNAL, &w->io)) < 0) {
            create_fail(err, w->tmp_path);
            goto fail;
        }
        if (write_meta(w, meta, err) < 0 || create_layout(w, err) < 0)
            goto fail;
    }
    /* A file killed before its first batch must still reopen. */
    if (flush_file(w, err) < 0)
        goto fail;
    if (journal_write(w, w->tmp_path, err) < 0)
        goto fail;
    if (games_done)
        *games_done = w->total[LEN_GAMES];
    return w;
fail:
    writer_free(w);
    return NULL;
}

/* Appends one value of the given C type to the pending rows of column c. */
#define PUSH(w, c, type, value)                                           \
    do {                                                                  \
        type push_value_ = (type)(value);                                 \
        if (!buffer_push(&(w)->pending[c], &push_value_, sizeof(type)))   \
            goto out_of_memory;                                           \
    } while (0)

static int check_game(const DatasetWriter *w, const GameRecord *g, XqError *err)
{
    if (w->have_last && g->index <= w->last_index)
        return schema_fail(err, w->tmp_path, "game %" PRIu64 " appended after game %" PRIu64 " (indices must increase)",
                           g->index, w->last_index);
    if (g->nmoves < 0 || g->npositions < 0 || g->npolicy < 0 || (g->nmoves > 0 && !g->moves) ||
        (g->npositions > 0 && !g->positions) || (g->npolicy > 0 && (!g->policy_moves || !g->policy_visits)))
        return schema_fail(err, w->tmp_path, "game %" PRIu64 ": negative count or missing array", g->index);
    if (g->result < RESULT_NONE || g->result > RESULT_RED_WINS)
        return schema_fail(err, w->tmp_path, "game %" PRIu64 ": result %d is not a Result", g->index, g->result);
    for (int i = 0; i < g->npositions; i++) {
        const PositionRecord *p = &g->positions[i];
        if (p->side > 1)
            return schema_fail(err, w->tmp_path, "game %" PRIu64 " position %d: side %d", g->index, i, p->side);
        if (p->policy_count < 0 || p->policy_count > UINT16_MAX ||
            (uint64_t)p->policy_first + (uint64_t)p->policy_count > (uint64_t)g->npolicy)
            return schema_fail(err, w->tmp_path, "game %" PRIu64 " position %d: policy rows %u+%d outside 0..%d",
                               g->index, i, p->policy_first, p->policy_count, g->npolicy);
    }
    return 0;
}

int dsw_append(DatasetWriter *w, const GameRecord *g, XqError *err)
{
    schema_quiet_hdf5(); /* per thread: see schema.h */
    if (w->failed)
        return schema_fail(err, w->tmp_path, "an earlier write failed; the writer accepts no more games");
    if (check_game(w, g, err) < 0)
        return -1;
    /* On failure part of a game may sit in the buffers; `failed` stops it from reaching disk. */
    uint64_t game_row = w->total[LEN_GAMES];
    uint64_t first_position = w->total[LEN_POSITIONS];
    uint64_t first_policy = w->total[LEN_POLICY];
    uint64_t first_move = w->total[LEN_MOVES];
    for (int i = 0; i < g->nmoves; i++)
        PUSH(w, C_MOVES, uint32_t, g->moves[i]);
    uint64_t policy_row = first_policy;
    for (int i = 0; i < g->npositions; i++) {
        const PositionRecord *p = &g->positions[i];
        if (!buffer_push(&w->pending[C_POS_BOARD], p->board, (size_t)w->npoints))
            goto out_of_memory;
        PUSH(w, C_POS_SIDE, uint8_t, p->side);
        PUSH(w, C_POS_PLY, uint16_t, p->ply);
        PUSH(w, C_POS_NO_CAPTURE, uint16_t, p->no_capture);
        PUSH(w, C_POS_GAME, uint64_t, game_row);
        PUSH(w, C_POS_PLAYED, uint32_t, p->played);
        PUSH(w, C_POS_BEST, uint32_t, p->best);
        PUSH(w, C_POS_ROOT_VALUE, int16_t, schema_quantise(p->root_value));
        PUSH(w, C_POS_STATIC_EVAL, int16_t, schema_quantise(p->static_eval));
        int8_t stm = g->result == RESULT_NONE ? (int8_t)RESULT_NONE
                     : p->side == RED         ? g->result
                                              : (int8_t)-g->result;
        PUSH(w, C_POS_RESULT, int8_t, stm);
        PUSH(w, C_POS_VISITS, uint32_t, p->visits);
        PUSH(w, C_POS_FIRST_POLICY, uint64_t, policy_row);
        PUSH(w, C_POS_POLICY_COUNT, uint16_t, p->policy_count);
        if (!buffer_push(&w->pending[C_POS_MODULE], p->module, XQ_MOD_STATE))
            goto out_of_memory;
        for (int k = 0; k < p->policy_count; k++) {
            PUSH(w, C_POLICY_MOVE, uint32_t, g->policy_moves[p->policy_first + (uint32_t)k]);
            PUSH(w, C_POLICY_VISITS, uint32_t, g->policy_visits[p->policy_first + (uint32_t)k]);
        }
        policy_row += (uint64_t)p->policy_count;
    }
    char fen[FEN_BYTES] = {0};
    memcpy(fen, g->start_fen, strnlen(g->start_fen, sizeof g->start_fen));
    PUSH(w, C_GAME_SEED, uint64_t, g->seed);
    PUSH(w, C_GAME_RESULT, int8_t, g->result);
    PUSH(w, C_GAME_TERMINATION, uint8_t, g->termination);
    PUSH(w, C_GAME_PLIES, uint16_t, g->plies);
    if (!buffer_push(&w->pending[C_GAME_START_FEN], fen, sizeof fen))
        goto out_of_memory;
    PUSH(w, C_GAME_FIRST_POSITION, uint64_t, first_position);
    PUSH(w, C_GAME_POSITION_COUNT, uint32_t, g->npositions);
    PUSH(w, C_GAME_FIRST_POLICY, uint64_t, first_policy);
    PUSH(w, C_GAME_POLICY_COUNT, uint32_t, (policy_row - first_policy));
    PUSH(w, C_GAME_FIRST_MOVE, uint64_t, first_move);
    PUSH(w, C_GAME_MOVE_COUNT, uint32_t, g->nmoves);
    PUSH(w, C_GAME_WALL_SECONDS, float, g->wall_seconds);
    PUSH(w, C_GAME_RESIGN_DISABLED, uint8_t, (g->resign_disabled ? 1 : 0));
    /* Hidden pieces: the deal only for the points of the board (zeros without one). */
    uint8_t deal[XQ_MAX_POINTS] = {0};
    if (g->has_deal)
        memcpy(deal, g->deal, (size_t)w->npoints);
    if (!buffer_push(&w->pending[C_GAME_DEAL], deal, (size_t)w->npoints))
        goto out_of_memory;
    PUSH(w, C_GAME_DEAL_SWAPPED, uint8_t, (g->deal_swapped ? 1 : 0));
    PUSH(w, C_GAME_SEAT_COLOUR, int8_t, g->seat_colour);
    PUSH(w, C_GAME_INDEX, uint64_t, g->index);

    w->total[LEN_GAMES] += 1;
    w->total[LEN_POSITIONS] += (uint64_t)g->npositions;
    w->total[LEN_POLICY] = policy_row;
    w->total[LEN_MOVES] += (uint64_t)g->nmoves;
    w->pending_positions += (uint64_t)g->npositions;
    w->have_last = true;
    w->last_index = g->index;
    if (w->pending_positions >= AUTO_FLUSH_POSITIONS)
        return dsw_flush(w, err);
    return 0;
out_of_memory:
    w->failed = true;
    return schema_fail(err, w->tmp_path, "out of memory buffering game %" PRIu64, g->index);
}

static int write_column(DatasetWriter *w, Column c, XqError *err)
{
    ByteBuffer *b = &w->pending[c];
    size_t rb = row_bytes(w, c);
    uint64_t n = b->len / rb;
    if (n == 0)
        return 0;
    int rc = -1;
    hid_t fspace = -1, mspace = -1;
    uint64_t start = w->disk_rows[c];
    int width = schema_width(c, w->npoints);
    hsize_t dims[2] = {start + n, (hsize_t)width};
    hsize_t off[2] = {start, 0}, cnt[2] = {n, (hsize_t)width};
    int rank = schema_is_2d(c) ? 2 : 1;
    if (H5Dset_extent(w->dset[c], dims) < 0 || (fspace = H5Dget_space(w->dset[c])) < 0 ||
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, cnt, NULL) < 0 ||
        (mspace = H5Screate_simple(rank, cnt, NULL)) < 0 ||
        H5Dwrite(w->dset[c], w->mtype[c], mspace, fspace, H5P_DEFAULT, b->data) < 0) {
        schema_fail(err, w->tmp_path, "cannot append %" PRIu64 " rows to %s", n, SCHEMA_COLUMNS[c].path);
        goto cleanup;
    }
    w->disk_rows[c] = start + n;
    b->len = 0;
    rc = 0;
cleanup:
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    return rc;
}

int dsw_flush(DatasetWriter *w, XqError *err)
{
    schema_quiet_hdf5();
    if (w->failed)
        return schema_fail(err, w->tmp_path, "an earlier write failed; nothing more is written");
    /* Column order puts the game rows last (see schema.h), so that even a flush cut short leaves
     * only rows that resume can recognise as belonging to an incomplete game. */
    for (int c = 0; c < NCOLUMNS; c++)
        if (write_column(w, c, err) < 0) {
            w->failed = true;
            return -1;
        }
    if (flush_file(w, err) < 0) {
        w->failed = true;
        return -1;
    }
    /* Only now is the batch committed: the journal never claims rows of a flush cut short. */
    if (journal_write(w, w->tmp_path, err) < 0) {
        w->failed = true;
        return -1;
    }
    w->pending_positions = 0;
    return 0;
}

/* Writes the finished file as PATH.part: the root attributes and the three groups copied with
 * H5Ocopy, which moves the compressed chunks as they are. Every flush rewrites the last, partial
 * chunk of each column somewhere new, and HDF5 forgets the space freed that way when the file
 * closes: the copy drops those holes (measured: 8% of the file at 250k positions). */
static int write_compact_copy(DatasetWriter *w, const char *part, const char *closed, XqError *err)
{
    static const char *const groups[] = {"/games", "/positions", "/policy"};
    int rc = -1;
    H5SafeStatus io = {0};
    errno = 0;
    hid_t fapl = h5safe_fapl(H5SAFE_DIRECT, &io);
    hid_t dst = fapl < 0 ? -1 : H5Fcreate(part, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (fapl >= 0) {
        int saved = errno;
        H5Pclose(fapl);
        errno = saved;
    }
    if (dst < 0) {
        create_fail(err, part);
        goto cleanup;
    }
    hsize_t idx = 0;
    if (H5Aiterate2(w->file, H5_INDEX_NAME, H5_ITER_INC, &idx, schema_copy_attribute, &dst) < 0) {
        schema_fail(err, part, "cannot copy the root attributes of %s", w->tmp_path);
        goto cleanup;
    }
    if (attr_write_string(dst, "closed_utc", closed) < 0) {
        schema_fail(err, part, "cannot write the closed_utc attribute");
        goto cleanup;
    }
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (H5Ocopy(w->file, groups[i], dst, groups[i], H5P_DEFAULT, H5P_DEFAULT) < 0) {
            schema_fail(err, part, "cannot copy %s from %s", groups[i], w->tmp_path);
            goto cleanup;
        }
    rc = 0;
cleanup:
    if (dst >= 0 && H5Fclose(dst) < 0 && rc == 0)
        rc = schema_fail(err, part, "cannot close the file");
    /* A failed write is hidden from HDF5 (it crashes at exit after a close that failed): it is
     * reported here, and the file it left is removed. */
    if (io.error)
        rc = h5safe_fail(err, part, "cannot write the file", &io);
    if (rc < 0)
        remove(part);
    return rc;
}

int dsw_close(DatasetWriter *w, XqError *err)
{
    schema_quiet_hdf5();
    int rc = -1;
    char now[32], part[1040];
    schema_utc_now(now, sizeof now);
    snprintf(part, sizeof part, "%s.part", w->path);
    if (dsw_flush(w, err) < 0)
        goto cleanup;
    for (int c = 0; c < NCOLUMNS; c++) {
        herr_t closed = H5Dclose(w->dset[c]);
        w->dset[c] = -1;
        if (closed < 0) {
            schema_fail(err, w->tmp_path, "cannot close %s", SCHEMA_COLUMNS[c].path);
            goto cleanup;
        }
    }
    /* PATH.tmp and its journal stay untouched until PATH is complete, so a kill or a failure up
     * to the rename can still be resumed (dsw_open removes the stale PATH.part). PATH.part is on
     * disk before it is renamed, so PATH never names a file that is not complete. */
    if (write_compact_copy(w, part, now, err) < 0)
        goto cleanup;
    sync_path(part, false);
    if (rename(part, w->path) != 0) {
        schema_fail(err, part, "cannot rename to %s: %s", w->path, strerror(errno));
        remove(part);
        goto cleanup;
    }
    sync_parent(w->path);
    /* From here PATH is the result; a kill leaves PATH.tmp stale, and the next dsw_open(resume)
     * removes it. H5Fclose may still write to PATH.tmp, which no longer matters. */
    herr_t closed = H5Fclose(w->file);
    w->file = -1;
    if (closed < 0) {
        schema_fail(err, w->tmp_path, "cannot close the file");
        goto cleanup;
    }
    if (remove(w->tmp_path) != 0) {
        schema_fail(err, w->tmp_path, "cannot remove after writing %s: %s", w->path, strerror(errno));
        goto cleanup;
    }
    remove_stale(w->journal_path);
    rc = 0;
cleanup:
    writer_free(w);
    return rc;
}

int dsw_abandon(DatasetWriter *w, XqError *err)
{
    schema_quiet_hdf5();
    int rc = 0;
    if (!w->failed && dsw_flush(w, err) < 0)
        rc = -1;
    for (int c = 0; c < NCOLUMNS; c++) {
        if (w->dset[c] >= 0 && H5Dclose(w->dset[c]) < 0 && rc == 0)
            rc = schema_fail(err, w->tmp_path, "cannot close %s", SCHEMA_COLUMNS[c].path);
        w->dset[c] = -1;
    }
    if (w->file >= 0 && H5Fclose(w->file) < 0 && rc == 0)
        rc = schema_fail(err, w->tmp_path, "cannot close the file");
    w->file = -1;
    writer_free(w);
    return rc;
}

int xq_zstd_register(void)
{
    /* Registering again replaces the class with the same one, so this is idempotent; it also
     * takes precedence over a different zstd plugin that HDF5_PLUGIN_PATH might offer. */
    return H5Zregister(xq_zstd_filter_class()) < 0 ? -1 : 0;
}
