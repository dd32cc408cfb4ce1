/* cmd_analyse.c - `xqlab analyse`: one search of a position, its best move, value, principal
 * variation and every root move with its visits, value and prior. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "bad_option.h"
#include "commands.h"
#include "common.h"
#include "hidden.h"
#include "mcts.h"
#include "notation.h"
#include "score.h"
#include "search_options.h"
#include "status.h"
#include "weights.h"

static const char *const CMD = "analyse";

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab analyse -v VARIANT [--fen FEN] [--moves \"h2e2 h9g7 ...\"]\n"
        "                     [--playouts N | --movetime MS] [options]\n\n"
        "Searches one position (the rule set's start, or FEN, then the moves) and prints the\n"
        "best move, the root value (side to move's view, with its centipawn equivalent), the\n"
        "principal variation (the most visited line) and the root moves by visits with each\n"
        "one's share, value and prior.\n\n"
        "options:\n"
        "  -v, --variant V     rule set name (xqlab variants) or variant file (default xiangqi)\n"
        "      --fen FEN       start position (default: the rule set's)\n"
        "      --moves MOVES   moves played from it, ICCS (h2e2); a reveal names the piece\n"
        "                      turned up (a0a1R)\n"
        "      --playouts N    new playouts (default: the parameters', 200)\n"
        "      --movetime MS   milliseconds of search instead of a playout budget\n"
        "      --top K         list only the K most visited root moves (default: all)\n"
        "      --weights FILE  evaluation weights, or none (default: the nearest shipped file)\n"
        "      --preset NAME   search settings (configs/runs/NAME.ini or a file)\n"
        "      --set KEY=VALUE a search parameter (docs/cli.md), repeatable\n"
        "      --seed S        seed of the search (default 1; only root noise draws from it,\n"
        "                      and analyse adds none)\n"
        "      --json          one JSON object instead of the text\n"
        "  -h, --help          this help\n\n"
        "Centipawns: 100 x eval_scale x atanh(value), the inverse of the search's leaf value\n"
        "tanh(pawns / eval_scale) (docs/engine.md). Exit status: 0, 1 for a position without\n"
        "a legal move or a bad file, 2 for bad options, FEN or moves.\n");
}

typedef struct AnalyseOptions {
    const char *variant, *fen, *moves, *weights, *preset;
    const char *sets[64];
    int nsets;
    long playouts, movetime, top;
    uint64_t seed;
    bool json;
} AnalyseOptions;

static int parse_options(int argc, char **argv, AnalyseOptions *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (cli_is_help(a)) {
            usage(stdout);
            return -1;
        } else if ((!strcmp(a, "-v") || !strcmp(a, "--variant")) && has) {
            o->variant = argv[++i];
        } else if (!strcmp(a, "--fen") && has) {
            o->fen = argv[++i];
        } else if (!strcmp(a, "--moves") && has) {
            o->moves = argv[++i];
        } else if (!strcmp(a, "--weights") && has) {
            o->weights = argv[++i];
        } else if (!strcmp(a, "--preset") && has) {
            o->preset = argv[++i];
        } else if (!strcmp(a, "--set") && has) {
            if (o->nsets == 64)
                return cli_error(EXIT_USAGE, CMD, "too many --set options");
            o->sets[o->nsets++] = argv[++i];
        } else if (!strcmp(a, "--playouts") && has) {
            if (cli_parse_int(CMD, "--playouts", argv[++i], 1, 10000000, &o->playouts) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--movetime") && has) {
            if (cli_parse_int(CMD, "--movetime", argv[++i], 1, 86400000, &o->movetime) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--top") && has) {
            if (cli_parse_int(CMD, "--top", argv[++i], 1, XQ_MAX_MOVES, &o->top) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--seed") && has) {
            if (cli_parse_u64(CMD, "--seed", argv[++i], &o->seed) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--json")) {
            o->json = true;
        } else {
            return cli_bad_option(CMD, a, usage);
        }
    }
    if (o->playouts > 0 && o->movetime > 0)
        return cli_error(EXIT_USAGE, CMD, "--playouts and --movetime are alternatives: give one budget");
    return EXIT_OK;
}

/* Replays --moves; a reveal must name its identity (only drawn moves are played). */
static int play_moves(Position *pos, const char *moves)
{
    char *copy = strdup(moves ? moves : "");
    if (!copy)
        return cli_error(EXIT_FAILURE_RUN, CMD, "out of memory");
    int index = 0, rc = EXIT_OK;
    char *save = NULL;
    for (char *tok = strtok_r(copy, " ,\t\n", &save); tok; tok = strtok_r(NULL, " ,\t\n", &save)) {
        index++;
        char why[XQ_MSG_MAX];
        if (pos->hist_len >= XQ_MAX_HISTORY - 256) {
            rc = cli_error(EXIT_USAGE, CMD, "--moves: move %d '%s': the game is too long to search", index, tok);
            break;
        }
        Move m = move_parse(pos, tok, why, sizeof why);
        if (m != XQ_MOVE_NONE && hidden_on(pos->v) && hidden_is_chance(pos, m)) {
            snprintf(why, sizeof why, "a reveal must name the identity turned up (e.g. a0a1R, c3c3n)");
            m = XQ_MOVE_NONE;
        }
        if (m == XQ_MOVE_NONE) {
            rc = cli_error(EXIT_USAGE, CMD, "--moves: move %d '%s': %s", index, tok, why);
            break;
        }
        Undo u;
        pos_do_move(pos, m, &u);
    }
    free(copy);
    return rc;
}

