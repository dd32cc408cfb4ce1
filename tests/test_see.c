/* test_see.c - static exchange evaluation on hand-made xiangqi positions: undefended and
 * defended victims, a chariot battery, a cannon recapturing over its screen, and a royal piece
 * that may recapture only where nothing can take it; which rule sets it applies to. */
#include "test_util.h"

#include "see.h"

static Variant *load(const char *name, double *value)
{
    Variant *v = test_load_variant(name);
    static const struct { char letter; double value; } VALUES[] = {
        {'p', 1}, {'a', 2}, {'b', 2}, {'n', 4}, {'c', 4.5}, {'r', 9}, {'k', 0},
    };
    for (int i = 0; i < XQ_MAX_KINDS; i++)
        value[i] = 0;
    for (size_t i = 0; i < sizeof VALUES / sizeof VALUES[0]; i++) {
        int kind = variant_find_kind_by_letter(v, VALUES[i].letter);
        assert_true(kind >= 0);
        value[kind] = VALUES[i].value;
    }
    return v;
}

/* see() of the move `text` in the xiangqi position `fen`. */
static double see_of(const char *fen, const char *text)
{
    double value[XQ_MAX_KINDS];
    Variant *v = load("xiangqi", value);
    Position pos;
    test_set_fen(&pos, v, fen);
    char why[128];
    Move mv = move_parse(&pos, text, why, sizeof why);
    if (mv == XQ_MOVE_NONE)
        fail_msg("%s: %s", text, why);
    double r = see(&pos, value, mv);
    variant_free(v);
    return r;
}

static void undefended_victim_is_won(void **state)
{
    (void)state;
    assert_float_equal(see_of("3k5/9/9/9/4p4/9/9/9/9/4RK3 w - - 0 1", "e0e5"), 1.0, 1e-9);
}

static void defended_victim_loses_the_chariot(void **state)
{
    (void)state;
    /* The black chariot on e9 takes back: 1 - 9. */
    assert_float_equal(see_of("3kr4/9/9/9/4p4/9/9/9/9/4RK3 w - - 0 1", "e0e5"), -8.0, 1e-9);
}

static void battery_recaptures_through_the_first_chariot(void **state)
{
    (void)state;
    /* e1xe5 r×e5 R(e0)×e5: Black is better off not taking back, so Red keeps the pawn. */
    assert_float_equal(see_of("3kr4/9/9/9/4p4/9/9/9/4R4/4RK3 w - - 0 1", "e1e5"), 1.0, 1e-9);
}

static void cannon_recaptures_over_its_screen(void **state)
{
    (void)state;
    /* The horse on e7 is the screen of the cannon on e9 (it does not reach e5 itself). */
    assert_float_equal(see_of("3kc4/9/4n4/9/4p4/9/9/9/9/4RK3 w - - 0 1", "e0e5"), -8.0, 1e-9);
    /* Without the screen the cannon does not reach e5. */
    assert_float_equal(see_of("3kc4/9/9/9/4p4/9/9/9/9/4RK3 w - - 0 1", "e0e5"), 1.0, 1e-9);
}

static void royal_recaptures_only_where_it_is_safe(void **state)
{
    (void)state;
    /* The general takes the chariot on e8: 2 - 9. */
    assert_float_equal(see_of("4k4/4a4/9/9/9/9/9/9/9/3KR4 w - - 0 1", "e0e8"), -7.0, 1e-9);
    /* With the second chariot behind, the general may not take back: Red wins the advisor. */
    assert_float_equal(see_of("4k4/4a4/9/9/9/9/9/9/4R4/3KR4 w - - 0 1", "e1e8"), 2.0, 1e-9);
}

static void least_valuable_recapture_first(void **state)
{
    (void)state;
    /* Red's chariot takes the horse on e5, which Black's pawn (e6) and chariot (a5) guard and
     * Red's horse (d3) backs up. The pawn takes back first: R×n p×R N×p r×N, and Black, a
     * chariot up for a horse, keeps 4 - 9 = -5 for Red. Taking back with the chariot first
     * would let Red's horse win it (0 for Red). */
    assert_float_equal(see_of("3k5/9/9/4p4/r3n4/9/3N5/9/9/4RK3 w - - 0 1", "e0e5"), -5.0, 1e-9);
}

static void applies_to_rule_sets_without_modules(void **state)
{
    (void)state;
    double value[XQ_MAX_KINDS];
    Variant *v = load("xiangqi", value);
    assert_true(see_supported(v));
    variant_free(v);
    v = test_load_variant("jieqi");
    assert_false(see_supported(v)); /* face-down pieces */
    variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(undefended_victim_is_won),
        cmocka_unit_test(defended_victim_loses_the_chariot),
        cmocka_unit_test(battery_recaptures_through_the_first_chariot),
        cmocka_unit_test(cannon_recaptures_over_its_screen),
        cmocka_unit_test(royal_recaptures_only_where_it_is_safe),
        cmocka_unit_test(least_valuable_recapture_first),
        cmocka_unit_test(applies_to_rule_sets_without_modules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
