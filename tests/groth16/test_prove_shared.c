/*
 * The prover code shared by the CPU and GPU provers (src/groth16/prove_shared_impl.h), on the CPU:
 *   - the threaded evaluation of A·w, B·w, A∘B (stable counting sort by row block) gives the same
 *     bytes as the single loop (the pre-threading code, still used without a pool), on the example
 *     keys and on generated keys of both curves, for pools of 2, 3 and 7 threads (the threshold
 *     below which it stays serial is lowered to 1 entry here, so small keys are threaded too);
 *   - whole proofs with fixed r, s are the same bytes with and without a pool, and verify;
 *   - a zeroed cz_groth16_prove_opts still proves on the CPU; use_gpu without a GPU (this machine,
 *     or a CUDA-free build) fails cleanly with CZ_ENOGPU and "--gpu asked but", a device index out
 *     of range with CZ_EINVAL — never a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "curve/ec.h"
#include "field/field.h"
#include "groth16/prove_test_circuit.h"
#include "test.h"

#define CZ_GROTH16_EVAL_SERIAL_MAX 1
#define CURVE                      bn254
#include "groth16/prove_shared_impl.h"
#undef I
#undef P
#undef CURVE
#define CURVE bls12381
#include "groth16/prove_shared_impl.h"
#undef I
#undef P
#undef CURVE

/* Serial vs threaded evaluation of zk with witness w: the same a, b, c. */
static void check_eval(const cz_zkey *zk, const cz_wtns *w, cz_threadpool *pool) {
    size_t n = zk->domain_size, bytes = n * 32;
    const uint64_t(*wit)[4] = (const uint64_t(*)[4])w->values;
    uint8_t *v = malloc(6 * bytes);
    cz_errinfo ei;
    if (!CHECK(v != NULL))
        return;
    memset(v, 0xa5, 6 * bytes); /* the evaluation must overwrite every byte */
    if (zk->curve == CZ_CURVE_BN254) {
        cz_bn254_fr *x = (cz_bn254_fr *)v;
        CHECK_ERR(bn254_groth16_eval_abc(x, x + n, x + 2 * n, zk, wit, NULL, &ei), CZ_OK);
        CHECK_ERR(bn254_groth16_eval_abc(x + 3 * n, x + 4 * n, x + 5 * n, zk, wit, pool, &ei),
                  CZ_OK);
    } else {
        cz_bls12381_fr *x = (cz_bls12381_fr *)v;
        CHECK_ERR(bls12381_groth16_eval_abc(x, x + n, x + 2 * n, zk, wit, NULL, &ei), CZ_OK);
        CHECK_ERR(bls12381_groth16_eval_abc(x + 3 * n, x + 4 * n, x + 5 * n, zk, wit, pool, &ei),
                  CZ_OK);
    }
    CHECK_EQ_MEM(v, v + 3 * bytes, 3 * bytes);
    /* Not vacuous: a and b are not all zero (every test circuit has a non-zero row). */
    {
        int nonzero = 0;
        for (size_t i = 0; i < 2 * bytes; i++)
            nonzero |= v[i];
        CHECK(nonzero);
    }
    free(v);
}

/* Proofs with fixed r, s: with and without a pool the same bytes, and valid. */
static void check_prove(const cz_zkey *zk, const cz_wtns *w, cz_threadpool *pool) {
    static const uint8_t r[32] = {7, 1, 2, 3}, s[32] = {9, 8, 7, 6, 5};
    cz_groth16_proof p1, p2;
    cz_groth16_public pub1 = {0}, pub2 = {0};
    cz_groth16_vk vk = {0};
    cz_groth16_prove_opts o1 = {0}, o2 = {0};
    cz_errinfo ei;
    memset(&p1, 0, sizeof p1);
    memset(&p2, 0, sizeof p2);
    o1.r = o2.r = r;
    o1.s = o2.s = s;
    o2.pool = pool;
    if (!CHECK_ERR(cz_groth16_prove(&p1, &pub1, zk, w, &o1, &ei), CZ_OK) ||
        !CHECK_ERR(cz_groth16_prove(&p2, &pub2, zk, w, &o2, &ei), CZ_OK)) {
        fprintf(stderr, "%s\n", ei.msg);
        goto out;
    }
    CHECK_EQ_MEM(&p1, &p2, sizeof p1);
    CHECK_ERR(cz_groth16_vk_from_zkey(&vk, zk, &ei), CZ_OK);
    CHECK_ERR(cz_groth16_verify(&vk, &pub2, &p2, &ei), CZ_OK);
out:
    cz_groth16_vk_free(&vk);
    cz_groth16_public_free(&pub1);
    cz_groth16_public_free(&pub2);
}

