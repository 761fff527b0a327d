/*
 * Host memory (cz_host_alloc) and the buffer pool, without a GPU: a fake pinner stands in for
 * cudaHostAlloc so that both outcomes of pinning are exercised in CI.
 *   - pinned blocks go to the pinner and back to its free; a failing pinner falls back to
 *     pageable memory, counts the failure, warns once; want_pinned 0 never pins; blocks of 2 MiB
 *     and more are huge-page-aligned mappings, pinned by registering them (the pinner's alloc
 *     where that fails), unregistered at free; the SRS seam's large blocks are pinned in place
 *     after they are filled;
 *   - accounting, the budget's used bytes checked after every step: a buffer given back while its
 *     partition's reservation holds its bytes stays idle, owed (no budget call, nothing freed);
 *     the release moves its bytes into the pool's reservation (step 1: whole buffers up to the
 *     bytes released); a reservation waiting for memory adopts idle buffers of its sizes (their
 *     bytes move into it) and its gets take them; a buffer still in use at its partition's
 *     release becomes the pool's and comes back without a budget call; a buffer got without a
 *     reservation is charged when it comes back, or freed when the budget cannot grant it;
 *   - the budget's evictor (a key load) frees idle buffers, oldest first, then asks the next
 *     evictor for what is missing; a waiting partition frees idle buffers of other sizes first,
 *     those of its sizes only when nothing else is in flight; a wait given up keeps what it
 *     adopted until its release gives it back; max_idle_bytes bounds the pool's idle bytes;
 *   - through the engine: three zkey jobs one after another reuse the first job's a and b
 *     (2 allocations, 4 reuses), and after the engine is gone the budget holds only the key.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/fileio.h"
#include "cuzk/pipeline.h"
#include "cuzk/workload.h"
#include "test.h"

static int fake_allocs, fake_frees, fake_fail;

static int fake_alloc(void **out, size_t bytes, cz_errinfo *ei) {
    if (fake_fail) {
        *out = NULL;
        return cz_fail(ei, CZ_ENOMEM, "fake pinner: out of pinned memory");
    }
    if (posix_memalign(out, 4096, bytes) != 0) /* page aligned, as cudaHostAlloc's blocks */
        *out = NULL;
    fake_allocs += *out != NULL;
    return *out != NULL ? CZ_OK : CZ_ENOMEM;
}

static void fake_free(void *p) {
    fake_frees++;
    free(p);
}

static const cz_host_pinner fake = {fake_alloc, fake_free, NULL, NULL};

#define MIB ((size_t)1 << 20)

/* A registering pinner: records what it was asked to pin, fails on demand. */
static int fake_regs, fake_unregs, fake_reg_fail;
static void *fake_reg_p;
static size_t fake_reg_len;

static int fake_register(void *p, size_t bytes, int read_only, cz_errinfo *ei) {
    (void)read_only;
    if (fake_reg_fail)
        return cz_fail(ei, CZ_ENOMEM, "fake pinner: RLIMIT_MEMLOCK");
    fake_regs++;
    fake_reg_p = p;
    fake_reg_len = bytes;
    return CZ_OK;
}

static int fake_unregister(void *p, cz_errinfo *ei) {
    (void)ei;
    fake_unregs += p == fake_reg_p;
    return CZ_OK;
}

static const cz_host_pinner fake_mapping = {fake_alloc, fake_free, fake_register, fake_unregister};

