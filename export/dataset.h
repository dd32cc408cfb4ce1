/* dataset.h - self-play datasets in HDF5 (columns compressed with shuffle + zstd, filter 32015):
 * the in-memory records the self-play driver fills, the writer and the reader. The layout on disk
 * is documented in docs/data-format.md. HDF5 is not called from more than one thread at a time:
 * one writer (or reader) per file, used by one thread. */
#ifndef XQ_DATASET_H
#define XQ_DATASET_H

#include "variant.h"

/* Version 5 stores /games/termination as an HDF5 enum of the termination names and the root
 * attribute piece_letters (board byte -> piece letter). Version 4: in /games/start_fen the
 * letters and the side to move name colours in jieqi-folk, banqi and banqi-hp too (before, they
 * named seats there; the reader rewrites such FENs of older files). Version 3 writes every string
 * attribute as a fixed-length string (export/schema.h says why); version 2 added
 * /positions/module, /games/deal, /games/deal_swapped and /games/seat_colour; versions 1-4 are
 * still read (the newer columns of a version-1 file read as zero). */
enum { DATASET_FORMAT_VERSION = 5, DATASET_FORMAT_OLDEST = 1 };

/* Provenance written as root attributes. Strings are borrowed for the call. */
typedef struct DatasetMeta {
    const char *variant_name;
    const char *variant_text;   /* full variant file text */
    const char *weights_text;   /* weights file text (or "") */
    const char *params_text;    /* search parameters, "key = value" lines */
    const char *command_line;
    uint64_t base_seed;
    int shard_index, shard_count;      /* 0 / 1 for a single run */
    uint64_t first_game, game_count;   /* range of game indices this file is meant to hold */
    int npoints;                       /* bytes of a board row */
    int compression_level;             /* zstd level of the columns; 0 = default (3) */
    /* How the games start (root attribute `start`): "startpos", "fen FEN" or "openings N lines,
     * hash H" (selfplay_meta); NULL: not recorded (imports, synthetic data). */
    const char *start_text;
    uint64_t run_games;                /* -n of the whole run (all shards); 0: not recorded */
} DatasetMeta;

/* One recorded position (the position before `played` was made). */
typedef struct PositionRecord {
    uint8_t board[XQ_MAX_POINTS];  /* piece code per point (first npoints used) */
    uint8_t module[XQ_MOD_STATE];  /* rule-module state (pools, seat colour, hit points, ...) */
    uint8_t side;
    uint16_t ply;
    uint16_t no_capture;
    Move played, best;
    float root_value;              /* search value, side to move, [-1, 1] */
    float static_eval;             /* static evaluation, side to move, [-1, 1] */
    uint32_t visits;               /* root visits */
    int policy_count;              /* children with visits > 0 */
    uint32_t policy_first;         /* index into GameRecord.policy_moves / policy_visits */
} PositionRecord;

/* One finished game with its positions and sparse root policies. */
typedef struct GameRecord {
    uint64_t index;                /* game index within the run (0-based) */
    uint64_t seed;
    int8_t result;                 /* Result, from Red */
    uint8_t termination;           /* Termination */
    uint16_t plies;
    char start_fen[256];
    float wall_seconds;
    bool resign_disabled;          /* resignation was switched off in this game */
    /* Hidden-piece rule sets (core/hidden.h): the identity code dealt to each point of
     * start_fen, 0 where no face-down piece stands; the colour seat 0 (Red's seat) played, -1
     * if no reveal assigned one; the deal is the seat-swapped copy of the previous game's
     * (--paired-deals, odd games). has_deal is false for every other variant (the reader sets
     * it when a deal byte is non-zero). */
    bool has_deal;
    bool deal_swapped;
    int8_t seat_colour;
    uint8_t deal[XQ_MAX_POINTS];
    int nmoves;
    Move *moves;                   /* all moves played, nmoves of them */
    int npositions;
    PositionRecord *positions;
    int npolicy;
    Move *policy_moves;
    uint32_t *policy_visits;
} GameRecord;

typedef struct DatasetWriter DatasetWriter;

/* Creates PATH.tmp (or, when `resume` is true, reopens it) and writes the metadata. *games_done
 * tells how many complete games the file holds (0 for a new file). Crash protocol
 * (docs/data-format.md): every completed flush records its row counts in the journal
 * PATH.tmp.games; resume decodes every column up to those counts, keeps the longest prefix of
 * games whose rows all decode and copies it into a fresh PATH.tmp, so a SIGKILL at any moment
 * costs at most the batch in flight (games lost beyond it are reported on stderr; the caller
 * plays them again). An unreadable PATH.tmp is started again with a warning; a PATH.tmp beside
 * a complete PATH is removed and reported as complete. Stale PATH.part and *.new files are
 * removed. NULL with *err on failure (another variant's file is never touched). */
DatasetWriter *dsw_open(const char *path, const DatasetMeta *meta, bool resume,
                        uint64_t *games_done, XqError *err);

/* Appends a game (games must come in increasing index order). Buffers; see dsw_flush. */
int dsw_append(DatasetWriter *w, const GameRecord *g, XqError *err);

/* Writes buffered rows, flushes the file (dsw_append also does this by itself after 32768
 * buffered positions) and then updates the journal: only then are the games committed. Between
 * flushes the file is not touched. */
int dsw_flush(DatasetWriter *w, XqError *err);

