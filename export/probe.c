/* probe.c - a check of a file in a child process (probe.h). */
#include "probe.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void probe_fail(XqError *err, const char *path, const char *fmt, int n)
{
    snprintf(err->file, sizeof err->file, "%s", path);
    err->line = 0;
    snprintf(err->message, sizeof err->message, fmt, n);
}

int probe_file(const char *path, int (*check)(const char *path), XqError *err)
{
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        /* _exit: no atexit handlers, so nothing of the parent's (its open HDF5 files, its
         * stdio buffers) is flushed or closed from here. */
        _exit(check(path) == 0 ? 0 : 1);
    }
    struct timespec pause = {0, 1000000}; /* 1 ms, doubling to 100 ms */
    double waited = 0;
    for (;;) {
        int status;
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid) {
            if (WIFSIGNALED(status)) {
                probe_fail(err, path, "damaged: the HDF5 library crashed reading it (signal %d); "
                           "the file cannot be read", WTERMSIG(status));
                return -1;
            }
            return 0;
        }
        if (got < 0 && errno != EINTR)
            return 0;
        if (waited >= PROBE_TIMEOUT_SECONDS) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            probe_fail(err, path, "damaged: the HDF5 library did not finish reading it in %d s; "
                       "the file cannot be read", PROBE_TIMEOUT_SECONDS);
            return -1;
        }
        nanosleep(&pause, NULL);
        waited += (double)pause.tv_nsec * 1e-9;
        if (pause.tv_nsec < 100000000)
            pause.tv_nsec *= 2;
    }
}
