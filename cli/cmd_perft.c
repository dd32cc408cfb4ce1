#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "perft.h"
int cmd_perft(int argc, char **argv);
int cmd_perft(int argc, char **argv)
{
    XqError err;
    Variant *v = variant_load_file(argv[0], &err);
    if (!v) { char b[1024]; xq_error_format(&err, b, sizeof b); fprintf(stderr, "%s\n", b); return 1; }
    static Position pos;
    if (pos_set_fen(&pos, v, argc > 2 ? argv[2] : v->start_fen, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
    int d = atoi(argv[1]);
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t n = perft(&pos, d);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("%llu %.3fs %.1f M/s\n", (unsigned long long)n, s, n / s / 1e6);
    return 0;
}
