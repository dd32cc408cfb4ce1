/* safe_file.c - the HDF5 file driver of safe_file.h: a journal of every flush for PATH.tmp, and
 * failed writes hidden from libhdf5 (reported through H5SafeStatus) for every file xqlab writes.
 * Linux's fallocate (FALLOC_FL_KEEP_SIZE) reserves a flush's space before its log is written. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_file.h"
#include "schema.h"

/* ---- the redo log PATH.wal ----
 * header: magic, device and inode of the file it belongs to, the size the file is cut to first
 * (a truncation HDF5 made during the flush), its final size, the number of writes;
 * then per write: address, length, bytes; then the trailer: magic, bytes before the trailer,
 * checksum of them. The trailer is written last, so a log cut short by a kill never checks. */
static const char LOG_MAGIC[8] = {'X', 'Q', 'H', '5', 'W', 'A', 'L', '1'};
static const char LOG_END[8] = {'X', 'Q', 'H', '5', 'E', 'N', 'D', '1'};

typedef struct LogHeader {
    char magic[8];
    uint64_t dev, ino;
    uint64_t cut, size;
    uint64_t count;
} LogHeader;

typedef struct LogTrailer {
    char magic[8];
    uint64_t bytes;
    uint64_t check;
} LogTrailer;

typedef struct Checksum {
    uint64_t h;
} Checksum;

/* FNV-1a over bytes (a kill is caught by the length; this catches a log damaged otherwise). */
static void checksum_add(Checksum *c, const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t h = c->h;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    c->h = h;
}

enum { STAGE_BYTES = 1 << 20 };

typedef struct LogWriter {
    int fd;
    uint8_t *stage;
    size_t used;
    uint64_t bytes;
    Checksum sum;
} LogWriter;

