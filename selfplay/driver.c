/* driver.c - OpenMP game workers feeding one ordered writer thread. */
#include "driver.h"

#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A finished game waiting for its turn to be written. Arrays are owned copies. */
typedef struct Slot {
    bool ready;
    GameRecord game;
    GameStats stats;
} Slot;

typedef struct Shared {
    const SelfplayOptions *o;
    pthread_mutex_t lock;
    pthread_cond_t ready;      /* a slot became ready, or the workers finished */
    pthread_cond_t space;      /* the writer freed a slot */
    Slot *slots;
    uint64_t capacity;
    uint64_t next_write;       /* game index the writer waits for */
    uint64_t end;              /* one past the last game index */
    _Atomic uint64_t next_claim;
    _Atomic uint64_t playouts;
    _Atomic uint64_t searches;
    _Atomic uint64_t truncated_searches; /* searches stopped early by a full arena */
    bool workers_done;
    atomic_bool failed;        /* a worker or the writer failed: stop everything */
    XqError error;
    DatasetWriter *writer;
    RunTotals *totals;
    double write_seconds;
    double start_time;
    uint64_t first_index;      /* first game index of this session */
} Shared;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void set_failure(Shared *s, const XqError *err)
{
    pthread_mutex_lock(&s->lock);
    if (!atomic_load(&s->failed) && err)
        s->error = *err;
    atomic_store(&s->failed, true);
    pthread_cond_broadcast(&s->ready);
    pthread_cond_broadcast(&s->space);
    pthread_mutex_unlock(&s->lock);
}

static void *copy_array(const void *src, size_t n, size_t size)
{
    void *p = malloc(n ? n * size : 1);
    if (p && n)
        memcpy(p, src, n * size);
    return p;
}

/* Deep copy of a game whose arrays point into a worker's reusable buffers. */
static int copy_game(GameRecord *dst, const GameRecord *src)
{
    *dst = *src;
    dst->moves = copy_array(src->moves, (size_t)src->nmoves, sizeof *src->moves);
    dst->positions = copy_array(src->positions, (size_t)src->npositions, sizeof *src->positions);
    dst->policy_moves = copy_array(src->policy_moves, (size_t)src->npolicy, sizeof *src->policy_moves);
    dst->policy_visits = copy_array(src->policy_visits, (size_t)src->npolicy, sizeof *src->policy_visits);
    if (!dst->moves || !dst->positions || !dst->policy_moves || !dst->policy_visits) {
        game_record_free(dst);
        return -1;
    }
    return 0;
}

static void format_duration(double s, char *buf, size_t size)
{
    if (s < 0 || s > 1e7)
        snprintf(buf, size, "--");
    else if (s >= 3600)
        snprintf(buf, size, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
    else
        snprintf(buf, size, "%dm%02ds", (int)(s / 60), (int)s % 60);
}

static void print_progress(Shared *s, bool live, bool final)
{
    const RunTotals *t = s->totals;
    uint64_t done_here = s->next_write - s->first_index;
    uint64_t total = s->o->games;
    uint64_t done = s->next_write - s->o->first_game;
    double elapsed = now_seconds() - s->start_time;
    double rate = elapsed > 0 ? (double)done_here / elapsed : 0;
    char eta[32];
    format_duration(rate > 0 ? (double)(total - done) / rate : -1, eta, sizeof eta);
    fprintf(stderr, "%sgames %llu/%llu  %.2f games/s  ETA %s  %s %llu/%llu/%llu%s",
            live ? "\r" : "", (unsigned long long)done, (unsigned long long)total, rate, eta,
            totals_results_label(s->o->variant),
            (unsigned long long)t->red_wins, (unsigned long long)t->draws,
            (unsigned long long)t->black_wins, live ? (final ? "\n" : "   ") : "\n");
    fflush(stderr);
}

static void *writer_main(void *arg)
{
    Shared *s = arg;
    const SelfplayOptions *o = s->o;
    bool live = o->progress == PROGRESS_LIVE, log = o->progress == PROGRESS_LOG;
    double last_report = now_seconds(), last_flush = last_report;
    int unflushed = 0;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        Slot *slot = &s->slots[s->next_write % s->capacity];
        if (atomic_load(&s->failed) || s->next_write >= s->end)
            break;
        if (!slot->ready) {
            if (s->workers_done)
                break;
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 250000000;
            if (until.tv_nsec >= 1000000000) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000;
            }
            pthread_cond_timedwait(&s->ready, &s->lock, &until);
        } else {
            GameRecord g = slot->game;
            GameStats gs = slot->stats;
            slot->ready = false;
            pthread_mutex_unlock(&s->lock);
            XqError err = {.file = "selfplay"};
            int rc = 0;
            double t0 = now_seconds();
            if (s->writer) {
                rc = dsw_append(s->writer, &g, &err);
                unflushed++;
                if (rc == 0 && (unflushed >= o->flush_games || t0 - last_flush > 2.0)) {
                    rc = dsw_flush(s->writer, &err);
                    unflushed = 0;
                    last_flush = now_seconds();
                }
            }
            s->write_seconds += now_seconds() - t0;
            int trc = totals_add(s->totals, &g, gs.would_resign_side);
            game_record_free(&g);
            pthread_mutex_lock(&s->lock);
            if (rc < 0 || trc < 0) {
                if (trc < 0)
                    snprintf(err.message, sizeof err.message, "out of memory");
                if (!atomic_load(&s->failed))
                    s->error = err;
                atomic_store(&s->failed, true);
                pthread_cond_broadcast(&s->space);
                break;
            }
            s->next_write++;
            if (o->live) {
                atomic_store(&o->live->games, s->next_write - o->first_game);
                atomic_store(&o->live->red_wins, s->totals->red_wins);
                atomic_store(&o->live->draws, s->totals->draws);
                atomic_store(&o->live->black_wins, s->totals->black_wins);
            }
            pthread_cond_broadcast(&s->space);
        }
        double now = now_seconds();
        if ((live && now - last_report >= 0.5) || (log && now - last_report >= o->log_interval)) {
            print_progress(s, live, false);
            last_report = now;
        }
    }
    pthread_mutex_unlock(&s->lock);
    if (s->writer && !atomic_load(&s->failed)) {
        XqError err;
        double t0 = now_seconds();
        if (dsw_flush(s->writer, &err) < 0)
            set_failure(s, &err);
        s->write_seconds += now_seconds() - t0;
    }
    if (live || log)
        print_progress(s, live, true);
    return NULL;
}

