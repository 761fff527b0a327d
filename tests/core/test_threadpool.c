/*
 * The thread pool: every task runs exactly once (ntasks 0, 1, small, larger than the pool, many),
 * for several pool sizes; results equal a serial computation; several threads call run on one
 * pool at once; runs nest; the caller and the workers really run tasks at the same time; size
 * and errors.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/clock.h"
#include "cuzk/err.h"
#include "cuzk/threadpool.h"
#include "test.h"

/* splitmix64: a task's result that depends on its index only. */
static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

typedef struct {
    unsigned *count; /* per task; incremented atomically */
    uint64_t *out;   /* per task */
    uint64_t salt;
    size_t ntasks;
    unsigned out_of_range;
} counting;

static void count_task(void *vp, size_t task) {
    counting *c = vp;
    if (task >= c->ntasks) {
        __atomic_fetch_add(&c->out_of_range, 1, __ATOMIC_RELAXED);
        return;
    }
    __atomic_fetch_add(&c->count[task], 1, __ATOMIC_RELAXED);
    /* A little work, so that tasks overlap. */
    uint64_t x = c->salt ^ task;
    for (int i = 0; i < 16; i++)
        x = mix(x);
    c->out[task] = x;
}

static uint64_t serial_result(uint64_t salt, size_t task) {
    uint64_t x = salt ^ task;
    for (int i = 0; i < 16; i++)
        x = mix(x);
    return x;
}

/* Runs ntasks counting tasks on pool; returns 1 when each ran once with the serial result. */
static int run_and_verify(cz_threadpool *pool, size_t ntasks, uint64_t salt) {
    counting c = {calloc(ntasks + 1, sizeof *c.count), calloc(ntasks + 1, sizeof *c.out), salt,
                  ntasks, 0};
    if (c.count == NULL || c.out == NULL) {
        free(c.count);
        free(c.out);
        return 0;
    }
    cz_threadpool_run(pool, count_task, &c, ntasks);
    int ok = c.out_of_range == 0;
    for (size_t i = 0; i < ntasks; i++)
        ok &= c.count[i] == 1 && c.out[i] == serial_result(salt, i);
    free(c.count);
    free(c.out);
    return ok;
}

static const size_t task_counts[] = {0, 1, 2, 3, 5, 7, 8, 9, 63, 64, 65, 1000, 100003};
#define NCOUNTS (sizeof task_counts / sizeof task_counts[0])

static void test_exactly_once(void) {
    static const size_t sizes[] = {1, 2, 3, 4, 8};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        cz_threadpool *pool = NULL;
        CHECK_ERR(cz_threadpool_create(&pool, sizes[s], NULL), CZ_OK);
        CHECK(pool != NULL);
        CHECK_EQ_INT(cz_threadpool_size(pool), sizes[s]);
        for (size_t k = 0; k < NCOUNTS; k++)
            CHECK(run_and_verify(pool, task_counts[k], 1000 * s + k));
        /* Many small runs back to back on one pool. */
        int ok = 1;
        for (int r = 0; r < 300; r++)
            ok &= run_and_verify(pool, (size_t)(r % 17), (uint64_t)r);
        CHECK(ok);
        cz_threadpool_destroy(pool);
    }
    /* A NULL pool runs serially. */
    CHECK_EQ_INT(cz_threadpool_size(NULL), 1);
    for (size_t k = 0; k < NCOUNTS; k++)
        CHECK(run_and_verify(NULL, task_counts[k], k));
}

static void test_default_size(void) {
    cz_threadpool *pool = NULL;
    CHECK_ERR(cz_threadpool_create(&pool, 0, NULL), CZ_OK);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK(ncpu > 0 && cz_threadpool_size(pool) == (size_t)ncpu);
    CHECK(run_and_verify(pool, 10000, 5));
    cz_threadpool_destroy(pool);
    cz_threadpool_destroy(NULL);

    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    pool = (cz_threadpool *)&ei; /* must be reset to NULL on failure */
    CHECK_ERR(cz_threadpool_create(&pool, CZ_THREADPOOL_MAX_THREADS + 1, &ei), CZ_EINVAL);
    CHECK(pool == NULL);
    CHECK(ei.code == CZ_EINVAL && strstr(ei.msg, "threadpool") != NULL);
}

