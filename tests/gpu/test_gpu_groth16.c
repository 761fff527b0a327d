/*
 * The GPU Groth16 prover (cz_groth16_prove with use_gpu, cz_groth16_gpu_key) against the CPU
 * prover, the oracle: with the same fixed r, s the two proofs are the same bytes (memcmp of the
 * proof structs), and the GPU proofs verify; proofs with random r, s verify too. Keys: the two
 * examples (BLS12-381 mulchain, BN254 Poseidon chain) and generated circuits of domain 2^k, k up
 * to 16 (CZ_GPU_TEST_MAX_LOG lowers or raises it), on both curves, with dense, mostly-0/1 and all
 * 0/1 witnesses (tests/groth16/prove_test_circuit.h). A resident key reused over several proofs
 * gives the CPU's proof each time; a key of another zkey or another device is refused; bad device
 * indices are errors, not crashes. Also the vector kernels (cuzk/gpu.h) against the host field
 * code. Pinned memory: cz_gpu_host_alloc and cz_gpu_host_register buffers round-trip through the
 * device with asynchronous uploads (a file-backed read-only mmap is tried and its outcome
 * reported), and a proof whose a, b live in the engine's pinned host buffers (cz_host_alloc,
 * cz_groth16_begin_pooled, the stages) equals the CPU proof. The G2 MSM runs on the GPU by
 * default (keys hold B2: cz_groth16_gpu_key_has_g2, nVars·(128|192) more key bytes); the two
 * examples are also proved with cz_tuning.gpu_g2_on_cpu (keys without B2, the G2 MSM on the CPU),
 * and a staged proof that calls cz_groth16_g2_start with a B2 key keeps the CPU G2 MSM. Exits 77
 * without a GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "gpu_test_util.h"
#include "groth16/prove_test_circuit.h"
#include "test.h"

static cz_threadpool *pool;

/* 32 random canonical bytes (< 2^252, below r on both curves). */
static void random_scalar(uint8_t out[32]) {
    uint64_t l[4];
    gpu_random_fr_limbs(l);
    memcpy(out, l, 32);
}

/* One fixed-r,s proof on the GPU (with key, or NULL) against the CPU's; the GPU proof verifies. */
static void check_one(const cz_zkey *zk, const cz_wtns *w, const cz_groth16_vk *vk,
                      const cz_groth16_gpu_key *key, int pageable, const char *label) {
    uint8_t r[32], s[32];
    cz_groth16_proof pc, pg;
    cz_groth16_public pubc = {0}, pubg = {0};
    cz_groth16_timings tm;
    cz_groth16_prove_opts oc = {0}, og = {0};
    cz_errinfo ei;
    random_scalar(r);
    random_scalar(s);
    memset(&pc, 0, sizeof pc);
    memset(&pg, 0, sizeof pg);
    oc.r = og.r = r;
    oc.s = og.s = s;
    oc.pool = og.pool = pool;
    og.pageable = pageable;
    og.use_gpu = 1;
    og.gpu_key = key;
    og.timings = &tm;
    if (!CHECK(cz_groth16_prove(&pc, &pubc, zk, w, &oc, &ei) == CZ_OK) ||
        !CHECK(cz_groth16_prove(&pg, &pubg, zk, w, &og, &ei) == CZ_OK)) {
        fprintf(stderr, "%s: %s\n", label, ei.msg);
        goto out;
    }
    if (!CHECK_EQ_MEM(&pc, &pg, sizeof pc))
        fprintf(stderr, "%s: GPU proof differs from the CPU proof\n", label);
    CHECK(pubg.n == pubc.n && memcmp(pubg.values, pubc.values, 32 * (size_t)pubc.n) == 0);
    CHECK(cz_groth16_verify(vk, &pubg, &pg, &ei) == CZ_OK);
    CHECK(tm.gpu_ms > 0 && tm.total_ms >= tm.gpu_ms);
out:
    cz_groth16_public_free(&pubc);
    cz_groth16_public_free(&pubg);
}

