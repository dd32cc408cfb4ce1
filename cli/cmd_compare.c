/* cmd_compare.c - `xqlab compare A.h5... -- B.h5...`: did a rule or setting change move the first
 * mover's score or the draw rate? Differences with 95% intervals, p-values and a verdict. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "balance.h"
#include "commands.h"
#include "bad_option.h"
#include "common.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab compare A.h5... -- B.h5... [--markdown | --json] [--plots DIR]\n\n"
        "Compares two sets of games, typically the same run before (A) and after (B) a rule\n"
        "change (two variant files) or a setting change. Each side is one or many shards that\n"
        "must belong together; the command says what differs between A and B (variant text,\n"
        "search settings, weights: first differing line). Prints for Red's score and the draw\n"
        "rate: A, B, the difference B - A with its 95%% interval and the p-value of a two-sample\n"
        "z test (score: per-game variance of 1 / 0.5 / 0 results; draw rate: two-proportion\n"
        "test), the mean game length, and a verdict: whether the data tell A and B apart at the\n"
        "5%% level, and if not, about how many games per side a difference of the observed size\n"
        "would need (5%% two-sided test, 80%% power).\n\n"
        "  --markdown   Markdown table instead of text\n"
        "  --json       one JSON object\n"
        "  --plots DIR  also write DIR/compare.png (scores and draw rates with intervals)\n"
        "  --force      replace an existing DIR/compare.png\n"
        "  -h, --help\n\n"
        "Exit status: 0 (also when A and B cannot be told apart), 1 if a file is missing,\n"
        "damaged or does not belong with its side, 2 on a usage error.\n");
}

typedef struct Side {
    ShardSet set;
    BalanceCard card;
    BalanceSummary sum;
} SideData;

static int load_side(const char *label, char **paths, int n, SideData *s)
{
    memset(s, 0, sizeof *s);
    char cmd[32];
    snprintf(cmd, sizeof cmd, "compare (%s)", label);
    int status = analysis_open(cmd, &s->set, paths, n);
    if (status != EXIT_OK)
        return status;
    if (balance_init(&s->card, s->set.variant) < 0)
        return cli_error(EXIT_FAILURE_RUN, cmd, "out of memory");
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
    if (balance_summarise(&s->card, &s->sum) < 0)
        return cli_error(EXIT_FAILURE_RUN, cmd, "out of memory");
    return EXIT_OK;
}

static void free_side(SideData *s)
{
    balance_free(&s->card);
    shards_close(&s->set);
}

/* What differs between the two sides, in words. */
static void describe_difference(const SideData *a, const SideData *b, char *buf, size_t size)
{
    const DatasetSummary *sa = shards_summary(&a->set, 0), *sb = shards_summary(&b->set, 0);
    char diff[400];
    size_t used = 0;
    buf[0] = '\0';
    if (shards_text_difference(sa->variant_text ? sa->variant_text : "", sb->variant_text ? sb->variant_text : "", diff,
                               sizeof diff))
        used += (size_t)snprintf(buf + used, size - used, "rule set %s vs %s, variant text %s; ", sa->variant_name,
                                 sb->variant_name, diff);
    if (used < size &&
        shards_text_difference(sa->params_text ? sa->params_text : "", sb->params_text ? sb->params_text : "", diff,
                               sizeof diff))
        used += (size_t)snprintf(buf + used, size - used, "search settings %s; ", diff);
    if (used < size &&
        shards_text_difference(sa->weights_text ? sa->weights_text : "", sb->weights_text ? sb->weights_text : "",
                               diff, sizeof diff))
        used += (size_t)snprintf(buf + used, size - used, "weights %s; ", diff);
    if (!buf[0])
        snprintf(buf, size, "same rule set, search settings and weights (other seeds or runs)");
    else if (used >= 2 && used < size)
        buf[used - 2] = '\0';
}

typedef struct Comparison {
    ScoreDiff score, draws;
    double games_needed;       /* per side, for the observed score difference (0: no difference) */
    double detectable;         /* smallest score difference these sample sizes detect (80% power) */
    bool apart;
    char verdict[512];
} Comparison;