int h5safe_write_all(int fd, const void *data, size_t n)
{
    const uint8_t *p = data;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (k == 0) {
            errno = ENOSPC;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int pwrite_all(int fd, const void *data, size_t n, uint64_t at)
{
    const uint8_t *p = data;
    while (n > 0) {
        ssize_t k = pwrite(fd, p, n, (off_t)at);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (k == 0) {
            errno = ENOSPC;
            return -1;
        }
        p += k;
        n -= (size_t)k;
        at += (uint64_t)k;
    }
    return 0;
}

/* Reads n bytes at `at`; bytes past the end of the file read as zeros. */
static int pread_all(int fd, void *data, size_t n, uint64_t at)
{
    uint8_t *p = data;
    while (n > 0) {
        ssize_t k = pread(fd, p, n, (off_t)at);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (k == 0) {
            memset(p, 0, n);
            return 0;
        }
        p += k;
        n -= (size_t)k;
        at += (uint64_t)k;
    }
    return 0;
}

static int log_put(LogWriter *l, const void *data, size_t n)
{
    checksum_add(&l->sum, data, n);
    l->bytes += n;
    if (l->used + n > STAGE_BYTES) {
        if (h5safe_write_all(l->fd, l->stage, l->used) < 0)
            return -1;
        l->used = 0;
        if (n > STAGE_BYTES)
            return h5safe_write_all(l->fd, data, n);
    }
    memcpy(l->stage + l->used, data, n);
    l->used += n;
    return 0;
}

int h5safe_log_path(const char *path, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s.wal", path);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* ---- the driver ---- */

typedef struct Write {
    uint64_t addr;
    size_t len;
    uint8_t *data;
} Write;

typedef struct SafeInfo {
    H5SafeMode mode;
    H5SafeStatus *status;
} SafeInfo;

typedef struct SafeFile {
    H5FD_t pub;                   /* first: HDF5 sees this part */
    int fd;
    SafeInfo info;
    char path[1100], log[1110];
    uint64_t dev, ino;
    uint64_t eoa;
    uint64_t disk_size;           /* the file's size on disk (committed) */
    uint64_t cut;                 /* disk bytes still valid: a truncation since the last commit */
    uint64_t eof;                 /* size HDF5 sees */
    Write *pending;               /* journal mode: writes since the last commit, in order;
                                   * direct mode after a failure: metadata kept in memory */
    size_t npending, cap;
    bool failed;
} SafeFile;

static hid_t safe_driver_id = -1;

static void record_failure(SafeFile *f, const char *what, int error)
{
    if (!f->failed && f->info.status && !f->info.status->error) {
        f->info.status->error = error ? error : EIO;
        snprintf(f->info.status->what, sizeof f->info.status->what, "%s", what);
    }
    f->failed = true;
}

static void push_error(const char *fmt, const char *path, int error)
{
    H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_CANTOPENFILE,
             fmt, path, strerror(error));
}

static void drop_pending(SafeFile *f)
{
    for (size_t i = 0; i < f->npending; i++)
        free(f->pending[i].data);
    f->npending = 0;
}

static int add_pending(SafeFile *f, uint64_t addr, size_t len, const void *data)
{
    /* HDF5 rewrites the same metadata block at the same place: replace it rather than keep both. */
    for (size_t i = f->npending; i-- > 0;) {
        Write *w = &f->pending[i];
        if (w->addr == addr && w->len == len) {
            memcpy(w->data, data, len);
            return 0;
        }
        if (w->addr < addr + len && addr < w->addr + w->len)
            break; /* an overlapping older write: order matters from here on */
    }
    if (f->npending == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        Write *p = realloc(f->pending, cap * sizeof *p);
        if (!p)
            return -1;
        f->pending = p;
        f->cap = cap;
    }
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return -1;
    memcpy(copy, data, len);
    f->pending[f->npending++] = (Write){addr, len, copy};
    return 0;
}

/* Writes the pending writes to the log, then to the file, then removes the log. */
static int commit(SafeFile *f)
{
    if (f->failed || (f->npending == 0 && f->cut == f->disk_size && f->eof == f->disk_size))
        return 0;
    /* Reserve the blocks the flush adds, so that copying a complete log into the file cannot run
     * out of space halfway (where supported; elsewhere that case is left to h5safe_recover). */
    if (f->eof > f->disk_size &&
        fallocate(f->fd, FALLOC_FL_KEEP_SIZE, (off_t)f->disk_size, (off_t)(f->eof - f->disk_size)) != 0 &&
        errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL) {
        record_failure(f, "space reservation", errno);
        return -1;
    }
    LogWriter l = {.fd = -1, .sum = {14695981039346656037ULL}};
    if (!(l.stage = malloc(STAGE_BYTES))) {
        record_failure(f, "journal buffer", ENOMEM);
        return -1;
    }
    l.fd = open(f->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (l.fd < 0) {
        record_failure(f, "journal create", errno);
        free(l.stage);
        return -1;
    }
    LogHeader h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, LOG_MAGIC, sizeof h.magic);
    h.dev = f->dev;
    h.ino = f->ino;
    h.cut = f->cut;
    h.size = f->eof;
    h.count = f->npending;
    int rc = log_put(&l, &h, sizeof h);
    for (size_t i = 0; rc == 0 && i < f->npending; i++) {
        uint64_t head[2] = {f->pending[i].addr, f->pending[i].len};
        rc = log_put(&l, head, sizeof head);
        if (rc == 0)
            rc = log_put(&l, f->pending[i].data, f->pending[i].len);
    }
    LogTrailer t;
    memset(&t, 0, sizeof t);
    memcpy(t.magic, LOG_END, sizeof t.magic);
    t.bytes = l.bytes;
    t.check = l.sum.h;
    if (rc == 0 && l.used > 0)
        rc = h5safe_write_all(l.fd, l.stage, l.used);
    if (rc == 0)
        rc = h5safe_write_all(l.fd, &t, sizeof t);
    int saved = errno;
    if (close(l.fd) != 0 && rc == 0) {
        saved = errno;
        rc = -1;
    }
    free(l.stage);
    if (rc < 0) {
        /* An incomplete log: the file is still the previous flush's. */
        unlink(f->log);
        record_failure(f, "journal write", saved);
        return -1;
    }
    /* From here a kill is finished by h5safe_recover from the log. */
    if (f->cut < f->disk_size && ftruncate(f->fd, (off_t)f->cut) != 0) {
        record_failure(f, "truncate", errno);
        return -1;
    }
    for (size_t i = 0; i < f->npending; i++)
        if (pwrite_all(f->fd, f->pending[i].data, f->pending[i].len, f->pending[i].addr) < 0) {
            record_failure(f, "write", errno);
            return -1;
        }
    struct stat st;
    if (fstat(f->fd, &st) != 0 || ((uint64_t)st.st_size != f->eof && ftruncate(f->fd, (off_t)f->eof) != 0)) {
        record_failure(f, "truncate", errno);
        return -1;
    }
    if (unlink(f->log) != 0) {
        record_failure(f, "journal removal", errno);
        return -1;
    }
    drop_pending(f);
    f->disk_size = f->cut = f->eof;
    return 0;
}

static void *safe_fapl_get(H5FD_t *file)
{
    SafeFile *f = (SafeFile *)file;
    SafeInfo *copy = malloc(sizeof *copy);
    if (copy)
        *copy = f->info;
    return copy;
}

static void *safe_fapl_copy(const void *info)
{
    SafeInfo *copy = malloc(sizeof *copy);
    if (copy)
        *copy = *(const SafeInfo *)info;
    return copy;
}

static herr_t safe_fapl_free(void *info)
{
    free(info);
    return 0;
}

static H5FD_t *safe_open(const char *name, unsigned flags, hid_t fapl, haddr_t maxaddr)
{
    (void)maxaddr;
    const SafeInfo *info = H5Pget_driver_info(fapl);
    if (!info || !name || strlen(name) >= sizeof ((SafeFile *)0)->path) {
        push_error("%s: %s", name ? name : "(null)", EINVAL);
        return NULL;
    }
    SafeFile *f = calloc(1, sizeof *f);
    if (!f) {
        push_error("%s: %s", name, ENOMEM);
        return NULL;
    }
    f->info = *info;
    snprintf(f->path, sizeof f->path, "%s", name);
    h5safe_log_path(name, f->log, sizeof f->log);
    int o = (flags & H5F_ACC_RDWR) ? O_RDWR : O_RDONLY;
    if (flags & H5F_ACC_TRUNC)
        o |= O_TRUNC;
    if (flags & H5F_ACC_CREAT)
        o |= O_CREAT;
    if (flags & H5F_ACC_EXCL)
        o |= O_EXCL;
    if (info->mode == H5SAFE_JOURNAL && (flags & H5F_ACC_RDWR)) {
        if (flags & H5F_ACC_TRUNC) {
            unlink(f->log); /* a log of the file being replaced */
        } else {
            XqError err;
            if (h5safe_recover(name, &err) < 0) {
                H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_CANTOPENFILE,
                         "%s", err.message);
                free(f);
                return NULL;
            }
        }
    }
    errno = 0;
    f->fd = open(name, o, 0666);
    struct stat st;
    if (f->fd < 0 || fstat(f->fd, &st) != 0) {
        /* HDF5's default driver words it this way too: schema_fail keeps the system's reason. */
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_CANTOPENFILE,
                 "unable to open file: name = '%s', errno = %d, error message = '%s'", name, errno,
                 strerror(errno));
        if (f->fd >= 0)
            close(f->fd);
        free(f);
        return NULL;
    }
    f->dev = (uint64_t)st.st_dev;
    f->ino = (uint64_t)st.st_ino;
    f->disk_size = f->cut = f->eof = (uint64_t)st.st_size;
    return &f->pub;
}