/* Random r, s on the GPU: the proof verifies and a changed public input does not. */
static void check_random(const cz_zkey *zk, const cz_wtns *w, const cz_groth16_vk *vk,
                         const cz_groth16_gpu_key *key) {
    cz_groth16_proof p;
    cz_groth16_public pub = {0};
    cz_groth16_prove_opts o = {0};
    cz_errinfo ei;
    o.pool = pool;
    o.use_gpu = 1;
    o.gpu_key = key;
    if (!CHECK(cz_groth16_prove(&p, &pub, zk, w, &o, &ei) == CZ_OK)) {
        fprintf(stderr, "%s\n", ei.msg);
        return;
    }
    CHECK(cz_groth16_verify(vk, &pub, &p, &ei) == CZ_OK);
    if (pub.n > 0) {
        /* another public input, still below r (x - 1, or 1 for x = 0) */
        int z = (pub.values[0][0] | pub.values[0][1] | pub.values[0][2] | pub.values[0][3]) == 0;
        if (z)
            pub.values[0][0] = 1;
        else if (pub.values[0][0] > 0)
            pub.values[0][0]--;
        else
            pub.values[0][0] = 1; /* x has a zero low limb and is not r - 1: x + 1 < r */
        CHECK(cz_groth16_verify(vk, &pub, &p, &ei) == CZ_EVERIFY);
    }
    cz_groth16_public_free(&pub);
}

/* src (bytes) -> device by cz_gpu_upload_start -> back by cz_gpu_download: the same bytes. */
static void round_trip(const void *src, size_t bytes, const char *label) {
    void *d = NULL, *back = malloc(bytes);
    cz_gpu_copy *c = NULL;
    cz_errinfo ei;
    if (!CHECK(back != NULL) || !CHECK(cz_gpu_alloc(&d, bytes, 0, &ei) == CZ_OK) ||
        !CHECK(cz_gpu_upload_start(&c, d, src, bytes, 0, &ei) == CZ_OK) ||
        !CHECK(cz_gpu_copy_wait(c, &ei) == CZ_OK) ||
        !CHECK(cz_gpu_download(back, d, bytes, 0, &ei) == CZ_OK))
        fprintf(stderr, "%s: %s\n", label, ei.msg);
    else if (!CHECK(memcmp(back, src, bytes) == 0))
        fprintf(stderr, "%s: the bytes came back different\n", label);
    cz_gpu_free(d, 0);
    free(back);
}

/* cz_gpu_zero_start clears exactly [off, off + len) of a buffer filled with a pattern. */
static void check_zero_fill(void) {
    size_t bytes = (size_t)5 << 20, off = 4096 + 96, len = ((size_t)3 << 20) + 32;
    uint8_t *h = malloc(bytes), *back = malloc(bytes);
    void *d = NULL;
    cz_gpu_copy *c = NULL;
    cz_errinfo ei;
    if (!CHECK(h != NULL && back != NULL))
        goto out;
    for (size_t i = 0; i < bytes; i++)
        h[i] = (uint8_t)(i * 13 + 1) | 1u; /* never zero */
    if (!CHECK(cz_gpu_alloc(&d, bytes, 0, &ei) == CZ_OK) ||
        !CHECK(cz_gpu_upload(d, h, bytes, 0, &ei) == CZ_OK) ||
        !CHECK(cz_gpu_zero_start(&c, (uint8_t *)d + off, len, 0, &ei) == CZ_OK) ||
        !CHECK(cz_gpu_copy_wait(c, &ei) == CZ_OK) ||
        !CHECK(cz_gpu_download(back, d, bytes, 0, &ei) == CZ_OK)) {
        fprintf(stderr, "zero fill: %s\n", ei.msg);
        goto out;
    }
    memset(h + off, 0, len);
    CHECK_EQ_MEM(back, h, bytes);
out:
    cz_gpu_free(d, 0);
    free(h);
    free(back);
}

