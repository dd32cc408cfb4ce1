/* common.c - option parsing, variant lookup and error reporting for the subcommands. */
#include "common.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *cli_config_dir(void)
{
    const char *env = getenv("XQLAB_CONFIG_DIR");
    return env && *env ? env : XQLAB_CONFIG_DIR;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *cli_fairy_variant_file(const char *name, char *buf, size_t size)
{
    if (!strcmp(name, "xiangqi"))
        return NULL;
    snprintf(buf, size, "%s/fairy/%s.ini", cli_config_dir(), name);
    return access(buf, R_OK) == 0 ? buf : NULL;
}

const char *cli_command_line(int argc, char **argv, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used < size - 1; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "xqlab ", argv[i]);
    return buf;
}

const char *cli_config_path(const char *folder, const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s/%s.ini", cli_config_dir(), folder, name);
    return file_exists(buf) ? buf : NULL;
}

int cli_error(int code, const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "xqlab %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

int cli_report(const char *cmd, const XqError *err)
{
    char buf[1024];
    xq_error_format(err, buf, sizeof buf);
    return cli_error(EXIT_FAILURE_RUN, cmd, "%s", buf);
}

Variant *cli_load_variant(const char *arg)
{
    char path[1024];
    const char *file = arg;
    bool looks_like_path = strchr(arg, '/') || strstr(arg, ".ini");
    if (!looks_like_path) {
        file = cli_config_path("variants", arg, path, sizeof path);
        if (!file) {
            fprintf(stderr, "xqlab: unknown variant '%s' (no %s/variants/%s.ini; "
                    "'xqlab variants' lists the rule sets)\n", arg, cli_config_dir(), arg);
            return NULL;
        }
    }
    XqError err;
    Variant *v = variant_load_file(file, &err);
    if (!v) {
        char buf[1024];
        xq_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "xqlab: %s\n", buf);
    }
    return v;
}

int cli_parse_int(const char *cmd, const char *option, const char *text, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long x = text ? strtol(text, &end, 10) : 0;
    if (!text || !*text || *end || errno || x < min || x > max) {
        cli_error(EXIT_USAGE, cmd, "%s expects a whole number from %ld to %ld, not '%s'", option,
                  min, max, text ? text : "");
        return -1;
    }
    *out = x;
    return 0;
}

int cli_parse_u64(const char *cmd, const char *option, const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = text && *text != '-' ? strtoull(text, &end, 0) : 0;
    if (!text || !*text || *text == '-' || *end || errno) {
        cli_error(EXIT_USAGE, cmd, "%s expects a non-negative whole number, not '%s'", option,
                  text ? text : "");
        return -1;
    }
    *out = (uint64_t)x;
    return 0;
}

int cli_parse_double(const char *cmd, const char *option, const char *text, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double x = text ? strtod(text, &end) : 0;
    if (!text || !*text || *end || errno || !(x >= min && x <= max)) {
        cli_error(EXIT_USAGE, cmd, "%s expects a number from %g to %g, not '%s'", option, min, max,
                  text ? text : "");
        return -1;
    }
    *out = x;
    return 0;
}

bool cli_is_help(const char *arg)
{
    return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/* A signal handler can only reach static storage: the one flag of the process. */
static atomic_bool stop_requested;

static void on_stop_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, true);
}

/* sigaction, not signal(): with _POSIX_C_SOURCE and no extensions glibc's signal() has System V
 * semantics (the handler is reset to the default on delivery and interrupted calls fail with
 * EINTR). SA_RESTART: a call the signal lands in (opening an input, writing the summary to a full
 * pipe) goes on. A second Ctrl-C ends the process the usual way (SA_RESETHAND). A second SIGTERM
 * or SIGUSR1 does not: a batch system sends them more than once (Slurm's scancel signals every
 * process of the job and the batch script forwards its own), and the games in flight must still
 * be saved. */
static void stop_signal_install(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | (sig == SIGINT ? SA_RESETHAND : 0);
    sigaction(sig, &sa, NULL);
}

const atomic_bool *cli_stop_flag(void)
{
    return &stop_requested;
}

/* Set by cli_stop_signals_hold: the handlers stay until the process ends. */
static bool stop_held;

void cli_stop_signals_catch(void)
{
    /* The flag is not cleared: a signal that came before (while a held command loaded its
     * files) still stops the run. */
    stop_signal_install(SIGINT);
    stop_signal_install(SIGTERM);
    stop_signal_install(SIGUSR1);
}

void cli_stop_signals_release(void)
{
    if (stop_held)
        return;
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGUSR1, SIG_DFL);
}

void cli_stop_signals_hold(void)
{
    stop_held = true;
    cli_stop_signals_catch();
}

int cli_stop_status(const char *cmd, int status)
{
    /* A summary blocked on a full pipe is still being written here: a signal meanwhile sets the
     * flag (write restarts after the handler) and is counted below. */
    fflush(stdout);
    if (status == EXIT_OK && atomic_load(&stop_requested)) {
        fprintf(stderr, "xqlab %s: stopped by a signal after the work was done (its results above are "
                "complete): exit status 130\n", cmd);
        return 130;
    }
    return status;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