static herr_t safe_close(H5FD_t *file)
{
    SafeFile *f = (SafeFile *)file;
    if (f->info.mode == H5SAFE_JOURNAL)
        commit(f);
    herr_t rc = 0;
    if (close(f->fd) != 0 && !f->failed)
        record_failure(f, "close", errno);
    drop_pending(f);
    free(f->pending);
    free(f);
    return rc;
}

static int safe_cmp(const H5FD_t *a, const H5FD_t *b)
{
    const SafeFile *x = (const SafeFile *)a, *y = (const SafeFile *)b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    if (x->ino != y->ino)
        return x->ino < y->ino ? -1 : 1;
    return 0;
}

static herr_t safe_query(const H5FD_t *file, unsigned long *flags)
{
    (void)file;
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE |
             H5FD_FEAT_AGGREGATE_SMALLDATA;
    return 0;
}

static haddr_t safe_get_eoa(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const SafeFile *)file)->eoa;
}

static herr_t safe_set_eoa(H5FD_t *file, H5FD_mem_t type, haddr_t addr)
{
    (void)type;
    ((SafeFile *)file)->eoa = addr;
    return 0;
}

static haddr_t safe_get_eof(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const SafeFile *)file)->eof;
}

static herr_t safe_get_handle(H5FD_t *file, hid_t fapl, void **handle)
{
    (void)fapl;
    *handle = &((SafeFile *)file)->fd;
    return 0;
}