/* Pinned allocation, registration of our own memory and of a read-only file mapping. */
static void check_pinned(void) {
    size_t bytes = (size_t)3 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *h = NULL, *plain = NULL;
    cz_errinfo ei;
    if (!CHECK(cz_gpu_host_alloc((void **)&h, bytes, &ei) == CZ_OK)) {
        fprintf(stderr, "pinned alloc: %s\n", ei.msg);
        return;
    }
    for (size_t i = 0; i < bytes; i++)
        h[i] = (uint8_t)(i * 131 + (i >> 9));
    round_trip(h, bytes, "pinned alloc");
    cz_gpu_host_free(h);

    CHECK(posix_memalign((void **)&plain, page, bytes) == 0);
    for (size_t i = 0; i < bytes; i++)
        plain[i] = (uint8_t)(i * 7 + 3);
    if (CHECK(cz_gpu_host_register(plain, bytes, 0, &ei) == CZ_OK)) {
        round_trip(plain, bytes, "registered");
        CHECK(cz_gpu_host_unregister(plain, &ei) == CZ_OK);
    } else {
        fprintf(stderr, "register: %s\n", ei.msg);
    }
    round_trip(plain, bytes, "pageable"); /* and the same from pageable memory */
    free(plain);

    /* A zkey is mapped PROT_READ: can its pages be registered? Reported, not required (the
     * engine keeps zkeys pageable, docs/engine.md); when it works the bytes must round-trip. */
    {
        int fd = open("examples/mulchain/mulchain.zkey", O_RDONLY);
        struct stat st;
        void *m = MAP_FAILED;
        if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0)
            m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (CHECK(m != MAP_FAILED)) {
            size_t len = ((size_t)st.st_size + page - 1) / page * page;
            int rc = cz_gpu_host_register(m, len, 1, &ei);
            printf("register of a read-only file mapping (%zu bytes): %s\n", len,
                   rc == CZ_OK ? "works" : ei.msg);
            if (rc == CZ_OK) {
                round_trip(m, (size_t)st.st_size, "registered mmap");
                CHECK(cz_gpu_host_unregister(m, &ei) == CZ_OK);
            }
            munmap(m, (size_t)st.st_size);
        }
        if (fd >= 0)
            close(fd);
    }
}

static void host_back(void *arg, void *p) {
    (void)arg;
    cz_host_free(p);
}

/* One device workspace for every staged proof of the run (both curves, every size): it grows
 * to the largest and serves the smaller ones after, as a GPU worker's does. */
static cz_groth16_gpu_ws *g_ws;

/* The engine's way: a, b in pinned buffers from cz_host_alloc, lent to the pending proof; with
 * ws, uploaded by cz_groth16_upload before the compute stage (which then refuses a second upload
 * and the CPU); the GPU proof is the CPU proof. */
