/* reader.c - the dataset reader: opens a file, checks its structure and offsets, and reads games
 * back into GameRecords. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "position.h"
#include "probe.h"
#include "schema.h"
#include "seat.h"
#include "vds.h"

enum { SCAN_BLOCK = 65536 };

struct DatasetReader {
    char path[1024];
    hid_t file;
    hid_t dset[NCOLUMNS];
    hid_t mtype[NCOLUMNS];
    uint64_t rows[NCOLUMNS];
    DatasetSummary summary;
    DatasetInfo info[NCOLUMNS];       /* the columns the file holds, in schema order */
    int ninfo;
    /* Formats 1-3: the file's rule set, to rewrite start FENs of the seat-letter convention. */
    Variant *legacy;
    bool legacy_loaded;
};

void dsr_close(DatasetReader *r)
{
    schema_quiet_hdf5(); /* per thread: see schema.h */
    if (!r)
        return;
    variant_free(r->legacy);
    for (int c = 0; c < NCOLUMNS; c++) {
        if (r->dset[c] >= 0)
            H5Dclose(r->dset[c]);
        if (r->mtype[c] >= 0)
            H5Tclose(r->mtype[c]);
    }
    if (r->file >= 0)
        H5Fclose(r->file);
    free(r->summary.variant_text);
    free(r->summary.params_text);
    free(r->summary.weights_text);
    free(r->summary.command_line);
    free(r->summary.start_text);
    free(r);
}

/* Copies a string attribute into a fixed buffer; -1 if missing. */
static int read_fixed_string(hid_t file, const char *name, bool vlen_ok, char *buf, size_t size)
{
    char *s = attr_read_string(file, name, vlen_ok);
    if (!s)
        return -1;
    snprintf(buf, size, "%s", s);
    free(s);
    return 0;
}

static int read_meta(DatasetReader *r, XqError *err)
{
    DatasetSummary *s = &r->summary;
    int32_t version, shard_index, shard_count, npoints;
    if (attr_read_i32(r->file, "format_version", &version) < 0)
        return schema_fail(err, r->path, "not an xqlab dataset: no format_version attribute");
    if (version < DATASET_FORMAT_OLDEST || version > DATASET_FORMAT_VERSION)
        return schema_fail(err, r->path, "format version %d is not supported (this reader knows %d-%d)",
                           (int)version, DATASET_FORMAT_OLDEST, DATASET_FORMAT_VERSION);
    s->format_version = version;
    bool vlen_ok = schema_vlen_strings(version);
    static const char *const text_names[] = {"variant_text", "params_text", "weights_text", "command_line"};
    char **texts[] = {&s->variant_text, &s->params_text, &s->weights_text, &s->command_line};
    for (int i = 0; i < 4; i++)
        if (!(*texts[i] = attr_read_string(r->file, text_names[i], vlen_ok)))
            return schema_fail(err, r->path, "root attribute %s is missing or not a %s string", text_names[i],
                               vlen_ok ? "readable" : "fixed-length");
    if (read_fixed_string(r->file, "variant_name", vlen_ok, s->variant_name, sizeof s->variant_name) < 0 ||
        read_fixed_string(r->file, "program_version", vlen_ok, s->program_version, sizeof s->program_version) < 0 ||
        read_fixed_string(r->file, "host", vlen_ok, s->host, sizeof s->host) < 0 ||
        read_fixed_string(r->file, "created_utc", vlen_ok, s->created_utc, sizeof s->created_utc) < 0 ||
        read_fixed_string(r->file, "closed_utc", vlen_ok, s->closed_utc, sizeof s->closed_utc) < 0)
        return schema_fail(err, r->path, "a root string attribute (variant_name, program_version, host, "
                                         "created_utc, closed_utc) is missing or not a %s string",
                           vlen_ok ? "readable" : "fixed-length");
    if (attr_read_u64(r->file, "base_seed", &s->base_seed) < 0 ||
        attr_read_i32(r->file, "shard_index", &shard_index) < 0 ||
        attr_read_i32(r->file, "shard_count", &shard_count) < 0 ||
        attr_read_u64(r->file, "first_game", &s->first_game) < 0 ||
        attr_read_u64(r->file, "game_count", &s->game_count) < 0 ||
        attr_read_i32(r->file, "npoints", &npoints) < 0)
        return schema_fail(err, r->path, "a root number attribute (base_seed, shard_index, shard_count, "
                                         "first_game, game_count, npoints) is missing");
    if (npoints < 1 || npoints > XQ_MAX_POINTS)
        return schema_fail(err, r->path, "npoints = %d is out of range 1..%d", (int)npoints, XQ_MAX_POINTS);
    s->shard_index = shard_index;
    s->shard_count = shard_count;
    s->npoints = npoints;
    /* Written since the resume check compares them; absent from older files and imports. */
    s->start_text = attr_read_string(r->file, "start", vlen_ok);
    if (attr_read_u64(r->file, "run_games", &s->run_games) < 0) {
        s->run_games = 0;
        H5Eclear2(H5E_DEFAULT);
    }
    return 0;
}

