/* cmd_report.c - `xqlab report DATA.h5...`: the balance card of a set of games (text, Markdown,
 * JSON, PNG plots). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "balance.h"
#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "special_moves.h"
#include "seat.h"
#include "status.h"
#include "weights.h"

enum { BRANCH_BUCKET = 10, LENGTH_BINS = 20 };

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab report DATA.h5... [--markdown | --json] [--plots DIR]\n\n"
        "The balance card of the games in one or many dataset files (shards of one run: same\n"
        "variant text, search settings and weights, else the files are refused with the first\n"
        "difference): games and win / draw / loss; Red's (the first mover's) score with a Wilson\n"
        "95%% interval and whether it excludes 50%%; balance index (1 - |score difference|);\n"
        "draws split into natural (rules) and adjudicated (move limit, length cap); decisive\n"
        "share; game length mean, median and histogram; terminations; use of rule-module moves\n"
        "(exchanges, cube rolls, double moves, ...: shown only if the games have any) with the\n"
        "score of the side that used them; mean legal moves by ply (every game is replayed with\n"
        "the rules core, which also checks every recorded move).\n\n"
        "  --markdown   Markdown tables instead of text\n"
        "  --json       one JSON object (all numbers, branching for every ply)\n"
        "  --plots DIR  also write PNG plots into DIR (score, lengths, branching, special moves)\n"
        "  --force      replace existing plot files in DIR\n"
        "               with /usr/bin/python3 + matplotlib (Debian: python3-matplotlib)\n"
        ANALYSIS_PLOT_USAGE
        "  -h, --help\n\n"
        "Exit status: 0, 1 if a file is missing, damaged or does not belong with the others,\n"
        "2 on a usage error. Walk-through: docs/analysis.md.\n");
}

/* Everything the printers need. */
typedef struct Report {
    const ShardSet *set;
    const BalanceCard *card;
    BalanceSummary sum;
    Histogram lengths;
    uint64_t *lengths_by_outcome[OUTCOME_COUNT];  /* per bin of `lengths`; owned */
    int length_cap;              /* the run's max_plies (0 if unknown) */
    char weights[1200];          /* which weights the games were played with */
} Report;

static const char *const OUTCOME_KEYS[OUTCOME_COUNT] = {"first_mover_wins", "draws", "second_mover_wins", "unknown"};

static const char *special_name(uint8_t kind, char *buf)
{
    return special_kind_name(kind, buf, 32);
}