static void test_host_alloc(void) {
    cz_host_stats st0, st;
    cz_host_set_pinner(&fake);
    cz_host_stats_get(&st0);
    void *p = cz_host_alloc(1000, 1);
    CHECK(p != NULL && cz_host_is_pinned(p) && cz_host_size(p) == 1000);
    CHECK_EQ_INT(((uintptr_t)p & 31), 0);
    memset(p, 0xab, 1000);
    CHECK_EQ_INT(fake_allocs, 1);
    cz_host_free(p);
    CHECK_EQ_INT(fake_frees, 1);

    void *q = cz_host_alloc(77, 0); /* not asked: never pinned */
    CHECK(q != NULL && !cz_host_is_pinned(q) && fake_allocs == 1);
    for (int i = 0; i < 8; i++) { /* pageable payloads are 64-byte aligned too, every size */
        void *r = cz_host_alloc(17 + (size_t)i * 4099, 0);
        CHECK(r != NULL && ((uintptr_t)r & 63) == 0);
        cz_host_free(r);
    }
    cz_host_free(q);
    CHECK_EQ_INT(fake_frees, 1);

    fake_fail = 1; /* RLIMIT_MEMLOCK, the driver out of pinned memory: pageable, no failure */
    void *f1 = cz_host_alloc(4096, 1), *f2 = cz_host_alloc(4096, 1);
    CHECK(f1 != NULL && f2 != NULL && !cz_host_is_pinned(f1) && !cz_host_is_pinned(f2));
    memset(f1, 1, 4096);
    cz_host_stats_get(&st);
    CHECK_EQ_INT(st.npin_failed, st0.npin_failed + 2);
    CHECK_EQ_INT(st.nwarnings, 1); /* one warning, however many failures */
    CHECK(st.npageable == st0.npageable + 11 && st.npinned == st0.npinned + 1);
    cz_host_free(f1);
    cz_host_free(f2);
    CHECK_EQ_INT(fake_frees, 1); /* pageable blocks never reach the pinner's free */
    fake_fail = 0;
    cz_host_set_pinner(NULL);
}

/* Blocks of 2 MiB and more: pinned by registering a mapping of whole huge pages on a huge-page
 * boundary (so the kernel can back it with huge pages), unregistered at free; cudaHostAlloc
 * where registering fails; small pinned blocks never registered. */
static void test_host_alloc_mapped(void) {
    cz_host_set_pinner(&fake_mapping);
    int allocs0 = fake_allocs, frees0 = fake_frees;
    void *p = cz_host_alloc(3 * MIB, 1);
    CHECK(p != NULL && cz_host_is_pinned(p) && cz_host_size(p) == 3 * MIB);
    CHECK_EQ_INT(fake_regs, 1);
    CHECK_EQ_INT(fake_allocs, allocs0);
    CHECK_EQ_INT((uintptr_t)fake_reg_p % (2 * MIB), 0);
    CHECK(fake_reg_len == 4 * MIB && (uint8_t *)p - (uint8_t *)fake_reg_p == 64);
    memset(p, 0x5a, 3 * MIB); /* the whole block is writable */
    cz_host_free(p);
    CHECK_EQ_INT(fake_unregs, 1);
    CHECK_EQ_INT(fake_frees, frees0);

    void *s = cz_host_alloc(MIB, 1); /* below 2 MiB: the pinner's alloc */
    CHECK(s != NULL && cz_host_is_pinned(s) && fake_regs == 1 && fake_allocs == allocs0 + 1);
    cz_host_free(s);
    CHECK_EQ_INT(fake_frees, frees0 + 1);

    fake_reg_fail = 1; /* registering refused: cudaHostAlloc, still pinned */
    void *f = cz_host_alloc(5 * MIB, 1);
    CHECK(f != NULL && cz_host_is_pinned(f) && fake_allocs == allocs0 + 2);
    memset(f, 1, 5 * MIB);
    cz_host_free(f);
    CHECK_EQ_INT(fake_frees, frees0 + 2);
    CHECK_EQ_INT(fake_unregs, 1);
    fake_reg_fail = 0;

    void *q = cz_host_alloc(7 * MIB + 1, 0); /* pageable: a mapping, never the pinner */
    CHECK(q != NULL && !cz_host_is_pinned(q) && cz_host_size(q) == 7 * MIB + 1);
    CHECK_EQ_INT(((uintptr_t)q - 64) % (2 * MIB), 0);
    memset(q, 2, 7 * MIB + 1);
    cz_host_free(q);
    CHECK(fake_regs == 1 && fake_allocs == allocs0 + 2 && fake_frees == frees0 + 2);
    cz_host_set_pinner(NULL);
}

/* The SRS seam's pinned memory: a block of 2 MiB and more is a pageable mapping until the loader
 * has filled it, then registered in place (the driver would otherwise fault in and clear every
 * page on one thread); smaller ones are pinned at once; a refused registration leaves the block
 * pageable, with the one warning. */
