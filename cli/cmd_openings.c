/* cmd_openings.c - `xqlab openings DATA.h5...`: the opening tree to a depth, with results, shares,
 * first-move entropy, top lines; as text, Markdown, JSON, an HDF5 group and a PNG plot. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "bad_option.h"
#include "commands.h"
#include "common.h"
#include "hidden.h"
#include "openings.h"
#include "openings_h5.h"
#include "output.h"
#include "seat.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab openings DATA.h5... [--depth D] [--min-games N] [--top K]\n"
        "                      [--h5 OUT.h5] [--markdown | --json] [--plots DIR]\n\n"
        "The opening tree of the games in one or many dataset files (shards of one run): every\n"
        "line to depth D with its games, red wins / draws / black wins, Red's score with a\n"
        "95%% win/draw/loss interval and its share of the parent line; the entropy of the first move\n"
        "(bits; 2^H is the effective number of first moves); the K most played lines of depth D.\n"
        "Moves are in WXF for standard xiangqi and ICCS for other rule sets. Games from another\n"
        "start position than the first game's are counted and left out.\n\n"
        "  --depth D      plies of the tree (default 4, 1..40)\n"
        "  --min-games N  print (and put in JSON) only lines with at least N games (default 20)\n"
        "  --top K        top lines to list (default 15)\n"
        "  --h5 OUT.h5    write the whole tree as the group /openings of a new file OUT.h5\n"
        "                 (an existing OUT.h5 is refused unless --force; never one of the\n"
        "                 input datasets)\n"
        "  --markdown     Markdown tables instead of text\n"
        "  --json         the tree as one JSON object (nested lines)\n"
        "  --plots DIR    also write DIR/openings.png (first moves: share and score)\n"
        ANALYSIS_PLOT_USAGE
        "  -h, --help\n\n"
        "Exit status: 0, 1 if a file is missing, damaged or does not belong with the others,\n"
        "2 on a usage error. Walk-through: docs/analysis.md.\n");
}

typedef struct Options {
    int depth, top;
    uint64_t min_games;
} Options;

static void json_node(FILE *out, const OpeningTree *t, int node, const Options *o)
{
    const OpeningNode *n = &t->nodes[node];
    uint64_t games = openings_games(t, node);
    ScoreInterval si;
    interval_wdl(&n->red, STATS_Z95, &si);
    double lo = si.lo, hi = si.hi;
    fprintf(out, "{\"move\": ");
    json_string(out, n->text);
    fprintf(out, ", \"games\": %" PRIu64 ", \"red_wins\": %" PRIu64 ", \"draws\": %" PRIu64 ", \"black_wins\": %" PRIu64
            ", \"score\": ", games, n->red.wins, n->red.draws, n->red.losses);
    json_number(out, wdl_score(&n->red));
    fprintf(out, ", \"score_ci95\": [");
    json_number(out, lo);
    fprintf(out, ", ");
    json_number(out, hi);
    fprintf(out, "], \"share\": ");
    json_number(out, openings_share(t, node));
    fprintf(out, ", \"children\": [");
    bool first = true;
    for (int c = n->first_child; c >= 0; c = t->nodes[c].next_sibling)
        if (openings_games(t, c) >= o->min_games) {
            fprintf(out, "%s", first ? "" : ", ");
            json_node(out, t, c, o);
            first = false;
        }
    fprintf(out, "]}");
}

/* Nodes at the tree's deepest level with at least min_games, most played first (at most k). */
static int top_lines(const OpeningTree *t, const Options *o, int *ids, int k)
{
    int n = 0;
    for (int i = 1; i < t->count; i++) {
        if (t->nodes[i].depth != t->depth || openings_games(t, i) < o->min_games)
            continue;
        /* Insertion into the sorted prefix. */
        int j = n < k ? n++ : k;
        if (j == k && openings_games(t, ids[k - 1]) >= openings_games(t, i))
            continue;
        if (j == k)
            j = k - 1;
        while (j > 0 && openings_games(t, ids[j - 1]) < openings_games(t, i)) {
            ids[j] = ids[j - 1];
            j--;
        }
        ids[j] = i;
    }
    return n;
}

