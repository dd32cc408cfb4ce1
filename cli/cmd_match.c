/* cmd_match.c - `xqlab match`: two players, colour-swapped game pairs, A's score. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "match.h"
#include "output.h"
#include "pgn.h"
#include "search_options.h"
#include "weights.h"
#include "status.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab match -v VARIANT --a PLAYER --b PLAYER [-n GAMES] [options]\n\n"
        "Plays GAMES games (rounded up to pairs) between players A and B. Each pair starts\n"
        "from the same short random opening, A playing Red in one game and Black in the\n"
        "other. Prints W/D/L of A per colour, A's score, the pentanomial pair counts, the\n"
        "Elo difference A - B with its 95%% interval and the likelihood of superiority\n"
        "(statistics over pairs: see docs/training.md).\n\n"
        "players:\n"
        "  random                      a uniformly random legal move\n"
        "  greedy                      captures the most valuable piece, else random\n"
        "  mcts[:key=value,...]        MCTS; keys: weights=FILE and any search parameter,\n"
        "                              e.g. mcts:playouts=400,weights=w.ini\n\n"
        "options:\n"
        "  -n, --games N         games (default 100)\n"
        "  -t, --threads T       worker threads (default all cores)\n"
        "      --seed S          base seed (default 1)\n"
        "      --opening-plies K random non-capturing opening moves per pair (default 4)\n"
        "      --fen FEN         start every pair from this position (then the random moves)\n"
        "      --openings FILE   start pair p from opening p of the book FILE (cycling; one\n"
        "                        opening a line: moves, a FEN, or FEN moves ...; docs/cli.md)\n"
        "                        instead of random moves; A plays each with both colours\n"
        "      --pgn FILE        keep the games: write them as PGN to FILE (game 2p: A as Red,\n"
        "                        2p+1: A as Black); never replaces FILE without --force\n"
        "      --force           replace an existing --pgn FILE\n"
        "      --preset NAME     base search settings for mcts players (configs/runs)\n"
        "      --movetime MS     mcts players think MS milliseconds per move instead of a\n"
        "                        playout budget (a player's playouts= keeps its budget); the\n"
        "                        summary gives each side's playouts per move\n"
        "      --sprt E0,E1,A,B  sequential test of H0: Elo = E0 against H1: Elo = E1 with error\n"
        "                        rates A, B: stops at the first verdict, checked pair by pair\n"
        "                        in pair order (the same verdict for any thread count);\n"
        "                        -n is then the maximum. Exit 0 either way; the verdict is\n"
        "                        printed (H1 accepted = A stronger by about E1)\n"
        "      --sprt-min-pairs N no SPRT verdict before N pairs (default 200)\n"
        "      --json            print the result as JSON\n"
        "      --quiet           no progress lines\n");
}

/* The kept games as PGN into the claimed output (cli/output.h: FILE.tmp renamed over FILE).
 * Red and Black name the players with their A / B role. */
static int write_pgn(CliOutput *out, const Variant *v, GameRecord *records, uint64_t n, const char *a_label,
                     const char *b_label, const char *openings)
{
    char a_name[300], b_name[300], event[400], round[32], date[16];
    FILE *f = cli_output_fopen(out);
    if (!f)
        return EXIT_FAILURE_RUN;
    snprintf(a_name, sizeof a_name, "A: %s", a_label);
    snprintf(b_name, sizeof b_name, "B: %s", b_label);
    snprintf(event, sizeof event, "xqlab match, %s%s%s", v->name, openings ? ", openings " : "", openings ? openings : "");
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    uint64_t written = 0;
    XqError err;
    for (uint64_t g = 0; g < n; g++) {
        if (records[g].nmoves < 0)
            continue;
        snprintf(round, sizeof round, "%" PRIu64, g + 1);
        bool a_red = g % 2 == 0;
        PgnTags tags = {event, NULL, date, round, a_red ? a_name : b_name, a_red ? b_name : a_name,
                        PGN_NOTATION_DEFAULT, false, NULL};
        if (pgn_write_game(f, v, &records[g], &tags, &err) < 0)
            return cli_error(EXIT_FAILURE_RUN, "match", "--pgn: game %" PRIu64 ": %s", g + 1, err.message);
        written++;
    }
    if (cli_output_commit(out) != EXIT_OK)
        return EXIT_FAILURE_RUN;
    fprintf(stderr, "xqlab match: %" PRIu64 " games written to %s\n", written, out->path);
    return EXIT_OK;
}

/* JSON has no infinities: an unbounded Elo (all wins or all losses) prints as null. */
static void json_elo(double x)
{
    if (isfinite(x))
        printf("%.3f", x);
    else
        printf("null");
}

