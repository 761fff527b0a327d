/*
 * The pipeline's hand-off queues: a mutex, two condition variables and an intrusive singly
 * linked list. FIFO (push appends) or ordered (push_ordered inserts by (order, part), smallest
 * first; the lists hold a few dozen partitions at most, so a linear insert is cheap). A capacity
 * > 0 makes push wait while the queue is full. close() wakes everyone: pop then returns what is
 * left and NULL once empty; push after close is a bug (CZ_ASSERT).
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
/* Waits for a node; NULL once the queue is closed and empty. */
cz__wq_node *cz__workq_pop(cz__workq *q);
void cz__workq_close(cz__workq *q);
size_t cz__workq_count(cz__workq *q);

#endif
