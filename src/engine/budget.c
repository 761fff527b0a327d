/*
 * The memory budget (include/cuzk/engine.h).
 *
 * State: total, used, peak, and a FIFO queue of waiters (nodes on the waiting threads' stacks).
 * A request is granted only when it is at the head of the queue and fits (used + bytes <=
 * total), or, with nobody waiting, at once when it fits. So a large request that arrived first
 * is never overtaken by smaller later ones: the order of grants is the order of arrival, which
 * the dispatcher makes (job seq, partition) order. The price is head-of-line blocking, which is
 * what the engine wants (the oldest job finishes first).
 *
 * When the head does not fit it calls the attached memory manager's evictor once, or with no
 * manager the budget's own (lock dropped; the evictor releases reservations it owns, idle
 * buffers or idle proving keys, which re-enters this file through cz_reservation_release; the
 * manager asks the budget's evictor itself for what it could not free) and otherwise sleeps until a
 * release, a wake or its deadline. Every change that can let a waiter proceed (a release, a grant
 * that makes a new head, a waiter leaving) broadcasts `changed`; waiters are few (the dispatcher,
 * key loads), so a broadcast costs nothing worth a per-waiter condition variable.
 *
 * A request may bring a reclaim hook of its own (cz__budget_reserve_reclaim, src/engine/mem.h),
 * called in place of the evictor. Besides freeing memory it may move bytes that are already
 * reserved into the request (cz__reservation_move from a reservation its caller owns: the memory
 * manager's idle buffers into the partition that will use them): `used` does not change, the
 * request simply needs less, and no other waiter can take those bytes in between, as it could if
 * they were released and reserved again.
 *
 * Invariant, checked on every grant: used <= total. Locking: `lock` protects everything here;
 * it is never held while calling the evictor or anything outside this file except the abort
 * predicate, which must be a cheap flag test that takes no lock of the budget.
 */
#include "cuzk/engine.h"

#include <stdlib.h>
#include <unistd.h>

#include "engine/mem.h"
#include "engine/wait.h"

typedef struct waiter {
    uint64_t bytes;
    struct waiter *next;
} waiter;

struct cz_budget {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint64_t total, used, peak;
    waiter *head, *tail;
    size_t nwaiting;
    uint64_t waiting_bytes;
    uint64_t ngranted, nevict_calls, nrefused;
    cz_budget_evict_fn evict; /* the caller's (cz_budget_set_evictor) */
    void *evict_arg;
    cz_budget_evict_fn mem_evict; /* the attached memory manager's, asked first */
    void *mem_evict_arg;
};

int cz_budget_create(cz_budget **out, const cz_budget_config *cfg, cz_errinfo *ei) {
    *out = NULL;
    uint64_t total = cfg->total_bytes;
    if (total == 0) {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages <= 0 || page <= 0)
            return cz_fail(ei, CZ_EINTERNAL, "budget: cannot read the physical memory size");
        uint64_t phys = (uint64_t)pages * (uint64_t)page;
        if (cfg->margin_bytes >= phys)
            return cz_fail(ei, CZ_EINVAL,
                           "budget: margin of %llu bytes leaves nothing of %llu bytes of RAM",
                           (unsigned long long)cfg->margin_bytes, (unsigned long long)phys);
        total = phys - cfg->margin_bytes;
    }
    cz_budget *b = calloc(1, sizeof *b);
    if (b == NULL)
        return cz_fail(ei, CZ_ENOMEM, "budget: out of memory");
    pthread_mutex_init(&b->lock, NULL);
    cz__cond_init_mono(&b->changed);
    b->total = total;
    *out = b;
    return CZ_OK;
}