/* Every column of a length class must have the same number of rows. */
static int check_lengths(DatasetReader *r, XqError *err)
{
    static const char *const class_names[LEN_COUNT] = {"moves", "policy", "positions", "games"};
    uint64_t len[LEN_COUNT];
    int first[LEN_COUNT];
    for (int k = 0; k < LEN_COUNT; k++)
        first[k] = -1;
    for (int c = 0; c < NCOLUMNS; c++) {
        LengthClass k = SCHEMA_COLUMNS[c].length;
        if (r->dset[c] < 0)
            continue; /* a column newer than the file's format */
        if (first[k] < 0) {
            first[k] = c;
            len[k] = r->rows[c];
        } else if (r->rows[c] != len[k]) {
            return schema_fail(err, r->path, "%s has %" PRIu64 " rows but %s has %" PRIu64 " (all %s columns must agree)",
                               SCHEMA_COLUMNS[c].path, r->rows[c], SCHEMA_COLUMNS[first[k]].path, len[k],
                               class_names[k]);
        }
    }
    r->summary.ngames = len[LEN_GAMES];
    r->summary.npositions = len[LEN_POSITIONS];
    r->summary.npolicy = len[LEN_POLICY];
    r->summary.nmoves = len[LEN_MOVES];
    return 0;
}

/* Checks that the (first, count) pairs of `rows` rows tile [0, total) in order, reading the two
 * columns in blocks. */
static int check_offsets(DatasetReader *r, Column first_col, Column count_col, uint64_t rows, uint64_t total,
                         XqError *err)
{
    int rc = -1;
    uint64_t *first = malloc(SCAN_BLOCK * sizeof *first);
    uint64_t *count = malloc(SCAN_BLOCK * sizeof *count);
    if (!first || !count) {
        schema_fail(err, r->path, "out of memory");
        goto cleanup;
    }
    uint64_t expect = 0;
    for (uint64_t start = 0; start < rows; start += SCAN_BLOCK) {
        uint64_t n = rows - start < SCAN_BLOCK ? rows - start : SCAN_BLOCK;
        /* Read both as uint64 whatever their type on disk: HDF5 converts the integers. */
        if (schema_read_rows(r->dset[first_col], H5T_NATIVE_UINT64, start, n, 1, first) < 0 ||
            schema_read_rows(r->dset[count_col], H5T_NATIVE_UINT64, start, n, 1, count) < 0) {
            schema_fail(err, r->path, "cannot read %s / %s rows %" PRIu64 "..%" PRIu64, SCHEMA_COLUMNS[first_col].path,
                        SCHEMA_COLUMNS[count_col].path, start, start + n - 1);
            goto cleanup;
        }
        for (uint64_t i = 0; i < n; i++) {
            if (first[i] != expect || count[i] > total - expect) {
                schema_fail(err, r->path, "%s[%" PRIu64 "] = %" PRIu64 " with count %" PRIu64
                                          ": expected %" PRIu64 " and at most %" PRIu64 " rows",
                            SCHEMA_COLUMNS[first_col].path, start + i, first[i], count[i], expect, total - expect);
                goto cleanup;
            }
            expect += count[i];
        }
    }
    if (expect != total) {
        schema_fail(err, r->path, "%s covers %" PRIu64 " rows but the dataset it indexes has %" PRIu64,
                    SCHEMA_COLUMNS[first_col].path, expect, total);
        goto cleanup;
    }
    rc = 0;
cleanup:
    free(first);
    free(count);
    return rc;
}

