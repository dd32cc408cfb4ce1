/* bench_eval.c - `xqlab bench eval`: the static evaluation alone, per rule set: nanoseconds per
 * eval_score call over the positions of fixed random games, and a signature of the scores (their
 * sum), so a faster evaluation can show it scores every position the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bad_option.h"
#include "common.h"
#include "eval.h"
#include "hidden.h"
#include "rng.h"
#include "weights.h"

static const char *const RULE_SETS[] = {"xiangqi", "sniper", "jieqi", "jieqi-folk", "banqi",
                                        "banqi-hp", "cube", "five-tigers", "mixed", "river-camp",
                                        "tuoqi"};
enum { NRULE_SETS = sizeof RULE_SETS / sizeof RULE_SETS[0] };

static const char HELP[] =
    "usage: xqlab bench eval [-v VARIANT] [--games N] [--plies P] [--repeat R]\n"
    "                        [--weights FILE|none]\n\n"
    "The static evaluation alone: N random games (default 40, seed fixed) of at most P\n"
    "plies (default 120) of each shipped rule set, or of VARIANT, are replayed R times\n"
    "(default 5) with and without an eval_score call after every move; prints the\n"
    "median nanoseconds per call (the difference of the two replays over the calls),\n"
    "the positions, a signature (a hash of every score's bits: the same for an\n"
    "evaluation that scores every position exactly the same) and the sum of the\n"
    "scores. Weights: the nearest shipped file, as the other commands, or --weights.\n";

typedef struct Game {
    Position *start; /* after the deal (hidden-piece rule sets) */
    Move *moves;
    int n;
} Game;

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A random legal game of at most `plies` plies from the start position (the deal and reveals of
 * hidden-piece rule sets drawn from the same generator). */
static int random_game(const Variant *v, Rng *rng, int plies, Position *scratch, Game *g)
{
    g->start = malloc(sizeof *g->start);
    g->moves = malloc((size_t)plies * sizeof *g->moves);
    g->n = 0;
    if (!g->start || !g->moves)
        return -1;
    pos_init_start(g->start, v);
    HiddenDeal deal;
    if (hidden_on(v)) {
        hidden_deal(g->start, rng, &deal);
        hidden_show_start(g->start, &deal, rng);
    }
    memcpy(scratch, g->start, sizeof *scratch);
    MoveList list;
    for (int i = 0; i < plies && scratch->hist_len < XQ_MAX_HISTORY - 1; i++) {
        int n = pos_generate_legal(scratch, &list);
        if (n == 0)
            break;
        Move m = list.moves[rng_below(rng, (uint32_t)n)];
        if (hidden_on(v))
            m = hidden_resolve(scratch, m, &deal);
        Undo u;
        pos_do_move(scratch, m, &u);
        g->moves[g->n++] = m;
    }
    return 0;
}

/* Replays every game, with an evaluation after every move if `eval`; returns the seconds. */
static double replay(const Evaluator *e, const Game *games, int ngames, Position *pos, bool eval,
                     double *sum, long *calls, uint64_t *hash)
{
    double t0 = cli_now(), s = 0;
    uint64_t h = 14695981039346656037ull;
    long n = 0;
    for (int i = 0; i < ngames; i++) {
        memcpy(pos, games[i].start, sizeof *pos);
        for (int j = 0; j < games[i].n; j++) {
            Undo u;
            pos_do_move(pos, games[i].moves[j], &u);
            if (eval) {
                double x = eval_score(e, pos);
                s += x;
                n++;
                uint64_t bits;
                memcpy(&bits, &x, sizeof bits);
                h = (h ^ bits) * 1099511628211ull;
            }
        }
    }
    double t = cli_now() - t0;
    if (sum)
        *sum = s;
    if (calls)
        *calls = n;
    if (hash)
        *hash = h;
    return t;
}

static int bench_one(const char *name, const char *weights, long ngames, long plies, long repeat)
{
    Variant *v = cli_load_variant(name);
    if (!v)
        return EXIT_FAILURE_RUN;
    WeightsChoice choice;
    Evaluator *e = cli_weights_load("bench eval", v, weights, WEIGHTS_FOR_DEFAULT, &choice);
    Game *games = calloc((size_t)ngames, sizeof *games);
    Position *pos = malloc(sizeof *pos);
    double *ns = calloc((size_t)repeat, sizeof *ns);
    int status = EXIT_OK;
    if (!e || !games || !pos || !ns) {
        status = EXIT_FAILURE_RUN;
        goto done;
    }
    Rng rng;
    rng_init(&rng, 20261202);
    for (long i = 0; i < ngames; i++)
        if (random_game(v, &rng, (int)plies, pos, &games[i]) < 0) {
            status = cli_error(EXIT_FAILURE_RUN, "bench eval", "out of memory");
            goto done;
        }
    double sum = 0;
    long calls = 0;
    uint64_t hash = 0;
    for (long r = 0; r < repeat; r++) {
        double without = replay(e, games, (int)ngames, pos, false, NULL, NULL, NULL);
        double with = replay(e, games, (int)ngames, pos, true, &sum, &calls, &hash);
        ns[r] = calls ? 1e9 * (with - without) / (double)calls : 0;
    }
    qsort(ns, (size_t)repeat, sizeof *ns, compare_doubles);
    char desc[1024];
    weights_describe(&choice, e, desc, sizeof desc);
    printf("%-12s %7ld positions %8.1f ns/eval  signature %016llx (sum %.6f)\n", v->name, calls,
           ns[repeat / 2], (unsigned long long)hash, sum);
    printf("             weights %.200s\n", desc);
done:
    if (games)
        for (long i = 0; i < ngames; i++) {
            free(games[i].start);
            free(games[i].moves);
        }
    free(games);
    free(pos);
    free(ns);
    eval_free(e);
    variant_free(v);
    return status;
}

int bench_eval(int argc, char **argv)
{
    long ngames = 40, plies = 120, repeat = 5;
    const char *variant = NULL, *weights = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(HELP, stdout);
            return EXIT_OK;
        } else if ((!strcmp(argv[i], "-v") || !strcmp(argv[i], "--variant")) && i + 1 < argc) {
            variant = argv[++i];
        } else if (!strcmp(argv[i], "--weights") && i + 1 < argc) {
            weights = argv[++i];
        } else if (!strcmp(argv[i], "--games") && i + 1 < argc) {
            if (cli_parse_int("bench eval", "--games", argv[++i], 1, 100000, &ngames) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(argv[i], "--plies") && i + 1 < argc) {
            if (cli_parse_int("bench eval", "--plies", argv[++i], 1, XQ_MAX_HISTORY - 1, &plies) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            if (cli_parse_int("bench eval", "--repeat", argv[++i], 1, 100, &repeat) < 0)
                return EXIT_USAGE;
        } else {
            return cli_bad_option_text("bench eval", argv[i], HELP);
        }
    }
    printf("bench eval: %ld random games of at most %ld plies per rule set, median of %ld runs\n",
           ngames, plies, repeat);
    if (variant)
        return bench_one(variant, weights, ngames, plies, repeat);
    for (int i = 0; i < NRULE_SETS; i++) {
        int rc = bench_one(RULE_SETS[i], weights, ngames, plies, repeat);
        if (rc != EXIT_OK)
            return rc;
    }
    return EXIT_OK;
}
