/* schema.c - the dataset column table, type mapping, quantisation and HDF5 helpers shared by the
 * writer and the reader. */
#include "schema.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "status.h"

const ColumnSpec SCHEMA_COLUMNS[NCOLUMNS] = {
    [C_MOVES] = {"/games/moves", LEN_MOVES, T_U32, false,
        "every move of every game, in game order (Move: from | to << 8 | extra << 16 | flags << 24)"},
    [C_POLICY_MOVE] = {"/policy/move", LEN_POLICY, T_U32, false,
        "root child move (Move bits as in /games/moves)"},
    [C_POLICY_VISITS] = {"/policy/visits", LEN_POLICY, T_U32, false,
        "root child visit count"},
    [C_POS_BOARD] = {"/positions/board", LEN_POSITIONS, T_U8, true,
        "piece code per point: 0 empty, 1 + kind + 16 * side"},
    [C_POS_SIDE] = {"/positions/side", LEN_POSITIONS, T_U8, false,
        "side to move: 0 red, 1 black"},
    [C_POS_PLY] = {"/positions/ply", LEN_POSITIONS, T_U16, false,
        "plies played since the game start position"},
    [C_POS_NO_CAPTURE] = {"/positions/no_capture", LEN_POSITIONS, T_U16, false,
        "plies since the last capture"},
    [C_POS_GAME] = {"/positions/game", LEN_POSITIONS, T_U64, false,
        "row in /games of the game this position belongs to"},
    [C_POS_PLAYED] = {"/positions/played", LEN_POSITIONS, T_U32, false,
        "move played from this position (Move)"},
    [C_POS_BEST] = {"/positions/best", LEN_POSITIONS, T_U32, false,
        "search best move (Move; 0xffffffff = none)"},
    [C_POS_ROOT_VALUE] = {"/positions/root_value", LEN_POSITIONS, T_I16, false,
        "search value for the side to move: value = stored / 32767; -32768 = none"},
    [C_POS_STATIC_EVAL] = {"/positions/static_eval", LEN_POSITIONS, T_I16, false,
        "static evaluation for the side to move: value = stored / 32767; -32768 = none"},
    [C_POS_RESULT] = {"/positions/result", LEN_POSITIONS, T_I8, false,
        "game result from the side to move: 1 win, 0 draw, -1 loss, -2 unknown"},
    [C_POS_VISITS] = {"/positions/visits", LEN_POSITIONS, T_U32, false,
        "root visits of the search"},
    [C_POS_FIRST_POLICY] = {"/positions/first_policy", LEN_POSITIONS, T_U64, false,
        "first row in /policy of this position"},
    [C_POS_POLICY_COUNT] = {"/positions/policy_count", LEN_POSITIONS, T_U16, false,
        "rows in /policy of this position (children with visits > 0)"},
    [C_POS_MODULE] = {"/positions/module", LEN_POSITIONS, T_U8, false,
        "rule-module state bytes of the position (core/module.h; hidden pieces: pools, seat "
        "colour, hit points); zero for rule sets without modules"},
    [C_GAME_SEED] = {"/games/seed", LEN_GAMES, T_U64, false,
        "seed of the game"},
    [C_GAME_RESULT] = {"/games/result", LEN_GAMES, T_I8, false,
        "result from red: 1 red wins, 0 draw, -1 black wins, -2 none"},
    [C_GAME_TERMINATION] = {"/games/termination", LEN_GAMES, T_TERM, false,
        "why the game ended: an enum of the termination names (format 5; uint8 before), docs/data-format.md"},
    [C_GAME_PLIES] = {"/games/plies", LEN_GAMES, T_U16, false,
        "plies played"},
    [C_GAME_START_FEN] = {"/games/start_fen", LEN_GAMES, T_FEN, false,
        "start position (FEN), NUL-padded"},
    [C_GAME_FIRST_POSITION] = {"/games/first_position", LEN_GAMES, T_U64, false,
        "first row in /positions of the game"},
    [C_GAME_POSITION_COUNT] = {"/games/position_count", LEN_GAMES, T_U32, false,
        "rows in /positions of the game"},
    [C_GAME_FIRST_POLICY] = {"/games/first_policy", LEN_GAMES, T_U64, false,
        "first row in /policy of the game"},
    [C_GAME_POLICY_COUNT] = {"/games/policy_count", LEN_GAMES, T_U32, false,
        "rows in /policy of the game"},
    [C_GAME_FIRST_MOVE] = {"/games/first_move", LEN_GAMES, T_U64, false,
        "first row in /games/moves of the game"},
    [C_GAME_MOVE_COUNT] = {"/games/move_count", LEN_GAMES, T_U32, false,
        "rows in /games/moves of the game"},
    [C_GAME_WALL_SECONDS] = {"/games/wall_seconds", LEN_GAMES, T_F32, false,
        "wall-clock seconds the game took"},
    [C_GAME_RESIGN_DISABLED] = {"/games/resign_disabled", LEN_GAMES, T_U8, false,
        "1 if resignation was switched off in this game"},
    [C_GAME_DEAL] = {"/games/deal", LEN_GAMES, T_U8, true,
        "hidden pieces: identity dealt to the face-down piece on each point of start_fen, "
        "(colour << 4) | (kind + 1); 0 where none"},
    [C_GAME_DEAL_SWAPPED] = {"/games/deal_swapped", LEN_GAMES, T_U8, false,
        "hidden pieces: 1 if the deal is the seat-swapped copy of the previous game's "
        "(--paired-deals)"},
    [C_GAME_SEAT_COLOUR] = {"/games/seat_colour", LEN_GAMES, T_I8, false,
        "hidden pieces: colour seat 0 played at the end (0 red, 1 black, -1 never assigned); "
        "0 for other rule sets"},
    [C_GAME_INDEX] = {"/games/index", LEN_GAMES, T_U64, false,
        "game index within the run (written last: a row here means the game is complete)"},
};

