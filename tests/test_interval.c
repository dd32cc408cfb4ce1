/* test_interval.c - stats/interval: the score interval of games (trinomial), pairs (pentanomial)
 * and rates (binomial) against values computed by hand (closed forms below) or by the
 * independent script tests/python/interval_reference.py (direct likelihood maximisation with
 * scipy; never this code). z = 1.959964, z^2 = 3.841459. */
#include <math.h>

#include "test_util.h"

#include "interval.h"

#define CLOSE6(want, got) assert_true(fabs((double)(want) - (double)(got)) < 1.5e-6)

static ScoreInterval wdl(uint64_t w, uint64_t d, uint64_t l)
{
    Wdl x = {w, d, l};
    ScoreInterval s;
    interval_wdl(&x, STATS_Z95, &s);
    return s;
}

/* Rates and games without draws: Wilson's interval, centre (p + z^2/2n) / (1 + z^2/n), half-width
 * z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n). */
static void wilson_without_draws(void **state)
{
    (void)state;
    ScoreInterval s;
    /* 5 of 10: centre 0.5; half = 1.959964 sqrt(0.025 + 0.009604) / 1.384146 = 0.263407. */
    interval_binomial(5, 10, STATS_Z95, &s);
    CLOSE6(0.236593, s.lo);
    CLOSE6(0.763407, s.hi);
    CLOSE6(0.25, s.variance);
    s = wdl(5, 0, 5);
    CLOSE6(0.236593, s.lo);
    CLOSE6(0.763407, s.hi);
    /* 0 of 10: [0, z^2 / (n + z^2)] = [0, 3.841459 / 13.841459] = [0, 0.277533]. */
    interval_binomial(0, 10, STATS_Z95, &s);
    CLOSE6(0.0, s.lo);
    CLOSE6(0.277533, s.hi);
    /* 10 of 10: [n / (n + z^2), 1] = [10 / 13.841459, 1] = [0.722467, 1]. */
    interval_binomial(10, 10, STATS_Z95, &s);
    CLOSE6(0.722467, s.lo);
    CLOSE6(1.0, s.hi);
    /* Nothing seen: the whole range. */
    interval_binomial(0, 0, STATS_Z95, &s);
    CLOSE6(0.0, s.lo);
    CLOSE6(1.0, s.hi);
    CLOSE6(0.5, s.mean);
}

/* The edges of single games: 0% and 100% (all lost, all won) and all drawn, n = 200.
 * All lost or won: the likeliest distributions of mean m put their mass on 0 and 1 only, so the
 * interval is Wilson's: [0, z^2 / (n + z^2)] = [0, 3.841459 / 203.841459] = [0, 0.018845] and
 * [200 / 203.841459, 1] = [0.981155, 1]. All drawn: for m = 1/2 - x the likeliest distribution is
 * draws 1 - 2x, losses 2x, variance x/2 - x^2, and n x^2 = z^2 (x/2 - x^2) gives
 * x = z^2 / (2 (n + z^2)) = 3.841459 / 407.682918 = 0.009423. (A normal interval has width 0 in
 * all three.) */
static void trinomial_edges(void **state)
{
    (void)state;
    ScoreInterval s = wdl(0, 0, 200);
    CLOSE6(0.0, s.mean);
    CLOSE6(0.0, s.lo);
    CLOSE6(0.018845, s.hi);
    s = wdl(200, 0, 0);
    CLOSE6(1.0, s.mean);
    CLOSE6(0.981155, s.lo);
    CLOSE6(1.0, s.hi);
    s = wdl(0, 200, 0);
    CLOSE6(0.5, s.mean);
    CLOSE6(0.0, s.variance);
    CLOSE6(0.490577, s.lo);
    CLOSE6(0.509423, s.hi);
    /* No games. */
    s = wdl(0, 0, 0);
    CLOSE6(0.0, s.lo);
    CLOSE6(1.0, s.hi);
}