static void print_json(FILE *out, const Report *r)
{
    const BalanceCard *c = r->card;
    const BalanceSummary *s = &r->sum;
    fprintf(out, "{\"kind\": \"report\", \"variant\": ");
    json_string(out, c->v->name);
    fprintf(out, ", \"files\": [");
    for (int i = 0; i < r->set->count; i++) {
        fprintf(out, "%s", i ? ", " : "");
        json_string(out, r->set->paths[i]);
    }
    fprintf(out, "], \"games\": %" PRIu64 ", \"unknown_result\": %" PRIu64 ", ", c->games, c->unknown_result);
    analysis_json_results(out, &c->red, &c->hidden, &s->r);
    fprintf(out, ", \"hidden_pieces\": %s, \"colours_assigned_in_game\": %s, \"weights\": ", s->r.hidden ? "true" : "false",
            variant_assigns_colours(c->v) ? "true" : "false");
    json_string(out, r->weights);
    fprintf(out, ", \"balance_index\": ");
    json_number(out, s->balance_index);
    fprintf(out, ", \"natural_draws\": %" PRIu64 ", \"adjudicated_draws\": %" PRIu64 ", \"decisive_rate\": ",
            c->draws_natural, c->draws_adjudicated);
    json_number(out, s->decisive_rate);
    fprintf(out, ", \"length\": {\"mean\": ");
    json_number(out, s->mean_length);
    fprintf(out, ", \"median\": ");
    json_number(out, s->median_length);
    fprintf(out, ", \"cap\": %d, \"histogram\": {\"lo\": ", r->length_cap);
    json_number(out, r->lengths.lo);
    fprintf(out, ", \"width\": ");
    json_number(out, r->lengths.width);
    fprintf(out, ", \"counts\": [");
    for (int i = 0; i < r->lengths.nbins; i++)
        fprintf(out, "%s%" PRIu64, i ? ", " : "", r->lengths.counts[i]);
    fprintf(out, "], \"by_outcome\": {");
    for (int k = 0; k < OUTCOME_COUNT; k++) {
        fprintf(out, "%s\"%s\": [", k ? ", " : "", OUTCOME_KEYS[k]);
        for (int i = 0; i < r->lengths.nbins; i++)
            fprintf(out, "%s%" PRIu64, i ? ", " : "", r->lengths_by_outcome[k][i]);
        fprintf(out, "]");
    }
    fprintf(out, "}}}, ");
    fprintf(out, "\"terminations\": {");
    bool first = true;
    for (int t = 1; t < TERM_COUNT; t++)
        if (c->by_termination[t]) {
            fprintf(out, "%s", first ? "" : ", ");
            json_string(out, termination_name((Termination)t));
            fprintf(out, ": %" PRIu64, c->by_termination[t]);
            first = false;
        }
    if (c->other_termination)
        fprintf(out, "%s\"unknown\": %" PRIu64, first ? "" : ", ", c->other_termination);
    fprintf(out, "}, \"special_moves\": [");
    for (int i = 0; i < c->nspecial; i++) {
        const SpecialUse *u = &c->special[i];
        char buf[32];
        fprintf(out, "%s{\"kind\": %d, \"name\": ", i ? ", " : "", u->kind);
        json_string(out, special_name(u->kind, buf));
        fprintf(out, ", \"moves\": %" PRIu64 ", \"moves_red\": %" PRIu64 ", \"moves_black\": %" PRIu64
                ", \"games\": %" PRIu64 ", \"per_game\": ", u->moves, u->moves_by[RED], u->moves_by[BLACK], u->games);
        json_number(out, c->games ? (double)u->moves / (double)c->games : 0);
        for (int side = 0; side < 2; side++) {
            const Wdl *w = &u->user_results[side];
            fprintf(out, ", \"%s_user\": {\"games\": %" PRIu64 ", \"wins\": %" PRIu64 ", \"draws\": %" PRIu64
                    ", \"losses\": %" PRIu64 ", \"score\": ", side == RED ? "red" : "black", wdl_games(w), w->wins,
                    w->draws, w->losses);
            json_number(out, wdl_score(w));
            fprintf(out, "}");
        }
        fprintf(out, "}");
    }
    fprintf(out, "], \"branching\": {\"mean_legal_moves\": [");
    for (int p = 0; p < c->branch_plies; p++) {
        fprintf(out, "%s", p ? ", " : "");
        json_number(out, balance_branching(c, p));
    }
    fprintf(out, "], \"positions\": [");
    for (int p = 0; p < c->branch_plies; p++)
        fprintf(out, "%s%" PRIu64, p ? ", " : "", c->branch_positions[p]);
    fprintf(out, "]}}\n");
}

/* Mean legal moves over plies [a, b). */
static double bucket_branching(const BalanceCard *c, int a, int b, uint64_t *positions)
{
    uint64_t moves = 0, n = 0;
    for (int p = a; p < b && p < c->branch_plies; p++) {
        moves += c->branch_moves[p];
        n += c->branch_positions[p];
    }
    *positions = n;
    return n ? (double)moves / (double)n : 0;
}

/* One "measure | value" row: a table row in Markdown (cells escaped), else two columns. */
static void row(FILE *out, bool md, const char *key, const char *value)
{
    if (!md) {
        fprintf(out, "%-14s %s\n", key, value);
        return;
    }
    fputs("| ", out);
    md_cell(out, key);
    fputs(" | ", out);
    md_cell(out, value);
    fputs(" |\n", out);
}

/* "53.3%, 95% CI 51.1% .. 55.5%" */
static const char *interval_text(const ScoreInterval *i, char *buf, size_t size)
{
    char a[16], b[16], m[16];
    snprintf(buf, size, "%s, 95%% CI %s .. %s", analysis_percent(i->mean, m, sizeof m),
             analysis_percent(i->lo, a, sizeof a), analysis_percent(i->hi, b, sizeof b));
    return buf;
}

