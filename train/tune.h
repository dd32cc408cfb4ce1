/* tune.h - the weight tuner: game results (optionally blended with search values) fitted by
 * L2-regularised logistic regression on the evaluation's linear features, minimised with GSL's
 * BFGS; piece values in pawn units with standard errors from the inverse Hessian. */
#ifndef XQ_TUNE_H
#define XQ_TUNE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eval.h"

/* The model: Red's expected score (win 1, draw 1/2, loss 0) is sigmoid(k w.x) with x the
 * features from Red's view and k = 2 / eval_scale. Since (1 + tanh(s / c)) / 2 = sigmoid(2 s / c),
 * this is exactly the search's leaf value tanh(score / eval_scale) mapped to a score, so the
 * fitted weights are in the evaluation's own units (pawns) and plug into the search unchanged. */
typedef struct TuneOptions {
    double eval_scale;      /* pawns per unit of atanh(value) (search parameter eval_scale) */
    double l2;              /* J(w) = mean cross-entropy + l2 / 2 * |w|^2 */
    double root_blend;      /* target = (1 - b) * result + b * (root value + 1) / 2, both Red's */
    int root_horizon;       /* root value = mean of this and the next root_horizon - 1 positions'
                             * search values (1 = this position's only) */
    double validation;      /* share of games held out for validation and early stopping */
    uint64_t seed;          /* seed of the train / validation split */
    int max_iterations;     /* BFGS iterations */
    int patience;           /* stop after this many iterations without a better validation loss */
    int threads;            /* 0 = OpenMP default */
    bool all_positions;     /* false: skip positions in check and positions whose played move
                             * captures (their static features misstate the material balance) */
    int quiet_plies;        /* with !all_positions: also skip positions from which any of the
                             * next quiet_plies moves captures (1 = only the move played) */
    int min_ply;            /* skip positions before this ply of the game */
    uint64_t max_positions; /* 0 = all; else stop reading games once this many moves are read */
    FILE *log;              /* a line per iteration (NULL = silent) */
    const bool *fixed;      /* NULL, or per feature: held at its starting weight (no gradient,
                             * no penalty, standard error 0) */
    const double *l2_feature; /* NULL (l2 for every feature), or per feature its own penalty:
                             * the fine families (per-point terms, ...) need a stronger prior
                             * than the few coarse weights (tune_default_penalties) */
    bool net_inputs;        /* also keep each row's network inputs (eval/net.h) */
} TuneOptions;

#define TUNE_OPTIONS_INIT                                                                         \
    {.eval_scale = 10.0, .l2 = 1e-5, .root_blend = 0.0, .root_horizon = 1, .validation = 0.1,     \
     .seed = 1,                                                                                   \
     .max_iterations = 300, .patience = 10, .threads = 0, .all_positions = false, .quiet_plies = 1, \
     .min_ply = 0,                                                                                \
     .max_positions = 0, .log = NULL, .fixed = NULL, .l2_feature = NULL, .net_inputs = false}

/* Feature rows of the selected positions, sparse (compressed rows: the nonzero features of row
 * i are col[row_first[i] .. row_first[i + 1]), in increasing order, with their values in val).
 * Rows [0, ntrain) come from training games, [ntrain, nrows) from validation games, each in file
 * and game order. */
typedef struct TuneData {
    int nfeatures;
    uint64_t nrows, ntrain;
    uint64_t ngames, ntrain_games;
    uint64_t nfiles;
    uint64_t nnz;           /* stored values */
    uint64_t *row_first;    /* nrows + 1 offsets into col / val */
    uint16_t *col;
    float *val;
    float *y;               /* target: Red's expected score in [0, 1] */
    uint64_t *nonzero;      /* per feature: training rows where it is not 0 */
    uint64_t *game_first;   /* ngames + 1 row offsets: game j owns rows [game_first[j],
                             * game_first[j + 1]); training games first, like the rows */
    /* With TuneOptions.net_inputs (else NULL): row i's network inputs are
     * net_in[net_first[i] .. net_first[i + 1]), seen from its side to move net_side[i]. */
    uint64_t *net_first;
    uint16_t *net_in;
    uint8_t *net_side;
    /* With an evaluator that has a network (and not net_inputs), else NULL: each row's network
     * output, Red's view, in pawns; a fixed part of the row's score. */
    float *offset;
} TuneData;