static void print_json(FILE *out, const OpeningTree *t, const ShardSet *set, const Options *o)
{
    fprintf(out, "{\"kind\": \"openings\", \"hidden_pieces\": %s, \"colours_assigned_in_game\": %s, \"variant\": ",
            hidden_on(t->v) ? "true" : "false", variant_assigns_colours(t->v) ? "true" : "false");
    json_string(out, t->v->name);
    fprintf(out, ", \"files\": [");
    for (int i = 0; i < set->count; i++) {
        fprintf(out, "%s", i ? ", " : "");
        json_string(out, set->paths[i]);
    }
    fprintf(out, "], \"notation\": \"%s\", \"root_fen\": ", t->wxf ? "WXF" : "ICCS");
    json_string(out, t->root_fen);
    double h = openings_child_entropy(t, 0);
    fprintf(out, ", \"depth\": %d, \"min_games\": %" PRIu64 ", \"games\": %" PRIu64 ", \"other_start\": %" PRIu64
            ", \"unknown_result\": %" PRIu64 ", \"first_move_entropy_bits\": ", t->depth, o->min_games,
            openings_games(t, 0), t->other_start, t->unknown_result);
    json_number(out, h);
    fprintf(out, ", \"effective_first_moves\": ");
    json_number(out, pow(2.0, h));
    int *ids = malloc((size_t)(o->top > 0 ? o->top : 1) * sizeof *ids);
    int n = ids ? top_lines(t, o, ids, o->top) : 0;
    fprintf(out, ", \"top_lines\": [");
    for (int i = 0; i < n; i++) {
        char line[512];
        openings_line_text(t, ids[i], line, sizeof line);
        const OpeningNode *x = &t->nodes[ids[i]];
        fprintf(out, "%s{\"line\": ", i ? ", " : "");
        json_string(out, line);
        fprintf(out, ", \"games\": %" PRIu64 ", \"score\": ", openings_games(t, ids[i]));
        json_number(out, wdl_score(&x->red));
        fprintf(out, "}");
    }
    free(ids);
    fprintf(out, "], \"tree\": ");
    json_node(out, t, 0, o);
    fprintf(out, "}\n");
}

static void print_row(FILE *out, const OpeningTree *t, int node, const char *label, bool md, int indent)
{
    const OpeningNode *n = &t->nodes[node];
    uint64_t games = openings_games(t, node);
    ScoreInterval si;
    interval_wdl(&n->red, STATS_Z95, &si);
    double lo = si.lo, hi = si.hi;
    if (md)
        fprintf(out, "| %s | %" PRIu64 " | %.1f%% | %" PRIu64 " / %" PRIu64 " / %" PRIu64 " | %.1f%% | %.1f%% .. %.1f%% |\n",
                label, games, 100 * openings_share(t, node), n->red.wins, n->red.draws, n->red.losses,
                100 * wdl_score(&n->red), 100 * lo, 100 * hi);
    else
        fprintf(out, "  %*s%-*s %6" PRIu64 " %6.1f%%  %5" PRIu64 " %5" PRIu64 " %5" PRIu64 "  %5.1f%%  %5.1f%% .. %5.1f%%\n",
                indent, "", 30 - indent, label, games, 100 * openings_share(t, node), n->red.wins, n->red.draws,
                n->red.losses, 100 * wdl_score(&n->red), 100 * lo, 100 * hi);
}

static void print_header(FILE *out, const char *first, bool md)
{
    if (md)
        fprintf(out, "| %s | games | share | red / draw / black | red score | 95%% CI |\n|---|---:|---:|---:|---:|---:|\n",
                first);
    else
        fprintf(out, "  %-30s %6s %7s  %5s %5s %5s  %6s  %s\n", first, "games", "share", "red", "draw", "black",
                "score", "95% CI");
}

