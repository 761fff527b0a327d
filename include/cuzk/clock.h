/*
 * Clocks. Monotonic time (CLOCK_MONOTONIC) for durations, timeouts and timelines: it never jumps
 * when the wall clock is set. Wall-clock time (CLOCK_REALTIME) only for what people read.
 * Each call is one clock_gettime (a vDSO call, tens of nanoseconds).
 */
#ifndef CUZK_CLOCK_H
#define CUZK_CLOCK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic time in nanoseconds since an arbitrary start (boot); only differences mean anything. */
uint64_t cz_clock_now_ns(void);
/* The same clock in whole milliseconds. */
uint64_t cz_clock_now_ms(void);
/* Nanoseconds from start_ns (a cz_clock_now_ns value) to now; 0 if start_ns is in the future. */
uint64_t cz_clock_elapsed_ns(uint64_t start_ns);
/* Seconds from start_ns to now, as a double (for reports and benchmarks). */
double cz_clock_elapsed_s(uint64_t start_ns);
/* Wall-clock time in milliseconds since the Unix epoch (UTC). */
uint64_t cz_clock_wall_ms(void);

#ifdef __cplusplus
}
#endif

#endif
