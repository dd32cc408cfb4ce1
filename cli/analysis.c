/* analysis.c - output formats, shard opening, JSON text and the plot script runner shared by the
 * analysis commands. */
#include "analysis.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "output.h"

#ifndef XQLAB_SCRIPT_DIR
#define XQLAB_SCRIPT_DIR "scripts/analysis"
#endif

int analysis_open(const char *cmd, ShardSet *set, char **paths, int count)
{
    XqError err;
    if (shards_open(set, (const char *const *)paths, count, &err) < 0)
        return cli_report(cmd, &err);
    return EXIT_OK;
}

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void json_number(FILE *out, double x)
{
    if (isfinite(x))
        fprintf(out, "%.6g", x);
    else
        fputs("null", out);
}

void json_interval(FILE *out, const ScoreInterval *s)
{
    fputc('[', out);
    json_number(out, s->lo);
    fputs(", ", out);
    json_number(out, s->hi);
    fputc(']', out);
}

void analysis_json_results(FILE *out, const Wdl *first, const HiddenTally *hidden, const ResultSummary *r)
{
    fprintf(out, "\"red_wins\": %" PRIu64 ", \"draws\": %" PRIu64 ", \"black_wins\": %" PRIu64 ", \"red_score\": ",
            first->wins, first->draws, first->losses);
    json_number(out, r->first.mean);
    fprintf(out, ", \"red_score_ci95\": ");
    json_interval(out, &r->first);
    fprintf(out, ", \"first_mover_advantage_significant\": %s, \"draw_rate\": ", r->first_significant ? "true" : "false");
    json_number(out, r->games ? r->draws.mean : 0);
    fprintf(out, ", \"draw_rate_ci95\": ");
    json_interval(out, &r->draws);
    ScoreInterval wins, losses;
    interval_binomial(first->wins, r->games, STATS_Z95, &wins);
    interval_binomial(first->losses, r->games, STATS_Z95, &losses);
    fprintf(out, ", \"win_rate_ci95\": ");
    json_interval(out, &wins);
    fprintf(out, ", \"loss_rate_ci95\": ");
    json_interval(out, &losses);
    fprintf(out, ", \"resolution\": ");
    json_number(out, r->resolution);
    fprintf(out, ", \"games_for_half_width\": {\"%g\": ", RESULTS_PRECISION_1);
    json_number(out, r->games_for[0]);
    fprintf(out, ", \"%g\": ", RESULTS_PRECISION_2);
    json_number(out, r->games_for[1]);
    fputc('}', out);
    if (!r->hidden || !hidden)
        return;
    const Wdl *c = &hidden->red_colour;
    fprintf(out, ", \"hidden\": {\"games\": %" PRIu64 ", \"by_colour\": {\"red_wins\": %" PRIu64 ", \"draws\": %" PRIu64
            ", \"black_wins\": %" PRIu64 ", \"unassigned\": %" PRIu64 ", \"red_score\": ",
            hidden->games, c->wins, c->draws, c->losses, hidden->colour_unassigned);
    json_number(out, r->red_colour.mean);
    fprintf(out, ", \"red_score_ci95\": ");
    json_interval(out, &r->red_colour);
    fprintf(out, ", \"significant\": %s}, \"paired_deals\": {\"pairs\": %" PRIu64 ", \"pentanomial\": [",
            r->colour_significant ? "true" : "false", r->pairs);
    for (int i = 0; i < 5; i++)
        fprintf(out, "%s%" PRIu64, i ? ", " : "", hidden->pentanomial[i]);
    fprintf(out, "], \"first_mover_score\": ");
    json_number(out, r->pair.mean);
    fprintf(out, ", \"first_mover_score_ci95\": ");
    json_interval(out, &r->pair);
    fprintf(out, ", \"significant\": %s, \"resolution\": ", r->pair_significant ? "true" : "false");
    json_number(out, r->pair_resolution);
    fprintf(out, ", \"pairs_for_half_width\": {\"%g\": ", RESULTS_PRECISION_1);
    json_number(out, r->pairs_for[0]);
    fprintf(out, ", \"%g\": ", RESULTS_PRECISION_2);
    json_number(out, r->pairs_for[1]);
    fprintf(out, "}, \"seat_swept\": %" PRIu64 ", \"deal_half_swept\": %" PRIu64 "}}", hidden->seat_swept,
            hidden->hand_swept);
}

int analysis_length_cap(const char *params_text)
{
    for (const char *p = params_text; p && *p;) {
        int cap;
        if (sscanf(p, " max_plies = %d", &cap) == 1)
            return cap;
        const char *end = strchr(p, '\n');
        p = end ? end + 1 : p + strlen(p);
    }
    return 0;
}

