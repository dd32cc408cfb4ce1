/* bench.h - the fixed benchmark workloads behind `xqlab bench`. */
#ifndef XQ_CLI_BENCH_H
#define XQ_CLI_BENCH_H

int bench_perft(int argc, char **argv);
int bench_selfplay(int argc, char **argv);
int bench_tune(int argc, char **argv);
int bench_strength(int argc, char **argv);
int bench_eval(int argc, char **argv);

#endif