static void print_tree_text(FILE *out, const OpeningTree *t, int node, const Options *o)
{
    for (int c = t->nodes[node].first_child; c >= 0; c = t->nodes[c].next_sibling)
        if (openings_games(t, c) >= o->min_games) {
            print_row(out, t, c, t->nodes[c].text, false, 2 * (t->nodes[c].depth - 1));
            print_tree_text(out, t, c, o);
        }
}

static void print_text(FILE *out, const OpeningTree *t, const ShardSet *set, const Options *o, bool md)
{
    double h = openings_child_entropy(t, 0);
    int first_moves = 0;
    for (int c = t->nodes[0].first_child; c >= 0; c = t->nodes[c].next_sibling)
        first_moves++;
    fprintf(out, "%sOpening tree: %s, %" PRIu64 " games from %d file%s, depth %d, moves in %s\n\n", md ? "# " : "",
            t->v->name, openings_games(t, 0), set->count, set->count == 1 ? "" : "s", t->depth, t->wxf ? "WXF" : "ICCS");
    if (t->other_start || t->unknown_result)
        fprintf(out, "left out: %" PRIu64 " games from another start position, %" PRIu64 " without a result\n\n",
                t->other_start, t->unknown_result);
    fprintf(out, "first move entropy %.2f bits over %d distinct first moves (effective number of first moves %.1f)\n\n",
            h, first_moves, pow(2.0, h));
    /* The most games of a first move and of a line of full depth: when nothing passes
     * --min-games the text says so (and how many the best has) instead of an empty table. */
    uint64_t best_first = 0, best_line = 0;
    for (int c = t->nodes[0].first_child; c >= 0; c = t->nodes[c].next_sibling)
        if (openings_games(t, c) > best_first)
            best_first = openings_games(t, c);
    for (int i = 0; i < t->count; i++)
        if (t->nodes[i].depth == t->depth && openings_games(t, i) > best_line)
            best_line = openings_games(t, i);
    fprintf(out, "%sFirst moves (at least %" PRIu64 " games)\n\n", md ? "## " : "", o->min_games);
    if (best_first < o->min_games) {
        fprintf(out, "No first move has %" PRIu64 " games or more (the most played has %" PRIu64 "): lower "
                "--min-games to see them.\n", o->min_games, best_first);
    } else {
        print_header(out, "move", md);
        for (int c = t->nodes[0].first_child; c >= 0; c = t->nodes[c].next_sibling)
            if (openings_games(t, c) >= o->min_games)
                print_row(out, t, c, t->nodes[c].text, md, 0);
    }
    int *ids = malloc((size_t)(o->top > 0 ? o->top : 1) * sizeof *ids);
    int n = ids ? top_lines(t, o, ids, o->top) : 0;
    if (n == 0) {
        fprintf(out, "\n%sTop lines of %d plies\n\nNo line of %d plies has %" PRIu64 " games or more (the most played "
                "has %" PRIu64 "): lower --min-games or --depth.\n", md ? "## " : "", t->depth, t->depth, o->min_games,
                best_line);
    } else {
        fprintf(out, "\n%sTop %d lines of %d plies\n\n", md ? "## " : "", n, t->depth);
        print_header(out, "line", md);
    }
    for (int i = 0; i < n; i++) {
        char line[512];
        openings_line_text(t, ids[i], line, sizeof line);
        print_row(out, t, ids[i], line, md, 0);
    }
    free(ids);
    if (!md && best_first >= o->min_games) {
        fprintf(out, "\nTree (lines with at least %" PRIu64 " games)\n\n", o->min_games);
        print_header(out, "line", false);
        print_tree_text(out, t, 0, o);
    }
}

