/* strength.c - the strength benchmark's run: game pairs between two UCI engines, several at once. */
#include "strength.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "elo.h"
#include "pgn.h"
#include "rng.h"

enum { START_FAILURES_FATAL = 3 };

typedef struct Slot {
    bool done;
    RefereeGame game;
} Slot;

typedef struct Run {
    const StrengthOptions *o;
    StrengthTotals *t;
    uint64_t ngames;
    uint32_t *order;            /* opening of each pair slot */
    Slot *slots;
    int8_t *half_points;        /* A's points per game, in half points */
    atomic_uint_fast64_t next;  /* next game index to hand out */
    atomic_bool halt;           /* raised on the caller's stop or a fatal error */
    atomic_int running;         /* workers not yet finished */
    pthread_mutex_t lock;       /* everything below, the totals and the PGN file */
    uint64_t pgn_next;
    int start_failures[2];      /* consecutive failed starts per side */
    bool failed;
    XqError err;
    double t0;
    char date[16];
} Run;

double strength_score(const StrengthTotals *t)
{
    uint64_t w = t->a_red[0] + t->a_black[0], d = t->a_red[1] + t->a_black[1];
    return t->games ? ((double)w + 0.5 * (double)d) / (double)t->games : 0.5;
}

uint64_t strength_count_pairs(const int8_t *half_points, uint64_t games, uint64_t pentanomial[5])
{
    uint64_t pairs = 0;
    memset(pentanomial, 0, 5 * sizeof *pentanomial);
    for (uint64_t g = 0; g + 1 < games; g += 2) {
        int a = half_points[g], b = half_points[g + 1];
        if (a < 0 || b < 0)
            continue;
        pentanomial[a + b]++;
        pairs++;
    }
    return pairs;
}

static void run_fail(Run *r, const char *file, const char *fmt, const char *detail)
{
    if (!r->failed) {
        r->failed = true;
        snprintf(r->err.file, sizeof r->err.file, "%s", file);
        r->err.line = 0;
        snprintf(r->err.message, sizeof r->err.message, fmt, detail);
    }
    atomic_store(&r->halt, true);
}

/* Side (0 = A, 1 = B) playing colour c in game g: A is Red in the even games. */
static int side_of(uint64_t g, int c)
{
    return (g % 2 == 0) == (c == RED) ? 0 : 1;
}

static const BookEntry *opening_of(const Run *r, uint64_t g)
{
    return &r->o->book->entries[r->order[(g / 2) % (uint64_t)r->o->book->count]];
}

static void label(const Run *r, int side, char *buf, size_t size)
{
    const StrengthTotals *t = r->t;
    if (strcmp(t->side[0].name, t->side[1].name))
        snprintf(buf, size, "%s", t->side[side].name);
    else
        snprintf(buf, size, "%s (%s)", t->side[side].name, side == 0 ? r->o->a->role : r->o->b->role);
}

/* Writes game g to the PGN file (lock held). */
static void write_pgn(Run *r, uint64_t g)
{
    const StrengthOptions *o = r->o;
    const RefereeGame *game = &r->slots[g].game;
    if (!o->pgn || game->end == GAME_END_STOPPED || r->failed)
        return;
    const BookEntry *b = opening_of(r, g);
    GameRecord rec;
    memset(&rec, 0, sizeof rec);
    rec.index = g;
    rec.result = (int8_t)game->result;
    rec.termination = (uint8_t)game->reason;
    rec.plies = (uint16_t)game->nmoves;
    snprintf(rec.start_fen, sizeof rec.start_fen, "%s", b->base_fen);
    rec.nmoves = game->nmoves;
    rec.moves = game->moves;
    char red[160], black[160], round[48];
    label(r, side_of(g, RED), red, sizeof red);
    label(r, side_of(g, BLACK), black, sizeof black);
    if (o->pgn_round_prefix > 0)
        snprintf(round, sizeof round, "%d.%llu.%d", o->pgn_round_prefix, (unsigned long long)(g / 2 + 1),
                 (int)(g % 2) + 1);
    else
        snprintf(round, sizeof round, "%llu.%d", (unsigned long long)(g / 2 + 1), (int)(g % 2) + 1);
    PgnTags tags = {
        .event = o->pgn_event, .date = r->date, .round = round, .red = red, .black = black,
        .termination = game->end == GAME_END_RULES || game->end == GAME_END_LENGTH_CAP ? NULL : game_end_name(game->end),
    };
    XqError err;
    if (pgn_write_game(o->pgn, o->v, &rec, &tags, &err) < 0 || fflush(o->pgn) != 0)
        run_fail(r, "PGN", "cannot write the game record: %.200s", err.message);
}

