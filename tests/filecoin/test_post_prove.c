/*
 * A 2 KiB WindowPoSt partition proven end to end on the CPU: the circuit recorded once from its
 * blank synthesis, a local key made from the recording (bellperson's format, seeded trapdoor:
 * insecure), the witness synthesized alone (WITNESS mode) into the recorded matrices, the
 * bellperson prover, and cuzk's verifier (checked against @noble/curves elsewhere,
 * interop_bellperson_verify) with public inputs computed here from the sectors as
 * rust-fil-proofs orders them: per sector comm_r, then each challenged leaf's index. A wrong
 * index among them must fail; the witness of the PROVE mode must give the same assignment as
 * WITNESS plus the recorded matrices.
 */
#include <string.h>

#include "cs/cs.h"
#include "cuzk/assignment.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "filecoin/post_circuit.h"
#include "filecoin/post_shape.h"
#include "post_fixture.h"
#include "test.h"

typedef cz_bls12381_fr fr;

static const unsigned challenges[2][10] = {{3, 17, 63, 0, 8, 9, 41, 42, 55, 22},
                                           {1, 2, 4, 8, 16, 32, 62, 61, 59, 51}};

static void public_inputs(cz_groth16_public *pub, const pf_sector *sec) {
    size_t k = 0;
    pub->curve = CZ_CURVE_BLS12381;
    pub->n = 2 * 11;
    pub->values = calloc(pub->n, sizeof *pub->values);
    if (pub->values == NULL)
        abort();
    for (int s = 0; s < 2; s++) {
        uint8_t le[32];
        cz_bls12381_fr_to_bytes_le(le, &sec[s].s.comm_r);
        memcpy(pub->values[k++], le, 32); /* canonical little-endian limbs */
        for (int c = 0; c < 10; c++)
            pub->values[k++][0] = sec[s].index[c];
    }
}

static void test_window_post_2k(void) {
    static pf_sector sec[2];
    cz__post_shape shape;
    cz__cs rec, wit, prv;
    cz_r1cs r;
    cz_bellperson_params params;
    cz_groth16_vk vk;
    cz_groth16_trapdoor td;
    cz_assignment as, direct;
    cz_groth16_proof proof;
    cz_groth16_public pub = {0};
    cz__post_sector ss[2];
    cz_threadpool *pool = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    memset(&params, 0, sizeof params);
    memset(&vk, 0, sizeof vk);
    for (int s = 0; s < 2; s++) {
        pf_sector_make(&sec[s], 100 + (unsigned)s, challenges[s], 10);
        ss[s] = sec[s].s;
    }
    if (!CHECK_EQ_INT(cz__post_shape_get(&shape, CZ__POST_WINDOW, 2048, NULL), CZ_OK) ||
        !CHECK_EQ_INT(cz_threadpool_create(&pool, 0, NULL), CZ_OK))
        return;
    /* the shape, recorded once, and a key for it */
    CHECK_EQ_INT(cz__cs_init(&rec, CZ__CS_RECORD, 0, NULL), CZ_OK);
    CHECK_EQ_INT(cz__post_circuit_blank(&rec, &shape.tree, shape.nleaves, shape.sectors,
                                        shape.challenges, NULL),
                 CZ_OK);
    if (!CHECK_EQ_INT(cz__cs_to_r1cs(&r, &rec, &ei), CZ_OK))
        goto out;
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"post-2k", 7);
    if (!CHECK_EQ_INT(cz_groth16_setup_bellperson(&params, &r, &td, pool, -1, &ei), CZ_OK) ||
        !CHECK_EQ_INT(cz_groth16_vk_from_bellperson(&vk, &params.vk, &ei), CZ_OK))
        goto out;
    CHECK_EQ_INT(params.vk.nic, 23);
    /* the witness alone, into the recorded matrices */
    CHECK_EQ_INT(cz__cs_init(&wit, CZ__CS_WITNESS, 0, NULL), CZ_OK);
    cz__post_circuit(&wit, ss, 2);
    if (!CHECK_EQ_INT(cz__cs_values_to_r1cs(&r, &wit, &ei), CZ_OK) ||
        !CHECK_EQ_INT(cz_r1cs_check(&r, pool, NULL, &ei), CZ_OK) ||
        !CHECK_EQ_INT(cz_r1cs_assignment_make(&as, &r, pool, &ei), CZ_OK))
        goto out_wit;
    /* the same assignment row by row (bellperson's ProvingAssignment) */
    CHECK_EQ_INT(cz__cs_init(&prv, CZ__CS_PROVE, 0, NULL), CZ_OK);
    cz__post_circuit(&prv, ss, 2);
    if (CHECK_EQ_INT(cz__cs_assignment(&direct, &prv, &ei), CZ_OK)) {
        CHECK_EQ_INT(direct.abc_size, as.abc_size);
        CHECK(direct.abc_size == as.abc_size &&
              memcmp(direct.a, as.a, as.abc_size * sizeof *as.a) == 0 &&
              memcmp(direct.b, as.b, as.abc_size * sizeof *as.b) == 0 &&
              memcmp(direct.c, as.c, as.abc_size * sizeof *as.c) == 0);
    }
    cz__cs_free(&prv);
    if (CHECK_EQ_INT(cz_groth16_bp_prove(&proof, &params, &as, 1, NULL, &ei), CZ_OK)) {
        public_inputs(&pub, sec);
        CHECK_EQ_INT(cz_groth16_verify(&vk, &pub, &proof, &ei), CZ_OK);
        pub.values[5][0] ^= 1; /* a challenge index of sector 0 */
        CHECK_EQ_INT(cz_groth16_verify(&vk, &pub, &proof, NULL), CZ_EVERIFY);
        cz_groth16_public_free(&pub);
    }
    cz_assignment_free(&as);
out_wit:
    cz__cs_free(&wit);
out:
    if (ei.code != CZ_OK)
        fprintf(stderr, "window-post 2k: %s\n", ei.msg);
    cz_groth16_vk_free(&vk);
    cz_bellperson_params_free(&params);
    cz_r1cs_free(&r);
    cz__cs_free(&rec);
    cz_threadpool_destroy(pool);
}

static const test_case cases[] = {{"window_post_2k", test_window_post_2k}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