/* Several threads calling run on one pool at the same time. */
typedef struct {
    cz_threadpool *pool;
    int id;
    int ok;
} caller;

static void *caller_main(void *vp) {
    caller *c = vp;
    c->ok = 1;
    for (int r = 0; r < 40; r++)
        c->ok &= run_and_verify(c->pool, (size_t)(1 + (c->id * 131 + r * 977) % 5000),
                                (uint64_t)(c->id * 1000 + r));
    return NULL;
}

static void test_concurrent_callers(void) {
    enum { NCALLERS = 6 };
    cz_threadpool *pool = NULL;
    CHECK_ERR(cz_threadpool_create(&pool, 3, NULL), CZ_OK);
    pthread_t t[NCALLERS];
    caller c[NCALLERS];
    for (int i = 0; i < NCALLERS; i++) {
        c[i] = (caller){pool, i, 0};
        CHECK_EQ_INT(pthread_create(&t[i], NULL, caller_main, &c[i]), 0);
    }
    for (int i = 0; i < NCALLERS; i++) {
        pthread_join(t[i], NULL);
        CHECK(c[i].ok);
    }
    cz_threadpool_destroy(pool);
}

/* A task that itself runs a parallel-for on the same pool (e.g. an MSM inside a prover task). */
typedef struct {
    cz_threadpool *pool;
    int inner_ok[16];
} nesting;

static void outer_task(void *vp, size_t task) {
    nesting *n = vp;
    n->inner_ok[task] = run_and_verify(n->pool, 257 + task, 77 + task);
}

static void test_nested(void) {
    cz_threadpool *pool = NULL;
    CHECK_ERR(cz_threadpool_create(&pool, 4, NULL), CZ_OK);
    nesting n = {pool, {0}};
    cz_threadpool_run(pool, outer_task, &n, 16);
    for (int i = 0; i < 16; i++)
        CHECK(n.inner_ok[i]);
    cz_threadpool_destroy(pool);
}

/*
 * With a pool of 2, two tasks that each wait (up to 10 s) for the other to start can only both
 * finish waiting if the caller and the worker run them at the same time.
 */
typedef struct {
    unsigned started;
    unsigned met;
    pthread_t who[2];
} rendezvous;

static void meet_task(void *vp, size_t task) {
    rendezvous *r = vp;
    r->who[task] = pthread_self();
    __atomic_fetch_add(&r->started, 1, __ATOMIC_SEQ_CST);
    uint64_t t0 = cz_clock_now_ns();
    while (__atomic_load_n(&r->started, __ATOMIC_SEQ_CST) < 2 &&
           cz_clock_elapsed_ns(t0) < 10000000000u)
        usleep(100);
    if (__atomic_load_n(&r->started, __ATOMIC_SEQ_CST) == 2)
        __atomic_fetch_add(&r->met, 1, __ATOMIC_SEQ_CST);
}

static void test_parallel(void) {
    cz_threadpool *pool = NULL;
    CHECK_ERR(cz_threadpool_create(&pool, 2, NULL), CZ_OK);
    rendezvous r = {0, 0, {0}};
    cz_threadpool_run(pool, meet_task, &r, 2);
    CHECK_EQ_INT(r.met, 2);
    CHECK(!pthread_equal(r.who[0], r.who[1]));
    CHECK(pthread_equal(r.who[0], pthread_self()) || pthread_equal(r.who[1], pthread_self()));
    cz_threadpool_destroy(pool);
}

static const test_case cases[] = {
    {"exactly_once", test_exactly_once},
    {"default_size", test_default_size},
    {"concurrent_callers", test_concurrent_callers},
    {"nested", test_nested},
    {"parallel", test_parallel},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
