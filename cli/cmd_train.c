/* cmd_train.c - `xqlab train`: the training loop (self-play -> tune -> SPRT-gated promotion, per
 * generation) in a run folder that pins its settings, with resume and the generation table. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bad_option.h"
#include "book.h"
#include "commands.h"
#include "common.h"
#include "elo.h"
#include "ini.h"
#include "loop.h"
#include "output.h"
#include "params.h"
#include "report.h"
#include "run.h"
#include "search_options.h"
#include "step.h"
#include "weights.h"

#define CMD "train"

enum { MAX_SETS = 64 };

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab train -o DIR -v VARIANT [options]    start a training run in DIR\n"
        "       xqlab train -o DIR [-g N] [options]        continue it (settings from DIR)\n"
        "       xqlab train -o DIR --status [--markdown | --json]\n"
        "       xqlab train -o DIR --export FILE [--force]\n\n"
        "The training loop of docs/training.md. Each generation G = 1, 2, ... plays self-play\n"
        "games with the weights in force, tunes a candidate on the last --window generations'\n"
        "data starting from them, and plays the candidate against them in a match with an SPRT:\n"
        "on H1 the candidate becomes the weights in force. Every step is the xqlab command of\n"
        "that name, its outputs kept in DIR/genG/ (selfplay.h5, candidate.ini, gate.json, ...);\n"
        "DIR/best.ini holds the weights in force. A stopped or killed run continues where it\n"
        "stopped when started again (a self-play batch from its last flushed game, a tune or\n"
        "gate from the start: both give the same result). DIR/train.ini pins the settings:\n"
        "a later start may leave them out, and is refused if it gives different ones.\n\n"
        "run settings (fixed for the run):\n"
        "  -v, --variant V       rule set name or variant file (needed to start; its text is\n"
        "                        pinned in DIR/variant.ini)\n"
        "      --start FILE      starting weights: a weights file, 'none' (the variant's piece\n"
        "                        values) or 'nearest' (default: the nearest shipped file, as in\n"
        "                        selfplay); copied to DIR/gen0/weights.ini\n"
        "  -n, --games N         self-play games per generation (default 2000)\n"
        "      --preset NAME     search preset of self-play and gate (default quick)\n"
        "      --playouts P      playouts per move (overrides the preset)\n"
        "      --set KEY=VALUE   any search parameter (repeatable); the resulting settings are\n"
        "                        pinned in DIR/search.ini\n"
        "      --window K        generations of data each tune reads (default 2)\n"
        "      --tune 'ARGS'     extra xqlab tune options, split into words like a shell\n"
        "                        (quotes kept), e.g. --tune '--l2 1e-4 --drop mobility'\n"
        "      --gate-games N    at most N gate games (default 2000)\n"
        "      --sprt E0,E1,A,B  the gate's test (default 0,10,0.05,0.05): H1 promotes\n"
        "      --sprt-min-pairs N  no verdict before N pairs (default 200)\n"
        "      --gate-set KEY=VALUE  a search setting of both gate players on top of the run's\n"
        "                        (repeatable): movetime=100 gates at equal time instead of\n"
        "                        equal playouts\n"
        "      --gate-openings FILE  the gate's pairs start from this book (copied into DIR)\n"
        "                        instead of random openings\n"
        "      --strength-games N  after each promotion (and for the starting weights) play N\n"
        "                        games of xqlab bench strength (default 0: none); xiangqi and\n"
        "                        sniper against Fairy-Stockfish\n"
        "      --strength-movetime MS  its time per move (default 100)\n"
        "      --strength 'ARGS' extra xqlab bench strength options, e.g.\n"
        "                        --strength \"--engine-option 'Skill Level=0'\"\n"
        "      --seed S          generation G plays self-play and gate with seed S + G - 1 and\n"
        "                        splits tune's data with S (default 1)\n"
        "other options:\n"
        "  -o, --dir DIR         the run folder (required)\n"
        "  -g, --generations N   generations to reach (default 5, or the run's; may change)\n"
        "  -t, --threads T       threads of every step (default: all cores); results do not\n"
        "                        depend on it\n"
        "      --status          print the generation table of DIR and exit\n"
        "      --markdown, --json  the table as Markdown or JSON\n"
        "      --export FILE     after the run, write the weights in force to FILE with the\n"
        "                        run's provenance (command, data, losses, gate results)\n"
        "      --force           replace an existing --export FILE\n"
        "      --quiet           no progress lines\n"
        "Exit status: 0 done, 1 a step failed or bad data, 2 bad usage or other settings than\n"
        "the run's, 130 interrupted (run the same command again to continue).\n");
}

/* The parsed command line. */
typedef struct TrainArgs {
    TrainSettings want;
    bool given[64];
    const char *dir, *variant, *start, *preset, *gate_openings, *export_path;
    const char *sets[MAX_SETS], *gate_sets[MAX_SETS];
    int nsets, ngate_sets;
    long playouts, threads;
    bool status, markdown, json, quiet, force;
} TrainArgs;

