/* selfplay_mpi.c - xqlab selfplay under mpirun: one shard per rank, running totals summed on rank
 * 0 with nonblocking collectives (waited on with short sleeps, so a waiting rank leaves its core to
 * the game threads), the summary of all ranks and the virtual-dataset index written by rank 0. */
#include "selfplay_mpi.h"

#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "merge.h"

enum { PERIOD_MS = 250 };

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Busy-polling blocking collectives would take a core from the games: test and sleep instead. */
static void wait_request(MPI_Request *req)
{
    int done = 0;
    for (;;) {
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        sleep_ms(2);
    }
}

int selfplay_mpi_begin(SelfplayMpi *m)
{
    memset(m, 0, sizeof *m);
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK"))
        return 0;
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS ||
        provided < MPI_THREAD_FUNNELED)
        return -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    m->active = true;
    return 0;
}

int selfplay_mpi_agree(SelfplayMpi *m, int status)
{
    if (!m->active || m->agreed)
        return status;
    int worst = status;
    MPI_Request req;
    MPI_Iallreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
    wait_request(&req);
    m->agreed = true;
    return worst;
}

int selfplay_mpi_end(SelfplayMpi *m, int status)
{
    if (!m->active)
        return status;
    /* A rank that failed before the agreement point still takes part in it, so the others stop. */
    if (!m->agreed)
        (void)selfplay_mpi_agree(m, status ? status : 1);
    MPI_Finalize();
    m->active = false;
    return status;
}

typedef struct RunThread {
    SelfplayOptions *o;
    RunTotals *totals;
    SelfplayReport *report;
    XqError err;
    int rc;
} RunThread;

