/* results.c - score and draw-rate intervals, resolution and games needed of a set of games;
 * colour and paired-deal counts of hidden-piece games. */
#include "results.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void hidden_tally_add(HiddenTally *t, const GameRecord *g)
{
    if (g->result < -1 || g->result > 1)
        return;
    t->games++;
    if (g->seat_colour < 0) {
        t->colour_unassigned++;
    } else {
        /* Seat 0 played the red colour: its result is red's; else red is seat 1. */
        int red_result = g->seat_colour == RED ? g->result : -g->result;
        t->red_colour.wins += red_result > 0;
        t->red_colour.draws += red_result == 0;
        t->red_colour.losses += red_result < 0;
    }
    int half_points = g->result + 1; /* the first mover's: 0, 1, 2 */
    if (!g->deal_swapped) {
        t->pair_open = true;
        t->pair_first_index = g->index;
        t->pair_first_half_points = half_points;
        return;
    }
    if (!t->pair_open || t->pair_first_index + 1 != g->index)
        return; /* its first game is not among those added (another shard) */
    t->pair_open = false;
    t->pentanomial[t->pair_first_half_points + half_points]++;
    /* Seat 0 of game 2k + 1 holds what seat 1 held in game 2k (hidden_swap_seats): the same
     * seat won both when the scores are equal, the same half of the deal when they differ. */
    bool decisive = t->pair_first_half_points != 1 && half_points != 1;
    t->seat_swept += decisive && t->pair_first_half_points == half_points;
    t->hand_swept += decisive && t->pair_first_half_points != half_points;
}

static bool excludes_half(const ScoreInterval *s)
{
    return s->n > 0 && (s->lo > 0.5 || s->hi < 0.5);
}

void results_summarise(const Wdl *first, const HiddenTally *hidden, ResultSummary *s)
{
    memset(s, 0, sizeof *s);
    s->games = wdl_games(first);
    interval_wdl(first, STATS_Z95, &s->first);
    s->first_significant = excludes_half(&s->first);
    interval_binomial(first->draws, s->games, STATS_Z95, &s->draws);
    s->resolution = interval_wdl_resolution(first, STATS_Z95);
    s->games_for[0] = interval_wdl_games_for(first, STATS_Z95, RESULTS_PRECISION_1);
    s->games_for[1] = interval_wdl_games_for(first, STATS_Z95, RESULTS_PRECISION_2);
    if (!hidden || !hidden->games)
        return;
    s->hidden = true;
    s->colour_games = wdl_games(&hidden->red_colour);
    interval_wdl(&hidden->red_colour, STATS_Z95, &s->red_colour);
    s->colour_significant = excludes_half(&s->red_colour);
    s->pairs = hidden_tally_pairs(hidden);
    interval_pairs(hidden->pentanomial, STATS_Z95, &s->pair);
    s->pair_significant = excludes_half(&s->pair);
    s->pair_resolution = interval_pairs_resolution(hidden->pentanomial, STATS_Z95);
    s->pairs_for[0] = interval_pairs_for(hidden->pentanomial, STATS_Z95, RESULTS_PRECISION_1);
    s->pairs_for[1] = interval_pairs_for(hidden->pentanomial, STATS_Z95, RESULTS_PRECISION_2);
}

const char *results_count_text(double x, char *buf, size_t size)
{
    if (!isfinite(x)) {
        snprintf(buf, size, "-");
        return buf;
    }
    char digits[32];
    snprintf(digits, sizeof digits, "%.0f", x);
    size_t len = strlen(digits), used = 0;
    for (size_t i = 0; i < len && used + 1 < size; i++) {
        if (i && (len - i) % 3 == 0 && used + 2 < size)
            buf[used++] = ',';
        buf[used++] = digits[i];
    }
    buf[used] = '\0';
    return buf;
}

void results_resolution_text(const ResultSummary *s, char *buf, size_t size)
{
    if (!s->games) {
        snprintf(buf, size, "no games: nothing resolved");
        return;
    }
    char g1[32], g2[32], g3[32];
    size_t used = (size_t)snprintf(buf, size, "%s %s detect%s a first-move advantage of %.1f points or more at 95%%; "
                                   "a +-%g point interval needs about %s games, +-%g points %s",
                                   results_count_text((double)s->games, g1, sizeof g1), s->games == 1 ? "game" : "games",
                                   s->games == 1 ? "s" : "", 100 * s->resolution, 100 * RESULTS_PRECISION_1,
                                   results_count_text(s->games_for[0], g2, sizeof g2), 100 * RESULTS_PRECISION_2,
                                   results_count_text(s->games_for[1], g3, sizeof g3));
    if (s->pairs && used < size) {
        char p1[32], p2[32], p3[32];
        snprintf(buf + used, size - used, "; by pair, %s pairs detect %.1f points, +-%g needs %s pairs, +-%g %s",
                 results_count_text((double)s->pairs, p1, sizeof p1), 100 * s->pair_resolution,
                 100 * RESULTS_PRECISION_1, results_count_text(s->pairs_for[0], p2, sizeof p2),
                 100 * RESULTS_PRECISION_2, results_count_text(s->pairs_for[1], p3, sizeof p3));
    }
}
