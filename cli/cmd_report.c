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
#include "status.h"

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
} Report;

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
    fprintf(out, "], \"games\": %" PRIu64 ", \"unknown_result\": %" PRIu64, c->games, c->unknown_result);
    fprintf(out, ", \"red_wins\": %" PRIu64 ", \"draws\": %" PRIu64 ", \"black_wins\": %" PRIu64, c->red.wins,
            c->red.draws, c->red.losses);
    fprintf(out, ", \"red_score\": ");
    json_number(out, s->red_score);
    fprintf(out, ", \"red_score_ci95\": [");
    json_number(out, s->score_lo);
    fprintf(out, ", ");
    json_number(out, s->score_hi);
    fprintf(out, "], \"first_mover_advantage_significant\": %s, \"balance_index\": ",
            s->score_significant ? "true" : "false");
    json_number(out, s->balance_index);
    fprintf(out, ", \"draw_rate\": ");
    json_number(out, s->draw_rate);
    fprintf(out, ", \"natural_draws\": %" PRIu64 ", \"adjudicated_draws\": %" PRIu64 ", \"decisive_rate\": ",
            c->draws_natural, c->draws_adjudicated);
    json_number(out, s->decisive_rate);
    fprintf(out, ", \"length\": {\"mean\": ");
    json_number(out, s->mean_length);
    fprintf(out, ", \"median\": ");
    json_number(out, s->median_length);
    fprintf(out, ", \"histogram\": {\"lo\": ");
    json_number(out, r->lengths.lo);
    fprintf(out, ", \"width\": ");
    json_number(out, r->lengths.width);
    fprintf(out, ", \"counts\": [");
    for (int i = 0; i < r->lengths.nbins; i++)
        fprintf(out, "%s%" PRIu64, i ? ", " : "", r->lengths.counts[i]);
    fprintf(out, "]}}, ");
    if (s->hidden) {
        /* Hidden-piece rule sets: seat results are the red/draw/black above (seat 0 first). */
        fprintf(out, "\"hidden\": {\"games\": %" PRIu64 ", \"by_seat\": {\"seat0_wins\": %" PRIu64
                     ", \"draws\": %" PRIu64 ", \"seat1_wins\": %" PRIu64 ", \"seat0_score\": ",
                c->hidden_games, c->red.wins, c->red.draws, c->red.losses);
        json_number(out, s->red_score);
        fprintf(out, "}, \"by_colour\": {\"red_wins\": %" PRIu64 ", \"draws\": %" PRIu64 ", \"black_wins\": %" PRIu64
                     ", \"unassigned\": %" PRIu64 ", \"red_score\": ",
                c->red_colour.wins, c->red_colour.draws, c->red_colour.losses, c->colour_unassigned);
        json_number(out, s->red_colour_score);
        fprintf(out, ", \"red_score_ci95\": [");
        json_number(out, s->colour_lo);
        fprintf(out, ", ");
        json_number(out, s->colour_hi);
        fprintf(out, "], \"significant\": %s}, \"paired_deals\": {\"pairs\": %" PRIu64 ", \"seat0_pair_score\": ",
                s->colour_significant ? "true" : "false", c->pairs);
        json_number(out, s->pair_score);
        fprintf(out, ", \"ci95_half_width\": ");
        json_number(out, s->pair_half_width);
        fprintf(out, ", \"seat_swept\": %" PRIu64 ", \"deal_half_swept\": %" PRIu64 "}}, ", c->pair_seat_swept,
                c->pair_hand_swept);
    }
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

