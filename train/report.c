/* report.c - the generation table of a training run (see report.h). */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void train_report_elo(double elo, char *buf, size_t size)
{
    if (isnan(elo))
        snprintf(buf, size, "n/a");
    else if (isinf(elo))
        snprintf(buf, size, "%sinf", elo < 0 ? "-" : "+");
    else
        snprintf(buf, size, "%+.1f", fabs(elo) < 0.05 ? 0.0 : elo); /* never "-0.0" */
}

/* "+12.3 (+3.1, +21.5)" */
static void elo_interval(double elo, double low, double high, char *buf, size_t size)
{
    char a[32], b[32], c[32]; /* callers give at least 112 bytes */
    train_report_elo(elo, a, sizeof a);
    train_report_elo(low, b, sizeof b);
    train_report_elo(high, c, sizeof c);
    snprintf(buf, size, "%s (%s, %s)", a, b, c);
}

static void loss_pair(double from, double to, char *buf, size_t size)
{
    if (isnan(from) || isnan(to))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.4f -> %.4f", from, to);
}

enum { COLUMNS = 11, CELL = 192 };

static const char *const HEADERS[COLUMNS] = {
    "gen", "self-play games", "tuned on (games)", "positions", "loss train", "loss validation", "gate games",
    "Elo vs previous (95%)", "LLR", "verdict", "in force",
};

/* The cells of one generation. */
static void row_cells(const TrainSettings *s, const TrainRecord *r, char cells[COLUMNS + 1][CELL], bool strength)
{
    for (int i = 0; i <= COLUMNS; i++)
        snprintf(cells[i], CELL, "-");
    snprintf(cells[0], CELL, "%ld", r->generation);
    if (r->generation > 0) {
        snprintf(cells[1], CELL, "%" PRIu64, r->selfplay_games);
        snprintf(cells[2], CELL, "%" PRIu64, r->tune_games);
        snprintf(cells[3], CELL, "%" PRIu64, r->tune_positions);
        loss_pair(r->loss_train_start, r->loss_train, cells[4], CELL);
        loss_pair(r->loss_validation_start, r->loss_validation, cells[5], CELL);
        snprintf(cells[6], CELL, "%" PRIu64, r->gate_games);
        elo_interval(r->gate_elo, r->gate_elo_low, r->gate_elo_high, cells[7], CELL);
        snprintf(cells[8], CELL, "%.2f", r->gate_llr);
        snprintf(cells[9], CELL, "%s%s", r->gate_verdict, r->promoted ? ", promoted" : "");
    }
    snprintf(cells[10], CELL, "gen %ld", r->in_force);
    if (strength && r->strength) {
        char e[112];
        elo_interval(r->strength_elo, r->strength_elo_low, r->strength_elo_high, e, sizeof e);
        if (r->strength_of == r->generation)
            snprintf(cells[11], CELL, "%s, %.1f%% of %" PRIu64, e, 100 * r->strength_score, r->strength_games);
        else
            snprintf(cells[11], CELL, "as gen %ld", r->strength_of);
    }
    (void)s;
}

static void print_json(FILE *f, const TrainSettings *s, const TrainRecord *recs, int n)
{
    char e[4][32];
    fprintf(f, "{\"variant\": \"%s\", \"games_per_generation\": %" PRIu64 ", \"generations\": [", s->variant, s->games);
    bool first = true;
    for (int g = 0; g < n; g++) {
        const TrainRecord *r = &recs[g];
        if (r->generation < 0)
            continue;
        /* JSON has no infinities or NaN: null. */
        double v[] = {r->gate_elo, r->gate_elo_low, r->gate_elo_high, r->strength_elo};
        for (int i = 0; i < 4; i++) {
            if (isfinite(v[i]))
                snprintf(e[i], sizeof e[i], "%.3f", v[i]);
            else
                snprintf(e[i], sizeof e[i], "null");
        }
        fprintf(f, "%s{\"generation\": %ld, \"selfplay_games\": %" PRIu64 ", \"tune_games\": %" PRIu64
                   ", \"positions\": %" PRIu64 ", ", first ? "" : ", ", r->generation, r->selfplay_games,
                r->tune_games, r->tune_positions);
        double loss[] = {r->loss_train_start, r->loss_train, r->loss_validation_start, r->loss_validation};
        const char *names[] = {"loss_train_start", "loss_train", "loss_validation_start", "loss_validation"};
        for (int i = 0; i < 4; i++) {
            if (isfinite(loss[i]))
                fprintf(f, "\"%s\": %.6f, ", names[i], loss[i]);
            else
                fprintf(f, "\"%s\": null, ", names[i]);
        }
        fprintf(f, "\"gate_games\": %" PRIu64 ", \"gate_pentanomial\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64
                   ", %" PRIu64 "], \"gate_elo\": %s, \"gate_elo_95\": [%s, %s], \"gate_llr\": ",
                r->gate_games, r->gate_pentanomial[0], r->gate_pentanomial[1], r->gate_pentanomial[2],
                r->gate_pentanomial[3], r->gate_pentanomial[4], e[0], e[1], e[2]);
        if (isfinite(r->gate_llr))
            fprintf(f, "%.4f", r->gate_llr);
        else
            fprintf(f, "null");
        fprintf(f, ", \"verdict\": \"%s\", \"promoted\": %s, \"in_force\": %ld", r->generation > 0 ? r->gate_verdict : "",
                r->promoted ? "true" : "false", r->in_force);
        if (r->strength) {
            double lo = r->strength_elo_low, hi = r->strength_elo_high;
            fprintf(f, ", \"strength\": {\"measured_at\": %ld, \"games\": %" PRIu64 ", \"score\": %.6f, \"elo\": %s, "
                       "\"elo_95\": [",
                    r->strength_of, r->strength_games, r->strength_score, e[3]);
            if (isfinite(lo))
                fprintf(f, "%.3f, ", lo);
            else
                fprintf(f, "null, ");
            if (isfinite(hi))
                fprintf(f, "%.3f]}", hi);
            else
                fprintf(f, "null]}");
        }
        fprintf(f, "}");
        first = false;
    }
    fprintf(f, "]}\n");
}

