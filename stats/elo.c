/* elo.c - Elo, LOS and SPRT from pentanomial pair counts. */
#include "elo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"


double elo_to_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double elo_from_score(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

/* Mean and variance of a pair's score (points / 2: 0, 0.25, 0.5, 0.75, 1) from counts that may
 * be fractional (the SPRT's pseudo-counts). */
static void pair_moments(const double counts[5], double *n, double *mean, double *var)
{
    double total = 0, sum = 0;
    for (int i = 0; i < 5; i++) {
        total += counts[i];
        sum += counts[i] * (i / 4.0);
    }
    *n = total;
    *mean = total > 0 ? sum / total : 0.5;
    double ss = 0;
    for (int i = 0; i < 5; i++) {
        double d = i / 4.0 - *mean;
        ss += counts[i] * d * d;
    }
    *var = total > 0 ? ss / total : 0;
}

void elo_estimate(const uint64_t pentanomial[5], EloEstimate *out)
{
    memset(out, 0, sizeof *out);
    double counts[5], n, mean, var;
    for (int i = 0; i < 5; i++)
        counts[i] = (double)pentanomial[i];
    pair_moments(counts, &n, &mean, &var);
    out->pairs = (uint64_t)n;
    out->score = mean;
    out->los = 0.5;
    if (n <= 0)
        return;
    out->pair_variance = var;
    out->score_se = sqrt(var / n);
    out->elo = elo_from_score(mean);
    /* The interval of the mean pair score (interval.h), mapped to Elo. */
    ScoreInterval si;
    interval_pairs(pentanomial, STATS_Z95, &si);
    out->score_low = si.lo;
    out->score_high = si.hi;
    out->elo_low = elo_from_score(si.lo);
    out->elo_high = elo_from_score(si.hi);
    if (out->score_se > 0)
        out->los = 0.5 * erfc(-(mean - 0.5) / (out->score_se * sqrt(2.0)));
    else
        out->los = mean > 0.5 ? 1.0 : mean < 0.5 ? 0.0 : 0.5;
}

int sprt_parse(SprtSpec *s, const char *text, char *msg, size_t size)
{
    double v[4];
    const char *p = text;
    for (int i = 0; i < 4; i++) {
        char *end = NULL;
        v[i] = strtod(p, &end);
        if (end == p || !isfinite(v[i]) || (i < 3 ? *end != ',' : *end != '\0')) {
            snprintf(msg, size, "expected elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05), got '%s'", text);
            return -1;
        }
        p = end + 1;
    }
    if (!(v[0] < v[1])) {
        snprintf(msg, size, "elo0 (%g) must be below elo1 (%g)", v[0], v[1]);
        return -1;
    }
    if (!(v[2] > 0 && v[2] < 0.5 && v[3] > 0 && v[3] < 0.5)) {
        snprintf(msg, size, "alpha and beta must lie in (0, 0.5), got %g and %g", v[2], v[3]);
        return -1;
    }
    *s = (SprtSpec){v[0], v[1], v[2], v[3], SPRT_MIN_PAIRS_DEFAULT};
    return 0;
}

void sprt_bounds(const SprtSpec *s, double *lower, double *upper)
{
    *lower = log(s->beta / (1.0 - s->alpha));
    *upper = log((1.0 - s->beta) / s->alpha);
}

double sprt_llr(const SprtSpec *s, const uint64_t pentanomial[5])
{
    /* The pairs plus SPRT_PRIOR_PAIRS pseudo-pairs spread evenly over the five outcomes: the
     * variance is never 0, so pairs that are all won (or all lost, or all drawn) carry evidence. */
    double counts[5], n, mean, var;
    for (int i = 0; i < 5; i++)
        counts[i] = (double)pentanomial[i] + SPRT_PRIOR_PAIRS / 5.0;
    pair_moments(counts, &n, &mean, &var);
    double s0 = elo_to_score(s->elo0), s1 = elo_to_score(s->elo1);
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
}

SprtVerdict sprt_verdict(const SprtSpec *s, double llr, uint64_t pairs)
{
    if (pairs < (uint64_t)(s->min_pairs > 0 ? s->min_pairs : 0))
        return SPRT_CONTINUE;
    double lower, upper;
    sprt_bounds(s, &lower, &upper);
    if (llr >= upper)
        return SPRT_ACCEPT_H1;
    if (llr <= lower)
        return SPRT_ACCEPT_H0;
    return SPRT_CONTINUE;
}
