/* The pipeline's hand-off queues (workq.h). */
#include "engine/workq.h"

#include "cuzk/err.h"

void cz__workq_init(cz__workq *q, size_t cap) {
    CZ_ASSERT(pthread_mutex_init(&q->lock, NULL) == 0);
    CZ_ASSERT(pthread_cond_init(&q->nonempty, NULL) == 0);
    CZ_ASSERT(pthread_cond_init(&q->nonfull, NULL) == 0);
    q->head = q->tail = NULL;
    q->count = 0;
    q->cap = cap;
    q->closed = 0;
}

void cz__workq_destroy(cz__workq *q) {
    CZ_ASSERT(q->count == 0);
    pthread_cond_destroy(&q->nonfull);
    pthread_cond_destroy(&q->nonempty);
    pthread_mutex_destroy(&q->lock);
}

static void wait_room(cz__workq *q, size_t over) {
    while (q->cap > 0 && q->count >= q->cap + over && !q->closed)
        pthread_cond_wait(&q->nonfull, &q->lock);
    CZ_ASSERT(!q->closed);
}

void cz__workq_push(cz__workq *q, cz__wq_node *n) {
    pthread_mutex_lock(&q->lock);
    wait_room(q, 0);
    n->next = NULL;
    if (q->tail != NULL)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
    q->count++;
    pthread_cond_broadcast(&q->nonempty);
    pthread_mutex_unlock(&q->lock);
}

static int before(const cz__wq_node *a, const cz__wq_node *b) {
    return a->order < b->order || (a->order == b->order && a->part < b->part);
}

void cz__workq_push_ordered(cz__workq *q, cz__wq_node *n) {
    cz__workq_push_ordered_over(q, n, 0);
}

/* Inserts n in order (under the lock). */
static void insert_ordered(cz__workq *q, cz__wq_node *n) {
    cz__wq_node **at = &q->head;
    while (*at != NULL && !before(n, *at))
        at = &(*at)->next;
    n->next = *at;
    *at = n;
    if (n->next == NULL)
        q->tail = n;
    q->count++;
    pthread_cond_broadcast(&q->nonempty);
}

void cz__workq_push_ordered_over(cz__workq *q, cz__wq_node *n, size_t over) {
    pthread_mutex_lock(&q->lock);
    wait_room(q, over);
    insert_ordered(q, n);
    pthread_mutex_unlock(&q->lock);
}

int cz__workq_push_ordered_open(cz__workq *q, cz__wq_node *n) {
    int open;
    CZ_ASSERT(q->cap == 0);
    pthread_mutex_lock(&q->lock);
    open = !q->closed;
    if (open)
        insert_ordered(q, n);
    pthread_mutex_unlock(&q->lock);
    return open;
}

/* The head, unlinked (q->head not NULL; under the lock). */
static cz__wq_node *take_head(cz__workq *q) {
    cz__wq_node *n = q->head;
    q->head = n->next;
    if (q->head == NULL)
        q->tail = NULL;
    q->count--;
    pthread_cond_broadcast(&q->nonfull); /* pushers may wait for different room (over) */
    return n;
}

cz__wq_node *cz__workq_pop(cz__workq *q) {
    cz__wq_node *n = NULL;
    pthread_mutex_lock(&q->lock);
    while (q->head == NULL && !q->closed)
        pthread_cond_wait(&q->nonempty, &q->lock);
    if (q->head != NULL)
        n = take_head(q);
    pthread_mutex_unlock(&q->lock);
    return n;
}

cz__wq_node *cz__workq_pop_below(cz__workq *q, uint64_t bound) {
    cz__wq_node *n = NULL;
    pthread_mutex_lock(&q->lock);
    while ((q->head == NULL || q->head->order >= bound) && !q->closed)
        pthread_cond_wait(&q->nonempty, &q->lock);
    if (q->head != NULL && q->head->order < bound)
        n = take_head(q);
    pthread_mutex_unlock(&q->lock);
    return n;
}

cz__wq_node *cz__workq_try_pop_below(cz__workq *q, uint64_t bound) {
    cz__wq_node *n = NULL;
    pthread_mutex_lock(&q->lock);
    if (q->head != NULL && q->head->order < bound)
        n = take_head(q);
    pthread_mutex_unlock(&q->lock);
    return n;
}

void cz__workq_close(cz__workq *q) {
    pthread_mutex_lock(&q->lock);
    q->closed = 1;
    pthread_cond_broadcast(&q->nonempty);
    pthread_cond_broadcast(&q->nonfull);
    pthread_mutex_unlock(&q->lock);
}

size_t cz__workq_count(cz__workq *q) {
    pthread_mutex_lock(&q->lock);
    size_t n = q->count;
    pthread_mutex_unlock(&q->lock);
    return n;
}
