/*
 * A first-come-first-served lock with an urgent class (tickets on a mutex and a condition
 * variable), for the per-device GPU lock of the pipeline. A plain pthread mutex is not fair: at
 * scale 2^27 one GPU worker was seen waiting for seconds while the other workers of the device
 * took the lock twice, so a partition that was ready first finished late and the assembler
 * waited for it. Here the lock is granted in the order the callers asked for it, except that an
 * urgent caller (a Critical partition: a WinningPoSt) goes before every ordinary one waiting;
 * urgent callers are served in their own arrival order. Waiters sleep on the condition variable
 * (every release wakes them all; there are at most a few GPU workers per device).
 */
#ifndef CUZK_ENGINE_FIFO_LOCK_H
#define CUZK_ENGINE_FIFO_LOCK_H

#include <pthread.h>
#include <stdint.h>

typedef struct cz__fifo_lock {
    pthread_mutex_t m;
    pthread_cond_t turn;
    uint64_t next[2];    /* per class (0 ordinary, 1 urgent): the ticket the next caller draws */
    uint64_t serving[2]; /* per class: the ticket that may take the lock when it is free */
    int held;
} cz__fifo_lock;

void cz__fifo_lock_init(cz__fifo_lock *l);
void cz__fifo_lock_destroy(cz__fifo_lock *l);
/* urgent != 0: before every ordinary caller waiting */
void cz__fifo_lock_acquire(cz__fifo_lock *l, int urgent);
void cz__fifo_lock_release(cz__fifo_lock *l);
/* Callers waiting for the lock now, not counting the holder (for tests and status). */
uint64_t cz__fifo_lock_waiting(cz__fifo_lock *l);

#endif
