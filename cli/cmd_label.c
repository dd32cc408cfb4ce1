/* cmd_label.c - `xqlab label`: a copy of a dataset whose root values are a teacher engine's scores. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bad_option.h"
#include "commands.h"
#include "common.h"
#include "label.h"
#include "output.h"

#define CMD "label"

enum { MAX_TEACHER_OPTIONS = 32 };

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab label DATA.h5 -o LABELLED.h5 [--engine CMD] [--nodes N | --depth D |\n"
        "                   --movetime MS] [options]\n\n"
        "Writes a copy of a self-play dataset in which every quiet position's root value is a\n"
        "teacher's: each position is sent to a UCI engine (the moves from the game's start, so\n"
        "repetitions are known) and the score it reports, centipawns for the side to move, is\n"
        "stored as tanh(cp / 100 / eval-scale), a mate as +1 or -1. `xqlab tune LABELLED.h5` then\n"
        "fits the evaluation to the teacher instead of to the player that made the games. The\n"
        "teacher may be any engine that plays the rule set: Fairy-Stockfish (standard xiangqi, or\n"
        "a rule set of configs/fairy/), or xqlab itself searching deeper than the games did\n"
        "(--engine \"xqlab engine\" --depth 8). Games, moves, results and the player's settings are\n"
        "copied; the teacher, its limit and the scale are added to the file's search settings.\n"
        "See docs/training.md, \"A teacher's values\".\n\n"
        "options:\n"
        "  -o, --output FILE   the labelled copy; written as FILE.tmp and renamed when complete\n"
        "      --force         replace an existing FILE, or discard an interrupted FILE.tmp\n"
        "      --resume        continue an interrupted run (FILE.tmp) where it stopped\n"
        "      --engine CMD    the teacher's command line (default /usr/games/fairy-stockfish)\n"
        "      --nodes N       positions the teacher searches per position (default 5000)\n"
        "      --depth D       or a depth a position\n"
        "      --movetime MS   or milliseconds a position (results then depend on the load)\n"
        "      --engine-option NAME=VALUE\n"
        "                      a UCI option of the teacher (repeatable)\n"
        "      --variant-file F  a Fairy-Stockfish variants file to load first (default:\n"
        "                      configs/fairy/RULESET.ini if there is one, except for xiangqi)\n"
        "      --eval-scale S  pawns per unit of atanh(value) (default 10, as the search and\n"
        "                      `xqlab tune`: keep the two equal)\n"
        "      --all-positions also positions in check and before a capture (default: only\n"
        "                      those `xqlab tune` reads by default; the others get no value)\n"
        "  -t, --threads T     teacher processes, one position each (default all cores)\n"
        "      --timeout S     seconds a position may take before the teacher counts as hung\n"
        "                      (default 60; it is started again once)\n"
        "      --json          print the summary as JSON on stdout\n"
        "      --quiet         no progress lines\n\n"
        "Datasets with face-down pieces are refused: over UCI a teacher sees only the revealed\n"
        "board. Ctrl-C stops after the games in flight; --resume continues.\n"
        "Exit status: 0 done, 1 refused or failed, 2 bad usage, 130 interrupted.\n");
}

/* The search limit, from at most one of --nodes, --depth, --movetime. */
static int set_limit(char *limit, size_t size, int *given, const char *option, const char *value, long max)
{
    long n;
    if (cli_parse_int(CMD, option, value, 1, max, &n) < 0)
        return -1;
    if (*given) {
        cli_error(EXIT_USAGE, CMD, "give one of --nodes, --depth and --movetime");
        return -1;
    }
    *given = 1;
    snprintf(limit, size, "%s %ld", option + 2, n);
    return 0;
}