static void print_text(FILE *out, const Report *r, bool md)
{
    const BalanceCard *c = r->card;
    const BalanceSummary *s = &r->sum;
    const ResultSummary *rs = &s->r;
    /* Where the first reveal assigns the colours, the results are by seat and the colours apart;
     * elsewhere the first mover plays red. */
    bool hidden = variant_assigns_colours(c->v);
    char p1[16], p2[16], p3[16], p4[16], iv[96];
    const char *h = md ? "## " : "";
    fprintf(out, "%sBalance card: %s, %" PRIu64 " games from %d file%s\n\n", md ? "# " : "", c->v->name, c->games,
            r->set->count, r->set->count == 1 ? "" : "s");
    if (md)
        fprintf(out, "| measure | value |\n|---|---|\n");
    char line[640];
    snprintf(line, sizeof line, "%" PRIu64 " / %" PRIu64 " / %" PRIu64 " (%s)", c->red.wins, c->red.draws,
             c->red.losses, hidden ? "first mover wins / draws / second mover wins; colours below"
                                   : "red wins / draws / black wins; red moves first");
    row(out, md, "results", line);
    if (c->unknown_result) {
        snprintf(line, sizeof line, "%" PRIu64 " games without a result (left out)", c->unknown_result);
        row(out, md, "unknown", line);
    }
    const char *favoured = rs->first.mean > 0.5 ? (hidden ? "excludes 50%: the first mover is favoured"
                                                          : "excludes 50%: red, the first mover, is favoured")
                                                : (hidden ? "excludes 50%: the second mover is favoured"
                                                          : "excludes 50%: black, the second mover, is favoured");
    snprintf(line, sizeof line, "%s (win/draw/loss interval; %s)", interval_text(&rs->first, iv, sizeof iv),
             !s->games ? "no games" : rs->first_significant ? favoured : "includes 50%: no significant first-move advantage");
    row(out, md, hidden ? "first mover" : "red score", line);
    snprintf(line, sizeof line, "%s: natural %s (repetition and other rules), adjudicated %s (move limit, length cap)",
             interval_text(&rs->draws, iv, sizeof iv), analysis_percent(s->natural_draw_rate, p2, sizeof p2),
             analysis_percent(s->adjudicated_draw_rate, p3, sizeof p3));
    row(out, md, "draws", line);
    results_resolution_text(rs, line, sizeof line);
    row(out, md, "resolution", line);
    snprintf(line, sizeof line, "%.3f (1 - |first mover's score - second mover's score|; 1 = even)", s->balance_index);
    row(out, md, "balance index", line);
    snprintf(line, sizeof line, "%s of games end with a winner", analysis_percent(s->decisive_rate, p4, sizeof p4));
    row(out, md, "decisive", line);
    if (r->length_cap)
        snprintf(line, sizeof line, "mean %.1f plies, median %.1f plies (length cap %d plies)", s->mean_length,
                 s->median_length, r->length_cap);
    else
        snprintf(line, sizeof line, "mean %.1f plies, median %.1f plies", s->mean_length, s->median_length);
    row(out, md, "length", line);
    row(out, md, "weights", r->weights);

    if (rs->hidden) {
        /* The stored result is by seat (seat 0 moves first); in jieqi-folk, banqi and banqi-hp
         * the first reveal decides which colour each seat plays. */
        fprintf(out, "\n%s%s (hidden pieces)\n\n", h, hidden ? "Colours and paired deals" : "Paired deals");
        if (md)
            fprintf(out, "| measure | value |\n|---|---|\n");
        if (hidden) {
            snprintf(line, sizeof line, "%" PRIu64 " / %" PRIu64 " / %" PRIu64 " (red player wins / draws / black "
                     "player wins); red-colour score %s%s; %" PRIu64 " games ended before a reveal assigned the colours",
                     c->hidden.red_colour.wins, c->hidden.red_colour.draws, c->hidden.red_colour.losses,
                     interval_text(&rs->red_colour, iv, sizeof iv), rs->colour_significant ? " (excludes 50%)" : "",
                     c->hidden.colour_unassigned);
            row(out, md, "by colour", line);
        }
        if (rs->pairs) {
            snprintf(line, sizeof line, "%" PRIu64 " pairs; first mover's score %s (by pair, pentanomial%s); one seat "
                     "won both games %" PRIu64 ", one half of the deal won both %" PRIu64, rs->pairs,
                     interval_text(&rs->pair, iv, sizeof iv), rs->pair_significant ? "; excludes 50%" : "",
                     c->hidden.seat_swept, c->hidden.hand_swept);
        } else {
            snprintf(line, sizeof line, "none (run selfplay with --paired-deals)");
        }
        row(out, md, "paired deals", line);
    }

    fprintf(out, "\n%sTerminations\n\n", h);
    if (md)
        fprintf(out, "| termination | games | share |\n|---|---:|---:|\n");
    for (int t = 1; t < TERM_COUNT; t++)
        if (c->by_termination[t])
            fprintf(out, md ? "| %s | %" PRIu64 " | %s |\n" : "  %-18s %6" PRIu64 "  %6s\n",
                    termination_name((Termination)t), c->by_termination[t],
                    analysis_percent((double)c->by_termination[t] / (double)c->games, p1, sizeof p1));
    if (c->other_termination)
        fprintf(out, md ? "| %s | %" PRIu64 " | |\n" : "  %-18s %6" PRIu64 "\n", "unknown", c->other_termination);

    fprintf(out, "\n%sGame length (plies)\n\n", h);
    const char *w1 = hidden ? "first wins" : "red wins", *w2 = hidden ? "second wins" : "black wins";
    if (md)
        fprintf(out, "| plies | games | %s | draws | %s |\n|---|---:|---:|---:|---:|\n", w1, w2);
    else
        fprintf(out, "  %-9s %6s %10s %6s %11s\n", "plies", "games", w1, "draws", w2);
    uint64_t most = 1;
    for (int i = 0; i < r->lengths.nbins; i++)
        if (r->lengths.counts[i] > most)
            most = r->lengths.counts[i];
    for (int i = 0; i < r->lengths.nbins; i++) {
        int lo = (int)(r->lengths.lo + i * r->lengths.width), hi = (int)(lo + r->lengths.width - 1);
        uint64_t *o[3] = {r->lengths_by_outcome[OUTCOME_FIRST_WINS], r->lengths_by_outcome[OUTCOME_DRAW],
                          r->lengths_by_outcome[OUTCOME_SECOND_WINS]};
        if (md) {
            fprintf(out, "| %d-%d | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " |\n", lo, hi,
                    r->lengths.counts[i], o[0][i], o[1][i], o[2][i]);
        } else {
            int bar = (int)(30 * r->lengths.counts[i] / most);
            char range[24];
            snprintf(range, sizeof range, "%d-%d", lo, hi);
            fprintf(out, "  %-9s %6" PRIu64 " %10" PRIu64 " %6" PRIu64 " %11" PRIu64 " %.*s%s\n", range,
                    r->lengths.counts[i], o[0][i], o[1][i], o[2][i], bar, "##############################",
                    r->length_cap && lo <= r->length_cap && r->length_cap <= hi ? "  <- length cap" : "");
        }
    }

    if (c->nspecial) {
        fprintf(out, "\n%sSpecial moves (rule modules)\n\n", h);
        if (md)
            fprintf(out, hidden ? "| move kind | per game | games using | by first mover | by second mover | first "
                                  "mover's score when it used it | second mover's score when it used it |\n"
                                  "|---|---:|---:|---:|---:|---:|---:|\n"
                                : "| move kind | per game | games using | by red | by black | red's score when red used "
                                  "it | black's score when black used it |\n|---|---:|---:|---:|---:|---:|---:|\n");
        else
            fprintf(out, "  %-26s %9s %12s %8s %8s %10s %10s\n", "move kind", "per game", "games using",
                    hidden ? "by first" : "by red", hidden ? "by second" : "by black", hidden ? "1st score" : "red score",
                    hidden ? "2nd score" : "blk score");
        for (int i = 0; i < c->nspecial; i++) {
            const SpecialUse *u = &c->special[i];
            char buf[32];
            const Wdl *wr = &u->user_results[RED], *wb = &u->user_results[BLACK];
            snprintf(p1, sizeof p1, "%s", wdl_games(wr) ? analysis_percent(wdl_score(wr), p3, sizeof p3) : "-");
            snprintf(p2, sizeof p2, "%s", wdl_games(wb) ? analysis_percent(wdl_score(wb), p4, sizeof p4) : "-");
            fprintf(out, md ? "| %s | %.2f | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %s | %s |\n"
                            : "  %-26s %9.2f %12" PRIu64 " %8" PRIu64 " %8" PRIu64 " %10s %10s\n",
                    special_name(u->kind, buf), c->games ? (double)u->moves / (double)c->games : 0.0, u->games,
                    u->moves_by[RED], u->moves_by[BLACK], p1, p2);
        }
    }

    fprintf(out, "\n%sBranching factor (mean legal moves by ply)\n\n", h);
    if (md)
        fprintf(out, "| plies | mean legal moves | positions |\n|---|---:|---:|\n");
    for (int a = 0; a < c->branch_plies; a += BRANCH_BUCKET) {
        uint64_t n;
        double mean = bucket_branching(c, a, a + BRANCH_BUCKET, &n);
        fprintf(out, md ? "| %d-%d | %.1f | %" PRIu64 " |\n" : "  plies %4d-%-4d %6.1f  (%" PRIu64 " positions)\n", a,
                a + BRANCH_BUCKET - 1, mean, n);
    }
}

