/* session.c - rule set, weights, settings, the game and the threaded search behind every
 * protocol. Threads > 1 search the same position independently (root parallelism, each thread
 * its own tree and arena) and their root statistics are summed. */
#include "session.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "hidden.h"
#include "notation.h"
#include "score.h"
#include "weights_choice.h"

enum {
    MAX_THREADS = 64,
    MAX_NAMES = 256,
    MAX_PENDING_ADVANCE = 16,    /* moves a tree follows between searches (mcts.c MAX_PENDING) */
    GAME_MAX = XQ_MAX_HISTORY - 256, /* plies a game may have: the search needs history room */
    WORKER_INFO_MS = 10,         /* how often each thread publishes its playouts */
    DEFAULT_HASH_MB = 256,       /* malloc'd, touched only as the tree grows */
};

typedef struct Worker {
    struct Session *s;
    int index;
    Mcts *m;
    Position *pos;
    Rng rng;
    SearchResult *result;
    int rc;
    bool filled;                 /* its last search filled the arena */
    atomic_int playouts;
    atomic_int arena_permille;   /* the last progress report's arena use */
    pthread_t thread;
} Worker;

struct Session {
    EngineOutput *out;
    char config_dir[1024];
    const char *names[MAX_NAMES];
    int nnames;

    Variant *v;
    Evaluator *e;
    char weights_arg[1024];      /* the user's weights file, "none", or "" for the nearest */
    char weights_line[1024];     /* which weights are in use, in one line */
    SearchParams params;         /* base parameters (options and command line) */
    int threads, hash_mb, overhead_ms, info_interval_ms;

    /* The game: a start (FEN, or "" for the rule set's start) and the moves since. */
    char root_fen[512];
    Position *pos;
    Position *scratch;
    Move *moves;
    int nmoves;
    bool valid;
    char error[SESSION_ERR_MAX];

    /* Search state. */
    Worker workers[MAX_THREADS];
    int nworkers;
    bool dirty;                  /* the workers must be rebuilt (rule set, weights, sizes) */
    SearchParams sp;             /* parameters of the running search, shared by its workers */
    char tree_fen[512];          /* the game the trees were built for */
    Move *tree_moves;
    int tree_nmoves;
    bool tree_valid;

    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_t thread;
    bool thread_live;            /* started and not joined yet */
    bool searching;
    bool aborted;
    atomic_bool stop;
    EngineLimits limits;
    SessionCallbacks cb;
    double t_go;
    double next_print;
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(char *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, SESSION_ERR_MAX, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void list_variants(Session *s)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/variants", s->config_dir);
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *de; (de = readdir(d)) && s->nnames < MAX_NAMES;) {
        size_t len = strlen(de->d_name);
        if (len > 4 && !strcmp(de->d_name + len - 4, ".ini")) {
            char *name = strdup(de->d_name);
            if (!name)
                break;
            name[len - 4] = '\0';
            s->names[s->nnames++] = name;
        }
    }
    closedir(d);
    qsort(s->names, (size_t)s->nnames, sizeof s->names[0], compare_names);
}

/* ---- workers ---------------------------------------------------------------------------------- */

static void free_workers(Session *s)
{
    for (int i = 0; i < s->nworkers; i++) {
        mcts_free(s->workers[i].m);
        free(s->workers[i].pos);
        free(s->workers[i].result);
        s->workers[i].m = NULL;
        s->workers[i].pos = NULL;
        s->workers[i].result = NULL;
    }
    s->nworkers = 0;
    s->tree_valid = false;
}

/* Nodes of each thread's arena: the Hash memory split over the threads. */
static int arena_nodes(const Session *s)
{
    long long nodes = (long long)s->hash_mb * 1024 * 1024 / MCTS_NODE_BYTES / s->threads;
    if (nodes < 512)
        nodes = 512;
    if (nodes > 1 << 28)
        nodes = 1 << 28;
    return (int)nodes;
}

