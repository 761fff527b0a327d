/*
 * Tests of the test-key setup (cuzk/groth16_setup.h).
 *
 * Oracle: tests/vectors/setup_vectors.mjs computes, for a small multiplication chain and a fixed
 * trapdoor (γ ≠ 1), every point of the key with BigInt field arithmetic and @noble/curves, using
 * the formulas of research/circom-snarkjs.md §5.5 (H from the 2n-domain basis), and the
 * coefficient entries from its own .r1cs reader. Here: the zkey written by cuzk must match byte
 * for byte (through cuzk's zkey reader, which also checks its structure), its points pass the
 * full on-curve/subgroup validation, and cuzk's prover with that key makes proofs that cuzk's
 * verifier accepts (and rejects with a changed public input) — also for a circomlib Poseidon
 * chain, with a seed-derived and with a random trapdoor. Plus: determinism (pool or not), and the
 * errors (trapdoor out of range or degenerate, circuit beyond the 2-adicity), which leave no file.
 * snarkjs itself proves and verifies with cuzk setup keys in tests/interop/interop.mjs.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/ntt.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "test.h"

#define DIR "tests/vectors/out/setup/"

static const char *const curves[2] = {"bn128", "bls12381"};

static json_t *load_json(const char *path) {
    json_error_t jerr;
    json_t *j = json_load_file(path, 0, &jerr);
    if (j == NULL) {
        fprintf(stderr,
                "missing fixture %s (%s): run node tests/vectors/setup_vectors.mjs "
                "tests/vectors/out first\n",
                path, jerr.text);
        exit(1);
    }
    return j;
}

/* Decodes a hex string of exactly len bytes; 0 on a malformed string. */
static int unhex(uint8_t *out, const char *hex, size_t len) {
    return hex != NULL && test_unhex(out, len, hex) == (int)len;
}

/* CHECKs that the point at p (bytes long) equals the hex string j. */
static void check_point(const void *p, json_t *j, size_t bytes) {
    uint8_t buf[192];
    CHECK(bytes <= sizeof buf && unhex(buf, json_string_value(j), bytes));
    CHECK_EQ_MEM(p, buf, bytes);
}

/* Every point array of expected (a JSON array of hex) against n points of bytes each at pts. */
static void check_points(const void *pts, json_t *arr, size_t n, size_t bytes) {
    CHECK_EQ_INT(json_array_size(arr), n);
    for (size_t i = 0; i < n && i < json_array_size(arr); i++)
        check_point((const uint8_t *)pts + i * bytes, json_array_get(arr, i), bytes);
}

static void read_trapdoor(cz_groth16_trapdoor *td, const char *curve) {
    char path[256];
    snprintf(path, sizeof path, DIR "%s/trapdoor.json", curve);
    json_t *j = load_json(path);
    CHECK(unhex(td->tau, json_string_value(json_object_get(j, "tau")), 32));
    CHECK(unhex(td->alpha, json_string_value(json_object_get(j, "alpha")), 32));
    CHECK(unhex(td->beta, json_string_value(json_object_get(j, "beta")), 32));
    CHECK(unhex(td->gamma, json_string_value(json_object_get(j, "gamma")), 32));
    CHECK(unhex(td->delta, json_string_value(json_object_get(j, "delta")), 32));
    json_decref(j);
}

static cz_r1cs_file *open_r1cs(const char *curve, const char *name) {
    char path[256];
    cz_r1cs_file *r = NULL;
    cz_errinfo ei;
    snprintf(path, sizeof path, DIR "%s/%s.r1cs", curve, name);
    if (cz_r1cs_open(&r, path, &ei) != CZ_OK) {
        fprintf(stderr, "%s (run node tests/vectors/setup_vectors.mjs tests/vectors/out)\n",
                ei.msg);
        exit(1);
    }
    return r;
}

