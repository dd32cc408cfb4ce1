/* bench_mcts.c - playouts per second of the search alone, from a few fixed positions, single
 * thread: `bench_mcts [-p playouts] [-n searches] [-q qsearch_depth] [-s key=value]...
 * [-w weights.ini]` (-s sets any search parameter). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcts.h"

/* Opening, middle game and endgame positions of standard xiangqi. */
static const char *const FENS[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    "2bakab2/9/2n1c1n2/p3p3p/2p3p2/9/P1P1P1P1P/2N1C1N2/4A4/2BAK1B2 w - - 0 12",
    "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/2RAK4 w - - 0 40",
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    SearchParams p;
    params_default(&p);
    int searches = 20;
    const char *weights = XQLAB_CONFIG_DIR "/weights/xiangqi-handset.ini";
    XqError err;
    char msg[1024];
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "-p")) {
            if (params_set(&p, "playouts", argv[++i], &err) != 0)
                goto bad;
        } else if (i + 1 < argc && !strcmp(argv[i], "-q")) {
            if (params_set(&p, "qsearch_depth", argv[++i], &err) != 0)
                goto bad;
        } else if (i + 1 < argc && !strcmp(argv[i], "-s")) {
            char kv[256];
            snprintf(kv, sizeof kv, "%s", argv[++i]);
            char *eq = strchr(kv, '=');
            if (!eq) {
                fprintf(stderr, "bench_mcts: -s expects key=value, not '%s'\n", kv);
                return 2;
            }
            *eq = '\0';
            if (params_set(&p, kv, eq + 1, &err) != 0)
                goto bad;
        } else if (i + 1 < argc && !strcmp(argv[i], "-n")) {
            searches = atoi(argv[++i]);
        } else if (i + 1 < argc && !strcmp(argv[i], "-w")) {
            weights = argv[++i];
        } else {
            fprintf(stderr, "usage: bench_mcts [-p playouts] [-n searches] [-q qsearch_depth] "
                            "[-s key=value]... [-w weights.ini]\n");
            return 2;
        }
    }
    Variant *v = variant_load_file(XQLAB_CONFIG_DIR "/variants/xiangqi.ini", &err);
    if (!v)
        goto bad;
    Evaluator *e = eval_create(v, weights, &err);
    if (!e)
        goto bad;
    /* No reuse: every search builds its tree from scratch, the harder case. */
    p.reuse_tree = 0;
    Mcts *m = mcts_create(v, e, &p);
    Position *pos = malloc(sizeof *pos);
    if (!m || !pos) {
        fprintf(stderr, "bench_mcts: out of memory\n");
        return 1;
    }
    Rng rng;
    rng_init(&rng, 1);
    long long total = 0;
    double t_all = 0;
    unsigned long long signature = 0;
    for (size_t f = 0; f < sizeof FENS / sizeof FENS[0]; f++) {
        if (pos_set_fen(pos, v, FENS[f], &err) != 0)
            goto bad;
        long long playouts = 0;
        double t0 = now();
        for (int s = 0; s < searches; s++) {
            SearchResult r;
            mcts_reset(m);
            mcts_search(m, pos, &rng, true, &r);
            playouts += r.visits;
            signature = signature * 1000003u + r.best + (unsigned long long)r.visits;
        }
        double dt = now() - t0;
        total += playouts;
        t_all += dt;
        printf("position %zu: %lld playouts in %.3f s = %.0f playouts/s\n", f + 1, playouts, dt,
               (double)playouts / dt);
    }
    printf("total: %lld playouts in %.3f s = %.0f playouts/s (playouts %d, qsearch_depth %d), "
           "signature %016llx\n",
           total, t_all, (double)total / t_all, p.playouts, p.qsearch_depth, signature);
    free(pos);
    mcts_free(m);
    eval_free(e);
    variant_free(v);
    return 0;
bad:
    xq_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "bench_mcts: %s\n", msg);
    return 1;
}
