/* test_perft_slow.c - perft to depth 5 on every published xiangqi position (label "slow"; the
 * normal suite runs depth 4 in test_core and excludes this with ctest -LE slow). */
#include "test_util.h"

#include "data/perft_table.h"
#include "perft.h"

static Variant *xiangqi;
static Position pos;

static int load(void **state)
{
    (void)state;
    XqError err;
    xiangqi = variant_load_file(XQ_SOURCE_DIR "/configs/variants/xiangqi.ini", &err);
    return xiangqi ? 0 : -1;
}

static int unload(void **state)
{
    (void)state;
    variant_free(xiangqi);
    return 0;
}

static void perft_depth5(void **state)
{
    (void)state;
    for (int i = 0; i < PERFT_NCASES; i++) {
        test_set_fen(&pos, xiangqi, PERFT_CASES[i].fen);
        uint64_t got = perft(&pos, 5);
        if (got != PERFT_CASES[i].nodes[5])
            fail_msg("position %d (%s): perft(5) = %llu, expected %llu", i + 1, PERFT_CASES[i].fen,
                     (unsigned long long)got, (unsigned long long)PERFT_CASES[i].nodes[5]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(perft_depth5)};
    return cmocka_run_group_tests(tests, load, unload);
}