static void check_pooled(const cz_zkey *zk, const cz_wtns *w, const cz_groth16_gpu_key *key,
                         cz_groth16_gpu_ws *ws, const char *label) {
    static const uint8_t r[32] = {5, 4, 3}, s[32] = {2, 1};
    size_t vbytes = (size_t)zk->domain_size * 32;
    cz_groth16_prove_opts oc = {0};
    cz_groth16_proof pc, pg;
    cz_groth16_public pubc = {0};
    cz_groth16_pending *pp = NULL;
    cz_errinfo ei;
    void *a = cz_host_alloc(vbytes, 1), *b = cz_host_alloc(vbytes, 1);
    memset(&pc, 0, sizeof pc);
    memset(&pg, 0, sizeof pg);
    oc.r = r;
    oc.s = s;
    oc.pool = pool;
    if (!CHECK(a != NULL && b != NULL) || !CHECK(cz_host_is_pinned(a) && cz_host_is_pinned(b)) ||
        !CHECK(cz_groth16_prove(&pc, &pubc, zk, w, &oc, &ei) == CZ_OK) ||
        !CHECK(cz_groth16_eval(a, b, zk, w, pool, &ei) == CZ_OK)) {
        fprintf(stderr, "%s pooled: %s\n", label, ei.msg);
        cz_host_free(a);
        cz_host_free(b);
        goto out;
    }
    /* Without ws the G2 MSM is started on the CPU even with a B2 key (the stages allow it: compute
     * then leaves G2 alone); with ws it follows the rule (no g2_start for a B2 key: on the GPU). */
    if (!CHECK(cz_groth16_begin_pooled(&pp, zk, (const uint64_t(*)[4])w->values, a, b, host_back,
                                       NULL, r, s, &ei) == CZ_OK) ||
        ((ws == NULL || !cz_groth16_gpu_key_has_g2(key)) &&
         !CHECK(cz_groth16_g2_start(pp, pool, &ei) == CZ_OK))) {
        fprintf(stderr, "%s pooled: %s\n", label, ei.msg);
        goto out;
    }
    if (ws != NULL) {
        size_t need = (3 * (size_t)zk->domain_size + zk->nvars) * 32;
        if (!CHECK(cz_groth16_upload(pp, ws, &ei) == CZ_OK)) {
            fprintf(stderr, "%s upload: %s\n", label, ei.msg);
            goto out;
        }
        CHECK(cz_groth16_gpu_ws_bytes(ws) >= need);
        CHECK(cz_groth16_upload(pp, ws, &ei) == CZ_EINVAL && strstr(ei.msg, "upload") != NULL);
        CHECK(cz_groth16_compute(pp, NULL, pool, &ei) == CZ_EINVAL &&
              strstr(ei.msg, "uploaded to GPU 0") != NULL);
    }
    if (!CHECK(cz_groth16_compute(pp, key, pool, &ei) == CZ_OK)) {
        fprintf(stderr, "%s pooled: %s\n", label, ei.msg);
        goto out;
    }
    /* The G2 MSM ran in compute (else finish would run it on the CPU and hide a GPU skip). */
    if (ws != NULL && cz_groth16_gpu_key_has_g2(key))
        CHECK(cz_groth16_pending_timings(pp)->msm_b2_ms > 0);
    if (!CHECK(cz_groth16_finish(&pg, pp, &ei) == CZ_OK)) {
        fprintf(stderr, "%s pooled: %s\n", label, ei.msg);
        goto out;
    }
    if (!CHECK_EQ_MEM(&pc, &pg, sizeof pc))
        fprintf(stderr, "%s: the GPU proof from pinned buffers differs from the CPU proof\n",
                label);
out:
    cz_groth16_pending_free(pp);
    cz_groth16_public_free(&pubc);
}

/* The comparisons for one zkey, its witness; g2_off: with cz_tuning.gpu_g2_on_cpu while its keys
 * are made (the one made per call by cz_groth16_prove included), so the G2 MSM stays on the CPU. */
/* The device bytes of n host points of pt bytes as a GPU bases handle keeps them (cuzk/gpu.h). */
static size_t stored_bytes(const void *pts, size_t n, size_t pt) {
    static const uint8_t zero[192];
    size_t finite = 0;
    for (size_t i = 0; i < n; i++)
        finite += memcmp((const uint8_t *)pts + i * pt, zero, pt) != 0;
    return n - finite >= (n / 8 > 0 ? n / 8 : 1) ? finite * (pt + 4) : n * pt;
}