int session_prepare(Session *s, char *err)
{
    if (!s->dirty && s->nworkers == s->threads)
        return 0;
    free_workers(s);
    s->sp = s->params;
    s->sp.arena_nodes = arena_nodes(s);
    for (int i = 0; i < s->threads; i++) {
        Worker *w = &s->workers[i];
        w->s = s;
        w->index = i;
        w->m = mcts_create(s->v, s->e, &s->sp);
        w->pos = malloc(sizeof *w->pos);
        w->result = malloc(sizeof *w->result);
        rng_init(&w->rng, rng_game_seed(1, (uint64_t)i));
        w->filled = false;
        s->nworkers = i + 1;
        if (!w->m || !w->pos || !w->result) {
            free_workers(s);
            return fail(err, "out of memory for the search trees (Hash %d MiB over %d threads); "
                        "lower Hash", s->hash_mb, s->threads);
        }
    }
    s->dirty = false;
    return 0;
}

void session_new_game(Session *s)
{
    for (int i = 0; i < s->nworkers; i++)
        mcts_reset(s->workers[i].m);
    s->tree_valid = false;
}

/* Brings each tree to the current game: follows the moves played since the last search when
 * the game is that one continued, else starts afresh (mcts_search checks the match again). */
static void sync_trees(Session *s)
{
    int extra = s->nmoves - s->tree_nmoves;
    bool follows = s->tree_valid && !strcmp(s->tree_fen, s->root_fen) && extra >= 0 &&
                   extra <= MAX_PENDING_ADVANCE &&
                   !memcmp(s->tree_moves, s->moves, (size_t)s->tree_nmoves * sizeof *s->moves);
    for (int i = 0; i < s->nworkers; i++) {
        /* A tree that filled its arena would leave the next search no room: it starts afresh. */
        if (!follows || s->workers[i].filled) {
            mcts_reset(s->workers[i].m);
            s->workers[i].filled = false;
            continue;
        }
        for (int k = 0; k < extra; k++)
            mcts_advance(s->workers[i].m, s->moves[s->tree_nmoves + k]);
    }
    snprintf(s->tree_fen, sizeof s->tree_fen, "%s", s->root_fen);
    memcpy(s->tree_moves, s->moves, (size_t)s->nmoves * sizeof *s->moves);
    s->tree_nmoves = s->nmoves;
    s->tree_valid = true;
}

/* ---- creation and settings ------------------------------------------------------------------ */

/* The evaluator for rule set v: the user's weights file, "none" (every weight at its default),
 * or without one the nearest shipped weights file for the search in force (eval/weights_choice.h),
 * as the other commands choose it. *describe gets the choice in one line. */
static int load_evaluator(Session *s, const Variant *v, const char *weights_arg, Evaluator **out,
                          char *describe, size_t describe_size, char *err)
{
    WeightsChoice choice;
    memset(&choice, 0, sizeof choice);
    XqError e;
    if (!weights_arg || !*weights_arg) {
        char wdir[1100], vdir[1100];
        snprintf(wdir, sizeof wdir, "%s/weights", s->config_dir);
        snprintf(vdir, sizeof vdir, "%s/variants", s->config_dir);
        WeightsUse use = s->params.search == SEARCH_MCTS ? WEIGHTS_FOR_MCTS : WEIGHTS_FOR_DEFAULT;
        if (weights_choose(v, wdir, vdir, use, &choice, &e) != 0) {
            char msg[SESSION_ERR_MAX];
            xq_error_format(&e, msg, sizeof msg);
            return fail(err, "weights: %s", msg);
        }
    } else if (!strcmp(weights_arg, "none")) {
        choice.how = WEIGHTS_OFF;
    } else {
        choice.how = WEIGHTS_GIVEN;
        snprintf(choice.path, sizeof choice.path, "%s", weights_arg);
    }
    *out = eval_create(v, choice.path[0] ? choice.path : NULL, &e);
    if (!*out) {
        char msg[SESSION_ERR_MAX];
        xq_error_format(&e, msg, sizeof msg);
        return fail(err, "weights: %s", msg);
    }
    if (choice.how == WEIGHTS_GIVEN) {
        Evaluator *bare = eval_create(v, NULL, &e);
        if (bare && weights_fit(bare, choice.path, &choice.fit, &e) != 0)
            memset(&choice.fit, 0, sizeof choice.fit);
        eval_free(bare);
    }
    weights_describe(&choice, *out, describe, describe_size);
    return 0;
}