int cmd_report(int argc, char **argv)
{
    OutputFormat format = FORMAT_TEXT;
    PlotOptions plot = PLOT_OPTIONS_INIT;
    char **paths = calloc((size_t)argc, sizeof *paths);
    int npaths = 0;
    if (!paths)
        return cli_error(EXIT_FAILURE_RUN, "report", "out of memory");
    for (int i = 1; i < argc; i++) {
        bool bad = false;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            free(paths);
            return EXIT_OK;
        }
        if (analysis_output_option("report", argc, argv, &i, &format, &plot, &bad)) {
            if (bad) {
                free(paths);
                return EXIT_USAGE;
            }
        } else if (argv[i][0] == '-' && argv[i][1]) {
            free(paths);
            return cli_bad_option("report", argv[i], usage);
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (!npaths) {
        usage(stderr);
        free(paths);
        return EXIT_USAGE;
    }
    static const char *const PLOTS[] = {"score.png", "lengths.png", "branching.png", "special_moves.png", NULL};
    int status = analysis_plot_precheck("report", &plot, PLOTS);
    if (status != EXIT_OK) {
        free(paths);
        return status;
    }
    ShardSet set;
    status = analysis_open("report", &set, paths, npaths);
    if (status != EXIT_OK) {
        free(paths);
        return status;
    }
    BalanceCard card;
    Report r;
    memset(&r, 0, sizeof r);
    r.set = &set;
    r.card = &card;
    XqError err;
    if (balance_init(&card, set.variant) < 0) {
        status = cli_error(EXIT_FAILURE_RUN, "report", "out of memory");
        goto cleanup;
    }
    for (uint64_t k = 0; k < set.ngames && status == EXIT_OK; k++) {
        GameRecord g;
        if (shards_read_game(&set, k, &g, &err) < 0) {
            status = cli_report("report", &err);
            break;
        }
        if (balance_add_game(&card, &g, &err) < 0) {
            snprintf(err.file, sizeof err.file, "%s", shards_path_of(&set, k));
            status = cli_report("report", &err);
        }
        game_record_free(&g);
    }
    if (status != EXIT_OK)
        goto cleanup;
    if (balance_summarise(&card, &r.sum) < 0 ||
        histogram_build_u32(&r.lengths, card.lengths, card.nlengths, LENGTH_BINS) < 0) {
        status = cli_error(EXIT_FAILURE_RUN, "report", "out of memory");
        goto cleanup;
    }
    for (int k = 0; k < OUTCOME_COUNT; k++)
        if (!(r.lengths_by_outcome[k] = calloc((size_t)r.lengths.nbins + 1, sizeof *r.lengths_by_outcome[k]))) {
            status = cli_error(EXIT_FAILURE_RUN, "report", "out of memory");
            goto cleanup;
        }
    for (size_t i = 0; i < card.nlengths; i++)
        r.lengths_by_outcome[card.length_outcomes[i]][(int)((card.lengths[i] - r.lengths.lo) / r.lengths.width)]++;
    const DatasetSummary *ds = shards_summary(&set, 0);
    r.length_cap = analysis_length_cap(ds->params_text);
    cli_weights_identify(ds->weights_text, r.weights, sizeof r.weights);
    if (format == FORMAT_JSON)
        print_json(stdout, &r);
    else
        print_text(stdout, &r, format == FORMAT_MARKDOWN);
    if (plot.dir) {
        char *json = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&json, &len);
        if (!mem) {
            status = cli_error(EXIT_FAILURE_RUN, "report", "out of memory");
            goto cleanup;
        }
        print_json(mem, &r);
        fclose(mem);
        status = analysis_plot("report", json, len, &plot);
        free(json);
    }
cleanup:
    for (int k = 0; k < OUTCOME_COUNT; k++)
        free(r.lengths_by_outcome[k]);
    histogram_free(&r.lengths);
    balance_free(&card);
    shards_close(&set);
    free(paths);
    return status;
}