/* Flushes, writes a compact copy PATH.part of PATH.tmp (chunks copied as they are), fsyncs and
 * renames it to PATH, then removes PATH.tmp and its journal. Until the rename PATH.tmp stays
 * resumable; after it PATH is complete. Frees w (also on error). */
int dsw_close(DatasetWriter *w, XqError *err);

/* True if PATH is a finished dataset (dsw_close renamed it into place). It then also removes
 * what a kill between that rename and the clean-up can leave next to it (PATH.tmp, its journal,
 * a half-renamed PATH.tmp.new): the run is complete, not interrupted. */
bool dsw_finished(const char *path);

/* The first thing in which the run `run` differs from the run that wrote a file (`file`, its
 * root attributes as a DatasetMeta), in the order variant, board, seed, shard, game count (-n),
 * game range, search settings, weights, start position: writes e.g. "--seed: the file's run
 * has 3, this run 4" into buf and returns true; false if they are the same run. A start text or
 * run_games that either side lacks (older files) is not compared. */
bool dataset_run_difference(const DatasetMeta *file, const DatasetMeta *run, char *buf, size_t size);

/* Checks that the finished dataset PATH was written by the run `run` (dataset_run_difference),
 * so that --resume never reports another run's file as this run's result. Returns 0, or -1
 * with *err (an unreadable file, or the first difference). */
int dsw_check_finished(const char *path, const DatasetMeta *run, XqError *err);

/* Refuses a set of dataset files that hold a game twice: a file given twice (also under another
 * name or as a hard link), or two files of one run (the same variant, settings, weights, base
 * seed and start) whose game ranges overlap, e.g. a merged file and one of its shards. Returns
 * 0, or -1 with *err naming both files and the games they share (an unreadable file: the
 * reader's error). */
int dataset_files_distinct(const char *const *paths, int count, XqError *err);

/* Flushes and closes without renaming (interrupted run: PATH.tmp stays for --resume). Frees w. */
int dsw_abandon(DatasetWriter *w, XqError *err);

/* ---- reading ---- */

typedef struct DatasetSummary {
    char variant_name[XQ_NAME_MAX];
    char *variant_text;       /* owned by the reader */
    char *params_text;        /* owned by the reader */
    char *weights_text;       /* owned by the reader */
    char *command_line;       /* owned by the reader */
    char program_version[XQ_NAME_MAX];
    char host[256];
    char created_utc[32], closed_utc[32];  /* closed_utc is "" until dsw_close */
    uint64_t base_seed;
    int shard_index, shard_count;
    uint64_t first_game, game_count;       /* range the file was meant to hold */
    uint64_t ngames, npositions, npolicy, nmoves;
    int npoints;
    int format_version;
    char *start_text;         /* owned by the reader; NULL if the file has no `start` */
    uint64_t run_games;       /* 0 if the file has no `run_games` */
} DatasetSummary;

typedef struct DatasetReader DatasetReader;

/* Opens a dataset for reading and checks its structure (format version, every dataset present,
 * consistent lengths). NULL with *err naming the file and what is wrong. */
DatasetReader *dsr_open(const char *path, XqError *err);
const DatasetSummary *dsr_summary(const DatasetReader *r);

/* Reads game `i` (0-based row) with its moves and positions into *g (arrays malloc'd; free with
 * game_record_free). root_value and static_eval come back quantised to 1/32767 (NaN stays NaN);
 * policy_first indexes the game's own policy arrays. Returns 0 or -1 with *err. */
int dsr_read_game(DatasetReader *r, uint64_t i, GameRecord *g, XqError *err);

/* Storage of one dataset of the file: name, element type, rows, bytes before and after the
 * filters (H5Dget_storage_size). */
typedef struct DatasetInfo {
    const char *path;          /* static string, e.g. "/positions/board" */
    const char *dtype;         /* static string, e.g. "uint8" */
    uint64_t rows;
    uint64_t raw_bytes, stored_bytes;
} DatasetInfo;

/* Number of datasets in the layout and the storage of dataset i (0 <= i < count); the pointer
 * stays valid until dsr_close. */
int dsr_dataset_count(const DatasetReader *r);
const DatasetInfo *dsr_dataset_info(const DatasetReader *r, int i);

/* Game outcomes: results from Red (index result + 1: black wins, draw, red wins; other values
 * counted in `other_result`) and terminations (index Termination; others in `other_termination`). */
typedef struct DatasetOutcomes {
    uint64_t result[3], other_result;
    uint64_t termination[TERM_COUNT], other_termination;
    uint64_t resign_disabled;
    double wall_seconds;        /* sum over games */
} DatasetOutcomes;

/* Reads /games/result, /games/termination, /games/resign_disabled and /games/wall_seconds and
 * counts them. Returns 0 or -1 with *err. */
int dsr_outcomes(DatasetReader *r, DatasetOutcomes *out, XqError *err);

/* Closes the file and frees r (NULL is fine). */
void dsr_close(DatasetReader *r);

/* Frees the arrays of a record filled by dsr_read_game and zeroes their pointers and counts
 * (the record itself is the caller's). */
void game_record_free(GameRecord *g);

/* Registers the zstd filter (id 32015) with the HDF5 library in this process. Idempotent.
 * Returns 0, or -1 if HDF5 refused. dsw_open and dsr_open call it themselves. */
int xq_zstd_register(void);

#endif