void md_cell(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '|')
            fputs("\\|", out);
        else if (*p == '\n')
            fputc(' ', out);
        else
            fputc(*p, out);
    }
}

const char *analysis_percent(double x, char *buf, size_t size)
{
    snprintf(buf, size, "%.1f%%", 100 * x);
    return buf;
}

bool analysis_output_option(const char *cmd, int argc, char **argv, int *i, OutputFormat *format,
                            PlotOptions *plot, bool *bad)
{
    const char *a = argv[*i];
    bool has = *i + 1 < argc;
    if (!strcmp(a, "--json")) {
        *format = FORMAT_JSON;
        return true;
    }
    if (!strcmp(a, "--markdown")) {
        *format = FORMAT_MARKDOWN;
        return true;
    }
    if (!strcmp(a, "--force")) {
        plot->force = true;
        return true;
    }
    if (!strcmp(a, "--plots")) {
        if (!has) {
            cli_error(EXIT_USAGE, cmd, "--plots needs a directory");
            *bad = true;
        } else {
            plot->dir = argv[++*i];
        }
        return true;
    }
    if (!strcmp(a, "--plot-size")) {
        int w = 0, h = 0;
        char tail = 0;
        if (!has || sscanf(argv[*i + 1], "%dx%d%c", &w, &h, &tail) != 2 || w < 200 || h < 150 || w > 20000 ||
            h > 20000) {
            cli_error(EXIT_USAGE, cmd, "--plot-size expects WIDTHxHEIGHT in pixels (200x150 to 20000x20000), not '%s'",
                      has ? argv[*i + 1] : "");
            *bad = true;
        } else {
            plot->width = w;
            plot->height = h;
        }
        *i += has;
        return true;
    }
    if (!strcmp(a, "--plot-dpi")) {
        long dpi;
        if (!has || cli_parse_int(cmd, "--plot-dpi", argv[*i + 1], 30, 1200, &dpi) < 0) {
            if (!has)
                cli_error(EXIT_USAGE, cmd, "--plot-dpi needs a number (30 to 1200)");
            *bad = true;
        } else {
            plot->dpi = (int)dpi;
        }
        *i += has;
        return true;
    }
    return false;
}

int analysis_plot_precheck(const char *cmd, const PlotOptions *plot, const char *const *names)
{
    if (!plot->dir || plot->force)
        return EXIT_OK;
    for (int i = 0; names[i]; i++) {
        char path[PATH_MAX + 256];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", plot->dir, names[i]);
        if (lstat(path, &st) == 0)
            return cli_error(EXIT_FAILURE_RUN, cmd, "%s: already exists: choose another --plots folder, or add "
                             "--force to replace it (nothing was written)", path);
    }
    return EXIT_OK;
}

void analysis_command_line(int argc, char **argv, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used < size - 1; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "xqlab ", argv[i]);
}

/* Removes the scratch folder of the plot script and whatever is left in it. */
static void remove_scratch(const char *scratch)
{
    DIR *d = opendir(scratch);
    if (d) {
        struct dirent *e;
        char path[PATH_MAX + 256];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", scratch, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(scratch);
}

/* Moves the files the script wrote into dir under the output rule: every one is claimed first,
 * so a refusal (an existing plot without --force, a link, another process) changes nothing. */
static int publish_plots(const char *cmd, const char *scratch, const char *dir, bool force)
{
    enum { MAX_PLOTS = 64 };
    char *names[MAX_PLOTS];
    int n = 0, status = EXIT_OK;
    DIR *d = opendir(scratch);
    if (!d)
        return cli_error(EXIT_FAILURE_RUN, cmd, "--plots: cannot read %s: %s", scratch, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d)) && status == EXIT_OK) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == MAX_PLOTS)
            status = cli_error(EXIT_FAILURE_RUN, cmd, "--plots: the script wrote more than %d files", MAX_PLOTS);
        else if (!(names[n++] = strdup(e->d_name)))
            status = cli_error(EXIT_FAILURE_RUN, cmd, "out of memory");
    }
    closedir(d);
    CliOutput *outs = status == EXIT_OK ? calloc((size_t)(n ? n : 1), sizeof *outs) : NULL;
    if (status == EXIT_OK && !outs)
        status = cli_error(EXIT_FAILURE_RUN, cmd, "out of memory");
    int claimed = 0;
    char path[PATH_MAX + 256], from[PATH_MAX + 256];
    for (int i = 0; i < n && status == EXIT_OK; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        status = cli_output_claim(&outs[i], cmd, "--plots", path, force ? CLI_OUTPUT_FORCE : 0, NULL, 0);
        if (status == EXIT_OK)
            claimed++;
    }
    for (int i = 0; i < n && status == EXIT_OK; i++) {
        snprintf(from, sizeof from, "%s/%s", scratch, names[i]);
        if (rename(from, outs[i].tmp) != 0)
            status = cli_error(EXIT_FAILURE_RUN, cmd, "--plots: cannot move %s to %s: %s", from, outs[i].tmp,
                               strerror(errno));
        else if ((status = cli_output_commit(&outs[i])) == EXIT_OK)
            fprintf(stderr, "plot: %s\n", outs[i].path);
    }
    for (int i = 0; i < claimed; i++)
        cli_output_release(&outs[i]);
    free(outs);
    for (int i = 0; i < n; i++)
        free(names[i]);
    return status;
}

