/*
 * Tests of the batch verifier (cz_groth16_verify_batch) and, beside it, the single one.
 *
 * Oracle: the single verifier, N times. Its own correctness against independent code is shown
 * elsewhere (snarkjs in tests/interop/interop.mjs; for BLS12-381 proofs in bellperson's bytes,
 * the @noble/curves verifier of tests/interop/bellperson_verify.mjs, ctest
 * interop_bellperson_verify). Here: proofs made by cuzk's prover on a key with γ ≠ 1 (so that a
 * verifier that mixed up γ with the generator or with δ fails), of ten witnesses and fresh r, s,
 * on both curves. For every N = 1..10: the batch of the first N proofs passes, exactly as the N
 * single verifications do; with any one proof's A, B or C moved to another point of the
 * subgroup, any one public input changed, or two proofs' inputs swapped, the batch fails, and so
 * does the single verification of that proof. The multipliers matter: two proofs with C moved by
 * +D and -D pass a batch whose multipliers are all 1 (the errors cancel) and a batch with
 * multipliers (3, 5) whose C's moved by +5D and -3D, but fail a random batch. Errors: no proofs,
 * curve and count mismatches, an input >= r, a point off the curve or outside the subgroup, each
 * naming the proof.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curve/ec.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "field/field.h"
#include "groth16/prove_test_circuit.h"
#include "groth16/verify.h"
#include "test.h"

#define NPROOFS  10
#define NWITNESS 7 /* proofs 7, 8, 9 reuse witnesses 0, 1, 2 with other r, s */
#define K        4

typedef struct {
    cz_curve_id curve;
    cz_groth16_vk vk;
    cz_groth16_proof proofs[NPROOFS];
    cz_groth16_public pubs[NPROOFS];
} fixture;

static fixture fx[2];

/* A trapdoor with γ ≠ 1 (γ = the τ of another seed; every value < 2^253 < r). */
static void trapdoor(cz_groth16_trapdoor *td) {
    cz_groth16_trapdoor other;
    cz_groth16_trapdoor_from_seed(td, (const uint8_t *)"verify-batch", 12);
    cz_groth16_trapdoor_from_seed(&other, (const uint8_t *)"verify-batch-gamma", 18);
    memcpy(td->gamma, other.tau, sizeof td->gamma);
}

static int make_fixture(fixture *f, cz_curve_id curve) {
    char zp[128], wp[NWITNESS][128];
    cz_groth16_trapdoor td;
    cz_zkey *zk = NULL;
    cz_errinfo ei;
    int ok = 1;
    f->curve = curve;
    trapdoor(&td);
    snprintf(zp, sizeof zp, "/tmp/cuzk_test_vbatch_%ld_%d.zkey", (long)getpid(), (int)curve);
    for (int i = 0; i < NWITNESS && ok; i++) {
        snprintf(wp[i], sizeof wp[i], "/tmp/cuzk_test_vbatch_%ld_%d_%d.wtns", (long)getpid(),
                 (int)curve, i);
        ok = CHECK_ERR(ptc_make_td(i == 0 ? zp : NULL, wp[i], curve, K, 0, &td, NULL, &ei), CZ_OK);
    }
    ok = ok && CHECK_ERR(cz_zkey_open(&zk, zp, &ei), CZ_OK) &&
         CHECK_ERR(cz_groth16_vk_from_zkey(&f->vk, zk, &ei), CZ_OK);
    for (int j = 0; j < NPROOFS && ok; j++) {
        cz_wtns *w = NULL;
        ok = CHECK_ERR(cz_wtns_open(&w, wp[j % NWITNESS], &ei), CZ_OK) &&
             CHECK_ERR(cz_groth16_prove(&f->proofs[j], &f->pubs[j], zk, w, NULL, &ei), CZ_OK);
        cz_wtns_close(w);
    }
    cz_zkey_close(zk);
    unlink(zp);
    for (int i = 0; i < NWITNESS; i++)
        unlink(wp[i]);
    return ok;
}

static int setup(void) {
    return make_fixture(&fx[0], CZ_CURVE_BLS12381) && make_fixture(&fx[1], CZ_CURVE_BN254) ? 0 : 1;
}

