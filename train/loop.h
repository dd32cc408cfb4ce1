/* loop.h - the training loop (xqlab train): generations of self-play with the weights in force,
 * a tune of a candidate on the latest generations' data, and a gated promotion by SPRT, each step
 * an xqlab command whose outputs stay in the run folder, so a stopped or killed run continues
 * where it stopped. The run folder's settings and pinned files are set up by the caller
 * (cli/cmd_train.c); run.h describes them. */
#ifndef XQ_TRAIN_LOOP_H
#define XQ_TRAIN_LOOP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "run.h"

typedef struct TrainLoop {
    const char *dir;            /* the run folder: train.ini, variant.ini, search.ini,
                                 * gen0/weights.ini in place */
    const TrainSettings *s;     /* its settings */
    const char *exe;            /* the xqlab program the steps run */
    int threads;                /* -t of every step (0: each command's default) */
    bool quiet;                 /* no progress lines (the steps' included) */
    const atomic_bool *stop;    /* may be NULL; raised: the running step is stopped, the loop ends */
    FILE *log;                  /* progress lines (NULL: none); DIR/train.log gets them too */
} TrainLoop;

typedef enum { TRAIN_DONE, TRAIN_INTERRUPTED, TRAIN_FAILED } TrainEnd;

/* Runs generation 0's record (the strength of the starting weights, when measured) and then
 * generations 1 .. s->generations that have no record yet. Per generation G, in DIR/genG/:
 *   selfplay.h5, selfplay.json   xqlab selfplay with gen(G-1)/weights.ini, seed S + G - 1
 *   candidate.ini, .json, tune.txt  xqlab tune on the last `window` generations' selfplay.h5,
 *                                started from gen(G-1)/weights.ini
 *   gate.json                    xqlab match candidate (A) against gen(G-1)/weights.ini (B), SPRT
 *   weights.ini                  the weights in force after G: the candidate on H1, else the
 *                                previous ones
 *   strength.json                xqlab bench strength of weights.ini when they changed
 *   record.ini                   written last: the generation is done
 * and DIR/best.ini is a copy of the newest weights.ini. A step whose output is complete is not
 * run again. Returns TRAIN_DONE, TRAIN_INTERRUPTED (stop raised or a step interrupted: run again
 * to continue) or TRAIN_FAILED with *err (a step failed, or its output could not be read). */
TrainEnd train_loop_run(const TrainLoop *l, XqError *err);

/* The records of generations 0, 1, ... up to the first one missing (a run has no gaps), as a
 * malloc'd array of *n entries (free it); NULL with *err for a record that cannot be read. */
TrainRecord *train_records_load(const char *dir, int *n, XqError *err);

#endif