static Variant *load_variant(const Session *s, const char *arg, char *err)
{
    char path[1200];
    const char *file = arg;
    if (!strchr(arg, '/') && !strstr(arg, ".ini")) {
        snprintf(path, sizeof path, "%s/variants/%s.ini", s->config_dir, arg);
        if (!file_exists(path)) {
            fail(err, "unknown rule set '%s' (no %s; the UCI_Variant option lists the shipped ones)",
                 arg, path);
            return NULL;
        }
        file = path;
    }
    XqError e;
    Variant *v = variant_load_file(file, &e);
    if (!v) {
        char msg[SESSION_ERR_MAX];
        xq_error_format(&e, msg, sizeof msg);
        fail(err, "%s", msg);
    }
    return v;
}

Session *session_create(const SessionConfig *cfg, EngineOutput *out, char *err)
{
    Session *s = calloc(1, sizeof *s);
    if (!s) {
        fail(err, "out of memory");
        return NULL;
    }
    s->out = out;
    snprintf(s->config_dir, sizeof s->config_dir, "%s", cfg->config_dir);
    if (cfg->params)
        s->params = *cfg->params;
    else
        params_default(&s->params);
    s->threads = 1;
    s->hash_mb = DEFAULT_HASH_MB;
    s->overhead_ms = 30;
    s->info_interval_ms = 1000;
    s->dirty = true;
    atomic_init(&s->stop, false);
    s->pos = malloc(sizeof *s->pos);
    s->scratch = malloc(sizeof *s->scratch);
    s->moves = malloc(XQ_MAX_HISTORY * sizeof *s->moves);
    s->tree_moves = malloc(XQ_MAX_HISTORY * sizeof *s->tree_moves);
    if (!s->pos || !s->scratch || !s->moves || !s->tree_moves ||
        pthread_mutex_init(&s->lock, NULL) != 0) {
        fail(err, "out of memory");
        free(s->pos);
        free(s->scratch);
        free(s->moves);
        free(s->tree_moves);
        free(s);
        return NULL;
    }
    pthread_cond_init(&s->cond, NULL);
    list_variants(s);
    if (cfg->weights)
        snprintf(s->weights_arg, sizeof s->weights_arg, "%s", cfg->weights);
    s->v = load_variant(s, cfg->variant ? cfg->variant : "xiangqi", err);
    if (!s->v || load_evaluator(s, s->v, s->weights_arg, &s->e, s->weights_line,
                                sizeof s->weights_line, err) != 0) {
        session_free(s);
        return NULL;
    }
    pos_init_start(s->pos, s->v);
    s->valid = true;
    return s;
}

void session_free(Session *s)
{
    if (!s)
        return;
    session_abort(s);
    free_workers(s);
    eval_free(s->e);
    variant_free(s->v);
    for (int i = 0; i < s->nnames; i++)
        free((char *)s->names[i]);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s->pos);
    free(s->scratch);
    free(s->moves);
    free(s->tree_moves);
    free(s);
}