/* Worker side: plays claimed games and hands them to the writer in slots. */
static void run_workers(Shared *s)
{
    const SelfplayOptions *o = s->o;
#pragma omp parallel
    {
        /* One searcher, or one per seat (seat_trees, or seats that know different things). */
        Mcts *m[2] = {mcts_create(o->variant, o->eval, o->params), NULL};
        m[1] = hidden_private(o->variant) || o->params->seat_trees
                   ? mcts_create(o->variant, o->eval, o->params) : m[0];
        Position *pos = malloc(sizeof *pos);
        GameBuffers buf = {0};
        bool ok = m[0] && m[1] && pos;
        if (!ok) {
            XqError err = {.line = 0};
            snprintf(err.file, sizeof err.file, "selfplay");
            snprintf(err.message, sizeof err.message, "out of memory creating a search arena "
                     "(arena_nodes = %d)", o->params->arena_nodes);
            set_failure(s, &err);
        }
        while (ok && !atomic_load(&s->failed) && !(o->stop && atomic_load(o->stop))) {
            uint64_t index = atomic_fetch_add(&s->next_claim, 1);
            if (index >= s->end)
                break;
            /* Wait for room in the reorder window so memory stays bounded. */
            pthread_mutex_lock(&s->lock);
            while (index - s->next_write >= s->capacity && !atomic_load(&s->failed))
                pthread_cond_wait(&s->space, &s->lock);
            pthread_mutex_unlock(&s->lock);
            if (atomic_load(&s->failed))
                break;
            GameRecord g;
            GameStats gs;
            Slot *slot = &s->slots[index % s->capacity];
            /* Games 2k and 2k+1 play opening k (cycling through the book). */
            const BookEntry *opening = o->book ? &o->book->entries[(index / 2) % (uint64_t)o->book->count] : NULL;
            if (game_play(m, o->params, o->variant, o->start_fen, opening, o->seed, index, o->paired_deals, pos,
                          &buf, &g, &gs) < 0 ||
                copy_game(&slot->game, &g) < 0) {
                XqError err = {.line = 0};
                snprintf(err.file, sizeof err.file, "selfplay");
                snprintf(err.message, sizeof err.message, "out of memory recording game %llu",
                         (unsigned long long)index);
                set_failure(s, &err);
                break;
            }
            atomic_fetch_add(&s->playouts, gs.playouts);
            atomic_fetch_add(&s->searches, gs.searches);
            pthread_mutex_lock(&s->lock);
            slot->stats = gs;
            slot->ready = true;
            pthread_cond_broadcast(&s->ready);
            pthread_mutex_unlock(&s->lock);
        }
        game_buffers_free(&buf);
        free(pos);
        for (int i = 0; i < 2 && (i == 0 || m[1] != m[0]); i++) {
            if (m[i])
                atomic_fetch_add(&s->truncated_searches, mcts_truncated_searches(m[i]));
            mcts_free(m[i]);
        }
    }
}