static void check_files(const char *zpath, const char *wpath, cz_threadpool **pools, int npools) {
    cz_zkey *zk = NULL;
    cz_wtns *w = NULL;
    cz_errinfo ei;
    if (!CHECK_ERR(cz_zkey_open(&zk, zpath, &ei), CZ_OK) ||
        !CHECK_ERR(cz_wtns_open(&w, wpath, &ei), CZ_OK)) {
        fprintf(stderr, "%s\n", ei.msg);
        goto out;
    }
    for (int i = 0; i < npools; i++)
        check_eval(zk, w, pools[i]);
    check_prove(zk, w, pools[npools - 1]);
out:
    cz_wtns_close(w);
    cz_zkey_close(zk);
}

/* The GPU option where there is no usable GPU: clean errors. */
static void check_gpu_errors(void) {
    cz_zkey *zk = NULL;
    cz_wtns *w = NULL;
    cz_groth16_proof p;
    cz_groth16_public pub = {0};
    cz_groth16_prove_opts o = {0};
    cz_groth16_gpu_key *key = NULL;
    cz_errinfo ei;
    int count = 0;
    if (!CHECK_ERR(cz_zkey_open(&zk, "examples/mulchain/mulchain.zkey", &ei), CZ_OK) ||
        !CHECK_ERR(cz_wtns_open(&w, "examples/mulchain/mulchain.wtns", &ei), CZ_OK))
        goto out;
    o.use_gpu = 1;
    if (cz_gpu_device_count(&count, &ei) != CZ_OK) {
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_groth16_prove(&p, &pub, zk, w, &o, &ei), CZ_ENOGPU);
        CHECK(strstr(ei.msg, "--gpu asked but") != NULL);
        CHECK(pub.values == NULL);
        CHECK_ERR(cz_groth16_gpu_key_create(&key, zk, 0, &ei), CZ_ENOGPU);
        CHECK(key == NULL);
    }
    o.gpu_device = count + 3;
    if (count > 0) {
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_groth16_prove(&p, &pub, zk, w, &o, &ei), CZ_EINVAL);
        CHECK(strstr(ei.msg, "does not exist") != NULL);
        CHECK_ERR(cz_groth16_gpu_key_create(&key, zk, -1, &ei), CZ_EINVAL);
    }
    CHECK_EQ_INT(cz_groth16_gpu_key_bytes(NULL), 0);
    CHECK_EQ_INT(cz_groth16_gpu_key_has_g2(NULL), 0);
    cz_groth16_gpu_key_free(NULL);
out:
    cz_wtns_close(w);
    cz_zkey_close(zk);
}

static cz_threadpool *pools[3];

static int setup(void) {
    const size_t sizes[3] = {2, 3, 7};
    cz_errinfo ei;
    for (int i = 0; i < 3; i++)
        CZ_ASSERT(cz_threadpool_create(&pools[i], sizes[i], &ei) == CZ_OK);
    return 0;
}

static void teardown(void) {
    for (int i = 0; i < 3; i++)
        cz_threadpool_destroy(pools[i]);
}

static void test_mulchain(void) {
    check_files("examples/mulchain/mulchain.zkey", "examples/mulchain/mulchain.wtns", pools, 3);
}

static void test_poseidon(void) {
    check_files("examples/poseidon/poseidon_chain.zkey", "examples/poseidon/poseidon_chain.wtns",
                pools, 3);
}

/* Generated keys of both curves. */
static void test_generated(void) {
    cz_errinfo ei;
    char zp[128], wp[128];
    snprintf(zp, sizeof zp, "/tmp/cuzk_test_prove_shared_%ld.zkey", (long)getpid());
    snprintf(wp, sizeof wp, "/tmp/cuzk_test_prove_shared_%ld.wtns", (long)getpid());
    for (int c = 0; c < 2; c++) {
        cz_curve_id curve = c == 0 ? CZ_CURVE_BN254 : CZ_CURVE_BLS12381;
        const unsigned ks[3] = {3, 8, 10};
        for (int i = 0; i < 3; i++) {
            if (!CHECK_ERR(ptc_make(zp, wp, curve, ks[i], i, pools[2], &ei), CZ_OK)) {
                fprintf(stderr, "%s\n", ei.msg);
                continue;
            }
            check_files(zp, wp, pools, 3);
        }
    }
    remove(zp);
    remove(wp);
}

static const test_case cases[] = {
    {"mulchain", test_mulchain},
    {"poseidon", test_poseidon},
    {"generated", test_generated},
    {"gpu_errors", check_gpu_errors},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
