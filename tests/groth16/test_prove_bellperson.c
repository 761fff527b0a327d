/*
 * The bellperson prover on the CPU (cuzk/groth16_bellperson.h): proofs of keys from the
 * bellperson-format setup verify with cuzk's verifier (itself checked against @noble/curves in
 * interop_bellperson_verify), and fail with a tampered input or proof; fixed r, s give the same
 * proof twice; the same constraint system proven through a zkey and through a bellperson key
 * verifies both ways; assignments that do not fit the key are refused before any work. The GPU
 * backend is compared with this one in tests/gpu/test_gpu_bellperson_prove.c.
 */
#include "cuzk/assignment.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/r1cs_io.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "groth16/bp_test_circuit.h"
#include "test.h"

static cz_threadpool *pool;
static char dir[64] = "/tmp/cz-bp-prove-XXXXXX";

/* A key for the circuit of m rows (seeded trapdoor) and assignments of nw witnesses. */
typedef struct {
    cz_r1cs cs;
    cz_bellperson_params params;
    cz_groth16_vk vk;
    cz_assignment as[3];
    size_t nas;
} fixture;

static int fixture_make(fixture *f, uint32_t m, size_t nw, int mode, const char *seed) {
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    memset(f, 0, sizeof *f);
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)seed, strlen(seed));
    if (!CHECK(bptc_build(&f->cs, m, &ei) == CZ_OK) ||
        !CHECK(cz_groth16_setup_bellperson(&f->params, &f->cs, &td, pool, -1, &ei) == CZ_OK) ||
        !CHECK(cz_groth16_vk_from_bellperson(&f->vk, &f->params.vk, &ei) == CZ_OK)) {
        fprintf(stderr, "fixture: %s\n", ei.msg);
        return 0;
    }
    for (size_t i = 0; i < nw; i++) {
        bptc_witness(&f->cs, mode, 1000 + i);
        if (!CHECK(cz_r1cs_assignment_make(&f->as[i], &f->cs, pool, &ei) == CZ_OK))
            return 0;
        f->nas++;
    }
    return 1;
}

static void fixture_free(fixture *f) {
    for (size_t i = 0; i < f->nas; i++)
        cz_assignment_free(&f->as[i]);
    cz_groth16_vk_free(&f->vk);
    cz_bellperson_params_free(&f->params);
    cz_r1cs_free(&f->cs);
}

/* Verifies proof i against assignment i's inputs: the verifier's code. */
static int verify(const fixture *f, const cz_groth16_proof *proof, const cz_assignment *as) {
    cz_groth16_public pub = {0};
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_groth16_bp_public(&pub, as, &ei);
    if (rc == CZ_OK)
        rc = cz_groth16_verify(&f->vk, &pub, proof, &ei);
    cz_groth16_public_free(&pub);
    return rc;
}

static void fixed_rs(cz_bls12381_fr *r, cz_bls12381_fr *s, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; i++) {
        bptc_value(r[i].l, 0, &seed);
        bptc_value(s[i].l, 0, &seed);
    }
}

static void test_batch_verifies(void) {
    fixture f;
    cz_groth16_proof proofs[3];
    cz_groth16_public pubs[3] = {{0}};
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_groth16_bp_opts o = {.pool = pool};
    if (fixture_make(&f, 60, 3, 0, "batch")) { /* 61 rows + 3 inputs: domain 64, no padding */
        CHECK_EQ_INT(f.params.nh, 63);
        if (CHECK_ERR(cz_groth16_bp_prove(proofs, &f.params, f.as, 3, &o, &ei), CZ_OK)) {
            for (int i = 0; i < 3; i++) {
                CHECK_ERR(verify(&f, &proofs[i], &f.as[i]), CZ_OK);
                CHECK(cz_groth16_bp_public(&pubs[i], &f.as[i], &ei) == CZ_OK);
            }
            CHECK_ERR(cz_groth16_verify_batch(&f.vk, pubs, proofs, 3, &ei), CZ_OK);
            /* another circuit's inputs, and a proof moved by a generator, fail */
            CHECK_ERR(verify(&f, &proofs[0], &f.as[1]), CZ_EVERIFY);
            cz_groth16_proof bad = proofs[2];
            bad.u.bls12381.a = f.params.vk.alpha_g1;
            CHECK_ERR(verify(&f, &bad, &f.as[2]), CZ_EVERIFY);
        }
        for (int i = 0; i < 3; i++)
            cz_groth16_public_free(&pubs[i]);
    }
    fixture_free(&f);
}

static void test_fixed_rs(void) {
    fixture f;
    cz_groth16_proof p1[2], p2[2], p0;
    cz_bls12381_fr r[2], s[2], zero[1] = {{{0}}};
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    fixed_rs(r, s, 2, 77);
    cz_groth16_bp_opts o = {.r_s = r, .s_s = s, .pool = pool};
    if (fixture_make(&f, 20, 2, 1, "fixed")) { /* 21 rows + 3: domain 32, a, b, c padded */
        CHECK_EQ_INT(f.params.nh, 31);
        CHECK_ERR(cz_groth16_bp_prove(p1, &f.params, f.as, 2, &o, &ei), CZ_OK);
        o.pool = NULL; /* one thread: the same proof */
        CHECK_ERR(cz_groth16_bp_prove(p2, &f.params, f.as, 2, &o, &ei), CZ_OK);
        CHECK_EQ_MEM(&p1[0].u.bls12381, &p2[0].u.bls12381, sizeof p1[0].u.bls12381);
        CHECK_EQ_MEM(&p1[1].u.bls12381, &p2[1].u.bls12381, sizeof p1[1].u.bls12381);
        CHECK_ERR(verify(&f, &p1[0], &f.as[0]), CZ_OK);
        CHECK_ERR(verify(&f, &p1[1], &f.as[1]), CZ_OK);
        /* r = s = 0: bellperson's proof without zero knowledge still verifies */
        cz_groth16_bp_opts z = {.r_s = zero, .s_s = zero};
        CHECK_ERR(cz_groth16_bp_prove(&p0, &f.params, f.as, 1, &z, &ei), CZ_OK);
        CHECK_ERR(verify(&f, &p0, &f.as[0]), CZ_OK);
    }
    fixture_free(&f);
}

