/*
 * The buffer pool (include/cuzk/engine.h, "Buffer pool"): reusable host buffers for the
 * pipeline's per-partition vectors (the evaluations a, b and a partition's witness, which the GPU
 * uploads), pinned when the engine has GPUs (unless pageable_buffers), so that a partition
 * neither mallocs and frees gigabytes nor pins them again (cudaHostAlloc / cudaFreeHost of 4 GiB
 * take seconds and hold up the other threads' device calls).
 *
 * Buffers come from cz_host_alloc (hostmem.c): the size is in the block's header, pinning falls
 * back to pageable memory there. The pool knows every buffer it handed out (list `inuse`) and
 * keeps the others (list `idle`, newest first); get takes an idle buffer of exactly the asked
 * size (partitions of a workload ask for the same sizes, and an exact match keeps the budget's
 * arithmetic exact), else allocates.
 *
 * Who pays. Each buffer's bytes are counted once in the budget, by one payer:
 *   PAY_POOL  the pool's own reservation `res` (idle buffers, and buffers still in use whose
 *             partition was released before they came back);
 *   PAY_RES   a partition's reservation (the buffer's `res`): the one that got it, or that adopted
 *             it while waiting for memory; it stays the payer when the buffer comes back before
 *             the reservation is released ("owed");
 *   PAY_NONE  nobody (a caller without a reservation, or one that could not cover it at its
 *             release): charged when it comes back (try_reserve), else freed.
 * The moves between payers never release and reserve again (which would let another waiter take
 * the bytes and leave the buffer to be freed, the churn this scheme removes):
 *   get          an idle buffer res already pays for first (adopted), then one the pool pays for
 *                (the pool releases its bytes: res reserved them), then one another reservation
 *                still pays for (both pay until that one is released: counted twice for a while,
 *                never missing); else a new one. res pays for it from now on.
 *   put          back to idle with the same payer: no budget call while a reservation pays.
 *   release      the partition gives bytes up: its idle buffers' bytes move (cz_reservation_move)
 *                into the pool's reservation, the rest is released; release_all also hands the
 *                pool the buffers it pays for that are still in use.
 *   adopt        the dispatcher's reclaim hook (cz_budget_reserve_adopt): idle buffers of the
 *                sizes the new partition will get move, with their bytes, from the pool into its
 *                reservation instead of being freed; without any, it frees idle buffers the
 *                partition cannot use (and those it could only when nothing else will come back).
 *   evict        the budget's evictor, for every other request (a key load): frees idle buffers
 *                the pool pays for, oldest first, then calls the next evictor (the SRS manager's).
 *   prefill      ahead of the jobs (cz_engine_prefill): new idle buffers the pool pays for, as far
 *                as the budget grants them at once, so pinning is not on a partition's path.
 * Idle bytes the pool pays for stay under max_idle_bytes (beyond it a buffer is freed).
 *
 * Lock order: pool lock -> budget lock (release, try_reserve, wake). The budget calls adopt and
 * evict without its lock. Buffers are freed outside the pool lock, and before their bytes are
 * released, so the budget never counts less than what is allocated.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cuzk/engine.h"

enum { PAY_POOL, PAY_RES, PAY_NONE };

typedef struct entry {
    void *buf;
    size_t bytes;
    int paid;            /* PAY_* */
    cz_reservation *res; /* the payer with PAY_RES */
    struct entry *next;
} entry;

