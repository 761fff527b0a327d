/*
 * The memory manager (include/cuzk/engine.h, "Memory manager"; src/engine/mem.h for the module):
 * a partition's reserve and release paths, and the reusable host buffers of the pipeline's
 * per-partition vectors (the evaluations a, b and a partition's witness, which the GPU uploads),
 * pinned when the engine has GPUs (unless pageable_buffers), so that a partition neither mallocs
 * and frees gigabytes nor pins them again (cudaHostAlloc / cudaFreeHost of 4 GiB take seconds and
 * hold up the other threads' device calls).
 *
 * Lifecycle: the engine creates one manager on its budget (cz_mem_create attaches it, so the
 * budget asks it first when a request does not fit) and destroys it after its threads have
 * stopped (detached, idle buffers freed). Between, each partition is one reservation:
 *   cz_mem_reserve  (dispatcher)  its bytes, taking over idle buffers of its sizes while it waits;
 *   cz_mem_get/put  (workload)    its buffers, paid by the reservation;
 *   cz_mem_release  (GPU worker: the a/b/c bytes; workload: bytes it is done with early;
 *                    end of the partition: CZ_MEM_ALL)
 * and a buffer may come back (put, on the deallocation thread) after its partition ended.
 *
 * Buffers come from cz_host_alloc (hostmem.c): the size is in the block's header, pinning falls
 * back to pageable memory there. The manager knows every buffer it handed out (list `inuse`) and
 * keeps the others (list `idle`, newest first); get takes an idle buffer of exactly the asked
 * size (partitions of a workload ask for the same sizes, and an exact match keeps the budget's
 * arithmetic exact), else allocates.
 *
 * Who pays. Each buffer's bytes are counted once in the budget, by one payer:
 *   PAY_POOL  the manager's own reservation `res` (idle buffers, and buffers still in use whose
 *             partition was released before they came back);
 *   PAY_RES   a partition's reservation (the buffer's `res`): the one that got it, or that took it
 *             over while waiting for memory; it stays the payer when the buffer comes back before
 *             the reservation is released ("owed");
 *   PAY_NONE  nobody (a caller without a reservation, or one that could not cover it at its
 *             release): charged when it comes back (try_reserve), else freed.
 * The moves between payers never release and reserve again (which would let another waiter take
 * the bytes and leave the buffer to be freed, the churn this scheme removes):
 *   get          an idle buffer res already pays for first (adopted), then one the manager pays for
 *                (it releases its bytes: res reserved them), then one another reservation still
 *                pays for (both pay until that one is released: counted twice for a while, never
 *                missing); else a new one. res pays for it from now on.
 *   put          back to idle with the same payer: no budget call while a reservation pays.
 *   release      the partition gives bytes up: its idle buffers' bytes move (cz__reservation_move)
 *                into the manager's reservation, the rest is released; at the end (CZ_MEM_ALL) the
 *                manager also takes over the buffers it pays for that are still in use.
 *   reserve      the partition's wait for memory (reclaim hook of cz__budget_reserve_reclaim):
 *                idle buffers of the sizes it will get move, with their bytes, from the manager
 *                into its reservation instead of being freed; without any, it frees idle buffers
 *                the partition cannot use (and those it could only when nothing else will come
 *                back: no other partition holds a reservation, nparts).
 *   evict        the attached evictor, for every other request (a key load): frees idle buffers
 *                the manager pays for, oldest first, then asks the budget's evictor (the SRS
 *                manager's).
 *   prefill      ahead of the jobs (cz_engine_prefill): new idle buffers the manager pays for, as
 *                far as the budget grants them at once, so pinning is not on a partition's path.
 * Idle bytes the manager pays for stay under max_idle_bytes (beyond it a buffer is freed).
 *
 * Lock order: manager lock -> budget lock (release, try_reserve, wake). The budget calls the
 * reclaim hook and the evictor without its lock. Buffers are freed outside the manager's lock, and
 * before their bytes are released, so the budget never counts less than what is allocated.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine.h"
#include "engine/mem.h"

enum { PAY_POOL, PAY_RES, PAY_NONE };

/* A partition's wait for memory (cz_mem_reserve): the sizes of the buffers it will get. */
typedef struct part_wait {
    cz_mem *pool;
    cz_reservation *res;             /* the reservation being made */
    uint64_t want;                   /* the bytes it asks for in all */
    uint64_t bytes[CZ_MEM_BUFS_MAX]; /* 0 = unused slot */
    unsigned adopted;                /* slots already taken over (bit i) */
} part_wait;

