/* output.h - the engine's answers: whole lines, flushed at once, from the command thread and the
 * search thread alike (one lock), optionally copied to a log with the commands read. */
#ifndef XQ_ENGINE_OUTPUT_H
#define XQ_ENGINE_OUTPUT_H

#include <pthread.h>
#include <stdio.h>

typedef struct EngineOutput {
    FILE *out;              /* the GUI's pipe (standard output) */
    FILE *log;              /* NULL, or a file that gets "< command" and "> answer" lines */
    pthread_mutex_t lock;
} EngineOutput;

/* `out` and `log` (NULL allowed) must outlive it. Returns 0, or -1 if the lock cannot be made. */
int eo_init(EngineOutput *o, FILE *out, FILE *log);
void eo_destroy(EngineOutput *o);

/* Writes one line (the newline is added) and flushes it; thread-safe. */
void eo_line(EngineOutput *o, const char *fmt, ...);

/* Copies a command read from the GUI to the log. */
void eo_log_command(EngineOutput *o, const char *line);

#endif