static void mark(TrainArgs *a, const char *key)
{
    int i = train_settings_find(key);
    if (i >= 0)
        a->given[i] = true;
}

static bool given(const TrainArgs *a, const char *key)
{
    int i = train_settings_find(key);
    return i >= 0 && a->given[i];
}

/* Free text stored in train.ini: no comment characters, no line breaks. */
static int check_text(const char *option, const char *text, size_t size)
{
    if (strlen(text) >= size)
        return cli_error(EXIT_USAGE, CMD, "%s: too long (at most %zu characters)", option, size - 1);
    if (strpbrk(text, ";#\n\r"))
        return cli_error(EXIT_USAGE, CMD, "%s: '%s' holds ';', '#' or a line break, which the run's settings "
                         "file cannot keep", option, text);
    return EXIT_OK;
}

static int check_words(const char *option, const char *text)
{
    char storage[TRAIN_ARGS_MAX];
    char *words[256];
    const char *why = NULL;
    if (check_text(option, text, TRAIN_ARGS_MAX) != EXIT_OK)
        return EXIT_USAGE;
    if (train_split_words(text, storage, words, 256, &why) < 0)
        return cli_error(EXIT_USAGE, CMD, "%s: cannot split '%s' into words: %s", option, text, why);
    return EXIT_OK;
}

