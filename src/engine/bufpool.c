/*
 * The buffer pool (include/cuzk/engine.h, "Buffer pool"): reusable host buffers for the
 * pipeline's per-partition vectors (the evaluations a, b and a partition's witness, which the GPU
 * uploads), pinned when the engine has GPUs and asks for it (pinned_buffers), so that a partition
 * neither mallocs and frees gigabytes nor pins them again (cudaHostAlloc costs about as much as
 * touching the memory).
 *
 * Buffers come from cz_host_alloc (hostmem.c): the size is in the block's header, pinning falls
 * back to pageable memory there. Idle buffers wait in one list; get takes an idle buffer of
 * exactly the asked size (partitions of a workload ask for the same sizes, and an exact match
 * keeps the budget's arithmetic exact), newest first (warm in cache), else allocates.
 *
 * Budget: a buffer in use is paid for by its partition's reservation (the workload's part_bytes
 * counts it). An idle buffer is paid for by the pool's own reservation `res`: put keeps a buffer
 * only if cz_budget_try_reserve grants its size at once (never waiting, never evicting, never
 * ahead of a waiter) and the idle total stays under max_idle_bytes; otherwise it frees it. get
 * hands the idle buffer's bytes back to the budget (its new partition already reserved them).
 * cz_bufpool_evict is a budget evictor: it frees idle buffers, oldest first, then calls the
 * next evictor (the SRS manager's) for what is still missing, so idle buffers go before keys.
 *
 * Lock order: pool lock -> budget lock (try_reserve, release). The budget calls the evictor
 * without its lock, and the evictor takes the pool lock only while unlinking.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cuzk/engine.h"

typedef struct idle {
    void *buf;
    size_t bytes;
    struct idle *next; /* newer -> older */
} idle;

struct cz_bufpool {
    pthread_mutex_t lock; /* everything below */
    cz_bufpool_config cfg;
    cz_reservation res; /* the idle buffers' bytes */
    idle *list;         /* newest first */
    cz_bufpool_stats st;
    cz_budget_evict_fn next;
    void *next_arg;
};

int cz_bufpool_create(cz_bufpool **out, const cz_bufpool_config *cfg, cz_errinfo *ei) {
    cz_bufpool *p = calloc(1, sizeof *p);
    *out = NULL;
    if (p == NULL)
        return cz_fail(ei, CZ_ENOMEM, "buffer pool");
    if (cfg != NULL)
        p->cfg = *cfg;
    if (p->cfg.max_idle_bytes == 0)
        p->cfg.max_idle_bytes =
            p->cfg.budget != NULL ? cz_budget_total(p->cfg.budget) / 4 : (uint64_t)4 << 30;
    p->res.budget = p->cfg.budget;
    CZ_ASSERT(pthread_mutex_init(&p->lock, NULL) == 0);
    *out = p;
    return CZ_OK;
}

void cz_bufpool_set_next_evictor(cz_bufpool *p, cz_budget_evict_fn fn, void *arg) {
    pthread_mutex_lock(&p->lock);
    p->next = fn;
    p->next_arg = arg;
    pthread_mutex_unlock(&p->lock);
}

/* Frees idle buffers (oldest first) until need bytes are freed (need 0: all); returns the bytes. */
static uint64_t trim(cz_bufpool *p, uint64_t need) {
    uint64_t freed = 0;
    while (need == 0 || freed < need) {
        pthread_mutex_lock(&p->lock);
        idle **link = &p->list, *victim;
        if (*link == NULL) {
            pthread_mutex_unlock(&p->lock);
            break;
        }
        while ((*link)->next != NULL)
            link = &(*link)->next;
        victim = *link;
        *link = NULL;
        p->st.idle_bytes -= victim->bytes;
        p->st.nidle--;
        p->st.nfreed++;
        if (p->res.budget != NULL)
            cz_reservation_release(&p->res, victim->bytes);
        pthread_mutex_unlock(&p->lock);
        freed += victim->bytes;
        cz_host_free(victim->buf);
        free(victim);
    }
    return freed;
}

void cz_bufpool_destroy(cz_bufpool *p) {
    if (p == NULL)
        return;
    trim(p, 0);
    CZ_ASSERT(p->res.bytes == 0);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void *cz_bufpool_get(cz_bufpool *p, size_t bytes) {
    if (p == NULL)
        return cz_host_alloc(bytes, 0);
    pthread_mutex_lock(&p->lock);
    idle **link = &p->list;
    while (*link != NULL && (*link)->bytes != bytes)
        link = &(*link)->next;
    if (*link != NULL) {
        idle *it = *link;
        void *buf = it->buf;
        *link = it->next;
        p->st.idle_bytes -= bytes;
        p->st.nidle--;
        p->st.nreuses++;
        p->st.inuse_bytes += bytes;
        if (p->res.budget != NULL)
            cz_reservation_release(&p->res, bytes);
        pthread_mutex_unlock(&p->lock);
        free(it);
        return buf;
    }
    pthread_mutex_unlock(&p->lock);
    void *buf = cz_host_alloc(bytes, p->cfg.pinned);
    if (buf != NULL) {
        pthread_mutex_lock(&p->lock);
        p->st.nallocs++;
        p->st.inuse_bytes += bytes;
        pthread_mutex_unlock(&p->lock);
    }
    return buf;
}

void cz_bufpool_put(cz_bufpool *p, void *buf) {
    if (buf == NULL)
        return;
    if (p == NULL) {
        cz_host_free(buf);
        return;
    }
    size_t bytes = cz_host_size(buf);
    idle *it = malloc(sizeof *it);
    int keep = 0;
    pthread_mutex_lock(&p->lock);
    CZ_ASSERT(p->st.inuse_bytes >= bytes);
    p->st.inuse_bytes -= bytes;
    if (it != NULL && bytes <= p->cfg.max_idle_bytes - p->st.idle_bytes) {
        cz_reservation r = {NULL, 0};
        keep = p->res.budget == NULL || cz_budget_try_reserve(&r, p->res.budget, bytes);
        p->res.bytes += r.bytes; /* one reservation for every idle byte */
    }
    if (keep) {
        it->buf = buf;
        it->bytes = bytes;
        it->next = p->list;
        p->list = it;
        p->st.idle_bytes += bytes;
        p->st.nidle++;
    } else {
        p->st.nfreed++;
    }
    pthread_mutex_unlock(&p->lock);
    if (!keep) {
        free(it);
        cz_host_free(buf);
    }
}

uint64_t cz_bufpool_evict(void *arg, uint64_t need) {
    cz_bufpool *p = arg;
    uint64_t freed = trim(p, need == 0 ? 1 : need);
    pthread_mutex_lock(&p->lock);
    cz_budget_evict_fn next = p->next;
    void *next_arg = p->next_arg;
    pthread_mutex_unlock(&p->lock);
    if (next != NULL && (need == 0 ? freed == 0 : freed < need))
        freed += next(next_arg, need == 0 ? 0 : need - freed);
    return freed;
}

void cz_bufpool_stats_get(cz_bufpool_stats *out, cz_bufpool *p) {
    pthread_mutex_lock(&p->lock);
    *out = p->st;
    out->reserved_bytes = p->res.bytes;
    pthread_mutex_unlock(&p->lock);
}
