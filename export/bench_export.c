/* bench_export.c - dataset size and write-speed benchmark: plays synthetic but legal xiangqi
 * games with self-play-like root policies, writes them with the dataset writer and reports bytes
 * per position per dataset and the write throughput.
 *
 * usage: bench_export [--games N] [--batch GAMES] [--playouts N] [--level 1..22] [--seed S]
 *                     [--out FILE.h5]
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "dataset.h"
#include "position.h"
#include "rng.h"
#include "status.h"

typedef struct BenchOptions {
    int games, batch, playouts, level;
    uint64_t seed;
    const char *out;
} BenchOptions;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Root policy of a `playouts`-playout search: 20..40 visited children (fewer if fewer legal
 * moves) in move-generation order, each visited at least once, the rest spread by a skewed
 * Dirichlet draw as PUCT concentrates visits on a few children. Returns the number of children. */
static int synth_policy(Rng *rng, const MoveList *legal, int playouts, Move *moves, uint32_t *visits)
{
    int want = 20 + (int)rng_below(rng, 21);
    int k = legal->count < want ? legal->count : want;
    int chosen = 0;
    for (int i = 0; i < legal->count && chosen < k; i++) {
        /* Selection sampling keeps generation order. */
        if (rng_below(rng, (uint32_t)(legal->count - i)) < (uint32_t)(k - chosen))
            moves[chosen++] = legal->moves[i];
    }
    double w[XQ_MAX_MOVES], sum = 0;
    for (int i = 0; i < k; i++) {
        w[i] = rng_gamma(rng, 0.4);
        sum += w[i];
    }
    int spare = playouts - 1 - k;
    int used = 0, top = 0;
    for (int i = 0; i < k; i++) {
        visits[i] = 1;
        if (spare > 0 && sum > 0) {
            uint32_t extra = (uint32_t)floor(w[i] / sum * spare);
            visits[i] += extra;
            used += (int)extra;
        }
        if (visits[i] > visits[top])
            top = i;
    }
    if (spare > used)
        visits[top] += (uint32_t)(spare - used);
    return k;
}

/* Plays one game of 40..220 plies (or to its natural end) and fills *g. */
static int synth_game(const Variant *v, uint64_t base_seed, uint64_t index, int playouts, Position *pos,
                      GameRecord *g)
{
    memset(g, 0, sizeof *g);
    Rng rng;
    g->index = index;
    g->seed = rng_game_seed(base_seed, index);
    rng_init(&rng, g->seed);
    int cap = 40 + (int)rng_below(&rng, 181);
    g->moves = malloc((size_t)cap * sizeof *g->moves);
    g->positions = malloc((size_t)cap * sizeof *g->positions);
    g->policy_moves = malloc((size_t)cap * 40 * sizeof *g->policy_moves);
    g->policy_visits = malloc((size_t)cap * 40 * sizeof *g->policy_visits);
    if (!g->moves || !g->positions || !g->policy_moves || !g->policy_visits)
        return -1;
    pos_init_start(pos, v);
    snprintf(g->start_fen, sizeof g->start_fen, "%s", v->start_fen);
    double value = 0, drift = (rng_double(&rng) - 0.5) * 0.02;
    GameStatus st = {RESULT_NONE, TERM_NONE};
    static MoveList legal;
    while (g->nmoves < cap) {
        int n = pos_generate_legal(pos, &legal);
        st = pos_game_status_n(pos, n);
        if (st.result != RESULT_NONE)
            break;
        PositionRecord *p = &g->positions[g->npositions];
        memset(p, 0, sizeof *p);
        for (int q = 0; q < v->npoints; q++)
            p->board[q] = pos->board[q];
        p->side = (uint8_t)pos->side;
        p->ply = (uint16_t)pos->ply;
        p->no_capture = (uint16_t)pos->no_capture;
        p->policy_first = (uint32_t)g->npolicy;
        int k = synth_policy(&rng, &legal, playouts, g->policy_moves + g->npolicy, g->policy_visits + g->npolicy);
        p->policy_count = k;
        p->visits = (uint32_t)playouts;
        int best = 0;
        uint32_t total = 0;
        for (int i = 0; i < k; i++) {
            total += g->policy_visits[g->npolicy + i];
            if (g->policy_visits[g->npolicy + i] > g->policy_visits[g->npolicy + best])
                best = i;
        }
        /* Opening plies sample proportionally to visits, later ones play the most visited. */
        int pick = best;
        if (g->nmoves < 30) {
            uint32_t x = rng_below(&rng, total), acc = 0;
            for (pick = 0; pick < k - 1; pick++) {
                acc += g->policy_visits[g->npolicy + pick];
                if (x < acc)
                    break;
            }
        }
        p->best = g->policy_moves[g->npolicy + best];
        p->played = g->policy_moves[g->npolicy + pick];
        value += drift + (rng_double(&rng) - 0.5) * 0.08;
        double stm_sign = pos->side == RED ? 1.0 : -1.0;
        p->root_value = (float)(tanh(value) * stm_sign);
        p->static_eval = (float)(tanh(value * 0.7 + (rng_double(&rng) - 0.5) * 0.1) * stm_sign);
        g->npolicy += k;
        g->npositions++;
        g->moves[g->nmoves++] = p->played;
        Undo u;
        pos_do_move(pos, p->played, &u);
    }
    if (st.result != RESULT_NONE) {
        g->result = (int8_t)st.result;
        g->termination = (uint8_t)st.reason;
    } else {
        /* Adjudicated at the length cap, on the sign of the last value. */
        g->result = value > 0.3 ? RESULT_RED_WINS : value < -0.3 ? RESULT_BLACK_WINS : RESULT_DRAW;
        g->termination = g->result == RESULT_DRAW ? TERM_LENGTH_CAP : TERM_RESIGNATION;
    }
    g->plies = (uint16_t)g->nmoves;
    g->wall_seconds = (float)(g->nmoves * 0.05);
    g->resign_disabled = rng_below(&rng, 10) == 0;
    return 0;
}

