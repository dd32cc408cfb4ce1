/* net_fit.h - fits the evaluation's network (eval/net.h) on top of fixed linear weights: the
 * same model and targets as the linear tuner (Red's expected score = sigmoid(2 s / eval_scale)),
 * with s the linear score plus the network's output, minimised by Adam on mini-batches. */
#ifndef XQ_NET_FIT_H
#define XQ_NET_FIT_H

#include <stdint.h>
#include <stdio.h>

#include "net.h"
#include "tune.h"

typedef struct NetFitOptions {
    double eval_scale;   /* pawns per unit of atanh(value), as TuneOptions.eval_scale */
    int epochs;          /* passes over the training rows, at most */
    int patience;        /* stop after this many epochs without a better validation loss */
    int batch;           /* rows per step */
    double rate;         /* Adam's step size at the first epoch */
    double decay;        /* the step size is multiplied by this after each epoch */
    double l2;           /* weight decay of the input and output weights */
    uint64_t seed;       /* initial weights and the order of the rows */
    FILE *log;           /* a line per epoch (NULL = silent) */
} NetFitOptions;

enum { NET_FIT_OPTIONS_DEFAULT_EPOCHS = 40 };
#define NET_FIT_OPTIONS_DEFAULT_RATE 1e-3
#define NET_FIT_OPTIONS_INIT                                                                      \
    {.eval_scale = 10.0, .epochs = NET_FIT_OPTIONS_DEFAULT_EPOCHS, .patience = 4, .batch = 256,     \
     .rate = NET_FIT_OPTIONS_DEFAULT_RATE, .decay = 0.9, .l2 = 1e-6, .seed = 1, .log = NULL}

typedef struct NetFitResult {
    double start_train_loss, start_valid_loss; /* the linear weights alone (mean cross-entropy) */
    double train_loss, valid_loss;             /* at the kept network */
    int epochs, best_epoch;                    /* epochs run; the kept one (0: none improved) */
    const char *stop_reason;                   /* static string */
} NetFitResult;

/* Fits n (its shape set by net_create, its weights overwritten) to the rows of d, which must
 * have been loaded with TuneOptions.net_inputs, holding the linear weights w (d->nfeatures).
 * Keeps the network of the best validation loss (the training loss without validation rows).
 * Deterministic for a seed. Returns 0, or -1 with *err. */
int net_fit(const TuneData *d, const double *w, Net *n, const NetFitOptions *o, NetFitResult *r,
            XqError *err);

#endif