static int parse_args(TrainArgs *a, int argc, char **argv)
{
    train_settings_default(&a->want);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        bool has = i + 1 < argc;
        long n;
        uint64_t u;
        if (cli_is_help(s)) {
            usage(stdout);
            return -1;
        } else if ((!strcmp(s, "-o") || !strcmp(s, "--dir")) && has) {
            a->dir = argv[++i];
        } else if ((!strcmp(s, "-v") || !strcmp(s, "--variant")) && has) {
            a->variant = argv[++i];
        } else if (!strcmp(s, "--start") && has) {
            a->start = argv[++i];
        } else if ((!strcmp(s, "-n") || !strcmp(s, "--games")) && has) {
            if (cli_parse_int(CMD, "--games", argv[++i], 1, 1000000000L, &n) < 0)
                return EXIT_USAGE;
            a->want.games = (uint64_t)n;
            mark(a, "games");
        } else if (!strcmp(s, "--preset") && has) {
            a->preset = argv[++i];
        } else if (!strcmp(s, "--playouts") && has) {
            if (cli_parse_int(CMD, "--playouts", argv[++i], 1, 10000000, &a->playouts) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(s, "--set") && has) {
            if (a->nsets == MAX_SETS)
                return cli_error(EXIT_USAGE, CMD, "too many --set options");
            a->sets[a->nsets++] = argv[++i];
        } else if (!strcmp(s, "--window") && has) {
            if (cli_parse_int(CMD, "--window", argv[++i], 1, 1000, &a->want.window) < 0)
                return EXIT_USAGE;
            mark(a, "window");
        } else if (!strcmp(s, "--tune") && has) {
            if (check_words("--tune", argv[++i]) != EXIT_OK)
                return EXIT_USAGE;
            snprintf(a->want.tune, sizeof a->want.tune, "%s", argv[i]);
            mark(a, "tune");
        } else if (!strcmp(s, "--gate-games") && has) {
            if (cli_parse_int(CMD, "--gate-games", argv[++i], 2, 100000000L, &n) < 0)
                return EXIT_USAGE;
            a->want.gate_games = (uint64_t)n;
            mark(a, "gate_games");
        } else if (!strcmp(s, "--sprt") && has) {
            SprtSpec sp;
            char msg[200];
            if (sprt_parse(&sp, argv[++i], msg, sizeof msg) < 0)
                return cli_error(EXIT_USAGE, CMD, "--sprt: %s", msg);
            snprintf(a->want.sprt, sizeof a->want.sprt, "%g,%g,%g,%g", sp.elo0, sp.elo1, sp.alpha, sp.beta);
            mark(a, "sprt");
        } else if (!strcmp(s, "--sprt-min-pairs") && has) {
            if (cli_parse_int(CMD, "--sprt-min-pairs", argv[++i], 0, 100000000L, &a->want.sprt_min_pairs) < 0)
                return EXIT_USAGE;
            mark(a, "sprt_min_pairs");
        } else if (!strcmp(s, "--gate-set") && has) {
            if (a->ngate_sets == MAX_SETS)
                return cli_error(EXIT_USAGE, CMD, "too many --gate-set options");
            a->gate_sets[a->ngate_sets++] = argv[++i];
        } else if (!strcmp(s, "--gate-openings") && has) {
            a->gate_openings = argv[++i];
        } else if (!strcmp(s, "--strength-games") && has) {
            if (cli_parse_int(CMD, "--strength-games", argv[++i], 0, 100000000L, &n) < 0)
                return EXIT_USAGE;
            a->want.strength_games = (uint64_t)n;
            mark(a, "strength_games");
        } else if (!strcmp(s, "--strength-movetime") && has) {
            if (cli_parse_int(CMD, "--strength-movetime", argv[++i], 1, 3600000L, &a->want.strength_movetime) < 0)
                return EXIT_USAGE;
            mark(a, "strength_movetime");
        } else if (!strcmp(s, "--strength") && has) {
            if (check_words("--strength", argv[++i]) != EXIT_OK)
                return EXIT_USAGE;
            snprintf(a->want.strength, sizeof a->want.strength, "%s", argv[i]);
            mark(a, "strength");
        } else if (!strcmp(s, "--seed") && has) {
            if (cli_parse_u64(CMD, "--seed", argv[++i], &u) < 0)
                return EXIT_USAGE;
            a->want.seed = u;
            mark(a, "seed");
        } else if ((!strcmp(s, "-g") || !strcmp(s, "--generations")) && has) {
            if (cli_parse_int(CMD, "--generations", argv[++i], 1, TRAIN_MAX_GENERATIONS - 1, &a->want.generations) < 0)
                return EXIT_USAGE;
            mark(a, "generations");
        } else if ((!strcmp(s, "-t") || !strcmp(s, "--threads")) && has) {
            if (cli_parse_int(CMD, "--threads", argv[++i], 1, 1024, &a->threads) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(s, "--export") && has) {
            a->export_path = argv[++i];
        } else if (!strcmp(s, "--status")) {
            a->status = true;
        } else if (!strcmp(s, "--markdown")) {
            a->markdown = true;
        } else if (!strcmp(s, "--json")) {
            a->json = true;
        } else if (!strcmp(s, "--quiet")) {
            a->quiet = true;
        } else if (!strcmp(s, "--force")) {
            a->force = true;
        } else {
            return cli_bad_option(CMD, s, usage);
        }
    }
    if (!a->dir)
        return cli_error(EXIT_USAGE, CMD, "needs -o DIR, the run folder (xqlab train --help)");
    if (strchr(a->dir, ','))
        return cli_error(EXIT_USAGE, CMD, "-o: '%s': a run folder's name may not hold ',' (it is part of the gate's "
                         "player specifications)", a->dir);
    if (check_text("-o", a->dir, PATH_MAX - 64) != EXIT_OK)
        return EXIT_USAGE;
    if (a->markdown && a->json)
        return cli_error(EXIT_USAGE, CMD, "--markdown and --json exclude each other");
    if ((a->markdown || a->json) && !a->status)
        return cli_error(EXIT_USAGE, CMD, "--markdown and --json format the table of --status");
    if (a->force && !a->export_path)
        return cli_error(EXIT_USAGE, CMD, "--force only replaces an existing --export FILE (a run folder is "
                         "continued, never replaced: start another run in a new folder)");
    return EXIT_OK;
}

static bool path_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int write_text_atomic(const char *path, const char *text)
{
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    unlink(tmp);
    FILE *f = fopen(tmp, "wx");
    if (!f)
        return cli_error(EXIT_FAILURE_RUN, CMD, "%s: cannot create: %s", tmp, strerror(errno));
    bool ok = fputs(text, f) >= 0;
    ok = fflush(f) == 0 && ok;
    ok = fsync(fileno(f)) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) < 0) {
        unlink(tmp);
        return cli_error(EXIT_FAILURE_RUN, CMD, "%s: cannot write: %s", path, strerror(errno));
    }
    return EXIT_OK;
}

/* The search settings of the command line: the preset, its changes and --playouts. Returns
 * EXIT_OK, or a status after an error message. */
