/* label.h - a teacher's values for a dataset: every position of a self-play dataset searched by an
 * outside UCI engine (or `xqlab engine` at a deeper setting), its score written as the position's
 * root value in a copy of the dataset, so that `xqlab tune` fits the evaluation to the teacher
 * instead of to the player that made the games. docs/training.md, "A teacher's values". */
#ifndef XQ_LABEL_H
#define XQ_LABEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "dataset.h"
#include "uci_engine.h"

typedef struct LabelOptions {
    const char *input;              /* the dataset to label */
    const char *output;             /* the labelled copy (written as OUTPUT.tmp, then renamed) */
    bool resume;                    /* continue OUTPUT.tmp of an interrupted run */
    const UciEngineSpec *teacher;   /* the engine (its variant is set by the caller) */
    const char *limit;              /* of "go": "nodes 5000", "depth 8", "movetime 20" */
    double eval_scale;              /* value = tanh(cp / 100 / eval_scale) */
    bool all_positions;             /* also positions in check and before captures */
    int threads;                    /* teacher processes */
    double timeout;                 /* seconds one position may take */
    const char *command_line;       /* recorded in the output */
    bool progress;                  /* a line on stderr every few seconds */
    const atomic_bool *stop;        /* raised: stop after the games in flight (resumable) */
} LabelOptions;

typedef struct LabelStats {
    uint64_t games, positions;      /* in the output */
    uint64_t labelled;              /* positions given the teacher's value */
    uint64_t mates;                 /* of those, scored as a forced mate */
    uint64_t resumed_games;         /* found complete in OUTPUT.tmp */
    uint64_t restarts;              /* teacher processes started again after a failure */
    double seconds;
    char teacher_name[128];
    bool stopped;                   /* the stop flag ended the run (OUTPUT.tmp kept) */
} LabelStats;

/* The value a teacher's score gives a position (side to move, [-1, 1]): tanh(cp / 100 / scale),
 * a mate +1 or -1 (mate 0: the side to move is mated). */
float label_value(const UciScore *sc, double eval_scale);

/* Labels opt->input into opt->output (the caller holds the output's claim, cli/output.h).
 * Positions left out (in check, or the move played captures, unless all_positions) get no value
 * (NaN: the tuner uses the game's result there). Refused with *err: a dataset with face-down
 * pieces (UCI cannot tell an engine what it may see), a game the rules do not replay, a teacher
 * that fails to start, dies twice on one position or gives no score. Returns 0, 1 if the stop
 * flag ended it (OUTPUT.tmp holds the finished games for resume), -1 with *err. */
int label_dataset(const LabelOptions *opt, LabelStats *stats, XqError *err);

#endif
