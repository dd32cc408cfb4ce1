#include "test_util.h"
#include "perft.h"
static void start_perft(void **state) { (void)state; Variant *v = test_load_variant("xiangqi"); static Position pos; pos_init_start(&pos, v); assert_int_equal(perft(&pos, 3), 79666); variant_free(v); }
int main(void) { const struct CMUnitTest t[] = { cmocka_unit_test(start_perft) }; return cmocka_run_group_tests(t, NULL, NULL); }
