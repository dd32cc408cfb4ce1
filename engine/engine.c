/* engine.c - the command loop: reads lines, picks the protocol from the first command, hands
 * each line to its front end, and ends on quit or end of input. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "protocol.h"

int engine_run(FILE *in, FILE *out, FILE *log, const SessionConfig *cfg, char *err)
{
    EngineOutput eo;
    if (eo_init(&eo, out, log) != 0) {
        snprintf(err, SESSION_ERR_MAX, "cannot create the output lock");
        return -1;
    }
    EngineContext *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, SESSION_ERR_MAX, "out of memory");
        eo_destroy(&eo);
        return -1;
    }
    c->out = &eo;
    c->s = session_create(cfg, &eo, err);
    if (!c->s) {
        free(c);
        eo_destroy(&eo);
        return -1;
    }
    options_build(&c->options);
    if (cfg->variant && (strchr(cfg->variant, '/') || strstr(cfg->variant, ".ini")))
        snprintf(c->st.variant_file, sizeof c->st.variant_file, "%s", cfg->variant);
    bool started = false, running = true;
    char *line = NULL;
    size_t cap = 0;
    Words words = {0};
    while (running && getline(&line, &cap, in) >= 0) {
        eo_log_command(&eo, line);
        if (words_split(&words, line) != 0) {
            eo_line(&eo, "info string error: out of memory reading a command");
            continue;
        }
        if (words.n == 0)
            continue;
        if (!started) {
            started = true;
            const char *k = words.w[0];
            if (!strcmp(k, "ucci")) {
                c->protocol = PROTOCOL_UCCI;
                ucci_begin(c);
                continue;
            }
            if (!strcmp(k, "xboard")) {
                c->protocol = PROTOCOL_XBOARD;
                xboard_begin(c);
                continue;
            }
            c->protocol = PROTOCOL_UCI;
            if (!strcmp(k, "uci")) {
                uci_begin(c);
                continue;
            }
        }
        switch (c->protocol) {
        case PROTOCOL_UCI: running = uci_command(c, &words); break;
        case PROTOCOL_UCCI: running = ucci_command(c, &words); break;
        case PROTOCOL_XBOARD: running = xboard_command(c, &words); break;
        }
    }
    /* quit, or the GUI closed the pipe: end any search and leave. */
    session_free(c->s);
    words_free(&words);
    free(line);
    free(c);
    eo_destroy(&eo);
    return 0;
}
