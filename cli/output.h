/* output.h - the one rule for every file an xqlab command writes (docs/cli.md, "Output files"):
 *
 *   1. an existing file is replaced only with --force, and an input of the command never;
 *   2. nothing is written through a symbolic link, and only a regular file is ever replaced;
 *   3. before anything touches the output, it is claimed with a lock of our own (PATH.lock,
 *      flock), so a second process writing the same output is refused with the first one's
 *      pid, host and file named, and never truncates, deletes or recreates it;
 *   4. the data goes to PATH.tmp, created exclusively (never through a link, never over a file),
 *      and is renamed over PATH only when complete, so a kill leaves the old file or the new one.
 *
 * Use: cli_output_claim (first, before any long work: a refusal costs nothing), then write
 * out->tmp (cli_output_fopen for a text file; HDF5 code creates out->tmp with H5F_ACC_EXCL),
 * then cli_output_commit, and cli_output_release on every path (it removes an uncommitted
 * PATH.tmp unless CLI_OUTPUT_KEEP_TMP, and the lock). Messages are printed as
 * "xqlab CMD: PATH: what", and the functions return an exit status (EXIT_OK or
 * EXIT_FAILURE_RUN). A command writing to stdout ("-") does not claim anything. */
#ifndef XQ_CLI_OUTPUT_H
#define XQ_CLI_OUTPUT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

enum {
    /* --force: an existing regular file may be replaced (an input, a link or a non-regular file
     * still may not). */
    CLI_OUTPUT_FORCE = 1u << 0,
    /* The caller deals with an existing PATH itself (selfplay --resume reports it complete). */
    CLI_OUTPUT_EXISTING = 1u << 1,
    /* PATH.tmp holds resumable data (selfplay): the claim and the release leave it alone. */
    CLI_OUTPUT_KEEP_TMP = 1u << 2,
};

typedef struct CliOutput {
    const char *cmd;            /* for messages, e.g. "tune" */
    const char *option;         /* the option naming the output, e.g. "-o", "--pgn" */
    char path[PATH_MAX];
    char tmp[PATH_MAX + 8];     /* PATH.tmp */
    char lock[PATH_MAX + 8];    /* PATH.lock */
    int lock_fd;                /* -1 when not held */
    FILE *file;                 /* from cli_output_fopen until commit or release */
    unsigned flags;
    bool exists;                /* PATH existed (a regular file) when claimed */
    bool claimed;               /* between a successful claim and the release */
    bool committed;
} CliOutput;

/* Zero state: release is a no-op on it (for cleanup paths reached before the claim). */
#define CLI_OUTPUT_INIT {.lock_fd = -1}

/* Claims `path` for the command `cmd` (its option `option`, named in messages): refuses a
 * symbolic link, a directory or other non-regular file, an existing file without
 * CLI_OUTPUT_FORCE or CLI_OUTPUT_EXISTING, a path that is (or whose PATH.tmp / PATH.lock is) one
 * of the `ninputs` input files (compared by device and inode, and by name), and a path another
 * process (or another output of this command) holds. Takes the lock, then removes a stale
 * PATH.tmp (unless CLI_OUTPUT_KEEP_TMP; a PATH.tmp beside a self-play journal PATH.tmp.games is an
 * interrupted run and is refused instead). Returns EXIT_OK, or EXIT_FAILURE_RUN with the message
 * printed and *o left released. */
int cli_output_claim(CliOutput *o, const char *cmd, const char *option, const char *path, unsigned flags,
                     const char *const *inputs, int ninputs);

/* Creates PATH.tmp exclusively (O_EXCL | O_NOFOLLOW) and opens it for writing as o->file.
 * NULL with the message printed. */
FILE *cli_output_fopen(CliOutput *o);

/* Completes the output: flushes and closes o->file if open, fsyncs PATH.tmp, renames it over
 * PATH and syncs the folder. On failure PATH.tmp is removed (PATH untouched) and the message is
 * printed. Returns EXIT_OK or EXIT_FAILURE_RUN. */
int cli_output_commit(CliOutput *o);

/* Ends the claim: closes o->file if still open, removes an uncommitted PATH.tmp (unless
 * CLI_OUTPUT_KEEP_TMP), removes the lock file and releases the lock. Safe to call twice and on
 * CLI_OUTPUT_INIT. */
void cli_output_release(CliOutput *o);

/* Checks an output folder (report --plots DIR): refuses a symbolic link or a non-folder, creates
 * it if missing. Returns EXIT_OK or EXIT_FAILURE_RUN with the message printed. */
int cli_output_folder(const char *cmd, const char *option, const char *dir);

#endif