static void progress(Run *r)
{
    const StrengthTotals *t = r->t;
    uint64_t w = t->a_red[0] + t->a_black[0], d = t->a_red[1] + t->a_black[1], l = t->a_red[2] + t->a_black[2];
    double score = strength_score(t), elapsed = subprocess_now() - r->t0;
    double eta = t->games ? elapsed * (double)(r->ngames - t->games) / (double)t->games : 0;
    double elo = elo_from_score(score);
    char elo_text[32];
    if (isfinite(elo))
        snprintf(elo_text, sizeof elo_text, "%+.0f", elo);
    else
        snprintf(elo_text, sizeof elo_text, "%s", elo < 0 ? "-inf" : "+inf");
    fprintf(stderr, "\rbench strength: %llu/%llu games  %s +%llu =%llu -%llu  score %.1f%%  Elo %s  %.0f s, ETA %.0f s ",
            (unsigned long long)t->games, (unsigned long long)r->ngames, r->o->a->role,
            (unsigned long long)w, (unsigned long long)d, (unsigned long long)l, 100 * score, elo_text, elapsed, eta);
    fflush(stderr);
}

/* Counts a finished game into the totals and writes what the PGN order allows (takes the lock). */
static void record(Run *r, uint64_t g, RefereeGame *game)
{
    StrengthTotals *t = r->t;
    pthread_mutex_lock(&r->lock);
    r->slots[g].game = *game;
    r->slots[g].done = true;
    if (game->end != GAME_END_STOPPED) {
        t->games++;
        t->by_end[game->end]++;
        if (game->end == GAME_END_RULES || game->end == GAME_END_LENGTH_CAP)
            t->by_reason[game->reason]++;
        t->plies += (uint64_t)game->nmoves;
        int a_colour = g % 2 == 0 ? RED : BLACK;
        int a_result = game->result == RESULT_DRAW ? 1 : (game->result == RESULT_RED_WINS) == (a_colour == RED) ? 0 : 2;
        (a_colour == RED ? t->a_red : t->a_black)[a_result]++;
        r->half_points[g] = (int8_t)(2 - a_result);
        for (int c = 0; c < 2; c++) {
            StrengthSide *s = &t->side[side_of(g, c)];
            s->moves += (uint64_t)game->engine_moves[c];
            s->wall_ms += game->wall_ms[c];
            if (game->max_wall_ms[c] > s->max_wall_ms)
                s->max_wall_ms = game->max_wall_ms[c];
            if (game->cpu_ms[c] >= 0) {
                s->cpu_ms += game->cpu_ms[c];
                s->cpu_moves += (uint64_t)game->engine_moves[c];
            }
        }
        if (game->end == GAME_END_DIED || game->end == GAME_END_TIMEOUT || game->end == GAME_END_ILLEGAL) {
            StrengthSide *s = &t->side[side_of(g, game->culprit)];
            s->failures[game->end]++;
            if (!s->first_failure[0])
                snprintf(s->first_failure, sizeof s->first_failure, "game %llu: %.600s",
                         (unsigned long long)g + 1, game->detail);
        }
    }
    while (r->pgn_next < r->ngames && r->slots[r->pgn_next].done) {
        write_pgn(r, r->pgn_next);
        referee_game_free(&r->slots[r->pgn_next].game);
        r->pgn_next++;
    }
    if (r->o->progress && game->end != GAME_END_STOPPED)
        progress(r);
    pthread_mutex_unlock(&r->lock);
}

