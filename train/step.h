/* step.h - one step of a training run: an xqlab command run as a child process with its
 * standard output in a file, stopped with the run and never outliving it. */
#ifndef XQ_TRAIN_STEP_H
#define XQ_TRAIN_STEP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum {
    STEP_OK,           /* exit status 0 */
    STEP_INTERRUPTED,  /* stopped: the stop flag was raised, or the child ended by SIGINT /
                        * SIGTERM or with status 130 (xqlab's "interrupted") */
    STEP_FAILED        /* any other end; `how` says which */
} StepEnd;

typedef struct StepResult {
    StepEnd end;
    char how[128];     /* "exit status 1", "killed by signal 11 (Segmentation fault)", ... */
    double seconds;    /* wall time */
} StepResult;

/* Runs `exe` with argv (argv[0] included, NULL-terminated) and its standard output written to
 * stdout_path (created or truncated; NULL = inherited); standard error and input are inherited.
 * The child dies with the calling thread (PR_SET_PDEATHSIG, SIGKILL: a killed run leaves no
 * orphan behind holding its outputs' locks). While it runs, `stop` (may be NULL) is polled
 * every 50 ms; once raised, the child gets one SIGTERM (xqlab commands then finish cleanly and
 * keep what can be resumed) and is waited for. Returns 0, or -1 if it could not start (the
 * reason in result->how). */
int train_step_run(const char *exe, char *const argv[], const char *stdout_path, const atomic_bool *stop,
                   StepResult *result);

/* The command as one line a shell would run (words quoted where needed), into buf. */
void train_step_command_line(char *const argv[], char *buf, size_t size);

#endif
