/* summary.c - batch totals and the balance summary. */
#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seat.h"
#include "status.h"

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
        hidden_tally_add(&t->hidden, g);
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

static double median_length(const RunTotals *t)
{
    double mean, median;
    return stats_mean_median_u32(t->lengths, (size_t)t->games, &mean, &median) == 0 ? median : NAN;
}

static Wdl first_mover(const RunTotals *t)
{
    return (Wdl){t->red_wins, t->draws, t->black_wins};
}

/* "48.5%  (95% CI 41.7% .. 55.4%" */
static void print_interval(FILE *out, const ScoreInterval *s)
{
    fprintf(out, "%.1f%%  (95%% CI %.1f%% .. %.1f%%", 100 * s->mean, 100 * s->lo, 100 * s->hi);
}

const char *totals_results_label(const Variant *v)
{
    return variant_assigns_colours(v) ? "first/draw/second mover" : "red/draw/black";
}

void totals_print(const RunTotals *t, const Variant *v, const char *weights, FILE *out)
{
    bool assigns = variant_assigns_colours(v);
    Wdl first = first_mover(t);
    ResultSummary r;
    results_summarise(&first, &t->hidden, &r);
    fprintf(out, "games        %llu\n", (unsigned long long)t->games);
    /* Where the first mover always plays red, its results are Red's. */
    fprintf(out, "%s %llu / %llu / %llu\n", totals_results_label(v), (unsigned long long)t->red_wins,
            (unsigned long long)t->draws, (unsigned long long)t->black_wins);
    fprintf(out, "%s ", assigns ? "first-mover score" : "red score   ");
    print_interval(out, &r.first);
    fprintf(out, ", win/draw/loss; %s)\n", !r.games ? "no games"
                                           : r.first_significant ? "the first-move advantage is significant"
                                                                 : "not significantly different from 50%");
    fprintf(out, "draw rate    ");
    print_interval(out, &r.draws);
    fprintf(out, ")\n");
    if (assigns && r.hidden) {
        fprintf(out, "by colour    red player %llu / draw %llu / black player %llu; red-colour score ",
                (unsigned long long)t->hidden.red_colour.wins, (unsigned long long)t->hidden.red_colour.draws,
                (unsigned long long)t->hidden.red_colour.losses);
        print_interval(out, &r.red_colour);
        fprintf(out, "%s); colours never assigned in %llu games\n", r.colour_significant ? ", excludes 50%" : "",
                (unsigned long long)t->hidden.colour_unassigned);
    }
    if (r.pairs) {
        fprintf(out, "paired deals %llu pairs; first-mover score ", (unsigned long long)r.pairs);
        print_interval(out, &r.pair);
        fprintf(out, " by pair%s); one seat won both %llu, one half of the deal won both %llu\n",
                r.pair_significant ? ", excludes 50%" : "", (unsigned long long)t->hidden.seat_swept,
                (unsigned long long)t->hidden.hand_swept);
    }
    char line[512];
    results_resolution_text(&r, line, sizeof line);
    fprintf(out, "resolution   %s\n", line);
    fprintf(out, "length       mean %.1f plies, median %.1f plies\n",
            t->games ? (double)t->plies_sum / (double)t->games : 0.0, median_length(t));
    fprintf(out, "terminations");
    for (int k = 1; k < TERM_COUNT; k++)
        if (t->by_reason[k])
            fprintf(out, "  %s %llu", termination_name((Termination)k), (unsigned long long)t->by_reason[k]);
    fprintf(out, "\n");
    if (t->resign_disabled_games)
        fprintf(out, "resignation  off in %llu games; condition met in %llu, of which %llu would "
                "have been false resignations\n", (unsigned long long)t->resign_disabled_games,
                (unsigned long long)t->would_resign_games, (unsigned long long)t->false_resignations);
    if (weights)
        fprintf(out, "weights      %s\n", weights);
}