static void test_host_pin_after_fill(void) {
    const cz_srs_host_mem *m = &cz_srs_host_mem_pinned;
    cz_host_stats st0, st;
    cz_host_set_pinner(&fake_mapping);
    cz_host_stats_get(&st0);
    int regs0 = fake_regs, unregs0 = fake_unregs, allocs0 = fake_allocs;
    void *p = m->alloc(m->arg, 3 * MIB);
    CHECK(p != NULL && !cz_host_is_pinned(p) && fake_regs == regs0);
    memset(p, 0x3c, 3 * MIB);
    CHECK(m->filled != NULL);
    m->filled(m->arg, p, 3 * MIB);
    CHECK(cz_host_is_pinned(p) && fake_regs == regs0 + 1 && fake_reg_len == 4 * MIB);
    CHECK_EQ_INT((uintptr_t)fake_reg_p % (2 * MIB), 0);
    CHECK_EQ_INT(cz_host_pin(p), 1); /* pinned already: nothing more */
    CHECK_EQ_INT(fake_regs, regs0 + 1);
    cz_host_stats_get(&st);
    CHECK(st.npinned == st0.npinned + 1 && st.npageable == st0.npageable);
    m->free(m->arg, p, 3 * MIB);
    CHECK_EQ_INT(fake_unregs, unregs0 + 1);

    void *s = m->alloc(m->arg, 1000); /* small: the pinner's alloc at once */
    CHECK(s != NULL && cz_host_is_pinned(s) && fake_allocs == allocs0 + 1);
    m->filled(m->arg, s, 1000);
    CHECK_EQ_INT(fake_regs, regs0 + 1);
    m->free(m->arg, s, 1000);

    void *h = cz_host_alloc(100, 0); /* a heap block cannot be registered */
    CHECK_EQ_INT(cz_host_pin(h), 0);
    cz_host_free(h);

    fake_reg_fail = 1; /* refused: the block stays pageable and usable */
    void *f = m->alloc(m->arg, 5 * MIB);
    memset(f, 7, 5 * MIB);
    m->filled(m->arg, f, 5 * MIB);
    CHECK(f != NULL && !cz_host_is_pinned(f) && ((uint8_t *)f)[5 * MIB - 1] == 7);
    cz_host_stats_get(&st);
    CHECK_EQ_INT(st.npin_failed, st0.npin_failed + 2); /* the heap block and this one */
    m->free(m->arg, f, 5 * MIB);
    CHECK_EQ_INT(fake_unregs, unregs0 + 1);
    fake_reg_fail = 0;

    cz_host_set_pinner(&fake); /* a pinner that cannot register: large blocks pinned at once */
    void *a = m->alloc(m->arg, 3 * MIB);
    CHECK(a != NULL && cz_host_is_pinned(a) && fake_allocs == allocs0 + 2);
    m->free(m->arg, a, 3 * MIB);
    cz_host_set_pinner(NULL);
}

static uint64_t used(cz_budget *b) {
    cz_budget_stats s;
    cz_budget_stats_get(&s, b);
    return s.used;
}

static cz_mem_stats pstats(cz_mem *p) {
    cz_mem_stats st;
    cz_mem_stats_get(&st, p);
    return st;
}

static uint64_t next_need, next_calls;
static uint64_t next_evict(void *arg, uint64_t need) {
    (void)arg;
    next_calls++;
    next_need = need;
    return 0;
}

/* A partition's life against the pool, step by step, with the budget exact after every step:
 * used = the partitions' reservations + the pool's, and every buffer counted once. */
