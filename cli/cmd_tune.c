/* cmd_tune.c - `xqlab tune`: fit evaluation weights to self-play results, write a weights file
 * with provenance and the piece values in pawn units with standard errors. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "bad_option.h"
#include "common.h"
#include "dataset.h"
#include "output.h"
#include "params.h"
#include "net.h"
#include "net_fit.h"
#include "tune.h"
#include "weights.h"

enum { MAX_FILES = 1024, MAX_VALUES = 2 * EVAL_MAX_FEATURES };

static void usage(FILE *out)
{
    fprintf(out,
        "usage: xqlab tune DATA.h5... [-v VARIANT] [-o WEIGHTS.ini] [options]\n\n"
        "Fits the evaluation's linear features to the game results of self-play datasets by\n"
        "L2-regularised logistic regression: Red's expected score (draw = 1/2) is modelled as\n"
        "sigmoid(2 w.x / eval_scale), the search's own leaf value mapped to a score, so the\n"
        "weights stay in pawns. Minimised with GSL's BFGS (analytic gradient), games split into\n"
        "training and validation, stopped when the validation loss stops improving. Writes the\n"
        "weights file (with provenance comments) and the piece values in pawn units with\n"
        "standard errors (inverse Hessian, delta method) as JSON. See docs/training.md.\n\n"
        "options:\n"
        "  -v, --variant V       rule set (default: the variant stored in the first file);\n"
        "                        every file must hold this variant with the same rule text\n"
        "  -o, --output FILE     weights file to write (default VARIANT-tuned.ini)\n"
        "      --values FILE     piece-value JSON (default: the output with .json)\n"
        "      --force           replace an existing weights or JSON file (never an input)\n"
        "      --start FILE      starting weights (default: the nearest shipped file, the one\n"
        "                        naming most of the rule set's features, as in selfplay;\n"
        "                        'none': the variant's piece values)\n"
        "      --eval-scale S    pawns per unit of atanh(value) (default: the search default, 10)\n"
        "      --l2 L            L2 penalty on the mean loss (default 1e-5)\n"
        "      --l2-pst L        L2 penalty of the per-point terms pst.* (default 1e-4: each\n"
        "                        is seen in few positions, so they get the stronger prior)\n"
        "      --min-rows N      hold features nonzero in fewer than N training positions at\n"
        "                        their starting weights, with a warning (default 50)\n"
        "      --root-blend B    target = (1-B) result + B search value (default 1, the\n"
        "                        recommended setting of docs/training.md; 0 = results only;\n"
        "                        games without search values, e.g. imports, use results)\n"
        "      --root-horizon N  the search value is the mean over this position and the\n"
        "                        next N-1 (default 1)\n"
        "      --validation F    share of games held out (default 0.1)\n"
        "      --seed S          seed of the game split (default 1)\n"
        "      --max-iterations N  BFGS iterations (default 300)\n"
        "      --patience N      iterations without a better validation loss before stopping\n"
        "                        (default 10)\n"
        "      --only P,...      fit only features whose names start with one of the\n"
        "                        prefixes (material,zone.pawn,...); the others keep their\n"
        "                        starting weights\n"
        "      --drop P,...      set features with these prefixes to 0 and hold them there\n"
        "                        (--drop mobility,safety: a pure piece-square model)\n"
        "      --all-positions   keep positions in check and before captures (default: skip)\n"
        "      --quiet-plies N   also skip positions from which any of the next N moves\n"
        "                        captures (default 1: only the move played)\n"
        "      --min-ply N       skip the first N plies of each game (default 0)\n"
        "      --max-positions N read games until N moves are read (default all)\n"
        "  -t, --threads T       threads (default all cores); results do not depend on it\n"
        "      --net H           instead of the linear weights (held at the starting ones),\n"
        "                        fit a network of H hidden units (a multiple of 16) added to\n"
        "                        the linear score; writes it to --net-output and names it in\n"
        "                        the weights file's [net] section (docs/training.md, \"The\n"
        "                        network\")\n"
        "      --net-output FILE the network file (default: the output with .net)\n"
        "      --net-epochs N    passes over the training positions, at most (default 40)\n"
        "      --net-rate R      Adam's step size (default 0.001)\n"
        "      --json            print the result as JSON on stdout instead of the tables\n"
        "      --quiet           no per-iteration lines\n"
        "A fit with fewer than 10 training positions per free feature is refused (exit 1):\n"
        "play more games, or fit fewer features (--drop pst).\n"
        "Exit status: 0 done, 1 bad data or failed fit, 2 bad usage.\n");
}

/* True if `name` starts with one of the comma-separated prefixes of `list`. */
static bool matches_prefix(const char *name, const char *list)
{
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n > 0 && strncmp(name, p, n) == 0)
            return true;
        if (!comma)
            break;
        p = comma + 1;
    }
    return false;
}

