/* write_shim.c - an LD_PRELOAD library for the crash and disk-full tests: it counts the write
 * calls (write, pwrite, pwrite64, writev) a process makes to files whose path contains
 * XQ_SHIM_MATCH (default ".h5"), and
 *   XQ_SHIM_KILL_AT=K       kills the process with SIGKILL just before the K-th such write (1-based);
 *   XQ_SHIM_ENOSPC_AFTER=N  lets N bytes through, then fails every such write with ENOSPC (a write
 *                           crossing the limit is cut short, as a real full disk does);
 *   XQ_SHIM_COUNT=FILE      writes "WRITES BYTES" of the process to FILE at exit (only the process
 *                           that loaded the shim, not children it forked).
 * Only test code loads it; it is built without sanitizers. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long long kill_at = -1, enospc_after = -1;
static const char *match = ".h5", *count_file;
static long long nwrites, nbytes;
static pid_t owner;

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);

static void save_count(void)
{
    if (!count_file || getpid() != owner)
        return;
    char line[64];
    int n = snprintf(line, sizeof line, "%lld %lld\n", __atomic_load_n(&nwrites, __ATOMIC_SEQ_CST),
                     __atomic_load_n(&nbytes, __ATOMIC_SEQ_CST));
    int fd = open(count_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (real_write)
            (void)real_write(fd, line, (size_t)n);
        close(fd);
    }
}

__attribute__((constructor)) static void shim_init(void)
{
    real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    real_pwrite = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    real_pwrite64 = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
    real_writev = (ssize_t (*)(int, const struct iovec *, int))dlsym(RTLD_NEXT, "writev");
    const char *s;
    if ((s = getenv("XQ_SHIM_KILL_AT")) && *s)
        kill_at = atoll(s);
    if ((s = getenv("XQ_SHIM_ENOSPC_AFTER")) && *s)
        enospc_after = atoll(s);
    if ((s = getenv("XQ_SHIM_MATCH")) && *s)
        match = s;
    if ((s = getenv("XQ_SHIM_COUNT")) && *s)
        count_file = s;
    owner = getpid();
    atexit(save_count);
}

static int matches(int fd)
{
    char link[64], target[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0)
        return 0;
    target[n] = '\0';
    return strstr(target, match) != NULL;
}

/* Returns how many of `len` bytes may be written (0 with errno = ENOSPC: fail the call), or
 * (size_t)-1 for a write the shim does not watch. */
static size_t gate(int fd, size_t len)
{
    if (!matches(fd))
        return (size_t)-1;
    long long k = __atomic_add_fetch(&nwrites, 1, __ATOMIC_SEQ_CST);
    if (kill_at > 0 && k == kill_at) {
        save_count();
        kill(getpid(), SIGKILL);
    }
    if (enospc_after >= 0) {
        long long done = __atomic_load_n(&nbytes, __ATOMIC_SEQ_CST);
        if (done >= enospc_after && len > 0) {
            errno = ENOSPC;
            return 0;
        }
        if ((long long)len > enospc_after - done)
            len = (size_t)(enospc_after - done);
    }
    return len;
}

static void account(ssize_t n)
{
    if (n > 0)
        __atomic_add_fetch(&nbytes, (long long)n, __ATOMIC_SEQ_CST);
}

ssize_t write(int fd, const void *buf, size_t len)
{
    size_t allowed = gate(fd, len);
    if (allowed == (size_t)-1)
        return real_write(fd, buf, len);
    if (allowed == 0 && len > 0)
        return -1;
    ssize_t n = real_write(fd, buf, allowed);
    account(n);
    return n;
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
    size_t allowed = gate(fd, len);
    if (allowed == (size_t)-1)
        return real_pwrite(fd, buf, len, off);
    if (allowed == 0 && len > 0)
        return -1;
    ssize_t n = real_pwrite(fd, buf, allowed, off);
    account(n);
    return n;
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
    size_t allowed = gate(fd, len);
    if (allowed == (size_t)-1)
        return real_pwrite64(fd, buf, len, off);
    if (allowed == 0 && len > 0)
        return -1;
    ssize_t n = real_pwrite64(fd, buf, allowed, off);
    account(n);
    return n;
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    size_t len = 0;
    for (int i = 0; i < cnt; i++)
        len += iov[i].iov_len;
    size_t allowed = gate(fd, len);
    if (allowed == (size_t)-1)
        return real_writev(fd, iov, cnt);
    if (allowed == 0 && len > 0)
        return -1;
    if (allowed == len) {
        ssize_t n = real_writev(fd, iov, cnt);
        account(n);
        return n;
    }
    /* Cut short: write the allowed prefix piece by piece. */
    ssize_t total = 0;
    for (int i = 0; i < cnt && allowed > 0; i++) {
        size_t part = iov[i].iov_len < allowed ? iov[i].iov_len : allowed;
        ssize_t n = real_write(fd, iov[i].iov_base, part);
        if (n < 0)
            return total ? total : -1;
        total += n;
        allowed -= (size_t)n;
        if ((size_t)n < part)
            break;
    }
    account(total);
    return total;
}