static void fill_info(DatasetReader *r)
{
    r->ninfo = 0;
    for (int c = 0; c < NCOLUMNS; c++) {
        if (r->dset[c] < 0)
            continue;
        const ColumnSpec *spec = &SCHEMA_COLUMNS[c];
        DatasetInfo *in = &r->info[r->ninfo++];
        in->path = spec->path;
        in->dtype = schema_type_name(schema_column_type(c, r->summary.format_version));
        in->rows = r->rows[c];
        in->raw_bytes = r->rows[c] * schema_type_size(spec->type) * (uint64_t)schema_width(c, r->summary.npoints);
        in->stored_bytes = H5Dget_storage_size(r->dset[c]);
    }
}

static DatasetReader *open_checked(const char *path, XqError *err);

/* The probe's check (probe.h): everything dsr_open parses, then every column's chunk index
 * (what reading rows walks later). */
static int probe_check(const char *path, XqError *err)
{
    DatasetReader *r = open_checked(path, err);
    if (!r)
        return -1;
    for (int c = 0; c < NCOLUMNS; c++) {
        hid_t dcpl = r->dset[c] >= 0 ? H5Dget_create_plist(r->dset[c]) : -1;
        hsize_t n;
        if (dcpl >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED)
            H5Dget_num_chunks(r->dset[c], H5S_ALL, &n);
        if (dcpl >= 0)
            H5Pclose(dcpl);
    }
    dsr_close(r);
    return 0;
}

DatasetReader *dsr_open(const char *path, XqError *err)
{
    schema_quiet_hdf5();
    if (access(path, R_OK) == 0 && probe_file(path, probe_check, err) < 0)
        return NULL;
    return open_checked(path, err);
}