static int parse_options(int argc, char **argv, BenchOptions *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "bench_export: %s needs a value (usage: bench_export [--games N] [--batch GAMES] "
                            "[--playouts N] [--level 1..22] [--seed S] [--out FILE.h5])\n", a);
            return -1;
        }
        const char *val = argv[++i];
        char *end;
        long n = strtol(val, &end, 10);
        bool num_ok = *end == '\0' && n > 0 && n <= 1000000;
        if (!strcmp(a, "--out"))
            o->out = val;
        else if (!strcmp(a, "--seed"))
            o->seed = strtoull(val, NULL, 10);
        else if (!num_ok) {
            fprintf(stderr, "bench_export: %s expects a whole number 1..1000000\n", a);
            return -1;
        } else if (!strcmp(a, "--games"))
            o->games = (int)n;
        else if (!strcmp(a, "--batch"))
            o->batch = (int)n;
        else if (!strcmp(a, "--playouts"))
            o->playouts = (int)n;
        else if (!strcmp(a, "--level") && n <= 22)
            o->level = (int)n;
        else {
            fprintf(stderr, "bench_export: unknown option %s\n", a);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    BenchOptions o = {.games = 300, .batch = 16, .playouts = 200, .seed = 1, .out = "bench_export.h5"};
    if (parse_options(argc, argv, &o) < 0)
        return 2;
    int rc = 1;
    XqError err;
    char msg[1024];
    GameRecord *games = calloc((size_t)o.games, sizeof *games);
    Position *pos = malloc(sizeof *pos);
    Variant *v = variant_load_file(XQLAB_CONFIG_DIR "/variants/xiangqi.ini", &err);
    DatasetReader *r = NULL;
    if (!v) {
        xq_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "bench_export: %s\n", msg);
        goto cleanup;
    }
    if (!games || !pos)
        goto cleanup;
    uint64_t npositions = 0, npolicy = 0;
    for (int i = 0; i < o.games; i++) {
        if (synth_game(v, o.seed, (uint64_t)i, o.playouts, pos, &games[i]) < 0) {
            fprintf(stderr, "bench_export: out of memory\n");
            goto cleanup;
        }
        npositions += (uint64_t)games[i].npositions;
        npolicy += (uint64_t)games[i].npolicy;
    }

    DatasetMeta meta = {.variant_name = v->name, .variant_text = v->text, .weights_text = "",
                        .params_text = "playouts = 200\n", .command_line = "bench_export",
                        .base_seed = o.seed, .shard_index = 0, .shard_count = 1, .first_game = 0,
                        .game_count = (uint64_t)o.games, .npoints = v->npoints,
                        .compression_level = o.level};
    double t0 = now_seconds();
    DatasetWriter *w = dsw_open(o.out, &meta, false, NULL, &err);
    if (!w)
        goto report_error;
    for (int i = 0; i < o.games; i++) {
        if (dsw_append(w, &games[i], &err) < 0 || ((i + 1) % o.batch == 0 && dsw_flush(w, &err) < 0)) {
            dsw_abandon(w, NULL);
            goto report_error;
        }
    }
    if (dsw_close(w, &err) < 0)
        goto report_error;
    double seconds = now_seconds() - t0;

    if (!(r = dsr_open(o.out, &err)))
        goto report_error;
    struct stat st;
    if (stat(o.out, &st) != 0) {
        fprintf(stderr, "bench_export: cannot stat %s\n", o.out);
        goto cleanup;
    }
    double np = (double)npositions;
    printf("bench_export: %d games, %" PRIu64 " positions, %.1f policy rows/position, %d playouts, "
           "flush every %d games, zstd level %d\n", o.games, npositions, (double)npolicy / np, o.playouts,
           o.batch, o.level ? o.level : 3);
    printf("%-26s %-7s %12s %12s %10s %8s\n", "dataset", "dtype", "raw bytes", "stored", "B/pos", "ratio");
    uint64_t stored = 0, raw = 0;
    for (int i = 0; i < dsr_dataset_count(r); i++) {
        const DatasetInfo *d = dsr_dataset_info(r, i);
        stored += d->stored_bytes;
        raw += d->raw_bytes;
        printf("%-26s %-7s %12" PRIu64 " %12" PRIu64 " %10.3f %8.1f\n", d->path, d->dtype, d->raw_bytes,
               d->stored_bytes, (double)d->stored_bytes / np,
               d->stored_bytes ? (double)d->raw_bytes / (double)d->stored_bytes : 0.0);
    }
    printf("%-26s %-7s %12" PRIu64 " %12" PRIu64 " %10.3f %8.1f\n", "all datasets", "", raw, stored,
           (double)stored / np, (double)raw / (double)stored);
    printf("file size: %lld bytes = %.2f bytes/position (metadata and attributes included)\n",
           (long long)st.st_size, (double)st.st_size / np);
    printf("write: %.3f s, %.0f positions/s, %.1f MB/s uncompressed\n", seconds, np / seconds,
           (double)raw / seconds / 1e6);
    rc = 0;
    goto cleanup;
report_error:
    xq_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "bench_export: %s\n", msg);
cleanup:
    dsr_close(r);
    if (games)
        for (int i = 0; i < o.games; i++)
            game_record_free(&games[i]);
    free(games);
    free(pos);
    variant_free(v);
    return rc;
}