static void compare(const SideData *a, const SideData *b, Comparison *c)
{
    memset(c, 0, sizeof *c);
    c->score = stats_score_diff(&a->card.red, &b->card.red);
    uint64_t na = wdl_games(&a->card.red), nb = wdl_games(&b->card.red);
    c->draws = stats_proportion_diff(a->card.red.draws, na, b->card.red.draws, nb);
    double va = wdl_score_variance(&a->card.red), vb = wdl_score_variance(&b->card.red);
    c->games_needed = stats_games_needed(c->score.diff, va, vb);
    double n = (double)(na < nb ? na : nb);
    c->detectable = n > 0 ? (STATS_Z95 + 0.8416212335729143) * sqrt((va + vb) / n) : 1;
    c->apart = (na && nb) && (c->score.p < 0.05 || c->draws.p < 0.05);
    if (!na || !nb) {
        snprintf(c->verdict, sizeof c->verdict, "verdict: no games on one side: nothing to compare");
    } else if (c->score.p < 0.05 && c->draws.p < 0.05) {
        snprintf(c->verdict, sizeof c->verdict,
                 "verdict: the data tell A and B apart: B moves Red's score by %+.1f points (p = %.3g) and the "
                 "draw rate by %+.1f points (p = %.3g)", 100 * c->score.diff, c->score.p, 100 * c->draws.diff, c->draws.p);
    } else if (c->apart) {
        bool by_score = c->score.p < 0.05;
        snprintf(c->verdict, sizeof c->verdict,
                 "verdict: the data tell A and B apart by the %s (%+.1f points, p = %.3g); the %s does not differ "
                 "significantly (%+.1f points, p = %.3g)", by_score ? "red score" : "draw rate",
                 100 * (by_score ? c->score.diff : c->draws.diff), by_score ? c->score.p : c->draws.p,
                 by_score ? "draw rate" : "red score", 100 * (by_score ? c->draws.diff : c->score.diff),
                 by_score ? c->draws.p : c->score.p);
    } else if (c->score.diff == 0) {
        snprintf(c->verdict, sizeof c->verdict,
                 "verdict: the data cannot tell A and B apart (score p = %.3g, draw rate p = %.3g); these games "
                 "detect score differences of about %.1f points or more", c->score.p, c->draws.p, 100 * c->detectable);
    } else {
        double more = c->games_needed - n;
        snprintf(c->verdict, sizeof c->verdict,
                 "verdict: the data cannot tell A and B apart (score p = %.3g, draw rate p = %.3g); a score "
                 "difference of %.1f points would need about %.0f games per side (%.0f more)", c->score.p, c->draws.p,
                 100 * fabs(c->score.diff), ceil(c->games_needed), more > 0 ? ceil(more) : 0.0);
    }
}

static void json_side(FILE *out, const char *name, const SideData *s)
{
    fprintf(out, "\"%s\": {\"variant\": ", name);
    json_string(out, s->card.v->name);
    fprintf(out, ", \"files\": [");
    for (int i = 0; i < s->set.count; i++) {
        fprintf(out, "%s", i ? ", " : "");
        json_string(out, s->set.paths[i]);
    }
    fprintf(out, "], \"games\": %" PRIu64 ", \"red_wins\": %" PRIu64 ", \"draws\": %" PRIu64 ", \"black_wins\": %" PRIu64
            ", \"red_score\": ", s->sum.games, s->card.red.wins, s->card.red.draws, s->card.red.losses);
    json_number(out, s->sum.red_score);
    fprintf(out, ", \"red_score_ci95\": [");
    json_number(out, s->sum.score_lo);
    fprintf(out, ", ");
    json_number(out, s->sum.score_hi);
    double lo, hi;
    wilson_interval((double)s->card.red.draws, (double)s->sum.games, STATS_Z95, &lo, &hi);
    fprintf(out, "], \"draw_rate\": ");
    json_number(out, s->sum.draw_rate);
    fprintf(out, ", \"draw_rate_ci95\": [");
    json_number(out, lo);
    fprintf(out, ", ");
    json_number(out, hi);
    fprintf(out, "], \"mean_length\": ");
    json_number(out, s->sum.mean_length);
    fprintf(out, "}");
}

