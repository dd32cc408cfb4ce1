/* interval.c - the score interval of a multinomial mean (trinomial games, pentanomial pairs,
 * binomial rates), resolutions and games needed for a precision. */
#include "interval.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static const double WDL_VALUES[3] = {0.0, 0.5, 1.0};
static const double PAIR_VALUES[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
static const double RATE_VALUES[2] = {0.0, 1.0};

/* g(lambda) = sum over observed values of q_i (x_i - mu) / (1 + lambda (x_i - mu)), q_i = c_i / n:
 * zero at the Lagrange multiplier of the restricted maximum-likelihood estimate (decreasing in
 * lambda); *slope receives g'(lambda). */
static double multiplier_equation(const double *q, const double *x, int k, double mu, double lambda, double *slope)
{
    double g = 0, dg = 0;
    for (int i = 0; i < k; i++) {
        if (q[i] <= 0)
            continue;
        double d = x[i] - mu, den = 1 + lambda * d;
        g += q[i] * d / den;
        dg -= q[i] * d * d / (den * den);
    }
    *slope = dg;
    return g;
}

/* Variance of one outcome under the restricted maximum-likelihood multinomial with mean mu
 * (0 < mu < 1). Its probabilities are p_i = q_i / (1 + lambda (x_i - mu)) on the observed values;
 * when the multiplier would reach the end of its range (lambda = 1/mu: all observed values lie
 * high for mean mu, or -1/(1 - mu)), the rest of the mass goes to the unobserved value 0 (or 1),
 * the only other place the Karush-Kuhn-Tucker conditions allow. */
static double restricted_variance(const double *q, const double *x, int k, double mu, double *guess)
{
    double lambda_lo = -1 / (1 - mu), lambda_hi = 1 / mu, slope;
    double lambda;
    bool has0 = q[0] > 0, has1 = q[k - 1] > 0;
    if (!has0 && multiplier_equation(q, x, k, mu, lambda_hi, &slope) >= 0) {
        lambda = lambda_hi;
    } else if (!has1 && multiplier_equation(q, x, k, mu, lambda_lo, &slope) <= 0) {
        lambda = lambda_lo;
    } else {
        /* Newton's method inside the bracket [lo, hi] where g changes sign, bisecting when a step
         * leaves it. */
        double lo = lambda_lo, hi = lambda_hi;
        /* The previous mean's multiplier is a close start (the ends are found by bisection). */
        lambda = *guess > lo && *guess < hi ? *guess : 0;
        for (int it = 0; it < 200; it++) {
            double g = multiplier_equation(q, x, k, mu, lambda, &slope);
            if (g == 0)
                break;
            if (g > 0)
                lo = lambda;
            else
                hi = lambda;
            double next = slope < 0 ? lambda - g / slope : 0.5 * (lo + hi);
            if (!(next > lo && next < hi))
                next = 0.5 * (lo + hi);
            bool done = fabs(next - lambda) <= 1e-13 * (1 + fabs(lambda));
            lambda = next;
            if (done)
                break;
        }
        *guess = lambda;
    }
    double var = 0, mass = 0;
    for (int i = 0; i < k; i++) {
        if (q[i] <= 0)
            continue;
        double d = x[i] - mu, p = q[i] / (1 + lambda * d);
        mass += p;
        var += p * d * d;
    }
    /* The mass left over sits on the unobserved end the multiplier reached (none inside). */
    if (mass < 1) {
        double d = lambda == lambda_hi ? -mu : lambda == lambda_lo ? 1 - mu : 0;
        var += (1 - mass) * d * d;
    }
    return var;
}

void interval_categorical(const double *counts, const double *values, int k, double z, ScoreInterval *out)
{
    memset(out, 0, sizeof *out);
    double n = 0, sum = 0;
    for (int i = 0; i < k; i++) {
        n += counts[i];
        sum += counts[i] * values[i];
    }
    out->n = n;
    out->mean = 0.5;
    out->lo = 0;
    out->hi = 1;
    if (n <= 0 || k < 2 || k > INTERVAL_MAX_VALUES)
        return;
    double q[INTERVAL_MAX_VALUES];
    for (int i = 0; i < k; i++)
        q[i] = counts[i] / n;
    double mean = sum / n, var = 0;
    if (mean < 0)
        mean = 0;
    if (mean > 1)
        mean = 1;
    for (int i = 0; i < k; i++)
        var += q[i] * (values[i] - mean) * (values[i] - mean);
    out->mean = mean;
    out->variance = var;
    double z2 = z * z;
    /* The interval's ends: where n (mean - mu)^2 = z^2 V(mu), found by bisection between the mean
     * (inside) and 0 or 1 (outside unless the mean is there: the only distribution with mean 0 is
     * all zeros, V = 0). */
    for (int side = 0; side < 2; side++) {
        double inside = mean, outside = side == 0 ? 0 : 1;
        if (inside == outside) {
            if (side == 0)
                out->lo = mean;
            else
                out->hi = mean;
            continue;
        }
        double guess = 0;
        /* 1e-10 is far below the 0.1-point precision anything prints. */
        for (int it = 0; it < 60 && fabs(outside - inside) > 1e-10; it++) {
            double mu = 0.5 * (inside + outside);
            if (mu <= 0 || mu >= 1 || mu == inside || mu == outside)
                break;
            double d = mean - mu;
            if (n * d * d <= z2 * restricted_variance(q, values, k, mu, &guess))
                inside = mu;
            else
                outside = mu;
        }
        double end = 0.5 * (inside + outside);
        if (side == 0)
            out->lo = end;
        else
            out->hi = end;
    }
}

void interval_binomial(uint64_t x, uint64_t n, double z, ScoreInterval *out)
{
    double c[2] = {(double)(n - (x < n ? x : n)), (double)(x < n ? x : n)};
    interval_categorical(c, RATE_VALUES, 2, z, out);
}

void interval_wdl(const Wdl *w, double z, ScoreInterval *out)
{
    double c[3] = {(double)w->losses, (double)w->draws, (double)w->wins};
    interval_categorical(c, WDL_VALUES, 3, z, out);
}

void interval_pairs(const uint64_t pentanomial[5], double z, ScoreInterval *out)
{
    double c[5];
    for (int i = 0; i < 5; i++)
        c[i] = (double)pentanomial[i];
    interval_categorical(c, PAIR_VALUES, 5, z, out);
}

static void mirrored(const double *counts, int k, double *m)
{
    for (int i = 0; i < k; i++)
        m[i] = 0.5 * (counts[i] + counts[k - 1 - i]);
}

double interval_resolution(const double *counts, const double *values, int k, double z)
{
    double m[INTERVAL_MAX_VALUES];
    if (k < 2 || k > INTERVAL_MAX_VALUES)
        return 0.5;
    mirrored(counts, k, m);
    ScoreInterval s;
    interval_categorical(m, values, k, z, &s);
    return 0.5 * (s.hi - s.lo);
}

double interval_wdl_resolution(const Wdl *w, double z)
{
    double c[3] = {(double)w->losses, (double)w->draws, (double)w->wins};
    return interval_resolution(c, WDL_VALUES, 3, z);
}

double interval_pairs_resolution(const uint64_t pentanomial[5], double z)
{
    double c[5];
    for (int i = 0; i < 5; i++)
        c[i] = (double)pentanomial[i];
    return interval_resolution(c, PAIR_VALUES, 5, z);
}

/* Half-width of the interval of N outcomes in proportions q. */
static double half_width_at(const double *q, const double *values, int k, double z, double N)
{
    double scaled[INTERVAL_MAX_VALUES];
    for (int i = 0; i < k; i++)
        scaled[i] = q[i] * N;
    ScoreInterval s;
    interval_categorical(scaled, values, k, z, &s);
    return 0.5 * (s.hi - s.lo);
}

double interval_outcomes_for(const double *counts, const double *values, int k, double z, double half_width)
{
    double n = 0, q[INTERVAL_MAX_VALUES];
    if (k < 2 || k > INTERVAL_MAX_VALUES || !(half_width > 0))
        return 0;
    for (int i = 0; i < k; i++)
        n += counts[i];
    if (n <= 0)
        return 0;
    mirrored(counts, k, q);
    for (int i = 0; i < k; i++)
        q[i] /= n;
    /* The half-width falls as N grows: double N until it is small enough, then bisect on whole
     * numbers with half_width_at(lo) > half_width >= half_width_at(hi). */
    if (half_width_at(q, values, k, z, 1) <= half_width)
        return 1;
    double lo = 1, hi = 2;
    while (half_width_at(q, values, k, z, hi) > half_width) {
        lo = hi;
        hi *= 2;
        if (hi > 1e15)
            return INFINITY;
    }
    while (hi - lo > 1) {
        double mid = floor(0.5 * (lo + hi));
        if (half_width_at(q, values, k, z, mid) > half_width)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

double interval_wdl_games_for(const Wdl *w, double z, double half_width)
{
    double c[3] = {(double)w->losses, (double)w->draws, (double)w->wins};
    return interval_outcomes_for(c, WDL_VALUES, 3, z, half_width);
}

double interval_pairs_for(const uint64_t pentanomial[5], double z, double half_width)
{
    double c[5];
    for (int i = 0; i < 5; i++)
        c[i] = (double)pentanomial[i];
    return interval_outcomes_for(c, PAIR_VALUES, 5, z, half_width);
}
