/* output.c - claiming, writing and committing the output files of every command (output.h). */
#define _DEFAULT_SOURCE /* flock(2): BSD and Linux, not POSIX */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

static int fail(const CliOutput *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "xqlab %s: ", o->cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_FAILURE_RUN;
}

static bool same_inode(const char *a, const struct stat *sb)
{
    struct stat sa;
    return stat(a, &sa) == 0 && sa.st_dev == sb->st_dev && sa.st_ino == sb->st_ino;
}

/* The input (if any) that is PATH, PATH.tmp or PATH.lock: by name, or by device and inode (a
 * hard link or another spelling of the same file). */
static const char *input_among(const CliOutput *o, const char *const *inputs, int ninputs)
{
    const char *mine[3] = {o->path, o->tmp, o->lock};
    for (int k = 0; k < 3; k++) {
        struct stat st;
        bool have = stat(mine[k], &st) == 0;
        for (int i = 0; i < ninputs; i++)
            if (inputs[i] && (!strcmp(inputs[i], mine[k]) || (have && same_inode(inputs[i], &st))))
                return inputs[i];
    }
    return NULL;
}

/* Who holds a lock: the line its holder wrote into PATH.lock ("PID HOST xqlab CMD"). */
typedef struct Holder {
    char info[512];
    long pid;                  /* 0 if unknown */
    char host[256];
    int rest;                  /* offset of "xqlab CMD" in info */
    bool here;                 /* on this host */
} Holder;

static void read_holder(int fd, Holder *h)
{
    memset(h, 0, sizeof *h);
    ssize_t n = pread(fd, h->info, sizeof h->info - 1, 0);
    h->info[n > 0 ? n : 0] = '\0';
    char *nl = strchr(h->info, '\n');
    if (nl)
        *nl = '\0';
    if (sscanf(h->info, "%ld %255s %n", &h->pid, h->host, &h->rest) < 2)
        h->pid = 0;
    char self[256] = "";
    if (gethostname(self, sizeof self) != 0)
        self[0] = '\0';
    self[sizeof self - 1] = '\0';
    h->here = !strcmp(h->host, self);
}

/* A holder that is gone while its lock is still held: a child it forked (the dataset probe,
 * export/probe.c) shares the lock and is being killed with it. Worth waiting a moment for. */
static bool holder_dying(const Holder *h)
{
    return h->pid > 0 && h->here && h->pid != (long)getpid() && kill((pid_t)h->pid, 0) != 0 && errno == ESRCH;
}

/* Says who holds the lock and refuses. */
static int refuse_busy(CliOutput *o, const Holder *h)
{
    long pid = h->pid;
    const char *host = h->host, *info = h->info;
    int used = h->rest;
    if (pid == (long)getpid() && h->here)
        return fail(o, "%s: is named twice as an output of this command (%s): give each output its own file",
                    o->path, o->option);
    if (pid > 0)
        return fail(o, "%s: locked by pid %ld on %s (%s, lock file %s): another process is writing it (its file "
                    "%s); nothing was touched: wait for it to finish or choose another %s", o->path, pid, host,
                    info + used, o->lock, o->tmp, o->option);
    return fail(o, "%s: another process holds its lock %s (writing %s): nothing was touched; wait for it to "
                "finish or choose another %s", o->path, o->lock, o->tmp, o->option);
}

/* Takes the lock PATH.lock: an exclusive flock, held until cli_output_release (the kernel drops
 * it if the process dies, so a killed run never leaves a stale lock). The file may be removed
 * and created again by another process between our open and our flock: the lock counts only if
 * the path still names the file we locked. */