static void json_diff(FILE *out, const char *name, const ScoreDiff *d)
{
    fprintf(out, "\"%s\": {\"diff\": ", name);
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

static void print_json(FILE *out, const SideData *a, const SideData *b, const Comparison *c, const char *what)
{
    fprintf(out, "{\"kind\": \"compare\", ");
    json_side(out, "a", a);
    fprintf(out, ", ");
    json_side(out, "b", b);
    fprintf(out, ", \"difference\": ");
    json_string(out, what);
    fprintf(out, ", ");
    json_diff(out, "red_score", &c->score);
    fprintf(out, ", ");
    json_diff(out, "draw_rate", &c->draws);
    fprintf(out, ", \"distinguishable\": %s, \"games_needed_per_side\": ", c->apart ? "true" : "false");
    json_number(out, ceil(c->games_needed));
    fprintf(out, ", \"detectable_score_difference\": ");
    json_number(out, c->detectable);
    fprintf(out, ", \"verdict\": ");
    json_string(out, c->verdict + strlen("verdict: "));
    fprintf(out, "}\n");
}

static void print_text(FILE *out, const SideData *a, const SideData *b, const Comparison *c, const char *what, bool md)
{
    const SideData *sides[2] = {a, b};
    fprintf(out, "%sA/B comparison\n\n", md ? "# " : "");
    for (int i = 0; i < 2; i++) {
        const SideData *s = sides[i];
        fprintf(out, "%s%c  %s, %" PRIu64 " games (", md ? "- " : "", 'A' + i, s->card.v->name, s->sum.games);
        for (int k = 0; k < s->set.count; k++)
            fprintf(out, "%s%s", k ? ", " : "", s->set.paths[k]);
        fprintf(out, ")\n");
    }
    fprintf(out, "%sdifference: %s\n\n", md ? "- " : "", what);
    if (md)
        fprintf(out, "| measure | A | B | B - A | 95%% CI | p |\n|---|---:|---:|---:|---:|---:|\n");
    else
        fprintf(out, "%-12s %8s %8s %9s   %-20s %8s\n", "", "A", "B", "B - A", "95% CI", "p");
    const ScoreDiff *d[2] = {&c->score, &c->draws};
    const char *names[2] = {"red score", "draw rate"};
    for (int i = 0; i < 2; i++) {
        char ci[64];
        snprintf(ci, sizeof ci, "%+.1f .. %+.1f", 100 * d[i]->lo, 100 * d[i]->hi);
        fprintf(out, md ? "| %s | %.1f%% | %.1f%% | %+.1f | %s | %.3g |\n" : "%-12s %7.1f%% %7.1f%% %+9.1f   %-20s %8.3g\n",
                names[i], 100 * d[i]->a, 100 * d[i]->b, 100 * d[i]->diff, ci, d[i]->p);
    }
    fprintf(out, md ? "| %s | %.1f | %.1f | %+.1f | | |\n" : "%-12s %8.1f %8.1f %+9.1f\n", "mean length",
            a->sum.mean_length, b->sum.mean_length, b->sum.mean_length - a->sum.mean_length);
    fprintf(out, "\n%s(differences in percentage points)\n%s\n", md ? "" : "", c->verdict);
}

int cmd_compare(int argc, char **argv)
{
    OutputFormat format = FORMAT_TEXT;
    const char *plots = NULL;
    bool force = false;
    char **paths[2];
    int npaths[2] = {0, 0}, side = 0;
    bool seen_separator = false;
    paths[0] = calloc((size_t)argc, sizeof *paths[0]);
    paths[1] = calloc((size_t)argc, sizeof *paths[1]);
    int status = EXIT_OK;
    if (!paths[0] || !paths[1])
        status = cli_error(EXIT_FAILURE_RUN, "compare", "out of memory");
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        bool bad = false;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            free(paths[0]);
            free(paths[1]);
            return EXIT_OK;
        }
        if (!strcmp(argv[i], "--")) {
            if (seen_separator)
                status = cli_error(EXIT_USAGE, "compare", "'--' given twice: use A.h5... -- B.h5...");
            seen_separator = true;
            side = 1;
        } else if (analysis_output_option("compare", argc, argv, &i, &format, &plots, &force, &bad)) {
            if (bad)
                status = EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            status = cli_bad_option("compare", argv[i], usage);
        } else {
            paths[side][npaths[side]++] = argv[i];
        }
    }
    if (status == EXIT_OK && (!seen_separator || !npaths[0] || !npaths[1]))
        status = cli_error(EXIT_USAGE, "compare", "needs files on both sides: xqlab compare A.h5... -- B.h5...");
    if (status != EXIT_OK) {
        free(paths[0]);
        free(paths[1]);
        return status;
    }
    SideData *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    if (!a || !b) {
        status = cli_error(EXIT_FAILURE_RUN, "compare", "out of memory");
        goto cleanup;
    }
    status = load_side("A", paths[0], npaths[0], a);
    if (status == EXIT_OK)
        status = load_side("B", paths[1], npaths[1], b);
    if (status != EXIT_OK)
        goto cleanup;
    char what[1024];
    describe_difference(a, b, what, sizeof what);
    Comparison c;
    compare(a, b, &c);
    if (format == FORMAT_JSON)
        print_json(stdout, a, b, &c, what);
    else
        print_text(stdout, a, b, &c, what, format == FORMAT_MARKDOWN);
    if (plots) {
        char *json = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&json, &len);
        if (!mem) {
            status = cli_error(EXIT_FAILURE_RUN, "compare", "out of memory");
            goto cleanup;
        }
        print_json(mem, a, b, &c, what);
        fclose(mem);
        status = analysis_plot("compare", json, len, plots, force);
        free(json);
    }
cleanup:
    if (a)
        free_side(a);
    if (b)
        free_side(b);
    free(a);
    free(b);
    free(paths[0]);
    free(paths[1]);
    return status;
}
