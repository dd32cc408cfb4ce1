/* bench_merge.c - writes synthetic shards for the merge benchmark (scripts/bench/scale.sh): SHARDS
 * files of GAMES games each, the shards of one run of SHARDS * GAMES games, with self-play-sized
 * records (legal xiangqi games of 40..220 plies, 20..40 visited root children per position).
 * One pool of GAMES games is played once and written into every shard under that shard's game
 * indices, so generating 100,000 games costs what 1,000 do; each file still compresses like a
 * real shard (its games differ from each other).
 *
 * usage: bench_merge --dir DIR [--shards N] [--games G] [--seed S]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset.h"
#include "merge.h"
#include "position.h"
#include "rng.h"
#include "status.h"

enum { MAX_CHILDREN = 40, PLAYOUTS = 200 };

/* One synthetic game into *g (arrays malloc'd). */
static int synth_game(const Variant *v, uint64_t seed, Position *pos, GameRecord *g)
{
    memset(g, 0, sizeof *g);
    Rng rng;
    rng_init(&rng, seed);
    int cap = 40 + (int)rng_below(&rng, 181);
    g->moves = malloc((size_t)cap * sizeof *g->moves);
    g->positions = malloc((size_t)cap * sizeof *g->positions);
    g->policy_moves = malloc((size_t)cap * MAX_CHILDREN * sizeof *g->policy_moves);
    g->policy_visits = malloc((size_t)cap * MAX_CHILDREN * sizeof *g->policy_visits);
    if (!g->moves || !g->positions || !g->policy_moves || !g->policy_visits)
        return -1;
    pos_init_start(pos, v);
    snprintf(g->start_fen, sizeof g->start_fen, "%s", v->start_fen);
    GameStatus st = {RESULT_NONE, TERM_NONE};
    MoveList legal;
    double value = 0;
    while (g->nmoves < cap) {
        int n = pos_generate_legal(pos, &legal);
        st = pos_game_status_n(pos, n);
        if (st.result != RESULT_NONE)
            break;
        PositionRecord *p = &g->positions[g->npositions];
        memset(p, 0, sizeof *p);
        memcpy(p->board, pos->board, (size_t)v->npoints);
        p->side = (uint8_t)pos->side;
        p->ply = (uint16_t)pos->ply;
        p->no_capture = (uint16_t)pos->no_capture;
        p->policy_first = (uint32_t)g->npolicy;
        int want = 20 + (int)rng_below(&rng, MAX_CHILDREN - 20 + 1), k = 0, best = 0;
        for (int i = 0; i < n && k < want; i++)
            if (rng_below(&rng, (uint32_t)(n - i)) < (uint32_t)(want - k)) {
                g->policy_moves[g->npolicy + k] = legal.moves[i];
                /* Skewed like PUCT visits: most on a few children. */
                g->policy_visits[g->npolicy + k] = 1 + (uint32_t)(rng_gamma(&rng, 0.4) * PLAYOUTS / 8);
                if (g->policy_visits[g->npolicy + k] > g->policy_visits[g->npolicy + best])
                    best = k;
                k++;
            }
        p->policy_count = k;
        p->visits = PLAYOUTS;
        p->best = g->policy_moves[g->npolicy + best];
        p->played = g->policy_moves[g->npolicy + (g->nmoves < 20 ? (int)rng_below(&rng, (uint32_t)k) : best)];
        value += (rng_double(&rng) - 0.5) * 0.08;
        p->root_value = (float)value;
        p->static_eval = (float)(value * 0.7);
        g->npolicy += k;
        g->npositions++;
        g->moves[g->nmoves++] = p->played;
        Undo u;
        pos_do_move(pos, p->played, &u);
    }
    g->result = (int8_t)(st.result != RESULT_NONE ? st.result : RESULT_DRAW);
    g->termination = (uint8_t)(st.result != RESULT_NONE ? st.reason : TERM_LENGTH_CAP);
    g->plies = (uint16_t)g->nmoves;
    g->wall_seconds = (float)g->nmoves * 0.05f;
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    long shards = 100, games = 1000;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: bench_merge --dir DIR [--shards N] [--games G] [--seed S]\n"
                   "Writes DIR/bench.shard-IIII-of-NNNN.h5: N synthetic shards of G games each.\n");
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "bench_merge: %s needs a value\n", a);
            return 2;
        }
        const char *val = argv[++i];
        char *end;
        long n = strtol(val, &end, 10);
        if (!strcmp(a, "--dir"))
            dir = val;
        else if (*end || n < 1 || n > 100000) {
            fprintf(stderr, "bench_merge: %s expects a whole number 1..100000, not '%s'\n", a, val);
            return 2;
        } else if (!strcmp(a, "--shards"))
            shards = n;
        else if (!strcmp(a, "--games"))
            games = n;
        else if (!strcmp(a, "--seed"))
            seed = (uint64_t)n;
        else {
            fprintf(stderr, "bench_merge: unknown option %s\n", a);
            return 2;
        }
    }
    if (!dir) {
        fprintf(stderr, "bench_merge: needs --dir DIR\n");
        return 2;
    }
    int rc = 1;
    XqError err;
    char msg[1200];
    Variant *v = variant_load_file(XQLAB_CONFIG_DIR "/variants/xiangqi.ini", &err);
    GameRecord *pool = calloc((size_t)games, sizeof *pool);
    Position *pos = malloc(sizeof *pos);
    if (!v || !pool || !pos) {
        if (!v) {
            xq_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "bench_merge: %s\n", msg);
        }
        goto cleanup;
    }
    for (long i = 0; i < games; i++)
        if (synth_game(v, seed * 1000003u + (uint64_t)i, pos, &pool[i]) < 0) {
            fprintf(stderr, "bench_merge: out of memory\n");
            goto cleanup;
        }
    mkdir(dir, 0755);
    for (long s = 0; s < shards; s++) {
        char path[1024];
        if (merge_shard_path(dir, (int)s, (int)shards, path, sizeof path) < 0) {
            fprintf(stderr, "bench_merge: folder name too long\n");
            goto cleanup;
        }
        /* merge_shard_path makes DIR.shard-...; the files go inside DIR. */
        char file[1100];
        snprintf(file, sizeof file, "%s/bench%s", dir, path + strlen(dir));
        if (access(file, F_OK) == 0)
            continue;
        uint64_t first = (uint64_t)s * (uint64_t)games;
        DatasetMeta meta = {.variant_name = v->name, .variant_text = v->text, .weights_text = "",
                            .params_text = "playouts = 200\n", .command_line = "bench_merge",
                            .base_seed = seed, .shard_index = (int)s, .shard_count = (int)shards,
                            .first_game = first, .game_count = (uint64_t)games, .npoints = v->npoints};
        DatasetWriter *w = dsw_open(file, &meta, false, NULL, &err);
        if (!w)
            goto report;
        for (long i = 0; i < games; i++) {
            pool[i].index = first + (uint64_t)i;
            pool[i].seed = first + (uint64_t)i;
            if (dsw_append(w, &pool[i], &err) < 0 || ((i + 1) % 64 == 0 && dsw_flush(w, &err) < 0)) {
                dsw_abandon(w, NULL);
                goto report;
            }
        }
        if (dsw_close(w, &err) < 0)
            goto report;
    }
    rc = 0;
    goto cleanup;
report:
    xq_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "bench_merge: %s\n", msg);
cleanup:
    if (pool)
        for (long i = 0; i < games; i++)
            game_record_free(&pool[i]);
    free(pool);
    free(pos);
    variant_free(v);
    return rc;
}