static int search_params(const TrainArgs *a, SearchParams *p)
{
    params_default(p);
    int status;
    if ((status = cli_load_preset(CMD, a->preset ? a->preset : "quick", p)) != EXIT_OK ||
        (status = cli_apply_sets(CMD, a->sets, a->nsets, p)) != EXIT_OK)
        return status;
    if (a->playouts > 0)
        p->playouts = (int)a->playouts;
    return EXIT_OK;
}

/* The search settings of the command line as search.ini text (NULL after an error message). */
static char *search_text(const TrainArgs *a, int *status)
{
    SearchParams p;
    const char *preset = a->preset ? a->preset : "quick";
    if ((*status = search_params(a, &p)) != EXIT_OK)
        return NULL;
    char params[8192];
    params_write(&p, params, sizeof params);
    char *text = malloc(strlen(params) + 512);
    if (!text) {
        *status = cli_error(EXIT_FAILURE_RUN, CMD, "out of memory");
        return NULL;
    }
    sprintf(text, "; The search settings of an xqlab training run (self-play and gate), from preset %s%s%s.\n"
                  "[search]\n%s", preset, a->nsets || a->playouts ? " with the command line's changes" : "", "",
            params);
    return text;
}

/* The [search] lines of search.ini text (what the hash covers: comments do not count). */
static const char *search_body(const char *text)
{
    const char *s = strstr(text, "[search]\n");
    return s ? s + strlen("[search]\n") : text;
}

/* Checks the --gate-set settings and joins them as KEY=VALUE,... */
static int gate_set_text(const TrainArgs *a, char *out, size_t size)
{
    SearchParams p;
    params_default(&p);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < a->ngate_sets; i++) {
        const char *s = a->gate_sets[i], *eq = strchr(s, '=');
        if (!eq || eq == s || strchr(s, ','))
            return cli_error(EXIT_USAGE, CMD, "--gate-set expects KEY=VALUE (one setting, no ','), not '%s'", s);
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(eq - s), s);
        XqError err;
        if (params_set(&p, key, eq + 1, &err) < 0)
            return cli_error(EXIT_USAGE, CMD, "--gate-set %s: %s", s, err.message);
        if (!strcmp(key, "weights"))
            return cli_error(EXIT_USAGE, CMD, "--gate-set: the gate chooses the weights itself");
        int n = snprintf(out + used, size - used, "%s%s", used ? "," : "", s);
        if (n < 0 || (size_t)n >= size - used)
            return cli_error(EXIT_USAGE, CMD, "--gate-set: too many settings");
        used += (size_t)n;
    }
    return check_text("--gate-set", out, size);
}

/* The starting weights for v as the text of gen0/weights.ini (malloc'd; NULL after a message):
 * "nearest" is the nearest shipped file for the run's self-play player. */
static char *start_text(const TrainArgs *a, const Variant *v, const char *start)
{
    const char *arg = !strcmp(start, "nearest") ? NULL : start;
    SearchParams p;
    if (search_params(a, &p) != EXIT_OK)
        return NULL;
    WeightsChoice choice;
    Evaluator *e = cli_weights_load(CMD, v, arg, cli_weights_use(&p), &choice);
    if (!e)
        return NULL;
    char line[1200];
    weights_describe(&choice, e, line, sizeof line);
    eval_free(e);
    char *text = cli_weights_text(CMD, &choice);
    if (!text)
        return NULL;
    if (text[0]) {
        /* A network named relative to the starting file is named so that gen0/weights.ini finds it. */
        char gen0[PATH_MAX];
        snprintf(gen0, sizeof gen0, "%s/gen0/weights.ini", a->dir);
        XqError err;
        char *moved = weights_text_moved(text, choice.path, gen0, &err);
        free(text);
        if (!moved) {
            cli_report(CMD, &err);
            return NULL;
        }
        text = moved;
    }
    if (!text[0]) {
        free(text);
        size_t n = strlen(line) + 200;
        text = malloc(n);
        if (!text) {
            cli_error(EXIT_FAILURE_RUN, CMD, "out of memory");
            return NULL;
        }
        snprintf(text, n, "; The starting weights of a training run: %s.\n[weights]\n", line);
    }
    return text;
}

