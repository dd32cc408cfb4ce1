/* test_timeman.c - the per-move time budget of engine mode (engine/timeman.h): fixed move
 * times less the overhead, clock shares, increments, moves to go, and the caps that keep the
 * engine from losing on time. Every expected value is worked out by hand in the comment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timeman.h"

static TimeControl movetime(int64_t ms)
{
    TimeControl tc = {0};
    tc.movetime_ms = ms;
    return tc;
}

static TimeControl clock_of(int64_t time_ms, int64_t inc_ms, int movestogo)
{
    TimeControl tc = {0};
    tc.clock = true;
    tc.time_ms = time_ms;
    tc.inc_ms = inc_ms;
    tc.movestogo = movestogo;
    return tc;
}

/* A fixed move time loses min(overhead, movetime / 50). */
static void fixed_move_time(void **state)
{
    (void)state;
    TimeControl tc = movetime(1000);
    assert_int_equal(timeman_budget(&tc, 30), 980);   /* 1000 - min(30, 20) */
    assert_int_equal(timeman_budget(&tc, 500), 980);  /* 1000 - min(500, 20) */
    assert_int_equal(timeman_budget(&tc, 15), 985);   /* 1000 - min(15, 20) */
    assert_int_equal(timeman_budget(&tc, 0), 1000);
    assert_int_equal(timeman_budget(&tc, -5), 1000);  /* a negative overhead counts as 0 */
    tc = movetime(5);
    assert_int_equal(timeman_budget(&tc, 30), 5);     /* 5 - min(30, 0) */
    tc = movetime(1);
    assert_int_equal(timeman_budget(&tc, 30), 1);
    /* A move time wins over a clock given with it. */
    tc = clock_of(60000, 0, 0);
    tc.movetime_ms = 200;
    assert_int_equal(timeman_budget(&tc, 10), 196);   /* 200 - min(10, 4) */
}

/* Neither a move time nor a clock: no time limit (depth, nodes or infinite searches). */
static void no_time_limit(void **state)
{
    (void)state;
    TimeControl tc = {0};
    assert_int_equal(timeman_budget(&tc, 30), 0);
}

/* Sudden death: an even share of 30 moves of what is left after the overhead. */
static void clock_share(void **state)
{
    (void)state;
    TimeControl tc = clock_of(60000, 0, 0);
    assert_int_equal(timeman_budget(&tc, 30), 1999);  /* (60000 - 30) / 30 = 1999 */
    tc = clock_of(60000, 2000, 0);
    assert_int_equal(timeman_budget(&tc, 30), 3499);  /* 1999 + 2000 * 3 / 4 */
    tc = clock_of(60000, -100, 0);
    assert_int_equal(timeman_budget(&tc, 30), 1999);  /* a negative increment adds nothing */
}

/* Moves to go: the share of that many moves (at most 50); the last move before the control may
 * take nine tenths of what is left, any other at most half. */
static void moves_to_go(void **state)
{
    (void)state;
    TimeControl tc = clock_of(10000, 0, 10);
    assert_int_equal(timeman_budget(&tc, 0), 1000);   /* 10000 / 10 */
    tc = clock_of(10000, 0, 200);
    assert_int_equal(timeman_budget(&tc, 0), 200);    /* 10000 / 50 */
    tc = clock_of(10000, 0, 1);
    assert_int_equal(timeman_budget(&tc, 0), 9000);   /* min(10000, 10000 * 9 / 10) */
    tc = clock_of(10000, 0, 2);
    assert_int_equal(timeman_budget(&tc, 0), 5000);   /* min(5000, 10000 / 2) */
}

/* A short clock with a large increment: the increment is credited after the move, so the move
 * never takes more than half of what is on the clock. */
static void increment_cannot_flag(void **state)
{
    (void)state;
    TimeControl tc = clock_of(1000, 5000, 0);
    /* share = 950 / 30 + 3750 = 3781; cap = 950 / 2 = 475 */
    assert_int_equal(timeman_budget(&tc, 50), 475);
}

/* A clock at or below the overhead (or fallen): still a move, at once. */
static void flag_fallen(void **state)
{
    (void)state;
    TimeControl tc = clock_of(0, 0, 0);
    assert_int_equal(timeman_budget(&tc, 50), 1);
    tc = clock_of(51, 0, 0);
    assert_int_equal(timeman_budget(&tc, 50), 1);     /* 1 ms available */
    tc = clock_of(-300, 0, 0);
    assert_int_equal(timeman_budget(&tc, 50), 1);
    tc = clock_of(52, 0, 0);
    assert_int_equal(timeman_budget(&tc, 50), 1);     /* max(1, min(2 / 30, 2 / 2)) */
}

/* Over a whole sudden-death game the budgets never add up to the clock. */
static void game_never_flags(void **state)
{
    (void)state;
    int64_t left = 1000, overhead = 50;
    for (int move = 0; move < 300; move++) {
        TimeControl tc = clock_of(left, 0, 0);
        int64_t b = timeman_budget(&tc, overhead);
        assert_true(b >= 1);
        if (left > overhead)
            assert_true(b + overhead <= left);
        left -= b + overhead;
        if (left <= overhead)
            break;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixed_move_time),       cmocka_unit_test(no_time_limit),
        cmocka_unit_test(clock_share),           cmocka_unit_test(moves_to_go),
        cmocka_unit_test(increment_cannot_flag), cmocka_unit_test(flag_fallen),
        cmocka_unit_test(game_never_flags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