static void tmp_zkey(char *out, size_t len, const char *tag) {
    snprintf(out, len, "/tmp/cuzk_test_setup_%ld_%s.zkey", (long)getpid(), tag);
}

/* The key against expected.json, point by point and entry by entry. */
static void check_against_oracle(const cz_zkey *zk, const char *curve) {
    char path[256];
    snprintf(path, sizeof path, DIR "%s/expected.json", curve);
    json_t *e = load_json(path);
    CHECK_EQ_INT(zk->nvars, json_integer_value(json_object_get(e, "nvars")));
    CHECK_EQ_INT(zk->npublic, json_integer_value(json_object_get(e, "npublic")));
    CHECK_EQ_INT(zk->domain_size, json_integer_value(json_object_get(e, "domain_size")));
    size_t nv = zk->nvars, npub = zk->npublic, n = zk->domain_size;
#define CHECK_KEY(K, G1B, G2B)                                                                     \
    do {                                                                                           \
        check_point(&(K)->alpha1, json_object_get(e, "alpha1"), G1B);                              \
        check_point(&(K)->beta1, json_object_get(e, "beta1"), G1B);                                \
        check_point(&(K)->beta2, json_object_get(e, "beta2"), G2B);                                \
        check_point(&(K)->gamma2, json_object_get(e, "gamma2"), G2B);                              \
        check_point(&(K)->delta1, json_object_get(e, "delta1"), G1B);                              \
        check_point(&(K)->delta2, json_object_get(e, "delta2"), G2B);                              \
        check_points((K)->ic, json_object_get(e, "ic"), npub + 1, G1B);                            \
        check_points((K)->a, json_object_get(e, "a"), nv, G1B);                                    \
        check_points((K)->b1, json_object_get(e, "b1"), nv, G1B);                                  \
        check_points((K)->b2, json_object_get(e, "b2"), nv, G2B);                                  \
        check_points((K)->c, json_object_get(e, "c"), nv - npub - 1, G1B);                         \
        check_points((K)->h, json_object_get(e, "h"), n, G1B);                                     \
    } while (0)
    if (zk->curve == CZ_CURVE_BN254)
        CHECK_KEY(&zk->u.bn254, 64, 128);
    else
        CHECK_KEY(&zk->u.bls12381, 96, 192);
#undef CHECK_KEY
    json_t *coefs = json_object_get(e, "coefs");
    CHECK_EQ_INT(json_array_size(coefs), zk->ncoefs);
    for (size_t i = 0; i < zk->ncoefs && i < json_array_size(coefs); i++) {
        json_t *c = json_array_get(coefs, i);
        cz_zkey_coef got;
        uint8_t want[32];
        cz_zkey_coef_at(&got, zk, i);
        CHECK_EQ_INT(got.matrix, json_integer_value(json_array_get(c, 0)));
        CHECK_EQ_INT(got.row, json_integer_value(json_array_get(c, 1)));
        CHECK_EQ_INT(got.signal, json_integer_value(json_array_get(c, 2)));
        CHECK(unhex(want, json_string_value(json_array_get(c, 3)), 32));
        CHECK_EQ_MEM(got.value, want, 32);
    }
    json_decref(e);
}