void selfplay_meta(const SelfplayOptions *o, DatasetMeta *m, char *params_text, char *start_text)
{
    params_write(o->params, params_text, SELFPLAY_PARAMS_MAX);
    if (o->book) {
        uint64_t h = 14695981039346656037ULL;
        for (int i = 0; i < o->book->count; i++) {
            const BookEntry *b = &o->book->entries[i];
            const uint8_t *p = (const uint8_t *)b->base_fen;
            for (size_t k = 0; k <= strlen(b->base_fen); k++)
                h = (h ^ p[k]) * 1099511628211ULL;
            for (int k = 0; k < b->nmoves; k++)
                for (int byte = 0; byte < 4; byte++)
                    h = (h ^ (((uint32_t)b->moves[k] >> (8 * byte)) & 0xffu)) * 1099511628211ULL;
            h = (h ^ 0xffu) * 1099511628211ULL; /* end of an opening */
        }
        snprintf(start_text, SELFPLAY_START_MAX, "openings %d lines, hash %016llx", o->book->count,
                 (unsigned long long)h);
    } else if (o->start_fen) {
        snprintf(start_text, SELFPLAY_START_MAX, "fen %.256s", o->start_fen);
    } else {
        snprintf(start_text, SELFPLAY_START_MAX, "startpos");
    }
    if (o->paired_deals) {
        size_t used = strlen(start_text);
        snprintf(start_text + used, SELFPLAY_START_MAX - used, ", paired deals");
    }
    *m = (DatasetMeta){
        .variant_name = o->variant->name,
        .variant_text = o->variant->text,
        .weights_text = o->weights_text ? o->weights_text : "",
        .params_text = params_text,
        .command_line = o->command_line ? o->command_line : "",
        .base_seed = o->seed,
        .shard_index = o->shard_index,
        .shard_count = o->shard_count,
        .first_game = o->first_game,
        .game_count = o->games,
        .npoints = o->variant->npoints,
        .start_text = start_text,
        .run_games = o->run_games ? o->run_games : o->games,
    };
}

int selfplay_run(const SelfplayOptions *o, RunTotals *totals, SelfplayReport *report, XqError *err)
{
    memset(report, 0, sizeof *report);
    Shared s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.totals = totals;
    s.end = o->first_game + o->games;
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    omp_set_num_threads(threads);
    s.capacity = (uint64_t)threads * 4 + 16;
    s.slots = calloc(s.capacity, sizeof *s.slots);
    if (!s.slots) {
        snprintf(err->file, sizeof err->file, "selfplay");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "out of memory");
        return -1;
    }
    uint64_t done = 0;
    if (o->out_path) {
        char params_text[SELFPLAY_PARAMS_MAX], start_text[SELFPLAY_START_MAX];
        DatasetMeta meta;
        selfplay_meta(o, &meta, params_text, start_text);
        s.writer = dsw_open(o->out_path, &meta, o->resume, &done, err);
        if (!s.writer) {
            free(s.slots);
            return -1;
        }
        if (done > o->games)
            done = o->games;
    }
    report->resumed_games = done;
    if (o->live)
        atomic_store(&o->live->games, done);
    s.first_index = s.next_write = o->first_game + done;
    atomic_store(&s.next_claim, s.next_write);
    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.ready, NULL);
    pthread_cond_init(&s.space, NULL);
    s.start_time = now_seconds();

    pthread_t writer;
    int rc = pthread_create(&writer, NULL, writer_main, &s);
    if (rc != 0) {
        snprintf(err->file, sizeof err->file, "selfplay");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "cannot start the writer thread: %s", strerror(rc));
        if (s.writer)
            dsw_abandon(s.writer, NULL);
        free(s.slots);
        return -1;
    }
    run_workers(&s);
    pthread_mutex_lock(&s.lock);
    s.workers_done = true;
    pthread_cond_broadcast(&s.ready);
    pthread_mutex_unlock(&s.lock);
    pthread_join(writer, NULL);

    report->played = s.next_write - s.first_index;
    report->interrupted = s.next_write < s.end && !atomic_load(&s.failed);
    report->wall_seconds = now_seconds() - s.start_time;
    report->playouts = atomic_load(&s.playouts);
    report->searches = atomic_load(&s.searches);
    report->truncated_searches = atomic_load(&s.truncated_searches);
    int status = 0;
    if (atomic_load(&s.failed)) {
        *err = s.error;
        status = -1;
    }
    for (uint64_t i = 0; i < s.capacity; i++)
        if (s.slots[i].ready)
            game_record_free(&s.slots[i].game);
    free(s.slots);
    if (s.writer) {
        double t0 = now_seconds();
        XqError close_err;
        int crc = (status == 0 && !report->interrupted) ? dsw_close(s.writer, &close_err)
                                                        : dsw_abandon(s.writer, &close_err);
        s.write_seconds += now_seconds() - t0;
        if (crc < 0 && status == 0) {
            *err = close_err;
            status = -1;
        }
    }
    report->write_seconds = s.write_seconds;
    pthread_mutex_destroy(&s.lock);
    pthread_cond_destroy(&s.ready);
    pthread_cond_destroy(&s.space);
    return status;
}
