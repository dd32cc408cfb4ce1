/* cmd_engine.c - `xqlab engine`: UCI, UCCI or XBoard on standard input and output (engine/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bad_option.h"
#include "commands.h"
#include "common.h"
#include "engine.h"
#include "search_options.h"

static const char *const CMD = "engine";

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab engine [-v VARIANT] [--weights FILE] [--preset NAME] [--set KEY=VALUE]...\n"
        "                    [--log FILE]\n\n"
        "Runs xqlab as an engine for GUIs and match tools: commands on standard input, answers\n"
        "on standard output. The first command picks the protocol, as Fairy-Stockfish does:\n"
        "  uci      UCI (options UCI_Variant, VariantFile, WeightsFile, Threads, Hash,\n"
        "           MoveOverhead, InfoInterval, RanksFromOne and the search parameters)\n"
        "  ucci     UCCI, the xiangqi GUIs' protocol (times in seconds, or usemillisec)\n"
        "  xboard   XBoard / CECP 2 (protover 2), e.g. Debian's xboard:\n"
        "           xboard -variant xiangqi -fcp 'xqlab engine' -fd . -scp fairy-stockfish\n"
        "Moves are ICCS with ranks from 0 (h2e2), reveals of hidden-piece rule sets name the\n"
        "piece turned up (a0a1R); RanksFromOne reads and writes Fairy-Stockfish's ranks from 1.\n"
        "The search runs on its own thread: stop and quit are answered at once. Bad input is\n"
        "answered with an 'info string error: ...' line (XBoard: Error / Illegal move).\n\n"
        "options:\n"
        "  -v, --variant V     starting rule set: a shipped name or a variant file (default\n"
        "                      xiangqi; UCI_Variant and VariantFile change it later)\n"
        "      --weights FILE  evaluation weights, or none (default: the nearest shipped file,\n"
        "                      as the other commands; WeightsFile changes it later)\n"
        "      --preset NAME   search settings (configs/runs/NAME.ini or a file); the engine\n"
        "                      plays search=ab (alpha-beta) unless they or --set say mcts\n"
        "      --set KEY=VALUE a search parameter (docs/cli.md); repeatable; the tree memory is\n"
        "                      the Hash option (MiB), not arena_nodes\n"
        "      --log FILE      append every command (< ...) and answer (> ...) to FILE\n"
        "  -h, --help          this help\n\n"
        "Protocols, options, GUI set-up and match recipes: docs/engine.md.\n");
}

int cmd_engine(int argc, char **argv)
{
    const char *variant = "xiangqi", *weights = NULL, *preset = NULL, *log_path = NULL;
    const char *sets[256];
    int nsets = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if ((!strcmp(a, "-v") || !strcmp(a, "--variant")) && has) {
            variant = argv[++i];
        } else if (!strcmp(a, "--weights") && has) {
            weights = argv[++i];
        } else if (!strcmp(a, "--preset") && has) {
            preset = argv[++i];
        } else if (!strcmp(a, "--set") && has) {
            if (nsets == 256)
                return cli_error(EXIT_USAGE, CMD, "more than 256 --set options");
            sets[nsets++] = argv[++i];
        } else if (!strcmp(a, "--log") && has) {
            log_path = argv[++i];
        } else {
            return cli_bad_option(CMD, a, usage);
        }
    }
    for (int i = 0; i < nsets; i++)
        if (!strncmp(sets[i], "arena_nodes=", 12))
            return cli_error(EXIT_USAGE, CMD, "--set %s: engine mode sizes its trees by the "
                             "Hash option (MiB), not arena_nodes", sets[i]);
    SearchParams params;
    params_default(&params);
    /* Engine mode plays alpha-beta unless a preset or --set says otherwise: at equal time it is
     * the stronger player in most rule sets (docs/engine.md, Gated matches). */
    params.search = SEARCH_AB;
    int rc = preset ? cli_load_preset(CMD, preset, &params) : EXIT_OK;
    if (rc == EXIT_OK)
        rc = cli_apply_sets(CMD, sets, nsets, &params);
    if (rc != EXIT_OK)
        return rc;
    FILE *log = NULL;
    if (log_path && !(log = fopen(log_path, "a")))
        return cli_error(EXIT_FAILURE_RUN, CMD, "--log %s: cannot open for appending", log_path);
    SessionConfig cfg = {cli_config_dir(), variant, weights, &params};
    char err[SESSION_ERR_MAX];
    rc = engine_run(stdin, stdout, log, &cfg, err) == 0 ? EXIT_OK : EXIT_FAILURE_RUN;
    if (rc != EXIT_OK)
        cli_error(rc, CMD, "%s", err);
    if (log)
        fclose(log);
    return rc;
}