static void check_files(const char *zpath, const char *wpath, const char *label, int g2_off) {
    cz_zkey *zk = NULL;
    cz_wtns *w = NULL;
    cz_groth16_vk vk = {0};
    cz_groth16_gpu_key *key = NULL;
    cz_errinfo ei;
    if (!CHECK(cz_zkey_open(&zk, zpath, &ei) == CZ_OK) ||
        !CHECK(cz_wtns_open(&w, wpath, &ei) == CZ_OK) ||
        !CHECK(cz_groth16_vk_from_zkey(&vk, zk, &ei) == CZ_OK)) {
        fprintf(stderr, "%s: %s\n", label, ei.msg);
        goto out;
    }
    printf("%s: %s, 2^%u, %u signals, G2 MSM on the %s\n", label, cz_curve_name(zk->curve),
           zk->log_domain_size, zk->nvars, g2_off ? "CPU" : "GPU");
    if (g2_off) {
        cz_tuning tu = {0};
        tu.gpu_g2_on_cpu = 1;
        CZ_ASSERT(cz_tuning_set(&tu, NULL) == CZ_OK);
    }
    check_one(zk, w, &vk, NULL, 0, label); /* bases uploaded for the call */
    if (!CHECK(cz_groth16_gpu_key_create(&key, zk, 0, &ei) == CZ_OK)) {
        fprintf(stderr, "%s: %s\n", label, ei.msg);
        goto out;
    }
    {
        /* every array as cz_gpu_bases stores it: dense, or its finite points and their 32-bit
         * indices when at least an eighth are infinity (B1 and B2 of these circuits) */
        size_t pt = zk->curve == CZ_CURVE_BN254 ? 64 : 96, pt2 = 2 * pt;
        size_t nv = zk->nvars, nc = nv - zk->npublic - 1, n = zk->domain_size, want;
        int bn = zk->curve == CZ_CURVE_BN254;
        want =
            stored_bytes(bn ? (const void *)zk->u.bn254.a : (const void *)zk->u.bls12381.a, nv,
                         pt) +
            stored_bytes(bn ? (const void *)zk->u.bn254.b1 : (const void *)zk->u.bls12381.b1, nv,
                         pt) +
            stored_bytes(bn ? (const void *)zk->u.bn254.c : (const void *)zk->u.bls12381.c, nc,
                         pt) +
            stored_bytes(bn ? (const void *)zk->u.bn254.h : (const void *)zk->u.bls12381.h, n, pt);
        if (!g2_off)
            want += stored_bytes(
                bn ? (const void *)zk->u.bn254.b2 : (const void *)zk->u.bls12381.b2, nv, pt2);
        CHECK(cz_groth16_gpu_key_has_g2(key) == !g2_off);
        CHECK(cz_groth16_gpu_key_bytes(key) == want);
    }
    for (int i = 0; i < 3; i++) /* the resident key, reused */
        check_one(zk, w, &vk, key, 0, label);
    check_pooled(zk, w, key, NULL, label);
    check_pooled(zk, w, key, g_ws, label);
    check_one(zk, w, &vk, key, 1, label); /* cz_groth16_prove from pageable a, b: the same proof */
    check_random(zk, w, &vk, key);
    check_random(zk, w, &vk, NULL);
out:
    CZ_ASSERT(cz_tuning_set(NULL, NULL) == CZ_OK);
    cz_groth16_gpu_key_free(key);
    cz_groth16_vk_free(&vk);
    cz_wtns_close(w);
    cz_zkey_close(zk);
}

/* Keys that do not fit the call, bad device indices: errors with messages, no crash. */
static void check_refusals(void) {
    cz_zkey *z1 = NULL, *z2 = NULL;
    cz_wtns *w1 = NULL;
    cz_groth16_gpu_key *key = NULL;
    cz_groth16_proof p;
    cz_groth16_public pub = {0};
    cz_groth16_prove_opts o = {0};
    cz_errinfo ei;
    int count = 0;
    CZ_ASSERT(cz_gpu_device_count(&count, &ei) == CZ_OK);
    if (!CHECK(cz_zkey_open(&z1, "examples/mulchain/mulchain.zkey", &ei) == CZ_OK) ||
        !CHECK(cz_zkey_open(&z2, "examples/mulchain/mulchain.zkey", &ei) == CZ_OK) ||
        !CHECK(cz_wtns_open(&w1, "examples/mulchain/mulchain.wtns", &ei) == CZ_OK) ||
        !CHECK(cz_groth16_gpu_key_create(&key, z2, 0, &ei) == CZ_OK))
        goto out;
    o.use_gpu = 1;
    o.gpu_key = key; /* made for z2: same file, another cz_zkey */
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_groth16_prove(&p, &pub, z1, w1, &o, &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "zkey") != NULL);
    CHECK(pub.values == NULL);
    cz_groth16_gpu_key_free(key);
    key = NULL;
    CHECK(cz_groth16_gpu_key_create(&key, z1, 0, &ei) == CZ_OK);
    o.gpu_key = key;
    o.gpu_device = 1; /* the key lives on device 0 */
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_groth16_prove(&p, &pub, z1, w1, &o, &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "device") != NULL);
    o.gpu_key = NULL;
    o.gpu_device = count;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_groth16_prove(&p, &pub, z1, w1, &o, &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "does not exist") != NULL);
    o.gpu_device = -1;
    CHECK_ERR(cz_groth16_prove(&p, &pub, z1, w1, &o, &ei), CZ_EINVAL);
    cz_groth16_gpu_key_free(key);
    key = NULL;
    CHECK_ERR(cz_groth16_gpu_key_create(&key, z1, count, &ei), CZ_EINVAL);
    CHECK(key == NULL);