int analysis_plot(const char *cmd, const char *json, size_t len, const PlotOptions *plot)
{
    const char *dir = plot->dir;
    bool force = plot->force;
    const char *python = getenv("XQLAB_PYTHON");
    if (!python || !*python)
        python = "/usr/bin/python3";
    const char *script_dir = getenv("XQLAB_SCRIPT_DIR");
    if (!script_dir || !*script_dir)
        script_dir = XQLAB_SCRIPT_DIR;
    char script[1024];
    snprintf(script, sizeof script, "%s/plot_analysis.py", script_dir);
    if (access(python, X_OK) != 0)
        return cli_error(EXIT_FAILURE_RUN, cmd, "--plots needs %s with matplotlib (Debian: apt-get install "
                         "python3-matplotlib; scripts/setup.sh installs it): %s", python, strerror(errno));
    if (access(script, R_OK) != 0)
        return cli_error(EXIT_FAILURE_RUN, cmd, "--plots: cannot read the plot script %s: %s (set "
                         "XQLAB_SCRIPT_DIR to the scripts/analysis folder)", script, strerror(errno));
    if (cli_output_folder(cmd, "--plots", dir) != EXIT_OK)
        return EXIT_FAILURE_RUN;
    char scratch[PATH_MAX];
    if ((size_t)snprintf(scratch, sizeof scratch, "%s/.xqlab-plots-XXXXXX", dir) >= sizeof scratch)
        return cli_error(EXIT_FAILURE_RUN, cmd, "--plots: the folder name %s is too long", dir);
    if (!mkdtemp(scratch))
        return cli_error(EXIT_FAILURE_RUN, cmd, "--plots: cannot create a scratch folder in %s: %s", dir,
                         strerror(errno));
    int fd[2];
    if (pipe(fd) != 0) {
        remove_scratch(scratch);
        return cli_error(EXIT_FAILURE_RUN, cmd, "--plots: pipe: %s", strerror(errno));
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        remove_scratch(scratch);
        return cli_error(EXIT_FAILURE_RUN, cmd, "--plots: fork: %s", strerror(errno));
    }
    if (pid == 0) {
        dup2(fd[0], STDIN_FILENO);
        close(fd[0]);
        close(fd[1]);
        /* The child never writes to our stdout: plots are files, messages go to stderr. */
        dup2(STDERR_FILENO, STDOUT_FILENO);
        char w[16], h[16], dpi[16];
        snprintf(w, sizeof w, "%d", plot->width);
        snprintf(h, sizeof h, "%d", plot->height);
        snprintf(dpi, sizeof dpi, "%d", plot->dpi);
        execl(python, python, script, scratch, "--size", w, h, "--dpi", dpi, (char *)NULL);
        fprintf(stderr, "xqlab %s: --plots: cannot run %s: %s\n", cmd, python, strerror(errno));
        _exit(127);
    }
    close(fd[0]);
    /* A plot script that dies early closes the pipe: ignore SIGPIPE and look at its status. */
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd[1], json + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    close(fd[1]);
    signal(SIGPIPE, old);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    int rc;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        rc = publish_plots(cmd, scratch, dir, force);
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
        rc = cli_error(EXIT_FAILURE_RUN, cmd, "--plots: %s has no matplotlib (Debian: apt-get install "
                       "python3-matplotlib; scripts/setup.sh installs it)", python);
    else
        rc = cli_error(EXIT_FAILURE_RUN, cmd, "--plots: %s %s failed (exit status %d)", python, script,
                       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    remove_scratch(scratch);
    return rc;
}
