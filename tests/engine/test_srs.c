/*
 * The SRS manager on the example zkeys: one load per key however it is named, reference counts,
 * evict refused while referenced, least-recently-used eviction when the budget needs room (and
 * never of a referenced key), a key larger than the budget, device data hooks, concurrent
 * acquires. The loaded data is compared with cz_zkey_open of the same file (the oracle).
 * Hardening: a key file truncated or replaced while the key is held (the holder keeps reading its
 * bytes, the next acquire loads the new file or fails with its error), a FIFO at a key path
 * (refused at once), a load that blocks (other keys, preloads, stats and evictions go on; callers
 * of the same key wait and share its result, also a failure). A bellperson .params key loads into
 * the manager's memory on its pool, with the subgroup check when the manager's config asks.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/bellperson.h"
#include "cuzk/encoding.h"
#include "cuzk/fileio.h"
#include "cuzk/threadpool.h"

#include "cuzk/engine.h"
#include "cuzk/zkey.h"
#include "test.h"

#define MUL "examples/mulchain/mulchain.zkey"
#define POS "examples/poseidon/poseidon_chain.zkey"

static uint64_t file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static cz_srs *mk(cz_budget *b, const cz_srs_device_hooks *hooks) {
    cz_srs_config cfg = {b, hooks, NULL, NULL, 0};
    cz_srs *m = NULL;
    CHECK_ERR(cz_srs_create(&m, &cfg, NULL), CZ_OK);
    if (b != NULL)
        cz_budget_set_evictor(b, cz_srs_evict_lru, m);
    return m;
}

static void test_refs(void) {
    cz_budget_config bc = {64u << 20, 0};
    cz_budget *b;
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_srs *m = mk(b, NULL);
    cz_srs_key *k1, *k2;
    CHECK_ERR(cz_srs_acquire(&k1, m, MUL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_srs_acquire(&k2, m, "examples/../examples/mulchain/mulchain.zkey", NULL, NULL),
              CZ_OK);
    CHECK(k1 == k2);
    CHECK_EQ_INT(cz_srs_key_bytes(k1), file_size(MUL));
    cz_zkey *oracle;
    CHECK_ERR(cz_zkey_open(&oracle, MUL, NULL), CZ_OK);
    const cz_zkey *zk = cz_srs_key_data(k1);
    CHECK(zk->nvars == oracle->nvars && zk->domain_size == oracle->domain_size &&
          zk->ncoefs == oracle->ncoefs && zk->curve == oracle->curve);
    cz_zkey_close(oracle);

    cz_srs_stats st;
    cz_srs_stats_get(&st, m);
    CHECK(st.nloaded == 1 && st.nreferenced == 1 && st.nloads == 1 && st.nhits == 1);
    cz_budget_stats bs;
    cz_budget_stats_get(&bs, b);
    CHECK_EQ_INT(bs.used, file_size(MUL)); /* the key's bytes count in the budget */

    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_srs_evict(m, MUL, &ei), CZ_EBUSY);
    CHECK(strstr(ei.msg, "in use (2 references)") != NULL);
    cz_srs_release(k1);
    CHECK_ERR(cz_srs_evict(m, MUL, NULL), CZ_EBUSY);
    CHECK_EQ_INT(cz_srs_evict_lru(m, 1u << 30), 0); /* referenced: never evicted */
    cz_srs_release(k2);
    CHECK(cz_srs_is_loaded(m, MUL));
    CHECK_ERR(cz_srs_evict(m, MUL, NULL), CZ_OK);
    CHECK(!cz_srs_is_loaded(m, MUL));
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_srs_evict(m, MUL, &ei), CZ_ENOTFOUND);
    cz_budget_stats_get(&bs, b);
    CHECK_EQ_INT(bs.used, 0);

    /* Errors: a missing file, a file that is not a zkey (nothing stays charged). */
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_srs_acquire(&k1, m, "examples/none.zkey", NULL, &ei), CZ_EIO);
    CHECK(k1 == NULL && strstr(ei.msg, "none.zkey") != NULL);
    cz_errinfo_clear(&ei);
    CHECK(cz_srs_acquire(&k1, m, "examples/mulchain/mulchain.wtns", NULL, &ei) != CZ_OK);
    CHECK(strstr(ei.msg, "loading zkey key") != NULL);
    cz_budget_stats_get(&bs, b);
    CHECK_EQ_INT(bs.used, 0);
    cz_srs_destroy(m);
    cz_budget_destroy(b);
}