int session_set_variant(Session *s, const char *name_or_path, char *err)
{
    Variant *v = load_variant(s, name_or_path, err);
    if (!v)
        return -1;
    Evaluator *e = NULL;
    char line[sizeof s->weights_line];
    if (load_evaluator(s, v, s->weights_arg, &e, line, sizeof line, err) != 0) {
        /* The user's weights name features this rule set lacks: the nearest shipped weights
         * are used, and the message says so. */
        char why[SESSION_ERR_MAX];
        snprintf(why, sizeof why, "%s", err);
        if (load_evaluator(s, v, "", &e, line, sizeof line, err) != 0) {
            variant_free(v);
            return -1;
        }
        fail(err, "WeightsFile does not fit rule set %s (%s); using the nearest shipped weights "
             "instead", v->name, why);
        s->weights_arg[0] = '\0';
    } else if (err) {
        err[0] = '\0';
    }
    free_workers(s);
    eval_free(s->e);
    variant_free(s->v);
    s->v = v;
    s->e = e;
    snprintf(s->weights_line, sizeof s->weights_line, "%s", line);
    s->dirty = true;
    s->root_fen[0] = '\0';
    s->nmoves = 0;
    pos_init_start(s->pos, s->v);
    s->valid = true;
    s->error[0] = '\0';
    return err && err[0] ? 1 : 0;
}

const Variant *session_variant(const Session *s) { return s->v; }

int session_variant_names(const Session *s, const char *const **names)
{
    *names = s->names;
    return s->nnames;
}

int session_set_weights(Session *s, const char *path, char *err)
{
    Evaluator *e = NULL;
    char line[sizeof s->weights_line];
    if (load_evaluator(s, s->v, path ? path : "", &e, line, sizeof line, err) != 0)
        return -1;
    free_workers(s);
    eval_free(s->e);
    s->e = e;
    snprintf(s->weights_line, sizeof s->weights_line, "%s", line);
    s->dirty = true;
    snprintf(s->weights_arg, sizeof s->weights_arg, "%s", path ? path : "");
    return 0;
}

const char *session_weights(const Session *s) { return s->weights_arg; }
const char *session_weights_line(const Session *s) { return s->weights_line; }

int session_set_param(Session *s, const char *key, const char *value, char *err)
{
    XqError e;
    int search = s->params.search;
    if (params_set(&s->params, key, value, &e) != 0)
        return fail(err, "%s", e.message);
    s->dirty = true; /* the workers read a copy */
    /* The nearest shipped weights depend on the search (a rule set may ship NAME-mcts.ini). */
    if (s->params.search != search && !s->weights_arg[0] && session_set_weights(s, "", err) != 0) {
        s->params.search = search;
        return -1;
    }
    return 0;
}

const SearchParams *session_params(const Session *s) { return &s->params; }

static int set_int(int *slot, int value, int lo, int hi, const char *what, bool *dirty, char *err)
{
    if (value < lo || value > hi)
        return fail(err, "%s: expected an integer from %d to %d, not %d", what, lo, hi, value);
    if (*slot != value && dirty)
        *dirty = true;
    *slot = value;
    return 0;
}

int session_set_threads(Session *s, int threads, char *err)
{
    return set_int(&s->threads, threads, 1, MAX_THREADS, "Threads", &s->dirty, err);
}

int session_set_hash_mb(Session *s, int mb, char *err)
{
    /* The largest arena a thread may have: 2^28 nodes. */
    int max = (int)(((long long)1 << 28) * MCTS_NODE_BYTES / (1024 * 1024));
    return set_int(&s->hash_mb, mb, 1, max, "Hash", &s->dirty, err);
}

int session_threads(const Session *s) { return s->threads; }
int session_hash_mb(const Session *s) { return s->hash_mb; }

int session_set_overhead(Session *s, int ms, char *err)
{
    return set_int(&s->overhead_ms, ms, 0, 10000, "MoveOverhead", NULL, err);
}

int session_overhead(const Session *s) { return s->overhead_ms; }

int session_set_info_interval(Session *s, int ms, char *err)
{
    return set_int(&s->info_interval_ms, ms, 10, 60000, "InfoInterval", NULL, err);
}

int session_info_interval(const Session *s) { return s->info_interval_ms; }

/* ---- the game ------------------------------------------------------------------------------- */