/* A game lost before it began: the engine of `side` could not be started. */
static void lost_at_start(Run *r, uint64_t g, int side, const UciEngine *e, UciStatus st, RefereeGame *game)
{
    const BookEntry *b = opening_of(r, g);
    memset(game, 0, sizeof *game);
    game->moves = malloc(((size_t)b->nmoves + 1) * sizeof *game->moves);
    if (game->moves && b->nmoves)
        memcpy(game->moves, b->moves, (size_t)b->nmoves * sizeof *game->moves);
    game->nmoves = game->moves ? b->nmoves : 0;
    Side colour = side_of(g, RED) == side ? RED : BLACK;
    game->end = st == UCI_TIMEOUT ? GAME_END_TIMEOUT : GAME_END_DIED;
    game->culprit = colour;
    game->culprit_status = st;
    game->result = colour == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
    game->reason = TERM_NONE;
    game->cpu_ms[0] = game->cpu_ms[1] = -1;
    snprintf(game->detail, sizeof game->detail, "could not be started: %s", e->detail);
}

static void *worker(void *arg)
{
    Run *r = arg;
    const StrengthOptions *o = r->o;
    const UciEngineSpec *spec[2] = {o->a, o->b};
    UciEngine engine[2];
    memset(engine, 0, sizeof engine);
    int movetime[2] = {(int)fmax(1.0, floor(o->odds * o->movetime_ms + 0.5)), o->movetime_ms};
    for (;;) {
        if (atomic_load(&r->halt))
            break;
        uint64_t g = atomic_fetch_add(&r->next, 1);
        if (g >= r->ngames)
            break;
        RefereeGame game;
        bool played = false;
        for (int s = 0; s < 2 && !played; s++) {
            if (uci_engine_running(&engine[s]))
                continue;
            uci_engine_quit(&engine[s]);
            UciStatus st = uci_engine_start(&engine[s], spec[s], &r->halt);
            pthread_mutex_lock(&r->lock);
            r->t->side[s].starts++;
            if (st == UCI_OK) {
                r->start_failures[s] = 0;
                if (!r->t->side[s].name[0])
                    snprintf(r->t->side[s].name, sizeof r->t->side[s].name, "%s", engine[s].name);
            } else if (st == UCI_REFUSED) {
                run_fail(r, spec[s]->command, "%.250s", engine[s].detail);
            } else if (st != UCI_STOPPED && ++r->start_failures[s] >= START_FAILURES_FATAL) {
                run_fail(r, spec[s]->command, "the engine failed to start three times in a row: %.180s",
                         engine[s].detail);
            }
            pthread_mutex_unlock(&r->lock);
            if (st == UCI_STOPPED || st == UCI_REFUSED || atomic_load(&r->halt)) {
                memset(&game, 0, sizeof game);
                game.end = GAME_END_STOPPED;
                played = true;
            } else if (st != UCI_OK) {
                lost_at_start(r, g, s, &engine[s], st, &game);
                played = true;
            }
        }
        if (!played) {
            const BookEntry *b = opening_of(r, g);
            UciEngine *by_colour[2];
            for (int c = 0; c < 2; c++) {
                by_colour[c] = &engine[side_of(g, c)];
                by_colour[c]->game = (int)(g + 1);
            }
            RefereeSetup setup = {
                .v = o->v,
                .base_fen = b->base_fen[0] ? b->base_fen : NULL,
                .opening = b->moves,
                .nopening = b->nmoves,
                .movetime_ms = {movetime[side_of(g, RED)], movetime[side_of(g, BLACK)]},
                .grace = o->grace,
                .max_plies = o->max_plies,
                .stop = &r->halt,
            };
            if (referee_play(&setup, by_colour, &game) < 0) {
                pthread_mutex_lock(&r->lock);
                run_fail(r, "bench strength", "%.250s", game.detail);
                pthread_mutex_unlock(&r->lock);
                referee_game_free(&game);
                game.end = GAME_END_STOPPED;
            }
            /* A failed engine is replaced before its next game (a silent one may still be
             * thinking, an illegal mover's state is unknown). */
            if (game.end == GAME_END_DIED || game.end == GAME_END_TIMEOUT || game.end == GAME_END_ILLEGAL)
                uci_engine_quit(by_colour[game.culprit]);
        }
        record(r, g, &game);
    }
    uci_engine_quit(&engine[0]);
    uci_engine_quit(&engine[1]);
    atomic_fetch_sub(&r->running, 1);
    return NULL;
}

