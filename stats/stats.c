/* stats.c - score intervals, two-sample tests, entropy, histograms, games-needed estimates. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t wdl_games(const Wdl *w)
{
    return w->wins + w->draws + w->losses;
}

double wdl_score(const Wdl *w)
{
    uint64_t n = wdl_games(w);
    return n ? ((double)w->wins + 0.5 * (double)w->draws) / (double)n : 0.0;
}

double wdl_score_variance(const Wdl *w)
{
    uint64_t n = wdl_games(w);
    if (!n)
        return 0.0;
    double s = wdl_score(w);
    double v = ((double)w->wins + 0.25 * (double)w->draws) / (double)n - s * s;
    return v > 0 ? v : 0.0;
}

double stats_normal_cdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

double stats_two_sided_p(double z)
{
    double p = erfc(fabs(z) / sqrt(2.0));
    return p > 1 ? 1 : p;
}

/* Mean and variance of outcomes valued x[i], counts c[i]. */
static void moments(const double *c, const double *x, int k, double *n, double *mean, double *var)
{
    double total = 0, sum = 0;
    for (int i = 0; i < k; i++) {
        total += c[i];
        sum += c[i] * x[i];
    }
    *n = total;
    *mean = total > 0 ? sum / total : 0;
    double ss = 0;
    for (int i = 0; i < k; i++)
        ss += c[i] * (x[i] - *mean) * (x[i] - *mean);
    *var = total > 0 ? ss / total : 0;
}

/* b - a for two samples of outcomes valued x: unpooled standard error for the interval, pooled
 * variance for the test. */
static ScoreDiff mean_diff(const double *ca, const double *cb, const double *x, int k)
{
    ScoreDiff d = {0};
    double na, nb, va, vb;
    moments(ca, x, k, &na, &d.a, &va);
    moments(cb, x, k, &nb, &d.b, &vb);
    d.p = 1;
    d.lo = -1;
    d.hi = 1;
    if (na <= 0 || nb <= 0)
        return d;
    d.diff = d.b - d.a;
    d.se = sqrt(va / na + vb / nb);
    d.lo = d.diff - STATS_Z95 * d.se;
    d.hi = d.diff + STATS_Z95 * d.se;
    double pooled[8], n0, m0, v0;
    for (int i = 0; i < k; i++)
        pooled[i] = ca[i] + cb[i];
    moments(pooled, x, k, &n0, &m0, &v0);
    double se0 = sqrt(v0 * (1.0 / na + 1.0 / nb));
    if (se0 > 0) {
        d.z = d.diff / se0;
        d.p = stats_two_sided_p(d.z);
    }
    return d;
}

ScoreDiff stats_score_diff(const Wdl *a, const Wdl *b)
{
    static const double X[3] = {0, 0.5, 1};
    double ca[3] = {(double)a->losses, (double)a->draws, (double)a->wins};
    double cb[3] = {(double)b->losses, (double)b->draws, (double)b->wins};
    return mean_diff(ca, cb, X, 3);
}

ScoreDiff stats_pairs_diff(const uint64_t a[5], const uint64_t b[5])
{
    static const double X[5] = {0, 0.25, 0.5, 0.75, 1};
    double ca[5], cb[5];
    for (int i = 0; i < 5; i++) {
        ca[i] = (double)a[i];
        cb[i] = (double)b[i];
    }
    return mean_diff(ca, cb, X, 5);
}

ScoreDiff stats_proportion_diff(uint64_t x1, uint64_t n1, uint64_t x2, uint64_t n2)
{
    Wdl a = {x1, 0, n1 - x1}, b = {x2, 0, n2 - x2};
    return stats_score_diff(&a, &b);
}

double stats_games_needed(double delta, double va, double vb)
{
    if (delta == 0)
        return 0;
    double z = STATS_Z95 + 0.8416212335729143; /* 97.5% and 80% quantiles of N(0, 1) */
    return z * z * (va + vb) / (delta * delta);
}

double stats_entropy_bits(const uint64_t *counts, size_t n)
{
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += (double)counts[i];
    if (total <= 0)
        return 0;
    double h = 0;
    for (size_t i = 0; i < n; i++)
        if (counts[i]) {
            double p = (double)counts[i] / total;
            h -= p * log2(p);
        }
    return h;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int stats_mean_median_u32(const uint32_t *values, size_t n, double *mean, double *median)
{
    *mean = *median = 0;
    if (!n)
        return 0;
    uint32_t *copy = malloc(n * sizeof *copy);
    if (!copy)
        return -1;
    memcpy(copy, values, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, compare_u32);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += copy[i];
    *mean = sum / (double)n;
    *median = n % 2 ? copy[n / 2] : 0.5 * ((double)copy[n / 2 - 1] + (double)copy[n / 2]);
    free(copy);
    return 0;
}

int histogram_build_u32(Histogram *h, const uint32_t *values, size_t n, int max_bins)
{
    memset(h, 0, sizeof *h);
    if (max_bins < 1)
        max_bins = 1;
    uint32_t lo = 0, hi = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || values[i] < lo)
            lo = values[i];
        if (i == 0 || values[i] > hi)
            hi = values[i];
    }
    /* Smallest width of the 1-2-5 series whose bins over [floor(lo / w) w, hi] number at most
     * max_bins. */
    double width = 1;
    for (double decade = 1;; decade *= 10) {
        static const double STEPS[3] = {1, 2, 5};
        int k;
        for (k = 0; k < 3; k++) {
            width = STEPS[k] * decade;
            double start = floor(lo / width) * width;
            if ((int)floor((hi - start) / width) + 1 <= max_bins)
                break;
        }
        if (k < 3)
            break;
    }
    h->width = width;
    h->lo = floor(lo / width) * width;
    h->nbins = n ? (int)floor((hi - h->lo) / width) + 1 : 0;
    h->counts = calloc(h->nbins ? (size_t)h->nbins : 1, sizeof *h->counts);
    if (!h->counts)
        return -1;
    for (size_t i = 0; i < n; i++)
        h->counts[(int)floor((values[i] - h->lo) / width)]++;
    return 0;
}

void histogram_free(Histogram *h)
{
    free(h->counts);
    memset(h, 0, sizeof *h);
}