/* w . x of row i plus its fixed offset (the network's output, if any): the score, Red's view,
 * in pawns. */
double tune_row_score(const TuneData *d, uint64_t row, const double *w);

/* Value of feature f in row i (0 if not stored). */
float tune_row_value(const TuneData *d, uint64_t row, int feature);

/* Reads every game of the files (all of variant `v`, with the same variant text), replays the
 * moves from each start FEN with the rules core and extracts the features of the selected
 * positions (and, when e has a network, its output as each row's fixed offset) in parallel
 * (deterministic: rows in game order whatever the thread count).
 * Returns 0 or -1 with *err naming the file (and game) and what is wrong: unreadable or
 * structurally broken files, files without games, another variant or rule text, moves that do
 * not replay. Free with tune_data_free. */
int tune_load(TuneData *d, const Evaluator *e, const Variant *v, const char *const *paths,
              int npaths, const TuneOptions *o, XqError *err);

/* Fills d from rows given directly (tests, benchmarks): x is n * nfeatures dense, y n targets;
 * the first ntrain rows train; every row is its own game. Copies what it needs. Returns 0 or -1
 * (out of memory). */
int tune_data_from_rows(TuneData *d, int nfeatures, uint64_t n, uint64_t ntrain, const float *x,
                        const float *y);
void tune_data_free(TuneData *d);

/* Objective on rows [begin, end): J(w) = mean cross-entropy + sum_f l2_f / 2 w_f^2 (the penalty
 * only if `penalised`), and its gradient into grad (may be NULL). Sums are taken over fixed chunks of
 * rows and added in chunk order, so the result is bit-identical for any thread count. */
double tune_objective(const TuneData *d, const TuneOptions *o, const double *w, uint64_t begin,
                      uint64_t end, bool penalised, double *grad);

typedef struct TuneResult {
    int nfeatures;
    double *w;              /* fitted weights (best validation loss) */
    double *cov;            /* nfeatures^2 covariance of w: inverse Hessian of the summed loss
                             * over the free features (rows and columns of fixed ones are 0) */
    double *cov_cluster;    /* the same, robust to positions of one game being correlated:
                             * sandwich cov * (sum over games of s s^T) * cov, s = a training
                             * game's summed score vector (gradient of its loss) */
    double train_loss, valid_loss;       /* mean cross-entropy (no penalty) at w */
    double start_train_loss, start_valid_loss;
    int iterations, best_iteration;
    const char *stop_reason;             /* static string */
} TuneResult;

/* Fits the weights from w0 with BFGS (gsl_multimin_fdfminimizer_vector_bfgs2, analytic
 * gradient), keeps the weights of the best validation loss (the training loss when there are no
 * validation rows) and stops after `patience` iterations without improvement, at a vanishing
 * gradient or at max_iterations. Then computes the covariance. Returns 0 or -1 with *err. */
int tune_fit(const TuneData *d, const TuneOptions *o, const double *w0, TuneResult *r,
             XqError *err);
void tune_result_free(TuneResult *r);

/* A piece value: (material.KIND [+ zone.KIND.ZONE]) / material.UNIT with its standard error by
 * the delta method. */
typedef struct PieceValue {
    char name[80];          /* "chariot", "pawn in enemy_half" */
    double value, se;       /* se from cov (positions independent) */
    double se_cluster;      /* from cov_cluster (games independent): the honest one */
} PieceValue;

/* Piece values of the fitted weights in units of kind `unit` (a material feature index):
 * every material feature, then every fitted (not held) zone feature as material plus zone.
 * Returns the count written (at most max). */
int tune_piece_values(const Evaluator *e, const TuneResult *r, int unit, PieceValue *out, int max);

/* Index of the material feature used as the unit: material.pawn if the variant has it, else
 * the material feature of the kind with the lowest variant-file value. -1 if none. */
int tune_default_unit(const Evaluator *e, const Variant *v);

#endif
