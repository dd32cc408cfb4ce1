/* driver.h - runs a batch of self-play games on OpenMP threads and streams them, in game order,
 * to one writer thread that owns the dataset file. */
#ifndef XQ_DRIVER_H
#define XQ_DRIVER_H

#include <stdatomic.h>

#include "game.h"
#include "summary.h"

/* Running counts of a run, updated by the writer thread after each game it has written, for a
 * progress display kept elsewhere (the MPI mode's rank 0 sums them over ranks). */
typedef struct SelfplayLive {
    _Atomic uint64_t games;          /* complete games in the file (resumed ones included) */
    _Atomic uint64_t red_wins, draws, black_wins;   /* games written by this run */
    atomic_bool finished;            /* selfplay_run has returned */
} SelfplayLive;

typedef enum { PROGRESS_QUIET, PROGRESS_AUTO, PROGRESS_LIVE, PROGRESS_LOG } ProgressMode;

typedef struct SelfplayOptions {
    const Variant *variant;
    const char *start_fen;      /* NULL: the variant's start position */
    const Evaluator *eval;
    const SearchParams *params;
    uint64_t seed;              /* base seed: game i is seeded from (seed, i) */
    uint64_t first_game;        /* index of the first game of this run or shard */
    uint64_t games;             /* games to play (total for this file) */
    int shard_index, shard_count;
    int threads;                /* 0 = OpenMP default */
    const char *out_path;       /* NULL: no dataset */
    bool resume;                /* continue OUT.tmp */
    const char *weights_text;
    const char *command_line;
    ProgressMode progress;
    double log_interval;        /* seconds between progress lines in batch logs */
    int flush_games;            /* flush the file at least every this many games */
    const atomic_bool *stop;    /* set by a signal handler: start no new game (may be NULL) */
    SelfplayLive *live;         /* running counts for another thread (may be NULL) */
    bool paired_deals;          /* hidden pieces: games 2k, 2k+1 share a deal, seats swapped */
    const Book *book;           /* NULL, or games 2k and 2k+1 start from opening k mod count */
    uint64_t run_games;         /* -n of the whole run, all shards (0: games) */
} SelfplayOptions;

#define SELFPLAY_OPTIONS_INIT                                                                    \
    {NULL, NULL, NULL, NULL, 1, 0, 0, 0, 1, 0, NULL, false, "", "", PROGRESS_AUTO, 30.0, 64, NULL, NULL, false, NULL, 0}

typedef struct SelfplayReport {
    uint64_t resumed_games;     /* complete games found in OUT.tmp on --resume */
    uint64_t played;            /* games played by this run */
    bool interrupted;           /* stopped by *stop before all games were played */
    double wall_seconds;
    double write_seconds;       /* time the writer spent in dataset calls */
    uint64_t playouts;          /* new playouts summed over all searches of this run */
    uint64_t searches;          /* searches of this run (a timed run's playouts per move are
                                 * playouts / searches) */
    uint64_t truncated_searches; /* searches that filled the arena (arena_nodes) and stopped early */
} SelfplayReport;

/* Plays the games [first_game + resumed, first_game + games), adding each to *totals (in game
 * order) and to the dataset. On an interrupt the finished games are written and the file is
 * left as OUT.tmp for --resume; otherwise it is renamed to OUT. Returns 0 (also when
 * interrupted: see report->interrupted) or -1 with *err. */
int selfplay_run(const SelfplayOptions *o, RunTotals *totals, SelfplayReport *report, XqError *err);

/* The dataset metadata of the run *o describes (what dsw_open writes and --resume compares):
 * params_text and start_text are filled into the caller's buffers (SELFPLAY_PARAMS_MAX and
 * SELFPLAY_START_MAX bytes), which must outlive *m. start_text is "startpos", "fen FEN" or
 * "openings N lines, hash H" (H: FNV-1a of the openings' base positions and moves), followed by
 * ", paired deals" under --paired-deals. */
enum { SELFPLAY_PARAMS_MAX = 4096, SELFPLAY_START_MAX = 320 };
void selfplay_meta(const SelfplayOptions *o, DatasetMeta *m, char *params_text, char *start_text);

#endif
