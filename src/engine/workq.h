/*
 * The pipeline's hand-off queues: a mutex, two condition variables and an intrusive singly
 * linked list. FIFO (push appends) or ordered (push_ordered inserts by (order, part), smallest
 * first; the lists hold a few dozen partitions at most, so a linear insert is cheap). A capacity
 * > 0 makes push wait while the queue is full (push_ordered_over: while it holds capacity + over
 * nodes). pop takes the head; pop_below only a head whose order is below a bound (a consumer
 * for the most urgent nodes; pushes wake every waiting consumer, so none misses a node meant for
 * it); try_pop_below the same without waiting. close() wakes everyone: pop then returns what is
 * left and NULL once empty, pop_below NULL once no head below its bound is left; push after close
 * is a bug (CZ_ASSERT), push_ordered_open says it was refused.
 */
#ifndef CUZK_ENGINE_WORKQ_H
#define CUZK_ENGINE_WORKQ_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cz__wq_node {
    struct cz__wq_node *next;
    uint64_t order;
    uint32_t part;
} cz__wq_node;

typedef struct cz__workq {
    pthread_mutex_t lock;
    pthread_cond_t nonempty, nonfull;
    cz__wq_node *head, *tail;
    size_t count, cap;
    int closed;
} cz__workq;

void cz__workq_init(cz__workq *q, size_t cap);
void cz__workq_destroy(cz__workq *q);
void cz__workq_push(cz__workq *q, cz__wq_node *n);
void cz__workq_push_ordered(cz__workq *q, cz__wq_node *n);
void cz__workq_push_ordered_over(cz__workq *q, cz__wq_node *n, size_t over);
/* push_ordered, unless the queue is closed: 1 pushed, 0 closed (n not taken). Only for a queue
 * without a capacity (it never waits). */
int cz__workq_push_ordered_open(cz__workq *q, cz__wq_node *n);
/* Waits for a node; NULL once the queue is closed and empty. */
cz__wq_node *cz__workq_pop(cz__workq *q);
/* Waits for a head with order < bound; NULL once the queue is closed and has none. */
cz__wq_node *cz__workq_pop_below(cz__workq *q, uint64_t bound);
/* The head if its order is below bound, else NULL at once (also once closed). */
cz__wq_node *cz__workq_try_pop_below(cz__workq *q, uint64_t bound);
void cz__workq_close(cz__workq *q);
size_t cz__workq_count(cz__workq *q);

#endif
