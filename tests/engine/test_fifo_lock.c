/*
 * The pipeline's per-device GPU lock grants in arrival order: with the lock held, waiters that
 * arrive one after the other (each seen waiting before the next starts) must get it in that
 * order; urgent waiters that arrive after ordinary ones get it first, in their own arrival order;
 * and it excludes: concurrent increments under it, by ordinary and urgent callers, are never
 * lost.
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
    int urgent;
    int *order;
    int *pos;
} waiter;

static void *wait_turn(void *arg) {
    waiter *w = arg;
    cz__fifo_lock_acquire(w->l, w->urgent);
    w->order[(*w->pos)++] = w->id; /* under the lock */
    cz__fifo_lock_release(w->l);
    return NULL;
}

typedef struct {
    cz__fifo_lock *l;
    uint64_t *counter;
    int urgent;
} incr;

static void *count_up(void *arg) {
    incr *c = arg;
    for (int i = 0; i < NINCR; i++) {
        cz__fifo_lock_acquire(c->l, c->urgent);
        uint64_t v = *c->counter;
        if ((i & 255) == 0)
            sched_yield();
        *c->counter = v + 1;
        cz__fifo_lock_release(c->l);
    }
    return NULL;
}

/* With the lock held, waiters arrive one after the other in the order of arrive[] (ids; the ids
 * below nurgent wait as urgent ones); after the release they must have taken it in the order of
 * want[]. */
static void check_grants(const int *arrive, const int *want, int nurgent) {
    cz__fifo_lock l;
    pthread_t t[NWAITERS];
    waiter w[NWAITERS];
    int order[NWAITERS], pos = 0;
    cz__fifo_lock_init(&l);
    cz__fifo_lock_acquire(&l, 0);
    CHECK_EQ_INT(cz__fifo_lock_waiting(&l), 0);
    for (int k = 0; k < NWAITERS; k++) { /* each only once the previous one waits */
        int id = arrive[k];
        w[id] = (waiter){&l, id, id < nurgent, order, &pos};
        CHECK_EQ_INT(pthread_create(&t[id], NULL, wait_turn, &w[id]), 0);
        while (cz__fifo_lock_waiting(&l) != (uint64_t)k + 1)
            sched_yield();
    }
    cz__fifo_lock_release(&l);
    for (int i = 0; i < NWAITERS; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ_INT(pos, NWAITERS);
    for (int k = 0; k < NWAITERS; k++)
        CHECK_EQ_INT(order[k], want[k]);
    CHECK_EQ_INT(cz__fifo_lock_waiting(&l), 0);
    cz__fifo_lock_destroy(&l);
}

/* ordinary waiters from the highest id down: granted in that order */
static void test_arrival_order(void) {
    const int order[NWAITERS] = {7, 6, 5, 4, 3, 2, 1, 0};
    check_grants(order, order, 0);
}

/* ordinary 7, 6, 5, then urgent 1, ordinary 4, urgent 0, ordinary 3, 2: the urgent two first */
static void test_urgent_first(void) {
    const int arrive[NWAITERS] = {7, 6, 5, 1, 4, 0, 3, 2};
    const int want[NWAITERS] = {1, 0, 7, 6, 5, 4, 3, 2};
    check_grants(arrive, want, 2);
}

static void test_exclusion(void) {
    cz__fifo_lock l;
    pthread_t t[NCOUNTERS];
    incr c[NCOUNTERS];
    uint64_t counter = 0;
    cz__fifo_lock_init(&l);
    for (int i = 0; i < NCOUNTERS; i++) {
        c[i] = (incr){&l, &counter, i & 1};
        CHECK_EQ_INT(pthread_create(&t[i], NULL, count_up, &c[i]), 0);
    }
    for (int i = 0; i < NCOUNTERS; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ_INT(counter, (uint64_t)NCOUNTERS * NINCR);
    cz__fifo_lock_destroy(&l);
}

static const test_case cases[] = {
    {"arrival_order", test_arrival_order},
    {"urgent_first", test_urgent_first},
    {"exclusion", test_exclusion},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