/* With draws the interval is narrower than Wilson's on the score (which treats a draw as a coin
 * toss). The figures, 200 games at a 50% score: 36% draws (64 / 72 / 64) gives +-5.5
 * points where Wilson's interval on 100 of 200 says +-6.9 (z / (2 sqrt(n + z^2)) = 0.068639); 80%
 * draws (20 / 160 / 20) +-3.2 (the normal interval z sqrt(0.05 / 200) = 0.0310). Ends from
 * tests/python/interval_reference.py. */
static void trinomial_with_draws(void **state)
{
    (void)state;
    ScoreInterval s = wdl(64, 72, 64);
    CLOSE6(0.16, s.variance); /* (W + D/4) / n - 1/4 = (64 + 18) / 200 - 0.25 */
    CLOSE6(0.444798, s.lo);
    CLOSE6(0.555202, s.hi);
    ScoreInterval wilson;
    interval_binomial(100, 200, STATS_Z95, &wilson);
    CLOSE6(0.068639, wilson.hi - 0.5);
    s = wdl(20, 160, 20);
    CLOSE6(0.468168, s.lo);
    CLOSE6(0.531832, s.hi);
    /* Asymmetric: 60 / 120 / 20 (score 60%), 30 / 160 / 10, and two games, a win and a draw. */
    s = wdl(60, 120, 20);
    CLOSE6(0.6, s.mean);
    CLOSE6(0.557827, s.lo);
    CLOSE6(0.641401, s.hi);
    s = wdl(30, 160, 10);
    CLOSE6(0.519948, s.lo);
    CLOSE6(0.581821, s.hi);
    s = wdl(1, 1, 0);
    CLOSE6(0.256785, s.lo);
    CLOSE6(0.952734, s.hi);
}

/* Pairs (pentanomial, a pair's points / 2). 100 pairs all scoring 1 point: as for all-drawn
 * games, x = z^2 / (2 (n + z^2)) = 3.841459 / 207.682918 = 0.018497. 50 pairs all 2 points:
 * [50 / 53.841459, 1] = [0.928652, 1]. Mixed counts from the reference script. */
static void pentanomial(void **state)
{
    (void)state;
    ScoreInterval s;
    uint64_t level[5] = {0, 0, 100, 0, 0};
    interval_pairs(level, STATS_Z95, &s);
    CLOSE6(0.481503, s.lo);
    CLOSE6(0.518497, s.hi);
    uint64_t swept[5] = {0, 0, 0, 0, 50};
    interval_pairs(swept, STATS_Z95, &s);
    CLOSE6(0.928652, s.lo);
    CLOSE6(1.0, s.hi);
    uint64_t mixed[5] = {5, 10, 30, 40, 15};
    interval_pairs(mixed, STATS_Z95, &s);
    CLOSE6(0.625, s.mean); /* (0 * 5 + 0.25 * 10 + 0.5 * 30 + 0.75 * 40 + 15) / 100 */
    CLOSE6(0.571311, s.lo);
    CLOSE6(0.673099, s.hi);
    uint64_t even[5] = {10, 20, 40, 20, 10};
    interval_pairs(even, STATS_Z95, &s);
    CLOSE6(0.445836, s.lo);
    CLOSE6(0.554164, s.hi);
    /* The same games counted as pairs are more precise than as single games when pairs are
     * correlated: 10 pairs of one win and one loss (1 point each) against 10 wins and 10 losses. */
    uint64_t split[5] = {0, 0, 10, 0, 0};
    interval_pairs(split, STATS_Z95, &s);
    ScoreInterval single = wdl(10, 0, 10);
    CLOSE6(0.138766, 0.5 * (s.hi - s.lo)); /* 3.841459 / (2 * 13.841459) */
    CLOSE6(0.200702, 0.5 * (single.hi - single.lo)); /* z / (2 sqrt(23.841459)) */
}

