/*
 * Clocks: monotonic time advances by at least a slept interval, elapsed time is never negative,
 * milliseconds agree with nanoseconds, and the wall clock agrees with time(2).
 */
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/clock.h"
#include "test.h"

static void test_clock(void) {
    uint64_t a = cz_clock_now_ns();
    usleep(20000);
    uint64_t b = cz_clock_now_ns();
    CHECK(b >= a + 20000000u);
    CHECK(cz_clock_elapsed_ns(a) >= b - a);
    CHECK_EQ_INT(cz_clock_elapsed_ns(b + 1000000000u), 0);
    CHECK(cz_clock_elapsed_s(a) >= 0.02);
    uint64_t ms = cz_clock_now_ms();
    CHECK(ms >= b / 1000000u);
    /* The wall clock agrees with time(2) to within a second or two. */
    uint64_t wall_s = cz_clock_wall_ms() / 1000u;
    uint64_t t = (uint64_t)time(NULL);
    CHECK(wall_s + 2 >= t && wall_s <= t + 2);
}

static const test_case cases[] = {
    {"clock", test_clock},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