int cmd_openings(int argc, char **argv)
{
    OutputFormat format = FORMAT_TEXT;
    const char *h5 = NULL;
    PlotOptions plot = PLOT_OPTIONS_INIT;
    Options o = {4, 15, 20};
    char **paths = calloc((size_t)argc, sizeof *paths);
    int npaths = 0;
    if (!paths)
        return cli_error(EXIT_FAILURE_RUN, "openings", "out of memory");
    int status = EXIT_OK;
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc, bad = false;
        long value;
        if (cli_is_help(a)) {
            usage(stdout);
            free(paths);
            return EXIT_OK;
        }
        if (analysis_output_option("openings", argc, argv, &i, &format, &plot, &bad)) {
            status = bad ? EXIT_USAGE : EXIT_OK;
        } else if (!strcmp(a, "--depth") && has) {
            if (cli_parse_int("openings", "--depth", argv[++i], 1, 40, &value) < 0)
                status = EXIT_USAGE;
            o.depth = (int)value;
        } else if (!strcmp(a, "--min-games") && has) {
            if (cli_parse_int("openings", "--min-games", argv[++i], 1, 1000000000L, &value) < 0)
                status = EXIT_USAGE;
            o.min_games = (uint64_t)value;
        } else if (!strcmp(a, "--top") && has) {
            if (cli_parse_int("openings", "--top", argv[++i], 0, 10000, &value) < 0)
                status = EXIT_USAGE;
            o.top = (int)value;
        } else if (!strcmp(a, "--h5") && has) {
            h5 = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            status = cli_bad_option("openings", a, usage);
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (status != EXIT_OK || !npaths) {
        if (status == EXIT_OK) {
            usage(stderr);
            status = EXIT_USAGE;
        }
        free(paths);
        return status;
    }
    static const char *const PLOTS[] = {"openings.png", NULL};
    if ((status = analysis_plot_precheck("openings", &plot, PLOTS)) != EXIT_OK) {
        free(paths);
        return status;
    }
    /* Claimed before the games are read: a refused output costs nothing. */
    CliOutput h5_out = CLI_OUTPUT_INIT;
    if (h5 && (status = cli_output_claim(&h5_out, "openings", "--h5", h5, plot.force ? CLI_OUTPUT_FORCE : 0,
                                         (const char *const *)paths, npaths)) != EXIT_OK) {
        free(paths);
        return status;
    }
    ShardSet set;
    status = analysis_open("openings", &set, paths, npaths);
    if (status != EXIT_OK) {
        cli_output_release(&h5_out);
        free(paths);
        return status;
    }
    OpeningTree tree;
    XqError err;
    if (openings_init(&tree, set.variant, o.depth) < 0) {
        status = cli_error(EXIT_FAILURE_RUN, "openings", "out of memory");
        goto cleanup;
    }
    for (uint64_t k = 0; k < set.ngames && status == EXIT_OK; k++) {
        GameRecord g;
        if (shards_read_game(&set, k, &g, &err) < 0) {
            status = cli_report("openings", &err);
            break;
        }
        if (openings_add_game(&tree, &g, &err) < 0) {
            snprintf(err.file, sizeof err.file, "%s", shards_path_of(&set, k));
            status = cli_report("openings", &err);
        }
        game_record_free(&g);
    }
    if (status == EXIT_OK && openings_finish(&tree) < 0)
        status = cli_error(EXIT_FAILURE_RUN, "openings", "out of memory");
    if (status != EXIT_OK)
        goto cleanup;
    if (format == FORMAT_JSON)
        print_json(stdout, &tree, &set, &o);
    else
        print_text(stdout, &tree, &set, &o, format == FORMAT_MARKDOWN);
    if (h5) {
        if (openings_h5_write(h5, &tree, (const char *const *)paths, npaths, &err) < 0) {
            status = cli_report("openings", &err);
            goto cleanup;
        }
        fprintf(stderr, "xqlab openings: wrote /openings (%d lines) to %s\n", tree.count, h5);
    }
    if (plot.dir) {
        char *json = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&json, &len);
        if (!mem) {
            status = cli_error(EXIT_FAILURE_RUN, "openings", "out of memory");
            goto cleanup;
        }
        print_json(mem, &tree, &set, &o);
        fclose(mem);
        status = analysis_plot("openings", json, len, &plot);
        free(json);
    }
cleanup:
    cli_output_release(&h5_out);
    openings_free(&tree);
    shards_close(&set);
    free(paths);
    return status;
}