static void json_text(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* "NAME": [lo, hi] */
static void json_interval(FILE *out, const char *name, const ScoreInterval *s)
{
    fprintf(out, "\"%s\": [%.6f, %.6f]", name, s->lo, s->hi);
}

void totals_print_json(const RunTotals *t, const Variant *v, const char *weights, FILE *out)
{
    bool assigns = variant_assigns_colours(v);
    Wdl first = first_mover(t);
    ResultSummary r;
    results_summarise(&first, &t->hidden, &r);
    fprintf(out, "{\"games\": %llu, \"first_mover_wins\": %llu, \"draws\": %llu, \"second_mover_wins\": %llu, "
            "\"first_mover_score\": %.6f, ", (unsigned long long)t->games, (unsigned long long)t->red_wins,
            (unsigned long long)t->draws, (unsigned long long)t->black_wins, r.first.mean);
    json_interval(out, "first_mover_score_ci95", &r.first);
    /* Where the first mover always plays red, its results are Red's (the keys of earlier
     * versions); where the game assigns colours they are in by_colour. */
    if (!assigns) {
        fprintf(out, ", \"red_wins\": %llu, \"black_wins\": %llu, \"red_score\": %.6f, ",
                (unsigned long long)t->red_wins, (unsigned long long)t->black_wins, r.first.mean);
        json_interval(out, "red_score_ci95", &r.first);
    }
    fprintf(out, ", \"first_mover_advantage_significant\": %s, \"draw_rate\": %.6f, ",
            r.first_significant ? "true" : "false", r.draws.mean);
    json_interval(out, "draw_rate_ci95", &r.draws);
    fprintf(out, ", \"resolution\": %.6f, \"games_for_half_width\": {\"%g\": %.0f, \"%g\": %.0f}", r.resolution,
            RESULTS_PRECISION_1, r.games_for[0], RESULTS_PRECISION_2, r.games_for[1]);
    fprintf(out, ", \"mean_plies\": %.3f, \"median_plies\": %.1f, \"terminations\": {",
            t->games ? (double)t->plies_sum / (double)t->games : 0.0, median_length(t));
    bool comma = false;
    for (int k = 1; k < TERM_COUNT; k++)
        if (t->by_reason[k]) {
            fprintf(out, "%s\"%s\": %llu", comma ? ", " : "", termination_name((Termination)k),
                    (unsigned long long)t->by_reason[k]);
            comma = true;
        }
    fprintf(out, "}, \"resign_disabled_games\": %llu, \"would_resign_games\": %llu, "
            "\"false_resignations\": %llu", (unsigned long long)t->resign_disabled_games,
            (unsigned long long)t->would_resign_games, (unsigned long long)t->false_resignations);
    if (assigns && r.hidden) {
        fprintf(out, ", \"by_colour\": {\"red_wins\": %llu, \"draws\": %llu, \"black_wins\": %llu, "
                "\"unassigned\": %llu, \"red_score\": %.6f, ", (unsigned long long)t->hidden.red_colour.wins,
                (unsigned long long)t->hidden.red_colour.draws, (unsigned long long)t->hidden.red_colour.losses,
                (unsigned long long)t->hidden.colour_unassigned, r.red_colour.mean);
        json_interval(out, "red_score_ci95", &r.red_colour);
        fprintf(out, "}");
    }
    if (r.hidden) {
        fprintf(out, ", \"paired_deals\": {\"pairs\": %llu, \"pentanomial\": [%llu, %llu, %llu, %llu, %llu], "
                "\"first_mover_score\": %.6f, ", (unsigned long long)r.pairs,
                (unsigned long long)t->hidden.pentanomial[0], (unsigned long long)t->hidden.pentanomial[1],
                (unsigned long long)t->hidden.pentanomial[2], (unsigned long long)t->hidden.pentanomial[3],
                (unsigned long long)t->hidden.pentanomial[4], r.pair.mean);
        json_interval(out, "first_mover_score_ci95", &r.pair);
        fprintf(out, ", \"resolution\": %.6f, \"seat_swept\": %llu, \"hand_swept\": %llu}", r.pair_resolution,
                (unsigned long long)t->hidden.seat_swept, (unsigned long long)t->hidden.hand_swept);
    }
    if (weights) {
        fprintf(out, ", \"weights\": ");
        json_text(out, weights);
    }
    fprintf(out, "}\n");
}
