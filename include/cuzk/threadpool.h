/*
 * A fixed pool of threads and a blocking parallel-for over it.
 *
 *   cz_threadpool *pool;
 *   if (cz_threadpool_create(&pool, 0, ei) != CZ_OK) ...      // 0: one thread per online CPU
 *   cz_threadpool_run(pool, sum_chunk, &ctx, nchunks);        // sum_chunk(&ctx, 0..nchunks-1)
 *   cz_threadpool_destroy(pool);
 *
 * Parallelism. A pool of size N runs tasks on N threads: N-1 worker threads that it owns, plus
 * the thread that calls cz_threadpool_run, which works on its own run rather than sleeping. So
 * N = number of CPUs keeps every core busy without oversubscribing, and N = 1 has no workers and
 * runs everything in the caller.
 *
 * Task hand-out is one atomic fetch-add per task on a counter of the run; a task should still be
 * worth a few microseconds (a chunk of an MSM or NTT, not one field multiplication).
 *
 * Concurrency. cz_threadpool_run may be called from several threads at once, and from inside a
 * task (nested): runs proceed concurrently. Each caller works on its own run; idle workers help the
 * oldest run that still has unclaimed tasks, then the next. A caller never waits for another
 * caller's run, only for the workers that are finishing tasks of its own run, so concurrent and
 * nested runs cannot deadlock. Tasks of one run must not wait for each other (no barriers inside
 * tasks): nothing guarantees that two tasks of a run execute at the same time.
 *
 * Ownership: the caller creates and destroys the pool; destroy must not race with a run.
 */
#ifndef CUZK_THREADPOOL_H
#define CUZK_THREADPOOL_H

#include <stddef.h>

#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;

/* The most threads a pool may have (a guard against nonsense sizes). */
#define CZ_THREADPOOL_MAX_THREADS 4096

/*
 * Creates a pool of nthreads threads (the caller of each run counts as one; see above);
 * nthreads = 0 means the number of online CPUs. CZ_OK and *pool set, or CZ_EINVAL (nthreads over
 * CZ_THREADPOOL_MAX_THREADS), CZ_ENOMEM, CZ_EINTERNAL (a thread could not be started) with ei
 * filled and *pool = NULL. Workers start with all signals blocked.
 */
int cz_threadpool_create(cz_threadpool **pool, size_t nthreads, cz_errinfo *ei);

/* Stops and joins the workers and frees the pool; NULL is a no-op. No run may be in progress. */
void cz_threadpool_destroy(cz_threadpool *pool);

/* The pool's size N (workers + 1); 1 for a NULL pool. */
size_t cz_threadpool_size(const cz_threadpool *pool);

/*
 * Calls fn(arg, task) once for every task in 0..ntasks-1, spread over the pool's workers and the
 * calling thread, and returns when all calls have returned; their writes are then visible to the
 * caller. A NULL pool runs the tasks in order in the calling thread. ntasks must be below
 * SIZE_MAX / 2.
 */
void cz_threadpool_run(cz_threadpool *pool, void (*fn)(void *arg, size_t task), void *arg,
                       size_t ntasks);

#ifdef __cplusplus
}
#endif

#endif