static herr_t safe_read(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size, void *buf)
{
    (void)type;
    (void)dxpl;
    SafeFile *f = (SafeFile *)file;
    if (addr == HADDR_UNDEF || addr + size < addr) {
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_READERROR,
                 "address overflow reading %s", f->path);
        return -1;
    }
    /* The disk's bytes up to the last truncation, then every later write in order on top. */
    size_t from_disk = addr >= f->cut ? 0 : (size_t)(f->cut - addr < size ? f->cut - addr : size);
    if (from_disk > 0 && pread_all(f->fd, buf, from_disk, addr) < 0) {
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_READERROR,
                 "file read failed: name = '%s', errno = %d, error message = '%s'", f->path, errno,
                 strerror(errno));
        return -1;
    }
    memset((uint8_t *)buf + from_disk, 0, size - from_disk);
    for (size_t i = 0; i < f->npending; i++) {
        const Write *w = &f->pending[i];
        uint64_t lo = w->addr > addr ? w->addr : addr;
        uint64_t hi = w->addr + w->len < addr + size ? w->addr + w->len : addr + size;
        if (lo < hi)
            memcpy((uint8_t *)buf + (lo - addr), w->data + (lo - w->addr), (size_t)(hi - lo));
    }
    return 0;
}

static herr_t safe_write(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size, const void *buf)
{
    (void)dxpl;
    SafeFile *f = (SafeFile *)file;
    if (addr == HADDR_UNDEF || addr + size < addr) {
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_WRITEERROR,
                 "address overflow writing %s", f->path);
        return -1;
    }
    if (f->info.mode == H5SAFE_DIRECT && !f->failed) {
        if (pwrite_all(f->fd, buf, size, addr) == 0) {
            if (addr + size > f->eof)
                f->eof = f->disk_size = f->cut = addr + size;
            return 0;
        }
        record_failure(f, "write", errno);
    }
    /* Journal mode; or direct mode after a failure, where the raw data (chunks HDF5 does not read
     * back while writing) is dropped and the metadata kept so that HDF5 can still close. */
    if (f->info.mode == H5SAFE_DIRECT && type == H5FD_MEM_DRAW) {
        if (addr + size > f->eof)
            f->eof = addr + size;
        return 0;
    }
    if (add_pending(f, addr, size, buf) < 0) {
        record_failure(f, "memory for the flush", ENOMEM);
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_WRITEERROR,
                 "out of memory holding a write to %s", f->path);
        return -1;
    }
    if (addr + size > f->eof)
        f->eof = addr + size;
    return 0;
}

static herr_t safe_flush(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    (void)dxpl;
    (void)closing;
    SafeFile *f = (SafeFile *)file;
    if (f->info.mode == H5SAFE_JOURNAL)
        commit(f); /* a failure is in the status: HDF5 must not see it (see safe_file.h) */
    return 0;
}

static herr_t safe_truncate(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    (void)dxpl;
    (void)closing;
    SafeFile *f = (SafeFile *)file;
    if (f->eoa == f->eof)
        return 0;
    if (f->info.mode == H5SAFE_DIRECT && !f->failed) {
        if (ftruncate(f->fd, (off_t)f->eoa) == 0) {
            f->eof = f->disk_size = f->cut = f->eoa;
            return 0;
        }
        record_failure(f, "truncate", errno);
    }
    /* Held until the commit: later reads see nothing past the new end. */
    uint64_t end = f->eoa;
    size_t keep = 0;
    for (size_t i = 0; i < f->npending; i++) {
        Write *w = &f->pending[i];
        if (w->addr >= end) {
            free(w->data);
            continue;
        }
        if (w->addr + w->len > end)
            w->len = (size_t)(end - w->addr);
        f->pending[keep++] = *w;
    }
    f->npending = keep;
    if (end < f->cut)
        f->cut = end;
    f->eof = end;
    return 0;
}

