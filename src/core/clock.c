/*
 * Clocks (include/cuzk/clock.h): thin wrappers over clock_gettime, which cannot fail for these
 * clock ids on Linux.
 */
#include "cuzk/clock.h"

#include <time.h>

static uint64_t read_ns(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cz_clock_now_ns(void) {
    return read_ns(CLOCK_MONOTONIC);
}

uint64_t cz_clock_now_ms(void) {
    return read_ns(CLOCK_MONOTONIC) / 1000000u;
}

uint64_t cz_clock_elapsed_ns(uint64_t start_ns) {
    uint64_t now = read_ns(CLOCK_MONOTONIC);
    return now > start_ns ? now - start_ns : 0;
}

double cz_clock_elapsed_s(uint64_t start_ns) {
    return (double)cz_clock_elapsed_ns(start_ns) * 1e-9;
}

uint64_t cz_clock_wall_ms(void) {
    return read_ns(CLOCK_REALTIME) / 1000000u;
}