struct cz_bufpool {
    pthread_mutex_t lock; /* everything below */
    cz_bufpool_config cfg;
    cz_reservation res; /* the PAY_POOL buffers' bytes */
    entry *idle;        /* newest first */
    entry *inuse;
    uint64_t idle_pool; /* idle bytes paid by res (max_idle_bytes caps them) */
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
            p->cfg.budget != NULL ? cz_budget_total(p->cfg.budget) : (uint64_t)4 << 30;
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

static int charged(const cz_bufpool *p) {
    return p->res.budget != NULL;
}

/* Lock held. Whether the pool may pay for bytes more of idle buffers. */
static int fits_idle(const cz_bufpool *p, uint64_t bytes) {
    return bytes <= p->cfg.max_idle_bytes - p->idle_pool;
}

/* Lock held. Counts e in (add 1) or out of (add 0) the idle totals, by its payer. */
static void count_idle(cz_bufpool *p, const entry *e, int add) {
    uint64_t b = add ? e->bytes : (uint64_t)0 - e->bytes; /* unsigned: adding it subtracts */
    p->st.idle_bytes += b;
    p->st.nidle += add ? 1 : (uint64_t)0 - 1;
    *(e->paid == PAY_POOL ? &p->idle_pool : &p->st.owed_bytes) += b;
}

/* Lock held. e's payer becomes the pool (the bytes already moved into p->res). */
static void pool_pays(cz_bufpool *p, entry *e, int idle) {
    if (idle)
        count_idle(p, e, 0);
    e->paid = PAY_POOL;
    e->res = NULL;
    if (idle) {
        count_idle(p, e, 1);
        cz_budget_wake(p->res.budget); /* a waiting partition may adopt it now */
    }
}

static void free_entries(entry *dead) {
    while (dead != NULL) {
        entry *e = dead;
        dead = e->next;
        cz_host_free(e->buf);
        free(e);
    }
}

/* Frees a buffer the pool paid for (unlinked), then gives its bytes back to the budget. */
static void free_pool_paid(cz_bufpool *p, entry *e) {
    uint64_t bytes = e->bytes;
    e->next = NULL;
    free_entries(e);
    if (charged(p)) {
        pthread_mutex_lock(&p->lock);
        cz_reservation_release(&p->res, bytes);
        pthread_mutex_unlock(&p->lock);
    }
}

/* Frees idle buffers the pool pays for, oldest first, until need bytes are freed (need 0: all),
 * skipping the sizes keep wants (keep NULL: none); returns the bytes freed. */
static uint64_t trim(cz_bufpool *p, uint64_t need, const cz_bufpool_want *keep) {
    uint64_t freed = 0;
    while (need == 0 || freed < need) {
        entry **link = NULL, *victim;
        pthread_mutex_lock(&p->lock);
        for (entry **l = &p->idle; *l != NULL; l = &(*l)->next) {
            int wanted = 0;
            for (int i = 0; keep != NULL && i < CZ_BUFPOOL_WANT_MAX; i++)
                wanted |= keep->bytes[i] == (*l)->bytes;
            if ((*l)->paid == PAY_POOL && !wanted)
                link = l; /* the last one found is the oldest */
        }
        if (link == NULL) {
            pthread_mutex_unlock(&p->lock);
            break;
        }
        victim = *link;
        *link = victim->next;
        count_idle(p, victim, 0);
        p->st.nfreed++;
        pthread_mutex_unlock(&p->lock);
        freed += victim->bytes;
        free_pool_paid(p, victim);
    }
    return freed;
}

void cz_bufpool_destroy(cz_bufpool *p) {
    if (p == NULL)
        return;
    trim(p, 0, NULL);
    CZ_ASSERT(p->idle == NULL && p->inuse == NULL && p->res.bytes == 0);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* Lock held. The idle buffer of bytes that get should take (see the file comment), or NULL. */
static entry **find_idle(cz_bufpool *p, size_t bytes, const cz_reservation *res) {
    entry **best = NULL;
    int best_rank = 3;
    for (entry **l = &p->idle; *l != NULL; l = &(*l)->next) {
        entry *e = *l;
        int rank = e->paid == PAY_RES && e->res == res ? 0 : e->paid == PAY_POOL ? 1 : 2;
        if (e->bytes == bytes && rank < best_rank) {
            best = l;
            best_rank = rank;
        }
    }
    return best;
}

void *cz_bufpool_get(cz_bufpool *p, size_t bytes, cz_reservation *res) {
    if (p == NULL)
        return cz_host_alloc(bytes, 0);
    if (!charged(p))
        res = NULL;
    CZ_ASSERT(res == NULL || res->budget == NULL || res->budget == p->res.budget);
    entry *e;
    pthread_mutex_lock(&p->lock);
    entry **link = find_idle(p, bytes, res);
    if (link != NULL) {
        e = *link;
        *link = e->next;
        count_idle(p, e, 0);
        if (e->paid == PAY_POOL && charged(p))
            cz_reservation_release(&p->res, bytes); /* the getter reserved them */
        p->st.nreuses++;
    } else {
        pthread_mutex_unlock(&p->lock);
        void *buf = cz_host_alloc(bytes, p->cfg.pinned);
        e = buf != NULL ? malloc(sizeof *e) : NULL;
        if (e == NULL) {
            cz_host_free(buf);
            return NULL;
        }
        e->buf = buf;
        e->bytes = bytes;
        pthread_mutex_lock(&p->lock);
        p->st.nallocs++;
    }
    e->paid = res != NULL ? PAY_RES : PAY_NONE;
    e->res = res;
    e->next = p->inuse;
    p->inuse = e;
    p->st.inuse_bytes += bytes;
    pthread_mutex_unlock(&p->lock);
    return e->buf;
}

/* Lock held. Idle buffers of bytes the pool pays for. */
static unsigned count_pool_idle(const cz_bufpool *p, uint64_t bytes) {
    unsigned n = 0;
    for (const entry *e = p->idle; e != NULL; e = e->next)
        n += e->paid == PAY_POOL && e->bytes == bytes;
    return n;
}

/* One prefill buffer of bytes if the pool still wants one (fewer than want idle) and the budget
 * and the idle cap have room: 1 made, 0 no room, CZ_ENOMEM (negative) out of host memory. The
 * bytes are reserved (and counted in idle_pool) before the allocation, outside the lock. */
static int prefill_one(cz_bufpool *p, uint64_t bytes, unsigned want, cz_errinfo *ei) {
    cz_reservation r = {NULL, 0};
    int room;
    pthread_mutex_lock(&p->lock);
    room = count_pool_idle(p, bytes) < want && fits_idle(p, bytes) &&
           (!charged(p) || cz_budget_try_reserve(&r, p->res.budget, bytes));
    if (room)
        p->idle_pool += bytes; /* held for it: concurrent puts see the cap */
    pthread_mutex_unlock(&p->lock);
    if (!room)
        return 0;
    void *buf = cz_host_alloc(bytes, p->cfg.pinned);
    entry *e = buf != NULL ? malloc(sizeof *e) : NULL;
    pthread_mutex_lock(&p->lock);
    p->idle_pool -= bytes;
    if (e == NULL) {
        if (charged(p))
            cz_reservation_release(&r, r.bytes);
        pthread_mutex_unlock(&p->lock);
        cz_host_free(buf);
        return cz_fail(ei, CZ_ENOMEM, "buffer pool: prefill of a %llu-byte buffer",
                       (unsigned long long)bytes);
    }
    if (charged(p))
        cz_reservation_move(&p->res, &r, r.bytes);
    e->buf = buf;
    e->bytes = bytes;
    e->paid = PAY_POOL;
    e->res = NULL;
    e->next = p->idle;
    p->idle = e;
    count_idle(p, e, 1);
    p->st.nallocs++;
    p->st.nprefilled++;
    if (charged(p))
        cz_budget_wake(p->res.budget); /* a waiting partition may adopt it */
    pthread_mutex_unlock(&p->lock);
    return 1;
}

int cz_bufpool_prefill(cz_bufpool *p, const uint64_t bytes[CZ_BUFPOOL_WANT_MAX], unsigned sets,
                       unsigned *made, cz_errinfo *ei) {
    unsigned n = 0;
    int rc = 1;
    for (int i = 0; p != NULL && i < CZ_BUFPOOL_WANT_MAX && rc >= 0; i++) {
        unsigned mult = 0, first = 1;
        for (int j = 0; j < CZ_BUFPOOL_WANT_MAX; j++) {
            mult += bytes[j] == bytes[i];
            first &= !(j < i && bytes[j] == bytes[i]);
        }
        if (bytes[i] == 0 || !first)
            continue;
        while ((rc = prefill_one(p, bytes[i], sets * mult, ei)) == 1)
            n++;
    }
    if (made != NULL)
        *made = n;
    return rc < 0 ? rc : CZ_OK;
}

void cz_bufpool_put(cz_bufpool *p, void *buf) {
    if (buf == NULL)
        return;
    if (p == NULL) {
        cz_host_free(buf);
        return;
    }
    entry **link, *e;
    int keep = 1;
    pthread_mutex_lock(&p->lock);
    for (link = &p->inuse; *link != NULL && (*link)->buf != buf; link = &(*link)->next)
        ;
    CZ_ASSERT(*link != NULL); /* a buffer of this pool, handed out */
    e = *link;
    *link = e->next;
    p->st.inuse_bytes -= e->bytes;
    if (e->paid == PAY_NONE) {
        cz_reservation r = {NULL, 0};
        keep = fits_idle(p, e->bytes) &&
               (!charged(p) || cz_budget_try_reserve(&r, p->res.budget, e->bytes));
        if (keep && charged(p))
            cz_reservation_move(&p->res, &r, r.bytes);
        if (keep)
            e->paid = PAY_POOL;
    } else if (e->paid == PAY_POOL) {
        keep = fits_idle(p, e->bytes);
    }
    if (keep) {
        e->next = p->idle;
        p->idle = e;
        count_idle(p, e, 1);
        if (e->paid == PAY_POOL && charged(p))
            cz_budget_wake(p->res.budget); /* a waiting partition may adopt it */
    } else {
        p->st.nfreed++;
    }
    pthread_mutex_unlock(&p->lock);
    if (!keep && e->paid == PAY_POOL) {
        free_pool_paid(p, e);
    } else if (!keep) {
        e->next = NULL;
        free_entries(e);
    }
}

/* Lock held. Hands the idle buffers res pays for (whole buffers, up to limit bytes) to the pool:
 * their bytes move into p->res, or, beyond max_idle_bytes, they go to *dead (to be freed; their
 * bytes stay in res, released by the caller). With limit UINT64_MAX (all), those whose bytes res
 * does not hold (a caller's broken accounting) go to *dead too. Returns the bytes moved. */
static uint64_t settle_idle(cz_bufpool *p, cz_reservation *res, uint64_t limit, entry **dead) {
    uint64_t moved = 0, handled = 0, dead_bytes = 0;
    for (entry **l = &p->idle; *l != NULL;) {
        entry *e = *l;
        int held = e->bytes <= res->bytes - dead_bytes; /* res->bytes: less what moved */
        if (e->paid != PAY_RES || e->res != res || e->bytes > limit - handled ||
            (!held && limit != UINT64_MAX)) {
            l = &e->next;
            continue;
        }
        handled += e->bytes;
        if (held && fits_idle(p, e->bytes)) {
            cz_reservation_move(&p->res, res, e->bytes);
            moved += e->bytes;
            pool_pays(p, e, 1);
            l = &e->next;
        } else {
            *l = e->next;
            count_idle(p, e, 0);
            p->st.nfreed++;
            dead_bytes += held ? e->bytes : 0;
            e->next = *dead;
            *dead = e;
        }
    }
    return moved;
}

void cz_bufpool_release(cz_bufpool *p, cz_reservation *res, uint64_t bytes) {
    uint64_t moved = 0;
    entry *dead = NULL;
    CZ_ASSERT(bytes <= res->bytes);
    if (p != NULL && charged(p)) {
        pthread_mutex_lock(&p->lock);
        moved = settle_idle(p, res, bytes, &dead);
        pthread_mutex_unlock(&p->lock);
        free_entries(dead);
    }
    if (res->budget != NULL)
        cz_reservation_release(res, bytes - moved);
}

void cz_bufpool_release_all(cz_bufpool *p, cz_reservation *res) {
    entry *dead = NULL;
    if (p != NULL && charged(p)) {
        pthread_mutex_lock(&p->lock);
        settle_idle(p, res, UINT64_MAX, &dead);
        for (entry *e = p->inuse; e != NULL; e = e->next) {
            if (e->paid != PAY_RES || e->res != res)
                continue;
            if (e->bytes <= res->bytes) { /* still paid for: the pool pays on */
                cz_reservation_move(&p->res, res, e->bytes);
                pool_pays(p, e, 0);
            } else {
                e->paid = PAY_NONE; /* charged again when it comes back */
                e->res = NULL;
            }
        }
        pthread_mutex_unlock(&p->lock);
        free_entries(dead);
    }
    cz_reservation_release_all(res);
}

uint64_t cz_bufpool_adopt(void *arg, uint64_t short_by) {
    cz_bufpool_want *w = arg;
    cz_bufpool *p = w->pool;
    uint64_t got = 0, freed;
    int busy = 0;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; charged(p) && i < CZ_BUFPOOL_WANT_MAX; i++) {
        entry *e = NULL;
        if (w->bytes[i] == 0 || (w->adopted & (1u << i)))
            continue;
        for (entry *c = p->idle; c != NULL && e == NULL; c = c->next)
            if (c->paid == PAY_POOL && c->bytes == w->bytes[i])
                e = c; /* the newest */
        if (e == NULL)
            continue;
        count_idle(p, e, 0);
        e->paid = PAY_RES;
        e->res = w->res;
        count_idle(p, e, 1);
        cz_reservation_move(w->res, &p->res, e->bytes);
        w->adopted |= 1u << i;
        got += e->bytes;
        p->st.nadopted++;
    }
    busy = w->others_pending || p->inuse != NULL;
    for (entry *e = p->idle; e != NULL; e = e->next)
        busy |= e->paid == PAY_RES && e->res != w->res;
    cz_budget_evict_fn next = p->next;
    void *next_arg = p->next_arg;
    pthread_mutex_unlock(&p->lock);
    if (got > 0)
        return got;
    /* Nothing to adopt: free what this partition cannot use; the buffers it could use only when
     * nothing else will give memory back (else waiting is cheaper than pinning them again, and
     * the partitions in flight will take them). */
    freed = trim(p, short_by, w);
    if (freed < short_by && !busy)
        freed += trim(p, short_by - freed, NULL);
    if (next != NULL && freed < short_by)
        freed += next(next_arg, short_by - freed);
    return freed;
}

uint64_t cz_bufpool_evict(void *arg, uint64_t need) {
    cz_bufpool *p = arg;
    uint64_t freed = trim(p, need == 0 ? 1 : need, NULL);
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
