/* bench_strength.c - `xqlab bench strength`: xqlab against an external UCI engine (default
 * Debian's Fairy-Stockfish) in colour-swapped pairs from balanced openings, refereed by the rules
 * core; W/D/L, pentanomial Elo, measured CPU per move, and the time-odds factor for 50%. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bad_option.h"
#include "bench.h"
#include "common.h"
#include "elo.h"
#include "hidden.h"
#include "odds_search.h"
#include "output.h"
#include "strength.h"

#define CMD "bench strength"

enum { MAX_ENGINE_OPTIONS = 32, RULES_CHECK_DEPTH = 3, RULES_CHECK_OPENINGS = 2 };

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab bench strength [-v VARIANT] [--movetime MS] [--odds K | --find-odds] [-n GAMES]\n"
        "                            [--xqlab CMD] [--engine CMD] [options]\n\n"
        "Plays xqlab against an external UCI engine, both as subprocesses, in colour-swapped pairs\n"
        "from a file of balanced openings (each opening once with each colour), at the same wall-clock\n"
        "time per move or with time odds, refereed by xqlab's rules core: every move is checked,\n"
        "the game ends by mate, stalemate, repetition verdict, move limit or the length cap; an\n"
        "engine that dies, stays silent past its time or plays an illegal move loses that game.\n"
        "Prints xqlab's W/D/L, score, the Elo difference xqlab - engine with its 95%% interval from\n"
        "the pentanomial pair counts, each side's CPU milliseconds per move measured from its\n"
        "process, and the terminations (docs/engine.md, section Strength).\n\n"
        "options:\n"
        "  -v, --variant V        rule set (default xiangqi). Fairy-Stockfish plays xiangqi, and\n"
        "                         sniper through configs/fairy/sniper.ini (Fairy-Stockfish 14 or\n"
        "                         later); two xqlab engines play every rule set without hidden pieces\n"
        "      --movetime MS      the engine's wall-clock time per move (default 100)\n"
        "      --odds K           xqlab gets K times the engine's time per move (default 1)\n"
        "      --find-odds        search the odds K at which xqlab scores 50%%: K grows by\n"
        "                         --odds-growth until the 50%% point is bracketed, then the bracket\n"
        "                         is halved (geometrically) until hi/lo <= --odds-ratio; -n games\n"
        "                         per step (default 40)\n"
        "      --odds-start K     first odds of --find-odds (default 1)\n"
        "      --odds-growth F    bracketing factor (default 4)\n"
        "      --odds-ratio R     bracket precision (default 1.25)\n"
        "      --odds-max K       largest odds tried (default 64; also 1/K the smallest)\n"
        "  -n, --games N          games, rounded up to pairs (default 100)\n"
        "  -j, --concurrency N    games at once, each with its own two engine processes (default:\n"
        "                         the number of cores); every engine runs one search thread\n"
        "      --xqlab CMD        the xqlab side's UCI command line (default: this program's\n"
        "                         'engine' mode). Any UCI engine, e.g. another xqlab build\n"
        "      --engine CMD       the opponent's UCI command line (default /usr/games/fairy-stockfish)\n"
        "      --xqlab-option N=V, --engine-option N=V\n"
        "                         setoption for that side (repeatable; the engine must list N)\n"
        "      --xqlab-ranks R, --engine-ranks R\n"
        "                         the side counts ranks from R = 0 (ICCS, UCCI, Pikafish) or 1\n"
        "                         (Fairy-Stockfish); default auto: 1 for Fairy-Stockfish, else 0\n"
        "      --openings FILE    opening book (default configs/openings/VARIANT.txt)\n"
        "      --seed S           shuffles the order of the openings (default 1; 0 = file order)\n"
        "      --max-plies N      draw after N plies, opening included (default 400)\n"
        "      --grace MS         wall time past its movetime before a silent engine loses\n"
        "                         (default 2000)\n"
        "      --check-rules D    only check that each Fairy-Stockfish side plays by xqlab's rules:\n"
        "                         the same legal moves and perft D from the start position and from\n"
        "                         every opening of the book; exit 0 if so, 1 if not (without it a run\n"
        "                         checks depth 3 from the start and the first 2 openings)\n"
        "      --pgn FILE         keep every game (written as FILE.tmp, renamed at the end of the\n"
        "                         run, also an interrupted or failed one)\n"
        "      --log FILE         every line sent to and received from the engines\n"
        "      --force            replace an existing --pgn / --log FILE (never an input)\n"
        "      --engine-stderr FILE\n"
        "                         append the engines' standard error to FILE (default: discarded)\n"
        "      --json             print the result as JSON\n"
        "      --quiet            no progress line\n");
}

/* Why an outside engine cannot play a rule set: its rule modules, or no variant file shipped. */
static const char *outside_reason(const Variant *v)
{
    if (v->modules & MOD_CAMP)
        return "its river camp (pieces leave the board into a camp and come back) is beyond what "
               "Fairy-Stockfish's variant files can describe";
    if (v->modules & MOD_CUBE)
        return "its generals are cubes whose face changes the way they move, which Fairy-Stockfish's "
               "variant files cannot describe";
    if (v->modules & MOD_MULTIMOVE)
        return "one side moves two pieces in a turn, which Fairy-Stockfish's variant files cannot describe";
    if (v->modules & (MOD_DISPLACE | MOD_PROMOTE))
        return "its displacement moves (an enemy piece pushed by its own moves) and queen promotion are "
               "beyond what Fairy-Stockfish's variant files can describe";
    if (v->modules & MOD_RESERVE)
        return "its captured pieces come back by exchange, which Fairy-Stockfish's variant files cannot describe";
    return "the project ships no Fairy-Stockfish variant file for it (configs/fairy/NAME.ini)";
}

