/* output.c - line output shared by the engine's threads. */
#include "output.h"

#include <stdarg.h>

int eo_init(EngineOutput *o, FILE *out, FILE *log)
{
    o->out = out;
    o->log = log;
    return pthread_mutex_init(&o->lock, NULL) == 0 ? 0 : -1;
}

void eo_destroy(EngineOutput *o)
{
    pthread_mutex_destroy(&o->lock);
}

void eo_line(EngineOutput *o, const char *fmt, ...)
{
    char buf[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&o->lock);
    fputs(buf, o->out);
    fputc('\n', o->out);
    fflush(o->out);
    if (o->log) {
        fprintf(o->log, "> %s\n", buf);
        fflush(o->log);
    }
    pthread_mutex_unlock(&o->lock);
}

void eo_log_command(EngineOutput *o, const char *line)
{
    if (!o->log)
        return;
    pthread_mutex_lock(&o->lock);
    fprintf(o->log, "< %s\n", line);
    fflush(o->log);
    pthread_mutex_unlock(&o->lock);
}