static int take_lock(CliOutput *o)
{
    int dying_waits = 0;
    for (int attempt = 0; attempt < 16; attempt++) {
        int fd = open(o->lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) {
            if (errno == ELOOP)
                return fail(o, "%s: is a symbolic link: xqlab never writes through one (remove it)", o->lock);
            return fail(o, "%s: cannot create files there (its lock file %s): %s", o->path, o->lock,
                        strerror(errno));
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            if (e == EWOULDBLOCK) {
                Holder h;
                read_holder(fd, &h);
                /* The holder writes who it is right after it takes the lock: a refusal that
                 * comes between the two waits a moment for the name (a holder that cannot
                 * write it, on a full disk, is refused without it after 0.2 s). */
                for (int wait = 0; wait < 20 && h.pid == 0; wait++) {
                    struct timespec pause = {0, 10 * 1000 * 1000};
                    nanosleep(&pause, NULL);
                    read_holder(fd, &h);
                }
                close(fd);
                if (holder_dying(&h) && dying_waits++ < 100) {
                    struct timespec pause = {0, 50 * 1000 * 1000};
                    nanosleep(&pause, NULL);
                    attempt--;
                    continue;
                }
                return refuse_busy(o, &h);
            }
            close(fd);
            const char *env = getenv("HDF5_USE_FILE_LOCKING");
            if (env && (!strcmp(env, "FALSE") || !strcmp(env, "0"))) {
                fprintf(stderr, "xqlab: warning: %s: cannot lock (%s); writing without the lock as "
                        "HDF5_USE_FILE_LOCKING=%s asks\n", o->lock, strerror(e), env);
                unlink(o->lock);
                return EXIT_OK;
            }
            return fail(o, "%s: cannot lock: %s (a file system without flock; set HDF5_USE_FILE_LOCKING=FALSE "
                        "to write without locks, as HDF5 itself needs there)", o->lock, strerror(e));
        }
        struct stat held, now;
        if (fstat(fd, &held) == 0 && lstat(o->lock, &now) == 0 && held.st_dev == now.st_dev &&
            held.st_ino == now.st_ino) {
            char host[256] = "unknown", info[600];
            if (gethostname(host, sizeof host) != 0)
                snprintf(host, sizeof host, "unknown");
            host[sizeof host - 1] = '\0';
            int n = snprintf(info, sizeof info, "%ld %s xqlab %s\n", (long)getpid(), host, o->cmd);
            /* Who holds it is information for the message of a refused second process; a full
             * disk that keeps it from being written does not weaken the lock. */
            if (ftruncate(fd, 0) == 0 && pwrite(fd, info, (size_t)n, 0) < 0)
                errno = 0;
            o->lock_fd = fd;
            return EXIT_OK;
        }
        close(fd);
    }
    return fail(o, "%s: the lock file keeps being replaced by another process: nothing was touched", o->lock);
}

int cli_output_claim(CliOutput *o, const char *cmd, const char *option, const char *path, unsigned flags,
                     const char *const *inputs, int ninputs)
{
    memset(o, 0, sizeof *o);
    o->lock_fd = -1;
    o->cmd = cmd;
    o->option = option;
    o->flags = flags;
    if (!path || !*path)
        return fail(o, "%s needs a file name", option);
    if (strlen(path) + 6 > sizeof o->path)
        return fail(o, "%s: the file name is too long", path);
    snprintf(o->path, sizeof o->path, "%s", path);
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp", path);
    snprintf(o->lock, sizeof o->lock, "%s.lock", path);

    struct stat st;
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode))
            return fail(o, "%s: is a symbolic link: xqlab never writes through one (give the file it points "
                        "to, or another %s)", path, option);
        if (S_ISDIR(st.st_mode))
            return fail(o, "%s: is a folder: %s names the file to write", path, option);
        if (!S_ISREG(st.st_mode))
            return fail(o, "%s: is not a regular file (a device, pipe or socket): xqlab replaces only regular files",
                        path);
        o->exists = true;
    } else if (errno != ENOENT) {
        return fail(o, "%s: cannot write there: %s", path, strerror(errno));
    }
    const char *input = input_among(o, inputs, ninputs);
    if (input)
        return fail(o, "%s: is an input of this command (%s%s): write the output to another file (nothing was "
                    "written)", path, strcmp(input, path) ? "given as " : "given", strcmp(input, path) ? input : "");
    if (o->exists && !(flags & (CLI_OUTPUT_FORCE | CLI_OUTPUT_EXISTING)))
        return fail(o, "%s: already exists: choose another %s, or add --force to replace it (nothing was "
                    "overwritten)", path, option);
    int rc = take_lock(o);
    if (rc != EXIT_OK)
        return rc;
    if (lstat(o->tmp, &st) == 0) {
        char journal[PATH_MAX + 16];
        snprintf(journal, sizeof journal, "%s.games", o->tmp);
        if (S_ISLNK(st.st_mode) && (flags & CLI_OUTPUT_KEEP_TMP)) {
            cli_output_release(o);
            return fail(o, "%s: is a symbolic link: xqlab never writes through one (remove it)", o->tmp);
        }
        if (!(flags & CLI_OUTPUT_KEEP_TMP)) {
            if (access(journal, F_OK) == 0 && !(flags & CLI_OUTPUT_FORCE)) {
                cli_output_release(o);
                return fail(o, "%s: holds an interrupted self-play run (journal %s): finish it with selfplay "
                            "--resume, or add --force to discard it", o->tmp, journal);
            }
            if (access(journal, F_OK) == 0) {
                fprintf(stderr, "xqlab %s: warning: %s: discarding the interrupted run it holds (--force)\n", cmd,
                        o->tmp);
                unlink(journal);
            }
            /* Left by a killed run of an earlier command (we hold the lock): never data. */
            if (unlink(o->tmp) != 0 && errno != ENOENT) {
                int e = errno;
                cli_output_release(o);
                return fail(o, "%s: cannot remove this leftover of an interrupted run: %s", o->tmp, strerror(e));
            }
        }
    }
    o->claimed = true;
    return EXIT_OK;
}