/* Rewrites the ranks of move text between bases: every run of digits after a lowercase file
 * letter is a rank ("a0a1R", "b1b4*k", "R@e5", "e3e4+g3g4"); piece letters are never followed
 * by digits. Returns -1 if a rank would become negative. */
static int shift_ranks(const char *in, int delta, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = in; *p && n + 4 < size;) {
        if (islower((unsigned char)*p) && isdigit((unsigned char)p[1])) {
            out[n++] = *p++;
            long r = strtol(p, (char **)&p, 10) + delta;
            if (r < 0)
                return -1;
            n += (size_t)snprintf(out + n, size - n, "%ld", r);
            continue;
        }
        out[n++] = *p++;
    }
    out[n] = '\0';
    return 0;
}

void session_move_text(const Variant *v, Move m, int rank_base, char *buf)
{
    char text[32];
    move_to_iccs(v, m, text);
    size_t len = strlen(text);
    if (len > 0 && text[len - 1] == '?')
        text[len - 1] = '\0'; /* an undrawn reveal: the GUI or referee draws the identity */
    if (rank_base == 0 || shift_ranks(text, rank_base, buf, 32) != 0)
        snprintf(buf, 32, "%s", text);
}

/* Parses one move of the game at `pos`: checks it and says what is wrong. */
static Move parse_game_move(Position *pos, const char *text, int rank_base, char *why, size_t size)
{
    char native[64];
    if (strlen(text) >= 40) {
        snprintf(why, size, "not a move (too long)");
        return XQ_MOVE_NONE;
    }
    if (rank_base != 0 && shift_ranks(text, -rank_base, native, sizeof native) != 0) {
        snprintf(why, size, "rank 0 is not on the board: ranks count from %d (RanksFromOne)",
                 rank_base);
        return XQ_MOVE_NONE;
    }
    if (rank_base == 0)
        snprintf(native, sizeof native, "%s", text);
    char reason[XQ_MSG_MAX];
    Move m = move_parse(pos, native, reason, sizeof reason);
    if (m == XQ_MOVE_NONE) {
        snprintf(why, size, "%s", reason);
        return XQ_MOVE_NONE;
    }
    if (hidden_on(pos->v) && hidden_is_chance(pos, m)) {
        snprintf(why, size, "a reveal must name the identity turned up (e.g. a0a1R, c3c3n)");
        return XQ_MOVE_NONE;
    }
    return m;
}

int session_set_position(Session *s, const char *fen, char *const *moves, int nmoves,
                         int rank_base, char *err)
{
    Position *p = s->scratch;
    s->valid = false;
    if (fen) {
        XqError e;
        if (pos_set_fen(p, s->v, fen, &e) != 0) {
            snprintf(s->error, sizeof s->error, "bad FEN '%s': %s", fen, e.message);
            return fail(err, "%s", s->error);
        }
    } else {
        pos_init_start(p, s->v);
    }
    if (nmoves > GAME_MAX) {
        snprintf(s->error, sizeof s->error, "%d moves: a game may have at most %d", nmoves,
                 GAME_MAX);
        return fail(err, "%s", s->error);
    }
    for (int i = 0; i < nmoves; i++) {
        char why[XQ_MSG_MAX];
        Move m = parse_game_move(p, moves[i], rank_base, why, sizeof why);
        if (m == XQ_MOVE_NONE) {
            snprintf(s->error, sizeof s->error, "move %d '%s': %s", i + 1, moves[i], why);
            return fail(err, "%s", s->error);
        }
        Undo u;
        pos_do_move(p, m, &u);
        s->moves[i] = m;
    }
    *s->pos = *p;
    s->nmoves = nmoves;
    snprintf(s->root_fen, sizeof s->root_fen, "%s", fen ? fen : "");
    s->valid = true;
    s->error[0] = '\0';
    return 0;
}

void session_invalidate(Session *s, const char *why)
{
    s->valid = false;
    snprintf(s->error, sizeof s->error, "%s", why);
}