static void print_text(FILE *out, const Report *r, bool md)
{
    const BalanceCard *c = r->card;
    const BalanceSummary *s = &r->sum;
    char p1[16], p2[16], p3[16], p4[16];
    const char *h = md ? "## " : "";
    fprintf(out, "%sBalance card: %s, %" PRIu64 " games from %d file%s\n\n", md ? "# " : "", c->v->name, c->games,
            r->set->count, r->set->count == 1 ? "" : "s");
    if (md)
        fprintf(out, "| measure | value |\n|---|---|\n");
    const char *row = md ? "| %s | %s |\n" : "%-14s %s\n";
    char line[256];
    snprintf(line, sizeof line, "%" PRIu64 " / %" PRIu64 " / %" PRIu64 " (red wins / draws / black wins)", c->red.wins,
             c->red.draws, c->red.losses);
    fprintf(out, row, "results", line);
    if (c->unknown_result) {
        snprintf(line, sizeof line, "%" PRIu64 " games without a result (left out)", c->unknown_result);
        fprintf(out, row, "unknown", line);
    }
    snprintf(line, sizeof line, "%s, 95%% CI %s .. %s (%s)", analysis_percent(s->red_score, p1, sizeof p1),
             analysis_percent(s->score_lo, p2, sizeof p2), analysis_percent(s->score_hi, p3, sizeof p3),
             !s->games ? "no games" : s->score_significant ? (s->red_score > 0.5 ? "excludes 50%: Red, the first mover, is favoured"
                                                                                 : "excludes 50%: Black is favoured")
                                                           : "includes 50%: no significant first-move advantage");
    fprintf(out, row, "red score", line);
    snprintf(line, sizeof line, "%.3f (1 - |red score - black score|; 1 = even)", s->balance_index);
    fprintf(out, row, "balance index", line);
    snprintf(line, sizeof line, "%s: natural %s (repetition and other rules), adjudicated %s (move limit, length cap)",
             analysis_percent(s->draw_rate, p1, sizeof p1), analysis_percent(s->natural_draw_rate, p2, sizeof p2),
             analysis_percent(s->adjudicated_draw_rate, p3, sizeof p3));
    fprintf(out, row, "draws", line);
    snprintf(line, sizeof line, "%s of games end with a winner", analysis_percent(s->decisive_rate, p4, sizeof p4));
    fprintf(out, row, "decisive", line);
    snprintf(line, sizeof line, "mean %.1f plies, median %.1f plies", s->mean_length, s->median_length);
    fprintf(out, row, "length", line);

    if (s->hidden) {
        /* Hidden-piece rule sets (RULES.md 2-5): "red" above is seat 0, the first mover; in banqi
         * and jieqi-folk the first reveal decides which colour each seat plays. */
        fprintf(out, "\n%sSeats and colours (hidden pieces)\n\n", h);
        if (md)
            fprintf(out, "| measure | value |\n|---|---|\n");
        snprintf(line, sizeof line, "%" PRIu64 " / %" PRIu64 " / %" PRIu64 " (seat 0 wins / draws / seat 1 wins); "
                 "seat 0 score %s", c->red.wins, c->red.draws, c->red.losses,
                 analysis_percent(s->red_score, p1, sizeof p1));
        fprintf(out, row, "by seat", line);
        snprintf(line, sizeof line, "%" PRIu64 " / %" PRIu64 " / %" PRIu64 " (red player wins / draws / black player "
                 "wins); red score %s, 95%% CI %s .. %s%s; %" PRIu64 " games without colours",
                 c->red_colour.wins, c->red_colour.draws, c->red_colour.losses,
                 analysis_percent(s->red_colour_score, p1, sizeof p1), analysis_percent(s->colour_lo, p2, sizeof p2),
                 analysis_percent(s->colour_hi, p3, sizeof p3), s->colour_significant ? " (excludes 50%)" : "",
                 c->colour_unassigned);
        fprintf(out, row, "by colour", line);
        if (c->pairs) {
            snprintf(line, sizeof line, "%" PRIu64 " pairs; seat 0 score %s +- %s (95%%, by pair); one seat won "
                     "both %" PRIu64 ", one half of the deal won both %" PRIu64, c->pairs,
                     analysis_percent(s->pair_score, p1, sizeof p1), analysis_percent(s->pair_half_width, p2, sizeof p2),
                     c->pair_seat_swept, c->pair_hand_swept);
        } else {
            snprintf(line, sizeof line, "none (run selfplay with --paired-deals)");
        }
        fprintf(out, row, "paired deals", line);
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
    if (md)
        fprintf(out, "| plies | games |\n|---|---:|\n");
    uint64_t most = 1;
    for (int i = 0; i < r->lengths.nbins; i++)
        if (r->lengths.counts[i] > most)
            most = r->lengths.counts[i];
    for (int i = 0; i < r->lengths.nbins; i++) {
        int lo = (int)(r->lengths.lo + i * r->lengths.width), hi = (int)(lo + r->lengths.width - 1);
        if (md) {
            fprintf(out, "| %d-%d | %" PRIu64 " |\n", lo, hi, r->lengths.counts[i]);
        } else {
            int bar = (int)(40 * r->lengths.counts[i] / most);
            fprintf(out, "  %4d-%-4d %6" PRIu64 " %.*s\n", lo, hi, r->lengths.counts[i], bar,
                    "########################################");
        }
    }

    if (c->nspecial) {
        fprintf(out, "\n%sSpecial moves (rule modules)\n\n", h);
        if (md)
            fprintf(out, "| move kind | per game | games using | by red | by black | red's score when red used it "
                         "| black's score when black used it |\n|---|---:|---:|---:|---:|---:|---:|\n");
        else
            fprintf(out, "  %-26s %9s %12s %8s %8s %10s %10s\n", "move kind", "per game", "games using", "by red",
                    "by black", "red score", "blk score");
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
    const char *plots = NULL;
    bool force = false;
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
        if (analysis_output_option("report", argc, argv, &i, &format, &plots, &force, &bad)) {
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
    ShardSet set;
    int status = analysis_open("report", &set, paths, npaths);
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
    if (format == FORMAT_JSON)
        print_json(stdout, &r);
    else
        print_text(stdout, &r, format == FORMAT_MARKDOWN);
    if (plots) {
        char *json = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&json, &len);
        if (!mem) {
            status = cli_error(EXIT_FAILURE_RUN, "report", "out of memory");
            goto cleanup;
        }
        print_json(mem, &r);
        fclose(mem);
        status = analysis_plot("report", json, len, plots, force);
        free(json);
    }
cleanup:
    histogram_free(&r.lengths);
    balance_free(&card);
    shards_close(&set);
    free(paths);
    return status;
}
