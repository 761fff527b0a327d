/*
 * The memory budget: oversize requests fail at once, two-step release, strict FIFO order of
 * grants, timeouts and aborts, the evictor, a request's own reclaim hook that moves reserved bytes
 * into it (cz__budget_reserve_reclaim), the physical-RAM total, and many threads on a tiny
 * budget never exceeding it (an independent watcher samples `used`, and every holder checks that
 * the sum of live reservations it can see stays within the total).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/clock.h"
#include "cuzk/engine.h"
#include "engine/mem.h"
#include "test.h"

static cz_budget *mk(uint64_t total) {
    cz_budget_config cfg = {total, 0};
    cz_budget *b = NULL;
    CHECK_ERR(cz_budget_create(&b, &cfg, NULL), CZ_OK);
    return b;
}

static void sleep_ms(unsigned ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Waits (up to 5 s) until n requests are waiting. */
static int wait_waiting(cz_budget *b, size_t n) {
    for (int i = 0; i < 5000; i++) {
        cz_budget_stats st;
        cz_budget_stats_get(&st, b);
        if (st.nwaiting == n)
            return 1;
        sleep_ms(1);
    }
    return 0;
}

static void test_basic(void) {
    cz_budget *b = mk(100);
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_reservation r;
    CHECK_ERR(cz_budget_reserve(&r, b, 101, -1, NULL, NULL, &ei), CZ_ERANGE);
    CHECK_EQ_INT(r.bytes, 0);
    CHECK(strstr(ei.msg, "larger than the whole budget") != NULL);
    CHECK_ERR(cz_budget_reserve(&r, b, 0, 0, NULL, NULL, NULL), CZ_OK);
    CHECK_EQ_INT(r.bytes, 0);

    /* Two-step release: 70 held, 40 released after the "GPU region", 30 after "finalize". */
    CHECK_ERR(cz_budget_reserve(&r, b, 70, 0, NULL, NULL, NULL), CZ_OK);
    cz_reservation r2;
    CHECK_ERR(cz_budget_reserve(&r2, b, 40, 0, NULL, NULL, NULL), CZ_ETIMEDOUT); /* poll */
    CHECK_EQ_INT(r2.bytes, 0);
    cz_reservation_release(&r, 40);
    CHECK_EQ_INT(r.bytes, 30);
    CHECK_ERR(cz_budget_reserve(&r2, b, 40, 0, NULL, NULL, NULL), CZ_OK);
    cz_budget_stats st;
    cz_budget_stats_get(&st, b);
    CHECK(st.used == 70 && st.peak == 70 && st.total == 100);
    cz_reservation_release_all(&r);
    cz_reservation_release_all(&r);
    cz_reservation_release_all(&r2);
    CHECK(r.bytes == 0 && r2.bytes == 0);
    cz_budget_stats_get(&st, b);
    CHECK(st.used == 0 && st.ngranted == 2 && st.nrefused == 2);

    /* Timeout: a waiter gives up after its deadline and leaves the queue. */
    CHECK_ERR(cz_budget_reserve(&r, b, 100, 0, NULL, NULL, NULL), CZ_OK);
    uint64_t t0 = cz_clock_now_ns();
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_budget_reserve(&r2, b, 1, 30, NULL, NULL, &ei), CZ_ETIMEDOUT);
    CHECK(cz_clock_elapsed_ns(t0) >= 30000000u);
    CHECK(strstr(ei.msg, "within 30 ms") != NULL);
    cz_budget_stats_get(&st, b);
    CHECK(st.nwaiting == 0 && st.waiting_bytes == 0);
    cz_reservation_release_all(&r);
    cz_budget_destroy(b);
}

typedef struct {
    cz_budget *b;
    uint64_t bytes;
    int rc;
    int order; /* grant order, from a shared counter */
    atomic_int *counter;
    atomic_int *abort_flag;
    cz_reservation r;
} req;

static int abort_pred(void *arg) {
    return atomic_load((atomic_int *)arg);
}

static void *req_main(void *vp) {
    req *q = vp;
    q->rc = cz_budget_reserve(&q->r, q->b, q->bytes, -1, q->abort_flag ? abort_pred : NULL,
                              q->abort_flag, NULL);
    if (q->rc == CZ_OK)
        q->order = atomic_fetch_add(q->counter, 1);
    return NULL;
}

