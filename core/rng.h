/* rng.h - explicit-state pseudo-random numbers (xoshiro256**), seeded by splitmix64. */
#ifndef XQ_RNG_H
#define XQ_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t s[4];
} Rng;

/* Seeds from one 64-bit value. */
void rng_init(Rng *rng, uint64_t seed);
/* Seed of game `index` of a run with base seed `seed` (independent of threads and shards). */
uint64_t rng_game_seed(uint64_t seed, uint64_t index);
uint64_t rng_next(Rng *rng);
/* Uniform in [0, n). */
uint32_t rng_below(Rng *rng, uint32_t n);
/* Uniform in [0, 1). */
double rng_double(Rng *rng);
/* Gamma(alpha, 1) variate (Marsaglia-Tsang), for Dirichlet noise. */
double rng_gamma(Rng *rng, double alpha);

#endif
