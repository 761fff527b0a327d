/*
 * The pipeline's per-device GPU lock grants in arrival order: with the lock held, waiters that
 * arrive one after the other (each seen waiting before the next starts) must get it in that
 * order; and it excludes: concurrent increments under it are never lost.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "engine/fifo_lock.h"
#include "test.h"

enum { NWAITERS = 8, NCOUNTERS = 4, NINCR = 20000 };

typedef struct {
    cz__fifo_lock *l;
    int id;
    int *order;
    int *pos;
} waiter;

static void *wait_turn(void *arg) {
    waiter *w = arg;
    cz__fifo_lock_acquire(w->l);
    w->order[(*w->pos)++] = w->id; /* under the lock */
    cz__fifo_lock_release(w->l);
    return NULL;
}

typedef struct {
    cz__fifo_lock *l;
    uint64_t *counter;
} incr;

static void *count_up(void *arg) {
    incr *c = arg;
    for (int i = 0; i < NINCR; i++) {
        cz__fifo_lock_acquire(c->l);
        uint64_t v = *c->counter;
        if ((i & 255) == 0)
            sched_yield();
        *c->counter = v + 1;
        cz__fifo_lock_release(c->l);
    }
    return NULL;
}

static void test_arrival_order(void) {
    cz__fifo_lock l;
    pthread_t t[NWAITERS];
    waiter w[NWAITERS];
    int order[NWAITERS], pos = 0;
    cz__fifo_lock_init(&l);
    cz__fifo_lock_acquire(&l);
    CHECK_EQ_INT(cz__fifo_lock_waiting(&l), 0);
    /* Start the waiters from the highest id down, each only once the previous one waits. */
    for (int k = 0; k < NWAITERS; k++) {
        int id = NWAITERS - 1 - k;
        w[id] = (waiter){&l, id, order, &pos};
        CHECK_EQ_INT(pthread_create(&t[id], NULL, wait_turn, &w[id]), 0);
        while (cz__fifo_lock_waiting(&l) != (uint64_t)k + 1)
            sched_yield();
    }
    cz__fifo_lock_release(&l);
    for (int i = 0; i < NWAITERS; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ_INT(pos, NWAITERS);
    for (int k = 0; k < NWAITERS; k++)
        CHECK_EQ_INT(order[k], NWAITERS - 1 - k);
    CHECK_EQ_INT(cz__fifo_lock_waiting(&l), 0);
    cz__fifo_lock_destroy(&l);
}

static void test_exclusion(void) {
    cz__fifo_lock l;
    pthread_t t[NCOUNTERS];
    incr c[NCOUNTERS];
    uint64_t counter = 0;
    cz__fifo_lock_init(&l);
    for (int i = 0; i < NCOUNTERS; i++) {
        c[i] = (incr){&l, &counter};
        CHECK_EQ_INT(pthread_create(&t[i], NULL, count_up, &c[i]), 0);
    }
    for (int i = 0; i < NCOUNTERS; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ_INT(counter, (uint64_t)NCOUNTERS * NINCR);
    cz__fifo_lock_destroy(&l);
}

static const test_case cases[] = {
    {"arrival_order", test_arrival_order},
    {"exclusion", test_exclusion},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