out:
    cz_groth16_gpu_key_free(key);
    cz_wtns_close(w1);
    cz_zkey_close(z1);
    cz_zkey_close(z2);
}

/* The vector kernels against the host field code, on n random elements. */
#define VEC_TEST(curve)                                                                            \
    static void test_vec_##curve(size_t n) {                                                       \
        cz_##curve##_fr *h = malloc(5 * n * sizeof *h), k, want;                                   \
        void *d[3] = {NULL, NULL, NULL};                                                           \
        cz_errinfo ei;                                                                             \
        int ok = 1;                                                                                \
        CZ_ASSERT(h != NULL);                                                                      \
        for (size_t i = 0; i < 3 * n; i++)                                                         \
            gpu_random_fr_limbs(h[i].l);                                                           \
        gpu_random_fr_limbs(k.l);                                                                  \
        for (int j = 0; j < 3; j++)                                                                \
            CHECK(cz_gpu_alloc(&d[j], n * sizeof *h, 0, &ei) == CZ_OK &&                           \
                  cz_gpu_upload(d[j], h + j * n, n * sizeof *h, 0, &ei) == CZ_OK);                 \
        /* r = a·b - c into d[2] */                                                               \
        CHECK(cz_##curve##_gpu_fr_mul_sub_dev(d[2], d[0], d[1], d[2], n, 0, &ei) == CZ_OK);        \
        CHECK(cz_gpu_download(h + 3 * n, d[2], n * sizeof *h, 0, &ei) == CZ_OK);                   \
        for (size_t i = 0; i < n; i++) {                                                           \
            cz_##curve##_fr_mul(&want, &h[i], &h[n + i]);                                          \
            cz_##curve##_fr_sub(&want, &want, &h[2 * n + i]);                                      \
            ok &= cz_##curve##_fr_eq(&want, &h[3 * n + i]);                                        \
        }                                                                                          \
        CHECK(ok);                                                                                 \
        /* r = a·b into d[2] */                                                                   \
        CHECK(cz_##curve##_gpu_fr_mul_dev(d[2], d[0], d[1], n, 0, &ei) == CZ_OK);                  \
        CHECK(cz_gpu_download(h + 3 * n, d[2], n * sizeof *h, 0, &ei) == CZ_OK);                   \
        for (size_t i = 0; i < n; i++) {                                                           \
            cz_##curve##_fr_mul(&want, &h[i], &h[n + i]);                                          \
            ok &= cz_##curve##_fr_eq(&want, &h[3 * n + i]);                                        \
        }                                                                                          \
        CHECK(ok);                                                                                 \
        /* a ·= k */                                                                              \
        CHECK(cz_##curve##_gpu_fr_scale_dev(d[0], &k, n, 0, &ei) == CZ_OK);                        \
        CHECK(cz_gpu_download(h + 3 * n, d[0], n * sizeof *h, 0, &ei) == CZ_OK);                   \
        for (size_t i = 0; i < n; i++) {                                                           \
            cz_##curve##_fr_mul(&want, &h[i], &k);                                                 \
            ok &= cz_##curve##_fr_eq(&want, &h[3 * n + i]);                                        \
        }                                                                                          \
        CHECK(ok);                                                                                 \
        /* canonical -> Montgomery: the limbs of h[n + i] read as a canonical number */            \
        CHECK(cz_##curve##_gpu_fr_to_mont_dev(d[1], n, 0, &ei) == CZ_OK);                          \
        CHECK(cz_gpu_download(h + 3 * n, d[1], n * sizeof *h, 0, &ei) == CZ_OK);                   \
        for (size_t i = 0; i < n; i++) {                                                           \
            CHECK(cz_##curve##_fr_from_bytes_le(&want, (const uint8_t *)h[n + i].l) == CZ_OK);     \
            ok &= cz_##curve##_fr_eq(&want, &h[3 * n + i]);                                        \
        }                                                                                          \
        CHECK(ok);                                                                                 \
        CHECK(cz_##curve##_gpu_fr_mul_sub_dev(d[0], d[0], d[1], NULL, n, 0, &ei) == CZ_EINVAL);    \
        CHECK(cz_##curve##_gpu_fr_to_mont_dev(d[0], 0, 0, &ei) == CZ_OK);                          \
        CHECK(cz_##curve##_gpu_fr_to_mont_dev(d[0], n, -1, &ei) != CZ_OK);                         \
        for (int j = 0; j < 3; j++)                                                                \
            cz_gpu_free(d[j], 0);                                                                  \
        free(h);                                                                                   \
    }
VEC_TEST(bn254)
VEC_TEST(bls12381)

static unsigned max_log;

static int setup(void) {
    cz_errinfo ei;
    if (gpu_have_device() != 0)
        return TEST_SKIP;
    max_log = gpu_test_max_log(16, 3);
    CZ_ASSERT(cz_threadpool_create(&pool, 0, NULL) == CZ_OK);
    CZ_ASSERT(cz_groth16_gpu_ws_create(&g_ws, 0, &ei) == CZ_OK);
    return 0;
}

static void teardown(void) {
    cz_groth16_gpu_ws_free(g_ws);
    cz_threadpool_destroy(pool);
}

static void test_vectors(void) {
    test_vec_bn254(1);
    test_vec_bn254(100003);
    test_vec_bls12381(1);
    test_vec_bls12381(100003);
}

/* the shared workspace is empty until the first proof; a size on a device that does not exist
 * is refused */
static void test_workspace(void) {
    cz_errinfo ei;
    CHECK(cz_groth16_gpu_ws_bytes(g_ws) == 0);
    CHECK(cz_groth16_gpu_ws_create(&(cz_groth16_gpu_ws *){NULL}, 1 << 20, &ei) == CZ_EINVAL);
}

/* the bundled examples, with B2 on the GPU (g2_off 0) and on the CPU */
static void run_examples(int g2_off) {
    check_files("examples/mulchain/mulchain.zkey", "examples/mulchain/mulchain.wtns", "mulchain",
                g2_off);
    check_files("examples/poseidon/poseidon_chain.zkey", "examples/poseidon/poseidon_chain.wtns",
                "poseidon", g2_off);
}
static void test_examples(void) {
    run_examples(0);
}
static void test_examples_g2_cpu(void) {
    run_examples(1);
}

/* generated circuits of both curves, 2^3 .. 2^max_log, the three witness modes in turn */
static void test_generated(void) {
    char zp[128], wp[128], label[64];
    cz_errinfo ei;
    snprintf(zp, sizeof zp, "/tmp/cuzk_test_gpu_groth16_%ld.zkey", (long)getpid());
    snprintf(wp, sizeof wp, "/tmp/cuzk_test_gpu_groth16_%ld.wtns", (long)getpid());
    for (int c = 0; c < 2; c++) {
        static const unsigned ks[] = {3, 4, 8, 10, 12, 14, 16, 18, 20};
        cz_curve_id curve = c == 0 ? CZ_CURVE_BN254 : CZ_CURVE_BLS12381;
        for (size_t i = 0; i < sizeof ks / sizeof ks[0] && ks[i] <= max_log; i++) {
            int mode = (int)(i % 3);
            snprintf(label, sizeof label, "generated %s 2^%u mode %d", cz_curve_name(curve), ks[i],
                     mode);
            if (!CHECK(ptc_make(zp, wp, curve, ks[i], mode, pool, &ei) == CZ_OK)) {
                fprintf(stderr, "%s: %s\n", label, ei.msg);
                continue;
            }
            check_files(zp, wp, label, 0);
        }
    }
    remove(zp);
    remove(wp);
}

static const test_case cases[] = {
    {"vectors", test_vectors},      {"pinned", check_pinned},
    {"zero_fill", check_zero_fill}, {"workspace", test_workspace},
    {"examples", test_examples},    {"examples_g2_cpu", test_examples_g2_cpu},
    {"generated", test_generated},  {"refusals", check_refusals}};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