/* "'PATH' engine" for this very program. */
static int self_engine_command(char *buf, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    if (strchr(exe, '\''))
        return -1;
    snprintf(buf, size, "'%s' engine", exe);
    return 0;
}

static void load_average(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    double a, b, c;
    if (fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3)
        snprintf(buf, size, "%.2f %.2f %.2f", a, b, c);
    fclose(f);
}

static void json_number(double x)
{
    if (isfinite(x))
        printf("%.3f", x);
    else
        printf("null");
}

/* Odds keep their significant digits (1/64 = 0.015625). */
static void json_odds(double x)
{
    if (isfinite(x))
        printf("%.6g", x);
    else
        printf("null");
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

static double per_move(double total, uint64_t moves)
{
    return moves ? total / (double)moves : NAN;
}

/* Starts each side once in this thread, before any game: clear refusals (rule set, options, a
 * command that does not run). The engines are left running for check_rules. */
static int probe_start(const Variant *v, const UciEngineSpec *spec[2], bool has_fairy_file, UciEngine e[2])
{
    for (int s = 0; s < 2; s++) {
        UciStatus st = uci_engine_start(&e[s], spec[s], cli_stop_flag());
        if (st == UCI_OK)
            continue;
        if (s == 1)
            uci_engine_quit(&e[0]);
        if (st == UCI_STOPPED)
            return 130;
        if (st == UCI_REFUSED && e[s].fairy && strcmp(v->name, "xiangqi") && !has_fairy_file)
            return cli_error(EXIT_FAILURE_RUN, CMD, "%s (%s) cannot play %s: %s", e[s].name, spec[s]->role,
                             v->name, outside_reason(v));
        return cli_error(EXIT_FAILURE_RUN, CMD, "%s", e[s].detail);
    }
    return EXIT_OK;
}

/* The perft rules check of the sides that can count (Fairy-Stockfish), from the start position
 * and the first openings at `depth`; ends both engines. rules_note describes what was checked. */
static int check_rules(const Variant *v, const Book *book, int openings, int depth, const UciEngineSpec *spec[2],
                       bool has_fairy_file, UciEngine e[2], char *rules_note, size_t note_size)
{
    int status = EXIT_OK;
    rules_note[0] = '\0';
    if (openings > book->count)
        openings = book->count;
    for (int s = 0; s < 2 && status == EXIT_OK; s++) {
        if (!e[s].fairy || (s == 1 && e[0].fairy && !strcmp(spec[0]->command, spec[1]->command)))
            continue;
        char msg[600];
        int rc = referee_check_rules(&e[s], v, book, openings, depth, msg, sizeof msg, cli_stop_flag());
        if (rc < 0) {
            status = cli_error(EXIT_FAILURE_RUN, CMD, "rules check of %s: %s", spec[s]->role, msg);
        } else if (rc > 0) {
            const char *why = "";
            if (has_fairy_file && e[s].fairy_version > 0 && e[s].fairy_version < 14)
                why = "; Fairy-Stockfish before version 14 has no custom pieces, so its variant file cannot "
                      "define this rule set's pieces: use a newer build";
            status = cli_error(EXIT_FAILURE_RUN, CMD, "%s (%s) does not play %s by xqlab's rules: %s%s",
                               spec[s]->role, e[s].name, v->name, msg, why);
        } else {
            size_t used = strlen(rules_note);
            snprintf(rules_note + used, note_size - used,
                     "%s%s plays by xqlab's rules (same legal moves, perft %d equal) from the start "
                     "position and %d opening%s", used ? "; " : "", e[s].name, depth, openings,
                     openings == 1 ? "" : "s");
        }
    }
    uci_engine_quit(&e[0]);
    uci_engine_quit(&e[1]);
    if (status == EXIT_OK && !rules_note[0])
        snprintf(rules_note, note_size, "not available (neither side is Fairy-Stockfish); the referee "
                 "checks every move");
    return status;
}

static void print_side_json(const char *key, const UciEngineSpec *spec, const StrengthSide *s)
{
    printf("\"%s\": {\"command\": ", key);
    json_string(spec->command);
    printf(", \"name\": ");
    json_string(s->name);
    printf(", \"movetime_ms\": %d, \"moves\": %llu, \"cpu_ms_per_move\": ", s->movetime_ms,
           (unsigned long long)s->moves);
    json_number(per_move(s->cpu_ms, s->cpu_moves));
    printf(", \"wall_ms_per_move\": ");
    json_number(per_move(s->wall_ms, s->moves));
    printf(", \"max_wall_ms\": %.1f, \"starts\": %llu, \"lost_by\": {\"died\": %llu, \"time_forfeit\": %llu, "
           "\"illegal_move\": %llu}", s->max_wall_ms, (unsigned long long)s->starts,
           (unsigned long long)s->failures[GAME_END_DIED], (unsigned long long)s->failures[GAME_END_TIMEOUT],
           (unsigned long long)s->failures[GAME_END_ILLEGAL]);
    if (s->first_failure[0]) {
        printf(", \"first_failure\": ");
        json_string(s->first_failure);
    }
    printf("}");
}

static void print_result_json(const StrengthOptions *o, const StrengthTotals *t, const EloEstimate *elo)
{
    printf("{\"odds\": %g, \"games\": %llu, \"pairs\": %llu, \"wdl\": [%llu, %llu, %llu], "
           "\"as_red\": [%llu, %llu, %llu], \"as_black\": [%llu, %llu, %llu], "
           "\"pentanomial\": [%llu, %llu, %llu, %llu, %llu], \"score\": %.6f, \"elo\": ",
           o->odds, (unsigned long long)t->games, (unsigned long long)t->pairs,
           (unsigned long long)(t->a_red[0] + t->a_black[0]), (unsigned long long)(t->a_red[1] + t->a_black[1]),
           (unsigned long long)(t->a_red[2] + t->a_black[2]), (unsigned long long)t->a_red[0],
           (unsigned long long)t->a_red[1], (unsigned long long)t->a_red[2], (unsigned long long)t->a_black[0],
           (unsigned long long)t->a_black[1], (unsigned long long)t->a_black[2],
           (unsigned long long)t->pentanomial[0], (unsigned long long)t->pentanomial[1],
           (unsigned long long)t->pentanomial[2], (unsigned long long)t->pentanomial[3],
           (unsigned long long)t->pentanomial[4], strength_score(t));
    json_number(elo->elo);
    printf(", \"elo_95\": [");
    json_number(elo->elo_low);
    printf(", ");
    json_number(elo->elo_high);
    printf("], \"los\": %.6f, \"mean_plies\": ", elo->los);
    json_number(t->games ? (double)t->plies / (double)t->games : NAN);
    printf(", \"terminations\": {");
    bool first = true;
    for (int r = 1; r < TERM_COUNT; r++)
        if (t->by_reason[r]) {
            printf("%s\"%s\": %llu", first ? "" : ", ", termination_name((Termination)r),
                   (unsigned long long)t->by_reason[r]);
            first = false;
        }
    for (int e = GAME_END_DIED; e <= GAME_END_ILLEGAL; e++)
        if (t->by_end[e]) {
            printf("%s\"%s\": %llu", first ? "" : ", ", game_end_name((GameEnd)e), (unsigned long long)t->by_end[e]);
            first = false;
        }
    printf("}, \"seconds\": %.1f, \"interrupted\": %s, ", t->seconds, t->interrupted ? "true" : "false");
    print_side_json("xqlab", o->a, &t->side[0]);
    printf(", ");
    print_side_json("engine", o->b, &t->side[1]);
    printf("}");
}

static void print_side_text(const char *role, const StrengthSide *s)
{
    printf("  %-7s %-32s %5d ms/move asked, %6.1f CPU ms/move measured, %6.1f wall ms/move (longest %.0f)\n",
           role, s->name, s->movetime_ms, per_move(s->cpu_ms, s->cpu_moves), per_move(s->wall_ms, s->moves),
           s->max_wall_ms);
}

static void print_result_text(const StrengthOptions *o, const StrengthTotals *t, const EloEstimate *elo)
{
    uint64_t w = t->a_red[0] + t->a_black[0], d = t->a_red[1] + t->a_black[1], l = t->a_red[2] + t->a_black[2];
    printf("%s W/D/L: %llu / %llu / %llu   (as red %llu/%llu/%llu, as black %llu/%llu/%llu)%s\n",
           o->a->role, (unsigned long long)w, (unsigned long long)d, (unsigned long long)l,
           (unsigned long long)t->a_red[0], (unsigned long long)t->a_red[1], (unsigned long long)t->a_red[2],
           (unsigned long long)t->a_black[0], (unsigned long long)t->a_black[1],
           (unsigned long long)t->a_black[2], t->interrupted ? "  (interrupted)" : "");
    printf("score: %.1f%%   Elo %s - %s: %+.0f  95%% interval [%+.0f, %+.0f]  LOS %.1f%%\n",
           100 * strength_score(t), o->a->role, o->b->role, elo->elo, elo->elo_low, elo->elo_high, 100 * elo->los);
    printf("pentanomial (pairs by %s's points 0, 0.5, 1, 1.5, 2): %llu %llu %llu %llu %llu over %llu pairs\n",
           o->a->role, (unsigned long long)t->pentanomial[0], (unsigned long long)t->pentanomial[1],
           (unsigned long long)t->pentanomial[2], (unsigned long long)t->pentanomial[3],
           (unsigned long long)t->pentanomial[4], (unsigned long long)t->pairs);
    print_side_text(o->a->role, &t->side[0]);
    print_side_text(o->b->role, &t->side[1]);
    double ca = per_move(t->side[0].cpu_ms, t->side[0].cpu_moves), cb = per_move(t->side[1].cpu_ms, t->side[1].cpu_moves);
    if (isfinite(ca) && isfinite(cb) && cb > 0)
        printf("  CPU time ratio %s / %s: %.2f\n", o->a->role, o->b->role, ca / cb);
    printf("terminations:");
    for (int r = 1; r < TERM_COUNT; r++)
        if (t->by_reason[r])
            printf("  %s %llu", termination_name((Termination)r), (unsigned long long)t->by_reason[r]);
    for (int e = GAME_END_DIED; e <= GAME_END_ILLEGAL; e++)
        if (t->by_end[e])
            printf("  %s %llu", game_end_name((GameEnd)e), (unsigned long long)t->by_end[e]);
    printf("\n");
    for (int s = 0; s < 2; s++)
        if (t->side[s].first_failure[0])
            printf("%s lost %llu games by engine failures (died %llu, time forfeit %llu, illegal move %llu); "
                   "first: %s\n", s == 0 ? o->a->role : o->b->role,
                   (unsigned long long)(t->side[s].failures[GAME_END_DIED] + t->side[s].failures[GAME_END_TIMEOUT] +
                                        t->side[s].failures[GAME_END_ILLEGAL]),
                   (unsigned long long)t->side[s].failures[GAME_END_DIED],
                   (unsigned long long)t->side[s].failures[GAME_END_TIMEOUT],
                   (unsigned long long)t->side[s].failures[GAME_END_ILLEGAL], t->side[s].first_failure);
    printf("games: %llu, mean length %.1f plies, %.1f s\n", (unsigned long long)t->games,
           t->games ? (double)t->plies / (double)t->games : 0.0, t->seconds);
}

typedef struct Args {
    const char *variant, *xqlab, *engine, *openings, *pgn, *log, *engine_stderr;
    long movetime, games, concurrency, max_plies, grace, ranks[2], check_rules;
    double odds, odds_start, odds_growth, odds_ratio, odds_max;
    uint64_t seed;
    bool find_odds, json, quiet, games_given, force;
    int noptions[2];
    const char *options[2][MAX_ENGINE_OPTIONS];
} Args;

static int parse_ranks(const char *option, const char *text, long *out)
{
    if (!strcmp(text, "auto")) {
        *out = UCI_RANKS_AUTO;
        return 0;
    }
    return cli_parse_int(CMD, option, text, 0, 1, out);
}

static int parse_args(int argc, char **argv, Args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        bool has = i + 1 < argc;
        if (cli_is_help(s)) {
            usage(stdout);
            return -2;
        } else if ((!strcmp(s, "-v") || !strcmp(s, "--variant")) && has) {
            a->variant = argv[++i];
        } else if (!strcmp(s, "--movetime") && has) {
            if (cli_parse_int(CMD, "--movetime", argv[++i], 1, 3600000L, &a->movetime) < 0)
                return -1;
        } else if (!strcmp(s, "--odds") && has) {
            if (cli_parse_double(CMD, "--odds", argv[++i], 1e-3, 1e4, &a->odds) < 0)
                return -1;
        } else if (!strcmp(s, "--find-odds")) {
            a->find_odds = true;
        } else if (!strcmp(s, "--odds-start") && has) {
            if (cli_parse_double(CMD, "--odds-start", argv[++i], 1e-3, 1e4, &a->odds_start) < 0)
                return -1;
        } else if (!strcmp(s, "--odds-growth") && has) {
            if (cli_parse_double(CMD, "--odds-growth", argv[++i], 1.05, 100, &a->odds_growth) < 0)
                return -1;
        } else if (!strcmp(s, "--odds-ratio") && has) {
            if (cli_parse_double(CMD, "--odds-ratio", argv[++i], 1.01, 100, &a->odds_ratio) < 0)
                return -1;
        } else if (!strcmp(s, "--odds-max") && has) {
            if (cli_parse_double(CMD, "--odds-max", argv[++i], 1, 1e4, &a->odds_max) < 0)
                return -1;
        } else if ((!strcmp(s, "-n") || !strcmp(s, "--games")) && has) {
            if (cli_parse_int(CMD, "--games", argv[++i], 1, 10000000L, &a->games) < 0)
                return -1;
            a->games_given = true;
        } else if ((!strcmp(s, "-j") || !strcmp(s, "--concurrency")) && has) {
            if (cli_parse_int(CMD, "--concurrency", argv[++i], 1, 256, &a->concurrency) < 0)
                return -1;
        } else if (!strcmp(s, "--xqlab") && has) {
            a->xqlab = argv[++i];
        } else if (!strcmp(s, "--engine") && has) {
            a->engine = argv[++i];
        } else if ((!strcmp(s, "--xqlab-option") || !strcmp(s, "--engine-option")) && has) {
            int side = s[2] == 'x' ? 0 : 1;
            const char *opt = argv[++i];
            const char *eq = strchr(opt, '=');
            if (!eq || eq == opt) {
                cli_error(EXIT_USAGE, CMD, "%s expects NAME=VALUE, got '%s'", s, opt);
                return -1;
            }
            if (a->noptions[side] == MAX_ENGINE_OPTIONS) {
                cli_error(EXIT_USAGE, CMD, "at most %d %s", MAX_ENGINE_OPTIONS, s);
                return -1;
            }
            a->options[side][a->noptions[side]++] = opt;
        } else if (!strcmp(s, "--xqlab-ranks") && has) {
            if (parse_ranks("--xqlab-ranks", argv[++i], &a->ranks[0]) < 0)
                return -1;
        } else if (!strcmp(s, "--engine-ranks") && has) {
            if (parse_ranks("--engine-ranks", argv[++i], &a->ranks[1]) < 0)
                return -1;
        } else if (!strcmp(s, "--openings") && has) {
            a->openings = argv[++i];
        } else if (!strcmp(s, "--seed") && has) {
            if (cli_parse_u64(CMD, "--seed", argv[++i], &a->seed) < 0)
                return -1;
        } else if (!strcmp(s, "--max-plies") && has) {
            if (cli_parse_int(CMD, "--max-plies", argv[++i], 1, XQ_MAX_HISTORY - 16, &a->max_plies) < 0)
                return -1;
        } else if (!strcmp(s, "--grace") && has) {
            if (cli_parse_int(CMD, "--grace", argv[++i], 0, 3600000L, &a->grace) < 0)
                return -1;
        } else if (!strcmp(s, "--check-rules") && has) {
            if (cli_parse_int(CMD, "--check-rules", argv[++i], 1, 8, &a->check_rules) < 0)
                return -1;
        } else if (!strcmp(s, "--pgn") && has) {
            a->pgn = argv[++i];
        } else if (!strcmp(s, "--log") && has) {
            a->log = argv[++i];
        } else if (!strcmp(s, "--engine-stderr") && has) {
            a->engine_stderr = argv[++i];
        } else if (!strcmp(s, "--force")) {
            a->force = true;
        } else if (!strcmp(s, "--json")) {
            a->json = true;
        } else if (!strcmp(s, "--quiet")) {
            a->quiet = true;
        } else {
            cli_bad_option(CMD, s, usage);
            return -1;
        }
    }
    return 0;
}