int schema_fixed_width(Column c)
{
    return c == C_POS_MODULE ? XQ_MOD_STATE : 0;
}

bool schema_is_2d(Column c)
{
    return SCHEMA_COLUMNS[c].per_point || schema_fixed_width(c) > 0;
}

int schema_width(Column c, int npoints)
{
    int fixed = schema_fixed_width(c);
    return SCHEMA_COLUMNS[c].per_point ? npoints : fixed > 0 ? fixed : 1;
}

bool schema_column_in(Column c, int version)
{
    /* Format 2 added the hidden-piece columns; every other column is in every version. */
    switch (c) {
    case C_POS_MODULE: case C_GAME_DEAL: case C_GAME_DEAL_SWAPPED: case C_GAME_SEAT_COLOUR:
        return version >= 2;
    default:
        return true;
    }
}

ColumnType schema_column_type(Column c, int version)
{
    ColumnType t = SCHEMA_COLUMNS[c].type;
    return t == T_TERM && version < 5 ? T_U8 : t;
}

int schema_piece_letters(const char *variant_text, char *buf, size_t size)
{
    if (size < 33)
        return -1;
    XqError err;
    Variant *v = variant_load_text(variant_text, "variant_text", &err);
    if (!v)
        return -1;
    memset(buf, '?', 32);
    buf[0] = '.';
    buf[32] = '\0';
    for (int k = 0; k < v->nkinds; k++)
        for (int s = 0; s < 2; s++) {
            Piece pc = XQ_PIECE(s, k);
            if (pc < 32) {
                char c = v->kinds[k].letter;
                buf[pc] = (char)(s == RED ? toupper((unsigned char)c) : tolower((unsigned char)c));
            }
        }
    variant_free(v);
    return 0;
}

int16_t schema_quantise(float v)
{
    if (isnan(v))
        return VALUE_MISSING;
    if (v > 1.0f)
        v = 1.0f;
    if (v < -1.0f)
        v = -1.0f;
    return (int16_t)lrintf(v * (float)VALUE_SCALE);
}

float schema_dequantise(int16_t q)
{
    if (q == VALUE_MISSING)
        return NAN;
    return (float)q / (float)VALUE_SCALE;
}

