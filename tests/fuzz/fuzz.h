/* fuzz.h - the libFuzzer entry point shared by the fuzz targets and the corpus replay main. */
#ifndef XQ_FUZZ_H
#define XQ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Runs one input; returns 0. A broken invariant aborts (libFuzzer records it as a crash). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with a message when an invariant does not hold. */
#define FUZZ_CHECK(cond, ...)                                                                    \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            fprintf(stderr, "%s:%d: invariant failed: %s: ", __FILE__, __LINE__, #cond);         \
            fprintf(stderr, __VA_ARGS__);                                                        \
            fputc('\n', stderr);                                                                 \
            abort();                                                                             \
        }                                                                                        \
    } while (0)

#endif