static DatasetReader *open_checked(const char *path, XqError *err)
{
    schema_quiet_hdf5();
    DatasetReader *r = calloc(1, sizeof *r);
    if (!r) {
        schema_fail(err, path, "out of memory");
        return NULL;
    }
    r->file = -1;
    for (int c = 0; c < NCOLUMNS; c++)
        r->dset[c] = r->mtype[c] = -1;
    snprintf(r->path, sizeof r->path, "%s", path);
    if (access(path, R_OK) != 0) {
        schema_fail(err, path, "no such file or not readable");
        goto fail;
    }
    if (xq_zstd_register() < 0) {
        schema_fail(err, path, "cannot register the zstd filter");
        goto fail;
    }
    if ((r->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
        schema_fail(err, path, "not a readable HDF5 file (truncated, damaged or another format)");
        goto fail;
    }
    if (read_meta(r, err) < 0)
        goto fail;
    /* An index (xqlab merge --index) reads through other files: prove they are all there first,
     * since HDF5 returns fill values for a missing source. */
    bool is_index;
    if (vds_check(r->file, path, r->summary.format_version, &is_index, err) < 0)
        goto fail;
    for (int c = 0; c < NCOLUMNS; c++) {
        if (!schema_column_in(c, r->summary.format_version))
            continue; /* read as zero (dsr_read_game) */
        r->dset[c] = schema_open_column(r->file, c, r->summary.npoints, &r->rows[c], path, err);
        if (r->dset[c] < 0)
            goto fail;
        if ((r->mtype[c] = schema_mem_type_of(r->dset[c], SCHEMA_COLUMNS[c].type)) < 0) {
            schema_fail(err, path, "cannot make the memory type of %s", SCHEMA_COLUMNS[c].path);
            goto fail;
        }
    }
    if (check_lengths(r, err) < 0)
        goto fail;
    const DatasetSummary *s = &r->summary;
    if (check_offsets(r, C_GAME_FIRST_POSITION, C_GAME_POSITION_COUNT, s->ngames, s->npositions, err) < 0 ||
        check_offsets(r, C_GAME_FIRST_POLICY, C_GAME_POLICY_COUNT, s->ngames, s->npolicy, err) < 0 ||
        check_offsets(r, C_GAME_FIRST_MOVE, C_GAME_MOVE_COUNT, s->ngames, s->nmoves, err) < 0 ||
        check_offsets(r, C_POS_FIRST_POLICY, C_POS_POLICY_COUNT, s->npositions, s->npolicy, err) < 0)
        goto fail;
    fill_info(r);
    return r;
fail:
    dsr_close(r);
    return NULL;
}

const DatasetSummary *dsr_summary(const DatasetReader *r)
{
    return &r->summary;
}

int dsr_dataset_count(const DatasetReader *r)
{
    return r->ninfo;
}

const DatasetInfo *dsr_dataset_info(const DatasetReader *r, int i)
{
    if (i < 0 || i >= r->ninfo)
        return NULL;
    return &r->info[i];
}

void game_record_free(GameRecord *g)
{
    if (!g)
        return;
    free(g->moves);
    free(g->positions);
    free(g->policy_moves);
    free(g->policy_visits);
    g->moves = NULL;
    g->positions = NULL;
    g->policy_moves = NULL;
    g->policy_visits = NULL;
    g->nmoves = g->npositions = g->npolicy = 0;
}

/* The per-game scalars of row i. */
typedef struct GameRow {
    uint64_t index, seed, first_position, first_policy, first_move;
    uint32_t position_count, policy_count, move_count;
    int8_t result;
    uint8_t termination, resign_disabled, deal_swapped;
    int8_t seat_colour;
    uint8_t deal[XQ_MAX_POINTS];
    uint16_t plies;
    float wall_seconds;
    char fen[FEN_BYTES + 1];
} GameRow;

static int read_game_row(DatasetReader *r, uint64_t i, GameRow *row)
{
    struct {
        Column c;
        void *out;
    } cells[] = {
        {C_GAME_INDEX, &row->index},
        {C_GAME_SEED, &row->seed},
        {C_GAME_RESULT, &row->result},
        {C_GAME_TERMINATION, &row->termination},
        {C_GAME_PLIES, &row->plies},
        {C_GAME_START_FEN, row->fen},
        {C_GAME_FIRST_POSITION, &row->first_position},
        {C_GAME_POSITION_COUNT, &row->position_count},
        {C_GAME_FIRST_POLICY, &row->first_policy},
        {C_GAME_POLICY_COUNT, &row->policy_count},
        {C_GAME_FIRST_MOVE, &row->first_move},
        {C_GAME_MOVE_COUNT, &row->move_count},
        {C_GAME_WALL_SECONDS, &row->wall_seconds},
        {C_GAME_RESIGN_DISABLED, &row->resign_disabled},
    };
    memset(row->fen, 0, sizeof row->fen);
    for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++)
        if (schema_read_rows(r->dset[cells[k].c], r->mtype[cells[k].c], i, 1, 1, cells[k].out) < 0)
            return (int)cells[k].c + 1;
    /* Hidden-piece columns (format 2): zero in older files. */
    row->deal_swapped = 0;
    row->seat_colour = 0;
    memset(row->deal, 0, sizeof row->deal);
    if (r->dset[C_GAME_DEAL] >= 0 &&
        schema_read_rows(r->dset[C_GAME_DEAL], r->mtype[C_GAME_DEAL], i, 1, r->summary.npoints, row->deal) < 0)
        return (int)C_GAME_DEAL + 1;
    if (r->dset[C_GAME_DEAL_SWAPPED] >= 0 &&
        schema_read_rows(r->dset[C_GAME_DEAL_SWAPPED], r->mtype[C_GAME_DEAL_SWAPPED], i, 1, 1, &row->deal_swapped) < 0)
        return (int)C_GAME_DEAL_SWAPPED + 1;
    if (r->dset[C_GAME_SEAT_COLOUR] >= 0 &&
        schema_read_rows(r->dset[C_GAME_SEAT_COLOUR], r->mtype[C_GAME_SEAT_COLOUR], i, 1, 1, &row->seat_colour) < 0)
        return (int)C_GAME_SEAT_COLOUR + 1;
    return 0;
}

/* Formats 1-3 wrote start FENs of the rule sets whose first reveal assigns the colours (core/
 * seat.h) with letters and side to move naming seats; format 4 names colours. Rewrites such a FEN
 * (unchanged if the file's rule set no longer loads or the FEN does not parse). */
static void convert_seat_letters(DatasetReader *r, char *fen, size_t size)
{
    if (!r->legacy_loaded) {
        r->legacy_loaded = true;
        XqError verr;
        if (r->summary.variant_text && strstr(r->summary.variant_text, "[hidden]"))
            r->legacy = variant_load_text(r->summary.variant_text, r->summary.variant_name, &verr);
    }
    if (!r->legacy || !variant_assigns_colours(r->legacy) || !fen[0])
        return;
    Position *pos = malloc(sizeof *pos);
    XqError ferr;
    if (pos && pos_set_fen_seat_letters(pos, r->legacy, fen, &ferr) == 0)
        pos_get_fen(pos, fen, size);
    free(pos);
}