int session_play(Session *s, const char *text, int rank_base, char *err)
{
    if (!s->valid)
        return fail(err, "no position to play '%s' in: %s", text, s->error);
    if (s->nmoves >= GAME_MAX)
        return fail(err, "'%s': a game may have at most %d moves", text, GAME_MAX);
    char why[XQ_MSG_MAX];
    Move m = parse_game_move(s->pos, text, rank_base, why, sizeof why);
    if (m == XQ_MOVE_NONE)
        return fail(err, "'%s': %s", text, why);
    session_push_move(s, m);
    return 0;
}

void session_push_move(Session *s, Move m)
{
    Undo u;
    pos_do_move(s->pos, m, &u);
    s->moves[s->nmoves++] = m;
}

int session_undo(Session *s, int n)
{
    if (!s->valid || n > s->nmoves)
        return -1;
    Position *p = s->scratch;
    XqError e;
    if (s->root_fen[0] ? pos_set_fen(p, s->v, s->root_fen, &e) != 0 : (pos_init_start(p, s->v), 0))
        return -1;
    for (int i = 0; i < s->nmoves - n; i++) {
        Undo u;
        pos_do_move(p, s->moves[i], &u);
    }
    *s->pos = *p;
    s->nmoves -= n;
    return 0;
}

const Position *session_position(const Session *s) { return s->valid ? s->pos : NULL; }
const char *session_position_error(const Session *s) { return s->valid ? "" : s->error; }
int session_game_length(const Session *s) { return s->nmoves; }

GameStatus session_status(Session *s)
{
    GameStatus none = {RESULT_NONE, TERM_NONE};
    return s->valid ? pos_game_status(s->pos) : none;
}

int session_value_cp(const Session *s, float value)
{
    return score_value_cp(value, s->params.eval_scale);
}

/* ---- searching ------------------------------------------------------------------------------ */

/* Fills the progress report from the first thread's view and every thread's playout count. */
/* Plies of the line whose nodes were searched below (a node visited once was only evaluated). */
static int searched_depth(const uint32_t *visits, int n)
{
    int d = 0;
    while (d < n && visits[d] >= 2)
        d++;
    return d;
}

static void worker_report(Session *s, const SearchInfo *info, EngineReport *r)
{
    memset(r, 0, sizeof *r);
    int total = 0;
    for (int i = 0; i < s->nworkers; i++)
        total += atomic_load(&s->workers[i].playouts);
    r->playouts = total;
    r->seconds = now_seconds() - s->t_go;
    r->playouts_per_second = r->seconds > 0 ? total / r->seconds : 0;
    r->value = info->value;
    r->proven = info->proven;
    r->proven_plies = info->proven_plies;
    r->arena_permille = info->arena_permille;
    r->pv_len = info->pv_len;
    memcpy(r->pv, info->pv, (size_t)info->pv_len * sizeof *r->pv);
    r->depth = info->depth > 0 ? info->depth : searched_depth(info->pv_visits, info->pv_len);
    r->best = info->pv_len > 0 ? info->pv[0] : XQ_MOVE_NONE;
}

static void on_worker_info(const SearchInfo *info, void *user)
{
    Worker *w = user;
    Session *s = w->s;
    atomic_store(&w->playouts, info->playouts);
    atomic_store(&w->arena_permille, info->arena_permille);
    if (w->index != 0)
        return;
    int depth = info->depth > 0 ? info->depth : searched_depth(info->pv_visits, info->pv_len);
    if (s->limits.depth > 0 && depth >= s->limits.depth)
        atomic_store(&s->stop, true);
    double now = now_seconds();
    if (s->cb.info && now >= s->next_print) {
        s->next_print = now + 1e-3 * s->info_interval_ms;
        EngineReport r;
        worker_report(s, info, &r);
        s->cb.info(s->cb.user, &r);
    }
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Session *s = w->s;
    SearchControl c = SEARCH_CONTROL_INIT;
    c.stop = &s->stop;
    c.info = on_worker_info;
    c.info_user = w;
    c.info_interval_ms = WORKER_INFO_MS;
    c.clock_share = s->limits.time.clock && s->limits.time.movetime_ms <= 0;
    if (s->limits.nodes > 0)
        c.max_playouts = s->limits.nodes / s->nworkers + (w->index < s->limits.nodes % s->nworkers);
    mcts_set_control(w->m, &c);
    w->rc = mcts_search(w->m, w->pos, &w->rng, false, w->result);
    w->filled = w->rc == 0 && w->result->truncated;
    atomic_store(&w->playouts, w->rc == 0 ? w->result->playouts : 0);
    mcts_set_control(w->m, NULL);
    return NULL;
}