/* A run folder without train.ini may hold only what an interrupted set-up leaves. */
static int check_fresh_folder(const char *dir)
{
    static const char *const setup[] = {"train.ini.lock", "train.ini.tmp", "variant.ini", "variant.ini.tmp",
                                        "search.ini", "search.ini.tmp", "gate-openings.txt", "gate-openings.txt.tmp",
                                        "gen0", "train.log"};
    DIR *d = opendir(dir);
    if (!d)
        return cli_error(EXIT_FAILURE_RUN, CMD, "%s: cannot read the folder: %s", dir, strerror(errno));
    struct dirent *de;
    int status = EXIT_OK;
    while ((de = readdir(d)) != NULL && status == EXIT_OK) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        bool ok = false;
        for (size_t i = 0; i < sizeof setup / sizeof setup[0] && !ok; i++)
            ok = !strcmp(de->d_name, setup[i]);
        if (!ok)
            status = cli_error(EXIT_USAGE, CMD, "%s: holds files (%s, ...) but no training run (train.ini): "
                               "choose a new or empty folder for a new run", dir, de->d_name);
    }
    closedir(d);
    return status;
}

/* The text of a shipped rule set, to compare with the run's (NULL if none is shipped). */
static char *shipped_variant_text(const char *name)
{
    char path[PATH_MAX];
    if (!cli_config_path("variants", name, path, sizeof path))
        return NULL;
    XqError err;
    return ini_read_file(path, &err);
}

/* Settings derived from files (variant, start, search, book): computed for the fields given. */
typedef struct Derived {
    Variant *v;
    char *variant_text, *start_text, *search_text, *book_text;
} Derived;

static void derived_free(Derived *d)
{
    variant_free(d->v);
    free(d->variant_text);
    free(d->start_text);
    free(d->search_text);
    free(d->book_text);
}

/* Loads the run's pinned variant when the command line names none (for --start, --gate-openings). */
static int derive(TrainArgs *a, Derived *d, const char *run_variant)
{
    int status = EXIT_OK;
    XqError err;
    if (a->variant) {
        d->v = cli_load_variant(a->variant);
        if (!d->v)
            return EXIT_FAILURE_RUN;
        snprintf(a->want.variant, sizeof a->want.variant, "%s", d->v->name);
        if (!(d->variant_text = strdup(d->v->text)))
            return cli_error(EXIT_FAILURE_RUN, CMD, "out of memory");
        train_sha(d->variant_text, a->want.variant_sha);
        mark(a, "variant");
        mark(a, "variant_sha");
    } else if (run_variant && (a->start || a->gate_openings)) {
        char *text = ini_read_file(run_variant, &err);
        if (!text)
            return cli_report(CMD, &err);
        d->v = variant_load_text(text, run_variant, &err);
        free(text);
        if (!d->v)
            return cli_report(CMD, &err);
    }
    if (a->start || !run_variant) {
        const char *start = a->start ? a->start : "nearest";
        if (check_text("--start", start, sizeof a->want.start) != EXIT_OK)
            return EXIT_USAGE;
        if (!d->v)
            return cli_error(EXIT_USAGE, CMD, "needs -v VARIANT to start a run");
        if (!(d->start_text = start_text(a, d->v, start)))
            return EXIT_FAILURE_RUN;
        snprintf(a->want.start, sizeof a->want.start, "%s", start);
        train_sha(d->start_text, a->want.start_sha);
        if (a->start) {
            mark(a, "start");
            mark(a, "start_sha");
        }
    }
    if (a->preset || a->nsets || a->playouts || !run_variant) {
        if (!(d->search_text = search_text(a, &status)))
            return status;
        train_sha(search_body(d->search_text), a->want.search_sha);
        if (a->preset || a->nsets || a->playouts)
            mark(a, "search_sha");
    }
    if (a->ngate_sets) {
        if ((status = gate_set_text(a, a->want.gate_set, sizeof a->want.gate_set)) != EXIT_OK)
            return status;
        mark(a, "gate_set");
    }
    if (a->gate_openings) {
        Book book = {0};
        if (check_text("--gate-openings", a->gate_openings, sizeof a->want.gate_openings) != EXIT_OK)
            return EXIT_USAGE;
        if (book_load(&book, d->v, a->gate_openings, &err) < 0)
            return cli_report(CMD, &err);
        book_free(&book);
        if (!(d->book_text = ini_read_file(a->gate_openings, &err)))
            return cli_report(CMD, &err);
        snprintf(a->want.gate_openings, sizeof a->want.gate_openings, "%s", a->gate_openings);
        train_sha(d->book_text, a->want.gate_openings_sha);
        mark(a, "gate_openings");
        mark(a, "gate_openings_sha");
    }
    return EXIT_OK;
}

