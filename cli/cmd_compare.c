/* cmd_compare.c - `xqlab compare A.h5... -- B.h5...` and `xqlab compare --play A.ini B.ini -n N`:
 * did a rule change move the first mover's score or the draw rate? Every differing line of the
 * rule texts, refusals when the evaluation or search settings differ, differences with 95%
 * intervals and p-values, what the games can resolve, and a verdict. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "balance.h"
#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "driver.h"
#include "hidden.h"
#include "output.h"
#include "search_options.h"
#include "seat.h"
#include "text_diff.h"
#include "weights.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab compare A.h5... -- B.h5... [options]\n"
        "       xqlab compare --play A.ini B.ini [-n GAMES] [play options] [options]\n\n"
        "Compares two sets of games: the same run before (A) and after (B) a rule change. Each\n"
        "side is one or many shards that must belong together. The command prints every line\n"
        "in which the two rule texts differ (comments and blank lines aside) and refuses when\n"
        "the search settings and budgets (params_text) or the evaluation (the weights of the\n"
        "features both rule sets have) differ, since the difference would then mix a rule\n"
        "change with a player change; --allow-different-settings compares anyway, with a\n"
        "warning on stderr and in the output. A file on both sides is refused, and so are two\n"
        "sides that hold the same games (same rules, settings, weights and seeds).\n\n"
        "For the first mover's score (win/draw/loss) and the draw rate it prints A, B, the\n"
        "difference B - A with its 95%% interval and the p-value of a two-sample z test; for\n"
        "hidden-piece rule sets also the red-colour score and, with paired deals, the pair score;\n"
        "the smallest differences these games detect (5%% two-sided test, 80%% power) and a\n"
        "verdict: whether the data tell A and B apart, and if not, about how many games per side\n"
        "a difference of the observed size would need.\n\n"
        "--play plays both rule sets first, with the same seeds (game i of each side from\n"
        "(seed, i)), search settings and weights (the nearest shipped weights file of A, which\n"
        "must apply to B too, or --weights), then compares them.\n\n"
        "options:\n"
        "  --allow-different-settings  compare although settings or evaluation differ (warns)\n"
        "  --markdown   Markdown tables instead of text\n"
        "  --json       one JSON object\n"
        "  --plots DIR  also write DIR/compare.png (rates with intervals, legend names the sides)\n"
        ANALYSIS_PLOT_USAGE
        "play options (--play):\n"
        "  -n, --games N        games per side (default 200)\n"
        "      --seed S         base seed of both sides (default 1)\n"
        "      --preset NAME    run preset (quick, standard, strong, ab or a file)\n"
        "      --playouts P     playouts per move\n"
        "      --set KEY=VALUE  any search parameter, repeatable\n"
        "      --weights FILE   weights of both sides; 'none': piece values only\n"
        "      --paired-deals   hidden-piece rule sets: seat-swapped deal pairs (as in selfplay)\n"
        "  -t, --threads T      worker threads (default: all cores)\n"
        "  -o, --output DIR     also write DIR/a.h5 and DIR/b.h5 (replaced only with --force)\n"
        "      --progress MODE  live, log or quiet (default: quiet)\n"
        "  -h, --help\n\n"
        "Exit status: 0 (also when A and B cannot be told apart), 1 if a file is missing,\n"
        "damaged, does not belong with its side, or the sides differ in settings or evaluation\n"
        "(without --allow-different-settings), 2 on a usage error. Walk-through: docs/analysis.md.\n");
}

enum { MAX_DIFF_LINES = 200, DIFF_LINE_MAX = 200 };

/* Lines in which two texts differ, as text_diff reports them. */
typedef struct DiffLines {
    int count;                   /* all differing lines (also those past MAX_DIFF_LINES) */
    int kept;
    char side[MAX_DIFF_LINES];
    int line[MAX_DIFF_LINES];
    char text[MAX_DIFF_LINES][DIFF_LINE_MAX];
} DiffLines;

static void diff_emit(void *ctx, char side, int line, const char *text, size_t len)
{
    DiffLines *d = ctx;
    d->count++;
    if (d->kept == MAX_DIFF_LINES)
        return;
    d->side[d->kept] = side;
    d->line[d->kept] = line;
    snprintf(d->text[d->kept], DIFF_LINE_MAX, "%.*s", (int)(len < DIFF_LINE_MAX - 1 ? len : DIFF_LINE_MAX - 1), text);
    d->kept++;
}

/* One side of the comparison, from datasets or from games played here. */
typedef struct CompareSide {
    char label;                  /* 'A' or 'B' */
    const Variant *v;            /* borrowed from set or own_v */
    const char *variant_text, *params_text, *weights_text;
    char source[2048];           /* the files, or the variant file played */
    uint64_t base_seed;
    uint64_t first_game, last_game;  /* game range of the files (for "the same games") */
    Wdl first;                   /* the first mover's results */
    HiddenTally hidden;
    ResultSummary r;
    double mean_length;
    /* Storage. */
    ShardSet set;
    BalanceCard card;
    bool have_set, have_card;
    Variant *own_v;
    RunTotals totals;
    char *own_weights_text;
    char own_params_text[8192];
} CompareSide;

