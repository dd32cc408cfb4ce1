/* uci_engine.c - an external engine driven over UCI: hand-shake, rule set, moves, perft, CPU time. */
#include "uci_engine.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "uci_notation.h"

enum { LINE_MAX_BYTES = SUBPROCESS_BUFFER };

const char *uci_status_name(UciStatus s)
{
    switch (s) {
    case UCI_OK: return "ok";
    case UCI_DIED: return "died";
    case UCI_TIMEOUT: return "timeout";
    case UCI_BAD_OUTPUT: return "bad output";
    case UCI_REFUSED: return "refused";
    case UCI_STOPPED: return "stopped";
    }
    return "?";
}

static void set_detail(UciEngine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->detail, sizeof e->detail, fmt, ap);
    va_end(ap);
}

static void log_line(UciEngine *e, char direction, const char *text)
{
    UciLog *log = e->spec->log;
    if (!log || !log->file)
        return;
    pthread_mutex_lock(&log->lock);
    fprintf(log->file, "%9.3f game %d %s %c %s\n", subprocess_now() - log->t0, e->game, e->spec->role,
            direction, text);
    pthread_mutex_unlock(&log->lock);
}

/* After an end of file: wait a moment for the process to exit, to say how it ended. */
static UciStatus died(UciEngine *e, const char *while_doing)
{
    char how[160] = "closed its output";
    for (int i = 0; i < 100; i++) {
        if (subprocess_exited(&e->proc, how, sizeof how))
            break;
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    set_detail(e, "%s (%s) died %s: %s", e->spec->role, e->name, while_doing, how);
    log_line(e, '!', e->detail);
    return UCI_DIED;
}

static UciStatus send(UciEngine *e, const char *line)
{
    log_line(e, '>', line);
    if (subprocess_write_line(&e->proc, line) < 0)
        return died(e, "(it no longer reads its input)");
    return UCI_OK;
}

/* Reads one line by the deadline; maps the failures to statuses with a detail. */
static UciStatus receive(UciEngine *e, char *line, double deadline, const atomic_bool *stop,
                         const char *waiting_for)
{
    SubprocessRead r = subprocess_read_line(&e->proc, line, LINE_MAX_BYTES, deadline, stop);
    switch (r) {
    case SUBPROCESS_LINE:
        log_line(e, '<', line);
        return UCI_OK;
    case SUBPROCESS_TIMEOUT:
        set_detail(e, "%s (%s) sent no %s in time", e->spec->role, e->name, waiting_for);
        log_line(e, '!', e->detail);
        return UCI_TIMEOUT;
    case SUBPROCESS_STOPPED:
        set_detail(e, "stopped");
        return UCI_STOPPED;
    case SUBPROCESS_EOF:
        break;
    }
    char doing[96];
    snprintf(doing, sizeof doing, "while the referee waited for %s", waiting_for);
    return died(e, doing);
}

static bool starts_with(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* True if the space-separated list holds the word. */
static bool list_has(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

static bool has_option(const UciEngine *e, const char *name)
{
    for (int i = 0; i < e->noptions; i++)
        if (!strcasecmp(e->option_names[i], name))
            return true;
    return false;
}

/* One "option name NAME type ..." line. */
static void parse_option(UciEngine *e, const char *line)
{
    const char *name = line + strlen("option name ");
    const char *type = strstr(name, " type ");
    size_t n = type ? (size_t)(type - name) : strlen(name);
    if (e->noptions < UCI_MAX_OPTIONS && n < sizeof e->option_names[0]) {
        memcpy(e->option_names[e->noptions], name, n);
        e->option_names[e->noptions][n] = '\0';
        e->noptions++;
    }
    if (n == strlen("UCI_Variant") && !strncasecmp(name, "UCI_Variant", n)) {
        e->has_variant_option = true;
        e->variants[0] = '\0';
        size_t used = 0;
        for (const char *v = strstr(name, " var "); v; v = strstr(v + 1, " var ")) {
            const char *w = v + 5, *end = strchr(w, ' ');
            size_t len = end ? (size_t)(end - w) : strlen(w);
            if (used + len + 2 < sizeof e->variants) {
                if (used)
                    e->variants[used++] = ' ';
                memcpy(e->variants + used, w, len);
                used += len;
                e->variants[used] = '\0';
            }
        }
    }
}

/* Sends "uci" and reads up to "uciok": id and options; other lines go to loader_output. */
static UciStatus handshake_uci(UciEngine *e, const atomic_bool *stop, bool keep_other)
{
    UciStatus s = send(e, "uci");
    if (s != UCI_OK)
        return s;
    double deadline = subprocess_now() + e->spec->startup_timeout;
    char *line = malloc(LINE_MAX_BYTES);
    if (!line) {
        set_detail(e, "out of memory");
        return UCI_REFUSED;
    }
    e->noptions = 0;
    e->has_variant_option = false;
    e->variants[0] = '\0';
    while ((s = receive(e, line, deadline, stop, "uciok")) == UCI_OK) {
        if (!strcmp(line, "uciok"))
            break;
        if (starts_with(line, "id name ")) {
            snprintf(e->name, sizeof e->name, "%s", line + 8);
        } else if (starts_with(line, "option name ")) {
            parse_option(e, line);
        } else if (keep_other && *line && !starts_with(line, "id ")) {
            size_t used = strlen(e->loader_output);
            if (used + 3 < sizeof e->loader_output)
                snprintf(e->loader_output + used, sizeof e->loader_output - used, "%s%s",
                         used ? "; " : "", line);
        }
    }
    free(line);
    return s;
}

static UciStatus wait_ready(UciEngine *e, const atomic_bool *stop)
{
    UciStatus s = send(e, "isready");
    if (s != UCI_OK)
        return s;
    double deadline = subprocess_now() + e->spec->startup_timeout;
    char *line = malloc(LINE_MAX_BYTES);
    if (!line) {
        set_detail(e, "out of memory");
        return UCI_REFUSED;
    }
    while ((s = receive(e, line, deadline, stop, "readyok")) == UCI_OK && strcmp(line, "readyok"))
        ;
    free(line);
    return s;
}

static UciStatus setoption(UciEngine *e, const char *name, const char *value)
{
    size_t n = strlen(name) + strlen(value) + 32;
    char *cmd = malloc(n);
    if (!cmd) {
        set_detail(e, "out of memory");
        return UCI_REFUSED;
    }
    snprintf(cmd, n, "setoption name %s value %s", name, value);
    UciStatus s = send(e, cmd);
    free(cmd);
    return s;
}

static UciStatus select_variant(UciEngine *e, const atomic_bool *stop)
{
    const UciEngineSpec *sp = e->spec;
    UciStatus s;
    if (sp->variant_path && has_option(e, "VariantPath")) {
        if ((s = setoption(e, "VariantPath", sp->variant_path)) != UCI_OK)
            return s;
        /* The engine lists its rule sets again, the loaded ones included. */
        if ((s = handshake_uci(e, stop, true)) != UCI_OK)
            return s;
    }
    if (!e->has_variant_option) {
        if (strcmp(sp->variant, "xiangqi")) {
            set_detail(e, "%s (%s) has no UCI_Variant option, so it plays one game only (taken to be "
                       "standard xiangqi), not %s", sp->role, e->name, sp->variant);
            return UCI_REFUSED;
        }
        return UCI_OK;
    }
    if (!list_has(e->variants, sp->variant)) {
        set_detail(e, "%s (%s) does not play %s: its UCI_Variant option does not list it%s%s%s",
                   sp->role, e->name, sp->variant,
                   sp->variant_path ? (has_option(e, "VariantPath") ? ", not even after loading " : ", and it has no VariantPath option to load ") : "",
                   sp->variant_path ? sp->variant_path : "",
                   e->loader_output[0] ? " (it said: " : "");
        if (e->loader_output[0]) {
            size_t used = strlen(e->detail);
            snprintf(e->detail + used, sizeof e->detail - used, "%s)", e->loader_output);
        }
        return UCI_REFUSED;
    }
    return setoption(e, "UCI_Variant", sp->variant);
}

UciStatus uci_engine_start(UciEngine *e, const UciEngineSpec *spec, const atomic_bool *stop)
{
    memset(e, 0, sizeof *e);
    e->spec = spec;
    snprintf(e->name, sizeof e->name, "%s", spec->command);
    XqError err;
    if (subprocess_start(&e->proc, spec->command, spec->stderr_path, &err) < 0) {
        set_detail(e, "%s: %s", err.file, err.message);
        return UCI_DIED;
    }
    UciStatus s = handshake_uci(e, stop, false);
    if (s == UCI_OK) {
        e->fairy = starts_with(e->name, "Fairy-Stockfish");
        /* Releases say "Fairy-Stockfish 11.1"; development builds carry a date ("011226"). */
        if (e->fairy) {
            int version = atoi(e->name + strlen("Fairy-Stockfish"));
            e->fairy_version = version < 1000 ? version : 0;
        }
        e->rank_base = spec->rank_base == UCI_RANKS_AUTO ? (e->fairy ? 1 : 0) : spec->rank_base;
        /* One thread per engine unless the caller says otherwise. */
        bool threads_given = false;
        for (int i = 0; i < spec->noptions; i++)
            threads_given |= !strncasecmp(spec->options[i], "Threads=", 8);
        if (!threads_given && has_option(e, "Threads"))
            s = setoption(e, "Threads", "1");
    }
    if (s == UCI_OK && spec->variant)
        s = select_variant(e, stop);
    for (int i = 0; s == UCI_OK && i < spec->noptions; i++) {
        char name[128];
        const char *eq = strchr(spec->options[i], '=');
        size_t n = eq ? (size_t)(eq - spec->options[i]) : strlen(spec->options[i]);
        if (!eq || n == 0 || n >= sizeof name) {
            set_detail(e, "option '%s' for %s is not NAME=VALUE", spec->options[i], spec->role);
            s = UCI_REFUSED;
            break;
        }
        memcpy(name, spec->options[i], n);
        name[n] = '\0';
        if (!has_option(e, name)) {
            set_detail(e, "%s (%s) has no option '%s'", spec->role, e->name, name);
            s = UCI_REFUSED;
            break;
        }
        s = setoption(e, name, eq + 1);
    }
    if (s == UCI_OK)
        s = wait_ready(e, stop);
    if (s != UCI_OK)
        uci_engine_quit(e);
    return s;
}

UciStatus uci_engine_new_game(UciEngine *e, const atomic_bool *stop)
{
    UciStatus s = send(e, "ucinewgame");
    return s == UCI_OK ? wait_ready(e, stop) : s;
}

/* "position startpos|fen F [moves ...]" in the engine's ranks; NULL if out of memory. */
static char *position_command(UciEngine *e, const char *base_fen, const char *const *moves, int nmoves)
{
    size_t n = 64 + (base_fen ? strlen(base_fen) : 0);
    for (int i = 0; i < nmoves; i++)
        n += strlen(moves[i]) + 4;
    char *cmd = malloc(n);
    if (!cmd)
        return NULL;
    size_t used = (size_t)snprintf(cmd, n, base_fen ? "position fen %s" : "position startpos",
                                   base_fen ? base_fen : "");
    if (nmoves)
        used += (size_t)snprintf(cmd + used, n - used, " moves");
    for (int i = 0; i < nmoves; i++) {
        char shifted[32];
        const char *m = moves[i];
        if (e->rank_base && uci_move_shift_ranks(moves[i], e->rank_base, shifted, sizeof shifted) == 0)
            m = shifted;
        used += (size_t)snprintf(cmd + used, n - used, " %s", m);
    }
    return cmd;
}

static UciStatus send_position(UciEngine *e, const char *base_fen, const char *const *moves, int nmoves)
{
    char *cmd = position_command(e, base_fen, moves, nmoves);
    if (!cmd) {
        set_detail(e, "out of memory");
        return UCI_REFUSED;
    }
    UciStatus s = send(e, cmd);
    free(cmd);
    return s;
}

/* Reads an "info" line's score into *sc: "score cp N" or "score mate N", a bound marked
 * (lowerbound / upperbound) taken as given; lines of a second principal variation
 * (multipv 2 and up) and free text ("info string") are ignored. */
static void parse_info_score(const char *line, UciScore *sc)
{
    const char *mpv = strstr(line, " multipv ");
    if (mpv && atoi(mpv + 9) > 1)
        return;
    const char *p = strstr(line, " score ");
    if (!p)
        return;
    int value;
    if (sscanf(p, " score cp %d", &value) == 1) {
        sc->have = true;
        sc->mate = false;
        sc->value = value;
    } else if (sscanf(p, " score mate %d", &value) == 1) {
        sc->have = true;
        sc->mate = true;
        sc->value = value;
    } else {
        return;
    }
    const char *d = strstr(line, " depth ");
    if (d)
        sc->depth = atoi(d + 7);
}

UciStatus uci_engine_analyse(UciEngine *e, const char *base_fen, const char *const *moves, int nmoves,
                             const char *limit, double deadline, char *best, size_t size,
                             UciScore *score, const atomic_bool *stop)
{
    if (score)
        memset(score, 0, sizeof *score);
    UciStatus s = send_position(e, base_fen, moves, nmoves);
    char go[96];
    snprintf(go, sizeof go, "go %s", limit);
    if (s == UCI_OK)
        s = send(e, go);
    if (s != UCI_OK)
        return s;
    char *line = malloc(LINE_MAX_BYTES);
    if (!line) {
        set_detail(e, "out of memory");
        return UCI_REFUSED;
    }
    while ((s = receive(e, line, deadline, stop, "bestmove")) == UCI_OK) {
        if (score && starts_with(line, "info ") && !starts_with(line, "info string"))
            parse_info_score(line + 4, score);
        if (!starts_with(line, "bestmove"))
            continue;
        char move[64] = "";
        if (sscanf(line, "bestmove %63s", move) != 1) {
            set_detail(e, "%s (%s) answered '%s': bestmove without a move", e->spec->role, e->name, line);
            s = UCI_BAD_OUTPUT;
        } else if (!e->rank_base || uci_move_shift_ranks(move, -e->rank_base, best, size) < 0) {
            snprintf(best, size, "%s", move);
        }
        break;
    }
    free(line);
    return s;
}

UciStatus uci_engine_go(UciEngine *e, const char *base_fen, const char *const *moves, int nmoves,
                        int movetime_ms, double deadline, char *best, size_t size,
                        const atomic_bool *stop)
{
    char limit[32];
    snprintf(limit, sizeof limit, "movetime %d", movetime_ms);
    return uci_engine_analyse(e, base_fen, moves, nmoves, limit, deadline, best, size, NULL, stop);
}

UciStatus uci_engine_perft(UciEngine *e, const char *base_fen, const char *const *moves, int nmoves,
                           int depth, uint64_t *nodes, char (*divide)[16], int max_divide,
                           int *ndivide, const atomic_bool *stop)
{
    UciStatus s = send_position(e, base_fen, moves, nmoves);
    char go[32];
    snprintf(go, sizeof go, "go perft %d", depth);
    if (s == UCI_OK)
        s = send(e, go);
    if (s != UCI_OK)
        return s;
    if (ndivide)
        *ndivide = 0;
    char *line = malloc(LINE_MAX_BYTES);
    if (!line) {
        set_detail(e, "out of memory");
        return UCI_REFUSED;
    }
    double deadline = subprocess_now() + e->spec->startup_timeout;
    while ((s = receive(e, line, deadline, stop, "the perft count")) == UCI_OK) {
        unsigned long long count;
        char move[16];
        if (sscanf(line, "Nodes searched: %llu", &count) == 1) {
            *nodes = count;
            break;
        }
        if (divide && ndivide && *ndivide < max_divide && sscanf(line, "%15[a-z0-9]: %llu", move, &count) == 2) {
            if (!e->rank_base || uci_move_shift_ranks(move, -e->rank_base, divide[*ndivide], 16) < 0)
                snprintf(divide[*ndivide], 16, "%s", move);
            (*ndivide)++;
        }
    }
    free(line);
    return s;
}

double uci_engine_cpu_ms(const UciEngine *e)
{
    double s = subprocess_cpu_seconds(&e->proc);
    return s < 0 ? -1 : 1000.0 * s;
}

bool uci_engine_running(const UciEngine *e)
{
    return e->proc.pid > 0 && !e->proc.reaped && !e->proc.eof;
}

void uci_engine_quit(UciEngine *e)
{
    if (!e || !e->spec || e->proc.pid <= 0)
        return;
    if (uci_engine_running(e)) {
        /* Not send(): a failure here must not replace the detail of the failure before. */
        log_line(e, '>', "quit");
        subprocess_write_line(&e->proc, "quit");
    }
    subprocess_stop(&e->proc, 1.0);
}