static herr_t safe_lock(H5FD_t *file, hbool_t rw)
{
    SafeFile *f = (SafeFile *)file;
    if (flock(f->fd, (rw ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 && errno != ENOSYS) {
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_CANTLOCKFILE,
                 "unable to lock file, errno = %d, error message = '%s'", errno, strerror(errno));
        return -1;
    }
    return 0;
}

static herr_t safe_unlock(H5FD_t *file)
{
    SafeFile *f = (SafeFile *)file;
    if (flock(f->fd, LOCK_UN) != 0 && errno != ENOSYS) {
        H5Epush2(H5E_DEFAULT, __FILE__, __func__, __LINE__, H5E_ERR_CLS, H5E_VFL, H5E_CANTUNLOCKFILE,
                 "unable to unlock file, errno = %d, error message = '%s'", errno, strerror(errno));
        return -1;
    }
    return 0;
}

static const H5FD_class_t SAFE_CLASS = {
    .name = "xqlab_safe",
    .maxaddr = (haddr_t)INT64_MAX,
    .fc_degree = H5F_CLOSE_WEAK,
    .fapl_size = sizeof(SafeInfo),
    .fapl_get = safe_fapl_get,
    .fapl_copy = safe_fapl_copy,
    .fapl_free = safe_fapl_free,
    .open = safe_open,
    .close = safe_close,
    .cmp = safe_cmp,
    .query = safe_query,
    .get_eoa = safe_get_eoa,
    .set_eoa = safe_set_eoa,
    .get_eof = safe_get_eof,
    .get_handle = safe_get_handle,
    .read = safe_read,
    .write = safe_write,
    .flush = safe_flush,
    .truncate = safe_truncate,
    .lock = safe_lock,
    .unlock = safe_unlock,
    .fl_map = H5FD_FLMAP_DICHOTOMY,
};

hid_t h5safe_fapl(H5SafeMode mode, H5SafeStatus *status)
{
    /* Registered once per process, like the zstd filter; HDF5 calls happen on one thread. */
    if (safe_driver_id < 0 || H5Iis_valid(safe_driver_id) <= 0)
        safe_driver_id = H5FDregister(&SAFE_CLASS);
    if (safe_driver_id < 0)
        return -1;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    SafeInfo info = {mode, status};
    if (fapl < 0 || H5Pset_driver(fapl, safe_driver_id, &info) < 0) {
        if (fapl >= 0)
            H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

int h5safe_fail(XqError *err, const char *path, const char *action, const H5SafeStatus *status)
{
    H5Eclear2(H5E_DEFAULT);
    return schema_fail(err, path, "%s: %s", action, strerror(status->error ? status->error : EIO));
}

/* ---- recovery ---- */

int h5safe_recover(const char *path, XqError *err)
{
    char log[1110];
    if (h5safe_log_path(path, log, sizeof log) < 0)
        return schema_fail(err, path, "path too long");
    int lfd = open(log, O_RDONLY);
    if (lfd < 0)
        return 0;
    struct stat ls, fs;
    uint8_t *data = NULL;
    bool whole = false;
    if (fstat(lfd, &ls) == 0 && (uint64_t)ls.st_size >= sizeof(LogHeader) + sizeof(LogTrailer) &&
        (data = malloc((size_t)ls.st_size)) && pread_all(lfd, data, (size_t)ls.st_size, 0) == 0) {
        LogHeader h;
        LogTrailer t;
        size_t body = (size_t)ls.st_size - sizeof t;
        memcpy(&h, data, sizeof h);
        memcpy(&t, data + body, sizeof t);
        Checksum sum = {14695981039346656037ULL};
        checksum_add(&sum, data, body);
        whole = !memcmp(h.magic, LOG_MAGIC, sizeof h.magic) && !memcmp(t.magic, LOG_END, sizeof t.magic) &&
                t.bytes == body && t.check == sum.h && stat(path, &fs) == 0 && h.dev == (uint64_t)fs.st_dev &&
                h.ino == (uint64_t)fs.st_ino;
    }
    close(lfd);
    if (!whole) {
        /* Cut short by a kill (the file was not touched yet), or another file's. */
        free(data);
        unlink(log);
        return 0;
    }
    LogHeader h;
    memcpy(&h, data, sizeof h);
    size_t body = (size_t)ls.st_size - sizeof(LogTrailer), at = sizeof h;
    int fd = open(path, O_RDWR);
    int rc = fd < 0 ? -1 : 0;
    const char *what = "cannot open";
    if (rc == 0 && (uint64_t)fs.st_size > h.cut && ftruncate(fd, (off_t)h.cut) != 0) {
        rc = -1;
        what = "cannot truncate";
    }
    for (uint64_t i = 0; rc == 0 && i < h.count; i++) {
        uint64_t head[2];
        if (body - at < sizeof head) {
            rc = -1;
            errno = EINVAL;
            what = "damaged journal";
            break;
        }
        memcpy(head, data + at, sizeof head);
        at += sizeof head;
        if (head[1] > body - at) {
            rc = -1;
            errno = EINVAL;
            what = "damaged journal";
            break;
        }
        if (pwrite_all(fd, data + at, (size_t)head[1], head[0]) < 0) {
            rc = -1;
            what = "cannot write";
        }
        at += (size_t)head[1];
    }
    if (rc == 0 && ftruncate(fd, (off_t)h.size) != 0) {
        rc = -1;
        what = "cannot truncate";
    }
    int saved = errno;
    if (fd >= 0 && close(fd) != 0 && rc == 0) {
        saved = errno;
        rc = -1;
        what = "cannot close";
    }
    free(data);
    if (rc < 0)
        return schema_fail(err, path, "%s it to finish the flush recorded in %s: %s", what, log, strerror(saved));
    unlink(log);
    return 0;
}