size_t schema_type_size(ColumnType t)
{
    switch (t) {
    case T_U8: case T_I8: case T_TERM: return 1;
    case T_U16: case T_I16: return 2;
    case T_U32: case T_F32: return 4;
    case T_U64: return 8;
    case T_FEN: return FEN_BYTES;
    }
    return 0;
}

const char *schema_type_name(ColumnType t)
{
    switch (t) {
    case T_U8: return "uint8";
    case T_I8: return "int8";
    case T_U16: return "uint16";
    case T_I16: return "int16";
    case T_U32: return "uint32";
    case T_U64: return "uint64";
    case T_F32: return "float32";
    case T_FEN: return "S256";
    case T_TERM: return "enum uint8";
    }
    return "?";
}

/* The termination enum over base (H5T_STD_U8LE on disk, H5T_NATIVE_UINT8 in memory); the
 * member names are termination_name's ("checkmate", "move limit", ...). */
static hid_t termination_type(hid_t base)
{
    hid_t t = H5Tenum_create(base);
    if (t < 0)
        return -1;
    for (int code = 0; code < TERM_COUNT; code++) {
        uint8_t value = (uint8_t)code;
        if (H5Tenum_insert(t, termination_name((Termination)code), &value) < 0) {
            H5Tclose(t);
            return -1;
        }
    }
    return t;
}

hid_t schema_mem_type_of(hid_t dset, ColumnType t)
{
    if (t == T_TERM) {
        hid_t ft = H5Dget_type(dset);
        bool plain = ft >= 0 && H5Tget_class(ft) == H5T_INTEGER;
        if (ft >= 0)
            H5Tclose(ft);
        if (plain)
            return schema_mem_type(T_U8);
    }
    return schema_mem_type(t);
}

