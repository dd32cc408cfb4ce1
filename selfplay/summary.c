/* summary.c - batch totals and the balance summary. */
#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seat.h"
#include "status.h"

/* The first mover's (seat 0's) score in a game: 1, 1/2 or 0. */
static double seat0_score(int8_t result)
{
    return result == RESULT_RED_WINS ? 1.0 : result == RESULT_DRAW ? 0.5 : 0.0;
}

static void add_hidden(RunTotals *t, const GameRecord *g)
{
    t->hidden_games++;
    if (g->seat_colour < 0)
        t->colour_unassigned++;
    else if (g->result == RESULT_DRAW)
        t->colour_draws++;
    else if (g->result == RESULT_RED_WINS || g->result == RESULT_BLACK_WINS) {
        int winner_seat = g->result == RESULT_RED_WINS ? 0 : 1;
        t->colour_wins[winner_seat == 0 ? g->seat_colour : 1 - g->seat_colour]++;
    }
    double s = seat0_score(g->result);
    if (!g->deal_swapped) {
        t->pair_open = true;
        t->pair_first_index = g->index;
        t->pair_first_score = s;
        return;
    }
    if (!t->pair_open || t->pair_first_index + 1 != g->index)
        return; /* the first game of the pair is not in these totals (a shard boundary) */
    t->pair_open = false;
    double m = 0.5 * (t->pair_first_score + s);
    t->pairs++;
    t->pair_score_sum += m;
    t->pair_score_sq += m * m;
    /* Seat 0 of game 2k+1 holds what seat 1 held in game 2k. */
    bool decisive = t->pair_first_score != 0.5 && s != 0.5;
    t->pair_seat_swept += decisive && t->pair_first_score == s;
    t->pair_hand_swept += decisive && t->pair_first_score != s;
}

int totals_add(RunTotals *t, const GameRecord *g, int would_resign_side)
{
    if (t->games >= t->lengths_cap) {
        uint64_t cap = t->lengths_cap ? t->lengths_cap * 2 : 1024;
        uint32_t *l = realloc(t->lengths, cap * sizeof *l);
        if (!l)
            return -1;
        t->lengths = l;
        t->lengths_cap = cap;
    }
    t->lengths[t->games++] = g->plies;
    t->red_wins += g->result == RESULT_RED_WINS;
    t->black_wins += g->result == RESULT_BLACK_WINS;
    t->draws += g->result == RESULT_DRAW;
    t->plies_sum += g->plies;
    t->positions += (uint64_t)g->npositions;
    t->policy_rows += (uint64_t)g->npolicy;
    if (g->termination < TERM_COUNT)
        t->by_reason[g->termination]++;
    t->game_seconds += g->wall_seconds;
    if (g->has_deal)
        add_hidden(t, g);
    if (g->resign_disabled) {
        t->resign_disabled_games++;
        if (would_resign_side >= 0) {
            t->would_resign_games++;
            Result lost = would_resign_side == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
            t->false_resignations += g->result != lost;
        }
    }
    return 0;
}

