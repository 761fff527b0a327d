/*
 * The thread pool (include/cuzk/threadpool.h).
 *
 * A run is a struct on its caller's stack: the task function, the task count, an atomic counter
 * `next` from which every thread claims task indexes (fetch-add, so hand-out costs one atomic per
 * task), and `helpers`, the number of workers currently inside the run. While a run may still
 * have unclaimed tasks it sits in the pool's FIFO list of open runs.
 *
 * A worker sleeps on `work` until the list is non-empty, joins the oldest run (helpers++), claims
 * and executes tasks until the counter passes ntasks, takes the run off the list (whoever first
 * sees it exhausted does), leaves it (helpers--) and signals `idle` when it was the last helper.
 *
 * The caller publishes its run, claims tasks like a worker, then takes its run off the list and
 * waits until helpers == 0. Once the run is off the list no worker can join it, and every helper
 * that joined has finished its claimed tasks before leaving, so helpers == 0 means all tasks
 * have returned. The mutex hand-over (worker unlock, caller lock) makes the tasks' writes visible
 * to the caller. A caller waits only for its own run, which is why concurrent and nested runs
 * cannot deadlock.
 *
 * Locking: `lock` protects the list, each run's `helpers` and list membership, and `stopping`.
 * Tasks run without it. There is no other lock.
 */
#include "cuzk/threadpool.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct run {
    void (*fn)(void *arg, size_t task);
    void *arg;
    size_t ntasks;
    size_t next;       /* next task index to claim; atomic */
    size_t helpers;    /* workers inside this run; under lock */
    int listed;        /* on the open list; under lock */
    struct run *after; /* the next open run; under lock */
} run;

struct cz_threadpool {
    pthread_mutex_t lock;
    pthread_cond_t work; /* a run was opened, or stopping was set */
    pthread_cond_t idle; /* a run lost its last helper */
    run *head, *tail;    /* open runs, oldest first */
    int stopping;
    size_t nworkers;
    pthread_t *workers;
};

/* Claims and executes tasks of r until none is left. */
static void work_on(run *r) {
    for (;;) {
        size_t i = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
        if (i >= r->ntasks)
            return;
        r->fn(r->arg, i);
    }
}

/* Takes r off the open list if it is still there. Called with the lock held. */
static void unlist(cz_threadpool *p, run *r) {
    if (!r->listed)
        return;
    run **link = &p->head;
    run *prev = NULL;
    while (*link != r) {
        prev = *link;
        link = &(*link)->after;
    }
    *link = r->after;
    if (p->tail == r)
        p->tail = prev;
    r->listed = 0;
    r->after = NULL;
}

static void *worker_main(void *vp) {
    cz_threadpool *p = vp;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->head == NULL && !p->stopping)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->head == NULL)
            break; /* stopping, and nothing left to help with */
        run *r = p->head;
        r->helpers++;
        pthread_mutex_unlock(&p->lock);

        work_on(r);

        pthread_mutex_lock(&p->lock);
        unlist(p, r); /* exhausted: nobody should join it any more */
        if (--r->helpers == 0)
            pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static size_t online_cpus(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (size_t)n : 1;
}

/* Stops and joins the first nstarted workers, then frees p. */
static void teardown(cz_threadpool *p, size_t nstarted) {
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (size_t i = 0; i < nstarted; i++)
        pthread_join(p->workers[i], NULL);
    pthread_cond_destroy(&p->idle);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->lock);
    free(p->workers);
    free(p);
}

int cz_threadpool_create(cz_threadpool **pool, size_t nthreads, cz_errinfo *ei) {
    *pool = NULL;
    if (nthreads == 0)
        nthreads = online_cpus();
    if (nthreads > CZ_THREADPOOL_MAX_THREADS)
        return cz_fail(ei, CZ_EINVAL, "threadpool: %zu threads requested, at most %d", nthreads,
                       CZ_THREADPOOL_MAX_THREADS);

    cz_threadpool *p = calloc(1, sizeof *p);
    if (p == NULL)
        return cz_fail(ei, CZ_ENOMEM, "threadpool: out of memory");
    p->nworkers = nthreads - 1;
    p->workers = calloc(p->nworkers > 0 ? p->nworkers : 1, sizeof *p->workers);
    if (p->workers == NULL) {
        free(p);
        return cz_fail(ei, CZ_ENOMEM, "threadpool: out of memory for %zu workers", nthreads - 1);
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->idle, NULL);

    /* Workers inherit a mask with every signal blocked, so that signals go to threads that
     * expect them (the daemon's signal handling), never to a worker in the middle of a task. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = 0;
    size_t started = 0;
    for (; started < p->nworkers; started++) {
        rc = pthread_create(&p->workers[started], NULL, worker_main, p);
        if (rc != 0)
            break;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    if (rc != 0) {
        teardown(p, started);
        return cz_fail(ei, CZ_EINTERNAL, "threadpool: could not start worker %zu of %zu: %s",
                       started + 1, nthreads - 1, strerror(rc));
    }
    *pool = p;
    return CZ_OK;
}

void cz_threadpool_destroy(cz_threadpool *pool) {
    if (pool != NULL)
        teardown(pool, pool->nworkers);
}

size_t cz_threadpool_size(const cz_threadpool *pool) {
    return pool != NULL ? pool->nworkers + 1 : 1;
}

void cz_threadpool_run(cz_threadpool *pool, void (*fn)(void *arg, size_t task), void *arg,
                       size_t ntasks) {
    CZ_ASSERT(ntasks < SIZE_MAX / 2);
    if (ntasks == 0)
        return;
    if (pool == NULL || pool->nworkers == 0 || ntasks == 1) {
        for (size_t i = 0; i < ntasks; i++)
            fn(arg, i);
        return;
    }

    run r = {.fn = fn, .arg = arg, .ntasks = ntasks, .next = 0, .helpers = 0, .listed = 1};
    pthread_mutex_lock(&pool->lock);
    if (pool->tail != NULL)
        pool->tail->after = &r;
    else
        pool->head = &r;
    pool->tail = &r;
    /* Wake as many workers as can be useful; the others keep sleeping. */
    if (ntasks - 1 >= pool->nworkers)
        pthread_cond_broadcast(&pool->work);
    else
        for (size_t i = 0; i < ntasks - 1; i++)
            pthread_cond_signal(&pool->work);
    pthread_mutex_unlock(&pool->lock);

    work_on(&r);

    pthread_mutex_lock(&pool->lock);
    unlist(pool, &r);
    while (r.helpers > 0)
        pthread_cond_wait(&pool->idle, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}