static int load_files(CompareSide *s, char **paths, int n)
{
    char cmd[32];
    snprintf(cmd, sizeof cmd, "compare (%c)", s->label);
    int status = analysis_open(cmd, &s->set, paths, n);
    if (status != EXIT_OK)
        return status;
    s->have_set = true;
    if (balance_init(&s->card, s->set.variant) < 0)
        return cli_error(EXIT_FAILURE_RUN, cmd, "out of memory");
    s->have_card = true;
    XqError err;
    for (uint64_t k = 0; k < s->set.ngames; k++) {
        GameRecord g;
        if (shards_read_game(&s->set, k, &g, &err) < 0)
            return cli_report(cmd, &err);
        int rc = balance_add_game(&s->card, &g, &err);
        game_record_free(&g);
        if (rc < 0) {
            snprintf(err.file, sizeof err.file, "%s", shards_path_of(&s->set, k));
            return cli_report(cmd, &err);
        }
    }
    BalanceSummary sum;
    if (balance_summarise(&s->card, &sum) < 0)
        return cli_error(EXIT_FAILURE_RUN, cmd, "out of memory");
    const DatasetSummary *ds = shards_summary(&s->set, 0);
    s->v = s->set.variant;
    s->variant_text = ds->variant_text ? ds->variant_text : "";
    s->params_text = ds->params_text ? ds->params_text : "";
    s->weights_text = ds->weights_text ? ds->weights_text : "";
    s->base_seed = ds->base_seed;
    s->first_game = UINT64_MAX;
    for (int i = 0; i < s->set.count; i++) {
        const DatasetSummary *d = shards_summary(&s->set, i);
        if (d->first_game < s->first_game)
            s->first_game = d->first_game;
        if (d->first_game + d->game_count > s->last_game)
            s->last_game = d->first_game + d->game_count;
    }
    s->first = s->card.red;
    s->hidden = s->card.hidden;
    s->r = sum.r;
    s->mean_length = sum.mean_length;
    size_t used = 0;
    for (int k = 0; k < s->set.count && used < sizeof s->source; k++)
        used += (size_t)snprintf(s->source + used, sizeof s->source - used, "%s%s", k ? ", " : "", s->set.paths[k]);
    return EXIT_OK;
}

static void free_side(CompareSide *s)
{
    if (s->have_card)
        balance_free(&s->card);
    if (s->have_set)
        shards_close(&s->set);
    totals_free(&s->totals);
    free(s->own_weights_text);
    variant_free(s->own_v);
}

/* ---- what differs ---- */

typedef struct Differences {
    DiffLines rules;             /* variant texts, comments and blank lines aside */
    int comment_lines;           /* lines that differ only when comments count */
    DiffLines settings;          /* params_text */
    int eval_shared;             /* features both rule sets have */
    int eval_differ;             /* ... whose weights differ */
    char eval_text[1024];        /* "material.chariot 9 vs 7.57, ..." */
    char weights_a[1200], weights_b[1200];
    bool settings_differ, evaluation_differ;
} Differences;

/* The effective weights of both sides on the features both rule sets have. */
static int evaluation_difference(const CompareSide *a, const CompareSide *b, Differences *d)
{
    XqError err;
    Evaluator *ea = eval_create(a->v, NULL, &err), *eb = ea ? eval_create(b->v, NULL, &err) : NULL;
    double wa[EVAL_MAX_FEATURES], wb[EVAL_MAX_FEATURES];
    int status = EXIT_OK;
    if (!ea || !eb || weights_effective(ea, a->weights_text, "weights text of A", wa, &err) != 0 ||
        weights_effective(eb, b->weights_text, "weights text of B", wb, &err) != 0) {
        status = cli_report("compare", &err);
    } else {
        size_t used = 0;
        for (int i = 0; i < eval_feature_count(ea); i++)
            for (int j = 0; j < eval_feature_count(eb); j++) {
                if (strcmp(eval_feature_name(ea, i), eval_feature_name(eb, j)) != 0)
                    continue;
                d->eval_shared++;
                if (wa[i] != wb[j]) {
                    d->eval_differ++;
                    if (used < sizeof d->eval_text - 80)
                        used += (size_t)snprintf(d->eval_text + used, sizeof d->eval_text - used, "%s%s %g vs %g",
                                                 used ? ", " : "", eval_feature_name(ea, i), wa[i], wb[j]);
                }
                break;
            }
        d->evaluation_differ = d->eval_differ > 0;
    }
    eval_free(ea);
    eval_free(eb);
    return status;
}

static int differences(const CompareSide *a, const CompareSide *b, Differences *d)
{
    memset(d, 0, sizeof *d);
    DiffLines all;
    memset(&all, 0, sizeof all);
    if (text_diff(a->variant_text, b->variant_text, true, diff_emit, &d->rules) < 0 ||
        text_diff(a->variant_text, b->variant_text, false, diff_emit, &all) < 0 ||
        text_diff(a->params_text, b->params_text, false, diff_emit, &d->settings) < 0)
        return cli_error(EXIT_FAILURE_RUN, "compare", "out of memory");
    d->comment_lines = all.count - d->rules.count;
    d->settings_differ = d->settings.count > 0;
    cli_weights_identify(a->weights_text, d->weights_a, sizeof d->weights_a);
    cli_weights_identify(b->weights_text, d->weights_b, sizeof d->weights_b);
    return evaluation_difference(a, b, d);
}

