/* step.c - a training step as a child process (see step.h). */
#include "step.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

int train_step_run(const char *exe, char *const argv[], const char *stdout_path, const atomic_bool *stop,
                   StepResult *result)
{
    memset(result, 0, sizeof *result);
    result->end = STEP_FAILED;
    int out = -1;
    if (stdout_path) {
        out = open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (out < 0) {
            snprintf(result->how, sizeof result->how, "cannot create %s: %s", stdout_path, strerror(errno));
            return -1;
        }
    }
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    double t0 = now_seconds();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(result->how, sizeof result->how, "cannot start a process: %s", strerror(errno));
        if (out >= 0)
            close(out);
        return -1;
    }
    if (pid == 0) {
        /* The child: dies with the run, even by SIGKILL. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
            _exit(127);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGUSR1, SIG_DFL);
        if (out >= 0 && dup2(out, STDOUT_FILENO) < 0)
            _exit(127);
        execv(exe, argv);
        fprintf(stderr, "xqlab train: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    if (out >= 0)
        close(out);
    bool forwarded = false;
    int status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            snprintf(result->how, sizeof result->how, "lost the process: %s", strerror(errno));
            return -1;
        }
        if (stop && !forwarded && atomic_load(stop)) {
            kill(pid, SIGTERM);
            forwarded = true;
        }
        sleep_ms(50);
    }
    result->seconds = now_seconds() - t0;
    bool stopped = stop && atomic_load(stop);
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        snprintf(result->how, sizeof result->how, "exit status %d", code);
        result->end = code == 0 && !stopped ? STEP_OK : code == 130 || stopped ? STEP_INTERRUPTED : STEP_FAILED;
        if (code == 127)
            snprintf(result->how, sizeof result->how, "exit status 127 (%s could not be run)", exe);
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        snprintf(result->how, sizeof result->how, "killed by signal %d (%s)", sig, strsignal(sig));
        result->end = sig == SIGINT || sig == SIGTERM || stopped ? STEP_INTERRUPTED : STEP_FAILED;
    }
    return 0;
}

/* True if a shell would take the word as it is. */
static bool plain_word(const char *w)
{
    if (!*w)
        return false;
    for (const char *c = w; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:+@%", *c))
            return false;
    return true;
}

/* Appends n bytes of s, cut at the buffer's end (always NUL-terminated). */
static void put(char *buf, size_t size, size_t *used, const char *s, size_t n)
{
    if (*used + n >= size)
        n = size - 1 - *used;
    memcpy(buf + *used, s, n);
    *used += n;
    buf[*used] = '\0';
}

void train_step_command_line(char *const argv[], char *buf, size_t size)
{
    size_t used = 0;
    if (!size)
        return;
    buf[0] = '\0';
    for (int i = 0; argv[i]; i++) {
        if (i)
            put(buf, size, &used, " ", 1);
        if (plain_word(argv[i])) {
            put(buf, size, &used, argv[i], strlen(argv[i]));
            continue;
        }
        /* Single quotes keep everything; a quote itself is written as '\''. */
        put(buf, size, &used, "'", 1);
        for (const char *c = argv[i]; *c; c++)
            put(buf, size, &used, *c == '\'' ? "'\\''" : c, *c == '\'' ? 4 : 1);
        put(buf, size, &used, "'", 1);
    }
}
