/* rng.c - xoshiro256** generator with splitmix64 seeding. */
#include "rng.h"

#include <math.h>

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_init(Rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix(&seed);
}

uint64_t rng_game_seed(uint64_t seed, uint64_t index)
{
    uint64_t x = seed ^ 0x6a09e667f3bcc909ull;
    uint64_t a = splitmix(&x);
    x = a ^ (index * 0xd1342543de82ef95ull);
    return splitmix(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(Rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t rng_below(Rng *rng, uint32_t n)
{
    return (uint32_t)(((rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

double rng_double(Rng *rng)
{
    return (double)(rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

static double normal(Rng *rng)
{
    /* Box-Muller; one value per call keeps the state explicit and simple. */
    double u1 = rng_double(rng), u2 = rng_double(rng);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

double rng_gamma(Rng *rng, double alpha)
{
    if (alpha < 1.0) {
        double u = rng_double(rng);
        return rng_gamma(rng, 1.0 + alpha) * pow(u < 1e-300 ? 1e-300 : u, 1.0 / alpha);
    }
    double d = alpha - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x = normal(rng), vv = 1.0 + c * x;
        if (vv <= 0)
            continue;
        vv = vv * vv * vv;
        double u = rng_double(rng);
        if (u < 1.0 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1.0 - vv + log(vv)))
            return d * vv;
    }
}
