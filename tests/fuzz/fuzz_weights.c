/* fuzz_weights.c - fuzz target: weights files (configs/weights, `--weights`). The first
 * byte picks a shipped rule set, the rest is the file; an accepted file must round-trip through
 * eval_write_weights to the same weights and give a finite score for the start position. */
#include <math.h>
#include <string.h>

#include "eval.h"
#include "fuzz.h"
#include "fuzz_shipped.h"

enum { MAX_WEIGHTS_TEXT = 16384, WEIGHTS_OUT = 65536 };

static Position fuzz_pos;
static char written[WEIGHTS_OUT];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Variant *const *variants;
    int nvariants = fuzz_shipped_variants(&variants);
    if (size < 1 || size > MAX_WEIGHTS_TEXT)
        return 0;
    const Variant *v = variants[data[0] % nvariants];
    XqError err;
    memset(&err, 0, sizeof err);
    Evaluator *e = eval_create(v, fuzz_scratch_file(data + 1, size - 1), &err);
    if (!e) {
        FUZZ_CHECK(err.message[0] != '\0', "rejection without a message");
        return 0;
    }
    eval_write_weights(e, written, sizeof written);
    Evaluator *again = eval_create(v, fuzz_scratch_file(written, strlen(written)), &err);
    FUZZ_CHECK(again != NULL, "written weights rejected: %s:%d: %s", err.file, err.line,
               err.message);
    FUZZ_CHECK(eval_feature_count(again) == eval_feature_count(e), "feature count changed");
    for (int i = 0; i < eval_feature_count(e); i++)
        FUZZ_CHECK(eval_weight(again, i) == eval_weight(e, i), "%s: %.17g read back as %.17g",
                   eval_feature_name(e, i), eval_weight(e, i), eval_weight(again, i));
    pos_init_start(&fuzz_pos, v);
    double score = eval_score(e, &fuzz_pos);
    FUZZ_CHECK(!isnan(score), "start position scores NaN");
    eval_free(again);
    eval_free(e);
    return 0;
}
