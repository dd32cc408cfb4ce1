/* label.c - a teacher engine's scores as the root values of a copy of a dataset. */
#include "label.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hidden.h"
#include "notation.h"
#include "position.h"
#include "subprocess.h"

/* Games read, labelled by the teacher processes and written (then committed) together. */
enum { LABEL_BATCH_PER_THREAD = 8, LABEL_PARAMS_MAX = 16384 };

float label_value(const UciScore *sc, double eval_scale)
{
    if (sc->mate)
        return sc->value > 0 ? 1.0f : -1.0f;
    return (float)tanh(sc->value / 100.0 / eval_scale);
}

typedef struct Shared {
    const LabelOptions *o;
    const Variant *v;
    GameRecord *games;
    int ngames;
    UciEngine *engines;          /* one per thread, kept across batches */
    atomic_int next;             /* next game of the batch to take */
    atomic_bool failed;
    pthread_mutex_t lock;
    XqError err;                 /* the first failure */
    uint64_t labelled, mates, restarts;
} Shared;

static void shared_fail(Shared *sh, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void shared_fail(Shared *sh, const char *file, const char *fmt, ...)
{
    pthread_mutex_lock(&sh->lock);
    if (!atomic_load(&sh->failed)) {
        va_list ap;
        va_start(ap, fmt);
        snprintf(sh->err.file, sizeof sh->err.file, "%s", file);
        sh->err.line = 0;
        vsnprintf(sh->err.message, sizeof sh->err.message, fmt, ap);
        va_end(ap);
        atomic_store(&sh->failed, true);
    }
    pthread_mutex_unlock(&sh->lock);
}

/* Ends a failed teacher and starts it again (counted). */
static UciStatus restart(Shared *sh, UciEngine *e)
{
    uci_engine_quit(e);
    UciStatus st = uci_engine_start(e, sh->o->teacher, sh->o->stop);
    if (st == UCI_OK)
        st = uci_engine_new_game(e, sh->o->stop);
    pthread_mutex_lock(&sh->lock);
    sh->restarts++;
    pthread_mutex_unlock(&sh->lock);
    return st;
}

/* The teacher's score of the position after `nmoves` of the game's moves; one retry with a fresh
 * process if the teacher fails. 0, 1 if stopped, -1 after a failure (sh->err). */
static int score_position(Shared *sh, UciEngine *e, const GameRecord *g, const char *const *moves,
                          int nmoves, UciScore *sc)
{
    const LabelOptions *o = sh->o;
    const char *fen = g->start_fen[0] ? g->start_fen : NULL;
    char best[64];
    for (int attempt = 0; attempt < 2; attempt++) {
        double deadline = subprocess_now() + o->timeout;
        UciStatus st = uci_engine_analyse(e, fen, moves, nmoves, o->limit, deadline, best, sizeof best, sc, o->stop);
        if (st == UCI_STOPPED)
            return 1;
        if (st == UCI_OK && sc->have)
            return 0;
        char why[600];
        if (st == UCI_OK)
            snprintf(why, sizeof why, "the teacher (%s) answered bestmove %s without a score (info ... score cp N)",
                     e->name, best);
        else
            snprintf(why, sizeof why, "%s", e->detail);
        if (attempt == 1 || (st = restart(sh, e)) != UCI_OK) {
            shared_fail(sh, o->input, "game %llu, ply %d: %s%s", (unsigned long long)g->index, nmoves, why,
                        attempt == 1 ? " (twice, the second time after a restart)" : "");
            return -1;
        }
    }
    return -1;
}

/* Replays game g and labels its positions in place. 0, 1 if stopped, -1 on failure. */
static int label_game(Shared *sh, UciEngine *e, GameRecord *g)
{
    const LabelOptions *o = sh->o;
    const Variant *v = sh->v;
    Position *pos = malloc(sizeof *pos);
    char (*text)[16] = malloc(((size_t)g->nmoves + 1) * sizeof *text);
    const char **moves = malloc(((size_t)g->nmoves + 1) * sizeof *moves);
    int rc = 0;
    if (!pos || !text || !moves) {
        shared_fail(sh, o->input, "game %llu: out of memory", (unsigned long long)g->index);
        rc = -1;
        goto done;
    }
    XqError ferr;
    if (g->start_fen[0] && pos_set_fen(pos, v, g->start_fen, &ferr) != 0) {
        shared_fail(sh, o->input, "game %llu: start position '%s': %s", (unsigned long long)g->index, g->start_fen,
                    ferr.message);
        rc = -1;
        goto done;
    }
    if (!g->start_fen[0])
        pos_init_start(pos, v);
    if (g->npositions > g->nmoves) {
        shared_fail(sh, o->input, "game %llu: %d positions for %d moves", (unsigned long long)g->index,
                    g->npositions, g->nmoves);
        rc = -1;
        goto done;
    }
    UciStatus st = uci_engine_new_game(e, o->stop);
    if (st != UCI_OK && st != UCI_STOPPED && (st = restart(sh, e)) != UCI_OK && st != UCI_STOPPED) {
        shared_fail(sh, o->input, "game %llu: %s", (unsigned long long)g->index, e->detail);
        rc = -1;
        goto done;
    }
    if (st == UCI_STOPPED) {
        rc = 1;
        goto done;
    }
    uint64_t labelled = 0, mates = 0;
    for (int k = 0; k < g->nmoves; k++) {
        Move m = g->moves[k];
        if (!pos_move_is_legal(pos, m)) {
            char iccs[16];
            move_to_iccs(v, m, iccs);
            shared_fail(sh, o->input, "game %llu, ply %d: the move %s is not legal there (a damaged or foreign file)",
                        (unsigned long long)g->index, k, iccs);
            rc = -1;
            goto done;
        }
        move_to_iccs(v, m, text[k]);
        moves[k] = text[k];
        bool in_check = pos->in_check;
        int before = pos->count[RED] + pos->count[BLACK];
        Undo u;
        pos_do_move(pos, m, &u);
        bool capture = pos->count[RED] + pos->count[BLACK] < before;
        if (k >= g->npositions)
            continue;
        PositionRecord *p = &g->positions[k];
        if (p->played != m) {
            shared_fail(sh, o->input, "game %llu, ply %d: the position's move is not the game's move",
                        (unsigned long long)g->index, k);
            rc = -1;
            goto done;
        }
        if (!o->all_positions && (in_check || capture)) {
            p->root_value = NAN;
            continue;
        }
        UciScore sc;
        if ((rc = score_position(sh, e, g, moves, k, &sc)) != 0)
            goto done;
        p->root_value = label_value(&sc, o->eval_scale);
        labelled++;
        mates += sc.mate;
    }
    pthread_mutex_lock(&sh->lock);
    sh->labelled += labelled;
    sh->mates += mates;
    pthread_mutex_unlock(&sh->lock);
done:
    free(pos);
    free(text);
    free(moves);
    return rc;
}

typedef struct Worker {
    Shared *sh;
    int id;
    int rc;
} Worker;

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Shared *sh = w->sh;
    w->rc = 0;
    while (!atomic_load(&sh->failed)) {
        int i = atomic_fetch_add(&sh->next, 1);
        if (i >= sh->ngames)
            break;
        int rc = label_game(sh, &sh->engines[w->id], &sh->games[i]);
        if (rc != 0) {
            w->rc = rc;
            if (rc > 0)
                atomic_store(&sh->next, sh->ngames); /* stopped: no new game */
            break;
        }
    }
    return NULL;
}