/* A file on both sides, or the same games twice. */
static int refuse_same(const CompareSide *a, const CompareSide *b, const Differences *d)
{
    for (int i = 0; a->have_set && i < a->set.count; i++)
        for (int j = 0; j < b->set.count; j++) {
            struct stat sa, sb;
            if (stat(a->set.paths[i], &sa) == 0 && stat(b->set.paths[j], &sb) == 0 && sa.st_dev == sb.st_dev &&
                sa.st_ino == sb.st_ino)
                return cli_error(EXIT_FAILURE_RUN, "compare", "%s%s%s is on both sides: a file compared with itself "
                                 "(give the runs of the two rule sets: A.h5... -- B.h5...)", a->set.paths[i],
                                 strcmp(a->set.paths[i], b->set.paths[j]) ? " = " : "",
                                 strcmp(a->set.paths[i], b->set.paths[j]) ? b->set.paths[j] : "");
        }
    bool same_everything = d->rules.count == 0 && !d->settings_differ && !strcmp(a->weights_text, b->weights_text);
    if (same_everything && a->base_seed == b->base_seed && a->first_game < b->last_game &&
        b->first_game < a->last_game)
        return cli_error(EXIT_FAILURE_RUN, "compare", "A and B hold the same games (same rules, search settings, "
                         "weights and base seed %" PRIu64 ", overlapping games): nothing to compare", a->base_seed);
    return EXIT_OK;
}

/* ---- the comparison ---- */

typedef struct Comparison {
    ScoreDiff score, draws, colour, pairs;
    bool hidden;                 /* a side's colours are assigned in the game: results by seat */
    bool with_colour, with_pairs;
    double games_needed;         /* per side, for the observed score difference (0: no difference) */
    double draw_games_needed;    /* ... for the observed draw-rate difference */
    double detect_score;         /* smallest score difference these games detect (5%, 80% power) */
    double detect_draws;         /* ... draw-rate difference */
    bool apart;
    char verdict[640];
} Comparison;

/* The smallest difference two samples of na and nb games with per-game variances va and vb
 * detect with a two-sided 5% test and 80% power. */
static double detectable(double va, uint64_t na, double vb, uint64_t nb)
{
    if (!na || !nb)
        return 1;
    return (STATS_Z95 + 0.8416212335729143) * sqrt(va / (double)na + vb / (double)nb);
}

static void compare(const CompareSide *a, const CompareSide *b, Comparison *c)
{
    memset(c, 0, sizeof *c);
    c->score = stats_score_diff(&a->first, &b->first);
    uint64_t na = wdl_games(&a->first), nb = wdl_games(&b->first);
    c->draws = stats_proportion_diff(a->first.draws, na, b->first.draws, nb);
    c->hidden = variant_assigns_colours(a->v) || variant_assigns_colours(b->v);
    c->with_colour = c->hidden && a->r.colour_games && b->r.colour_games;
    if (c->with_colour)
        c->colour = stats_score_diff(&a->hidden.red_colour, &b->hidden.red_colour);
    c->with_pairs = a->r.pairs && b->r.pairs;
    if (c->with_pairs)
        c->pairs = stats_pairs_diff(a->hidden.pentanomial, b->hidden.pentanomial);
    double va = wdl_score_variance(&a->first), vb = wdl_score_variance(&b->first);
    c->games_needed = stats_games_needed(c->score.diff, va, vb);
    c->detect_score = detectable(va, na, vb, nb);
    double da = a->r.draws.mean, db = b->r.draws.mean;
    c->detect_draws = detectable(da * (1 - da), na, db * (1 - db), nb);
    c->draw_games_needed = stats_games_needed(c->draws.diff, da * (1 - da), db * (1 - db));
    c->apart = (na && nb) && (c->score.p < 0.05 || c->draws.p < 0.05);
    const char *score_name = c->hidden ? "first mover's score" : "red score";
    if (!na || !nb) {
        snprintf(c->verdict, sizeof c->verdict, "verdict: no games on one side: nothing to compare");
    } else if (c->score.p < 0.05 && c->draws.p < 0.05) {
        snprintf(c->verdict, sizeof c->verdict,
                 "verdict: the data tell A and B apart: B moves the %s by %+.1f points (p = %.3g) and the draw rate "
                 "by %+.1f points (p = %.3g)", score_name, 100 * c->score.diff, c->score.p, 100 * c->draws.diff,
                 c->draws.p);
    } else if (c->apart) {
        bool by_score = c->score.p < 0.05;
        snprintf(c->verdict, sizeof c->verdict,
                 "verdict: the data tell A and B apart by the %s (%+.1f points, p = %.3g); the %s does not differ "
                 "significantly (%+.1f points, p = %.3g)", by_score ? score_name : "draw rate",
                 100 * (by_score ? c->score.diff : c->draws.diff), by_score ? c->score.p : c->draws.p,
                 by_score ? "draw rate" : score_name, 100 * (by_score ? c->draws.diff : c->score.diff),
                 by_score ? c->draws.p : c->score.p);
    } else {
        /* Neither differs significantly: what the observed differences would cost to establish. */
        char g1[32], g2[32];
        size_t used = (size_t)snprintf(c->verdict, sizeof c->verdict,
                                       "verdict: the data cannot tell A and B apart (score p = %.3g, draw rate p = "
                                       "%.3g)", c->score.p, c->draws.p);
        if (c->score.diff != 0 && used < sizeof c->verdict)
            used += (size_t)snprintf(c->verdict + used, sizeof c->verdict - used, "; a score difference of %.1f "
                                     "points would need about %s games per side", 100 * fabs(c->score.diff),
                                     results_count_text(ceil(c->games_needed), g1, sizeof g1));
        if (c->draws.diff != 0 && used < sizeof c->verdict)
            snprintf(c->verdict + used, sizeof c->verdict - used, "%s a draw-rate difference of %.1f points about %s",
                     c->score.diff != 0 ? "," : ";", 100 * fabs(c->draws.diff),
                     results_count_text(ceil(c->draw_games_needed), g2, sizeof g2));
    }
}

