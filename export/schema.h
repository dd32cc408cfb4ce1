/* schema.h - private to export/: the column table shared by the writer and the reader, HDF5
 * type mapping, value quantisation, error capture and attribute helpers. */
#ifndef XQ_EXPORT_SCHEMA_H
#define XQ_EXPORT_SCHEMA_H

#include <hdf5.h>

#include "dataset.h"

/* Which row count a column follows. */
typedef enum { LEN_MOVES, LEN_POLICY, LEN_POSITIONS, LEN_GAMES, LEN_COUNT } LengthClass;

/* Element types on disk (always little-endian); T_FEN is a fixed 256-byte NUL-padded string. */
/* T_TERM (format 5) is an HDF5 enum over uint8 whose members are the termination names
 * (termination_name), so h5py and h5dump show them; format 1-3 files hold plain uint8 there. */
typedef enum { T_U8, T_I8, T_U16, T_I16, T_U32, T_U64, T_F32, T_FEN, T_TERM } ColumnType;

enum { FEN_BYTES = 256 };

/* Columns in the order the writer writes them at a flush: everything a game refers to first,
 * the game rows last and /games/index last of all, so that a game row on disk implies the rows
 * it points at are there. */
typedef enum {
    C_MOVES,
    C_POLICY_MOVE, C_POLICY_VISITS,
    C_POS_BOARD, C_POS_SIDE, C_POS_PLY, C_POS_NO_CAPTURE, C_POS_GAME, C_POS_PLAYED, C_POS_BEST,
    C_POS_ROOT_VALUE, C_POS_STATIC_EVAL, C_POS_RESULT, C_POS_VISITS, C_POS_FIRST_POLICY,
    C_POS_POLICY_COUNT, C_POS_MODULE,
    C_GAME_SEED, C_GAME_RESULT, C_GAME_TERMINATION, C_GAME_PLIES, C_GAME_START_FEN,
    C_GAME_FIRST_POSITION, C_GAME_POSITION_COUNT, C_GAME_FIRST_POLICY, C_GAME_POLICY_COUNT,
    C_GAME_FIRST_MOVE, C_GAME_MOVE_COUNT, C_GAME_WALL_SECONDS, C_GAME_RESIGN_DISABLED,
    C_GAME_DEAL, C_GAME_DEAL_SWAPPED, C_GAME_SEAT_COLOUR,
    C_GAME_INDEX,
    NCOLUMNS
} Column;

typedef struct ColumnSpec {
    const char *path;      /* absolute dataset path */
    LengthClass length;
    ColumnType type;
    bool per_point;        /* 2-D: rows x npoints */
    const char *doc;       /* written as the dataset's "description" attribute */
} ColumnSpec;

extern const ColumnSpec SCHEMA_COLUMNS[NCOLUMNS];

/* Elements per row of column c: npoints for a per-point column, XQ_MOD_STATE for
 * /positions/module, 1 for the others. */
int schema_width(Column c, int npoints);
/* Columns beyond 1 element per row that do not follow the board (/positions/module): their
 * width, else 0. */
int schema_fixed_width(Column c);
/* True if column c is 2-D (per point or of a fixed width). */
bool schema_is_2d(Column c);
/* True if files of format `version` hold column c (older files lack the columns added later;
 * readers treat those as zero). */
bool schema_column_in(Column c, int version);
/* Column type of c in files of format `version` (termination: T_TERM from format 5, else u8). */
ColumnType schema_column_type(Column c, int version);

/* Root values and evaluations in [-1, 1] are stored as int16: round(v * VALUE_SCALE);
 * VALUE_MISSING stands for NaN (no value). */
enum { VALUE_SCALE = 32767, VALUE_MISSING = -32768 };
int16_t schema_quantise(float v);
float schema_dequantise(int16_t q);

