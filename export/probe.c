/* probe.c - a check of a file in a child process (probe.h). */
#include "probe.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void probe_fail(XqError *err, const char *path, const char *fmt, int n)
{
    snprintf(err->file, sizeof err->file, "%s", path);
    err->line = 0;
    snprintf(err->message, sizeof err->message, fmt, n);
}

/* What the child sends back: whether the check passed, and its error if not. */
typedef struct ProbeReport {
    char passed;
    XqError err;
} ProbeReport;

/* Reads a whole report from the pipe (the child wrote it in one write, within PIPE_BUF). */
static bool read_report(int fd, ProbeReport *r)
{
    size_t got = 0;
    while (got < sizeof *r) {
        ssize_t n = read(fd, (char *)r + got, sizeof *r - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    return true;
}

int probe_file(const char *path, int (*check)(const char *path, XqError *err), XqError *err)
{
    /* The child reports through a pipe: a child that ends without a report died inside the
     * check, whatever its exit status (a sanitizer's report ends it with exit code 1). */
    _Static_assert(sizeof(ProbeReport) <= PIPE_BUF, "one atomic write");
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    fflush(NULL); /* nothing buffered is written twice */
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    if (pid == 0) {
        /* The child shares the parent's open files, output locks included (cli/output.h): it
         * must not outlive a killed parent and keep a lock the next run would find held. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(0);
        close(fds[0]);
        ProbeReport report;
        memset(&report, 0, sizeof report);
        report.passed = check(path, &report.err) == 0;
        ssize_t unused = write(fds[1], &report, sizeof report);
        (void)unused;
        /* _exit: no atexit handlers, so nothing of the parent's (its open HDF5 files, its
         * stdio buffers) is flushed or closed from here. */
        _exit(0);
    }
    close(fds[1]);
    /* Wait for the report, or for the end of file a dying child leaves, at most the timeout. */
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int status = 0, rc = 0;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        double left = PROBE_TIMEOUT_SECONDS - (double)(now.tv_sec - start.tv_sec) -
                      (double)(now.tv_nsec - start.tv_nsec) * 1e-9;
        struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
        int ready = left > 0 ? poll(&pfd, 1, (int)(left * 1000) + 1) : 0;
        if (ready > 0)
            break;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            break; /* cannot wait on the pipe: the read below decides */
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        probe_fail(err, path, "damaged: the HDF5 library did not finish reading it in %d s; "
                   "the file cannot be read", PROBE_TIMEOUT_SECONDS);
        rc = -1;
        goto done;
    }
    ProbeReport report;
    bool reported = read_report(fds[0], &report);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (reported) {
        if (!report.passed) {
            *err = report.err;
            rc = -1;
        }
    } else {
        if (WIFSIGNALED(status))
            probe_fail(err, path, "damaged: the HDF5 library crashed reading it (signal %d); the "
                       "file cannot be read", WTERMSIG(status));
        else
            probe_fail(err, path, "damaged: the HDF5 library crashed reading it (exit status %d); "
                       "the file cannot be read", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        rc = -1;
    }
done:
    close(fds[0]);
    return rc;
}