static void teardown(void) {
    for (int c = 0; c < 2; c++) {
        cz_groth16_vk_free(&fx[c].vk);
        for (int j = 0; j < NPROOFS; j++)
            cz_groth16_public_free(&fx[c].pubs[j]);
    }
}

/* Copies of a fixture's proofs and inputs that a case may change. */
typedef struct {
    cz_groth16_proof proofs[NPROOFS];
    cz_groth16_public pubs[NPROOFS];
    uint64_t values[NPROOFS][8][4];
} batch;

static void batch_copy(batch *b, const fixture *f) {
    for (int j = 0; j < NPROOFS; j++) {
        CZ_ASSERT(f->pubs[j].n <= 8);
        b->proofs[j] = f->proofs[j];
        b->pubs[j] = f->pubs[j];
        memcpy(b->values[j], f->pubs[j].values, f->pubs[j].n * sizeof *f->pubs[j].values);
        b->pubs[j].values = b->values[j];
    }
}

/* The proof point named by which (0 = A, 1 = B, 2 = C) += k·G, G the generator of its group. */
static void move_point(cz_groth16_proof *p, int which, int k) {
    uint64_t m[1] = {(uint64_t)(k < 0 ? -k : k)};
    if (p->curve == CZ_CURVE_BLS12381) {
        cz_bls12381_groth16_proof *q = &p->u.bls12381;
        cz_bls12381_g1_affine g1, *pt = which == 0 ? &q->a : &q->c;
        cz_bls12381_g2_affine g2;
        cz_bls12381_g1_jacobian d1, j1;
        cz_bls12381_g2_jacobian d2, j2;
        if (which == 1) {
            cz_bls12381_g2_generator(&g2);
            bls12381_g2_from_affine(&d2, &g2);
            bls12381_g2_mul_limbs(&d2, &d2, m, 1);
            if (k < 0)
                bls12381_g2_jac_neg(&d2, &d2);
            bls12381_g2_from_affine(&j2, &q->b);
            bls12381_g2_add(&j2, &j2, &d2);
            bls12381_g2_to_affine(&q->b, &j2);
            return;
        }
        cz_bls12381_g1_generator(&g1);
        bls12381_g1_from_affine(&d1, &g1);
        bls12381_g1_mul_limbs(&d1, &d1, m, 1);
        if (k < 0)
            bls12381_g1_jac_neg(&d1, &d1);
        bls12381_g1_from_affine(&j1, pt);
        bls12381_g1_add(&j1, &j1, &d1);
        bls12381_g1_to_affine(pt, &j1);
    } else {
        cz_bn254_groth16_proof *q = &p->u.bn254;
        cz_bn254_g1_affine g1, *pt = which == 0 ? &q->a : &q->c;
        cz_bn254_g2_affine g2;
        cz_bn254_g1_jacobian d1, j1;
        cz_bn254_g2_jacobian d2, j2;
        if (which == 1) {
            cz_bn254_g2_generator(&g2);
            bn254_g2_from_affine(&d2, &g2);
            bn254_g2_mul_limbs(&d2, &d2, m, 1);
            if (k < 0)
                bn254_g2_jac_neg(&d2, &d2);
            bn254_g2_from_affine(&j2, &q->b);
            bn254_g2_add(&j2, &j2, &d2);
            bn254_g2_to_affine(&q->b, &j2);
            return;
        }
        cz_bn254_g1_generator(&g1);
        bn254_g1_from_affine(&d1, &g1);
        bn254_g1_mul_limbs(&d1, &d1, m, 1);
        if (k < 0)
            bn254_g1_jac_neg(&d1, &d1);
        bn254_g1_from_affine(&j1, pt);
        bn254_g1_add(&j1, &j1, &d1);
        bn254_g1_to_affine(pt, &j1);
    }
}

/* v = v + 1 mod r. */
static void bump_input(cz_curve_id curve, uint64_t v[4]) {
    uint64_t one[4] = {1, 0, 0, 0}, t[4];
    ptc_mul_add(curve, t, one, v, one);
    memcpy(v, t, sizeof t);
}