int bench_strength(int argc, char **argv)
{
    Args a = {
        .variant = "xiangqi", .engine = "/usr/games/fairy-stockfish", .movetime = 100, .games = 100,
        .max_plies = 400, .grace = 2000, .ranks = {UCI_RANKS_AUTO, UCI_RANKS_AUTO}, .odds = 1,
        .odds_start = 1, .odds_growth = 4, .odds_ratio = 1.25, .odds_max = 64, .seed = 1,
    };
    int prc = parse_args(argc, argv, &a);
    if (prc == -2)
        return EXIT_OK;
    if (prc < 0)
        return EXIT_USAGE;
    if (a.find_odds && a.odds != 1)
        return cli_error(EXIT_USAGE, CMD, "--odds and --find-odds exclude each other");
    if (a.find_odds && !a.games_given)
        a.games = 40;
    if (!a.concurrency) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        a.concurrency = n > 0 ? n : 1;
    }
    char self_cmd[4200];
    if (!a.xqlab) {
        if (self_engine_command(self_cmd, sizeof self_cmd) < 0)
            return cli_error(EXIT_USAGE, CMD, "cannot tell where this program is: give --xqlab CMD");
        a.xqlab = self_cmd;
    }

    int status = EXIT_OK;
    Variant *v = cli_load_variant(a.variant);
    if (!v)
        return EXIT_FAILURE_RUN;
    Book book = {0};
    FILE *pgn = NULL;
    CliOutput pgn_out = CLI_OUTPUT_INIT, log_out = CLI_OUTPUT_INIT;
    UciLog log = {0};
    bool log_lock = false;
    char book_path[1024], fairy_path[1024];
    if (hidden_on(v)) {
        status = cli_error(EXIT_USAGE, CMD, "%s has face-down pieces: a referee would have to deal them and "
                           "tell each engine only what it may see, which UCI cannot say; measure it "
                           "with `xqlab match`", v->name);
        goto cleanup;
    }
    /* Fairy-Stockfish knows standard xiangqi; other rule sets come from the project's file. */
    const char *fairy_file = cli_fairy_variant_file(v->name, fairy_path, sizeof fairy_path);
    /* Claimed before anything runs (a refusal costs nothing); the PGN is created only once the
     * engines and openings are fine. */
    const char *inputs[1] = {a.openings};
    unsigned out_flags = a.force ? CLI_OUTPUT_FORCE : 0;
    if (a.pgn && (status = cli_output_claim(&pgn_out, CMD, "--pgn", a.pgn, out_flags, inputs, a.openings ? 1 : 0)) != EXIT_OK)
        goto cleanup;
    if (a.log) {
        if ((status = cli_output_claim(&log_out, CMD, "--log", a.log, out_flags, inputs, a.openings ? 1 : 0)) != EXIT_OK)
            goto cleanup;
        if (!(log.file = cli_output_fopen(&log_out))) {
            status = EXIT_FAILURE_RUN;
            goto cleanup;
        }
        pthread_mutex_init(&log.lock, NULL);
        log_lock = true;
        log.t0 = subprocess_now();
    }
    UciEngineSpec spec_a = {
        .command = a.xqlab, .role = "xqlab", .rank_base = (int)a.ranks[0], .variant = v->name,
        .variant_path = fairy_file, .noptions = a.noptions[0], .options = a.options[0],
        .startup_timeout = 10, .stderr_path = a.engine_stderr, .log = a.log ? &log : NULL,
    };
    UciEngineSpec spec_b = spec_a;
    spec_b.command = a.engine;
    spec_b.role = "engine";
    spec_b.rank_base = (int)a.ranks[1];
    spec_b.noptions = a.noptions[1];
    spec_b.options = a.options[1];
    const UciEngineSpec *specs[2] = {&spec_a, &spec_b};

    /* A write to an engine that has died must fail with EPIPE, not end the referee. */
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, NULL);
    cli_stop_signals_catch();

    UciEngine probe[2];
    if ((status = probe_start(v, specs, fairy_file != NULL, probe)) != EXIT_OK)
        goto cleanup;
    char name_a[128], name_b[128], rules_note[700];
    snprintf(name_a, sizeof name_a, "%s", probe[0].name);
    snprintf(name_b, sizeof name_b, "%s", probe[1].name);
    XqError err;
    if (!a.openings) {
        snprintf(book_path, sizeof book_path, "%s/openings/%s.txt", cli_config_dir(), v->name);
        a.openings = book_path;
        if (access(book_path, R_OK) != 0) {
            uci_engine_quit(&probe[0]);
            uci_engine_quit(&probe[1]);
            status = cli_error(EXIT_USAGE, CMD, "no balanced openings are shipped for %s (%s): give "
                               "--openings FILE", v->name, book_path);
            goto cleanup;
        }
    }
    if (book_load(&book, v, a.openings, &err) < 0) {
        uci_engine_quit(&probe[0]);
        uci_engine_quit(&probe[1]);
        status = cli_report(CMD, &err);
        goto cleanup;
    }
    status = check_rules(v, &book, a.check_rules ? book.count : RULES_CHECK_OPENINGS,
                         a.check_rules ? (int)a.check_rules : RULES_CHECK_DEPTH, specs, fairy_file != NULL,
                         probe, rules_note, sizeof rules_note);
    if (status != EXIT_OK)
        goto cleanup;
    if (a.check_rules) {
        printf("rules check: %s\n", rules_note);
        goto cleanup;
    }
    if (a.pgn && !(pgn = cli_output_fopen(&pgn_out))) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    uint64_t pairs = (uint64_t)(a.games + 1) / 2;
    /* Pair i plays opening i modulo the book: beyond one pass the openings come again, and two
     * players that search a fixed number of positions replay the same games. */
    if (pairs > (uint64_t)book.count)
        fprintf(stderr, "xqlab bench strength: warning: %llu pairs from %d openings: openings repeat, and players "
                "that search a fixed number of positions (ab_nodes, go nodes) replay the same games, which add no "
                "information; for more games use a larger book (--openings; scripts/bench/make_openings.py "
                "makes one)\n", (unsigned long long)pairs, book.count);
    char load[64];
    if (!a.json) {
        printf("bench strength: %s, %llu games (%llu pairs) per %s from %s, %ld at once\n", v->name,
               (unsigned long long)(2 * pairs), (unsigned long long)pairs, a.find_odds ? "step" : "run",
               a.openings, a.concurrency);
        printf("  xqlab:  %s (%s)\n  engine: %s (%s), %ld ms per move\n", name_a, a.xqlab, name_b, a.engine,
               a.movetime);
        printf("rules check: %s\n", rules_note);
        fflush(stdout);
    }
    StrengthOptions o = {
        .v = v, .book = &book, .a = &spec_a, .b = &spec_b, .movetime_ms = (int)a.movetime, .odds = a.odds,
        .pairs = pairs, .concurrency = (int)a.concurrency, .seed = a.seed, .max_plies = (int)a.max_plies,
        .grace = a.grace / 1000.0, .pgn = pgn, .pgn_event = "xqlab bench strength",
        .progress = !a.quiet && isatty(2), .stop = cli_stop_flag(),
    };
    StrengthTotals t;
    EloEstimate elo;
    if (!a.find_odds) {
        int rc = strength_run(&o, &t, &err);
        load_average(load, sizeof load);
        if (rc < 0) {
            status = cli_report(CMD, &err);
            goto cleanup;
        }
        elo_estimate(t.pentanomial, &elo);
        if (a.json) {
            printf("{\"variant\": \"%s\", \"movetime_ms\": %ld, \"openings\": ", v->name, a.movetime);
            json_string(a.openings);
            printf(", \"concurrency\": %ld, \"load\": \"%s\", \"rules_check\": ", a.concurrency, load);
            json_string(rules_note);
            printf(", \"result\": ");
            print_result_json(&o, &t, &elo);
            printf("}\n");
        } else {
            print_result_text(&o, &t, &elo);
            printf("load average (1, 5, 15 min): %s\n", load);
        }
        if (t.interrupted)
            status = 130;
        goto cleanup;
    }

    /* --find-odds */
    OddsSearch search;
    odds_search_init(&search, a.odds_start, a.odds_growth, a.odds_ratio, a.odds_max);
    if (a.json)
        printf("{\"variant\": \"%s\", \"movetime_ms\": %ld, \"games_per_step\": %llu, \"steps\": [",
               v->name, a.movetime, (unsigned long long)(2 * pairs));
    else
        printf("find-odds: xqlab's time per move = K x %ld ms; K grows x%g until 50%% is bracketed, "
               "then the bracket is halved until hi/lo <= %g (K within [1/%g, %g])\n", a.movetime,
               a.odds_growth, a.odds_ratio, a.odds_max, a.odds_max);
    bool interrupted = false;
    for (double k; (k = odds_search_next(&search)) > 0;) {
        o.odds = k;
        o.pgn_round_prefix = search.steps + 1;
        int rc = strength_run(&o, &t, &err);
        if (rc < 0) {
            if (a.json)
                printf("]}\n");
            status = cli_report(CMD, &err);
            goto cleanup;
        }
        elo_estimate(t.pentanomial, &elo);
        if (a.json) {
            printf("%s", search.steps ? ", " : "");
            print_result_json(&o, &t, &elo);
        } else {
            printf("step %d: K = %-7.3g %4llu games  score %5.1f%%  Elo %+5.0f [%+.0f, %+.0f]  CPU ms/move "
                   "xqlab %.1f, engine %.1f\n", search.steps + 1, k, (unsigned long long)t.games,
                   100 * strength_score(&t), elo.elo, elo.elo_low, elo.elo_high,
                   per_move(t.side[0].cpu_ms, t.side[0].cpu_moves), per_move(t.side[1].cpu_ms, t.side[1].cpu_moves));
            for (int s = 0; s < 2; s++)
                if (t.side[s].first_failure[0])
                    printf("  %s lost games by engine failures; first: %s\n", s ? "engine" : "xqlab",
                           t.side[s].first_failure);
            fflush(stdout);
        }
        if (t.interrupted) {
            interrupted = true;
            break;
        }
        odds_search_record(&search, strength_score(&t));
    }
    load_average(load, sizeof load);
    if (a.json) {
        printf("], \"bracketed\": %s, \"lo\": ", odds_search_bracketed(&search) ? "true" : "false");
        json_odds(search.lo > 0 ? search.lo : NAN);
        printf(", \"hi\": ");
        json_odds(search.hi > 0 ? search.hi : NAN);
        printf(", \"estimate\": ");
        json_odds(odds_search_bracketed(&search) ? odds_search_estimate(&search) : NAN);
        printf(", \"interrupted\": %s, \"load\": \"%s\"}\n", interrupted ? "true" : "false", load);
    } else if (interrupted) {
        printf("find-odds: interrupted\n");
    } else if (odds_search_bracketed(&search)) {
        printf("odds for a 50%% score: between %.3g (score %.1f%%) and %.3g (score %.1f%%), about %.3g "
               "(interpolated); %d steps of %llu games\n", search.lo, 100 * search.lo_score, search.hi,
               100 * search.hi_score, odds_search_estimate(&search), search.steps, (unsigned long long)(2 * pairs));
    } else if (search.lo > 0) {
        printf("odds for a 50%% score: above %g (xqlab scored %.1f%% there; raise --odds-max)\n", search.lo,
               100 * search.lo_score);
    } else {
        printf("odds for a 50%% score: below %g (xqlab scored %.1f%% there)\n", search.hi, 100 * search.hi_score);
    }
    if (!a.json)
        printf("load average (1, 5, 15 min): %s\n", load);
    if (interrupted)
        status = 130;
cleanup:
    cli_stop_signals_release();
    /* The games played are kept whatever ended the run; a PGN never begun is not left behind. */
    if (pgn && cli_output_commit(&pgn_out) != EXIT_OK && status == EXIT_OK)
        status = EXIT_FAILURE_RUN;
    cli_output_release(&pgn_out);
    if (log.file) {
        if (log_lock)
            pthread_mutex_lock(&log.lock);
        if (cli_output_commit(&log_out) != EXIT_OK && status == EXIT_OK)
            status = EXIT_FAILURE_RUN;
        log.file = NULL;
        if (log_lock)
            pthread_mutex_unlock(&log.lock);
    }
    cli_output_release(&log_out);
    if (log_lock)
        pthread_mutex_destroy(&log.lock);
    book_free(&book);
    variant_free(v);
    return status;
}
