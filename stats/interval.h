/* interval.h - confidence intervals of a mean score, one method for every kind of outcome:
 * single games (trinomial: win 1, draw 1/2, loss 0), colour-swapped pairs and paired deals
 * (pentanomial: a pair's points / 2, that is 0, 1/4, 1/2, 3/4, 1) and rates (binomial: 1 or 0).
 *
 * The method is the score (Wilson) interval of a multinomial mean: the true mean m is in the
 * interval when n (mean - m)^2 <= z^2 V(m), V(m) the variance of one outcome under the
 * multinomial of largest likelihood among those with mean m (its restricted maximum-likelihood
 * estimate). For rates it is exactly Wilson's interval; with draws it is narrower than Wilson's
 * interval on the score, by the draws' smaller variance; it stays sensible at the edges (all
 * wins, all losses, all draws), where the normal (Wald) interval has width 0.
 *
 * "Resolution" is what a run can detect: the half-width of the interval of the same outcomes
 * mirrored about 1/2 (a win for every loss, the same draws), i.e. the smallest advantage over
 * 1/2 that n outcomes with this spread show at the level of z. "Games for a precision" is the
 * smallest n whose mirrored interval has at most a given half-width. */
#ifndef XQ_INTERVAL_H
#define XQ_INTERVAL_H

#include <stdint.h>

#include "stats.h"

enum { INTERVAL_MAX_VALUES = 8 };

typedef struct ScoreInterval {
    double n;            /* outcomes (games, pairs) */
    double mean;         /* mean score; 1/2 without outcomes */
    double lo, hi;       /* the interval; [0, 1] without outcomes */
    double variance;     /* sample variance of one outcome (divided by n) */
} ScoreInterval;

/* The interval of the mean of outcomes with values[0] = 0 < values[1] < ... < values[k-1] = 1,
 * counts[i] of value i (counts may be fractional, for mirrored samples), at normal quantile z. */
void interval_categorical(const double *counts, const double *values, int k, double z, ScoreInterval *out);

/* Rates: x of n (Wilson's interval). */
void interval_binomial(uint64_t x, uint64_t n, double z, ScoreInterval *out);

/* The score of single games from one side's win / draw / loss counts. */
void interval_wdl(const Wdl *w, double z, ScoreInterval *out);

/* The mean game score over pairs, from pentanomial counts: pairs scoring 0, 1/2, 1, 3/2, 2
 * points (values 0, 1/4, 1/2, 3/4, 1). */
void interval_pairs(const uint64_t pentanomial[5], double z, ScoreInterval *out);

/* Resolution: the half-width of the interval of the mirrored outcomes (counts[i] and
 * counts[k-1-i] both replaced by their mean). 1/2 without outcomes. */
double interval_resolution(const double *counts, const double *values, int k, double z);
double interval_wdl_resolution(const Wdl *w, double z);
double interval_pairs_resolution(const uint64_t pentanomial[5], double z);

/* The smallest number of outcomes, in the proportions of counts and mirrored, whose interval has
 * a half-width of at most `half_width` (0 < half_width < 1/2). 0 without outcomes. */
double interval_outcomes_for(const double *counts, const double *values, int k, double z, double half_width);
double interval_wdl_games_for(const Wdl *w, double z, double half_width);
double interval_pairs_for(const uint64_t pentanomial[5], double z, double half_width);

#endif