/* ---- output ---- */

static void json_diff_lines(FILE *out, const DiffLines *d)
{
    fprintf(out, "[");
    for (int i = 0; i < d->kept; i++) {
        fprintf(out, "%s{\"side\": \"%c\", \"line\": %d, \"text\": ", i ? ", " : "", d->side[i] == '-' ? 'A' : 'B',
                d->line[i]);
        json_string(out, d->text[i]);
        fprintf(out, "}");
    }
    fprintf(out, "]");
}

static void json_side(FILE *out, const CompareSide *s)
{
    fprintf(out, "\"%c\": {\"variant\": ", s->label == 'A' ? 'a' : 'b');
    json_string(out, s->v->name);
    fprintf(out, ", \"source\": ");
    json_string(out, s->source);
    fprintf(out, ", \"games\": %" PRIu64 ", ", s->r.games);
    analysis_json_results(out, &s->first, &s->hidden, &s->r);
    fprintf(out, ", \"mean_length\": ");
    json_number(out, s->mean_length);
    fprintf(out, "}");
}

static void json_diff(FILE *out, const char *name, const ScoreDiff *d)
{
    fprintf(out, "\"%s\": {\"a\": ", name);
    json_number(out, d->a);
    fprintf(out, ", \"b\": ");
    json_number(out, d->b);
    fprintf(out, ", \"diff\": ");
    json_number(out, d->diff);
    fprintf(out, ", \"ci95\": [");
    json_number(out, d->lo);
    fprintf(out, ", ");
    json_number(out, d->hi);
    fprintf(out, "], \"z\": ");
    json_number(out, d->z);
    fprintf(out, ", \"p\": ");
    json_number(out, d->p);
    fprintf(out, "}");
}

static void print_json(FILE *out, const CompareSide *a, const CompareSide *b, const Differences *d, const Comparison *c,
                       bool allowed)
{
    fprintf(out, "{\"kind\": \"compare\", \"hidden_pieces\": %s, \"colours_assigned_in_game\": %s, ",
            a->r.hidden || b->r.hidden ? "true" : "false", c->hidden ? "true" : "false");
    json_side(out, a);
    fprintf(out, ", ");
    json_side(out, b);
    fprintf(out, ", \"rule_lines_differ\": %d, \"rule_diff\": ", d->rules.count);
    json_diff_lines(out, &d->rules);
    fprintf(out, ", \"comment_lines_differ\": %d, \"settings_differ\": %s, \"settings_diff\": ", d->comment_lines,
            d->settings_differ ? "true" : "false");
    json_diff_lines(out, &d->settings);
    fprintf(out, ", \"evaluation_differs\": %s, \"evaluation_shared_features\": %d, \"evaluation_diff\": ",
            d->evaluation_differ ? "true" : "false", d->eval_shared);
    json_string(out, d->eval_text);
    fprintf(out, ", \"weights_a\": ");
    json_string(out, d->weights_a);
    fprintf(out, ", \"weights_b\": ");
    json_string(out, d->weights_b);
    fprintf(out, ", \"allowed_different_settings\": %s, ", allowed ? "true" : "false");
    json_diff(out, "red_score", &c->score);
    fprintf(out, ", ");
    json_diff(out, "draw_rate", &c->draws);
    if (c->with_colour) {
        fprintf(out, ", ");
        json_diff(out, "red_colour_score", &c->colour);
    }
    if (c->with_pairs) {
        fprintf(out, ", ");
        json_diff(out, "pair_score", &c->pairs);
    }
    fprintf(out, ", \"distinguishable\": %s, \"games_needed_per_side\": ", c->apart ? "true" : "false");
    json_number(out, ceil(c->games_needed));
    fprintf(out, ", \"draw_games_needed_per_side\": ");
    json_number(out, ceil(c->draw_games_needed));
    fprintf(out, ", \"detectable_score_difference\": ");
    json_number(out, c->detect_score);
    fprintf(out, ", \"detectable_draw_rate_difference\": ");
    json_number(out, c->detect_draws);
    fprintf(out, ", \"verdict\": ");
    json_string(out, c->verdict + strlen("verdict: "));
    fprintf(out, "}\n");
}

