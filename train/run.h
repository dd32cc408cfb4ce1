/* run.h - the folder of a training run (xqlab train, docs/training.md): its settings
 * (DIR/train.ini), the files the run pins (DIR/variant.ini, DIR/search.ini, DIR/gen0/weights.ini)
 * and one record per generation (DIR/genG/record.ini), all as INI text. */
#ifndef XQ_TRAIN_RUN_H
#define XQ_TRAIN_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "variant.h"

enum { TRAIN_ARGS_MAX = 1024, TRAIN_SHA_LEN = 17, TRAIN_MAX_GENERATIONS = 100000 };

/* What a run is: two starts of `xqlab train` on one folder must agree on every field marked as
 * a setting in run.c's table, or the second is refused (docs/training.md, "Resume"). */
typedef struct TrainSettings {
    char variant[64];                 /* rule set name */
    char variant_sha[TRAIN_SHA_LEN];  /* of its text, pinned in DIR/variant.ini */
    char start[PATH_MAX];             /* starting weights as asked: a file, "none" or "nearest" */
    char start_sha[TRAIN_SHA_LEN];    /* of DIR/gen0/weights.ini */
    char search_sha[TRAIN_SHA_LEN];   /* of DIR/search.ini (every search parameter) */
    uint64_t games;                   /* self-play games per generation */
    long window;                      /* generations of data each tune reads */
    uint64_t seed;                    /* generation G: self-play and gate seed S + G - 1 */
    char tune[TRAIN_ARGS_MAX];        /* extra xqlab tune arguments (shell-like words) */
    char gate_set[TRAIN_ARGS_MAX];    /* KEY=VALUE,... for both gate players ("" = the run's search) */
    uint64_t gate_games;              /* at most this many gate games */
    char sprt[96];                    /* E0,E1,ALPHA,BETA */
    long sprt_min_pairs;
    char gate_openings[PATH_MAX];     /* book of the gate, "" = random openings */
    char gate_openings_sha[TRAIN_SHA_LEN];
    uint64_t strength_games;          /* 0 = no strength measurement */
    long strength_movetime;           /* ms per move of bench strength */
    char strength[TRAIN_ARGS_MAX];    /* extra xqlab bench strength arguments */
    /* Not settings: */
    long generations;                 /* target; a later start may change it */
    char command[2048];               /* the command that created the run */
    char created[32];                 /* UTC time of creation */
    char version[32];                 /* xqlab version that created it */
} TrainSettings;

/* The defaults of a new run (docs/training.md). */
void train_settings_default(TrainSettings *s);

/* Number of fields and their names (train.ini keys, in file order). */
int train_settings_count(void);
const char *train_settings_key(int i);
/* True if field i must agree between starts (false: generations and the informative fields). */
bool train_settings_is_setting(int i);
/* Index of the field with this key, or -1. */
int train_settings_find(const char *key);
/* Field i of s as text (numbers canonical), into buf. */
void train_settings_format(const TrainSettings *s, int i, char *buf, size_t size);

/* Writes train.ini text. Returns 0 or -1 (write error, errno set). */
int train_settings_write(const TrainSettings *s, FILE *f);

/* Reads train.ini at path. Every setting must be present (a missing or unknown key is an error
 * with file:line). Returns 0, or -1 with *err. */
int train_settings_read(TrainSettings *s, const char *path, XqError *err);

/* Compares the fields marked in `given` (indexed like the table) of `want` against `have` (the
 * run's). Writes one line per differing field ("  games: 2000 in the run, 500 given") into msg.
 * Returns the number of differences. */
int train_settings_diff(const TrainSettings *have, const TrainSettings *want, const bool *given, char *msg,
                        size_t size);

/* Differences between two [search] texts (params_write lines) as lines "  KEY: A in the run, B
 * given" into msg; keys on one side only are listed too. Returns their number. */
int train_search_diff(const char *have, const char *want, char *msg, size_t size);

/* FNV-1a 64 of text, as 16 hexadecimal digits. */
void train_sha(const char *text, char out[TRAIN_SHA_LEN]);

/* Splits `text` into words the way a POSIX shell splits an unquoted command line without
 * expansions: blanks separate, '...' keeps everything, "..." keeps everything but \" and \\,
 * a backslash outside quotes keeps the next character. Writes at most max pointers into words,
 * pointing into `storage` (size >= strlen(text) + 1). Returns the count, or -1 with *why for an
 * unclosed quote or more than max words. */
int train_split_words(const char *text, char *storage, char **words, int max, const char **why);

/* What a generation did (DIR/genG/record.ini); generation 0 records only the strength of the
 * starting weights. Elo values may be infinite (a 0% or 100% score). */
typedef struct TrainRecord {
    long generation;
    /* self-play with the weights in force before the generation */
    uint64_t selfplay_games;
    double selfplay_seconds, first_mover_score, draw_rate, mean_plies;
    /* tune of the candidate on the last `window` generations' data */
    long tune_files;
    uint64_t tune_games, tune_positions, tune_train_positions;
    double loss_train_start, loss_train, loss_validation_start, loss_validation;
    long tune_iterations;
    double tune_seconds;
    /* gate: candidate (A) against the weights in force (B) */
    uint64_t gate_games;
    uint64_t gate_pentanomial[5];
    double gate_score, gate_elo, gate_elo_low, gate_elo_high, gate_los, gate_llr;
    char gate_verdict[8];             /* H1, H0 or none */
    double gate_seconds;
    bool promoted;
    long in_force;                    /* generation whose candidate is in force after this one
                                       * (0 = the starting weights) */
    /* strength of the weights in force after the generation (bench strength) */
    bool strength;                    /* measured or carried */
    long strength_of;                 /* generation whose run measured these weights */
    uint64_t strength_games;
    double strength_score, strength_elo, strength_elo_low, strength_elo_high, strength_seconds;
    double load;                      /* 1-minute load average when the record was written */
    char finished[32];
} TrainRecord;

void train_record_init(TrainRecord *r, long generation);
int train_record_write(const TrainRecord *r, FILE *f);
int train_record_read(TrainRecord *r, const char *path, XqError *err);

#endif
