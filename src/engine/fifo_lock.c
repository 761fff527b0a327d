/* The first-come-first-served lock with its urgent class; see fifo_lock.h. */
#include "engine/fifo_lock.h"

#include "cuzk/err.h"

void cz__fifo_lock_init(cz__fifo_lock *l) {
    CZ_ASSERT(pthread_mutex_init(&l->m, NULL) == 0);
    CZ_ASSERT(pthread_cond_init(&l->turn, NULL) == 0);
    l->next[0] = l->next[1] = 0;
    l->serving[0] = l->serving[1] = 0;
    l->held = 0;
}

void cz__fifo_lock_destroy(cz__fifo_lock *l) {
    pthread_cond_destroy(&l->turn);
    pthread_mutex_destroy(&l->m);
}

void cz__fifo_lock_acquire(cz__fifo_lock *l, int urgent) {
    const int c = urgent ? 1 : 0;
    pthread_mutex_lock(&l->m);
    uint64_t ticket = l->next[c]++;
    /* an ordinary caller also lets every urgent one waiting go first */
    while (l->held || l->serving[c] != ticket || (c == 0 && l->next[1] != l->serving[1]))
        pthread_cond_wait(&l->turn, &l->m);
    l->held = 1;
    l->serving[c]++;
    pthread_mutex_unlock(&l->m);
}

void cz__fifo_lock_release(cz__fifo_lock *l) {
    pthread_mutex_lock(&l->m);
    CZ_ASSERT(l->held);
    l->held = 0;
    pthread_cond_broadcast(&l->turn);
    pthread_mutex_unlock(&l->m);
}

uint64_t cz__fifo_lock_waiting(cz__fifo_lock *l) {
    pthread_mutex_lock(&l->m);
    uint64_t w = (l->next[0] - l->serving[0]) + (l->next[1] - l->serving[1]);
    pthread_mutex_unlock(&l->m);
    return w;
}