/* Every prefix of the list must name at least one feature (a typo would silently fit all). */
static int check_prefixes(const Evaluator *e, const char *option, const char *list)
{
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        bool found = false;
        for (int i = 0; i < eval_feature_count(e) && !found; i++)
            found = n > 0 && strncmp(eval_feature_name(e, i), p, n) == 0;
        if (!found)
            return cli_error(EXIT_USAGE, "tune", "%s: '%.*s' matches no feature (see the feature "
                             "names in configs/weights/*.ini)", option, (int)n, p);
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

/* Replaces the extension of `path` (or appends) with `ext`. */
static void with_extension(const char *path, const char *ext, char *buf, size_t size)
{
    snprintf(buf, size, "%s", path);
    char *dot = strrchr(buf, '.'), *slash = strrchr(buf, '/');
    if (dot && (!slash || dot > slash))
        *dot = '\0';
    size_t n = strlen(buf);
    snprintf(buf + n, size - n, "%s", ext);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void json_number(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.6g", x);
    else
        fprintf(f, "null");
}

typedef struct Report {
    const Variant *v;
    const Evaluator *e;
    const TuneData *d;
    const TuneResult *r;
    const TuneOptions *o;
    const double *w0;
    const char *const *files;
    int nfiles;
    const char *unit;
    const PieceValue *values;
    int nvalues;
    const char *weights_out;
    double seconds_load, seconds_fit;
    const bool *held_rare;   /* held for having too few nonzero rows */
    double l2_pst;
    uint64_t min_rows;
} Report;

static void write_json(FILE *f, const Report *p)
{
    fprintf(f, "{\"variant\": ");
    json_string(f, p->v->name);
    fprintf(f, ", \"files\": [");
    for (int i = 0; i < p->nfiles; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_string(f, p->files[i]);
    }
    fprintf(f, "], \"games\": %llu, \"train_games\": %llu, \"positions\": %llu, "
               "\"train_positions\": %llu, ",
            (unsigned long long)p->d->ngames, (unsigned long long)p->d->ntrain_games,
            (unsigned long long)p->d->nrows, (unsigned long long)p->d->ntrain);
    fprintf(f, "\"eval_scale\": %g, \"l2\": %g, \"l2_pst\": %g, \"min_rows\": %llu, "
               "\"root_blend\": %g, \"iterations\": %d, \"best_iteration\": %d, \"stop\": ",
            p->o->eval_scale, p->o->l2, p->l2_pst, (unsigned long long)p->min_rows,
            p->o->root_blend, p->r->iterations, p->r->best_iteration);
    json_string(f, p->r->stop_reason);
    fprintf(f, ", \"loss\": {\"start_train\": %.6f, \"start_validation\": %.6f, \"train\": %.6f, "
               "\"validation\": %.6f}, \"seconds\": {\"load\": %.3f, \"fit\": %.3f}, \"weights_file\": ",
            p->r->start_train_loss, p->r->start_valid_loss, p->r->train_loss, p->r->valid_loss,
            p->seconds_load, p->seconds_fit);
    json_string(f, p->weights_out);
    fprintf(f, ", \"weights\": {");
    int nf = eval_feature_count(p->e);
    for (int i = 0; i < nf; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_string(f, eval_feature_name(p->e, i));
        fprintf(f, ": {\"start\": ");
        json_number(f, p->w0[i]);
        fprintf(f, ", \"value\": ");
        json_number(f, p->r->w[i]);
        fprintf(f, ", \"se\": ");
        json_number(f, sqrt(p->r->cov[(size_t)i * (size_t)nf + (size_t)i]));
        fprintf(f, ", \"se_cluster\": ");
        json_number(f, sqrt(p->r->cov_cluster[(size_t)i * (size_t)nf + (size_t)i]));
        fprintf(f, ", \"rows_nonzero\": %llu, \"held\": %s}", (unsigned long long)p->d->nonzero[i],
                p->o->fixed && p->o->fixed[i] ? "true" : "false");
    }
    fprintf(f, "}, \"unit\": ");
    json_string(f, p->unit);
    fprintf(f, ", \"piece_values\": [");
    for (int i = 0; i < p->nvalues; i++) {
        fprintf(f, "%s{\"name\": ", i ? ", " : "");
        json_string(f, p->values[i].name);
        fprintf(f, ", \"value\": ");
        json_number(f, p->values[i].value);
        fprintf(f, ", \"se\": ");
        json_number(f, p->values[i].se);
        fprintf(f, ", \"se_cluster\": ");
        json_number(f, p->values[i].se_cluster);
        fprintf(f, "}");
    }
    fprintf(f, "]}\n");
}

static void print_tables(const Report *p)
{
    int nf = eval_feature_count(p->e);
    printf("tune: %s, %d file(s), %llu games (%llu train), %llu positions (%llu train)\n",
           p->v->name, p->nfiles, (unsigned long long)p->d->ngames,
           (unsigned long long)p->d->ntrain_games, (unsigned long long)p->d->nrows,
           (unsigned long long)p->d->ntrain);
    printf("loss (cross-entropy): train %.6f -> %.6f, validation %.6f -> %.6f\n",
           p->r->start_train_loss, p->r->train_loss, p->r->start_valid_loss, p->r->valid_loss);
    printf("BFGS: %d iterations, best %d, stopped: %s; load %.2f s, fit %.2f s\n",
           p->r->iterations, p->r->best_iteration, p->r->stop_reason, p->seconds_load, p->seconds_fit);
    printf("\n%-32s %9s %9s %8s %8s\n", "feature", "start", "tuned", "+-", "+-game");
    for (int i = 0; i < nf; i++)
        printf("%-32s %9.4f %9.4f %8.4f %8.4f%s\n", eval_feature_name(p->e, i), p->w0[i], p->r->w[i],
               sqrt(p->r->cov[(size_t)i * (size_t)nf + (size_t)i]),
               sqrt(p->r->cov_cluster[(size_t)i * (size_t)nf + (size_t)i]),
               p->d->nonzero[i] == 0 ? "  (held: never nonzero in the data)"
               : p->held_rare && p->held_rare[i] ? "  (held: too few positions)"
               : p->o->fixed && p->o->fixed[i] ? "  (held)"
               : "");
    printf("\npiece values in %s units (material weight / material.%s), standard errors from the\n"
           "inverse Hessian (+-, positions independent) and clustered by game (+-game):\n",
           p->unit, p->unit);
    for (int i = 0; i < p->nvalues; i++)
        printf("  %-28s %7.3f +- %.3f  +-game %.3f\n", p->values[i].name, p->values[i].value,
               p->values[i].se, p->values[i].se_cluster);
    printf("\nweights: %s\n", p->weights_out);
}

/* Writes the weights file into the claimed output; the message is printed on failure. */
static int write_weights(const Report *p, Evaluator *e, int argc, char **argv, const char *start,
                         CliOutput *out)
{
    FILE *f = cli_output_fopen(out);
    if (!f)
        return EXIT_FAILURE_RUN;
    time_t now = time(NULL);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "; Evaluation weights for %s, learned by xqlab %s tune at %s.\n", p->v->name,
            XQLAB_VERSION, stamp);
    fprintf(f, "; command: xqlab");
    for (int i = 0; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n; data:\n");
    for (int i = 0; i < p->nfiles; i++)
        fprintf(f, ";   %s\n", p->files[i]);
    fprintf(f, "; games %llu (train %llu), positions %llu (train %llu)\n",
            (unsigned long long)p->d->ngames, (unsigned long long)p->d->ntrain_games,
            (unsigned long long)p->d->nrows, (unsigned long long)p->d->ntrain);
    fprintf(f, "; start weights: %s\n", start ? start : "(variant piece values)");
    if (eval_net(e))
        fprintf(f, "; network: held as the start weights name it, its output a fixed part of every "
                "position's score\n");
    fprintf(f, "; model: P(red scores) = sigmoid(2 w.x / %g), l2 %g (per-point terms %g), root "
            "blend %g (horizon %d), validation %g, features in fewer than %llu positions held\n",
            p->o->eval_scale, p->o->l2, p->l2_pst, p->o->root_blend, p->o->root_horizon,
            p->o->validation, (unsigned long long)p->min_rows);
    fprintf(f, "; positions: %s\n", p->o->all_positions ? "all"
            : p->o->quiet_plies > 1 ? "not in check, no capture in the next quiet-plies moves"
                                    : "not in check, the move played does not capture");
    fprintf(f, "; loss: train %.6f -> %.6f, validation %.6f -> %.6f (%d BFGS iterations, best %d)\n",
            p->r->start_train_loss, p->r->train_loss, p->r->start_valid_loss, p->r->valid_loss,
            p->r->iterations, p->r->best_iteration);
    fprintf(f, "; piece values (%s = 1, +- standard error clustered by game):", p->unit);
    for (int i = 0; i < p->nvalues; i++)
        if (!strchr(p->values[i].name, ' '))
            fprintf(f, " %s %.2f+-%.2f", p->values[i].name, p->values[i].value, p->values[i].se_cluster);
    fprintf(f, "\n\n");
    for (int i = 0; i < eval_feature_count(e); i++)
        eval_set_weight(e, i, p->r->w[i]);
    char *text = malloc(1 << 18);
    if (!text)
        return cli_error(EXIT_FAILURE_RUN, "tune", "out of memory writing %s", p->weights_out);
    eval_write_weights(e, text, 1 << 18);
    fputs(text, f);
    free(text);
    return cli_output_commit(out);
}

/* Too few data for the fitted values: a piece value whose 95% interval (1.96 standard errors:
 * the larger of the two, positions independent or clustered by game) is wider than half the
 * value itself is named in one warning, with the games it came from; the weights are written
 * all the same. */
static void warn_uncertain(const Report *p)
{
    char list[1024] = "";
    size_t used = 0;
    int n = 0;
    for (int i = 0; i < p->nvalues; i++) {
        const PieceValue *pv = &p->values[i];
        double se = pv->se > pv->se_cluster ? pv->se : pv->se_cluster;
        if (strstr(pv->name, " in ") || !(1.96 * se > 0.5 * fabs(pv->value)))
            continue; /* zone values may sit near 0 by right: only the plain piece values */
        if (used < sizeof list - 1)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s %.2f +- %.2f", n ? ", " : "", pv->name,
                                     pv->value, se);
        n++;
    }
    if (n)
        fprintf(stderr, "xqlab tune: warning: too few data for %d fitted piece value%s (95%% interval wider than "
                "half the value; %s units, +- the larger standard error): %s; from %" PRIu64 " training games: "
                "the errors shrink as 1/sqrt(games): four times the games halve them\n", n, n == 1 ? "" : "s",
                p->unit, list, p->d->ntrain_games);
}

/* What the command reads (the datasets and the starting weights), which no output may be. */
static int input_list(const char *const *files, int nfiles, const char *start, const char **inputs)
{
    int n = 0;
    for (int i = 0; i < nfiles; i++)
        inputs[n++] = files[i];
    if (start)
        inputs[n++] = start;
    return n;
}

/* --net: the rows with their network inputs, the network fitted on top of the starting linear
 * weights (held), the network file and a weights file naming it. Both outputs are claimed before
 * the data is read. */
static int tune_network(int argc, char **argv, const Variant *v, Evaluator *e, const char *const *files,
                        int nfiles, const char *start, const char *out, const char *net_out, bool force,
                        bool json, TuneOptions *o, NetFitOptions *no, int hidden)
{
    char netbuf[1024];
    if (!net_out) {
        with_extension(out, ".net", netbuf, sizeof netbuf);
        net_out = netbuf;
    }
    const char *inputs[MAX_FILES + 1];
    int ninputs = input_list(files, nfiles, start, inputs);
    CliOutput weights_file = CLI_OUTPUT_INIT, net_file = CLI_OUTPUT_INIT;
    unsigned flags = force ? CLI_OUTPUT_FORCE : 0;
    int status = EXIT_FAILURE_RUN;
    TuneData d;
    memset(&d, 0, sizeof d);
    XqError err;
    Net *net = NULL;
    double *w = NULL;
    if (cli_output_claim(&weights_file, "tune", "-o", out, flags, inputs, ninputs) != EXIT_OK ||
        cli_output_claim(&net_file, "tune", "--net-output", net_out, flags, inputs, ninputs) != EXIT_OK)
        goto done;
    if (dataset_files_distinct(files, nfiles, &err) != 0) {
        status = cli_report("tune", &err);
        goto done;
    }
    net = net_create(v, hidden, &err);
    if (!net) {
        status = cli_report("tune", &err);
        goto done;
    }
    o->net_inputs = true;
    double t0 = cli_now();
    if (tune_load(&d, e, v, files, nfiles, o, &err) != 0) {
        status = cli_report("tune", &err);
        goto done;
    }
    uint64_t nparams = (uint64_t)net->ninputs * (uint64_t)hidden + 2 * (uint64_t)hidden + 1;
    if (d.ntrain < nparams / 4) {
        cli_error(EXIT_FAILURE_RUN, "tune", "%llu training positions for a network of %llu weights: "
                  "too few (at least one position per four weights); play more games, or a "
                  "smaller --net", (unsigned long long)d.ntrain, (unsigned long long)nparams);
        goto done;
    }
    double t1 = cli_now();
    int nf = eval_feature_count(e);
    w = malloc((size_t)nf * sizeof *w);
    if (!w) {
        cli_error(EXIT_FAILURE_RUN, "tune", "out of memory");
        goto done;
    }
    for (int i = 0; i < nf; i++)
        w[i] = eval_weight(e, i);
    no->eval_scale = o->eval_scale;
    no->seed = o->seed;
    no->log = o->log;
    NetFitResult r;
    if (net_fit(&d, w, net, no, &r, &err) != 0) {
        status = cli_report("tune", &err);
        goto done;
    }
    double t2 = cli_now();
    FILE *nf_out = cli_output_fopen(&net_file);
    if (!nf_out || net_write(net, nf_out, net_out, &err) != 0) {
        if (nf_out)
            cli_report("tune", &err);
        goto done;
    }
    if (cli_output_commit(&net_file) != EXIT_OK)
        goto done;
    /* The weights file names the network by its name alone when the two are side by side, else by
     * its absolute path. */
    char named[4096];
    if (weights_net_reference(net_out, out, named, sizeof named, &err) != 0) {
        status = cli_report("tune", &err);
        goto done;
    }
    eval_set_net(e, net, named);
    net = NULL; /* the evaluator owns it */
    FILE *f = cli_output_fopen(&weights_file);
    if (!f)
        goto done;
    time_t now = time(NULL);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "; Evaluation weights for %s with a network, learned by xqlab %s tune at %s.\n",
            v->name, XQLAB_VERSION, stamp);
    fprintf(f, "; command: xqlab");
    for (int i = 0; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n; data:\n");
    for (int i = 0; i < nfiles; i++)
        fprintf(f, ";   %s\n", files[i]);
    fprintf(f, "; games %llu (train %llu), positions %llu (train %llu)\n", (unsigned long long)d.ngames,
            (unsigned long long)d.ntrain_games, (unsigned long long)d.nrows, (unsigned long long)d.ntrain);
    fprintf(f, "; linear weights: held at %s\n", start ? start : "(variant piece values)");
    fprintf(f, "; network: %d hidden units, %llu weights; Adam, batch %d, step %g (x%g an epoch), "
            "weight decay %g, eval scale %g\n", hidden, (unsigned long long)nparams, no->batch, no->rate,
            no->decay, no->l2, no->eval_scale);
    fprintf(f, "; loss: train %.6f -> %.6f, validation %.6f -> %.6f (%d epochs, best %d, stopped: %s)\n\n",
            r.start_train_loss, r.train_loss, r.start_valid_loss, r.valid_loss, r.epochs, r.best_epoch,
            r.stop_reason);
    char *text = malloc(1 << 18);
    if (!text) {
        cli_error(EXIT_FAILURE_RUN, "tune", "out of memory writing %s", out);
        goto done;
    }
    eval_write_weights(e, text, 1 << 18);
    fputs(text, f);
    free(text);
    if (cli_output_commit(&weights_file) != EXIT_OK)
        goto done;
    if (json) {
        printf("{\"variant\": ");
        json_string(stdout, v->name);
        printf(", \"games\": %llu, \"train_games\": %llu, \"positions\": %llu, \"train_positions\": %llu, "
               "\"hidden\": %d, \"weights\": %llu, \"start_train_loss\": %.6f, \"train_loss\": %.6f, "
               "\"start_valid_loss\": %.6f, \"valid_loss\": %.6f, \"epochs\": %d, \"best_epoch\": %d, "
               "\"stop_reason\": ",
               (unsigned long long)d.ngames, (unsigned long long)d.ntrain_games, (unsigned long long)d.nrows,
               (unsigned long long)d.ntrain, hidden, (unsigned long long)nparams, r.start_train_loss,
               r.train_loss, r.start_valid_loss, r.valid_loss, r.epochs, r.best_epoch);
        json_string(stdout, r.stop_reason);
        printf(", \"seconds_load\": %.2f, \"seconds_fit\": %.2f, \"output\": ", t1 - t0, t2 - t1);
        json_string(stdout, out);
        printf(", \"network\": ");
        json_string(stdout, net_out);
        printf("}\n");
    } else {
        printf("tune --net: %s, %d file(s), %llu games (%llu train), %llu positions (%llu train)\n",
               v->name, nfiles, (unsigned long long)d.ngames, (unsigned long long)d.ntrain_games,
               (unsigned long long)d.nrows, (unsigned long long)d.ntrain);
        printf("network: %d hidden units, %llu weights, on top of the linear weights of %s (held)\n",
               hidden, (unsigned long long)nparams, start ? start : "the variant's piece values");
        printf("loss (cross-entropy): train %.6f -> %.6f, validation %.6f -> %.6f\n", r.start_train_loss,
               r.train_loss, r.start_valid_loss, r.valid_loss);
        printf("Adam: %d epochs, best %d, stopped: %s; load %.2f s, fit %.2f s\n", r.epochs, r.best_epoch,
               r.stop_reason, t1 - t0, t2 - t1);
        printf("\nweights: %s\nnetwork: %s\n", out, net_out);
    }
    status = EXIT_OK;
done:
    cli_output_release(&net_file);
    cli_output_release(&weights_file);
    net_free(net);
    free(w);
    tune_data_free(&d);
    return status;
}

int cmd_tune(int argc, char **argv)
{
    const char *files[MAX_FILES];
    int nfiles = 0;
    const char *variant_arg = NULL, *out = NULL, *values_out = NULL, *start = NULL;
    const char *only = NULL, *drop = NULL, *net_out = NULL;
    TuneOptions o = TUNE_OPTIONS_INIT;
    NetFitOptions no = NET_FIT_OPTIONS_INIT;
    int net_hidden = 0;
    SearchParams sp;
    params_default(&sp);
    o.eval_scale = sp.eval_scale;
    /* The recommended target (docs/training.md: results alone fit weights about three times too
     * small, -41.5 Elo; the search values, +11.8): games without search values (imports) fall
     * back to their results. */
    o.root_blend = 1.0;
    bool json = false, quiet = false, force = false;
    double l2_pst = 1e-4;
    uint64_t min_rows = 50;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        long n;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if ((!strcmp(a, "-v") || !strcmp(a, "--variant")) && has) {
            variant_arg = argv[++i];
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has) {
            out = argv[++i];
        } else if (!strcmp(a, "--values") && has) {
            values_out = argv[++i];
        } else if (!strcmp(a, "--start") && has) {
            start = argv[++i];
        } else if (!strcmp(a, "--eval-scale") && has) {
            if (cli_parse_double("tune", "--eval-scale", argv[++i], 1e-3, 1e6, &o.eval_scale) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--l2") && has) {
            if (cli_parse_double("tune", "--l2", argv[++i], 0, 1e3, &o.l2) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--l2-pst") && has) {
            if (cli_parse_double("tune", "--l2-pst", argv[++i], 0, 1e3, &l2_pst) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--min-rows") && has) {
            if (cli_parse_int("tune", "--min-rows", argv[++i], 1, 1000000000, &n) < 0)
                return EXIT_USAGE;
            min_rows = (uint64_t)n;
        } else if (!strcmp(a, "--root-blend") && has) {
            if (cli_parse_double("tune", "--root-blend", argv[++i], 0, 1, &o.root_blend) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--root-horizon") && has) {
            if (cli_parse_int("tune", "--root-horizon", argv[++i], 1, 1000, &n) < 0)
                return EXIT_USAGE;
            o.root_horizon = (int)n;
        } else if (!strcmp(a, "--validation") && has) {
            if (cli_parse_double("tune", "--validation", argv[++i], 0, 0.9, &o.validation) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--seed") && has) {
            if (cli_parse_u64("tune", "--seed", argv[++i], &o.seed) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--max-iterations") && has) {
            if (cli_parse_int("tune", "--max-iterations", argv[++i], 0, 100000, &n) < 0)
                return EXIT_USAGE;
            o.max_iterations = (int)n;
        } else if (!strcmp(a, "--patience") && has) {
            if (cli_parse_int("tune", "--patience", argv[++i], 1, 100000, &n) < 0)
                return EXIT_USAGE;
            o.patience = (int)n;
        } else if (!strcmp(a, "--quiet-plies") && has) {
            if (cli_parse_int("tune", "--quiet-plies", argv[++i], 1, 100, &n) < 0)
                return EXIT_USAGE;
            o.quiet_plies = (int)n;
        } else if (!strcmp(a, "--min-ply") && has) {
            if (cli_parse_int("tune", "--min-ply", argv[++i], 0, 100000, &n) < 0)
                return EXIT_USAGE;
            o.min_ply = (int)n;
        } else if (!strcmp(a, "--max-positions") && has) {
            if (cli_parse_u64("tune", "--max-positions", argv[++i], &o.max_positions) < 0)
                return EXIT_USAGE;
        } else if ((!strcmp(a, "-t") || !strcmp(a, "--threads")) && has) {
            if (cli_parse_int("tune", "--threads", argv[++i], 1, 1024, &n) < 0)
                return EXIT_USAGE;
            o.threads = (int)n;
        } else if (!strcmp(a, "--net") && has) {
            if (cli_parse_int("tune", "--net", argv[++i], 1, NET_MAX_HIDDEN, &n) < 0)
                return EXIT_USAGE;
            if (n % NET_BLOCK != 0)
                return cli_error(EXIT_USAGE, "tune", "--net %ld: the hidden width must be a multiple of %d",
                                 n, NET_BLOCK);
            net_hidden = (int)n;
        } else if (!strcmp(a, "--net-output") && has) {
            net_out = argv[++i];
        } else if (!strcmp(a, "--net-epochs") && has) {
            if (cli_parse_int("tune", "--net-epochs", argv[++i], 1, 100000, &n) < 0)
                return EXIT_USAGE;
            no.epochs = (int)n;
        } else if (!strcmp(a, "--net-rate") && has) {
            if (cli_parse_double("tune", "--net-rate", argv[++i], 1e-7, 1, &no.rate) < 0)
                return EXIT_USAGE;
        } else if (!strcmp(a, "--only") && has) {
            only = argv[++i];
        } else if (!strcmp(a, "--drop") && has) {
            drop = argv[++i];
        } else if (!strcmp(a, "--all-positions")) {
            o.all_positions = true;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_bad_option("tune", a, usage);
        } else {
            if (nfiles == MAX_FILES)
                return cli_error(EXIT_USAGE, "tune", "more than %d dataset files", MAX_FILES);
            files[nfiles++] = a;
        }
    }
    if (nfiles == 0) {
        usage(stderr);
        return cli_error(EXIT_USAGE, "tune", "needs at least one dataset file (DATA.h5)");
    }
    o.log = quiet ? NULL : stderr;
    if (!net_hidden && (net_out || no.epochs != NET_FIT_OPTIONS_DEFAULT_EPOCHS || no.rate != NET_FIT_OPTIONS_DEFAULT_RATE))
        return cli_error(EXIT_USAGE, "tune", "--net-output, --net-epochs and --net-rate need --net H");
    if (net_hidden && (only || drop))
        return cli_error(EXIT_USAGE, "tune", "--net holds the linear weights: --only and --drop do not apply");

    int status = EXIT_FAILURE_RUN;
    XqError err;
    Variant *v = NULL;
    Evaluator *e = NULL;
    TuneData d;
    TuneResult r;
    memset(&d, 0, sizeof d);
    memset(&r, 0, sizeof r);
    double *w0 = NULL;
    PieceValue *values = NULL;
    CliOutput weights_file = CLI_OUTPUT_INIT, values_file = CLI_OUTPUT_INIT;
    if (variant_arg) {
        v = cli_load_variant(variant_arg);
        if (!v)
            return EXIT_FAILURE_RUN;
    } else {
        /* The rules the games were played with, as stored in the first file. */
        DatasetReader *rd = dsr_open(files[0], &err);
        if (!rd)
            return cli_report("tune", &err);
        v = variant_load_text(dsr_summary(rd)->variant_text, files[0], &err);
        dsr_close(rd);
        if (!v)
            return cli_report("tune", &err);
    }
    char outbuf[1024], valbuf[1024];
    WeightsChoice wchoice;
    e = cli_weights_load("tune", v, start, WEIGHTS_FOR_DEFAULT, &wchoice);
    if (!e) {
        status = EXIT_FAILURE_RUN;
        goto cleanup;
    }
    start = wchoice.path[0] ? wchoice.path : NULL;
    if (!out) {
        snprintf(outbuf, sizeof outbuf, "%s-tuned.ini", v->name);
        out = outbuf;
    }
    if (net_hidden) {
        status = tune_network(argc, argv, v, e, files, nfiles, start, out, net_out, force, json, &o,
                              &no, net_hidden);
        goto cleanup;
    }
    /* Starting weights with a network: the linear fit holds it, its output a fixed part of every
     * position's score, and the weights file written names the same network. */
    if (eval_net(e) && eval_net_refer_from(e, out, &err) != 0) {
        status = cli_report("tune", &err);
        goto cleanup;
    }
    if (!values_out) {
        with_extension(out, ".json", valbuf, sizeof valbuf);
        values_out = valbuf;
    }
    /* Both outputs are claimed before the data is read: a refusal costs nothing, and nothing the
     * command reads (datasets, starting weights) can be one of them. */
    const char *inputs[MAX_FILES + 1];
    int ninputs = input_list(files, nfiles, start, inputs);
    unsigned flags = force ? CLI_OUTPUT_FORCE : 0;
    if (cli_output_claim(&weights_file, "tune", "-o", out, flags, inputs, ninputs) != EXIT_OK ||
        cli_output_claim(&values_file, "tune", "--values", values_out, flags, inputs, ninputs) != EXIT_OK)
        goto cleanup;
    /* A game counted twice (a file given twice, a merged file with one of its shards) would
     * weigh it double in the fit. */
    if (dataset_files_distinct(files, nfiles, &err) != 0) {
        status = cli_report("tune", &err);
        goto cleanup;
    }
    int unit = tune_default_unit(e, v);
    if (unit < 0) {
        status = EXIT_FAILURE_RUN;
        cli_error(EXIT_FAILURE_RUN, "tune", "variant %s has no material feature to use as the unit", v->name);
        goto cleanup;
    }

    static bool fixed[EVAL_MAX_FEATURES], held_rare[EVAL_MAX_FEATURES];
    static double l2_feature[EVAL_MAX_FEATURES];
    memset(fixed, 0, sizeof fixed);
    memset(held_rare, 0, sizeof held_rare);
    if ((only && check_prefixes(e, "--only", only) != 0) || (drop && check_prefixes(e, "--drop", drop) != 0)) {
        status = EXIT_USAGE;
        goto cleanup;
    }
    for (int i = 0; i < eval_feature_count(e); i++) {
        const char *name = eval_feature_name(e, i);
        if (only && !matches_prefix(name, only))
            fixed[i] = true;
        if (drop && matches_prefix(name, drop)) {
            fixed[i] = true;
            eval_set_weight(e, i, 0);
        }
    }
    double t0 = cli_now();
    if (tune_load(&d, e, v, files, nfiles, &o, &err) != 0) {
        status = cli_report("tune", &err);
        goto cleanup;
    }
    double t1 = cli_now();
    int nf = eval_feature_count(e);
    /* A feature that is 0 in every training row carries no information: it keeps its starting
     * weight (the penalty alone would drag it to 0). safety.in_check is one unless
     * --all-positions keeps the positions in check. */
    for (int i = 0; i < nf; i++)
        if (d.nonzero[i] == 0)
            fixed[i] = true;
    /* A feature seen in a handful of positions would be fitted to their noise: held, with a
     * warning naming how many of each family. */
    int rare = 0, nfree = 0;
    char rare_list[512] = "";
    size_t rare_used = 0;
    for (int i = 0; i < nf; i++) {
        if (!fixed[i] && d.nonzero[i] < min_rows) {
            fixed[i] = true;
            held_rare[i] = true;
            rare++;
        }
        nfree += !fixed[i];
    }
    if (rare > 0) {
        for (int i = 0; i < nf; i++) {
            if (!held_rare[i])
                continue;
            const char *fam = eval_feature_family(e, i);
            bool first = true;
            for (int j = 0; j < i && first; j++)
                first = !(held_rare[j] && !strcmp(eval_feature_family(e, j), fam));
            if (!first)
                continue;
            int count = 0;
            for (int j = i; j < nf; j++)
                count += held_rare[j] && !strcmp(eval_feature_family(e, j), fam);
            int w = snprintf(rare_list + rare_used, sizeof rare_list - rare_used, "%s%s %d",
                             rare_used ? ", " : "", fam, count);
            if (w > 0 && (size_t)w < sizeof rare_list - rare_used)
                rare_used += (size_t)w;
        }
        fprintf(stderr, "xqlab tune: warning: %d feature(s) nonzero in fewer than %llu training "
                "positions are held at their starting weights (%s); more games fit them "
                "(--min-rows sets the threshold)\n", rare, (unsigned long long)min_rows, rare_list);
    }
    if (nfree > 0 && d.ntrain < 10 * (uint64_t)nfree) {
        cli_error(EXIT_FAILURE_RUN, "tune", "%llu training positions for %d free features (%.1f "
                  "per feature): too few to fit them (at least 10 per feature); play more games, "
                  "or fit fewer features (--drop pst,late)", (unsigned long long)d.ntrain, nfree,
                  (double)d.ntrain / nfree);
        goto cleanup;
    }
    o.fixed = fixed;
    for (int i = 0; i < nf; i++)
        l2_feature[i] = !strcmp(eval_feature_family(e, i), "pst") ? l2_pst : o.l2;
    o.l2_feature = l2_feature;
    w0 = malloc((size_t)nf * sizeof *w0);
    values = malloc(MAX_VALUES * sizeof *values);
    if (!w0 || !values) {
        cli_error(EXIT_FAILURE_RUN, "tune", "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < nf; i++)
        w0[i] = eval_weight(e, i);
    if (tune_fit(&d, &o, w0, &r, &err) != 0) {
        status = cli_report("tune", &err);
        goto cleanup;
    }
    double t2 = cli_now();
    if (!(r.w[unit] > 0)) {
        cli_error(EXIT_FAILURE_RUN, "tune", "the fitted %s weight is %g: no unit for piece values "
                  "(too little data?)", eval_feature_name(e, unit), r.w[unit]);
        goto cleanup;
    }
    int nvalues = tune_piece_values(e, &r, unit, values, MAX_VALUES);
    Report rep = {
        .v = v, .e = e, .d = &d, .r = &r, .o = &o, .w0 = w0, .files = files, .nfiles = nfiles,
        .unit = eval_feature_name(e, unit) + strlen("material."), .values = values,
        .nvalues = nvalues, .weights_out = out, .seconds_load = t1 - t0, .seconds_fit = t2 - t1,
        .held_rare = held_rare, .l2_pst = l2_pst, .min_rows = min_rows,
    };
    if (write_weights(&rep, e, argc, argv, start, &weights_file) != EXIT_OK)
        goto cleanup;
    FILE *jf = cli_output_fopen(&values_file);
    if (!jf)
        goto cleanup;
    write_json(jf, &rep);
    if (cli_output_commit(&values_file) != EXIT_OK)
        goto cleanup;
    if (json)
        write_json(stdout, &rep);
    else
        print_tables(&rep);
    warn_uncertain(&rep);
    status = EXIT_OK;
cleanup:
    cli_output_release(&values_file);
    cli_output_release(&weights_file);
    free(w0);
    free(values);
    tune_result_free(&r);
    tune_data_free(&d);
    eval_free(e);
    variant_free(v);
    return status;
}