void totals_free(RunTotals *t)
{
    free(t->lengths);
    memset(t, 0, sizeof *t);
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static double median_length(const RunTotals *t)
{
    if (!t->games)
        return 0;
    uint32_t *copy = malloc(t->games * sizeof *copy);
    if (!copy)
        return NAN;
    memcpy(copy, t->lengths, t->games * sizeof *copy);
    qsort(copy, t->games, sizeof *copy, compare_u32);
    double m = t->games % 2 ? copy[t->games / 2]
                            : 0.5 * (copy[t->games / 2 - 1] + copy[t->games / 2]);
    free(copy);
    return m;
}

/* Mean and 95% half-width of seat 0's per-pair score (normal approximation). */
static void pair_stats(const RunTotals *t, double *mean, double *half)
{
    double n = (double)t->pairs;
    *mean = n > 0 ? t->pair_score_sum / n : 0;
    double var = n > 1 ? (t->pair_score_sq - n * *mean * *mean) / (n - 1) : 0;
    *half = n > 1 ? 1.96 * sqrt(var > 0 ? var : 0) / sqrt(n) : 0;
}

const char *totals_results_label(const Variant *v)
{
    return variant_assigns_colours(v) ? "first/draw/second mover" : "red/draw/black";
}

/* Rule sets whose first reveal assigns the colours: the results by colour and over paired
 * deals (the lines above are by seat there). */
static void print_colours(const RunTotals *t, FILE *out)
{
    uint64_t assigned = t->colour_wins[RED] + t->colour_wins[BLACK] + t->colour_draws;
    double lo, hi, sc = (double)t->colour_wins[RED] + 0.5 * (double)t->colour_draws;
    wilson_interval(sc, (double)assigned, 1.96, &lo, &hi);
    fprintf(out, "by colour    red player %llu / draw %llu / black player %llu; red-colour score "
            "%.1f%% (95%% CI %.1f%% .. %.1f%%); colours never assigned in %llu games\n",
            (unsigned long long)t->colour_wins[RED], (unsigned long long)t->colour_draws,
            (unsigned long long)t->colour_wins[BLACK], assigned ? 100 * sc / (double)assigned : 0.0,
            100 * lo, 100 * hi, (unsigned long long)t->colour_unassigned);
}

static void print_pairs(const RunTotals *t, FILE *out)
{
    double mean, half;
    pair_stats(t, &mean, &half);
    fprintf(out, "paired deals %llu pairs; first-mover score %.1f%% +- %.1f%% (95%%, by pair); one "
            "seat won both %llu, one half of the deal won both %llu\n",
            (unsigned long long)t->pairs, 100 * mean, 100 * half,
            (unsigned long long)t->pair_seat_swept, (unsigned long long)t->pair_hand_swept);
}

void totals_print(const RunTotals *t, const Variant *v, FILE *out)
{
    bool assigns = variant_assigns_colours(v);
    double n = (double)t->games;
    double score = n > 0 ? ((double)t->red_wins + 0.5 * (double)t->draws) / n : 0;
    double lo, hi;
    wilson_interval((double)t->red_wins + 0.5 * (double)t->draws, n, 1.96, &lo, &hi);
    fprintf(out, "games        %llu\n", (unsigned long long)t->games);
    /* Where the first mover always plays red, its results are Red's. */
    fprintf(out, "%s %llu / %llu / %llu\n", totals_results_label(v), (unsigned long long)t->red_wins,
            (unsigned long long)t->draws, (unsigned long long)t->black_wins);
    fprintf(out, "%s %.1f%%  (95%% CI %.1f%% .. %.1f%%; %s)\n",
            assigns ? "first-mover score" : "red score   ", 100 * score, 100 * lo, 100 * hi,
            n == 0 ? "no games" : (lo > 0.5 || hi < 0.5) ? "first mover advantage is significant"
                                                         : "not significantly different from 50%");
    fprintf(out, "draw rate    %.1f%%\n", n > 0 ? 100.0 * (double)t->draws / n : 0.0);
    fprintf(out, "length       mean %.1f plies, median %.1f plies\n",
            n > 0 ? (double)t->plies_sum / n : 0.0, median_length(t));
    fprintf(out, "terminations");
    for (int r = 1; r < TERM_COUNT; r++)
        if (t->by_reason[r])
            fprintf(out, "  %s %llu", termination_name((Termination)r),
                    (unsigned long long)t->by_reason[r]);
    fprintf(out, "\n");
    if (t->resign_disabled_games)
        fprintf(out, "resignation  off in %llu games; condition met in %llu, of which %llu would "
                "have been false resignations\n", (unsigned long long)t->resign_disabled_games,
                (unsigned long long)t->would_resign_games, (unsigned long long)t->false_resignations);
    if (assigns && t->hidden_games)
        print_colours(t, out);
    if (t->pairs)
        print_pairs(t, out);
}

void totals_print_json(const RunTotals *t, const Variant *v, FILE *out)
{
    bool assigns = variant_assigns_colours(v);
    double n = (double)t->games;
    double lo, hi;
    wilson_interval((double)t->red_wins + 0.5 * (double)t->draws, n, 1.96, &lo, &hi);
    double score = n > 0 ? ((double)t->red_wins + 0.5 * (double)t->draws) / n : 0.0;
    fprintf(out, "{\"games\": %llu, \"first_mover_wins\": %llu, \"draws\": %llu, "
            "\"second_mover_wins\": %llu, \"first_mover_score\": %.6f, "
            "\"first_mover_score_ci95\": [%.6f, %.6f], ",
            (unsigned long long)t->games, (unsigned long long)t->red_wins,
            (unsigned long long)t->draws, (unsigned long long)t->black_wins, score, lo, hi);
    /* Where the first mover always plays red, its results are Red's (the keys of earlier
     * versions); where the game assigns colours they are in by_colour. */
    if (!assigns)
        fprintf(out, "\"red_wins\": %llu, \"black_wins\": %llu, \"red_score\": %.6f, "
                "\"red_score_ci95\": [%.6f, %.6f], ", (unsigned long long)t->red_wins,
                (unsigned long long)t->black_wins, score, lo, hi);
    fprintf(out, "\"draw_rate\": %.6f, \"mean_plies\": %.3f, \"median_plies\": %.1f, "
            "\"terminations\": {", n > 0 ? (double)t->draws / n : 0.0,
            n > 0 ? (double)t->plies_sum / n : 0.0, median_length(t));
    bool first = true;
    for (int r = 1; r < TERM_COUNT; r++)
        if (t->by_reason[r]) {
            fprintf(out, "%s\"%s\": %llu", first ? "" : ", ", termination_name((Termination)r),
                    (unsigned long long)t->by_reason[r]);
            first = false;
        }
    fprintf(out, "}, \"resign_disabled_games\": %llu, \"would_resign_games\": %llu, "
            "\"false_resignations\": %llu", (unsigned long long)t->resign_disabled_games,
            (unsigned long long)t->would_resign_games, (unsigned long long)t->false_resignations);
    if (assigns && t->hidden_games)
        fprintf(out, ", \"by_colour\": {\"red_wins\": %llu, \"draws\": %llu, \"black_wins\": %llu, "
                "\"unassigned\": %llu}", (unsigned long long)t->colour_wins[RED],
                (unsigned long long)t->colour_draws, (unsigned long long)t->colour_wins[BLACK],
                (unsigned long long)t->colour_unassigned);
    if (t->hidden_games) {
        double mean, half;
        pair_stats(t, &mean, &half);
        fprintf(out, ", \"paired_deals\": {\"pairs\": %llu, \"first_mover_score\": %.6f, "
                "\"first_mover_score_ci95_half\": %.6f, \"seat_swept\": %llu, \"hand_swept\": %llu}",
                (unsigned long long)t->pairs, mean, half, (unsigned long long)t->pair_seat_swept,
                (unsigned long long)t->pair_hand_swept);
    }
    fprintf(out, "}\n");
}