static int batch_rc(const fixture *f, const batch *b, size_t n) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    return cz_groth16_verify_batch(&f->vk, b->pubs, b->proofs, n, &ei);
}

static int single_rc(const fixture *f, const batch *b, size_t j) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    return cz_groth16_verify(&f->vk, &b->pubs[j], &b->proofs[j], &ei);
}

static void test_valid(void) {
    for (int c = 0; c < 2; c++) {
        batch b;
        batch_copy(&b, &fx[c]);
        for (size_t j = 0; j < NPROOFS; j++)
            CHECK_ERR(single_rc(&fx[c], &b, j), CZ_OK);
        for (size_t n = 1; n <= NPROOFS; n++)
            CHECK_ERR(batch_rc(&fx[c], &b, n), CZ_OK);
        /* The proofs of one witness with other r, s are other proofs, with the same inputs. */
        CHECK(memcmp(&b.proofs[0], &b.proofs[NWITNESS], sizeof b.proofs[0]) != 0);
        CHECK_EQ_MEM(b.values[0], b.values[NWITNESS], b.pubs[0].n * sizeof b.values[0][0]);
        CHECK(memcmp(b.values[0], b.values[1], b.pubs[0].n * sizeof b.values[0][0]) != 0);
    }
}

/* Every position j of every batch size n: A, B or C moved (rotating with j + n), or an input. */
static void test_tampered(void) {
    for (int c = 0; c < 2; c++) {
        const fixture *f = &fx[c];
        for (size_t n = 1; n <= NPROOFS; n++) {
            for (size_t j = 0; j < n; j++) {
                batch b;
                batch_copy(&b, f);
                move_point(&b.proofs[j], (int)((j + n) % 3), 1);
                CHECK_ERR(single_rc(f, &b, j), CZ_EVERIFY);
                if (!CHECK_ERR(batch_rc(f, &b, n), CZ_EVERIFY))
                    fprintf(stderr, "  curve %d, n %zu, proof %zu, point %zu\n", c, n, j,
                            (j + n) % 3);
                batch_copy(&b, f);
                bump_input(f->curve, b.values[j][(j + n) % b.pubs[j].n]);
                CHECK_ERR(single_rc(f, &b, j), CZ_EVERIFY);
                if (!CHECK_ERR(batch_rc(f, &b, n), CZ_EVERIFY))
                    fprintf(stderr, "  curve %d, n %zu, proof %zu, input %u\n", c, n, j,
                            (unsigned)((j + n) % b.pubs[j].n));
            }
        }
        /* Two proofs of other witnesses with their inputs swapped: each is the other's. */
        batch b;
        batch_copy(&b, f);
        b.pubs[1].values = b.values[2];
        b.pubs[2].values = b.values[1];
        CHECK_ERR(batch_rc(f, &b, 4), CZ_EVERIFY);
        CHECK_ERR(single_rc(f, &b, 1), CZ_EVERIFY);
    }
}

static void test_multipliers(void) {
    static const uint64_t ones[2][2] = {{1, 0}, {1, 0}}, z35[2][2] = {{3, 0}, {5, 0}};
    for (int c = 0; c < 2; c++) {
        const fixture *f = &fx[c];
        cz_errinfo ei;
        batch b;
        batch_copy(&b, f);
        CHECK_ERR(cz__groth16_verify_batch_z(&f->vk, b.pubs, b.proofs, 2, ones, &ei), CZ_OK);
        CHECK_ERR(cz__groth16_verify_batch_z(&f->vk, b.pubs, b.proofs, 1, ones, &ei), CZ_OK);
        move_point(&b.proofs[0], 2, 1);
        move_point(&b.proofs[1], 2, -1);
        CHECK_ERR(single_rc(f, &b, 0), CZ_EVERIFY);
        CHECK_ERR(single_rc(f, &b, 1), CZ_EVERIFY);
        CHECK_ERR(cz__groth16_verify_batch_z(&f->vk, b.pubs, b.proofs, 2, ones, &ei), CZ_OK);
        CHECK_ERR(cz__groth16_verify_batch_z(&f->vk, b.pubs, b.proofs, 2, z35, &ei), CZ_EVERIFY);
        CHECK_ERR(batch_rc(f, &b, 2), CZ_EVERIFY);
        CHECK_ERR(batch_rc(f, &b, NPROOFS), CZ_EVERIFY);
        /* 3·5D - 5·3D = 0: the multipliers weigh C exactly as the equation says. */
        batch_copy(&b, f);
        move_point(&b.proofs[0], 2, 5);
        move_point(&b.proofs[1], 2, -3);
        CHECK_ERR(cz__groth16_verify_batch_z(&f->vk, b.pubs, b.proofs, 2, z35, &ei), CZ_OK);
        CHECK_ERR(cz__groth16_verify_batch_z(&f->vk, b.pubs, b.proofs, 2, ones, &ei), CZ_EVERIFY);
        CHECK_ERR(batch_rc(f, &b, 2), CZ_EVERIFY);
    }
}