size_t schema_type_size(ColumnType t);
/* New HDF5 type ids for the file / memory representation; the caller closes them. */
hid_t schema_file_type(ColumnType t);
hid_t schema_mem_type(ColumnType t);
/* Human-readable dtype ("uint8", "int16", "S256", "enum uint8"). */
const char *schema_type_name(ColumnType t);
/* The memory type to read or write an open dataset of column type t with: schema_mem_type(t),
 * except that a T_TERM column of an older file (plain uint8 on disk) is read as uint8 (HDF5 does
 * not convert integers to enums). The memory layout is one byte either way. */
hid_t schema_mem_type_of(hid_t dset, ColumnType t);

/* The board-byte -> piece-letter map of a rule set (root attribute piece_letters, format 5): one
 * character per code 0..31, '.' for an empty point, the kind's FEN letter (upper case red, lower
 * case black), '?' for codes no piece uses. NULL-terminated into buf (at least 33 bytes); -1 if
 * the variant text does not load. */
int schema_piece_letters(const char *variant_text, char *buf, size_t size);

/* Switches off HDF5's automatic error printing (errors are reported through XqError). The
 * thread-safe HDF5 keeps this setting per thread, so every public entry point calls it: a writer
 * opened on one thread and used from another would otherwise print HDF5-DIAG stacks. */
void schema_quiet_hdf5(void);

/* Fills *err (file = path, line 0) with the formatted message, followed by the most specific
 * entry of the current HDF5 error stack if there is one, then clears that stack. Returns -1. */
int schema_fail(XqError *err, const char *path, const char *fmt, ...);

/* Attributes. Strings are written as fixed-length NUL-padded UTF-8 strings of exactly the text's
 * length (format 3): the value of a variable-length string lives in the file's global heap, and
 * libhdf5 1.10 crashes, hangs or leaks reading a damaged global heap, while a fixed-length value
 * sits in the attribute's own object-header message. HDF5 keeps attributes in the object header,
 * whose messages hold at most 64 KiB: attr_write_string refuses (returns -1 without touching
 * obj) a text longer than ATTR_TEXT_MAX bytes. */
enum { ATTR_TEXT_MAX = 65000, ATTR_STORAGE_MAX = 65535 };

/* True if files of format `version` may hold variable-length strings (formats 1 and 2 wrote
 * them); format 3 and later readers refuse them, so no read of a format-3 file touches the
 * global heap. */
bool schema_vlen_strings(int version);

/* The *_read functions return -1 (NULL) if the attribute is missing or of the wrong kind;
 * attr_read_string returns a malloc'd string and reads a variable-length string only when
 * vlen_ok (schema_vlen_strings of the file's format). */
int attr_write_string(hid_t obj, const char *name, const char *value);
int attr_write_u64(hid_t obj, const char *name, uint64_t value);
int attr_write_i32(hid_t obj, const char *name, int32_t value);
int attr_write_f64(hid_t obj, const char *name, double value);
char *attr_read_string(hid_t obj, const char *name, bool vlen_ok);
int attr_read_u64(hid_t obj, const char *name, uint64_t *value);
int attr_read_i32(hid_t obj, const char *name, int32_t *value);

/* Opens column c of `file` and checks that it exists, has the column's element type and shape
 * (rank 1, or rank 2 with npoints columns). Returns the dataset id with *rows set, or -1 with
 * *err (file = path) saying what is wrong. */
hid_t schema_open_column(hid_t file, Column c, int npoints, uint64_t *rows, const char *path,
                         XqError *err);

/* Reads rows [start, start + count) of a column into buf (count * width elements of mtype, where
 * width is npoints for per-point columns and 1 otherwise). Returns 0 or -1 (HDF5 stack kept). */
int schema_read_rows(hid_t dset, hid_t mtype, uint64_t start, uint64_t count, int width, void *buf);

/* Current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into buf (at least 24 bytes). */
void schema_utc_now(char *buf, size_t size);

/* H5Aiterate2 callback: copies attribute `name` of `src` (type, shape and value, variable-length
 * strings included) to the object whose hid_t `data` points to. */
herr_t schema_copy_attribute(hid_t src, const char *name, const H5A_info_t *info, void *data);

#endif