static void *run_thread(void *arg)
{
    RunThread *t = arg;
    t->rc = selfplay_run(t->o, t->totals, t->report, &t->err);
    atomic_store(&t->o->live->finished, true);
    return NULL;
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

/* Progress of all ranks, in the format of the single-process run. */
static void print_progress(const uint64_t *g, uint64_t total, uint64_t start_games, double elapsed, int size,
                           const char *label, bool live, bool final)
{
    double rate = elapsed > 0 ? (double)(g[1] - start_games) / elapsed : 0;
    char eta[32];
    format_duration(rate > 0 ? (double)(total - g[1]) / rate : -1, eta, sizeof eta);
    fprintf(stderr, "%sgames %llu/%llu  %.2f games/s  ETA %s  %s %llu/%llu/%llu  (%d ranks)%s",
            live ? "\r" : "", (unsigned long long)g[1], (unsigned long long)total, rate, eta, label,
            (unsigned long long)g[2], (unsigned long long)g[3], (unsigned long long)g[4], size,
            live ? (final ? "\n" : "   ") : "\n");
    fflush(stderr);
}

/* Sums the counters of every rank's totals on rank 0 and gathers the game lengths there. */
static int reduce_totals(const SelfplayMpi *m, RunTotals *t, XqError *err)
{
    enum { NFIXED = 10 };
    uint64_t mine[NFIXED + TERM_COUNT], sum[NFIXED + TERM_COUNT];
    uint64_t fixed[NFIXED] = {t->games, t->red_wins, t->draws, t->black_wins, t->plies_sum, t->positions,
                              t->policy_rows, t->resign_disabled_games, t->would_resign_games,
                              t->false_resignations};
    memcpy(mine, fixed, sizeof fixed);
    memcpy(mine + NFIXED, t->by_reason, sizeof t->by_reason);
    double seconds = t->game_seconds, seconds_sum = 0;
    MPI_Reduce(mine, sum, NFIXED + TERM_COUNT, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&seconds, &seconds_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    int count = (int)t->games, *counts = NULL, *displs = NULL;
    uint32_t *all = NULL;
    int bad = 0;
    if (m->rank == 0) {
        counts = calloc((size_t)m->size, sizeof *counts);
        displs = calloc((size_t)m->size, sizeof *displs);
        all = malloc((sum[0] ? sum[0] : 1) * sizeof *all);
        bad = !counts || !displs || !all;
    }
    MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (m->rank == 0 && !bad)
        for (int r = 1; r < m->size; r++)
            displs[r] = displs[r - 1] + counts[r - 1];
    MPI_Gatherv(t->lengths, count, MPI_UINT32_T, all, counts, displs, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    free(counts);
    free(displs);
    if (m->rank != 0)
        return 0;
    if (bad) {
        free(all);
        snprintf(err->file, sizeof err->file, "selfplay");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "out of memory gathering the totals of %d ranks", m->size);
        return -1;
    }
    totals_free(t);
    uint64_t *dst[NFIXED] = {&t->games, &t->red_wins, &t->draws, &t->black_wins, &t->plies_sum, &t->positions,
                             &t->policy_rows, &t->resign_disabled_games, &t->would_resign_games,
                             &t->false_resignations};
    for (int i = 0; i < NFIXED; i++)
        *dst[i] = sum[i];
    memcpy(t->by_reason, sum + NFIXED, sizeof t->by_reason);
    t->game_seconds = seconds_sum;
    t->lengths = all;
    t->lengths_cap = sum[0] ? sum[0] : 1;
    return 0;
}

int selfplay_mpi_run(SelfplayMpi *m, SelfplayOptions *o, uint64_t total_games, bool already_complete,
                     const char *index_out, const char *command_line,
                     int (*reload)(const char *path, RunTotals *totals, XqError *err),
                     RunTotals *totals, SelfplayReport *report, XqError *err)
{
    SelfplayLive live;
    atomic_store(&live.games, 0);
    atomic_store(&live.red_wins, 0);
    atomic_store(&live.draws, 0);
    atomic_store(&live.black_wins, 0);
    atomic_store(&live.finished, false);
    ProgressMode mode = o->progress;
    bool show = m->rank == 0 && (mode == PROGRESS_LIVE || mode == PROGRESS_LOG);
    o->progress = PROGRESS_QUIET;   /* the ranks' own lines would interleave */
    o->live = &live;
    RunThread t = {.o = o, .totals = totals, .report = report, .rc = 0};
    memset(report, 0, sizeof *report);
    pthread_t thread;
    bool started = false;
    if (already_complete) {
        atomic_store(&live.games, o->games);
        atomic_store(&live.finished, true);
    } else if (pthread_create(&thread, NULL, run_thread, &t) == 0) {
        started = true;
    } else {
        t.rc = -1;
        snprintf(t.err.file, sizeof t.err.file, "selfplay");
        snprintf(t.err.message, sizeof t.err.message, "cannot start the game thread");
        atomic_store(&live.finished, true);
    }

    /* Running totals: done flag, games, first / draw / second mover, summed over ranks every PERIOD_MS. */
    double start = now_seconds(), last_print = start;
    uint64_t start_games = 0;
    bool first = true;
    for (;;) {
        bool finished = atomic_load(&live.finished);
        uint64_t mine[5] = {finished ? 1 : 0, atomic_load(&live.games), atomic_load(&live.red_wins),
                            atomic_load(&live.draws), atomic_load(&live.black_wins)};
        uint64_t all[5];
        MPI_Request req;
        MPI_Iallreduce(mine, all, 5, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &req);
        wait_request(&req);
        if (first) {
            start_games = all[1];
            first = false;
        }
        double now = now_seconds();
        bool done = all[0] == (uint64_t)m->size;
        if (show && (done || (mode == PROGRESS_LIVE && now - last_print >= 0.5) ||
                     (mode == PROGRESS_LOG && now - last_print >= o->log_interval))) {
            print_progress(all, total_games, start_games, now - start, m->size,
                           totals_results_label(o->variant), mode == PROGRESS_LIVE, done);
            last_print = now;
        }
        if (done)
            break;
        sleep_ms(PERIOD_MS);
    }
    if (started)
        pthread_join(thread, NULL);
    o->live = NULL;
    o->progress = mode;

    int rc = t.rc;
    if (rc < 0)
        *err = t.err;
    /* After a resume (or for a shard finished earlier) the summary covers the whole shard. */
    if (rc == 0 && !report->interrupted && (already_complete || report->resumed_games > 0)) {
        totals_free(totals);
        memset(totals, 0, sizeof *totals);
        rc = reload(o->out_path, totals, err);
    }
    /* This rank's own shard, before the figures below become the run's. */
    m->shard_interrupted = report->interrupted;
    m->shard_games = o->games;
    m->shard_done = already_complete ? o->games : report->resumed_games + report->played;
    m->run_games = total_games;
    m->run_done = 0;
    /* Every rank's outcome: failed, interrupted; and the run figures. */
    uint64_t flags[2] = {rc < 0, report->interrupted}, any[2];
    uint64_t figures[4] = {report->resumed_games, report->played, report->playouts, m->shard_done}, sums[4];
    double wall = report->wall_seconds, longest = 0;
    MPI_Allreduce(flags, any, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    MPI_Reduce(figures, sums, 4, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&wall, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (!any[0] && reduce_totals(m, totals, err) < 0)
        rc = -1;
    if (m->rank == 0) {
        report->resumed_games = sums[0];
        report->played = sums[1];
        report->playouts = sums[2];
        report->wall_seconds = longest;
        m->run_done = sums[3];
    }
    report->interrupted = any[1] != 0;
    if (rc < 0)
        return -1;
    if (any[0]) {
        snprintf(err->file, sizeof err->file, "selfplay");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "another rank failed (see its message); no index written");
        return -1;
    }
    if (any[1] || m->rank != 0)
        return 0;

    /* Every shard is complete and closed: rank 0 writes the index over them. */
    if (access(index_out, F_OK) == 0) {
        DatasetReader *r = dsr_open(index_out, err);
        if (!r)
            return -1;
        dsr_close(r);
        return 0;
    }
    char **paths = calloc((size_t)m->size, sizeof *paths);
    int status = paths ? 0 : -1;
    for (int r = 0; r < m->size && status == 0; r++) {
        size_t size = strlen(index_out) + 64;
        if (!(paths[r] = malloc(size)) || merge_shard_path(index_out, r, m->size, paths[r], size) < 0)
            status = -1;
    }
    if (status < 0) {
        snprintf(err->file, sizeof err->file, "%s", index_out);
        err->line = 0;
        snprintf(err->message, sizeof err->message, "out of memory");
    } else {
        MergeStats st;
        status = merge_shards((const char *const *)paths, m->size, index_out, true, false, false, command_line, &st,
                              err);
    }
    for (int r = 0; paths && r < m->size; r++)
        free(paths[r]);
    free(paths);
    return status;
}