typedef struct entry {
    void *buf;
    size_t bytes;
    int paid;            /* PAY_* */
    cz_reservation *res; /* the payer with PAY_RES */
    struct entry *next;
} entry;

struct cz_mem {
    pthread_mutex_t lock; /* everything below */
    cz_mem_config cfg;
    cz_reservation res; /* the PAY_POOL buffers' bytes */
    entry *idle;        /* newest first */
    entry *inuse;
    uint64_t idle_pool; /* idle bytes paid by res (max_idle_bytes caps them) */
    cz_mem_stats st;    /* st.nparts: reservations of cz_mem_reserve not yet released to the end */
};

static uint64_t mem_evict(void *arg, uint64_t need);

int cz_mem_create(cz_mem **out, const cz_mem_config *cfg, cz_errinfo *ei) {
    cz_mem *p = calloc(1, sizeof *p);
    *out = NULL;
    if (p == NULL)
        return cz_fail(ei, CZ_ENOMEM, "memory manager");
    if (cfg != NULL)
        p->cfg = *cfg;
    if (p->cfg.max_idle_bytes == 0)
        p->cfg.max_idle_bytes =
            p->cfg.budget != NULL ? cz_budget_total(p->cfg.budget) : (uint64_t)4 << 30;
    p->res.budget = p->cfg.budget;
    CZ_ASSERT(pthread_mutex_init(&p->lock, NULL) == 0);
    if (p->cfg.budget != NULL)
        cz__budget_attach(p->cfg.budget, mem_evict, p);
    *out = p;
    return CZ_OK;
}

static int charged(const cz_mem *p) {
    return p->res.budget != NULL;
}

/* Lock held. Whether the pool may pay for bytes more of idle buffers. */
static int fits_idle(const cz_mem *p, uint64_t bytes) {
    return bytes <= p->cfg.max_idle_bytes - p->idle_pool;
}

/* Lock held. Counts e in (add 1) or out of (add 0) the idle totals, by its payer. */
static void count_idle(cz_mem *p, const entry *e, int add) {
    uint64_t b = add ? e->bytes : (uint64_t)0 - e->bytes; /* unsigned: adding it subtracts */
    p->st.idle_bytes += b;
    p->st.nidle += add ? 1 : (uint64_t)0 - 1;
    *(e->paid == PAY_POOL ? &p->idle_pool : &p->st.owed_bytes) += b;
}

