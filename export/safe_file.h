/* safe_file.h - for export/ and stats/ (openings --h5): an HDF5 file driver for the files xqlab writes, so that a
 * kill never leaves a half-written flush and a full disk never crashes libhdf5.
 *
 * Journal mode (PATH.tmp of a self-play run): every write HDF5 makes is held in memory until
 * H5Fflush; the flush then writes all of them to the redo log PATH.wal (complete, with its length
 * and a checksum, before the file itself is touched), copies them into the file and removes the
 * log. A kill before the log is complete leaves the file as the previous flush left it (the
 * incomplete log is discarded); a kill after it leaves a log that the next open in journal mode
 * (or h5safe_recover) copies in again. So the file on disk is always the state after some
 * completed H5Fflush, whatever order HDF5 writes its metadata in.
 *
 * Direct mode (PATH.part, a merge's OUT.tmp): writes go to the file as with HDF5's default
 * driver, but a failed write (ENOSPC, EIO) is recorded in the caller's H5SafeStatus and hidden
 * from HDF5: libhdf5 1.10.8 crashes at exit (H5F__close_cb) after a file it could not close.
 * After a failure metadata writes are kept in memory (so HDF5 reads back what it wrote) and raw
 * data writes are dropped; the caller checks the status after H5Fclose and removes the file.
 *
 * In both modes the file format is HDF5's own: files are read with the default driver. */
#ifndef XQ_SAFE_FILE_H
#define XQ_SAFE_FILE_H

#include <hdf5.h>
#include <stdbool.h>

#include "dataset.h"

/* What went wrong in a file opened through the driver; owned by the caller, and it must outlive
 * the file (the driver writes to it until H5Fclose returns). */
typedef struct H5SafeStatus {
    int error;          /* errno of the first failure, 0 if none */
    char what[96];      /* what failed: "write", "journal write", ... */
} H5SafeStatus;

typedef enum H5SafeMode {
    H5SAFE_DIRECT,
    H5SAFE_JOURNAL,
} H5SafeMode;

/* A new file access property list (the caller closes it) that opens files through the driver in
 * `mode`, reporting failures to *status. Returns -1 on failure. */
hid_t h5safe_fapl(H5SafeMode mode, H5SafeStatus *status);

/* The redo log of a file in journal mode: "PATH.wal". Returns -1 if buf is too small. */
int h5safe_log_path(const char *path, char *buf, size_t size);

/* Finishes a flush that a kill interrupted: a complete log PATH.wal that describes the file at
 * `path` is copied into it, an incomplete or stale log is removed. Returns 0 (nothing to do, or
 * done) or -1 with *err (the log is complete but cannot be applied: the disk is full or the file
 * cannot be written; both files are left as they are). */
int h5safe_recover(const char *path, XqError *err);

/* Writes all n bytes to fd, resuming after short writes and EINTR (a full disk takes what fits,
 * then fails with ENOSPC). Returns 0, or -1 with errno set (ENOSPC for a write of 0 bytes). */
int h5safe_write_all(int fd, const void *data, size_t n);

/* Fails with *err naming `path`, `action` and the status's failure; returns -1. */
int h5safe_fail(XqError *err, const char *path, const char *action, const H5SafeStatus *status);

#endif
