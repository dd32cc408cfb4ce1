/* elo.h - match statistics from colour-swapped game pairs: Elo difference with a confidence
 * interval, likelihood of superiority and the sequential probability ratio test, all from the
 * pentanomial counts (pairs scoring 0, 0.5, 1, 1.5, 2 points). */
#ifndef XQ_ELO_H
#define XQ_ELO_H

#include <stddef.h>
#include <stdint.h>

/* Logistic Elo <-> expected score: score = 1 / (1 + 10^(-elo/400)). elo_from_score returns
 * -INFINITY / +INFINITY at scores 0 / 1. */
double elo_to_score(double elo);
double elo_from_score(double score);

typedef struct EloEstimate {
    uint64_t pairs;
    double score;            /* mean points per game, [0, 1] */
    double pair_variance;    /* variance of a pair's mean score (points / 2), per pair */
    double score_se;         /* standard error of `score` (sqrt(pair_variance / pairs)) */
    double score_low, score_high;   /* 95% interval of `score` (pentanomial, interval.h) */
    double elo, elo_low, elo_high;  /* estimate and the interval in Elo (may be infinite) */
    double los;              /* likelihood of superiority: P(true score > 0.5), normal approx. */
} EloEstimate;

/* Estimate from pentanomial counts. The pair (not the game) is the independent unit, so the
 * variance accounts for the correlation of the two games of a pair; the interval is the score
 * interval of interval.h, finite at the ends (all pairs won: a lower bound, no upper). With no pairs every field
 * is 0 except score = 0.5, los = 0.5. */
void elo_estimate(const uint64_t pentanomial[5], EloEstimate *out);

/* SPRT of H0: elo = elo0 against H1: elo = elo1 (logistic Elo), error rates alpha / beta.
 * No verdict before min_pairs pairs: the normal approximation estimates the pair variance from
 * the data, and from a few dozen mostly drawn pairs that estimate is too small and the LLR
 * overshoots (seen here: H0 at -24 Elo after 37 pairs for weights that 4000-game matches put
 * level with the ones they were tested against). */
typedef struct SprtSpec {
    double elo0, elo1, alpha, beta;
    int min_pairs;
} SprtSpec;

enum { SPRT_MIN_PAIRS_DEFAULT = 200 };

typedef enum { SPRT_CONTINUE = 0, SPRT_ACCEPT_H1 = 1, SPRT_ACCEPT_H0 = -1 } SprtVerdict;

/* Parses "elo0,elo1,alpha,beta" (elo0 < elo1, 0 < alpha, beta < 0.5); min_pairs is set to
 * SPRT_MIN_PAIRS_DEFAULT. Returns 0 or -1 with a one-line reason in msg. */
int sprt_parse(SprtSpec *s, const char *text, char *msg, size_t size);

/* Stopping bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). */
void sprt_bounds(const SprtSpec *s, double *lower, double *upper);

/* Log-likelihood ratio of the pentanomial counts, with the normal (GSPRT) approximation that
 * fishtest uses: LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var), N pairs, mu and var the mean and
 * variance of a pair's score, s0 / s1 the scores of elo0 / elo1. N, mu and var are those of the
 * counts plus SPRT_PRIOR_PAIRS pseudo-pairs, a fifth of it at each outcome (mean 1/2, variance
 * 1/8): without them a match that A wins (loses, draws) in every pair has variance 0 and no
 * LLR at all; with them 20 pairs all won give LLR +8.2 against 0,10 (H1), all lost -8.4 (H0),
 * 100 all drawn -8.4 (H0: level). The pseudo-pairs shift the LLR of a match with spread by about
 * 1 / N of itself. */
enum { SPRT_PRIOR_PAIRS = 1 };

double sprt_llr(const SprtSpec *s, const uint64_t pentanomial[5]);

/* Verdict for the LLR against the bounds after `pairs` pairs (none before s->min_pairs). */
SprtVerdict sprt_verdict(const SprtSpec *s, double llr, uint64_t pairs);

#endif