int dsr_read_game(DatasetReader *r, uint64_t i, GameRecord *g, XqError *err)
{
    schema_quiet_hdf5(); /* per thread: see schema.h */
    memset(g, 0, sizeof *g);
    const DatasetSummary *s = &r->summary;
    if (i >= s->ngames)
        return schema_fail(err, r->path, "game row %" PRIu64 " out of range (the file holds %" PRIu64 ")", i, s->ngames);
    GameRow row;
    int bad = read_game_row(r, i, &row);
    if (bad)
        return schema_fail(err, r->path, "cannot read row %" PRIu64 " of %s", i, SCHEMA_COLUMNS[bad - 1].path);
    /* dsr_open checked that the ranges tile their datasets; they must also fit an int. */
    if (row.position_count > INT_MAX || row.policy_count > INT_MAX || row.move_count > INT_MAX)
        return schema_fail(err, r->path, "game row %" PRIu64 " is too large to load", i);

    int rc = -1;
    uint8_t *tmp = NULL;
    size_t npos = row.position_count, npol = row.policy_count, nmov = row.move_count;
    g->index = row.index;
    g->seed = row.seed;
    g->result = row.result;
    g->termination = row.termination;
    g->plies = row.plies;
    memcpy(g->start_fen, row.fen, sizeof g->start_fen);
    g->start_fen[sizeof g->start_fen - 1] = '\0';
    if (s->format_version < 4)
        convert_seat_letters(r, g->start_fen, sizeof g->start_fen);
    g->wall_seconds = row.wall_seconds;
    g->resign_disabled = row.resign_disabled != 0;
    memcpy(g->deal, row.deal, sizeof g->deal);
    for (int p = 0; p < s->npoints; p++)
        g->has_deal |= g->deal[p] != 0;
    g->deal_swapped = row.deal_swapped != 0;
    g->seat_colour = row.seat_colour;
    g->moves = malloc((nmov ? nmov : 1) * sizeof *g->moves);
    g->positions = calloc(npos ? npos : 1, sizeof *g->positions);
    g->policy_moves = malloc((npol ? npol : 1) * sizeof *g->policy_moves);
    g->policy_visits = malloc((npol ? npol : 1) * sizeof *g->policy_visits);
    size_t widest = (size_t)s->npoints > XQ_MOD_STATE ? (size_t)s->npoints : XQ_MOD_STATE;
    tmp = malloc((npos ? npos : 1) * widest);
    if (!g->moves || !g->positions || !g->policy_moves || !g->policy_visits || !tmp) {
        schema_fail(err, r->path, "out of memory reading game row %" PRIu64, i);
        goto cleanup;
    }
    g->nmoves = (int)nmov;
    g->npositions = (int)npos;
    g->npolicy = (int)npol;
    if (schema_read_rows(r->dset[C_MOVES], r->mtype[C_MOVES], row.first_move, nmov, 1, g->moves) < 0 ||
        schema_read_rows(r->dset[C_POLICY_MOVE], r->mtype[C_POLICY_MOVE], row.first_policy, npol, 1, g->policy_moves) < 0 ||
        schema_read_rows(r->dset[C_POLICY_VISITS], r->mtype[C_POLICY_VISITS], row.first_policy, npol, 1,
                         g->policy_visits) < 0) {
        schema_fail(err, r->path, "cannot read the moves or policy of game row %" PRIu64, i);
        goto cleanup;
    }

    for (int c = C_POS_BOARD; c <= C_POS_POLICY_COUNT; c++) {
        int width = schema_width((Column)c, s->npoints);
        if (schema_read_rows(r->dset[c], r->mtype[c], row.first_position, npos, width, tmp) < 0) {
            schema_fail(err, r->path, "cannot read %s of game row %" PRIu64, SCHEMA_COLUMNS[c].path, i);
            goto cleanup;
        }
        for (size_t k = 0; k < npos; k++) {
            PositionRecord *p = &g->positions[k];
            switch ((Column)c) {
            case C_POS_BOARD: memcpy(p->board, tmp + k * (size_t)s->npoints, (size_t)s->npoints); break;
            case C_POS_SIDE: p->side = tmp[k]; break;
            case C_POS_PLY: memcpy(&p->ply, tmp + 2 * k, 2); break;
            case C_POS_NO_CAPTURE: memcpy(&p->no_capture, tmp + 2 * k, 2); break;
            case C_POS_GAME: {
                uint64_t game;
                memcpy(&game, tmp + 8 * k, 8);
                if (game != i) {
                    schema_fail(err, r->path, "position row %" PRIu64 " belongs to game row %" PRIu64 ", expected %" PRIu64,
                                row.first_position + k, game, i);
                    goto cleanup;
                }
                break;
            }
            case C_POS_PLAYED: memcpy(&p->played, tmp + 4 * k, 4); break;
            case C_POS_BEST: memcpy(&p->best, tmp + 4 * k, 4); break;
            case C_POS_ROOT_VALUE: case C_POS_STATIC_EVAL: {
                int16_t q;
                memcpy(&q, tmp + 2 * k, 2);
                *(c == C_POS_ROOT_VALUE ? &p->root_value : &p->static_eval) = schema_dequantise(q);
                break;
            }
            case C_POS_RESULT: break; /* derived from the game result */
            case C_POS_VISITS: memcpy(&p->visits, tmp + 4 * k, 4); break;
            case C_POS_FIRST_POLICY: {
                uint64_t first;
                memcpy(&first, tmp + 8 * k, 8);
                if (first < row.first_policy || first - row.first_policy > npol) {
                    schema_fail(err, r->path, "position row %" PRIu64 ": first_policy %" PRIu64 " outside its game",
                                row.first_position + k, first);
                    goto cleanup;
                }
                p->policy_first = (uint32_t)(first - row.first_policy);
                break;
            }
            case C_POS_POLICY_COUNT: {
                uint16_t n;
                memcpy(&n, tmp + 2 * k, 2);
                if ((uint64_t)p->policy_first + n > npol) {
                    schema_fail(err, r->path, "position row %" PRIu64 ": policy rows run past its game",
                                row.first_position + k);
                    goto cleanup;
                }
                p->policy_count = n;
                break;
            }
            default: break;
            }
        }
    }
    if (r->dset[C_POS_MODULE] >= 0) {
        if (schema_read_rows(r->dset[C_POS_MODULE], r->mtype[C_POS_MODULE], row.first_position, npos, XQ_MOD_STATE,
                             tmp) < 0) {
            schema_fail(err, r->path, "cannot read %s of game row %" PRIu64, SCHEMA_COLUMNS[C_POS_MODULE].path, i);
            goto cleanup;
        }
        for (size_t k = 0; k < npos; k++)
            memcpy(g->positions[k].module, tmp + k * XQ_MOD_STATE, XQ_MOD_STATE);
    }
    rc = 0;
cleanup:
    free(tmp);
    if (rc < 0)
        game_record_free(g);
    return rc;
}