static void test_refused(void) {
    fixture f;
    cz_groth16_proof p;
    cz_bls12381_fr r[1];
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (fixture_make(&f, 12, 1, 0, "refused")) {
        cz_assignment bad = f.as[0];
        CHECK_ERR(cz_groth16_bp_prove(&p, &f.params, f.as, 0, NULL, &ei), CZ_EINVAL);
        cz_groth16_bp_opts half = {.r_s = r};
        CHECK_ERR(cz_groth16_bp_prove(&p, &f.params, f.as, 1, &half, &ei), CZ_EINVAL);
        bad.naux--;
        CHECK_ERR(cz_groth16_bp_prove(&p, &f.params, &bad, 1, NULL, &ei), CZ_EFORMAT);
        CHECK(strstr(ei.msg, "|L|") != NULL);
        bad = f.as[0];
        bad.ninput--;
        CHECK_ERR(cz_groth16_bp_prove(&p, &f.params, &bad, 1, NULL, &ei), CZ_EFORMAT);
        bad = f.as[0];
        bad.abc_size = (size_t)f.params.nh + 2;
        CHECK_ERR(cz_groth16_bp_prove(&p, &f.params, &bad, 1, NULL, &ei), CZ_EFORMAT);
        /* a density bit more in B than the key has points for */
        uint64_t words[1] = {f.as[0].b_input_density[0] | 2};
        bad = f.as[0];
        bad.b_input_density = words;
        CHECK_ERR(cz_groth16_bp_prove(&p, &f.params, &bad, 1, NULL, &ei), CZ_EFORMAT);
        CHECK(strstr(ei.msg, "B_G1") != NULL);
    }
    fixture_free(&f);
}

/* The same system through snarkjs's format (zkey + wtns) and through bellperson's: both verify. */
static void test_zkey_and_bellperson(void) {
    fixture f;
    char r1cs[128], wtns[128], zkp[128];
    cz_r1cs_file *rf = NULL;
    cz_zkey *zk = NULL;
    cz_wtns *w = NULL;
    cz_groth16_proof pz, pb;
    cz_groth16_public pub = {0};
    cz_groth16_vk vkz = {0};
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    snprintf(r1cs, sizeof r1cs, "%s/c.r1cs", dir);
    snprintf(wtns, sizeof wtns, "%s/c.wtns", dir);
    snprintf(zkp, sizeof zkp, "%s/c.zkey", dir);
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"zk", 2);
    if (fixture_make(&f, 28, 1, 0, "both") && CHECK(cz_r1cs_write(r1cs, &f.cs, &ei) == CZ_OK) &&
        CHECK(cz_r1cs_write_wtns(wtns, &f.cs, pool, &ei) == CZ_OK) &&
        CHECK(cz_r1cs_open(&rf, r1cs, &ei) == CZ_OK) &&
        CHECK(cz_groth16_setup(zkp, rf, &td, pool, &ei) == CZ_OK) &&
        CHECK(cz_zkey_open(&zk, zkp, &ei) == CZ_OK) &&
        CHECK(cz_wtns_open(&w, wtns, &ei) == CZ_OK)) {
        cz_groth16_prove_opts zo = {.pool = pool};
        cz_groth16_bp_opts bo = {.pool = pool};
        CHECK_ERR(cz_groth16_prove(&pz, &pub, zk, w, &zo, &ei), CZ_OK);
        CHECK_ERR(cz_groth16_vk_from_zkey(&vkz, zk, &ei), CZ_OK);
        CHECK_ERR(cz_groth16_verify(&vkz, &pub, &pz, &ei), CZ_OK);
        CHECK_ERR(cz_groth16_bp_prove(&pb, &f.params, f.as, 1, &bo, &ei), CZ_OK);
        CHECK_ERR(cz_groth16_verify(&f.vk, &pub, &pb, &ei), CZ_OK); /* the zkey's public inputs */
    }
    if (ei.code != CZ_OK)
        fprintf(stderr, "zkey_and_bellperson: %s\n", ei.msg);
    cz_groth16_public_free(&pub);
    cz_groth16_vk_free(&vkz);
    cz_wtns_close(w);
    cz_zkey_close(zk);
    cz_r1cs_close(rf);
    fixture_free(&f);
}

static int setup(void) {
    cz_errinfo ei;
    if (test_tmpdir(dir) != 0)
        return 1;
    return cz_threadpool_create(&pool, 2, &ei) == CZ_OK ? 0 : 1;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
    test_tmpdir_remove(dir);
}

static const test_case cases[] = {
    {"batch_verifies", test_batch_verifies},
    {"fixed_rs", test_fixed_rs},
    {"refused", test_refused},
    {"zkey_and_bellperson", test_zkey_and_bellperson},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