/* Proves with cuzk's prover and checks cuzk's verifier accepts, and rejects a changed input. */
static void check_prove_verify(const char *zkey_path, const char *curve, const char *name,
                               cz_threadpool *pool) {
    char path[256];
    cz_zkey *zk = NULL;
    cz_wtns *w = NULL;
    cz_groth16_proof proof;
    cz_groth16_public pub = {0};
    cz_groth16_vk vk = {0};
    cz_errinfo ei;
    cz_groth16_prove_opts opts = {0};
    opts.pool = pool;
    snprintf(path, sizeof path, DIR "%s/%s.wtns", curve, name);
    if (!CHECK_ERR(cz_zkey_open(&zk, zkey_path, &ei), CZ_OK) ||
        !CHECK_ERR(cz_wtns_open(&w, path, &ei), CZ_OK)) {
        fprintf(stderr, "%s\n", ei.msg);
        goto out;
    }
    CHECK_ERR(cz_zkey_validate_points(zk, 1, &ei), CZ_OK);
    if (!CHECK_ERR(cz_groth16_prove(&proof, &pub, zk, w, &opts, &ei), CZ_OK)) {
        fprintf(stderr, "%s\n", ei.msg);
        goto out;
    }
    CHECK_ERR(cz_groth16_vk_from_zkey(&vk, zk, &ei), CZ_OK);
    CHECK_ERR(cz_groth16_verify(&vk, &pub, &proof, &ei), CZ_OK);
    pub.values[0][0] ^= 1;
    CHECK_ERR(cz_groth16_verify(&vk, &pub, &proof, &ei), CZ_EVERIFY);
out:
    cz_groth16_vk_free(&vk);
    cz_groth16_public_free(&pub);
    cz_wtns_close(w);
    cz_zkey_close(zk);
}

static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    *len = 0;
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n)
        *len = (size_t)n;
    fclose(f);
    return buf;
}

static int same_file(const char *a, const char *b) {
    size_t la, lb;
    uint8_t *x = slurp(a, &la), *y = slurp(b, &lb);
    int same = x != NULL && y != NULL && la == lb && la > 0 && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

static int file_exists(const char *path) {
    return access(path, F_OK) == 0;
}

static void test_curve(const char *curve, cz_threadpool *pool) {
    char z1[256], z2[256], z3[256];
    cz_groth16_trapdoor td, bad;
    cz_errinfo ei;
    cz_zkey *zk = NULL;
    cz_r1cs_file *mul = open_r1cs(curve, "mulchain"), *pos = open_r1cs(curve, "poseidon");
    tmp_zkey(z1, sizeof z1, "a");
    tmp_zkey(z2, sizeof z2, "b");
    tmp_zkey(z3, sizeof z3, "c");
    read_trapdoor(&td, curve);

    /* The key against the independent computation, then proofs with it. */
    if (CHECK_ERR(cz_groth16_setup(z1, mul, &td, pool, &ei), CZ_OK)) {
        if (CHECK_ERR(cz_zkey_open(&zk, z1, &ei), CZ_OK))
            check_against_oracle(zk, curve);
        cz_zkey_close(zk);
        zk = NULL;
        check_prove_verify(z1, curve, "mulchain", pool);
    } else {
        fprintf(stderr, "%s\n", ei.msg);
    }
    /* Same trapdoor without a pool: the same bytes. */
    CHECK_ERR(cz_groth16_setup(z2, mul, &td, NULL, &ei), CZ_OK);
    CHECK(same_file(z1, z2));

    /* Poseidon chain: seed-derived trapdoor (twice: deterministic), then a random one. */
    {
        static const uint8_t seed[] = "cuzk setup test";
        cz_groth16_trapdoor st;
        cz_groth16_trapdoor_from_seed(&st, seed, sizeof seed - 1);
        CHECK_EQ_INT(st.gamma[0], 1);
        CHECK_ERR(cz_groth16_setup(z1, pos, &st, pool, &ei), CZ_OK);
        CHECK_ERR(cz_groth16_setup(z2, pos, &st, pool, &ei), CZ_OK);
        CHECK(same_file(z1, z2));
        check_prove_verify(z1, curve, "poseidon", pool);
        CHECK_ERR(cz_groth16_setup(z3, pos, NULL, pool, &ei), CZ_OK);
        CHECK(!same_file(z1, z3));
        check_prove_verify(z3, curve, "poseidon", pool);
    }

    /* Errors leave no file behind. */
    remove(z3);
    bad = td;
    memset(bad.delta, 0xff, 32); /* >= r */
    CHECK_ERR(cz_groth16_setup(z3, mul, &bad, pool, &ei), CZ_ERANGE);
    CHECK(!file_exists(z3));
    bad = td;
    memset(bad.alpha, 0, 32);
    CHECK_ERR(cz_groth16_setup(z3, mul, &bad, pool, &ei), CZ_EINVAL);
    CHECK(!file_exists(z3));
    bad = td;
    memset(bad.tau, 0, 32);
    bad.tau[0] = 1; /* τ = 1 is on the domain */
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_groth16_setup(z3, mul, &bad, pool, &ei), CZ_EINVAL);
    CHECK(!file_exists(z3));
    CHECK(strstr(ei.msg, "tau") != NULL);
    /* τ = g, the first point of the H coset (domain 8 for this circuit). */
    bad = td;
    if (mul->curve == CZ_CURVE_BN254) {
        cz_bn254_fr g;
        CHECK_ERR(cz_bn254_ntt_coset_gen(&g, 3, CZ_NTT_ROOTS_SNARKJS), CZ_OK);
        cz_bn254_fr_to_bytes_le(bad.tau, &g);
    } else {
        cz_bls12381_fr g;
        CHECK_ERR(cz_bls12381_ntt_coset_gen(&g, 3, CZ_NTT_ROOTS_SNARKJS), CZ_OK);
        cz_bls12381_fr_to_bytes_le(bad.tau, &g);
    }
    CHECK_ERR(cz_groth16_setup(z3, mul, &bad, pool, &ei), CZ_EINVAL);
    CHECK(!file_exists(z3));
    /* Too big for the field's FFT domains (checked before anything is read or written). */
    {
        cz_r1cs_file big = *mul;
        big.nconstraints = mul->curve == CZ_CURVE_BN254 ? (1u << 28) : 0xffffff00u;
        big.constraints = NULL;
        CHECK_ERR(cz_groth16_setup(z3, &big, &td, pool, &ei), CZ_ERANGE);
        CHECK(!file_exists(z3));
        big = *mul;
        big.npub_in = big.nwires; /* more public signals than wires */
        CHECK_ERR(cz_groth16_setup(z3, &big, &td, pool, &ei), CZ_EINVAL);
    }
    CHECK_ERR(cz_groth16_setup("/nonexistent-dir/x.zkey", mul, &td, pool, &ei), CZ_EIO);

    remove(z1);
    remove(z2);
    remove(z3);
    cz_r1cs_close(mul);
    cz_r1cs_close(pos);
}