/* Fails unless the pinned file at path still has the hash the run recorded. */
static int check_pinned(const char *path, const char *sha, const char *what, bool search)
{
    XqError err;
    char *text = ini_read_file(path, &err);
    if (!text)
        return cli_error(EXIT_FAILURE_RUN, CMD, "%s: the run's %s is missing or unreadable: %s", path, what,
                         err.message);
    char got[TRAIN_SHA_LEN];
    train_sha(search ? search_body(text) : text, got);
    free(text);
    if (strcmp(got, sha) != 0)
        return cli_error(EXIT_FAILURE_RUN, CMD, "%s: the run's %s was changed after the run started (it no longer "
                         "matches train.ini): restore it, or start a new run", path, what);
    return EXIT_OK;
}

static int write_settings(CliOutput *claim, const TrainSettings *s)
{
    FILE *f = cli_output_fopen(claim);
    if (!f)
        return EXIT_FAILURE_RUN;
    if (train_settings_write(s, f) < 0) {
        cli_error(EXIT_FAILURE_RUN, CMD, "%s: write failed", claim->path);
        return EXIT_FAILURE_RUN;
    }
    return cli_output_commit(claim);
}

/* Sets up a new run: the pinned files, then train.ini (which makes the folder a run). */
static int create_run(TrainArgs *a, Derived *d, CliOutput *claim, int argc, char **argv)
{
    char path[PATH_MAX];
    int status;
    if (!a->variant)
        return cli_error(EXIT_USAGE, CMD, "%s holds no training run yet: needs -v VARIANT to start one", a->dir);
    if ((status = check_fresh_folder(a->dir)) != EXIT_OK)
        return status;
    TrainSettings *s = &a->want;
    if (s->strength_games > 0) {
        char *shipped = shipped_variant_text(s->variant);
        bool same = shipped && !strcmp(shipped, d->variant_text);
        free(shipped);
        if (!same)
            return cli_error(EXIT_USAGE, CMD, "--strength-games: bench strength plays the shipped rule set '%s' by "
                             "name, and this run's rules are not its text", s->variant);
    }
    snprintf(path, sizeof path, "%s/variant.ini", a->dir);
    if ((status = write_text_atomic(path, d->variant_text)) != EXIT_OK)
        return status;
    snprintf(path, sizeof path, "%s/search.ini", a->dir);
    if ((status = write_text_atomic(path, d->search_text)) != EXIT_OK)
        return status;
    if (d->book_text) {
        snprintf(path, sizeof path, "%s/gate-openings.txt", a->dir);
        if ((status = write_text_atomic(path, d->book_text)) != EXIT_OK)
            return status;
    }
    snprintf(path, sizeof path, "%s/gen0", a->dir);
    if (mkdir(path, 0755) < 0 && errno != EEXIST)
        return cli_error(EXIT_FAILURE_RUN, CMD, "%s: cannot create the folder: %s", path, strerror(errno));
    snprintf(path, sizeof path, "%s/gen0/weights.ini", a->dir);
    if ((status = write_text_atomic(path, d->start_text)) != EXIT_OK)
        return status;
    char line[sizeof s->command - 8];
    train_step_command_line(argv, line, sizeof line);
    snprintf(s->command, sizeof s->command, "xqlab %s", line);
    for (char *c = s->command; *c; c++)
        if (*c == ';' || *c == '#' || *c == '\n' || *c == '\r')
            *c = ' ';
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(s->created, sizeof s->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(s->version, sizeof s->version, "%s", XQLAB_VERSION);
    (void)argc;
    return write_settings(claim, s);
}

/* Continues a run: the command line's settings must be the run's; -g may change. */
static int open_run(TrainArgs *a, Derived *d, CliOutput *claim, TrainSettings *have)
{
    char path[PATH_MAX], msg[8192];
    int status;
    int n = train_settings_diff(have, &a->want, a->given, msg, sizeof msg);
    if (given(a, "search_sha") && strcmp(have->search_sha, a->want.search_sha) != 0) {
        XqError err;
        snprintf(path, sizeof path, "%s/search.ini", a->dir);
        char *stored = ini_read_file(path, &err);
        char extra[4096] = "";
        if (stored)
            train_search_diff(search_body(stored), search_body(d->search_text), extra, sizeof extra);
        free(stored);
        size_t used = strlen(msg);
        snprintf(msg + used, sizeof msg - used, "%s", extra);
    }
    if (n > 0)
        return cli_error(EXIT_USAGE, CMD, "%s holds a run with other settings (nothing was touched):\n%sstart a new "
                         "run in another folder, or leave these options out to continue this one with its own "
                         "(%s/train.ini)", a->dir, msg, a->dir);
    snprintf(path, sizeof path, "%s/variant.ini", a->dir);
    if ((status = check_pinned(path, have->variant_sha, "rule set (variant.ini)", false)) != EXIT_OK)
        return status;
    snprintf(path, sizeof path, "%s/search.ini", a->dir);
    if ((status = check_pinned(path, have->search_sha, "search settings (search.ini)", true)) != EXIT_OK)
        return status;
    snprintf(path, sizeof path, "%s/gen0/weights.ini", a->dir);
    if ((status = check_pinned(path, have->start_sha, "starting weights (gen0/weights.ini)", false)) != EXIT_OK)
        return status;
    if (have->gate_openings[0]) {
        snprintf(path, sizeof path, "%s/gate-openings.txt", a->dir);
        if ((status = check_pinned(path, have->gate_openings_sha, "gate openings (gate-openings.txt)", false)) != EXIT_OK)
            return status;
    }
    if (given(a, "generations") && a->want.generations != have->generations) {
        have->generations = a->want.generations;
        if ((status = write_settings(claim, have)) != EXIT_OK)
            return status;
    }
    return EXIT_OK;
}

static TrainRecord *load_records(const char *dir, int *n)
{
    XqError err;
    TrainRecord *recs = train_records_load(dir, n, &err);
    if (!recs)
        cli_report(CMD, &err);
    return recs;
}

static int export_weights(const TrainArgs *a, const TrainSettings *s)
{
    int n = 0;
    TrainRecord *recs = load_records(a->dir, &n);
    if (!recs)
        return EXIT_FAILURE_RUN;
    char best[PATH_MAX];
    if (n > 1)
        snprintf(best, sizeof best, "%s/gen%d/weights.ini", a->dir, n - 1);
    else
        snprintf(best, sizeof best, "%s/gen0/weights.ini", a->dir);
    XqError err;
    char *read = ini_read_file(best, &err);
    char *text = read ? weights_text_moved(read, best, a->export_path, &err) : NULL;
    free(read);
    if (!text) {
        free(recs);
        return cli_report(CMD, &err);
    }
    /* The features of the run's rule set that the weights in force leave at their defaults (all
     * of them when no generation was promoted over starting weights 'none'). */
    char variant_path[PATH_MAX];
    snprintf(variant_path, sizeof variant_path, "%s/variant.ini", a->dir);
    Variant *v = variant_load_file(variant_path, &err);
    Evaluator *bare = v ? eval_create(v, NULL, &err) : NULL;
    WeightsFit fit;
    if (!bare || weights_fit(bare, best, &fit, &err) != 0) {
        eval_free(bare);
        variant_free(v);
        free(text);
        free(recs);
        return cli_report(CMD, &err);
    }
    int missing = fit.features - fit.matched;
    CliOutput o = CLI_OUTPUT_INIT;
    const char *inputs[1] = {best};
    int status = cli_output_claim(&o, CMD, "--export", a->export_path, a->force ? CLI_OUTPUT_FORCE : 0, inputs, 1);
    if (status == EXIT_OK) {
        FILE *f = cli_output_fopen(&o);
        if (!f) {
            status = EXIT_FAILURE_RUN;
        } else {
            fprintf(f, "; Evaluation weights for %s.\n", s->variant);
            train_report_provenance(f, a->dir, s, recs, n);
            fprintf(f, "; The weights file of that generation follows, with its own provenance.\n;\n");
            fputs(text, f);
            if (*text && text[strlen(text) - 1] != '\n')
                fputc('\n', f);
            if (missing > 0) {
                /* The evaluation is the same; the file names every feature, so the rule set finds it
                 * among the shipped files and later edits of the variant's piece values do not change it. */
                fprintf(f, "; The %d features it does not name, at the defaults they had in this run (the piece "
                        "values of\n; the run's variant.ini, the rest 0):\n", missing);
                if (!strstr(text, "[weights]") || strstr(text, "[net]"))
                    fputs("[weights]\n", f); /* not inside a [net] section */
                for (int i = 0; i < eval_feature_count(bare); i++)
                    if (!fit.names_feature[i])
                        fprintf(f, "%s = %.17g\n", eval_feature_name(bare, i), eval_weight(bare, i));
            }
            status = cli_output_commit(&o);
            if (status == EXIT_OK && !a->quiet)
                fprintf(stderr, "xqlab train: the weights in force (%s) written to %s\n", best, a->export_path);
        }
    }
    cli_output_release(&o);
    eval_free(bare);
    variant_free(v);
    free(text);
    free(recs);
    return status;
}

static int print_status(const TrainArgs *a, const TrainSettings *s)
{
    int n = 0;
    TrainRecord *recs = load_records(a->dir, &n);
    if (!recs)
        return EXIT_FAILURE_RUN;
    TrainReportFormat format = a->json ? TRAIN_REPORT_JSON : a->markdown ? TRAIN_REPORT_MARKDOWN : TRAIN_REPORT_TEXT;
    if (format == TRAIN_REPORT_TEXT) {
        long done = n > 0 ? n - 1 : 0;
        printf("train: %s, %ld of %ld generations done, %" PRIu64 " self-play games each (%s)\n", s->variant, done,
               s->generations, s->games, a->dir);
    }
    train_report_print(stdout, s, recs, n, format);
    free(recs);
    return EXIT_OK;
}

int cmd_train(int argc, char **argv)
{
    TrainArgs a;
    memset(&a, 0, sizeof a);
    int status = parse_args(&a, argc, argv);
    if (status < 0)
        return EXIT_OK; /* --help */
    if (status != EXIT_OK)
        return status;
    char settings_path[PATH_MAX], variant_path[PATH_MAX];
    snprintf(settings_path, sizeof settings_path, "%s/train.ini", a.dir);
    snprintf(variant_path, sizeof variant_path, "%s/variant.ini", a.dir);
    TrainSettings have;
    XqError err;
    if (a.status) {
        if (!path_exists(settings_path))
            return cli_error(EXIT_FAILURE_RUN, CMD, "%s: no training run there (no train.ini)", a.dir);
        if (train_settings_read(&have, settings_path, &err) < 0)
            return cli_report(CMD, &err);
        status = print_status(&a, &have);
        if (status == EXIT_OK && a.export_path)
            status = export_weights(&a, &have);
        return status;
    }

    Derived d;
    memset(&d, 0, sizeof d);
    CliOutput claim = CLI_OUTPUT_INIT;
    if ((status = cli_output_folder(CMD, "-o", a.dir)) != EXIT_OK)
        return status;
    /* The run's lock (train.ini.lock) is held until the end: one loop per folder. */
    if ((status = cli_output_claim(&claim, CMD, "-o", settings_path, CLI_OUTPUT_EXISTING, NULL, 0)) != EXIT_OK)
        return status;
    bool existing = claim.exists;
    if (existing && train_settings_read(&have, settings_path, &err) < 0) {
        status = cli_report(CMD, &err);
        goto cleanup;
    }
    if ((status = derive(&a, &d, existing ? variant_path : NULL)) != EXIT_OK)
        goto cleanup;
    if (existing) {
        if ((status = open_run(&a, &d, &claim, &have)) != EXIT_OK)
            goto cleanup;
    } else {
        if ((status = create_run(&a, &d, &claim, argc, argv)) != EXIT_OK)
            goto cleanup;
        have = a.want;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        status = cli_error(EXIT_FAILURE_RUN, CMD, "cannot find this program (/proc/self/exe): %s", strerror(errno));
        goto cleanup;
    }
    exe[len] = '\0';
    TrainLoop loop = {
        .dir = a.dir, .s = &have, .exe = exe, .threads = (int)a.threads, .quiet = a.quiet,
        .stop = cli_stop_flag(), .log = stderr,
    };
    if (!a.quiet)
        fprintf(stderr, "xqlab train: %s run in %s: %ld generations of %" PRIu64 " games (%s)\n",
                existing ? "continuing the" : "a new", a.dir, have.generations, have.games, have.variant);
    cli_stop_signals_catch();
    TrainEnd end = train_loop_run(&loop, &err);
    cli_stop_signals_release();
    if (end == TRAIN_FAILED) {
        status = cli_report(CMD, &err);
    } else if (end == TRAIN_INTERRUPTED) {
        fprintf(stderr, "xqlab train: interrupted; the finished steps are kept in %s: run the same command again "
                "to continue\n", a.dir);
        status = 130;
    } else {
        status = print_status(&a, &have);
        if (status == EXIT_OK && a.export_path)
            status = export_weights(&a, &have);
    }
cleanup:
    cli_output_release(&claim);
    derived_free(&d);
    return status;
}