static void print_diff_lines(FILE *out, const DiffLines *d, bool md)
{
    for (int i = 0; i < d->kept; i++) {
        if (md) {
            fprintf(out, "    %c line %-4d %s\n", d->side[i] == '-' ? 'A' : 'B', d->line[i], d->text[i]);
        } else {
            fprintf(out, "             %c line %-4d %s\n", d->side[i] == '-' ? 'A' : 'B', d->line[i], d->text[i]);
        }
    }
    if (d->count > d->kept)
        fprintf(out, "%s(%d more lines)\n", md ? "    " : "             ", d->count - d->kept);
}

static void print_text(FILE *out, const CompareSide *a, const CompareSide *b, const Differences *d, const Comparison *c, bool md,
                       bool allowed)
{
    const CompareSide *sides[2] = {a, b};
    fprintf(out, "%sA/B comparison\n\n", md ? "# " : "");
    for (int i = 0; i < 2; i++) {
        const CompareSide *s = sides[i];
        fprintf(out, "%s%c  %s, %" PRIu64 " games (%s)\n", md ? "- " : "", s->label, s->v->name, s->r.games, s->source);
    }
    fprintf(out, "\n%s", md ? "- rules: " : "rules        ");
    int in_a = 0;
    for (int i = 0; i < d->rules.kept; i++)
        in_a += d->rules.side[i] == '-';
    if (d->rules.count)
        fprintf(out, "%d line%s of A, %d of B differ (comments and blank lines aside):\n%s", in_a,
                in_a == 1 ? "" : "s", d->rules.kept - in_a, md ? "\n```\n" : "");
    else
        fprintf(out, "the same%s\n", d->comment_lines ? " (the texts differ only in comments and blank lines)" : "");
    print_diff_lines(out, &d->rules, md);
    if (d->rules.count && md)
        fprintf(out, "```\n\n");
    fprintf(out, "%s", md ? "- settings: " : "settings     ");
    if (d->settings_differ) {
        fprintf(out, "DIFFERENT search settings or budgets in %d line%s:\n%s", d->settings.count,
                d->settings.count == 1 ? "" : "s", md ? "\n```\n" : "");
        print_diff_lines(out, &d->settings, md);
        if (md)
            fprintf(out, "```\n\n");
    } else {
        fprintf(out, "the same search settings and budgets\n");
    }
    fprintf(out, "%s", md ? "- evaluation: " : "evaluation   ");
    if (d->evaluation_differ)
        fprintf(out, "DIFFERENT weights on %d of the %d features both rule sets have: %s (A: %s; B: %s)\n",
                d->eval_differ, d->eval_shared, d->eval_text, d->weights_a, d->weights_b);
    else
        fprintf(out, "the same weights on the %d features both rule sets have (A: %s; B: %s)\n", d->eval_shared,
                d->weights_a, d->weights_b);
    if (allowed && (d->settings_differ || d->evaluation_differ))
        fprintf(out, "\n%sWARNING: --allow-different-settings: the %s differ, so B - A below %s%s\n", md ? "**" : "",
                d->settings_differ && d->evaluation_differ ? "search settings and the evaluation"
                : d->settings_differ ? "search settings" : "evaluations",
                d->rules.count ? "mixes the rule change with a change of the player"
                               : "measures a change of the player, not of the rules", md ? "**" : "");
    fprintf(out, "\n");
    if (md)
        fprintf(out, "| measure | A | B | B - A | 95%% CI | p |\n|---|---:|---:|---:|---:|---:|\n");
    else
        fprintf(out, "%-20s %8s %8s %9s   %-20s %8s\n", "", "A", "B", "B - A", "95% CI", "p");
    const ScoreDiff *rows[4] = {&c->score, &c->draws, c->with_colour ? &c->colour : NULL,
                                c->with_pairs ? &c->pairs : NULL};
    const char *names[4] = {c->hidden ? "first mover's score" : "red score", "draw rate", "red-colour score",
                            "pair score"};
    for (int i = 0; i < 4; i++) {
        if (!rows[i])
            continue;
        char ci[64];
        snprintf(ci, sizeof ci, "%+.1f .. %+.1f", 100 * rows[i]->lo, 100 * rows[i]->hi);
        fprintf(out, md ? "| %s | %.1f%% | %.1f%% | %+.1f | %s | %.3g |\n" : "%-20s %7.1f%% %7.1f%% %+9.1f   %-20s %8.3g\n",
                names[i], 100 * rows[i]->a, 100 * rows[i]->b, 100 * rows[i]->diff, ci, rows[i]->p);
    }
    fprintf(out, md ? "| %s | %.1f | %.1f | %+.1f | | |\n" : "%-20s %8.1f %8.1f %+9.1f\n", "mean length",
            a->mean_length, b->mean_length, b->mean_length - a->mean_length);
    fprintf(out, "\n(differences in percentage points)\n%s\n", c->verdict);
    fprintf(out, "resolution: with %" PRIu64 " and %" PRIu64 " games, differences of about %.1f points in the score "
            "and %.1f points in the draw rate are detected (5%% two-sided test, 80%% power)\n", a->r.games, b->r.games,
            100 * c->detect_score, 100 * c->detect_draws);
}