/* The seed derivation: deterministic, seed-dependent, values below 2^253, γ = 1. */
static void test_seed(void) {
    cz_groth16_trapdoor a, b, c;
    cz_groth16_trapdoor_from_seed(&a, (const uint8_t *)"x", 1);
    cz_groth16_trapdoor_from_seed(&b, (const uint8_t *)"x", 1);
    cz_groth16_trapdoor_from_seed(&c, (const uint8_t *)"y", 1);
    CHECK_EQ_MEM(&a, &b, sizeof a);
    CHECK(memcmp(a.tau, c.tau, 32) != 0);
    CHECK(memcmp(a.tau, a.alpha, 32) != 0);
    CHECK(a.tau[31] < 0x20 && a.alpha[31] < 0x20 && a.beta[31] < 0x20 && a.delta[31] < 0x20);
    static const uint8_t one[32] = {1};
    CHECK_EQ_MEM(a.gamma, one, 32);
}

static cz_threadpool *pool;

static int setup(void) {
    cz_errinfo ei;
    if (cz_threadpool_create(&pool, 2, &ei) != CZ_OK) {
        fprintf(stderr, "%s\n", ei.msg);
        return 1;
    }
    return 0;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

static void test_bn128(void) {
    test_curve(curves[0], pool);
}

static void test_bls12381(void) {
    test_curve(curves[1], pool);
}

static const test_case cases[] = {
    {"seed", test_seed},
    {"bn128", test_bn128},
    {"bls12381", test_bls12381},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
