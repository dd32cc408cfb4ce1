/* odds_search.h - the time-odds factor at which side A scores 50% against B: odds grow (or
 * shrink) by a factor until the 50% point is bracketed, then the bracket is halved geometrically
 * until its ends are within a ratio. Fed with the measured score of each step, so the logic is
 * testable without playing games. */
#ifndef XQ_ODDS_SEARCH_H
#define XQ_ODDS_SEARCH_H

#include <stdbool.h>

typedef struct OddsSearch {
    double growth;        /* bracketing factor per step (> 1) */
    double ratio;         /* stop once hi / lo <= ratio (> 1) */
    double max;           /* odds never go above max nor below 1 / max */
    double next;          /* odds of the next step; 0 once the search is over */
    double lo, lo_score;  /* largest odds seen scoring below 50% (0: none) and its score */
    double hi, hi_score;  /* smallest odds seen scoring 50% or more (0: none) and its score */
    int steps;            /* scores recorded */
} OddsSearch;

/* Starts at odds `start` (clamped to [1 / max, max]). */
void odds_search_init(OddsSearch *s, double start, double growth, double ratio, double max);

/* Odds to measure next, 0 when the search is over. */
double odds_search_next(const OddsSearch *s);

/* Records the score A made at the odds odds_search_next returned and picks the next odds. */
void odds_search_record(OddsSearch *s, double score);

/* True if the search ended bracketed (lo and hi both known). Otherwise the 50% point lies above
 * max (only lo known) or below 1 / max (only hi known). */
bool odds_search_bracketed(const OddsSearch *s);

/* Point estimate inside the bracket: the score interpolated linearly in log(odds) between the
 * two ends; 0 if not bracketed. */
double odds_search_estimate(const OddsSearch *s);

#endif