static void test_lru(void) {
    uint64_t smul = file_size(MUL), spos = file_size(POS);
    /* Room for both keys and 1000 bytes more. */
    cz_budget_config bc = {smul + spos + 1000, 0};
    cz_budget *b;
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_srs *m = mk(b, NULL);
    CHECK_ERR(cz_srs_preload(m, MUL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_srs_preload(m, POS, NULL, NULL), CZ_OK);
    cz_srs_key *k;
    CHECK_ERR(cz_srs_acquire(&k, m, MUL, NULL, NULL), CZ_OK); /* MUL is now most recent */
    cz_srs_release(k);

    /* Needs 1 byte more than is free: the least recently used key (POS) goes, MUL stays. */
    cz_reservation r;
    CHECK_ERR(cz_budget_reserve(&r, b, 1001, 0, NULL, NULL, NULL), CZ_OK); /* a poll evicts too */
    CHECK(!cz_srs_is_loaded(m, POS) && cz_srs_is_loaded(m, MUL));
    cz_reservation_release_all(&r);

    /* A referenced key is skipped: with POS reloaded and MUL held, POS is the victim although
     * MUL is older. */
    CHECK_ERR(cz_srs_acquire(&k, m, MUL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_srs_preload(m, POS, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_budget_reserve(&r, b, 1001, 1000, NULL, NULL, NULL), CZ_OK);
    CHECK(!cz_srs_is_loaded(m, POS) && cz_srs_is_loaded(m, MUL));
    cz_reservation_release_all(&r);
    /* Nothing evictable: the request waits and times out; MUL survives. */
    CHECK_ERR(cz_budget_reserve(&r, b, spos + 1001, 50, NULL, NULL, NULL), CZ_ETIMEDOUT);
    CHECK(cz_srs_is_loaded(m, MUL));
    cz_srs_release(k);

    /* Loading a key evicts idle keys when it must: fill so that POS needs MUL's room. */
    CHECK_ERR(cz_budget_reserve(&r, b, 1001, 0, NULL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_srs_preload(m, POS, NULL, NULL), CZ_OK);
    CHECK(cz_srs_is_loaded(m, POS) && !cz_srs_is_loaded(m, MUL));
    cz_reservation_release_all(&r);

    cz_srs_stats st;
    cz_srs_stats_get(&st, m);
    CHECK(st.nloads == 4 && st.nevictions == 3 && st.nloaded == 1 && st.bytes == spos);
    cz_srs_destroy(m);
    cz_budget_destroy(b);

    /* A key larger than the whole budget fails at once. */
    bc.total_bytes = spos - 1;
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    m = mk(b, NULL);
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_srs_acquire(&k, m, POS, NULL, &ei), CZ_ERANGE);
    CHECK(strstr(ei.msg, "larger than the whole budget") != NULL);
    cz_srs_destroy(m);
    cz_budget_destroy(b);
}

typedef struct {
    int created[CZ_SRS_MAX_DEVICES];
    int freed;
} devlog;

static int dev_create(void **ddata, const void *key, int device, const void *hint, void *arg,
                      cz_errinfo *ei) {
    devlog *l = arg;
    (void)hint;
    if (device == 7)
        return cz_fail(ei, CZ_ENOGPU, "no device 7");
    l->created[device]++;
    *ddata = (void *)((const char *)key + device); /* recognisable per (key, device) */
    return CZ_OK;
}

static void dev_free(void *ddata, void *arg) {
    (void)ddata;
    ((devlog *)arg)->freed++;
}

static void test_device(void) {
    devlog l = {{0}, 0};
    cz_srs_device_hooks hooks = {dev_create, dev_free, &l};
    cz_srs *m = mk(NULL, &hooks);
    cz_srs_key *k;
    void *d0, *d0b, *d1;
    CHECK_ERR(cz_srs_acquire(&k, m, MUL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_srs_key_device(&d0, k, 0, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_srs_key_device(&d0b, k, 0, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_srs_key_device(&d1, k, 1, NULL, NULL), CZ_OK);
    CHECK(d0 == d0b && d0 == (void *)cz_srs_key_data(k) &&
          d1 == (void *)((const char *)cz_srs_key_data(k) + 1));
    CHECK(l.created[0] == 1 && l.created[1] == 1);
    CHECK_ERR(cz_srs_key_device(&d1, k, 7, NULL, NULL), CZ_ENOGPU);
    CHECK_ERR(cz_srs_key_device(&d1, k, CZ_SRS_MAX_DEVICES, NULL, NULL), CZ_EINVAL);
    cz_srs_release(k);
    CHECK_EQ_INT(l.freed, 0);
    CHECK_ERR(cz_srs_evict(m, MUL, NULL), CZ_OK);
    CHECK_EQ_INT(l.freed, 2);
    cz_srs_destroy(m);

    m = mk(NULL, NULL);
    CHECK_ERR(cz_srs_acquire(&k, m, MUL, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_srs_key_device(&d0, k, 0, NULL, NULL), CZ_EUNSUPPORTED);
    cz_srs_release(k);
    cz_srs_destroy(m);
}

/* Threads acquire and release two keys while others evict: one load per key while held, no
 * key freed under a holder (each holder reads its key's header after acquire). */
typedef struct {
    cz_srs *m;
    int id;
    atomic_int *bad;
} worker;

static void *worker_main(void *vp) {
    worker *w = vp;
    for (int i = 0; i < 40; i++) {
        const char *path = (i + w->id) % 2 ? MUL : POS;
        cz_srs_key *k;
        if (cz_srs_acquire(&k, w->m, path, NULL, NULL) != CZ_OK) {
            atomic_fetch_add(w->bad, 1);
            continue;
        }
        const cz_zkey *zk = cz_srs_key_data(k);
        if (zk->domain_size == 0 || zk->nvars == 0)
            atomic_fetch_add(w->bad, 1);
        if (w->id == 0)
            cz_srs_evict_lru(w->m, 0); /* evicts only unreferenced keys */
        cz_srs_release(k);
    }
    return NULL;
}

static void test_concurrent(void) {
    cz_budget_config bc = {64u << 20, 0};
    cz_budget *b;
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_srs *m = mk(b, NULL);
    atomic_int bad = 0;
    worker w[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (worker){m, i, &bad};
        pthread_create(&t[i], NULL, worker_main, &w[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ_INT(atomic_load(&bad), 0);
    cz_srs_stats st;
    cz_srs_stats_get(&st, m);
    CHECK(st.nreferenced == 0 && st.nloads >= 2 && st.nloads + st.nhits == 160);
    CHECK_EQ_INT(st.nloads - st.nevictions, st.nloaded);
    cz_budget_stats bs;
    cz_budget_stats_get(&bs, b);
    CHECK_EQ_INT(bs.used, st.bytes);
    cz_srs_destroy(m);
    cz_budget_stats_get(&bs, b);
    CHECK_EQ_INT(bs.used, 0);
    cz_budget_destroy(b);
}

static char dir[] = "/tmp/cuzk-srs-XXXXXX";

static int setup(void) {
    return test_tmpdir(dir) == 0 ? 0 : 1;
}

static void teardown(void) {
    test_tmpdir_remove(dir);
}

static int copy_file(const char *to, const char *from) {
    void *data;
    size_t len;
    if (cz_file_read(&data, &len, from, NULL) != CZ_OK)
        return -1;
    FILE *f = fopen(to, "wb");
    int ok = f != NULL && fwrite(data, 1, len, f) == len;
    ok &= f != NULL && fclose(f) == 0;
    free(data);
    return ok ? 0 : -1;
}

/* A sum over every byte a key's sections point at (header, coefficients and all points), so a
 * holder that reads freed or lost memory shows up here or under ASan. */
static uint64_t key_sum(const cz_zkey *zk) {
    uint64_t s = zk->nvars + zk->domain_size;
    for (size_t i = 0; i < zk->ncoefs * CZ_ZKEY_COEF_BYTES; i++)
        s = s * 31 + zk->coefs[i];
    int bn = zk->curve == CZ_CURVE_BN254;
    const uint8_t *h = bn ? (const uint8_t *)zk->u.bn254.h : (const uint8_t *)zk->u.bls12381.h;
    size_t point = bn ? sizeof(cz_bn254_g1_affine) : sizeof(cz_bls12381_g1_affine);
    for (size_t i = 0; i < (size_t)zk->domain_size * point; i++)
        s = s * 31 + h[i];
    return s;
}

static void test_changed(void) {
    char path[96];
    snprintf(path, sizeof path, "%s/k.zkey", dir);
    CHECK(copy_file(path, MUL) == 0);
    cz_budget_config bc = {64u << 20, 0};
    cz_budget *b;
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_srs *m = mk(b, NULL);
    cz_zkey *oracle;
    CHECK_ERR(cz_zkey_open(&oracle, MUL, NULL), CZ_OK);
    uint64_t want = key_sum(oracle);
    cz_zkey_close(oracle);

    cz_srs_key *held, *k;
    CHECK_ERR(cz_srs_acquire(&held, m, path, NULL, NULL), CZ_OK);
    /* Truncated while held (a copy over it, a full disk): the holder is untouched; the next
     * acquire notices, loads the file again and fails with the loader's reason. */
    CHECK(truncate(path, (off_t)(file_size(MUL) / 2)) == 0);
    CHECK_EQ_U64(key_sum(cz_srs_key_data(held)), want);
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK(cz_srs_acquire(&k, m, path, NULL, &ei) != CZ_OK);
    CHECK(k == NULL && strstr(ei.msg, path) != NULL && strstr(ei.msg, "loading zkey key") != NULL);
    cz_srs_stats st;
    cz_srs_stats_get(&st, m);
    CHECK(st.nchanged == 1 && st.nloaded == 0 && st.nloading == 0);
    CHECK_EQ_U64(key_sum(cz_srs_key_data(held)), want);
    CHECK(!cz_srs_is_loaded(m, path));

    /* Replaced by a valid key (rename: another inode): loaded again, a new entry. */
    char tmp[112];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    CHECK(copy_file(tmp, MUL) == 0 && rename(tmp, path) == 0);
    CHECK_ERR(cz_srs_acquire(&k, m, path, NULL, NULL), CZ_OK);
    CHECK(k != NULL && k != held);
    CHECK_EQ_U64(key_sum(cz_srs_key_data(k)), want);
    cz_budget_stats bs;
    cz_budget_stats_get(&bs, b);
    CHECK_EQ_U64(bs.used, 2 * file_size(MUL)); /* the old copy is charged while held */
    cz_srs_release(held);                      /* its last reference: freed */
    cz_budget_stats_get(&bs, b);
    CHECK_EQ_U64(bs.used, file_size(MUL));
    cz_srs_release(k);
    cz_srs_key *again;
    CHECK_ERR(cz_srs_acquire(&again, m, path, NULL, NULL), CZ_OK); /* unchanged: a hit */
    CHECK(again == k);
    cz_srs_release(again);
    cz_srs_stats_get(&st, m);
    CHECK(st.nchanged == 1 && st.nloaded == 1 && st.nloads == 2);
    cz_srs_destroy(m);
    cz_budget_stats_get(&bs, b);
    CHECK_EQ_U64(bs.used, 0);
    cz_budget_destroy(b);
}

static void test_fifo(void) {
    char fifo[96];
    snprintf(fifo, sizeof fifo, "%s/key.fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    cz_srs *m = mk(NULL, NULL);
    cz_srs_key *k;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    test_watchdog(10, "cz_srs_acquire of a FIFO");
    CHECK_ERR(cz_srs_acquire(&k, m, fifo, NULL, &ei), CZ_EIO);
    CHECK_ERR(cz_srs_preload(m, fifo, NULL, NULL), CZ_EIO);
    test_watchdog(0, NULL);
    CHECK(strstr(ei.msg, fifo) != NULL && strstr(ei.msg, "not a regular file (a FIFO)") != NULL);
    CHECK_ERR(cz_srs_preload(m, MUL, NULL, NULL), CZ_OK);
    cz_srs_destroy(m);
}

/* A loader whose open waits until the test opens its gate, then loads a zkey (or fails). */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int open, entered, fail;
} gate;

static gate g_gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};

static int gated_open(void **key, const char *path, const cz_srs_load_ctx *ctx, cz_errinfo *ei) {
    pthread_mutex_lock(&g_gate.lock);
    g_gate.entered++;
    pthread_cond_broadcast(&g_gate.cond);
    while (!g_gate.open)
        pthread_cond_wait(&g_gate.cond, &g_gate.lock);
    int fail = g_gate.fail;
    pthread_mutex_unlock(&g_gate.lock);
    if (fail)
        return cz_fail(ei, CZ_EFORMAT, "gated loader: refused %s", path);
    return cz_srs_loader_zkey.open(key, path, ctx, ei);
}

/* The zkey loader with gated_open; set up by test_blocked_load before its threads start. */
static cz_srs_loader g_gated_loader;

static const cz_srs_loader *gated(void) {
    return &g_gated_loader;
}

typedef struct {
    cz_srs *m;
    const char *path;
    cz_srs_key *key;
    int rc;
    char msg[CZ_ERRINFO_MSG_MAX];
} acquirer;

static void *acquire_main(void *vp) {
    acquirer *a = vp;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    a->rc = cz_srs_acquire(&a->key, a->m, a->path, gated(), &ei);
    snprintf(a->msg, sizeof a->msg, "%s", ei.msg);
    return NULL;
}

static void wait_entered(int n) {
    pthread_mutex_lock(&g_gate.lock);
    while (g_gate.entered < n)
        pthread_cond_wait(&g_gate.cond, &g_gate.lock);
    pthread_mutex_unlock(&g_gate.lock);
}

static void open_gate(int fail) {
    pthread_mutex_lock(&g_gate.lock);
    g_gate.open = 1;
    g_gate.fail = fail;
    pthread_cond_broadcast(&g_gate.cond);
    pthread_mutex_unlock(&g_gate.lock);
}

static void test_blocked_load(void) {
    g_gated_loader = cz_srs_loader_zkey;
    g_gated_loader.name = "gated";
    g_gated_loader.open = gated_open;
    for (int fail = 0; fail <= 1; fail++) {
        g_gate.open = g_gate.entered = 0;
        cz_srs *m = mk(NULL, NULL);
        acquirer a[3];
        pthread_t t[3];
        for (int i = 0; i < 3; i++) {
            a[i] = (acquirer){m, POS, NULL, 0, ""};
            pthread_create(&t[i], NULL, acquire_main, &a[i]);
            if (i == 0)
                wait_entered(1); /* the first one is loading and stuck */
        }
        /* While POS's load hangs: another key loads, preloads, and is evicted; stats answer. */
        cz_srs_key *k;
        CHECK_ERR(cz_srs_acquire(&k, m, MUL, NULL, NULL), CZ_OK);
        cz_srs_release(k);
        CHECK_ERR(cz_srs_evict(m, MUL, NULL), CZ_OK);
        CHECK_ERR(cz_srs_preload(m, MUL, NULL, NULL), CZ_OK);
        CHECK_ERR(cz_srs_evict(m, POS, NULL), CZ_EBUSY); /* loading: not evicted */
        CHECK(!cz_srs_is_loaded(m, POS) && cz_srs_evict_lru(m, 0) == file_size(MUL));
        cz_srs_stats st;
        cz_srs_stats_get(&st, m);
        CHECK(st.nloading == 1 && st.nloaded == 0);
        usleep(20000); /* the other two callers reach their wait (the test holds either way) */
        open_gate(fail);
        for (int i = 0; i < 3; i++)
            pthread_join(t[i], NULL);
        CHECK_EQ_INT(g_gate.entered, 1); /* one load for the three callers */
        for (int i = 0; i < 3; i++) {
            if (!fail) {
                CHECK(a[i].rc == CZ_OK && a[i].key == a[0].key);
                cz_srs_release(a[i].key);
            } else {
                CHECK(a[i].rc == CZ_EFORMAT && a[i].key == NULL &&
                      strstr(a[i].msg, "gated loader: refused") != NULL);
            }
        }
        cz_srs_stats_get(&st, m);
        CHECK(st.nloading == 0 && st.nloaded == (size_t)(fail ? 0 : 1));
        cz_srs_destroy(m);
    }
}

/* A bellperson key made by @noble/curves (tests/vectors/bellperson_vectors.mjs) through the
 * .params loader, against a direct read of the same file: the same counts and points, decoded
 * on the manager's pool into its host allocator, charged to the budget; a zkey is not a .params
 * and the same path is not loaded twice under two loaders. */
#define BP_PARAMS "tests/vectors/out/bellperson/small.params"

typedef struct {
    atomic_int allocs, frees;
} host_count;

static void *count_alloc(void *arg, size_t bytes) {
    atomic_fetch_add(&((host_count *)arg)->allocs, 1);
    return malloc(bytes);
}

static void count_free(void *arg, void *p, size_t bytes) {
    (void)bytes;
    atomic_fetch_add(&((host_count *)arg)->frees, 1);
    free(p);
}

static void test_params(void) {
    cz_bellperson_params want;
    if (!CHECK_ERR(cz_bellperson_params_read(&want, BP_PARAMS, NULL, NULL), CZ_OK))
        return;
    cz_budget_config bc = {64u << 20, 0};
    cz_budget *b;
    CHECK_ERR(cz_budget_create(&b, &bc, NULL), CZ_OK);
    cz_threadpool *pool;
    CHECK_ERR(cz_threadpool_create(&pool, 2, NULL), CZ_OK);
    host_count hc = {0, 0};
    cz_srs_host_mem mem = {count_alloc, count_free, &hc, NULL};
    cz_srs_config cfg = {b, NULL, &mem, pool, 0};
    cz_srs *m;
    CHECK_ERR(cz_srs_create(&m, &cfg, NULL), CZ_OK);
    cz_budget_set_evictor(b, cz_srs_evict_lru, m);

    cz_srs_key *k;
    if (CHECK_ERR(cz_srs_acquire(&k, m, BP_PARAMS, &cz_srs_loader_params, NULL), CZ_OK)) {
        const cz_bellperson_params *p = cz_srs_key_data(k);
        CHECK(p->nh == want.nh && p->nl == want.nl && p->na == want.na && p->nb_g1 == want.nb_g1 &&
              p->nb_g2 == want.nb_g2 && p->vk.nic == want.vk.nic);
        CHECK(p->nh > 0 && memcmp(p->h, want.h, p->nh * sizeof *p->h) == 0);
        CHECK(p->nl > 0 && memcmp(p->l, want.l, p->nl * sizeof *p->l) == 0);
        CHECK(memcmp(p->a, want.a, p->na * sizeof *p->a) == 0);
        CHECK(memcmp(p->b_g1, want.b_g1, p->nb_g1 * sizeof *p->b_g1) == 0);
        CHECK(p->nb_g2 > 0 && memcmp(p->b_g2, want.b_g2, p->nb_g2 * sizeof *p->b_g2) == 0);
        CHECK(memcmp(&p->vk.delta_g2, &want.vk.delta_g2, sizeof want.vk.delta_g2) == 0);
        CHECK(atomic_load(&hc.allocs) > 0); /* the arrays came from the manager's allocator */
        CHECK_EQ_U64(cz_srs_key_bytes(k), file_size(BP_PARAMS));
        cz_budget_stats bs;
        cz_budget_stats_get(&bs, b);
        CHECK_EQ_U64(bs.used, file_size(BP_PARAMS));
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        cz_srs_key *k2;
        CHECK_ERR(cz_srs_acquire(&k2, m, BP_PARAMS, NULL, &ei), CZ_EINVAL); /* not as a zkey */
        CHECK(strstr(ei.msg, "is loaded as params, not zkey") != NULL);
        cz_srs_release(k);
    }
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK(cz_srs_acquire(&k, m, MUL, &cz_srs_loader_params, &ei) != CZ_OK);
    CHECK(k == NULL && strstr(ei.msg, "loading params key") != NULL);
    CHECK_ERR(cz_srs_evict(m, BP_PARAMS, NULL), CZ_OK);
    CHECK_EQ_INT(atomic_load(&hc.frees), atomic_load(&hc.allocs)); /* everything given back */
    cz_srs_destroy(m);
    cz_threadpool_destroy(pool);
    cz_budget_destroy(b);
    cz_bellperson_params_free(&want);
}

/* An uncompressed G1 point on the curve outside the prime-order subgroup: the first x = 1, 2, ...
 * that decompresses (an x whose x³ + 4 is a square); the cofactor makes such a point almost surely
 * not a multiple of the generator, and the check below says so. */
static int nosub_g1(uint8_t out[96]) {
    for (uint8_t x = 1; x < 100; x++) {
        uint8_t enc[48] = {0x80};
        cz_bls12381_g1_affine p;
        enc[47] = x;
        if (cz_bls12381_g1_from_compressed_unchecked(&p, enc, sizeof enc, NULL) == CZ_OK &&
            !cz_bls12381_g1_in_subgroup(&p)) {
            cz_bls12381_g1_to_uncompressed(out, &p);
            return 0;
        }
    }
    return -1;
}

/* cz_srs_config.params_check_subgroup reaches the .params loader: a key whose first H point is
 * outside the subgroup loads without the check and fails with it, naming the point. */
static void test_params_subgroup(void) {
    char path[96];
    uint8_t bad[96];
    cz_bellperson_info info;
    snprintf(path, sizeof path, "%s/nosub.params", dir);
    CHECK(nosub_g1(bad) == 0);
    CHECK_ERR(cz_bellperson_info_read(&info, BP_PARAMS, CZ_BELLPERSON_PARAMS, NULL), CZ_OK);
    CHECK(copy_file(path, BP_PARAMS) == 0);
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL && fseek(f, (long)info.offset[CZ_BELLPERSON_H] + 4, SEEK_SET) == 0 &&
          fwrite(bad, 1, sizeof bad, f) == sizeof bad);
    if (f != NULL)
        fclose(f);
    for (int check = 0; check < 2; check++) {
        cz_srs_config cfg = {NULL, NULL, NULL, NULL, check};
        cz_srs *m;
        cz_srs_key *k = NULL;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_srs_create(&m, &cfg, NULL), CZ_OK);
        int rc = cz_srs_acquire(&k, m, path, &cz_srs_loader_params, &ei);
        if (check) {
            CHECK_ERR(rc, CZ_ENOTINSUBGROUP);
            CHECK(strstr(ei.msg, "H point 0 at offset") != NULL);
        } else {
            CHECK_ERR(rc, CZ_OK);
        }
        cz_srs_stats st;
        cz_srs_stats_get(&st, m);
        CHECK_EQ_INT(st.params_check_subgroup, check);
        CHECK_EQ_INT(st.load_threads, 1);
        cz_srs_release(k);
        cz_srs_destroy(m);
    }
}

static const test_case cases[] = {
    {"refs", test_refs},
    {"lru", test_lru},
    {"device", test_device},
    {"concurrent", test_concurrent},
    {"changed", test_changed},
    {"fifo", test_fifo},
    {"blocked_load", test_blocked_load},
    {"params", test_params},
    {"params_subgroup", test_params_subgroup},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