/* ---- --play ---- */

typedef struct PlayOptions {
    long games, threads;
    uint64_t seed;
    const char *preset, *weights, *out_dir, *progress;
    const char *sets[64];
    int nsets;
    long playouts;
    bool paired_deals;
    CliOutput out[2];            /* -o DIR: DIR/a.h5, DIR/b.h5, claimed before the games */
} PlayOptions;

static int play_side(CompareSide *s, const char *variant_path, const SearchParams *params, const WeightsChoice *choice,
                     const PlayOptions *po, const char *out, const char *command_line)
{
    char cmd[32];
    snprintf(cmd, sizeof cmd, "compare --play (%c)", s->label);
    s->own_v = cli_load_variant(variant_path);
    if (!s->own_v)
        return EXIT_FAILURE_RUN;
    s->v = s->own_v;
    if (po->paired_deals && !hidden_on(s->v))
        return cli_error(EXIT_USAGE, cmd, "--paired-deals needs a rule set with face-down pieces, not %s", s->v->name);
    XqError err;
    Evaluator *bare = eval_create(s->v, NULL, &err);
    if (!bare)
        return cli_report(cmd, &err);
    WeightsFit fit = {0};
    int rc = choice->path[0] ? weights_fit(bare, choice->path, &fit, &err) : 0;
    eval_free(bare);
    if (rc != 0)
        return cli_report(cmd, &err);
    if (choice->path[0] && !weights_fit_applies(&fit))
        return cli_error(EXIT_FAILURE_RUN, cmd, "the weights %s (chosen for A) name features %s does not have: %s; "
                         "both sides play with the same weights: give --weights FILE naming only features both rule "
                         "sets have, or --weights none", choice->path, s->v->name, fit.unknown);
    Evaluator *e = eval_create(s->v, choice->path[0] ? choice->path : NULL, &err);
    if (!e)
        return cli_report(cmd, &err);
    s->own_weights_text = cli_weights_text(cmd, choice);
    if (!s->own_weights_text) {
        eval_free(e);
        return EXIT_FAILURE_RUN;
    }
    SelfplayOptions o = SELFPLAY_OPTIONS_INIT;
    o.variant = s->v;
    o.eval = e;
    o.params = params;
    o.seed = po->seed;
    o.games = (uint64_t)po->games;
    o.threads = (int)po->threads;
    o.out_path = out;
    o.weights_text = s->own_weights_text;
    o.command_line = command_line;
    o.paired_deals = po->paired_deals;
    o.stop = cli_stop_flag();
    o.progress = !strcmp(po->progress, "live") ? PROGRESS_LIVE : !strcmp(po->progress, "log") ? PROGRESS_LOG
                                                                                              : PROGRESS_QUIET;
    SelfplayReport report;
    memset(&report, 0, sizeof report);
    cli_stop_signals_catch();
    rc = selfplay_run(&o, &s->totals, &report, &err);
    cli_stop_signals_release();
    eval_free(e);
    if (rc < 0)
        return cli_report(cmd, &err);
    if (report.interrupted)
        return cli_error(130, cmd, "interrupted after %llu of %ld games", (unsigned long long)report.played, po->games);
    cli_warn_arena(cmd, NULL, report.truncated_searches, params->arena_nodes, "--set arena_nodes=N");
    if (!strcmp(po->progress, "quiet"))
        fprintf(stderr, "xqlab compare: %c (%s): %ld games in %.1f s\n", s->label, s->v->name, po->games,
                report.wall_seconds);
    s->variant_text = s->v->text ? s->v->text : "";
    params_write(params, s->own_params_text, sizeof s->own_params_text);
    s->params_text = s->own_params_text;
    s->weights_text = s->own_weights_text;
    s->base_seed = po->seed;
    s->first_game = 0;
    s->last_game = (uint64_t)po->games;
    s->first = (Wdl){s->totals.red_wins, s->totals.draws, s->totals.black_wins};
    s->hidden = s->totals.hidden;
    results_summarise(&s->first, &s->hidden, &s->r);
    s->mean_length = s->totals.games ? (double)s->totals.plies_sum / (double)s->totals.games : 0;
    snprintf(s->source, sizeof s->source, "%s played%s%s", variant_path, out ? " into " : "", out ? out : "");
    return EXIT_OK;
}