/* Sums the threads' root statistics. A thread that proved the result decides it; otherwise
 * the move with the most visits over all threads is played. */
static void merge_results(Session *s, EngineReport *r)
{
    memset(r, 0, sizeof *r);
    r->best = XQ_MOVE_NONE;
    const SearchResult *first = s->workers[0].result;
    if (s->workers[0].rc != 0)
        return;
    const SearchResult *decided = NULL;
    int playouts = 0;
    double value_sum = 0, weight = 0;
    for (int i = 0; i < s->nworkers; i++) {
        const SearchResult *x = s->workers[i].result;
        playouts += x->playouts;
        value_sum += (double)x->value * x->visits;
        weight += x->visits;
        if (x->proven && !decided)
            decided = x;
        r->truncated |= x->truncated;
    }
    r->playouts = playouts;
    r->seconds = now_seconds() - s->t_go;
    r->playouts_per_second = r->seconds > 0 ? playouts / r->seconds : 0;
    r->arena_permille = atomic_load(&s->workers[0].arena_permille);
    if (decided || s->nworkers == 1) {
        const SearchResult *x = decided ? decided : first;
        r->best = x->best;
        r->value = x->value;
        r->proven = x->proven;
        r->proven_plies = x->proven_plies;
        r->pv_len = x->pv_len;
        memcpy(r->pv, x->pv, (size_t)x->pv_len * sizeof *r->pv);
        r->depth = x->depth > 0 ? x->depth : searched_depth(x->pv_visits, x->pv_len);
        return;
    }
    /* Every thread searched the same position: the children come in the same order. */
    int best = 0;
    uint64_t best_visits = 0;
    for (int k = 0; k < first->nchildren; k++) {
        uint64_t sum = 0;
        for (int i = 0; i < s->nworkers; i++)
            sum += s->workers[i].result->child_visits[k];
        if (sum > best_visits) {
            best_visits = sum;
            best = k;
        }
    }
    r->best = first->moves[best];
    r->value = weight > 0 ? (float)(value_sum / weight) : first->value;
    for (int i = 0; i < s->nworkers; i++) {
        const SearchResult *x = s->workers[i].result;
        if (x->pv_len > 0 && x->pv[0] == r->best && x->pv_len > r->pv_len) {
            r->pv_len = x->pv_len;
            memcpy(r->pv, x->pv, (size_t)x->pv_len * sizeof *r->pv);
            r->depth = x->depth > 0 ? x->depth : searched_depth(x->pv_visits, x->pv_len);
        }
    }
    if (r->pv_len == 0) {
        r->pv_len = 1;
        r->pv[0] = r->best;
    }
}