/* Root moves sorted by visits (then prior), as indexes into the result. */
static const SearchResult *sort_result;

static int by_visits(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    const SearchResult *r = sort_result;
    if (r->depth > 0 && r->child_value[i] != r->child_value[j]) /* search = ab: by score */
        return r->child_value[i] > r->child_value[j] ? -1 : 1;
    if (r->child_visits[i] != r->child_visits[j])
        return r->child_visits[i] > r->child_visits[j] ? -1 : 1;
    if (r->child_prior[i] != r->child_prior[j])
        return r->child_prior[i] > r->child_prior[j] ? -1 : 1;
    return i - j;
}

static void print_text(const AnalyseOptions *o, const Variant *v, const char *fen, const SearchParams *p,
                       const SearchResult *r, const int *order, int n, const char *status, const char *weights)
{
    char mv[32];
    if (r->depth > 0)
        printf("analyse: %s, alpha-beta to depth %d, %d positions in %.3f s (%.0f positions/s%s)\n",
               v->name, r->depth, r->playouts, r->seconds, r->seconds > 0 ? r->playouts / r->seconds : 0.0,
               p->movetime > 0 ? ", timed" : "");
    else
        printf("analyse: %s, %d playouts in %.3f s (%.0f playouts/s%s)\n", v->name, r->playouts, r->seconds,
               r->seconds > 0 ? r->playouts / r->seconds : 0.0, p->movetime > 0 ? ", timed" : "");
    printf("fen      %s\n", fen);
    if (status)
        printf("status   %s (searched anyway: the game may go on under other rules)\n", status);
    printf("weights  %s\n", weights);
    move_to_iccs(v, r->best, mv);
    printf("best     %s\n", mv);
    if (r->proven)
        printf("value    %+.3f (proven %s in %d plies)\n", r->value, r->proven > 0 ? "win" : "loss", r->proven_plies);
    else
        printf("value    %+.3f (%+d cp, side to move's view)\n", r->value, score_value_cp(r->value, p->eval_scale));
    printf("pv      ");
    for (int i = 0; i < r->pv_len; i++) {
        move_to_iccs(v, r->pv[i], mv);
        printf(" %s", mv);
    }
    printf("\nroot     %d visits, %d moves\n", r->visits, r->nchildren);
    printf("  %-12s %8s %7s %8s %7s\n", "move", "visits", "share", "value", "prior");
    uint64_t total = 0;
    for (int i = 0; i < r->nchildren; i++)
        total += r->child_visits[i];
    for (int k = 0; k < n; k++) {
        int i = order[k];
        move_to_iccs(v, r->moves[i], mv);
        printf("  %-12s %8u %6.1f%% ", mv, r->child_visits[i],
               total ? 100.0 * r->child_visits[i] / (double)total : 0.0);
        if (r->depth > 0 && !r->child_visits[i]) /* alpha-beta: an upper bound */
            printf("<=%+6.3f", r->child_value[i]);
        else if (r->child_visits[i] || r->depth > 0)
            printf("%+8.3f", r->child_value[i]);
        else
            printf("%8s", "-");
        printf(" %7.4f\n", r->child_prior[i]);
    }
    (void)o;
}

