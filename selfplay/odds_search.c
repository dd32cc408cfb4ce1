/* odds_search.c - bracketing then geometric bisection of the time-odds factor for a 50% score. */
#include "odds_search.h"

#include <math.h>

void odds_search_init(OddsSearch *s, double start, double growth, double ratio, double max)
{
    s->growth = growth;
    s->ratio = ratio;
    s->max = max;
    s->next = fmin(fmax(start, 1.0 / max), max);
    s->lo = s->hi = 0;
    s->lo_score = s->hi_score = 0;
    s->steps = 0;
}

double odds_search_next(const OddsSearch *s)
{
    return s->next;
}

bool odds_search_bracketed(const OddsSearch *s)
{
    return s->lo > 0 && s->hi > 0;
}

void odds_search_record(OddsSearch *s, double score)
{
    double k = s->next;
    if (k <= 0)
        return;
    s->steps++;
    if (score < 0.5) {
        s->lo = k;
        s->lo_score = score;
    } else {
        s->hi = k;
        s->hi_score = score;
    }
    /* Every step lies strictly inside the bracket (or beyond its one known end), so lo < hi. */
    if (s->lo > 0 && s->hi > 0) {
        s->next = s->hi / s->lo <= s->ratio * (1 + 1e-9) ? 0 : sqrt(s->lo * s->hi);
    } else if (s->lo > 0) {
        /* Too weak even at k: more time, up to max. */
        s->next = k >= s->max * (1 - 1e-9) ? 0 : fmin(k * s->growth, s->max);
    } else {
        double min = 1.0 / s->max;
        s->next = k <= min * (1 + 1e-9) ? 0 : fmax(k / s->growth, min);
    }
}

double odds_search_estimate(const OddsSearch *s)
{
    if (!odds_search_bracketed(s))
        return 0;
    double span = s->hi_score - s->lo_score;
    double f = span > 0 ? (0.5 - s->lo_score) / span : 0.5;
    return exp(log(s->lo) + f * (log(s->hi) - log(s->lo)));
}