int dsr_outcomes(DatasetReader *r, DatasetOutcomes *out, XqError *err)
{
    schema_quiet_hdf5(); /* per thread: see schema.h */
    memset(out, 0, sizeof *out);
    int rc = -1;
    uint64_t n = r->summary.ngames;
    int8_t *result = malloc(SCAN_BLOCK);
    uint8_t *term = malloc(SCAN_BLOCK), *resign = malloc(SCAN_BLOCK);
    float *wall = malloc(SCAN_BLOCK * sizeof *wall);
    if (!result || !term || !resign || !wall) {
        schema_fail(err, r->path, "out of memory");
        goto cleanup;
    }
    for (uint64_t start = 0; start < n; start += SCAN_BLOCK) {
        uint64_t m = n - start < SCAN_BLOCK ? n - start : SCAN_BLOCK;
        if (schema_read_rows(r->dset[C_GAME_RESULT], r->mtype[C_GAME_RESULT], start, m, 1, result) < 0 ||
            schema_read_rows(r->dset[C_GAME_TERMINATION], r->mtype[C_GAME_TERMINATION], start, m, 1, term) < 0 ||
            schema_read_rows(r->dset[C_GAME_RESIGN_DISABLED], r->mtype[C_GAME_RESIGN_DISABLED], start, m, 1, resign) < 0 ||
            schema_read_rows(r->dset[C_GAME_WALL_SECONDS], r->mtype[C_GAME_WALL_SECONDS], start, m, 1, wall) < 0) {
            schema_fail(err, r->path, "cannot read the game outcome columns");
            goto cleanup;
        }
        for (uint64_t i = 0; i < m; i++) {
            if (result[i] >= -1 && result[i] <= 1)
                out->result[result[i] + 1]++;
            else
                out->other_result++;
            if (term[i] < TERM_COUNT)
                out->termination[term[i]]++;
            else
                out->other_termination++;
            out->resign_disabled += resign[i] != 0;
            out->wall_seconds += wall[i];
        }
    }
    rc = 0;
cleanup:
    free(result);
    free(term);
    free(resign);
    free(wall);
    return rc;
}