static hid_t fen_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return -1;
    if (H5Tset_size(t, FEN_BYTES) < 0 || H5Tset_strpad(t, H5T_STR_NULLPAD) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

hid_t schema_file_type(ColumnType t)
{
    switch (t) {
    case T_U8: return H5Tcopy(H5T_STD_U8LE);
    case T_I8: return H5Tcopy(H5T_STD_I8LE);
    case T_U16: return H5Tcopy(H5T_STD_U16LE);
    case T_I16: return H5Tcopy(H5T_STD_I16LE);
    case T_U32: return H5Tcopy(H5T_STD_U32LE);
    case T_U64: return H5Tcopy(H5T_STD_U64LE);
    case T_F32: return H5Tcopy(H5T_IEEE_F32LE);
    case T_FEN: return fen_type();
    case T_TERM: return termination_type(H5T_STD_U8LE);
    }
    return -1;
}

hid_t schema_mem_type(ColumnType t)
{
    switch (t) {
    case T_U8: return H5Tcopy(H5T_NATIVE_UINT8);
    case T_I8: return H5Tcopy(H5T_NATIVE_INT8);
    case T_U16: return H5Tcopy(H5T_NATIVE_UINT16);
    case T_I16: return H5Tcopy(H5T_NATIVE_INT16);
    case T_U32: return H5Tcopy(H5T_NATIVE_UINT32);
    case T_U64: return H5Tcopy(H5T_NATIVE_UINT64);
    case T_F32: return H5Tcopy(H5T_NATIVE_FLOAT);
    case T_FEN: return fen_type();
    case T_TERM: return termination_type(H5T_NATIVE_UINT8);
    }
    return -1;
}

void schema_quiet_hdf5(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

typedef struct StackDetail {
    char text[160];
    bool found;
} StackDetail;

static herr_t take_innermost(unsigned n, const H5E_error2_t *e, void *data)
{
    StackDetail *d = data;
    if (n == 0 && e->desc && e->desc[0]) {
        /* A failed system call is described as "file write failed: time = ..., filename = ...,
         * errno = 28, error message = 'No space left on device', ...": keep the system's words. */
        const char *sys = strstr(e->desc, "error message = '");
        const char *end = sys ? strchr(sys + 17, '\'') : NULL;
        if (sys && end)
            snprintf(d->text, sizeof d->text, "%.*s", (int)(end - sys - 17), sys + 17);
        else
            snprintf(d->text, sizeof d->text, "%s", e->desc);
        d->found = true;
    }
    return 0;
}

int schema_fail(XqError *err, const char *path, const char *fmt, ...)
{
    StackDetail detail = {.found = false};
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, take_innermost, &detail);
    H5Eclear2(H5E_DEFAULT);
    if (!err)
        return -1;
    snprintf(err->file, sizeof err->file, "%s", path);
    err->line = 0;
    char what[XQ_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (detail.found) {
        /* Both halves are cut to fit the message; the HDF5 detail is the less important one. */
        int keep = (int)strlen(what);
        snprintf(err->message, sizeof err->message, "%.*s (HDF5: %s)", keep, what, detail.text);
    } else {
        snprintf(err->message, sizeof err->message, "%s", what);
    }
    return -1;
}

static int attr_replace(hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *value)
{
    int rc = -1;
    hid_t space = -1, attr = -1;
    htri_t exists = H5Aexists(obj, name);
    if (exists < 0 || (exists > 0 && H5Adelete(obj, name) < 0))
        goto cleanup;
    if ((space = H5Screate(H5S_SCALAR)) < 0)
        goto cleanup;
    if ((attr = H5Acreate2(obj, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        goto cleanup;
    if (H5Awrite(attr, mtype, value) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    if (attr >= 0)
        H5Aclose(attr);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

bool schema_vlen_strings(int version)
{
    return version < 3;
}

/* Fixed-length NUL-padded UTF-8 string of `size` bytes (at least 1: HDF5 has no empty type). */
static hid_t fixed_string_type(size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return -1;
    if (H5Tset_size(t, size > 0 ? size : 1) < 0 || H5Tset_strpad(t, H5T_STR_NULLPAD) < 0 ||
        H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

static hid_t vlen_string_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return -1;
    if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

int attr_write_string(hid_t obj, const char *name, const char *value)
{
    const char *v = value ? value : "";
    size_t len = strlen(v);
    if (len > ATTR_TEXT_MAX)
        return -1;
    hid_t t = fixed_string_type(len);
    if (t < 0)
        return -1;
    /* The type holds exactly len bytes (1 for ""), so HDF5 reads no further than the text's NUL. */
    int rc = attr_replace(obj, name, t, t, v);
    H5Tclose(t);
    return rc;
}

int attr_write_u64(hid_t obj, const char *name, uint64_t value)
{
    return attr_replace(obj, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value);
}

int attr_write_i32(hid_t obj, const char *name, int32_t value)
{
    return attr_replace(obj, name, H5T_STD_I32LE, H5T_NATIVE_INT32, &value);
}

int attr_write_f64(hid_t obj, const char *name, double value)
{
    return attr_replace(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

/* Opens a scalar attribute whose type has class `cls`, or returns -1. */
static hid_t attr_open_scalar(hid_t obj, const char *name, H5T_class_t cls, hid_t *type)
{
    *type = -1;
    if (H5Aexists(obj, name) <= 0)
        return -1;
    hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
    if (attr < 0)
        return -1;
    hid_t space = H5Aget_space(attr);
    hid_t t = H5Aget_type(attr);
    bool ok = space >= 0 && t >= 0 && H5Sget_simple_extent_npoints(space) == 1 && H5Tget_class(t) == cls;
    if (space >= 0)
        H5Sclose(space);
    if (!ok) {
        if (t >= 0)
            H5Tclose(t);
        H5Aclose(attr);
        return -1;
    }
    *type = t;
    return attr;
}

char *attr_read_string(hid_t obj, const char *name, bool vlen_ok)
{
    hid_t type;
    hid_t attr = attr_open_scalar(obj, name, H5T_STRING, &type);
    if (attr < 0)
        return NULL;
    char *out = NULL;
    htri_t vlen = H5Tis_variable_str(type);
    if (vlen > 0 && vlen_ok) {
        hid_t mt = vlen_string_type();
        char *s = NULL;
        if (mt >= 0 && H5Aread(attr, mt, &s) >= 0 && s) {
            out = strdup(s);
            H5free_memory(s);
        }
        if (mt >= 0)
            H5Tclose(mt);
    } else if (vlen == 0) {
        /* A damaged type may claim any size: no attribute of the compact storage HDF5 uses here
         * holds more than 64 KiB, so a larger one is refused before anything is allocated. */
        size_t n = H5Tget_size(type);
        hid_t mt = H5Tcopy(H5T_C_S1);
        char *s = n > 0 && n <= ATTR_STORAGE_MAX ? calloc(n + 1, 1) : NULL;
        /* HDF5 converts between strings of one character set only. */
        if (s && mt >= 0 && H5Tset_size(mt, n + 1) >= 0 && H5Tset_cset(mt, H5Tget_cset(type)) >= 0 &&
            H5Aread(attr, mt, s) >= 0)
            out = s;
        else
            free(s);
        if (mt >= 0)
            H5Tclose(mt);
    }
    H5Tclose(type);
    H5Aclose(attr);
    return out;
}

int attr_read_u64(hid_t obj, const char *name, uint64_t *value)
{
    hid_t type;
    hid_t attr = attr_open_scalar(obj, name, H5T_INTEGER, &type);
    if (attr < 0)
        return -1;
    int rc = H5Aread(attr, H5T_NATIVE_UINT64, value) < 0 ? -1 : 0;
    H5Tclose(type);
    H5Aclose(attr);
    return rc;
}

int attr_read_i32(hid_t obj, const char *name, int32_t *value)
{
    hid_t type;
    hid_t attr = attr_open_scalar(obj, name, H5T_INTEGER, &type);
    if (attr < 0)
        return -1;
    int rc = H5Aread(attr, H5T_NATIVE_INT32, value) < 0 ? -1 : 0;
    H5Tclose(type);
    H5Aclose(attr);
    return rc;
}

hid_t schema_open_column(hid_t file, Column c, int npoints, uint64_t *rows, const char *path,
                         XqError *err)
{
    const ColumnSpec *spec = &SCHEMA_COLUMNS[c];
    hid_t dset = -1, type = -1, space = -1;
    char group[32];
    const char *slash = strchr(spec->path + 1, '/');
    snprintf(group, sizeof group, "%.*s", (int)(slash - spec->path), spec->path);
    if (H5Lexists(file, group, H5P_DEFAULT) <= 0 || H5Lexists(file, spec->path, H5P_DEFAULT) <= 0) {
        schema_fail(err, path, "dataset %s is missing", spec->path);
        goto fail;
    }
    if ((dset = H5Dopen2(file, spec->path, H5P_DEFAULT)) < 0) {
        schema_fail(err, path, "cannot open dataset %s", spec->path);
        goto fail;
    }
    if ((type = H5Dget_type(dset)) < 0 || (space = H5Dget_space(dset)) < 0) {
        schema_fail(err, path, "cannot read the type and shape of %s", spec->path);
        goto fail;
    }
    H5T_class_t cls = H5Tget_class(type);
    size_t size = H5Tget_size(type);
    bool type_ok;
    switch (spec->type) {
    case T_FEN:
        type_ok = cls == H5T_STRING && H5Tis_variable_str(type) == 0 && size == FEN_BYTES;
        break;
    case T_TERM: {
        /* The enum (format 5) or the plain uint8 of older files. */
        hid_t base = cls == H5T_ENUM ? H5Tget_super(type) : -1;
        type_ok = size == 1 && (cls == H5T_ENUM ? base >= 0 && H5Tget_sign(base) == H5T_SGN_NONE
                                                : cls == H5T_INTEGER && H5Tget_sign(type) == H5T_SGN_NONE);
        if (base >= 0)
            H5Tclose(base);
        break;
    }
    case T_F32:
        type_ok = cls == H5T_FLOAT && size == 4;
        break;
    default: {
        bool is_signed = spec->type == T_I8 || spec->type == T_I16;
        type_ok = cls == H5T_INTEGER && size == schema_type_size(spec->type) &&
                  H5Tget_sign(type) == (is_signed ? H5T_SGN_2 : H5T_SGN_NONE);
        break;
    }
    }
    if (!type_ok) {
        schema_fail(err, path, "dataset %s is not of type %s", spec->path, schema_type_name(spec->type));
        goto fail;
    }
    hsize_t dims[2];
    int rank = H5Sget_simple_extent_ndims(space);
    int want = schema_is_2d(c) ? 2 : 1, fixed = schema_fixed_width(c);
    if (rank != want || H5Sget_simple_extent_dims(space, dims, NULL) < 0) {
        schema_fail(err, path, "dataset %s should have rank %d", spec->path, want);
        goto fail;
    }
    if (spec->per_point && dims[1] != (hsize_t)npoints) {
        schema_fail(err, path, "dataset %s has %llu columns, expected npoints = %d", spec->path,
                    (unsigned long long)dims[1], npoints);
        goto fail;
    }
    if (fixed > 0 && dims[1] != (hsize_t)fixed) {
        schema_fail(err, path, "dataset %s has %llu columns, expected %d", spec->path,
                    (unsigned long long)dims[1], fixed);
        goto fail;
    }
    *rows = dims[0];
    H5Tclose(type);
    H5Sclose(space);
    return dset;
fail:
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    if (dset >= 0)
        H5Dclose(dset);
    return -1;
}

int schema_read_rows(hid_t dset, hid_t mtype, uint64_t start, uint64_t count, int width, void *buf)
{
    if (count == 0)
        return 0;
    int rc = -1;
    hid_t fspace = -1, mspace = -1;
    hsize_t off[2] = {start, 0}, cnt[2] = {count, (hsize_t)width};
    int rank = width > 1 ? 2 : 1;
    if ((fspace = H5Dget_space(dset)) < 0)
        goto cleanup;
    if (rank == 1 && H5Sget_simple_extent_ndims(fspace) == 2)
        rank = 2; /* a per-point column with npoints == 1 */
    if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, cnt, NULL) < 0)
        goto cleanup;
    if ((mspace = H5Screate_simple(rank, cnt, NULL)) < 0)
        goto cleanup;
    if (H5Dread(dset, mtype, mspace, fspace, H5P_DEFAULT, buf) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    return rc;
}

void schema_utc_now(char *buf, size_t size)
{
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else
        snprintf(buf, size, "unknown");
}

herr_t schema_copy_attribute(hid_t src, const char *name, const H5A_info_t *info, void *data)
{
    (void)info;
    hid_t dst = *(const hid_t *)data;
    herr_t rc = -1;
    hid_t attr = -1, ftype = -1, mtype = -1, space = -1, out = -1;
    void *buf = NULL;
    if ((attr = H5Aopen(src, name, H5P_DEFAULT)) < 0 || (ftype = H5Aget_type(attr)) < 0 ||
        (space = H5Aget_space(attr)) < 0 || (mtype = H5Tget_native_type(ftype, H5T_DIR_ASCEND)) < 0)
        goto cleanup;
    hssize_t n = H5Sget_simple_extent_npoints(space);
    size_t size = H5Tget_size(mtype);
    if (n < 0 || size == 0 || !(buf = calloc((size_t)(n > 0 ? n : 1), size)))
        goto cleanup;
    if (H5Aread(attr, mtype, buf) < 0)
        goto cleanup;
    bool vlen = H5Tis_variable_str(mtype) > 0 || H5Tdetect_class(mtype, H5T_VLEN) > 0;
    if ((out = H5Acreate2(dst, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT)) >= 0 && H5Awrite(out, mtype, buf) >= 0)
        rc = 0;
    if (vlen)
        H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, buf);
cleanup:
    free(buf);
    if (out >= 0)
        H5Aclose(out);
    if (mtype >= 0)
        H5Tclose(mtype);
    if (space >= 0)
        H5Sclose(space);
    if (ftype >= 0)
        H5Tclose(ftype);
    if (attr >= 0)
        H5Aclose(attr);
    return rc;
}
