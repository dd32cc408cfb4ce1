/* fuzz_dataset.c - fuzz target: the dataset reader (xqlab inspect / report / merge / export) on
 * corrupted and truncated HDF5 files. The input is the file; whatever dsr_open accepts must have
 * every game readable or refused with a message, never a crash or an out-of-bounds read. */
#include <string.h>

#include "dataset.h"
#include "fuzz.h"
#include "fuzz_shipped.h"

enum { MAX_DATASET_BYTES = 1 << 20, MAX_GAMES_READ = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_DATASET_BYTES)
        return 0;
    XqError err;
    memset(&err, 0, sizeof err);
    DatasetReader *r = dsr_open(fuzz_scratch_file(data, size), &err);
    if (!r) {
        FUZZ_CHECK(err.message[0] != '\0', "rejection without a message");
        return 0;
    }
    const DatasetSummary *s = dsr_summary(r);
    FUZZ_CHECK(s->npoints > 0 && s->npoints <= XQ_MAX_POINTS, "accepted npoints %d", s->npoints);
    for (int i = 0; i < dsr_dataset_count(r); i++) {
        const DatasetInfo *info = dsr_dataset_info(r, i);
        FUZZ_CHECK(info && info->path && info->dtype, "dataset %d has no description", i);
    }
    DatasetOutcomes out;
    memset(&err, 0, sizeof err);
    if (dsr_outcomes(r, &out, &err) == 0) {
        uint64_t n = out.result[0] + out.result[1] + out.result[2] + out.other_result;
        FUZZ_CHECK(n == s->ngames, "outcomes count %llu games of %llu", (unsigned long long)n,
                   (unsigned long long)s->ngames);
    } else {
        FUZZ_CHECK(err.message[0] != '\0', "outcomes refused without a message");
    }
    for (uint64_t i = 0; i < s->ngames && i < MAX_GAMES_READ; i++) {
        GameRecord g;
        memset(&g, 0, sizeof g);
        memset(&err, 0, sizeof err);
        if (dsr_read_game(r, i, &g, &err) == 0) {
            FUZZ_CHECK(g.nmoves >= 0 && g.npositions >= 0 && g.npolicy >= 0, "negative counts");
            for (int p = 0; p < g.npositions; p++) {
                const PositionRecord *pr = &g.positions[p];
                FUZZ_CHECK(pr->policy_count >= 0 &&
                           (uint64_t)pr->policy_first + (uint64_t)pr->policy_count <=
                               (uint64_t)g.npolicy,
                           "game %llu position %d: policy rows out of range",
                           (unsigned long long)i, p);
            }
        } else {
            FUZZ_CHECK(err.message[0] != '\0', "game %llu refused without a message",
                       (unsigned long long)i);
        }
        game_record_free(&g);
    }
    dsr_close(r);
    return 0;
}