void train_report_print(FILE *f, const TrainSettings *s, const TrainRecord *recs, int n, TrainReportFormat format)
{
    if (format == TRAIN_REPORT_JSON) {
        print_json(f, s, recs, n);
        return;
    }
    bool strength = s->strength_games > 0;
    int ncol = COLUMNS + (strength ? 1 : 0);
    char cells[COLUMNS + 1][CELL];
    int width[COLUMNS + 1];
    const char *header[COLUMNS + 1];
    for (int i = 0; i < COLUMNS; i++)
        header[i] = HEADERS[i];
    header[COLUMNS] = "Elo vs engine (95%)";
    for (int i = 0; i < ncol; i++)
        width[i] = (int)strlen(header[i]);
    for (int g = 0; g < n; g++) {
        if (recs[g].generation < 0)
            continue;
        row_cells(s, &recs[g], cells, strength);
        for (int i = 0; i < ncol; i++)
            if ((int)strlen(cells[i]) > width[i])
                width[i] = (int)strlen(cells[i]);
    }
    bool md = format == TRAIN_REPORT_MARKDOWN;
    for (int i = 0; i < ncol; i++) {
        if (md)
            fprintf(f, "| %s ", header[i]);
        else
            fprintf(f, "%-*s  ", width[i], header[i]);
    }
    fprintf(f, md ? "|\n" : "\n");
    if (md) {
        for (int i = 0; i < ncol; i++)
            fprintf(f, "|%s", i == 0 || (i >= 1 && i <= 3) || i == 6 || i == 8 ? "---:" : "---");
        fprintf(f, "|\n");
    }
    for (int g = 0; g < n; g++) {
        if (recs[g].generation < 0)
            continue;
        row_cells(s, &recs[g], cells, strength);
        for (int i = 0; i < ncol; i++) {
            if (md)
                fprintf(f, "| %s ", cells[i]);
            else if (i == 0 || (i >= 1 && i <= 3) || i == 6 || i == 8)
                fprintf(f, "%*s  ", width[i], cells[i]);
            else
                fprintf(f, "%-*s  ", width[i], cells[i]);
        }
        fprintf(f, md ? "|\n" : "\n");
    }
}

void train_report_provenance(FILE *f, const char *dir, const TrainSettings *s, const TrainRecord *recs, int n)
{
    char e[128];
    fprintf(f, "; Produced by xqlab train (docs/training.md) in the run folder %s:\n", dir);
    fprintf(f, ";   %s\n", s->command);
    fprintf(f, "; created %s by xqlab %s; %" PRIu64 " self-play games per generation, tune on the last %ld "
               "generation(s)%s%s%s,\n", s->created, s->version, s->games, s->window, s->tune[0] ? " with '" : "",
            s->tune, s->tune[0] ? "'" : "");
    fprintf(f, "; gate: SPRT %s (at most %" PRIu64 " games, no verdict before %ld pairs) against the weights in "
               "force%s%s%s.\n", s->sprt, s->gate_games, s->sprt_min_pairs, s->gate_set[0] ? ", gate search " : "",
            s->gate_set, s->gate_openings[0] ? ", openings from the book" : "");
    fprintf(f, "; Starting weights: %s. Generations (tuned on games / positions, loss train and validation,\n"
               "; gate Elo of the candidate against the weights in force with its 95%% interval, verdict):\n",
            s->start);
    long last = 0;
    for (int g = 1; g < n; g++) {
        const TrainRecord *r = &recs[g];
        if (r->generation < 0)
            continue;
        elo_interval(r->gate_elo, r->gate_elo_low, r->gate_elo_high, e, sizeof e);
        fprintf(f, ";   %ld: %" PRIu64 " / %" PRIu64 ", train %.4f -> %.4f, validation %.4f -> %.4f, %" PRIu64
                   " games %s, %s%s\n", r->generation, r->tune_games, r->tune_positions, r->loss_train_start,
                r->loss_train, r->loss_validation_start, r->loss_validation, r->gate_games, e, r->gate_verdict,
                r->promoted ? " (promoted)" : "");
        last = r->in_force;
        if (r->strength && r->strength_of == r->generation) {
            elo_interval(r->strength_elo, r->strength_elo_low, r->strength_elo_high, e, sizeof e);
            fprintf(f, ";      against the outside engine: %.1f%% of %" PRIu64 " games, Elo %s\n", 100 * r->strength_score,
                    r->strength_games, e);
        }
    }
    if (last == 0)
        fprintf(f, "; These are the weights in force after the last generation: the starting weights (no candidate "
                   "was promoted).\n");
    else
        fprintf(f, "; These are the weights in force after the last generation: the candidate of generation %ld.\n",
                last);
}