/* A BLS12-381 G1 point on the curve outside the subgroup (the first x that has a y). */
static void g1_outside_subgroup(cz_bls12381_g1_affine *p) {
    cz_bls12381_fp rhs, b;
    bls12381_fp_from_u64(&b, 4);
    for (uint64_t x = 1;; x++) {
        bls12381_fp_from_u64(&p->x, x);
        bls12381_fp_sqr(&rhs, &p->x);
        bls12381_fp_mul(&rhs, &rhs, &p->x);
        bls12381_fp_add(&rhs, &rhs, &b);
        if (bls12381_fp_sqrt(&p->y, &rhs) == CZ_OK && !bls12381_g1_affine_in_subgroup(p))
            return;
    }
}

static void test_errors(void) {
    const fixture *f = &fx[0];
    cz_errinfo ei;
    batch b;
    batch_copy(&b, f);
    CHECK_ERR(cz_groth16_verify_batch(&f->vk, b.pubs, b.proofs, 0, &ei), CZ_EINVAL);

    b.proofs[3] = fx[1].proofs[3];
    CHECK_ERR(cz_groth16_verify_batch(&f->vk, b.pubs, b.proofs, 5, &ei), CZ_ECURVE);
    CHECK(strstr(ei.msg, "proof 3") != NULL);

    batch_copy(&b, f);
    b.pubs[4].n--;
    CHECK_ERR(cz_groth16_verify_batch(&f->vk, b.pubs, b.proofs, 5, &ei), CZ_EFORMAT);
    CHECK(strstr(ei.msg, "proof 4") != NULL);

    batch_copy(&b, f);
    memset(b.values[2][1], 0xff, sizeof b.values[2][1]);
    CHECK_ERR(cz_groth16_verify_batch(&f->vk, b.pubs, b.proofs, 5, &ei), CZ_ERANGE);
    CHECK(strstr(ei.msg, "proof 2") != NULL);

    batch_copy(&b, f);
    bls12381_fp_add(&b.proofs[1].u.bls12381.c.y, &b.proofs[1].u.bls12381.c.y,
                    &b.proofs[1].u.bls12381.c.x);
    CHECK_ERR(cz_groth16_verify_batch(&f->vk, b.pubs, b.proofs, 5, &ei), CZ_ENOTONCURVE);
    CHECK(strstr(ei.msg, "proof 1") != NULL && strstr(ei.msg, "point C") != NULL);

    batch_copy(&b, f);
    g1_outside_subgroup(&b.proofs[4].u.bls12381.a);
    CHECK_ERR(cz_groth16_verify_batch(&f->vk, b.pubs, b.proofs, 5, &ei), CZ_ENOTINSUBGROUP);
    CHECK(strstr(ei.msg, "proof 4") != NULL && strstr(ei.msg, "point A") != NULL);
    CHECK_ERR(cz_groth16_verify(&f->vk, &b.pubs[4], &b.proofs[4], &ei), CZ_ENOTINSUBGROUP);
}

static const test_case cases[] = {
    {"valid", test_valid},
    {"tampered", test_tampered},
    {"multipliers", test_multipliers},
    {"errors", test_errors},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