int strength_run(const StrengthOptions *o, StrengthTotals *t, XqError *err)
{
    memset(t, 0, sizeof *t);
    t->side[0].movetime_ms = (int)fmax(1.0, floor(o->odds * o->movetime_ms + 0.5));
    t->side[1].movetime_ms = o->movetime_ms;
    Run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.t = t;
    r.ngames = 2 * o->pairs;
    r.t0 = subprocess_now();
    atomic_init(&r.next, 0);
    atomic_init(&r.halt, false);
    int nworkers = o->concurrency < 1 ? 1 : o->concurrency;
    if ((uint64_t)nworkers > r.ngames)
        nworkers = (int)r.ngames;
    atomic_init(&r.running, nworkers);
    pthread_mutex_init(&r.lock, NULL);
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(r.date, sizeof r.date, "%Y.%m.%d", &tm);
    int rc = -1;
    pthread_t *threads = NULL;
    r.order = malloc((size_t)o->book->count * sizeof *r.order);
    r.slots = calloc(r.ngames ? r.ngames : 1, sizeof *r.slots);
    r.half_points = malloc(r.ngames ? r.ngames : 1);
    threads = calloc((size_t)nworkers, sizeof *threads);
    if (!r.order || !r.slots || !r.half_points || !threads) {
        snprintf(err->file, sizeof err->file, "bench strength");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "out of memory");
        goto done;
    }
    memset(r.half_points, -1, r.ngames);
    for (int i = 0; i < o->book->count; i++)
        r.order[i] = (uint32_t)i;
    if (o->seed) {
        Rng rng;
        rng_init(&rng, o->seed);
        for (int i = o->book->count - 1; i > 0; i--) {
            uint32_t j = rng_below(&rng, (uint32_t)i + 1), tmp = r.order[i];
            r.order[i] = r.order[j];
            r.order[j] = tmp;
        }
    }
    int started = 0;
    for (; started < nworkers; started++)
        if (pthread_create(&threads[started], NULL, worker, &r) != 0)
            break;
    if (started < nworkers)
        atomic_fetch_sub(&r.running, nworkers - started);
    if (started == 0) {
        snprintf(err->file, sizeof err->file, "bench strength");
        err->line = 0;
        snprintf(err->message, sizeof err->message, "cannot start a worker thread");
        goto done;
    }
    /* The caller's stop flag reaches the workers through halt, which also carries fatal errors. */
    while (atomic_load(&r.running) > 0) {
        if (o->stop && atomic_load(o->stop) && !atomic_load(&r.halt)) {
            atomic_store(&r.halt, true);
            t->interrupted = true;
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    /* Games after a gap left by a stopped game. */
    for (uint64_t g = r.pgn_next; g < r.ngames; g++)
        if (r.slots[g].done) {
            write_pgn(&r, g);
            referee_game_free(&r.slots[g].game);
        }
    if (o->progress && t->games)
        fputc('\n', stderr);
    t->pairs = strength_count_pairs(r.half_points, r.ngames, t->pentanomial);
    t->seconds = subprocess_now() - r.t0;
    if (r.failed) {
        *err = r.err;
        goto done;
    }
    rc = 0;
done:
    if (r.slots)
        for (uint64_t g = 0; g < r.ngames; g++)
            referee_game_free(&r.slots[g].game);
    free(r.order);
    free(r.slots);
    free(r.half_points);
    free(threads);
    pthread_mutex_destroy(&r.lock);
    return rc;
}