static int fail(XqError *err, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(XqError *err, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    snprintf(err->file, sizeof err->file, "%s", file);
    err->line = 0;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

int label_dataset(const LabelOptions *o, LabelStats *stats, XqError *err)
{
    memset(stats, 0, sizeof *stats);
    double t0 = subprocess_now();
    int threads = o->threads < 1 ? 1 : o->threads;
    int rc = -1;
    Variant *v = NULL;
    DatasetWriter *w = NULL;
    char *params = NULL;
    GameRecord *games = NULL;
    Shared sh;
    memset(&sh, 0, sizeof sh);
    pthread_mutex_init(&sh.lock, NULL);
    sh.o = o;
    sh.engines = calloc((size_t)threads, sizeof *sh.engines);
    DatasetReader *r = dsr_open(o->input, err);
    if (!r || !sh.engines) {
        if (r)
            fail(err, o->input, "out of memory");
        goto done;
    }
    const DatasetSummary *s = dsr_summary(r);
    if (!(v = variant_load_text(s->variant_text, o->input, err)))
        goto done;
    sh.v = v;
    if (hidden_on(v)) {
        fail(err, o->input, "%s has face-down pieces: a teacher over UCI would see only the revealed board, "
                            "so its values would not be values of the positions the tuner reads", v->name);
        goto done;
    }
    /* Every teacher is started (and its rule set checked) before the output is touched. */
    for (int t = 0; t < threads; t++) {
        UciStatus st = uci_engine_start(&sh.engines[t], o->teacher, o->stop);
        if (st != UCI_OK) {
            fail(err, o->teacher->command, "the teacher did not start: %s", sh.engines[t].detail);
            goto done;
        }
    }
    snprintf(stats->teacher_name, sizeof stats->teacher_name, "%s", sh.engines[0].name);
    /* The output records the teacher next to the player's settings, so that a resume with another
     * teacher, limit or scale is refused and the file says what its root values are. */
    params = malloc(LABEL_PARAMS_MAX);
    if (!params) {
        fail(err, o->input, "out of memory");
        goto done;
    }
    snprintf(params, LABEL_PARAMS_MAX,
             "%s%steacher = %s\nteacher_command = %s\nteacher_limit = %s\nteacher_eval_scale = %g\n"
             "teacher_positions = %s\n",
             s->params_text ? s->params_text : "",
             s->params_text && s->params_text[0] && s->params_text[strlen(s->params_text) - 1] != '\n' ? "\n" : "",
             sh.engines[0].name, o->teacher->command, o->limit, o->eval_scale,
             o->all_positions ? "all" : "quiet (not in check, the move played does not capture)");
    DatasetMeta meta = {
        .variant_name = s->variant_name, .variant_text = s->variant_text,
        .weights_text = s->weights_text ? s->weights_text : "", .params_text = params,
        .command_line = o->command_line, .base_seed = s->base_seed, .shard_index = s->shard_index,
        .shard_count = s->shard_count, .first_game = s->first_game, .game_count = s->game_count,
        .npoints = s->npoints, .start_text = s->start_text, .run_games = s->run_games,
    };
    uint64_t done_games = 0;
    if (!(w = dsw_open(o->output, &meta, o->resume, &done_games, err)))
        goto done;
    if (done_games > s->ngames) {
        fail(err, o->output, "its interrupted run holds %llu games, more than the %llu of %s: not a labelling of it",
             (unsigned long long)done_games, (unsigned long long)s->ngames, o->input);
        goto done;
    }
    stats->resumed_games = done_games;
    int batch = threads * LABEL_BATCH_PER_THREAD;
    games = calloc((size_t)batch, sizeof *games);
    if (!games) {
        fail(err, o->input, "out of memory");
        goto done;
    }
    double last_report = t0;
    uint64_t positions_done = 0;
    for (uint64_t first = done_games; first < s->ngames;) {
        int n = (int)(s->ngames - first < (uint64_t)batch ? s->ngames - first : (uint64_t)batch);
        for (int i = 0; i < n; i++)
            if (dsr_read_game(r, first + (uint64_t)i, &games[i], err) != 0) {
                for (int j = 0; j < i; j++)
                    game_record_free(&games[j]);
                goto done;
            }
        sh.games = games;
        sh.ngames = n;
        atomic_store(&sh.next, 0);
        pthread_t tid[256];
        Worker wk[256];
        int nt = threads < n ? threads : n;
        if (nt > 256)
            nt = 256;
        int started = 0;
        for (int t = 0; t < nt; t++) {
            wk[t] = (Worker){&sh, t, 0};
            if (pthread_create(&tid[t], NULL, worker_main, &wk[t]) != 0)
                break;
            started++;
        }
        if (started == 0)
            worker_main(&wk[0]);
        bool stopped = false;
        for (int t = 0; t < started; t++) {
            pthread_join(tid[t], NULL);
            stopped |= wk[t].rc > 0;
        }
        if (started == 0)
            stopped = wk[0].rc > 0;
        if (atomic_load(&sh.failed)) {
            *err = sh.err;
            for (int i = 0; i < n; i++)
                game_record_free(&games[i]);
            goto done;
        }
        if (stopped) {
            for (int i = 0; i < n; i++)
                game_record_free(&games[i]);
            stats->stopped = true;
            break;
        }
        int append_rc = 0;
        for (int i = 0; i < n; i++) {
            if (append_rc == 0)
                append_rc = dsw_append(w, &games[i], err);
            positions_done += (uint64_t)games[i].npositions;
            game_record_free(&games[i]);
        }
        if (append_rc != 0 || dsw_flush(w, err) != 0)
            goto done;
        first += (uint64_t)n;
        stats->games = first;
        double now = subprocess_now();
        if (o->progress && (now - last_report >= 5 || first == s->ngames)) {
            double rate = (double)(first - done_games) / (now - t0);
            fprintf(stderr, "xqlab label: games %llu/%llu  %llu positions labelled  %.1f games/s  ETA %.0f s\n",
                    (unsigned long long)first, (unsigned long long)s->ngames, (unsigned long long)sh.labelled,
                    rate, rate > 0 ? (double)(s->ngames - first) / rate : 0.0);
            last_report = now;
        }
    }
    stats->labelled = sh.labelled;
    stats->mates = sh.mates;
    stats->restarts = sh.restarts;
    stats->positions = positions_done;
    if (stats->stopped) {
        int arc = dsw_abandon(w, err);
        w = NULL;
        rc = arc == 0 ? 1 : -1;
        goto done;
    }
    int crc = dsw_close(w, err);
    w = NULL;
    rc = crc == 0 ? 0 : -1;
done:
    if (w) {
        XqError ignored;
        dsw_abandon(w, &ignored); /* OUTPUT.tmp stays: --resume continues it */
    }
    if (sh.engines)
        for (int t = 0; t < threads; t++)
            uci_engine_quit(&sh.engines[t]);
    free(sh.engines);
    free(games);
    free(params);
    variant_free(v);
    dsr_close(r);
    pthread_mutex_destroy(&sh.lock);
    stats->seconds = subprocess_now() - t0;
    return rc;
}