static void *search_main(void *arg)
{
    Session *s = arg;
    for (int i = 1; i < s->nworkers; i++)
        if (pthread_create(&s->workers[i].thread, NULL, worker_main, &s->workers[i]) != 0) {
            s->workers[i].rc = -1;
            worker_main(&s->workers[i]); /* no thread: run it here, after the others */
            s->workers[i].thread = pthread_self();
        }
    worker_main(&s->workers[0]);
    for (int i = 1; i < s->nworkers; i++)
        if (!pthread_equal(s->workers[i].thread, pthread_self()))
            pthread_join(s->workers[i].thread, NULL);
    EngineReport r;
    merge_results(s, &r);
    pthread_mutex_lock(&s->lock);
    /* An infinite search answers only when told to, even if its tree is full or proven. */
    while (s->limits.infinite && !atomic_load(&s->stop))
        pthread_cond_wait(&s->cond, &s->lock);
    if (s->cb.done)
        s->cb.done(s->cb.user, &r, s->aborted);
    s->searching = false;
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void join_thread(Session *s)
{
    if (s->thread_live) {
        pthread_join(s->thread, NULL);
        s->thread_live = false;
    }
}

int session_go(Session *s, const EngineLimits *limits, const SessionCallbacks *cb, char *err)
{
    double t_go = now_seconds();
    if (session_searching(s))
        return fail(err, "already searching (send stop first)");
    join_thread(s);
    if (!s->valid)
        return fail(err, "no position to search: %s", s->error);
    int legal = pos_count_legal(s->pos);
    if (legal == 0) {
        char status[128];
        game_status_format(pos_game_status(s->pos), status, sizeof status);
        return fail(err, "no legal move: %s", status);
    }
    if (s->pos->hist_len >= GAME_MAX)
        return fail(err, "the game is too long to search (%d plies)", s->pos->hist_len);
    if (session_prepare(s, err) != 0)
        return -1;
    sync_trees(s);

    /* The budget of this search, in the parameters the workers read. */
    s->limits = *limits;
    s->sp = s->params;
    s->sp.arena_nodes = arena_nodes(s);
    int64_t budget = timeman_budget(&limits->time, s->overhead_ms);
    s->sp.movetime = 0;
    if (budget > 0) {
        int64_t left = budget - (int64_t)((now_seconds() - t_go) * 1000.0);
        s->sp.movetime = (int)(left < 1 ? 1 : left > 86400000 ? 86400000 : left);
    } else if (limits->nodes > 0 || limits->infinite || limits->depth > 0) {
        s->sp.playouts = INT_MAX; /* the control's cap, the depth or stop end it */
    } else if (s->params.movetime > 0) {
        s->sp.movetime = s->params.movetime; /* no limits given: the parameters' budget */
    } else if (s->params.search != SEARCH_AB) {
        s->limits.nodes = s->params.playouts; /* split over the threads as a playout cap */
        s->sp.playouts = INT_MAX;
    } /* else search = ab: ab_depth plies */
    for (int i = 0; i < s->nworkers; i++) {
        Worker *w = &s->workers[i];
        memcpy(w->pos, s->pos, sizeof *w->pos);
        atomic_init(&w->playouts, 0);
        atomic_init(&w->arena_permille, 0);
        w->rc = 0;
    }
    s->cb = *cb;
    s->t_go = t_go;
    s->next_print = t_go + 1e-3 * s->info_interval_ms;
    atomic_store(&s->stop, false);
    s->aborted = false;
    s->searching = true;
    if (pthread_create(&s->thread, NULL, search_main, s) != 0) {
        s->searching = false;
        return fail(err, "cannot start the search thread (%s)", strerror(errno));
    }
    s->thread_live = true;
    return 0;
}

bool session_searching(Session *s)
{
    pthread_mutex_lock(&s->lock);
    bool busy = s->searching;
    pthread_mutex_unlock(&s->lock);
    return busy;
}

static void end_search(Session *s, bool abort)
{
    pthread_mutex_lock(&s->lock);
    if (s->searching) {
        if (abort)
            s->aborted = true;
        atomic_store(&s->stop, true);
        pthread_cond_broadcast(&s->cond);
    }
    pthread_mutex_unlock(&s->lock);
    join_thread(s);
}

void session_stop(Session *s) { end_search(s, false); }
void session_abort(Session *s) { end_search(s, true); }

void session_wait(Session *s)
{
    join_thread(s);
}