static void print_json(const Variant *v, const char *fen, const SearchParams *p, const SearchResult *r,
                       const int *order, int n, const char *status, const char *weights)
{
    char mv[32];
    printf("{\"variant\": ");
    json_string(stdout, v->name);
    printf(", \"fen\": ");
    json_string(stdout, fen);
    printf(", \"status\": ");
    if (status)
        json_string(stdout, status);
    else
        printf("null");
    printf(", \"weights\": ");
    json_string(stdout, weights);
    printf(", \"timed\": %s, \"movetime\": %d, \"playouts\": %d, \"visits\": %d, \"seconds\": %.6f, "
           "\"truncated\": %s, \"best\": ", p->movetime > 0 ? "true" : "false", p->movetime, r->playouts,
           r->visits, r->seconds, r->truncated ? "true" : "false");
    move_to_iccs(v, r->best, mv);
    json_string(stdout, mv);
    printf(", \"value\": ");
    json_number(stdout, r->value);
    printf(", \"cp\": %d, \"proven\": %d, \"proven_plies\": %d, \"depth\": %d, \"pv\": [",
           score_value_cp(r->value, p->eval_scale), r->proven, r->proven_plies, r->depth);
    for (int i = 0; i < r->pv_len; i++) {
        move_to_iccs(v, r->pv[i], mv);
        printf(i ? ", " : "");
        json_string(stdout, mv);
    }
    printf("], \"moves\": [");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        move_to_iccs(v, r->moves[i], mv);
        printf("%s{\"move\": ", k ? ", " : "");
        json_string(stdout, mv);
        printf(", \"visits\": %u, \"value\": ", r->child_visits[i]);
        if (r->child_visits[i] || r->depth > 0)
            json_number(stdout, r->child_value[i]);
        else
            printf("null");
        printf(", \"prior\": ");
        json_number(stdout, r->child_prior[i]);
        printf("}");
    }
    printf("]}\n");
}

int cmd_analyse(int argc, char **argv)
{
    AnalyseOptions o = {.variant = "xiangqi", .seed = 1};
    int rc = parse_options(argc, argv, &o);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    SearchParams params;
    params_default(&params);
    if ((o.preset && (rc = cli_load_preset(CMD, o.preset, &params)) != EXIT_OK) ||
        (rc = cli_apply_sets(CMD, o.sets, o.nsets, &params)) != EXIT_OK)
        return rc;
    if (o.playouts > 0) {
        params.playouts = (int)o.playouts;
        params.movetime = 0;
    }
    if (o.movetime > 0)
        params.movetime = (int)o.movetime;

    Variant *v = cli_load_variant(o.variant);
    if (!v)
        return EXIT_FAILURE_RUN;
    Evaluator *e = NULL;
    Mcts *m = NULL;
    Position *pos = malloc(sizeof *pos);
    SearchResult *r = malloc(sizeof *r);
    if (!pos || !r) {
        rc = cli_error(EXIT_FAILURE_RUN, CMD, "out of memory");
        goto cleanup;
    }
    if (o.fen) {
        XqError err;
        if (pos_set_fen(pos, v, o.fen, &err) != 0) {
            rc = cli_error(EXIT_USAGE, CMD, "--fen: %s", err.message);
            goto cleanup;
        }
    } else {
        pos_init_start(pos, v);
    }
    if ((rc = play_moves(pos, o.moves)) != EXIT_OK)
        goto cleanup;
    char fen[1024], status[128];
    pos_get_fen(pos, fen, sizeof fen);
    GameStatus st = pos_game_status(pos);
    game_status_format(st, status, sizeof status);
    if (pos_count_legal(pos) == 0) {
        rc = cli_error(EXIT_FAILURE_RUN, CMD, "no legal move to analyse: %s", status);
        goto cleanup;
    }
    WeightsChoice wchoice;
    e = cli_weights_load(CMD, v, o.weights, cli_weights_use(&params), &wchoice);
    if (!e) {
        rc = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    char weights_line[1024];
    weights_describe(&wchoice, e, weights_line, sizeof weights_line);
    m = mcts_create(v, e, &params);
    if (!m) {
        rc = cli_error(EXIT_FAILURE_RUN, CMD, "out of memory for the search tree (arena_nodes = %d)",
                       params.arena_nodes);
        goto cleanup;
    }
    Rng rng;
    rng_init(&rng, o.seed);
    if (mcts_search(m, pos, &rng, false, r) != 0) {
        rc = cli_error(EXIT_FAILURE_RUN, CMD, "the search failed (no legal move)");
        goto cleanup;
    }
    int order[XQ_MAX_MOVES];
    for (int i = 0; i < r->nchildren; i++)
        order[i] = i;
    sort_result = r;
    qsort(order, (size_t)r->nchildren, sizeof order[0], by_visits);
    int n = o.top > 0 && o.top < r->nchildren ? (int)o.top : r->nchildren;
    const char *over = st.result != RESULT_NONE ? status : NULL;
    if (o.json)
        print_json(v, fen, &params, r, order, n, over, weights_line);
    else
        print_text(&o, v, fen, &params, r, order, n, over, weights_line);
    cli_warn_arena(CMD, NULL, mcts_truncated_searches(m), params.arena_nodes, "--set arena_nodes=N");
    rc = EXIT_OK;

cleanup:
    mcts_free(m);
    eval_free(e);
    free(r);
    free(pos);
    variant_free(v);
    return rc;
}