void cz_budget_destroy(cz_budget *b) {
    if (b == NULL)
        return;
    CZ_ASSERT(b->used == 0 && b->head == NULL);
    pthread_cond_destroy(&b->changed);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

void cz_budget_set_evictor(cz_budget *b, cz_budget_evict_fn fn, void *arg) {
    pthread_mutex_lock(&b->lock);
    b->evict = fn;
    b->evict_arg = arg;
    pthread_mutex_unlock(&b->lock);
}

void cz__budget_attach(cz_budget *b, cz_budget_evict_fn fn, void *arg) {
    pthread_mutex_lock(&b->lock);
    CZ_ASSERT(fn == NULL || b->mem_evict == NULL); /* one manager per budget */
    b->mem_evict = fn;
    b->mem_evict_arg = arg;
    pthread_mutex_unlock(&b->lock);
}

uint64_t cz__budget_evict_next(cz_budget *b, uint64_t need) {
    cz_budget_evict_fn fn;
    void *arg;
    cz_budget_get_evictor(b, &fn, &arg);
    return fn != NULL ? fn(arg, need) : 0;
}

uint64_t cz_budget_total(const cz_budget *b) {
    return b->total; /* immutable after create */
}

/* Grants bytes on top of what out holds (bytes adopted into it). Called with the lock held. */
static void grant(cz_budget *b, cz_reservation *out, uint64_t bytes) {
    CZ_ASSERT(bytes <= b->total - b->used);
    b->used += bytes;
    CZ_ASSERT(b->used <= b->total);
    if (b->used > b->peak)
        b->peak = b->used;
    b->ngranted++;
    out->budget = b;
    out->bytes += bytes;
}

/* Takes w off the queue and tells the others (a new head may now proceed). Lock held. */
static void leave(cz_budget *b, waiter *w) {
    waiter **link = &b->head, *prev = NULL;
    while (*link != w) {
        prev = *link;
        link = &(*link)->next;
    }
    *link = w->next;
    if (b->tail == w)
        b->tail = prev;
    b->nwaiting--;
    b->waiting_bytes -= w->bytes;
    pthread_cond_broadcast(&b->changed);
}

int cz_budget_reserve(cz_reservation *out, cz_budget *b, uint64_t bytes, int64_t timeout_ms,
                      cz_budget_abort_fn abort, void *abort_arg, cz_errinfo *ei) {
    return cz__budget_reserve_reclaim(out, b, bytes, timeout_ms, abort, abort_arg, NULL, NULL, ei);
}

int cz__budget_reserve_reclaim(cz_reservation *out, cz_budget *b, uint64_t bytes,
                               int64_t timeout_ms, cz_budget_abort_fn abort, void *abort_arg,
                               cz_budget_evict_fn reclaim, void *reclaim_arg, cz_errinfo *ei) {
    out->budget = b;
    out->bytes = 0;
    out->part = 0;
    if (bytes == 0)
        return CZ_OK;
    if (bytes > b->total) {
        pthread_mutex_lock(&b->lock);
        b->nrefused++;
        pthread_mutex_unlock(&b->lock);
        return cz_fail(ei, CZ_ERANGE,
                       "budget: request of %llu bytes is larger than the whole budget (%llu bytes)",
                       (unsigned long long)bytes, (unsigned long long)b->total);
    }
    struct timespec deadline = cz__deadline(timeout_ms < 0 ? 0 : timeout_ms);
    int rc = CZ_OK;
    pthread_mutex_lock(&b->lock);
    if (b->head == NULL && bytes <= b->total - b->used) {
        grant(b, out, bytes);
        goto out;
    }
    waiter w = {bytes, NULL};
    if (b->tail != NULL)
        b->tail->next = &w;
    else
        b->head = &w;
    b->tail = &w;
    b->nwaiting++;
    b->waiting_bytes += bytes;
    int evict_tried = 0;
    for (;;) {
        /* What is still missing: the hook may have moved reserved bytes into out. */
        uint64_t need = bytes - out->bytes;
        b->waiting_bytes -= w.bytes - need;
        w.bytes = need;
        if (b->head == &w && need <= b->total - b->used) {
            grant(b, out, need);
            leave(b, &w);
            break;
        }
        if (abort != NULL && abort(abort_arg)) {
            leave(b, &w);
            b->nrefused++;
            rc = cz_fail(ei, CZ_ECANCELED, "budget: wait for %llu bytes aborted",
                         (unsigned long long)bytes);
            break;
        }
        cz_budget_evict_fn fn = reclaim != NULL        ? reclaim
                                : b->mem_evict != NULL ? b->mem_evict
                                                       : b->evict;
        void *arg = reclaim != NULL        ? reclaim_arg
                    : b->mem_evict != NULL ? b->mem_evict_arg
                                           : b->evict_arg;
        if (b->head == &w && fn != NULL && !evict_tried) {
            uint64_t short_by = need - (b->total - b->used);
            b->nevict_calls++;
            pthread_mutex_unlock(&b->lock);
            uint64_t freed = fn(arg, short_by);
            pthread_mutex_lock(&b->lock);
            CZ_ASSERT(out->bytes <= bytes); /* the hook moved no more than was asked */
            evict_tried = freed == 0;       /* something was freed: look again before sleeping */
            continue;
        }
        if (timeout_ms == 0 ||
            cz__cond_wait_until(&b->changed, &b->lock, timeout_ms < 0 ? NULL : &deadline)) {
            if (b->head == &w && need <= b->total - b->used)
                continue; /* fits after all: grant it above */
            leave(b, &w);
            b->nrefused++;
            rc = cz_fail(ei, CZ_ETIMEDOUT,
                         "budget: %llu bytes not available within %lld ms (%llu of %llu used)",
                         (unsigned long long)bytes, (long long)timeout_ms,
                         (unsigned long long)b->used, (unsigned long long)b->total);
            break;
        }
        evict_tried = 0; /* something changed: the evictor may find room now */
    }
out:
    pthread_mutex_unlock(&b->lock);
    return rc;
}

int cz_budget_try_reserve(cz_reservation *out, cz_budget *b, uint64_t bytes) {
    int ok = 1;
    out->budget = b;
    out->bytes = 0;
    out->part = 0;
    if (bytes == 0)
        return 1;
    pthread_mutex_lock(&b->lock);
    if (b->head == NULL && bytes <= b->total - b->used)
        grant(b, out, bytes);
    else
        ok = 0;
    pthread_mutex_unlock(&b->lock);
    return ok;
}

void cz_budget_get_evictor(cz_budget *b, cz_budget_evict_fn *fn, void **arg) {
    pthread_mutex_lock(&b->lock);
    *fn = b->evict;
    *arg = b->evict_arg;
    pthread_mutex_unlock(&b->lock);
}

void cz_reservation_release(cz_reservation *r, uint64_t bytes) {
    CZ_ASSERT(bytes <= r->bytes);
    if (bytes == 0)
        return;
    cz_budget *b = r->budget;
    pthread_mutex_lock(&b->lock);
    CZ_ASSERT(bytes <= b->used);
    b->used -= bytes;
    r->bytes -= bytes;
    pthread_cond_broadcast(&b->changed);
    pthread_mutex_unlock(&b->lock);
}

void cz__reservation_move(cz_reservation *to, cz_reservation *from, uint64_t bytes) {
    CZ_ASSERT(bytes <= from->bytes);
    if (to->budget == NULL)
        to->budget = from->budget;
    CZ_ASSERT(to->budget == from->budget);
    from->bytes -= bytes;
    to->bytes += bytes;
}

void cz_reservation_release_all(cz_reservation *r) {
    if (r->budget != NULL)
        cz_reservation_release(r, r->bytes);
}

void cz_budget_wake(cz_budget *b) {
    pthread_mutex_lock(&b->lock);
    pthread_cond_broadcast(&b->changed);
    pthread_mutex_unlock(&b->lock);
}

void cz_budget_stats_get(cz_budget_stats *out, cz_budget *b) {
    pthread_mutex_lock(&b->lock);
    out->total = b->total;
    out->used = b->used;
    out->peak = b->peak;
    out->waiting_bytes = b->waiting_bytes;
    out->nwaiting = b->nwaiting;
    out->ngranted = b->ngranted;
    out->nevict_calls = b->nevict_calls;
    out->nrefused = b->nrefused;
    pthread_mutex_unlock(&b->lock);
}
