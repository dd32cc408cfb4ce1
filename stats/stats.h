/* stats.h - the statistics behind the analysis commands: win / draw / loss counts, two-sample
 * tests, entropy, histograms and games-needed estimates (intervals: interval.h). Pure functions
 * of counts; no I/O. */
#ifndef XQ_STATS_H
#define XQ_STATS_H

#include <stddef.h>
#include <stdint.h>

/* z of a two-sided 95% interval. */
#define STATS_Z95 1.959963984540054

/* Win / draw / loss counts seen from one side (for xqlab: Red, the first mover). */
typedef struct Wdl {
    uint64_t wins, draws, losses;
} Wdl;

uint64_t wdl_games(const Wdl *w);
/* Score (wins + draws / 2) / games; 0 for no games. */
double wdl_score(const Wdl *w);
/* Per-game variance of the score (a game scores 1, 1/2 or 0): (wins + draws / 4) / n - score^2. */
double wdl_score_variance(const Wdl *w);

/* Standard normal distribution function and the two-sided p-value of a z statistic. */
double stats_normal_cdf(double x);
double stats_two_sided_p(double z);

/* Difference of the scores of two samples, b - a. */
typedef struct ScoreDiff {
    double a, b;         /* the two scores */
    double diff;         /* b - a */
    double se;           /* unpooled standard error of diff (for the interval) */
    double lo, hi;       /* 95% interval of diff: diff -/+ 1.96 se */
    double z, p;         /* test of "no difference" with the pooled variance; p two-sided */
} ScoreDiff;

/* Compares the scores of two samples. With no draws this is the textbook two-proportion z test
 * (pooled proportion under the null, Wald interval for the difference); with draws the per-game
 * score variance replaces p(1 - p). Either sample empty: diff 0, p 1, interval [-1, 1]. */
ScoreDiff stats_score_diff(const Wdl *a, const Wdl *b);

/* Two-proportion test for x1 / n1 against x2 / n2 (draw rates, decisive rates...): the same as
 * stats_score_diff with counts (x, 0, n - x). */
ScoreDiff stats_proportion_diff(uint64_t x1, uint64_t n1, uint64_t x2, uint64_t n2);

/* Difference of the mean game scores of two sets of pairs (pentanomial counts: pairs scoring 0,
 * 1/2, 1, 3/2, 2 points, values 0, 1/4, ..., 1), b - a: the same test with the variance of a
 * pair's mean score. */
ScoreDiff stats_pairs_diff(const uint64_t a[5], const uint64_t b[5]);

/* Games per sample needed to find a difference `delta` between two samples whose per-game
 * variances are va and vb, with a two-sided 5% test and 80% power:
 * n = (1.96 + 0.8416)^2 (va + vb) / delta^2. Returns 0 if delta is 0 (nothing to detect). */
double stats_games_needed(double delta, double va, double vb);

/* Shannon entropy in bits of a distribution given by counts (zeros ignored); 0 if all zero. */
double stats_entropy_bits(const uint64_t *counts, size_t n);

/* Mean and median of n values (median of an even count: mean of the middle two). The median
 * sorts a copy; returns -1 on out of memory. n = 0 gives 0 for both. */
int stats_mean_median_u32(const uint32_t *values, size_t n, double *mean, double *median);

/* A histogram of n values with equal bins [lo + k * width, lo + (k + 1) * width). */
typedef struct Histogram {
    double lo, width;
    int nbins;
    uint64_t *counts;     /* nbins counts, owned (histogram_free) */
} Histogram;

/* Bins the values with a "nice" width (1, 2, 5 x 10^k) that gives at most max_bins bins over
 * [min, max] of the data, lo a multiple of the width. Returns 0 or -1 on out of memory. */
int histogram_build_u32(Histogram *h, const uint32_t *values, size_t n, int max_bins);
void histogram_free(Histogram *h);

#endif