/* Lock held. e's payer becomes the pool (the bytes already moved into p->res). */
static void pool_pays(cz_mem *p, entry *e, int idle) {
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
static void free_pool_paid(cz_mem *p, entry *e) {
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
static uint64_t trim(cz_mem *p, uint64_t need, const part_wait *keep) {
    uint64_t freed = 0;
    while (need == 0 || freed < need) {
        entry **link = NULL, *victim;
        pthread_mutex_lock(&p->lock);
        for (entry **l = &p->idle; *l != NULL; l = &(*l)->next) {
            int wanted = 0;
            for (int i = 0; keep != NULL && i < CZ_MEM_BUFS_MAX; i++)
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

void cz_mem_destroy(cz_mem *p) {
    if (p == NULL)
        return;
    if (p->cfg.budget != NULL)
        cz__budget_attach(p->cfg.budget, NULL, NULL);
    trim(p, 0, NULL);
    CZ_ASSERT(p->idle == NULL && p->inuse == NULL && p->res.bytes == 0 && p->st.nparts == 0);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* Lock held. The idle buffer of bytes that get should take (see the file comment), or NULL. */
static entry **find_idle(cz_mem *p, size_t bytes, const cz_reservation *res) {
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

void *cz_mem_get(cz_mem *p, size_t bytes, cz_reservation *res) {
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
static unsigned count_pool_idle(const cz_mem *p, uint64_t bytes) {
    unsigned n = 0;
    for (const entry *e = p->idle; e != NULL; e = e->next)
        n += e->paid == PAY_POOL && e->bytes == bytes;
    return n;
}

/* One prefill buffer of bytes if the pool still wants one (fewer than want idle) and the budget
 * and the idle cap have room: 1 made, 0 no room, CZ_ENOMEM (negative) out of host memory. The
 * bytes are reserved (and counted in idle_pool) before the allocation, outside the lock. */
static int prefill_one(cz_mem *p, uint64_t bytes, unsigned want, cz_errinfo *ei) {
    cz_reservation r = {NULL, 0, 0};
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
        cz__reservation_move(&p->res, &r, r.bytes);
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

int cz_mem_prefill(cz_mem *p, const uint64_t bytes[CZ_MEM_BUFS_MAX], unsigned sets, unsigned *made,
                   cz_errinfo *ei) {
    unsigned n = 0;
    int rc = 1;
    for (int i = 0; p != NULL && i < CZ_MEM_BUFS_MAX && rc >= 0; i++) {
        unsigned mult = 0, first = 1;
        for (int j = 0; j < CZ_MEM_BUFS_MAX; j++) {
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

void cz_mem_put(cz_mem *p, void *buf) {
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
        cz_reservation r = {NULL, 0, 0};
        keep = fits_idle(p, e->bytes) &&
               (!charged(p) || cz_budget_try_reserve(&r, p->res.budget, e->bytes));
        if (keep && charged(p))
            cz__reservation_move(&p->res, &r, r.bytes);
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
 * bytes stay in res, released by the caller). With limit CZ_MEM_ALL (all), those whose bytes res
 * does not hold (a caller's broken accounting) go to *dead too. Returns the bytes moved. */
static uint64_t settle_idle(cz_mem *p, cz_reservation *res, uint64_t limit, entry **dead) {
    uint64_t moved = 0, handled = 0, dead_bytes = 0;
    for (entry **l = &p->idle; *l != NULL;) {
        entry *e = *l;
        int held = e->bytes <= res->bytes - dead_bytes; /* res->bytes: less what moved */
        if (e->paid != PAY_RES || e->res != res || e->bytes > limit - handled ||
            (!held && limit != CZ_MEM_ALL)) {
            l = &e->next;
            continue;
        }
        handled += e->bytes;
        if (held && fits_idle(p, e->bytes)) {
            cz__reservation_move(&p->res, res, e->bytes);
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

/* Lock held. The end of res (CZ_MEM_ALL): the buffers it pays for that are still in use become
 * the manager's as far as res holds their bytes, else nobody's (charged again when they come
 * back); res leaves the count of partitions holding memory. */
static void settle_inuse(cz_mem *p, cz_reservation *res) {
    for (entry *e = p->inuse; e != NULL; e = e->next) {
        if (e->paid != PAY_RES || e->res != res)
            continue;
        if (e->bytes <= res->bytes) { /* still paid for: the manager pays on */
            cz__reservation_move(&p->res, res, e->bytes);
            pool_pays(p, e, 0);
        } else {
            e->paid = PAY_NONE;
            e->res = NULL;
        }
    }
}

void cz_mem_release(cz_mem *p, cz_reservation *res, uint64_t bytes) {
    const int all = bytes == CZ_MEM_ALL;
    uint64_t moved = 0;
    entry *dead = NULL;
    CZ_ASSERT(all || bytes <= res->bytes);
    if (p != NULL && charged(p)) {
        pthread_mutex_lock(&p->lock);
        moved = settle_idle(p, res, bytes, &dead);
        if (all)
            settle_inuse(p, res);
        pthread_mutex_unlock(&p->lock);
        free_entries(dead);
    }
    if (all)
        cz_reservation_release_all(res);
    else if (res->budget != NULL)
        cz_reservation_release(res, bytes - moved);
    /* The partition stops counting only once its bytes are back in the budget: a waiter that
     * sees no partition holding memory (adopt) must find every byte it could get by waiting
     * released already, else it frees idle buffers for bytes that were about to come back. */
    if (all && res->part && p != NULL && charged(p)) {
        pthread_mutex_lock(&p->lock);
        CZ_ASSERT(p->st.nparts > 0);
        p->st.nparts--;
        pthread_mutex_unlock(&p->lock);
    }
    if (all)
        res->part = 0;
}

/* The reclaim hook of a partition's wait (cz_mem_reserve; see the file comment). */
static uint64_t adopt(void *arg, uint64_t short_by) {
    part_wait *w = arg;
    cz_mem *p = w->pool;
    uint64_t got = 0, freed;
    int busy = 0;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; charged(p) && i < CZ_MEM_BUFS_MAX; i++) {
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
        cz__reservation_move(w->res, &p->res, e->bytes);
        w->adopted |= 1u << i;
        got += e->bytes;
        p->st.nadopted++;
    }
    busy = p->st.nparts > 0 || p->inuse != NULL; /* the waiting one is not counted yet */
    for (entry *e = p->idle; e != NULL; e = e->next)
        busy |= e->paid == PAY_RES && e->res != w->res;
    pthread_mutex_unlock(&p->lock);
    if (got > 0)
        return got;
    /* short_by was measured before this call: memory released since then is back in the budget.
     * Measured again after busy, whatever busy no longer counts has released its bytes by now
     * (cz_mem_release), so the trims below never free buffers for bytes that came back anyway. */
    cz_budget_stats bs;
    cz_budget_stats_get(&bs, p->res.budget);
    uint64_t need = w->want - w->res->bytes, room = bs.total - bs.used;
    if (need <= room)
        return 0; /* it fits now: the budget grants it on its next look */
    short_by = need - room < short_by ? need - room : short_by;
    /* Nothing to adopt: free what this partition cannot use; the buffers it could use only when
     * nothing else will give memory back (else waiting is cheaper than pinning them again, and
     * the partitions in flight will take them). */
    freed = trim(p, short_by, w);
    if (freed < short_by && !busy)
        freed += trim(p, short_by - freed, NULL);
    if (freed < short_by)
        freed += cz__budget_evict_next(p->res.budget, short_by - freed);
    return freed;
}

int cz_mem_reserve(cz_reservation *out, cz_mem *p, uint64_t bytes,
                   const uint64_t bufs[CZ_MEM_BUFS_MAX], int64_t timeout_ms,
                   cz_budget_abort_fn abort, void *abort_arg, cz_errinfo *ei) {
    part_wait w = {p, out, bytes, {0}, 0};
    int rc;
    CZ_ASSERT(p != NULL && charged(p));
    if (bufs != NULL)
        memcpy(w.bytes, bufs, sizeof w.bytes);
    rc = cz__budget_reserve_reclaim(out, p->res.budget, bytes, timeout_ms, abort, abort_arg, adopt,
                                    &w, ei);
    if (rc == CZ_OK) { /* counted until its release to the end (CZ_MEM_ALL) */
        pthread_mutex_lock(&p->lock);
        p->st.nparts++;
        pthread_mutex_unlock(&p->lock);
        out->part = 1;
    }
    return rc;
}

/* The evictor attached to the budget, for every request without a reclaim hook (a key load). */
static uint64_t mem_evict(void *arg, uint64_t need) {
    cz_mem *p = arg;
    uint64_t freed = trim(p, need == 0 ? 1 : need, NULL);
    if (need == 0 ? freed == 0 : freed < need)
        freed += cz__budget_evict_next(p->res.budget, need == 0 ? 0 : need - freed);
    return freed;
}

void cz_mem_stats_get(cz_mem_stats *out, cz_mem *p) {
    pthread_mutex_lock(&p->lock);
    *out = p->st;
    out->reserved_bytes = p->res.bytes;
    pthread_mutex_unlock(&p->lock);
}