int cmd_match(int argc, char **argv)
{
    const char *variant_arg = NULL, *a_text = NULL, *b_text = NULL, *preset = NULL;
    const char *openings = NULL, *pgn_out = NULL, *fen = NULL;
    bool force = false, opening_given = false;
    long games = 100, threads = 0, opening = 4, movetime = 0;
    uint64_t seed = 1;
    bool json = false, quiet = false;
    SprtSpec sprt;
    bool use_sprt = false;
    long min_pairs = SPRT_MIN_PAIRS_DEFAULT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if ((!strcmp(a, "-v") || !strcmp(a, "--variant")) && has) {
            variant_arg = argv[++i];
        } else if (!strcmp(a, "--a") && has) {
            a_text = argv[++i];
        } else if (!strcmp(a, "--b") && has) {
            b_text = argv[++i];
        } else if ((!strcmp(a, "-n") || !strcmp(a, "--games")) && has) {
            if (cli_parse_int("match", "--games", argv[++i], 1, 100000000L, &games) < 0)
                return EXIT_USAGE;
        } else if ((!strcmp(a, "-t") || !strcmp(a, "--threads")) && has) {
            if (cli_parse_int("match", "--threads", argv[++i], 1, 1024, &threads) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--seed") && has) {
            if (cli_parse_u64("match", "--seed", argv[++i], &seed) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--opening-plies") && has) {
            if (cli_parse_int("match", "--opening-plies", argv[++i], 0, 40, &opening) < 0)
                return EXIT_USAGE;
            opening_given = true;
        } else if (!strcmp(a, "--openings") && has) {
            openings = argv[++i];
        } else if (!strcmp(a, "--fen") && has) {
            fen = argv[++i];
        } else if (!strcmp(a, "--pgn") && has) {
            pgn_out = argv[++i];
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (!strcmp(a, "--preset") && has) {
            preset = argv[++i];
        } else if (!strcmp(a, "--movetime") && has) {
            if (cli_parse_int("match", "--movetime", argv[++i], 1, 86400000, &movetime) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--sprt") && has) {
            char msg[200];
            if (sprt_parse(&sprt, argv[++i], msg, sizeof msg) < 0)
                return cli_error(EXIT_USAGE, "match", "--sprt: %s", msg);
            use_sprt = true;
        } else if (!strcmp(a, "--sprt-min-pairs") && has) {
            if (cli_parse_int("match", "--sprt-min-pairs", argv[++i], 0, 100000000L, &min_pairs) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else {
            return cli_bad_option("match", a, usage);
        }
    }
    sprt.min_pairs = (int)min_pairs;
    if (!variant_arg || !a_text || !b_text)
        return cli_error(EXIT_USAGE, "match", "needs -v VARIANT, --a PLAYER and --b PLAYER");
    if (fen && openings)
        return cli_error(EXIT_USAGE, "match", "--fen and --openings exclude each other");
    if (openings && opening_given)
        return cli_error(EXIT_USAGE, "match", "--openings and --opening-plies exclude each other (a book "
                         "opening replaces the random moves)");

    int status = EXIT_OK;
    XqError err;
    SearchParams base;
    params_default(&base);
    PlayerSpec sa, sb;
    PlayerShared pa = {0}, pb = {0};
    Variant *v = NULL;
    Book book = {0};
    GameRecord *records = NULL;
    CliOutput pgn = CLI_OUTPUT_INIT;
    uint64_t pairs = (uint64_t)(games + 1) / 2;
    /* Claimed before the games (cli/output.h): a refused --pgn costs nothing. */
    const char *inputs[1] = {openings};
    if (pgn_out && (status = cli_output_claim(&pgn, "match", "--pgn", pgn_out, force ? CLI_OUTPUT_FORCE : 0,
                                              inputs, openings ? 1 : 0)) != EXIT_OK)
        return status;
    if (preset && (status = cli_load_preset("match", preset, &base)) != EXIT_OK) {
        cli_output_release(&pgn);
        return status;
    }
    if (movetime > 0)
        base.movetime = (int)movetime; /* a player's own playouts= or movetime= still wins */
    if (player_parse(&sa, a_text, &base, &err) < 0 || player_parse(&sb, b_text, &base, &err) < 0) {
        cli_output_release(&pgn);
        return cli_error(EXIT_USAGE, "match", "%s: %s", err.file, err.message);
    }
    v = cli_load_variant(variant_arg);
    if (!v) {
        cli_output_release(&pgn);
        return EXIT_FAILURE_RUN;
    }
    /* A player without weights=FILE plays with the nearest shipped file for its search (random and
     * greedy players, which do not search, with the plain file's piece values). */
    WeightsChoice wchoice[2];
    WeightsUse use_a = sa.kind == PLAYER_MCTS ? cli_weights_use(&sa.params) : WEIGHTS_FOR_DEFAULT;
    WeightsUse use_b = sb.kind == PLAYER_MCTS ? cli_weights_use(&sb.params) : WEIGHTS_FOR_DEFAULT;
    if ((status = cli_weights_nearest("match", v, use_a, &wchoice[0])) != EXIT_OK ||
        (status = cli_weights_nearest("match", v, use_b, &wchoice[1])) != EXIT_OK)
        goto cleanup;
    if (player_shared_init(&pa, &sa, v, wchoice[0].path[0] ? wchoice[0].path : NULL, &err) < 0 ||
        player_shared_init(&pb, &sb, v, wchoice[1].path[0] ? wchoice[1].path : NULL, &err) < 0) {
        status = cli_report("match", &err);
        goto cleanup;
    }
    /* Which weights each player plays with (a player's weights=FILE, else the nearest shipped). */
    char wline[2][1100];
    const PlayerShared *players[2] = {&pa, &pb};
    for (int k = 0; k < 2; k++) {
        if (players[k]->spec.weights[0]) {
            WeightsChoice given = {.how = WEIGHTS_GIVEN};
            snprintf(given.path, sizeof given.path, "%s", players[k]->spec.weights);
            XqError ferr; /* eval_create has read the file already */
            weights_fit(players[k]->eval, given.path, &given.fit, &ferr);
            weights_describe(&given, players[k]->eval, wline[k], sizeof wline[k]);
        } else {
            weights_describe(&wchoice[k], players[k]->eval, wline[k], sizeof wline[k]);
        }
    }
    if (openings && book_load(&book, v, openings, &err) < 0) {
        status = cli_report("match", &err);
        goto cleanup;
    }
    if (fen) {
        Position *check = malloc(sizeof *check);
        int frc = check ? pos_set_fen(check, v, fen, &err) : -1;
        free(check);
        if (frc < 0) {
            status = cli_error(EXIT_USAGE, "match", "bad --fen: %s", check ? err.message : "out of memory");
            goto cleanup;
        }
    }
    if (pgn_out && !(records = calloc(pairs * 2, sizeof *records))) {
        status = cli_error(EXIT_FAILURE_RUN, "match", "out of memory");
        goto cleanup;
    }
    MatchOptions o = {
        .variant = v,
        .a = &pa,
        .b = &pb,
        .pairs = pairs,
        .seed = seed,
        .threads = (int)threads,
        .opening_plies = (int)opening,
        .max_plies = sa.params.max_plies,
        .progress = !quiet,
        .stop = cli_stop_flag(),
        .sprt = use_sprt ? &sprt : NULL,
        .start_fen = fen,
        .book = openings ? &book : NULL,
        .records = records,
    };
    cli_stop_signals_catch();
    MatchTotals t;
    int rc = match_run(&o, &t, &err);
    cli_stop_signals_release();
    if (rc < 0) {
        status = cli_report("match", &err);
        goto cleanup;
    }
    cli_warn_arena("match", "player A", t.truncated_searches[0], sa.params.arena_nodes,
                   "--a mcts:arena_nodes=N");
    cli_warn_arena("match", "player B", t.truncated_searches[1], sb.params.arena_nodes,
                   "--b mcts:arena_nodes=N");
    double score = match_score(&t);
    EloEstimate elo;
    elo_estimate(t.pentanomial, &elo);
    const char *verdict = t.sprt_verdict == SPRT_ACCEPT_H1 ? "H1" : t.sprt_verdict == SPRT_ACCEPT_H0 ? "H0" : "none";
    double lower = 0, upper = 0;
    if (use_sprt)
        sprt_bounds(&sprt, &lower, &upper);
    if (json) {
        printf("{\"variant\": \"%s\", \"a\": \"%s\", \"b\": \"%s\", \"games\": %llu, "
               "\"a_as_red\": [%llu, %llu, %llu], \"a_as_black\": [%llu, %llu, %llu], "
               "\"pentanomial\": [%llu, %llu, %llu, %llu, %llu], \"a_score\": %.6f, "
               "\"interrupted\": %s, ", v->name, sa.label, sb.label, (unsigned long long)t.games,
               (unsigned long long)t.a_red[0], (unsigned long long)t.a_red[1],
               (unsigned long long)t.a_red[2], (unsigned long long)t.a_black[0],
               (unsigned long long)t.a_black[1], (unsigned long long)t.a_black[2],
               (unsigned long long)t.pentanomial[0], (unsigned long long)t.pentanomial[1],
               (unsigned long long)t.pentanomial[2], (unsigned long long)t.pentanomial[3],
               (unsigned long long)t.pentanomial[4], score, t.interrupted ? "true" : "false");
        for (int k = 0; k < 2; k++) {
            const SearchParams *pp = k ? &sb.params : &sa.params;
            bool mcts = (k ? sb.kind : sa.kind) == PLAYER_MCTS;
            printf("\"%s_movetime\": %d, \"%s_playouts_per_move\": %.1f, ", k ? "b" : "a",
                   mcts ? pp->movetime : 0, k ? "b" : "a",
                   t.searches[k] ? (double)t.playouts[k] / (double)t.searches[k] : 0.0);
        }
        printf("\"a_weights\": ");
        json_string(stdout, wline[0]);
        printf(", \"b_weights\": ");
        json_string(stdout, wline[1]);
        printf(", ");
        printf("\"elo\": ");
        json_elo(elo.elo);
        printf(", \"elo_95\": [");
        json_elo(elo.elo_low);
        printf(", ");
        json_elo(elo.elo_high);
        printf("], \"a_score_ci95\": [%.6f, %.6f], \"score_se\": %.6f, \"los\": %.6f", elo.score_low,
               elo.score_high, elo.score_se, elo.los);
        if (use_sprt)
            printf(", \"sprt\": {\"elo0\": %g, \"elo1\": %g, \"alpha\": %g, \"beta\": %g, "
                   "\"min_pairs\": %d, \"llr\": %.4f, \"lower\": %.4f, \"upper\": %.4f, \"verdict\": \"%s\"}",
                   sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, sprt.min_pairs, t.sprt_llr, lower,
                   upper, verdict);
        printf("}\n");
    } else {
        printf("match: %s, A = %s, B = %s, %llu games%s\n", v->name, sa.label, sb.label,
               (unsigned long long)t.games, t.interrupted ? " (interrupted)" : "");
        printf("weights A:  %s\nweights B:  %s\n", wline[0], wline[1]);
        for (int k = 0; k < 2; k++) {
            const PlayerSpec *ps = k ? &sb : &sa;
            if (ps->kind != PLAYER_MCTS || !t.searches[k])
                continue;
            double per_move = (double)t.playouts[k] / (double)t.searches[k];
            if (ps->params.movetime > 0)
                printf("search %c:   %d ms/move (timed), %.0f playouts/move on average\n", 'A' + k,
                       ps->params.movetime, per_move);
            else
                printf("search %c:   %.0f playouts/move\n", 'A' + k, per_move);
        }
        printf("A as red:   %llu W / %llu D / %llu L\n", (unsigned long long)t.a_red[0],
               (unsigned long long)t.a_red[1], (unsigned long long)t.a_red[2]);
        printf("A as black: %llu W / %llu D / %llu L\n", (unsigned long long)t.a_black[0],
               (unsigned long long)t.a_black[1], (unsigned long long)t.a_black[2]);
        printf("terminations:");
        for (int r = 1; r < TERM_COUNT; r++)
            if (t.by_reason[r])
                printf("  %s %llu", termination_name((Termination)r), (unsigned long long)t.by_reason[r]);
        printf("\nA score: %.1f%%  (95%% CI %.1f%% .. %.1f%% over pairs, pentanomial)\n", 100.0 * score,
               100.0 * elo.score_low, 100.0 * elo.score_high);
        printf("pentanomial (pairs by A's points 0, 0.5, 1, 1.5, 2): %llu %llu %llu %llu %llu\n",
               (unsigned long long)t.pentanomial[0], (unsigned long long)t.pentanomial[1],
               (unsigned long long)t.pentanomial[2], (unsigned long long)t.pentanomial[3],
               (unsigned long long)t.pentanomial[4]);
        printf("Elo A - B: %+.1f  95%% interval [%+.1f, %+.1f]  (score %.4f +- %.4f)\n", elo.elo,
               elo.elo_low, elo.elo_high, elo.score, elo.score_se);
        printf("LOS: %.2f%%\n", 100.0 * elo.los);
        if (use_sprt)
            printf("SPRT [%g, %g] alpha %g beta %g: LLR %.3f (bounds %.3f, %.3f) -> %s\n", sprt.elo0,
                   sprt.elo1, sprt.alpha, sprt.beta, t.sprt_llr, lower, upper,
                   t.sprt_verdict == SPRT_ACCEPT_H1 ? "H1 accepted (A is stronger)"
                   : t.sprt_verdict == SPRT_ACCEPT_H0 ? "H0 accepted (A is not stronger by E1)"
                                                      : "no verdict (game limit reached)");
    }
    if (pgn_out && (status = write_pgn(&pgn, v, records, pairs * 2, sa.label, sb.label, openings)) != EXIT_OK)
        goto cleanup;
    if (t.interrupted)
        status = 130;
cleanup:
    cli_output_release(&pgn);
    for (uint64_t g = 0; records && g < pairs * 2; g++)
        free(records[g].moves);
    free(records);
    book_free(&book);
    player_shared_free(&pa);
    player_shared_free(&pb);
    variant_free(v);
    return status;
}