/* A big early request is not overtaken by a small later one that would fit. */
static void test_fifo(void) {
    cz_budget *b = mk(100);
    cz_reservation hold;
    CHECK_ERR(cz_budget_reserve(&hold, b, 80, 0, NULL, NULL, NULL), CZ_OK);
    atomic_int counter = 0;
    req big = {b, 50, -1, -1, &counter, NULL, {0}};
    req small = {b, 10, -1, -1, &counter, NULL, {0}};
    pthread_t tb, ts;
    pthread_create(&tb, NULL, req_main, &big);
    CHECK(wait_waiting(b, 1));
    pthread_create(&ts, NULL, req_main, &small);
    CHECK(wait_waiting(b, 2));
    sleep_ms(20);
    cz_budget_stats st;
    cz_budget_stats_get(&st, b);
    CHECK(st.used == 80 && st.nwaiting == 2 && st.waiting_bytes == 60); /* small did not jump */
    /* 50 free: the head (50) fits and is granted; then small does not fit (110 > 100). */
    cz_reservation_release(&hold, 30);
    pthread_join(tb, NULL);
    CHECK(big.rc == CZ_OK && big.r.bytes == 50);
    CHECK(wait_waiting(b, 1));
    cz_budget_stats_get(&st, b);
    CHECK(st.used == 100 && st.waiting_bytes == 10);
    cz_reservation_release_all(&hold);
    pthread_join(ts, NULL);
    CHECK(small.rc == CZ_OK && small.r.bytes == 10);
    cz_reservation_release_all(&big.r);
    cz_reservation_release_all(&small.r);

    /* An aborted head lets the next waiter through. */
    CHECK_ERR(cz_budget_reserve(&hold, b, 95, 0, NULL, NULL, NULL), CZ_OK);
    atomic_int flag = 0;
    req a = {b, 60, -1, -1, &counter, &flag, {0}};
    req c = {b, 5, -1, -1, &counter, NULL, {0}};
    pthread_t ta, tc;
    pthread_create(&ta, NULL, req_main, &a);
    CHECK(wait_waiting(b, 1));
    pthread_create(&tc, NULL, req_main, &c);
    CHECK(wait_waiting(b, 2));
    atomic_store(&flag, 1);
    cz_budget_wake(b);
    pthread_join(ta, NULL);
    pthread_join(tc, NULL); /* 95 + 5 fits once the head has gone */
    CHECK(a.rc == CZ_ECANCELED && a.r.bytes == 0);
    CHECK(c.rc == CZ_OK && c.r.bytes == 5);
    cz_reservation_release_all(&c.r);
    cz_reservation_release_all(&hold);
    cz_budget_destroy(b);
}

typedef struct {
    cz_reservation owned[4];
    int calls;
} evictor;

static uint64_t evict_cb(void *arg, uint64_t need) {
    evictor *e = arg;
    e->calls++;
    uint64_t freed = 0;
    for (int i = 0; i < 4 && freed < need; i++) {
        freed += e->owned[i].bytes;
        cz_reservation_release_all(&e->owned[i]);
    }
    return freed;
}

static void test_evictor(void) {
    cz_budget *b = mk(100);
    evictor e = {0};
    for (int i = 0; i < 4; i++)
        CHECK_ERR(cz_budget_reserve(&e.owned[i], b, 20, 0, NULL, NULL, NULL), CZ_OK);
    cz_budget_set_evictor(b, evict_cb, &e);
    cz_reservation r;
    CHECK_ERR(cz_budget_reserve(&r, b, 50, 1000, NULL, NULL, NULL), CZ_OK); /* 20 free, 30 more */
    CHECK(e.owned[0].bytes == 0 && e.owned[1].bytes == 0 && e.owned[2].bytes == 20);
    cz_budget_stats st;
    cz_budget_stats_get(&st, b);
    CHECK(st.used == 90 && st.nevict_calls >= 1);
    cz_reservation_release_all(&r);
    cz_reservation_release_all(&e.owned[2]);
    cz_reservation_release_all(&e.owned[3]);
    cz_budget_destroy(b);
}

/* A request's own reclaim hook: moves bytes from a reservation its caller owns into the
 * request (out), so that it waits for that much less; the budget's evictor is not called. */
typedef struct {
    cz_reservation donor, *out;
    uint64_t step;
} adopter;

static uint64_t adopt_cb(void *arg, uint64_t short_by) {
    adopter *a = arg;
    uint64_t n = a->donor.bytes < a->step ? a->donor.bytes : a->step;
    (void)short_by;
    cz__reservation_move(a->out, &a->donor, n);
    return n;
}

