/* subprocess.c - a child process spoken to in lines over pipes, with deadlines and CPU times. */
#include "subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Pipe creation, close-on-exec marking and fork happen under one lock: a child forked by another
 * thread between pipe() and fcntl() would inherit this child's pipe ends, and then this child's
 * death would not show as end of file while the other one lives. (pipe2 with O_CLOEXEC would do
 * it atomically but is outside POSIX 2008.) */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

static int fail(XqError *err, const char *command, const char *fmt, ...)
{
    snprintf(err->file, sizeof err->file, "%s", command);
    err->line = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

double subprocess_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cloexec(int fd)
{
    int flags = fcntl(fd, F_GETFD);
    return flags < 0 ? -1 : fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

int subprocess_start(Subprocess *p, const char *command, const char *stderr_path, XqError *err)
{
    memset(p, 0, sizeof *p);
    p->to_child = p->from_child = -1;
    size_t n = strlen(command) + 8;
    char *script = malloc(n);
    if (!script)
        return fail(err, command, "out of memory");
    snprintf(script, n, "exec %s", command);
    int in[2] = {-1, -1}, out[2] = {-1, -1}, errfd = -1;
    int rc = -1;
    pthread_mutex_lock(&spawn_lock);
    if (pipe(in) < 0 || pipe(out) < 0) {
        fail(err, command, "cannot create a pipe: %s", strerror(errno));
        goto done;
    }
    errfd = open(stderr_path ? stderr_path : "/dev/null", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (errfd < 0) {
        fail(err, stderr_path ? stderr_path : "/dev/null", "cannot open for the engine's standard error: %s",
             strerror(errno));
        goto done;
    }
    if (cloexec(in[0]) < 0 || cloexec(in[1]) < 0 || cloexec(out[0]) < 0 || cloexec(out[1]) < 0) {
        fail(err, command, "fcntl: %s", strerror(errno));
        goto done;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fail(err, command, "cannot start the engine: fork: %s", strerror(errno));
        goto done;
    }
    if (pid == 0) {
        /* Child: only async-signal-safe calls until exec. */
        setpgid(0, 0);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigaction(SIGPIPE, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(errfd, 2) < 0)
            _exit(127);
        execl("/bin/sh", "sh", "-c", script, (char *)NULL);
        _exit(127);
    }
    /* Also set in the parent, so the group exists before the first kill (no race with exec). */
    setpgid(pid, pid);
    p->pid = pid;
    p->to_child = in[1];
    p->from_child = out[0];
    in[1] = out[0] = -1;
    rc = 0;
done:
    pthread_mutex_unlock(&spawn_lock);
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0)
            close(in[i]);
        if (out[i] >= 0)
            close(out[i]);
    }
    if (errfd >= 0)
        close(errfd);
    free(script);
    return rc;
}

int subprocess_write_line(Subprocess *p, const char *line)
{
    if (p->to_child < 0)
        return -1;
    size_t n = strlen(line);
    char *msg = malloc(n + 1);
    if (!msg)
        return -1;
    memcpy(msg, line, n);
    msg[n] = '\n';
    size_t done = 0;
    int rc = 0;
    while (done < n + 1) {
        ssize_t w = write(p->to_child, msg + done, n + 1 - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        done += (size_t)w;
    }
    free(msg);
    return rc;
}

/* Moves a complete line from the buffer into `line`, if there is one. */
static bool take_line(Subprocess *p, char *line, size_t size)
{
    char *nl = memchr(p->buf, '\n', p->len);
    if (!nl) {
        /* A line longer than the buffer: hand out what there is as one (cut) line. */
        if (p->len < sizeof p->buf)
            return false;
        nl = p->buf + p->len - 1;
    }
    size_t n = (size_t)(nl - p->buf);
    size_t keep = n < size ? n : size - 1;
    memcpy(line, p->buf, keep);
    line[keep] = '\0';
    if (keep && line[keep - 1] == '\r')
        line[keep - 1] = '\0';
    size_t used = n + 1 <= p->len ? n + 1 : p->len;
    memmove(p->buf, p->buf + used, p->len - used);
    p->len -= used;
    return true;
}

SubprocessRead subprocess_read_line(Subprocess *p, char *line, size_t size, double deadline,
                                    const atomic_bool *stop)
{
    for (;;) {
        if (take_line(p, line, size))
            return SUBPROCESS_LINE;
        if (p->eof || p->from_child < 0) {
            /* A last line without its newline still counts. */
            if (p->len) {
                size_t keep = p->len < size ? p->len : size - 1;
                memcpy(line, p->buf, keep);
                line[keep] = '\0';
                p->len = 0;
                return SUBPROCESS_LINE;
            }
            return SUBPROCESS_EOF;
        }
        if (stop && atomic_load(stop))
            return SUBPROCESS_STOPPED;
        double left = deadline - subprocess_now();
        if (left <= 0)
            return SUBPROCESS_TIMEOUT;
        int ms = left > 0.1 ? 100 : (int)(left * 1000) + 1;
        struct pollfd pfd = {.fd = p->from_child, .events = POLLIN};
        int r = poll(&pfd, 1, ms);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            p->eof = true;
            continue;
        }
        if (r == 0)
            continue;
        ssize_t got = read(p->from_child, p->buf + p->len, sizeof p->buf - p->len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            p->eof = true;
        else
            p->len += (size_t)got;
    }
}

double subprocess_cpu_seconds(const Subprocess *p)
{
    if (p->pid <= 0 || p->reaped)
        return -1;
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)p->pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    /* The command name (field 2) is in parentheses and may hold spaces: fields count from the
     * last ')'. After it: state (3) ... utime (14) stime (15) cutime (16) cstime (17). */
    char *s = strrchr(text, ')');
    if (!s)
        return -1;
    unsigned long long ticks[4];
    char state;
    int got = sscanf(s + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", &state,
                     &ticks[0], &ticks[1], &ticks[2], &ticks[3]);
    if (got != 5)
        return -1;
    long hz = sysconf(_SC_CLK_TCK);
    if (hz <= 0)
        return -1;
    return (double)(ticks[0] + ticks[1] + ticks[2] + ticks[3]) / (double)hz;
}

static void describe(int status, char *desc, size_t size)
{
    if (!desc || !size)
        return;
    if (WIFEXITED(status))
        snprintf(desc, size, "exit status %d%s", WEXITSTATUS(status),
                 WEXITSTATUS(status) == 127 ? " (command not found or not executable)" : "");
    else if (WIFSIGNALED(status))
        snprintf(desc, size, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(desc, size, "ended (status %d)", status);
}

bool subprocess_exited(Subprocess *p, char *desc, size_t size)
{
    if (p->pid <= 0)
        return false;
    if (!p->reaped) {
        int status;
        pid_t r = waitpid(p->pid, &status, WNOHANG);
        if (r != p->pid)
            return false;
        p->reaped = true;
        p->wait_status = status;
    }
    describe(p->wait_status, desc, size);
    return true;
}

void subprocess_stop(Subprocess *p, double grace)
{
    if (p->to_child >= 0) {
        close(p->to_child);
        p->to_child = -1;
    }
    if (p->pid > 0 && !p->reaped) {
        double until = subprocess_now() + grace;
        while (!subprocess_exited(p, NULL, 0) && subprocess_now() < until) {
            struct timespec ts = {0, 5 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        if (!p->reaped) {
            /* The whole group, a wrapper's children too. Only while the leader is unreaped (a
             * zombie at worst), so its id cannot have been given to another process. */
            kill(-p->pid, SIGKILL);
            int status;
            while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
                ;
            p->reaped = true;
            p->wait_status = status;
        }
    }
    if (p->from_child >= 0) {
        close(p->from_child);
        p->from_child = -1;
    }
    p->len = 0;
}