static void test_pool_accounting(void) {
    cz_budget_config bc = {1000, 0};
    cz_budget *b = NULL;
    cz_mem *p = NULL;
    cz_mem_stats st;
    cz_reservation A, B, key;
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_mem_config pc = {1, b, 0};
    cz_host_set_pinner(&fake);
    fake_allocs = fake_frees = 0;
    CHECK_ERR(cz_mem_create(&p, &pc, NULL), CZ_OK);
    cz_budget_set_evictor(b, next_evict, NULL); /* asked after the manager (attached at create) */

    /* partition A: reserves, gets two buffers, gives them back before its release: they stay
     * idle, owed by A (no budget call, nothing freed, nothing counted twice) */
    CHECK_ERR(cz_budget_reserve(&A, b, 400, 0, NULL, NULL, NULL), CZ_OK);
    void *x = cz_mem_get(p, 200, &A), *y = cz_mem_get(p, 200, &A);
    CHECK(x != NULL && y != NULL && x != y && cz_host_is_pinned(x) && fake_allocs == 2);
    memset(x, 1, 200);
    cz_mem_put(p, x);
    cz_mem_put(p, y);
    st = pstats(p);
    CHECK(used(b) == 400 && st.owed_bytes == 400 && st.reserved_bytes == 0 && st.nidle == 2);
    /* release step 1 (200): one buffer's bytes move to the pool, none is released */
    cz_mem_release(p, &A, 200);
    st = pstats(p);
    CHECK(used(b) == 400 && A.bytes == 200 && st.owed_bytes == 200 && st.reserved_bytes == 200);
    cz_mem_release(p, &A, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(used(b) == 400 && A.bytes == 0 && st.owed_bytes == 0 && st.reserved_bytes == 400);
    CHECK(st.idle_bytes == 400 && fake_frees == 0);

    /* partition B (700: the two buffers and 300 more) does not fit beside the idle 400: waiting,
     * it adopts the two buffers (their bytes move into B) instead of having them freed */
    const uint64_t want2[CZ_MEM_BUFS_MAX] = {200, 200};
    CHECK_ERR(cz_mem_reserve(&B, p, 700, want2, 0, NULL, NULL, NULL), CZ_OK);
    st = pstats(p);
    CHECK(B.bytes == 700 && used(b) == 700 && st.nadopted == 2 && st.reserved_bytes == 0);
    CHECK(st.owed_bytes == 400 && fake_frees == 0 && next_calls == 0);
    /* another partition (A again, fresh bytes) may take one of them: B's bytes then pay for
     * whatever B gets instead, and A's give-back is settled at A's release */
    CHECK_ERR(cz_budget_reserve(&A, b, 200, 0, NULL, NULL, NULL), CZ_OK);
    void *z = cz_mem_get(p, 200, &A);
    CHECK((z == x || z == y) && fake_allocs == 2 && used(b) == 900);
    cz_mem_put(p, z);
    cz_mem_release(p, &A, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(used(b) == 900 && st.reserved_bytes == 200 && st.owed_bytes == 200); /* B + the pool */
    /* B's gets take its adopted buffer, then the pool's (whose bytes the pool releases) */
    void *x2 = cz_mem_get(p, 200, &B), *y2 = cz_mem_get(p, 200, &B);
    CHECK(((x2 == x && y2 == y) || (x2 == y && y2 == x)) && fake_allocs == 2);
    st = pstats(p);
    CHECK(used(b) == 700 && st.nidle == 0 && st.inuse_bytes == 400 && st.owed_bytes == 0);

    /* B ends with its buffers still in use (freed later, as the pipeline's deallocation thread
     * does): the pool pays for them from the release on, and takes them back without asking
     * the budget */
    cz_mem_release(p, &B, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(used(b) == 400 && st.reserved_bytes == 400 && st.inuse_bytes == 400);
    cz_mem_put(p, x2);
    cz_mem_put(p, y2);
    st = pstats(p);
    CHECK(used(b) == 400 && st.idle_bytes == 400 && st.reserved_bytes == 400 && fake_frees == 0);

    /* a key load needs memory: the budget's evictor (the pool's) frees idle buffers, oldest
     * first, before asking the next evictor for the rest */
    CHECK_ERR(cz_budget_reserve(&key, b, 700, 0, NULL, NULL, NULL), CZ_OK);
    st = pstats(p);
    CHECK(st.nidle == 1 && st.idle_bytes == 200 && fake_frees == 1 && next_calls == 0);
    CHECK_EQ_INT(used(b), 900);
    cz_reservation r2;
    CHECK_ERR(cz_budget_reserve(&r2, b, 350, 0, NULL, NULL, NULL), CZ_ETIMEDOUT);
    st = pstats(p);
    CHECK(st.nidle == 0 && fake_frees == 2 && next_calls >= 1 && next_need == 50);
    CHECK_EQ_INT(used(b), 700);
    cz_reservation_release_all(&key);
    CHECK_EQ_INT(used(b), 0);

    /* a get without a reservation, put back: charged to the pool if the budget grants it at
     * once, else freed (never waits) */
    void *w = cz_mem_get(p, 300, NULL);
    CHECK_ERR(cz_budget_reserve(&key, b, 800, 0, NULL, NULL, NULL), CZ_OK);
    cz_mem_put(p, w); /* 800 + 300 > 1000 */
    st = pstats(p);
    CHECK(st.nidle == 0 && st.inuse_bytes == 0 && fake_frees == 3);
    cz_reservation_release_all(&key);

    /* pinning fails: the pool still serves, from pageable memory */
    fake_fail = 1;
    void *v = cz_mem_get(p, 64, NULL);
    CHECK(v != NULL && !cz_host_is_pinned(v));
    cz_mem_put(p, v);
    fake_fail = 0;
    CHECK_EQ_INT(used(b), 64); /* kept, charged to the pool */

    cz_budget_set_evictor(b, NULL, NULL);
    cz_mem_destroy(p);
    CHECK_EQ_INT(used(b), 0);
    CHECK_EQ_INT(fake_allocs, fake_frees); /* every pinned block went back to the pinner */
    cz_host_set_pinner(NULL);
    cz_budget_destroy(b);

    /* NULL pool: plain host memory */
    void *n = cz_mem_get(NULL, 10, NULL);
    CHECK(n != NULL && !cz_host_is_pinned(n));
    cz_mem_put(NULL, n);
}

/* Aborts a wait the second time it is asked (after the reclaim hook ran once). */
static int abort_second(void *arg) {
    return ++*(int *)arg >= 2;
}

/* What a waiting partition frees: idle buffers of sizes it will not use first; those of its
 * sizes only when nothing else will come back (no buffer in use or owed elsewhere). A wait that
 * is given up keeps what it adopted in its reservation until the release gives it back. The
 * pool's own idle bytes stay within max_idle_bytes. */
static void test_pool_waiting(void) {
    cz_budget_config bc = {1000, 0};
    cz_budget *b = NULL;
    cz_mem *p = NULL;
    cz_mem_stats st;
    cz_reservation A, B, C;
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_mem_config pc = {1, b, 500};
    cz_host_set_pinner(&fake);
    fake_allocs = fake_frees = 0;
    CHECK_ERR(cz_mem_create(&p, &pc, NULL), CZ_OK);

    /* 600 bytes come back, 500 may stay idle (max_idle_bytes): the last one settled is freed */
    CHECK_ERR(cz_budget_reserve(&A, b, 700, 0, NULL, NULL, NULL), CZ_OK);
    void *x = cz_mem_get(p, 200, &A), *y = cz_mem_get(p, 200, &A);
    void *s = cz_mem_get(p, 100, &A), *t = cz_mem_get(p, 100, &A);
    cz_mem_put(p, s);
    cz_mem_put(p, t);
    cz_mem_put(p, x);
    cz_mem_put(p, y);
    cz_mem_release(p, &A, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(st.idle_bytes == 500 && st.reserved_bytes == 500 && st.nfreed == 1 && used(b) == 500);
    CHECK_EQ_INT(fake_frees, 1);

    /* C is in flight with a buffer in use */
    CHECK_ERR(cz_budget_reserve(&C, b, 100, 0, NULL, NULL, NULL), CZ_OK);
    void *c = cz_mem_get(p, 100, &C); /* the idle 100: the pool releases its bytes */
    CHECK(c == t && used(b) == 500 && fake_allocs == 4);
    /* B wants one 200 and needs 800: adopts one 200 and is still 100 short; the only idle
     * buffer left is of its size, kept while C may give memory back: B times out, holding the
     * adopted 200 */
    const uint64_t want[CZ_MEM_BUFS_MAX] = {200};
    CHECK_ERR(cz_mem_reserve(&B, p, 800, want, 0, NULL, NULL, NULL), CZ_ETIMEDOUT);
    st = pstats(p);
    CHECK(B.bytes == 200 && st.nadopted == 1 && st.owed_bytes == 200 && st.nidle == 2);
    CHECK(fake_frees == 1 && used(b) == 500);
    cz_mem_release(p, &B, CZ_MEM_ALL); /* the adopted buffer goes back to the pool */
    st = pstats(p);
    CHECK(B.bytes == 0 && st.owed_bytes == 0 && st.reserved_bytes == 400 && used(b) == 500);

    /* C ends; nothing is in flight: a wait for 900 adopts a 200, frees the 100 (not its size),
     * then the other 200 (its size, but nothing else will come back) */
    cz_mem_put(p, c);
    cz_mem_release(p, &C, CZ_MEM_ALL);
    CHECK_EQ_INT(used(b), 500);
    CHECK_ERR(cz_mem_reserve(&B, p, 900, want, 0, NULL, NULL, NULL), CZ_OK);
    st = pstats(p);
    CHECK(B.bytes == 900 && used(b) == 900 && st.nidle == 1 && st.owed_bytes == 200);
    CHECK_EQ_INT(fake_frees, 3);
    cz_mem_release(p, &B, CZ_MEM_ALL);
    CHECK_EQ_INT(used(b), 200);

    /* a wait given up (the job was cancelled) after adopting: its reservation holds the
     * adopted bytes, and its release returns them to the pool */
    int asked = 0;
    CHECK_ERR(cz_budget_reserve(&A, b, 800, 0, NULL, NULL, NULL), CZ_OK); /* 1000 used */
    CHECK_ERR(cz_mem_reserve(&B, p, 400, want, -1, abort_second, &asked, NULL), CZ_ECANCELED);
    st = pstats(p);
    CHECK(B.bytes == 200 && st.owed_bytes == 200 && st.reserved_bytes == 0 && used(b) == 1000);
    cz_mem_release(p, &B, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(B.bytes == 0 && st.reserved_bytes == 200 && used(b) == 1000);
    cz_reservation_release_all(&A);
    cz_mem_destroy(p);
    CHECK(used(b) == 0 && fake_allocs == fake_frees);
    cz_host_set_pinner(NULL);
    cz_budget_destroy(b);
}

static void test_engine(void) {
    cz_budget_config bc = {256u << 20, 0};
    cz_budget *b = NULL;
    cz_engine *e = NULL;
    cz_srs *srs = NULL;
    cz_srs_key *key = NULL;
    cz_engine_config cfg;
    cz_errinfo ei;
    void *wt = NULL;
    size_t len = 0;
    static const uint8_t R[32] = {1}, S[32] = {2};
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_srs_config sc = {b, NULL, NULL, NULL, 0};
    CHECK_ERR(cz_srs_create(&srs, &sc, NULL), CZ_OK);
    cz_budget_set_evictor(b, cz_srs_evict_lru, srs);
    memset(&cfg, 0, sizeof cfg);
    cfg.partition_workers = 1;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 1;
    cfg.shared_budget = b;
    CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK);
    CHECK_ERR(cz_file_read(&wt, &len, "examples/mulchain/mulchain.wtns", &ei), CZ_OK);
    CHECK_ERR(cz_srs_acquire(&key, srs, "examples/mulchain/mulchain.zkey", NULL, &ei), CZ_OK);
    const cz_zkey *zk = cz_srs_key_data(key);
    uint64_t vbytes = (uint64_t)zk->domain_size * 32;
    cz_srs_release(key);
    for (int n = 0; n < 3; n++) {
        cz_workload wl;
        cz_workload_blinding bl = {R, S};
        cz_job *job = NULL;
        char jk[16];
        snprintf(jk, sizeof jk, "job%d", n);
        CHECK_ERR(cz_srs_acquire(&key, srs, "examples/mulchain/mulchain.zkey", NULL, &ei), CZ_OK);
        CHECK_ERR(cz_workload_zkey(&wl, key, wt, len, "mulchain.wtns", &bl, &ei), CZ_OK);
        CHECK_ERR(cz_engine_submit(NULL, e, jk, CZ_PRIO_NORMAL, &wl, &ei), CZ_OK);
        CHECK_ERR(cz_engine_await(&job, e, jk, 60000, &ei), CZ_OK);
        CHECK_EQ_INT(cz_job_state_get(job), CZ_JOB_DONE);
        cz_job_unref(job);
    }
    cz_mem_stats st;
    for (int i = 0; i < 10000; i++) { /* the deallocation thread gives the last job's back */
        cz_mem_stats_get(&st, cz_engine_mem(e));
        if (st.inuse_bytes == 0)
            break;
        usleep(1000);
    }
    CHECK(st.nallocs == 2 && st.nreuses == 4); /* a and b of the first job, reused twice */
    CHECK(st.idle_bytes == 2 * vbytes && st.reserved_bytes == 2 * vbytes);
    cz_engine_destroy(e);
    cz_srs_stats ss;
    cz_srs_stats_get(&ss, srs);
    CHECK_EQ_INT(used(b), ss.bytes); /* the pool gave its idle bytes back; only the key is left */
    {
        cz_budget_evict_fn fn;
        void *arg;
        cz_budget_get_evictor(b, &fn, &arg);
        CHECK(fn == cz_srs_evict_lru && arg == srs); /* the engine left the evictor as set */
    }
    cz_srs_destroy(srs);
    cz_budget_destroy(b);
    free(wt);
}

/* Prefill: buffers made ahead, paid by the pool, as far as the budget and the idle cap allow;
 * a partition's get and adopt then take them without allocating. */
static void test_prefill(void) {
    cz_budget_config bc = {1000, 0};
    cz_budget *b = NULL;
    cz_mem *p = NULL;
    cz_mem_stats st;
    cz_reservation A;
    unsigned made = 99;
    const uint64_t sizes[CZ_MEM_BUFS_MAX] = {200, 200, 100, 0};
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_mem_config pc = {1, b, 0};
    cz_host_set_pinner(&fake);
    fake_allocs = fake_frees = 0;
    CHECK_ERR(cz_mem_create(&p, &pc, NULL), CZ_OK);
    /* one set: two of 200 (listed twice) and one of 100, pinned, paid by the pool */
    CHECK_ERR(cz_mem_prefill(p, sizes, 1, &made, NULL), CZ_OK);
    st = pstats(p);
    CHECK(made == 3 && fake_allocs == 3 && st.nprefilled == 3 && st.nallocs == 3);
    CHECK(st.nidle == 3 && st.idle_bytes == 500 && st.reserved_bytes == 500 && used(b) == 500);
    /* asking again for the same set makes nothing */
    CHECK_ERR(cz_mem_prefill(p, sizes, 1, &made, NULL), CZ_OK);
    CHECK(made == 0 && used(b) == 500);
    /* three sets: the budget (1000) has room for 500 more: one more 200 pair and the 100 */
    CHECK_ERR(cz_mem_prefill(p, sizes, 3, &made, NULL), CZ_OK);
    st = pstats(p);
    CHECK(made == 3 && used(b) == 1000 && st.idle_bytes == 1000 && st.reserved_bytes == 1000);
    CHECK(st.nidle == 6 && fake_allocs == 6 && fake_frees == 0);
    /* a partition adopting from a full budget takes prefilled buffers, allocates none */
    CHECK_ERR(cz_mem_reserve(&A, p, 500, sizes, 1000, NULL, NULL, NULL), CZ_OK);
    void *x = cz_mem_get(p, 200, &A), *y = cz_mem_get(p, 200, &A), *z = cz_mem_get(p, 100, &A);
    st = pstats(p);
    CHECK(x && y && z && fake_allocs == 6 && fake_frees == 0 && st.nreuses == 3);
    CHECK(used(b) == 1000 && st.reserved_bytes == 500);
    cz_mem_put(p, x);
    cz_mem_put(p, y);
    cz_mem_put(p, z);
    cz_mem_release(p, &A, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(used(b) == 1000 && st.reserved_bytes == 1000 && st.nidle == 6 && st.nfreed == 0);
    cz_mem_destroy(p);
    CHECK(used(b) == 0 && fake_frees == 6);
    /* the idle cap bounds a prefill too */
    pc.max_idle_bytes = 300;
    CHECK_ERR(cz_mem_create(&p, &pc, NULL), CZ_OK);
    CHECK_ERR(cz_mem_prefill(p, sizes, 4, &made, NULL), CZ_OK);
    st = pstats(p);
    CHECK(made == 2 && st.idle_bytes == 300 && used(b) == 300); /* one 200, then one 100 */
    cz_mem_destroy(p);
    CHECK_EQ_INT(used(b), 0);
    /* no pool: nothing to do */
    CHECK_ERR(cz_mem_prefill(NULL, sizes, 1, &made, NULL), CZ_OK);
    CHECK_EQ_INT(made, 0);
    cz_host_set_pinner(NULL);
    cz_budget_destroy(b);
}

/* The manager counts the partitions holding memory (cz_mem_reserve until cz_mem_release to the
 * end): while one does, a waiting partition keeps the idle buffers of its sizes (that one will
 * give memory back); once none does, it frees them rather than wait for nothing. A wait that
 * failed is not counted. */
static void pool_inflight(void) {
    cz_budget_config bc = {1000, 0};
    cz_budget *b = NULL;
    cz_mem *p = NULL;
    cz_mem_stats st;
    cz_reservation A, B, R;
    const uint64_t want[CZ_MEM_BUFS_MAX] = {200};
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_mem_config pc = {1, b, 0};
    cz_host_set_pinner(&fake);
    fake_allocs = fake_frees = 0;
    CHECK_ERR(cz_mem_create(&p, &pc, NULL), CZ_OK);
    /* two idle 200s the manager pays for */
    CHECK_ERR(cz_budget_reserve(&R, b, 400, 0, NULL, NULL, NULL), CZ_OK);
    void *x = cz_mem_get(p, 200, &R), *y = cz_mem_get(p, 200, &R);
    cz_mem_put(p, x);
    cz_mem_put(p, y);
    cz_mem_release(p, &R, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(st.nparts == 0 && st.reserved_bytes == 400 && st.nidle == 2 && used(b) == 400);
    /* partition A holds 300 */
    CHECK_ERR(cz_mem_reserve(&A, p, 300, NULL, 0, NULL, NULL, NULL), CZ_OK);
    st = pstats(p);
    CHECK(A.bytes == 300 && A.part && st.nparts == 1 && used(b) == 700);
    /* B (900, one 200) takes over a 200 and keeps the other while A is in flight: it times out */
    CHECK_ERR(cz_mem_reserve(&B, p, 900, want, 0, NULL, NULL, NULL), CZ_ETIMEDOUT);
    st = pstats(p);
    CHECK(B.bytes == 200 && !B.part && st.nparts == 1 && st.nadopted == 1 && st.nidle == 2);
    CHECK(st.nfreed == 0 && fake_frees == 0 && used(b) == 700);
    cz_mem_release(p, &B, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(st.nparts == 1 && st.reserved_bytes == 400 && used(b) == 700);
    /* A ends: now B frees the other 200 and gets its 900 */
    cz_mem_release(p, &A, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(A.bytes == 0 && !A.part && st.nparts == 0 && used(b) == 400);
    CHECK_ERR(cz_mem_reserve(&B, p, 900, want, 0, NULL, NULL, NULL), CZ_OK);
    st = pstats(p);
    CHECK(B.bytes == 900 && st.nparts == 1 && st.nfreed == 1 && fake_frees == 1 && used(b) == 900);
    cz_mem_release(p, &B, CZ_MEM_ALL);
    st = pstats(p);
    CHECK(st.nparts == 0 && st.reserved_bytes == 200 && used(b) == 200);
    cz_mem_destroy(p);
    CHECK(used(b) == 0 && fake_allocs == fake_frees);
    cz_host_set_pinner(NULL);
    cz_budget_destroy(b);
}

static const test_case cases[] = {
    {"host_alloc", test_host_alloc},
    {"host_alloc_mapped", test_host_alloc_mapped},
    {"host_pin_after_fill", test_host_pin_after_fill},
    {"pool_accounting", test_pool_accounting},
    {"pool_waiting", test_pool_waiting},
    {"pool_inflight", pool_inflight},
    {"prefill", test_prefill},
    {"engine", test_engine},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