static void test_adopt(void) {
    cz_budget *b = mk(100);
    evictor e = {0};
    adopter a = {{NULL, 0, 0}, NULL, 10};
    cz_reservation r, hold;
    cz_budget_stats st;
    CHECK_ERR(cz_budget_reserve(&a.donor, b, 30, 0, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_budget_reserve(&hold, b, 50, 0, NULL, NULL, NULL), CZ_OK);
    cz_budget_set_evictor(b, evict_cb, &e);
    /* 60 asked, 20 free: the hook moves the donor's 30 in steps of 10, then 30 more fit */
    a.out = &r;
    CHECK_ERR(cz__budget_reserve_reclaim(&r, b, 60, 0, NULL, NULL, adopt_cb, &a, NULL),
              CZ_ETIMEDOUT);
    cz_budget_stats_get(&st, b);
    CHECK(r.bytes == 30 && a.donor.bytes == 0 && st.used == 80 && e.calls == 0);
    CHECK(st.nwaiting == 0 && st.waiting_bytes == 0);
    /* 40 free after this: two steps of 10 moved, then the remaining 40 are granted */
    cz_reservation_release(&hold, 20);
    a.donor = r; /* the moved bytes, to be adopted again */
    CHECK_ERR(cz__budget_reserve_reclaim(&r, b, 60, 0, NULL, NULL, adopt_cb, &a, NULL), CZ_OK);
    cz_budget_stats_get(&st, b);
    CHECK(r.bytes == 60 && a.donor.bytes == 10 && st.used == 100 && st.peak == 100);
    cz_reservation_release_all(&a.donor);
    cz_reservation_release_all(&r);
    cz_reservation_release_all(&hold);
    cz_budget_destroy(b);
}

static void test_phys(void) {
    cz_budget_config cfg = {0, 1u << 20};
    cz_budget *b;
    CHECK_ERR(cz_budget_create(&b, &cfg, NULL), CZ_OK);
    uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
    CHECK_EQ_INT(cz_budget_total(b), phys - (1u << 20));
    cz_budget_destroy(b);
    cfg.margin_bytes = phys;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_budget_create(&b, &cfg, &ei), CZ_EINVAL);
    CHECK(b == NULL && strstr(ei.msg, "margin") != NULL);
}

/* Many threads, a tiny budget: the sum of held bytes (tracked by the holders themselves) never
 * exceeds the total, and everything is released at the end. */
#define NTHREADS 8
#define NROUNDS  300
#define TOTAL    16

static atomic_long held_sum;
static atomic_long max_seen;
static atomic_int over;
static atomic_int done_threads;

static void *stress_main(void *vp) {
    cz_budget *b = vp;
    unsigned seed = (unsigned)(uintptr_t)&seed;
    for (int i = 0; i < NROUNDS; i++) {
        uint64_t bytes = 1 + (uint64_t)(rand_r(&seed) % TOTAL);
        cz_reservation r;
        if (cz_budget_reserve(&r, b, bytes, -1, NULL, NULL, NULL) != CZ_OK) {
            atomic_fetch_add(&over, 1000);
            continue;
        }
        long now = atomic_fetch_add(&held_sum, (long)bytes) + (long)bytes;
        if (now > TOTAL)
            atomic_fetch_add(&over, 1);
        long m = atomic_load(&max_seen);
        while (now > m && !atomic_compare_exchange_weak(&max_seen, &m, now)) {
        }
        uint64_t first = bytes / 2; /* two-step release */
        atomic_fetch_sub(&held_sum, (long)first);
        cz_reservation_release(&r, first);
        sched_yield();
        atomic_fetch_sub(&held_sum, (long)(bytes - first));
        cz_reservation_release_all(&r);
    }
    atomic_fetch_add(&done_threads, 1);
    return NULL;
}

static void test_stress(void) {
    cz_budget *b = mk(TOTAL);
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, stress_main, b);
    int watcher_over = 0;
    while (atomic_load(&done_threads) < NTHREADS) {
        cz_budget_stats st;
        cz_budget_stats_get(&st, b);
        watcher_over |= st.used > st.total;
        sched_yield();
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    cz_budget_stats st;
    cz_budget_stats_get(&st, b);
    CHECK_EQ_INT(atomic_load(&over), 0);
    CHECK(!watcher_over);
    CHECK(st.used == 0 && st.nwaiting == 0);
    CHECK(st.peak <= TOTAL && st.peak >= 2); /* it was contended */
    CHECK_EQ_INT(st.ngranted, (uint64_t)NTHREADS * NROUNDS);
    CHECK(atomic_load(&max_seen) <= TOTAL);
    cz_budget_destroy(b);
}

static const test_case cases[] = {
    {"basic", test_basic}, {"fifo", test_fifo}, {"evictor", test_evictor},
    {"adopt", test_adopt}, {"phys", test_phys}, {"stress", test_stress},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