/* Plays both rule sets with the same seeds, settings and weights. */
static int play_both(CompareSide *a, CompareSide *b, const char *path_a, const char *path_b, PlayOptions *po,
                     const PlotOptions *plot, int argc, char **argv)
{
    struct stat sa, sb;
    if (stat(path_a, &sa) == 0 && stat(path_b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
        return cli_error(EXIT_USAGE, "compare", "--play %s %s: the same file on both sides (a rule set compared with "
                         "itself)", path_a, path_b);
    SearchParams params;
    params_default(&params);
    int status;
    if ((po->preset && (status = cli_load_preset("compare", po->preset, &params)) != EXIT_OK) ||
        (status = cli_apply_sets("compare", po->sets, po->nsets, &params)) != EXIT_OK)
        return status;
    if (po->playouts > 0)
        params.playouts = (int)po->playouts;
    /* The weights: --weights, else the nearest shipped file of A; B must take the same. */
    Variant *va = cli_load_variant(path_a);
    if (!va)
        return EXIT_FAILURE_RUN;
    Variant *vb = cli_load_variant(path_b);
    if (!vb) {
        variant_free(va);
        return EXIT_FAILURE_RUN;
    }
    DiffLines rules;
    memset(&rules, 0, sizeof rules);
    int nrules = text_diff(va->text, vb->text, true, diff_emit, &rules);
    variant_free(vb);
    if (nrules == 0) {
        variant_free(va);
        return cli_error(EXIT_USAGE, "compare", "--play %s %s: the two files hold the same rules (they differ at most "
                         "in comments): both sides would play the same games", path_a, path_b);
    }
    WeightsChoice choice;
    Evaluator *ea = cli_weights_load("compare", va, po->weights, cli_weights_use(&params), &choice);
    variant_free(va);
    if (!ea)
        return EXIT_FAILURE_RUN;
    eval_free(ea);
    if (po->out_dir) {
        if ((status = cli_output_folder("compare", "-o", po->out_dir)) != EXIT_OK)
            return status;
        for (int i = 0; i < 2; i++) {
            char file[PATH_MAX];
            snprintf(file, sizeof file, "%s/%c.h5", po->out_dir, 'a' + i);
            const char *inputs[3] = {path_a, path_b, choice.path};
            if ((status = cli_output_claim(&po->out[i], "compare", "-o", file, plot->force ? CLI_OUTPUT_FORCE : 0,
                                           inputs, choice.path[0] ? 3 : 2)) != EXIT_OK)
                return status;
        }
    }
    static const char *const PLOTS[] = {"compare.png", NULL};
    if ((status = analysis_plot_precheck("compare", plot, PLOTS)) != EXIT_OK)
        return status;
    char command_line[2048];
    analysis_command_line(argc, argv, command_line, sizeof command_line);
    status = play_side(a, path_a, &params, &choice, po, po->out_dir ? po->out[0].path : NULL, command_line);
    if (status == EXIT_OK)
        status = play_side(b, path_b, &params, &choice, po, po->out_dir ? po->out[1].path : NULL, command_line);
    return status;
}

/* ---- the command ---- */

int cmd_compare(int argc, char **argv)
{
    OutputFormat format = FORMAT_TEXT;
    PlotOptions plot = PLOT_OPTIONS_INIT;
    PlayOptions po = {.games = 200, .seed = 1, .progress = "quiet", .out = {CLI_OUTPUT_INIT, CLI_OUTPUT_INIT}};
    char **paths[2];
    int npaths[2] = {0, 0}, side = 0;
    bool seen_separator = false, play = false, allow = false;
    paths[0] = calloc((size_t)argc, sizeof *paths[0]);
    paths[1] = calloc((size_t)argc, sizeof *paths[1]);
    int status = EXIT_OK;
    if (!paths[0] || !paths[1])
        status = cli_error(EXIT_FAILURE_RUN, "compare", "out of memory");
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i];
        bool bad = false, has = i + 1 < argc;
        if (cli_is_help(a)) {
            usage(stdout);
            free(paths[0]);
            free(paths[1]);
            return EXIT_OK;
        }
        if (!strcmp(a, "--")) {
            if (seen_separator)
                status = cli_error(EXIT_USAGE, "compare", "'--' given twice: use A.h5... -- B.h5...");
            seen_separator = true;
            side = 1;
        } else if (analysis_output_option("compare", argc, argv, &i, &format, &plot, &bad)) {
            if (bad)
                status = EXIT_USAGE;
        } else if (!strcmp(a, "--play")) {
            play = true;
        } else if (!strcmp(a, "--allow-different-settings")) {
            allow = true;
        } else if ((!strcmp(a, "-n") || !strcmp(a, "--games")) && has) {
            if (cli_parse_int("compare", "--games", argv[++i], 1, 100000000L, &po.games) < 0)
                status = EXIT_USAGE;
        } else if (!strcmp(a, "--seed") && has) {
            if (cli_parse_u64("compare", "--seed", argv[++i], &po.seed) < 0)
                status = EXIT_USAGE;
        } else if (!strcmp(a, "--preset") && has) {
            po.preset = argv[++i];
        } else if (!strcmp(a, "--playouts") && has) {
            if (cli_parse_int("compare", "--playouts", argv[++i], 1, 10000000, &po.playouts) < 0)
                status = EXIT_USAGE;
        } else if (!strcmp(a, "--set") && has) {
            if (po.nsets == 64)
                status = cli_error(EXIT_USAGE, "compare", "too many --set options");
            else
                po.sets[po.nsets++] = argv[++i];
        } else if (!strcmp(a, "--weights") && has) {
            po.weights = argv[++i];
        } else if (!strcmp(a, "--paired-deals")) {
            po.paired_deals = true;
        } else if ((!strcmp(a, "-t") || !strcmp(a, "--threads")) && has) {
            if (cli_parse_int("compare", "--threads", argv[++i], 1, 1024, &po.threads) < 0)
                status = EXIT_USAGE;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has) {
            po.out_dir = argv[++i];
        } else if (!strcmp(a, "--progress") && has) {
            po.progress = argv[++i];
            if (strcmp(po.progress, "live") && strcmp(po.progress, "log") && strcmp(po.progress, "quiet"))
                status = cli_error(EXIT_USAGE, "compare", "--progress expects live, log or quiet, not '%s'", po.progress);
        } else if (a[0] == '-' && a[1]) {
            status = cli_bad_option("compare", a, usage);
        } else {
            paths[side][npaths[side]++] = argv[i];
        }
    }
    if (status == EXIT_OK && play && (seen_separator || npaths[0] != 2))
        status = cli_error(EXIT_USAGE, "compare", "--play takes two variant files: xqlab compare --play A.ini B.ini -n N");
    if (status == EXIT_OK && !play && (!seen_separator || !npaths[0] || !npaths[1]))
        status = cli_error(EXIT_USAGE, "compare", "needs files on both sides: xqlab compare A.h5... -- B.h5... (or "
                           "--play A.ini B.ini)");
    if (status != EXIT_OK) {
        free(paths[0]);
        free(paths[1]);
        return status;
    }
    CompareSide *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    Differences *d = calloc(1, sizeof *d);
    if (!a || !b || !d) {
        status = cli_error(EXIT_FAILURE_RUN, "compare", "out of memory");
        goto cleanup;
    }
    a->label = 'A';
    b->label = 'B';
    if (play) {
        status = play_both(a, b, paths[0][0], paths[0][1], &po, &plot, argc, argv);
    } else {
        status = load_files(a, paths[0], npaths[0]);
        if (status == EXIT_OK)
            status = load_files(b, paths[1], npaths[1]);
    }
    if (status != EXIT_OK)
        goto cleanup;
    if ((status = differences(a, b, d)) != EXIT_OK || (status = refuse_same(a, b, d)) != EXIT_OK)
        goto cleanup;
    if ((d->settings_differ || d->evaluation_differ) && !allow && (!*a->params_text || !*b->params_text)) {
        status = cli_error(EXIT_FAILURE_RUN, "compare", "%s holds games without search settings (imported, not "
                           "played by xqlab): the two sides were played by different players; add "
                           "--allow-different-settings to compare them anyway", !*a->params_text ? "A" : "B");
        goto cleanup;
    }
    if ((d->settings_differ || d->evaluation_differ) && !allow) {
        char first[DIFF_LINE_MAX + 32] = "";
        if (d->settings_differ)
            snprintf(first, sizeof first, " (%c line %d: %s)", d->settings.side[0] == '-' ? 'A' : 'B',
                     d->settings.line[0], d->settings.text[0]);
        status = cli_error(EXIT_FAILURE_RUN, "compare", "A and B differ in %s%s%s%s: the difference would mix the rule "
                           "change with a change of the player; play both with the same settings and weights (xqlab "
                           "compare --play) or add --allow-different-settings", d->settings_differ ? "search settings"
                           : "", first, d->settings_differ && d->evaluation_differ ? " and in the evaluation: " :
                           d->evaluation_differ ? "the evaluation: " : "", d->evaluation_differ ? d->eval_text : "");
        goto cleanup;
    }
    if (allow && (d->settings_differ || d->evaluation_differ))
        fprintf(stderr, "xqlab compare: WARNING: %s%s%s differ between A and B (--allow-different-settings): the "
                "comparison %s\n", d->settings_differ ? "the search settings" : "",
                d->settings_differ && d->evaluation_differ ? " and " : "", d->evaluation_differ ? "the evaluation" : "",
                d->rules.count ? "mixes the rule change with a change of the player"
                               : "measures a change of the player, not of the rules");
    Comparison c;
    compare(a, b, &c);
    if (format == FORMAT_JSON)
        print_json(stdout, a, b, d, &c, allow);
    else
        print_text(stdout, a, b, d, &c, format == FORMAT_MARKDOWN, allow);
    if (plot.dir) {
        char *json = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&json, &len);
        if (!mem) {
            status = cli_error(EXIT_FAILURE_RUN, "compare", "out of memory");
            goto cleanup;
        }
        print_json(mem, a, b, d, &c, allow);
        fclose(mem);
        status = analysis_plot("compare", json, len, &plot);
        free(json);
    }
cleanup:
    cli_output_release(&po.out[0]);
    cli_output_release(&po.out[1]);
    if (a)
        free_side(a);
    if (b)
        free_side(b);
    free(a);
    free(b);
    free(d);
    free(paths[0]);
    free(paths[1]);
    return status;
}
