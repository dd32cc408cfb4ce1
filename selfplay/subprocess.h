/* subprocess.h - a child process spoken to in lines over pipes (an external engine): start a
 * shell command, write a line, read a line by a deadline, read its CPU time, and end it whatever
 * state it is in. Linux: CPU times come from /proc.
 *
 * Threads: a Subprocess belongs to one thread. Several threads may start subprocesses at once
 * (start is serialised internally, so no child inherits another child's pipes and an engine's
 * death always shows as end of file). The caller must ignore SIGPIPE (a write to a child that has
 * died then fails with EPIPE instead of ending the program). */
#ifndef XQ_SUBPROCESS_H
#define XQ_SUBPROCESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "variant.h"

enum { SUBPROCESS_BUFFER = 16384 };

typedef struct Subprocess {
    pid_t pid;                 /* 0 when not running */
    int to_child, from_child;  /* pipe ends, -1 when closed */
    bool eof;                  /* the child closed its output (it has exited or is exiting) */
    bool reaped;
    int wait_status;           /* waitpid status once reaped */
    size_t len;                /* bytes in buf not yet returned as lines */
    char buf[SUBPROCESS_BUFFER];
} Subprocess;

/* Starts `/bin/sh -c "exec COMMAND"` in a process group of its own (a terminal's Ctrl-C reaches
 * the referee, not the engines; stopping kills the whole group). Its standard error goes to
 * stderr_path (appended) or, if NULL, to /dev/null. Returns 0, or -1 with *err. A command that
 * cannot be executed shows up later as an immediate end of file (the shell exits with 127). */
int subprocess_start(Subprocess *p, const char *command, const char *stderr_path, XqError *err);

/* Writes `line` and a newline. Returns 0, or -1 if the child no longer reads (it has died). */
int subprocess_write_line(Subprocess *p, const char *line);

/* Result of subprocess_read_line. */
typedef enum { SUBPROCESS_LINE = 1, SUBPROCESS_TIMEOUT = 0, SUBPROCESS_EOF = -1, SUBPROCESS_STOPPED = -2 } SubprocessRead;

/* Reads the next line (newline and a trailing '\r' removed; a longer line than `size` - 1 bytes is
 * cut) waiting until `deadline` (cli-style monotonic seconds, subprocess_now). `stop`, if not NULL,
 * is checked at least every 100 ms. */
SubprocessRead subprocess_read_line(Subprocess *p, char *line, size_t size, double deadline,
                                    const atomic_bool *stop);

/* Monotonic clock in seconds (the deadlines' clock). */
double subprocess_now(void);

/* CPU seconds (user + system, its threads and reaped children included) the child has used so
 * far, from /proc/PID/stat; -1 if it cannot be read (the child has been reaped). */
double subprocess_cpu_seconds(const Subprocess *p);

/* True if the child has exited (reaps it without blocking); desc then says how ("exit status 1",
 * "killed by signal 11 (Segmentation fault)"). */
bool subprocess_exited(Subprocess *p, char *desc, size_t size);

/* Ends the child: waits up to `grace` seconds for it to exit by itself (after the caller has asked
 * it to, e.g. with "quit"), then kills its process group, reaps it and closes the pipes. Safe on a
 * Subprocess that never started or was already stopped. */
void subprocess_stop(Subprocess *p, double grace);

#endif