/* Resolution (half-width of the mirrored sample) and games for a precision. No draws, n games at
 * 50%: Wilson's half-width z / (2 sqrt(n + z^2)), so n = 200 resolves 0.068639, whatever the
 * score, and +-h needs n >= z^2 / (4 h^2) - z^2: 9599.8 -> 9600 games for 1 point, 2397.1 -> 2398
 * for 2. All drawn: half-width z^2 / (2 (n + z^2)), so n >= z^2 / (2h) - z^2: 188.2 -> 189 and
 * 92.2 -> 93. 36% and 80% draws from the reference script. */
static void resolution_and_games_needed(void **state)
{
    (void)state;
    Wdl decisive = {150, 0, 50}, drawn = {0, 200, 0}, d36 = {64, 72, 64}, d80 = {20, 160, 20};
    CLOSE6(0.068639, interval_wdl_resolution(&decisive, STATS_Z95));
    CLOSE6(0.009423, interval_wdl_resolution(&drawn, STATS_Z95));
    CLOSE6(0.055202, interval_wdl_resolution(&d36, STATS_Z95));
    CLOSE6(0.031832, interval_wdl_resolution(&d80, STATS_Z95));
    /* The mirror keeps the draws: 60 / 120 / 20 resolves what 40 / 120 / 40 does (reference
     * script). */
    Wdl skew = {60, 120, 20};
    CLOSE6(0.044021, interval_wdl_resolution(&skew, STATS_Z95));
    assert_int_equal(9600, (int)interval_wdl_games_for(&decisive, STATS_Z95, 0.01));
    assert_int_equal(2398, (int)interval_wdl_games_for(&decisive, STATS_Z95, 0.02));
    assert_int_equal(189, (int)interval_wdl_games_for(&drawn, STATS_Z95, 0.01));
    assert_int_equal(93, (int)interval_wdl_games_for(&drawn, STATS_Z95, 0.02));
    assert_int_equal(6145, (int)interval_wdl_games_for(&d36, STATS_Z95, 0.01));
    assert_int_equal(1535, (int)interval_wdl_games_for(&d36, STATS_Z95, 0.02));
    assert_int_equal(1933, (int)interval_wdl_games_for(&d80, STATS_Z95, 0.01));
    assert_int_equal(963, (int)interval_wdl_games_for(&skew, STATS_Z95, 0.02));
    Wdl none = {0, 0, 0};
    assert_int_equal(0, (int)interval_wdl_games_for(&none, STATS_Z95, 0.01));
    uint64_t even[5] = {10, 20, 40, 20, 10};
    CLOSE6(0.054164, interval_pairs_resolution(even, STATS_Z95));
    uint64_t mixed[5] = {5, 10, 30, 40, 15};
    CLOSE6(0.056065, interval_pairs_resolution(mixed, STATS_Z95));
}

/* Properties on assorted counts: the interval lies in [0, 1], holds the mean, and widens with z. */
static void ends_are_the_test_boundary(void **state)
{
    (void)state;
    const Wdl cases[] = {{3, 1, 0}, {0, 7, 2}, {40, 3, 57}, {1, 0, 0}, {0, 1, 0}, {12, 80, 8}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ScoreInterval s = wdl(cases[c].wins, cases[c].draws, cases[c].losses);
        assert_true(s.lo <= s.mean && s.mean <= s.hi);
        assert_true(s.lo >= 0 && s.hi <= 1);
        /* A slightly wider z gives a wider interval; a narrower z a narrower one. */
        ScoreInterval wide, narrow;
        interval_wdl(&cases[c], 2.5, &wide);
        interval_wdl(&cases[c], 1.0, &narrow);
        assert_true(wide.lo <= s.lo + 1e-12 && wide.hi >= s.hi - 1e-12);
        assert_true(narrow.lo >= s.lo - 1e-12 && narrow.hi <= s.hi + 1e-12);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wilson_without_draws),
        cmocka_unit_test(trinomial_edges),
        cmocka_unit_test(trinomial_with_draws),
        cmocka_unit_test(pentanomial),
        cmocka_unit_test(resolution_and_games_needed),
        cmocka_unit_test(ends_are_the_test_boundary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