FILE *cli_output_fopen(CliOutput *o)
{
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        fail(o, "%s: cannot create: %s", o->tmp, strerror(errno));
        return NULL;
    }
    o->file = fdopen(fd, "w");
    if (!o->file) {
        fail(o, "%s: cannot create: %s", o->tmp, strerror(errno));
        close(fd);
        unlink(o->tmp);
    }
    return o->file;
}

static void sync_folder_of(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

int cli_output_commit(CliOutput *o)
{
    int bad = 0, e = 0;
    if (o->file) {
        FILE *f = o->file;
        o->file = NULL;
        if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
            bad = 1;
            e = errno ? errno : EIO;
        }
        if (fclose(f) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
    } else {
        int fd = open(o->tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 || fsync(fd) != 0) {
            bad = 1;
            e = errno;
        }
        if (fd >= 0)
            close(fd);
    }
    if (bad) {
        unlink(o->tmp);
        return fail(o, "%s: cannot write: %s (%s was not changed)", o->tmp, strerror(e), o->path);
    }
    if (rename(o->tmp, o->path) != 0) {
        e = errno;
        unlink(o->tmp);
        return fail(o, "%s: cannot rename to %s: %s", o->tmp, o->path, strerror(e));
    }
    o->committed = true;
    sync_folder_of(o->path);
    return EXIT_OK;
}

void cli_output_release(CliOutput *o)
{
    if (o->file) {
        fclose(o->file);
        o->file = NULL;
    }
    if (o->claimed && !o->committed && !(o->flags & CLI_OUTPUT_KEEP_TMP))
        unlink(o->tmp);
    o->claimed = false;
    if (o->lock_fd >= 0) {
        /* Removed while still held: a process that opened it meanwhile finds it gone after its
         * flock and takes a new one (take_lock). */
        unlink(o->lock);
        close(o->lock_fd);
        o->lock_fd = -1;
    }
}

int cli_output_folder(const char *cmd, const char *option, const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) == 0) {
        if (S_ISLNK(st.st_mode))
            return cli_error(EXIT_FAILURE_RUN, cmd, "%s: is a symbolic link: xqlab never writes through one "
                             "(give the folder it points to)", dir);
        if (!S_ISDIR(st.st_mode))
            return cli_error(EXIT_FAILURE_RUN, cmd, "%s: is not a folder: %s names a folder", dir, option);
        return EXIT_OK;
    }
    if (errno != ENOENT || mkdir(dir, 0777) != 0)
        return cli_error(EXIT_FAILURE_RUN, cmd, "%s: cannot create the folder: %s", dir, strerror(errno));
    return EXIT_OK;
}
