/* cmd_variants.c - `xqlab variants`: list the shipped rule sets, or check a variant file. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "hidden.h"
#include "position.h"
#include "weights.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: xqlab variants [--check FILE | --weights VARIANT [--with FILE]]\n\n"
            "Without options, lists the rule sets shipped in %s/variants with their one-line\n"
            "descriptions. With --check, loads FILE, compiles its pieces and start position and\n"
            "reports the first error as FILE:LINE: what was expected (exit 1), or a summary and\n"
            "warnings about lines that do nothing (a diagonal step, slide or hop on a board that\n"
            "draws no diagonal) and start pieces that can never move from their point (exit 0).\n"
            "With --weights, lists the evaluation features of VARIANT (a name or a file), the\n"
            "weights file selfplay, match, ladder and tune use for it by default (the nearest\n"
            "shipped one, or the file given with --with) and every feature's weight, marking\n"
            "those the file does not name (they keep their defaults).\n",
            cli_config_dir());
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int check_file(const char *path)
{
    XqError err;
    Variant *v = variant_load_file(path, &err);
    if (!v)
        return cli_report("variants", &err);
    int on_board = 0;
    Position *pos = malloc(sizeof *pos);
    if (pos) {
        pos_init_start(pos, v);
        on_board = pos->count[RED] + pos->count[BLACK];
    }
    printf("%s: ok: rule set '%s', %d points, %d piece kinds, %d pieces at the start, "
           "%d legal first moves\n", path, v->name, v->npoints, v->nkinds, on_board,
           pos ? pos_count_legal(pos) : 0);
    /* Design warnings: lines that do nothing (the compiler's), and pieces of the start position
     * whose atoms reach no point from where they stand, even on an empty board. */
    int warnings = 0;
    for (const char *line = v->warnings; *line;) {
        const char *end = strchr(line, '\n');
        int n = end ? (int)(end - line) : (int)strlen(line);
        fprintf(stderr, "xqlab variants: warning: %.*s\n", n, line);
        warnings++;
        line = end ? end + 1 : line + n;
    }
    for (int p = 0; pos && p < v->npoints; p++) {
        Piece pc = pos->board[p];
        int k = pc ? XQ_PIECE_KIND(pc) : -1;
        if (k < 0 || k >= v->nkinds || (hidden_on(v) && k == v->hidden.hidden_kind))
            continue; /* a face-down piece moves by reveals and flips, not by its table */
        const MoveTable *t = &v->table[k][XQ_PIECE_SIDE(pc)][p];
        if (t->leap_count || t->ray_count)
            continue;
        char point[8];
        variant_point_name(v, (Point)p, point);
        fprintf(stderr, "xqlab variants: warning: %s: the %s %s on %s can never move from its start point: none "
                "of its atoms reaches a point from there, even on an empty board%s\n", path,
                XQ_PIECE_SIDE(pc) == RED ? "red" : "black", v->kinds[k].name, point,
                v->modules ? " (moves of rule modules not counted)" : "");
        warnings++;
    }
    if (warnings)
        fprintf(stderr, "xqlab variants: %s: %d warning%s (the file loads; exit status 0)\n", path, warnings,
                warnings == 1 ? "" : "s");
    free(pos);
    variant_free(v);
    return EXIT_OK;
}

/* The features of a rule set, the weights file it gets and each feature's weight. */
static int show_weights(const char *variant_arg, const char *with)
{
    Variant *v = cli_load_variant(variant_arg);
    if (!v)
        return EXIT_FAILURE_RUN;
    WeightsChoice choice;
    Evaluator *e = cli_weights_load("variants", v, with, WEIGHTS_FOR_DEFAULT, &choice);
    if (!e) {
        variant_free(v);
        return EXIT_FAILURE_RUN;
    }
    char line[2048];
    weights_describe(&choice, e, line, sizeof line);
    printf("rule set %s: %d evaluation features\nweights: %s\n\n", v->name, eval_feature_count(e), line);
    for (int i = 0; i < eval_feature_count(e); i++)
        printf("  %-32s %10g%s\n", eval_feature_name(e, i), eval_weight(e, i),
               choice.fit.names_feature[i] ? "" : "  (default)");
    eval_free(e);
    variant_free(v);
    return EXIT_OK;
}

int cmd_variants(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_OK;
        }
        if (!strcmp(argv[i], "--weights")) {
            if (i + 1 >= argc)
                return cli_error(EXIT_USAGE, "variants", "--weights needs a rule set name or file");
            const char *with = NULL;
            if (i + 2 < argc) {
                if (strcmp(argv[i + 2], "--with") || i + 3 >= argc || i + 4 < argc)
                    return cli_error(EXIT_USAGE, "variants", "usage: xqlab variants --weights VARIANT [--with FILE]");
                with = argv[i + 3];
            }
            return show_weights(argv[i + 1], with);
        }
        if (!strcmp(argv[i], "--check")) {
            if (i + 1 >= argc)
                return cli_error(EXIT_USAGE, "variants", "--check needs a file name");
            return check_file(argv[i + 1]);
        }
        return cli_bad_option("variants", argv[i], usage);
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/variants", cli_config_dir());
    DIR *d = opendir(dir);
    if (!d)
        return cli_error(EXIT_FAILURE_RUN, "variants", "cannot open %s", dir);
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".ini"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], compare_names);
    int status = EXIT_OK;
    for (int i = 0; i < n; i++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        XqError err;
        Variant *v = variant_load_file(path, &err);
        if (!v) {
            status = cli_report("variants", &err);
        } else {
            printf("%-12s %s\n", v->name, v->description);
            variant_free(v);
        }
        free(names[i]);
    }
    return status;
}