int cmd_label(int argc, char **argv)
{
    const char *input = NULL, *out = NULL, *engine = "/usr/games/fairy-stockfish", *variant_file = NULL;
    const char *options[MAX_TEACHER_OPTIONS];
    int noptions = 0, limit_given = 0;
    char limit[48] = "nodes 5000";
    double eval_scale = 10, timeout = 60;
    bool force = false, resume = false, all_positions = false, json = false, quiet = false;
    long threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has) {
            out = argv[++i];
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (!strcmp(a, "--resume")) {
            resume = true;
        } else if (!strcmp(a, "--engine") && has) {
            engine = argv[++i];
        } else if (!strcmp(a, "--nodes") && has) {
            if (set_limit(limit, sizeof limit, &limit_given, a, argv[++i], 1000000000L) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--depth") && has) {
            if (set_limit(limit, sizeof limit, &limit_given, a, argv[++i], 64) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--movetime") && has) {
            if (set_limit(limit, sizeof limit, &limit_given, a, argv[++i], 3600000L) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--engine-option") && has) {
            const char *opt = argv[++i];
            const char *eq = strchr(opt, '=');
            if (!eq || eq == opt)
                return cli_error(EXIT_USAGE, CMD, "--engine-option expects NAME=VALUE, got '%s'", opt);
            if (noptions == MAX_TEACHER_OPTIONS)
                return cli_error(EXIT_USAGE, CMD, "at most %d --engine-option", MAX_TEACHER_OPTIONS);
            options[noptions++] = opt;
        } else if (!strcmp(a, "--variant-file") && has) {
            variant_file = argv[++i];
        } else if (!strcmp(a, "--eval-scale") && has) {
            if (cli_parse_double(CMD, a, argv[++i], 0.01, 1000, &eval_scale) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--timeout") && has) {
            if (cli_parse_double(CMD, a, argv[++i], 0.1, 86400, &timeout) < 0)
                return EXIT_USAGE;
        } else if ((!strcmp(a, "-t") || !strcmp(a, "--threads")) && has) {
            if (cli_parse_int(CMD, a, argv[++i], 1, 256, &threads) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--all-positions")) {
            all_positions = true;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_bad_option(CMD, a, usage);
        } else if (!input) {
            input = a;
        } else {
            return cli_error(EXIT_USAGE, CMD, "one dataset at a time (got '%s' and '%s')", input, a);
        }
    }
    if (!input)
        return cli_error(EXIT_USAGE, CMD, "needs a dataset to label");
    if (!out)
        return cli_error(EXIT_USAGE, CMD, "needs -o LABELLED.h5");
    if (resume && force)
        return cli_error(EXIT_USAGE, CMD, "--resume and --force exclude each other");
    if (!threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? n : 1;
    }
    if (access(input, R_OK) != 0)
        return cli_error(EXIT_FAILURE_RUN, CMD, "%s: cannot read it", input);
    if (variant_file && access(variant_file, R_OK) != 0)
        return cli_error(EXIT_USAGE, CMD, "--variant-file %s: cannot read it", variant_file);

    /* The rule set comes from the file; its Fairy-Stockfish definition, if the project ships
     * one, is loaded unless another was given. */
    XqError err;
    DatasetReader *rd = dsr_open(input, &err);
    if (!rd)
        return cli_report(CMD, &err);
    char variant_name[XQ_NAME_MAX], fairy_path[1200];
    snprintf(variant_name, sizeof variant_name, "%s", dsr_summary(rd)->variant_name);
    dsr_close(rd);
    if (!variant_file)
        variant_file = cli_fairy_variant_file(variant_name, fairy_path, sizeof fairy_path);

    char command_line[2048];
    cli_command_line(argc, argv, command_line, sizeof command_line);

    CliOutput output = CLI_OUTPUT_INIT;
    const char *inputs[2] = {input, variant_file};
    unsigned flags = CLI_OUTPUT_KEEP_TMP | (force ? CLI_OUTPUT_FORCE : 0);
    int status = cli_output_claim(&output, CMD, "-o", out, flags, inputs, variant_file ? 2 : 1);
    if (status != EXIT_OK)
        return status;
    struct stat st;
    bool have_tmp = lstat(output.tmp, &st) == 0;
    if (resume && !have_tmp) {
        status = cli_error(EXIT_FAILURE_RUN, CMD, "%s: no interrupted run to resume (nothing was touched)", output.tmp);
        goto done;
    }
    if (have_tmp && !resume && !force) {
        status = cli_error(EXIT_FAILURE_RUN, CMD, "%s: holds an interrupted run: run the same command with --resume "
                           "to complete it, or add --force to discard it (nothing was touched)", output.tmp);
        goto done;
    }

    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, NULL); /* a dead teacher is an error, not the end of xqlab */
    cli_stop_signals_catch();
    UciEngineSpec spec = {
        .command = engine, .role = "teacher", .rank_base = UCI_RANKS_AUTO, .variant = variant_name,
        .variant_path = variant_file, .noptions = noptions, .options = options, .startup_timeout = 30,
    };
    LabelOptions o = {
        .input = input, .output = out, .resume = resume, .teacher = &spec, .limit = limit,
        .eval_scale = eval_scale, .all_positions = all_positions, .threads = (int)threads, .timeout = timeout,
        .command_line = command_line, .progress = !quiet, .stop = cli_stop_flag(),
    };
    LabelStats ls;
    int rc = label_dataset(&o, &ls, &err);
    if (rc < 0) {
        status = cli_report(CMD, &err);
        if (access(output.tmp, F_OK) == 0)
            fprintf(stderr, "xqlab %s: the games labelled so far are in %s: --resume continues\n", CMD, output.tmp);
        goto done;
    }
    if (rc > 0) {
        fprintf(stderr, "xqlab %s: stopped after %llu games; the same command with --resume continues %s\n", CMD,
                (unsigned long long)ls.games, output.tmp);
        goto done; /* the stop flag turns the status into 130 */
    }
    if (json)
        printf("{\"kind\": \"label\", \"input\": \"%s\", \"output\": \"%s\", \"teacher\": \"%s\", \"limit\": \"%s\", "
               "\"eval_scale\": %g, \"games\": %llu, \"positions\": %llu, \"labelled\": %llu, \"mates\": %llu, "
               "\"resumed_games\": %llu, \"restarts\": %llu, \"seconds\": %.3f}\n",
               input, out, ls.teacher_name, limit, eval_scale, (unsigned long long)ls.games,
               (unsigned long long)ls.positions, (unsigned long long)ls.labelled, (unsigned long long)ls.mates,
               (unsigned long long)ls.resumed_games, (unsigned long long)ls.restarts, ls.seconds);
    else
        printf("xqlab label: %s -> %s: %llu games, %llu positions labelled by %s (%s; %llu as mates), "
               "%llu games resumed, %llu teacher restarts, %.1f s\n",
               input, out, (unsigned long long)ls.games, (unsigned long long)ls.labelled, ls.teacher_name, limit,
               (unsigned long long)ls.mates, (unsigned long long)ls.resumed_games, (unsigned long long)ls.restarts,
               ls.seconds);
done:
    cli_output_release(&output);
    return status;
}
