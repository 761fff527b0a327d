/*
 * Timed waits on the monotonic clock for the engine modules: condition variables created with
 * CLOCK_MONOTONIC (so a wall-clock change never shortens or stretches a timeout) and deadlines
 * computed from a timeout in milliseconds (negative = forever).
 */
#ifndef CUZK_ENGINE_WAIT_H
#define CUZK_ENGINE_WAIT_H

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "cuzk/err.h"

static inline void cz__cond_init_mono(pthread_cond_t *c) {
    pthread_condattr_t a;
    CZ_ASSERT(pthread_condattr_init(&a) == 0);
    CZ_ASSERT(pthread_condattr_setclock(&a, CLOCK_MONOTONIC) == 0);
    CZ_ASSERT(pthread_cond_init(c, &a) == 0);
    pthread_condattr_destroy(&a);
}

/* The absolute monotonic time timeout_ms from now (timeout_ms >= 0). */
static inline struct timespec cz__deadline(int64_t timeout_ms) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += (time_t)(timeout_ms / 1000);
    ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

/* Waits on c until signalled or the deadline (NULL = forever); 1 when the deadline passed. */
static inline int cz__cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m,
                                      const struct timespec *deadline) {
    if (deadline == NULL) {
        pthread_cond_wait(c, m);
        return 0;
    }
    return pthread_cond_timedwait(c, m, deadline) == ETIMEDOUT;
}

#endif
