/*
 * The native Poseidon of neptune v11 (src/gadgets/poseidon.h) against independent artifacts:
 *   - supra_seal's constants files (poseidon/constants/constants_N of supranational/supra_seal,
 *     which its C2 prover and Curio use): our compressed round constants, MDS matrix,
 *     pre-sparse matrix and sparse matrices, laid out as those files are (four arrays of
 *     Montgomery-form elements, 32 bytes little-endian each), must have the files' sizes and
 *     BLAKE2b-512 digests (computed from the files with Python's hashlib);
 *   - neptune's own digests (its poseidon.rs hash_values test): MerkleTree of [0, 1, ..,
 *     arity - 1] for arity 2, 4, 8, 11 and ConstantLength(4) of [0, 1, 2, 3] for arity 4, 8, 11,
 *     by the optimized schedule and by the plain rounds;
 *   - the first round constants of width 3 and 9 (neptune's parameter file for t = 9);
 *   - for the circuit: the row counts of neptune's test_poseidon_hash (311, 377, 505 for arity
 *     2, 4, 8; 761 for 16; 598 for 11 from the same formula, which that test checks for every
 *     arity it runs), the native hash for its output, and the r1cs check, which a changed aux
 *     value must break.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/blake2b.h"
#include "cuzk/field.h"
#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "gadgets/poseidon.h"
#include "gadgets/poseidon_circuit.h"
#include "test.h"

typedef cz_bls12381_fr fr;

/* Canonical big-endian hex (64 digits) to an element. */
static fr from_hex(const char *hex) {
    uint8_t be[32];
    fr r;
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        be[i] = (uint8_t)v;
    }
    if (cz_bls12381_fr_from_bytes_be(&r, be) != CZ_OK)
        cz_bls12381_fr_zero(&r);
    return r;
}

static void hex_of(char out[129], const uint8_t *d, size_t n) {
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_constants_files(void) {
    static const struct {
        unsigned arity;
        size_t bytes;
        const char *blake2b;
    } files[] = {
        {2, 11904,
         "674aee6e575adea9308830985b7b154d0d4b48673f3867819a28c73a4ac88fbfa360ec9d5c59aa08087e"
         "6265976bff72fe315d2324eae24a64e36e67c994d1b2"},
        {4, 20800,
         "5311e4c22018ecded0e3c17d5dff09f97c905ae7c6065bafe0f0284831f1f6faae4a9647540590f29b0a"
         "10818d7bebb984b06446619bdeefaa3005e576417143"},
        {8, 40320,
         "cbc6e346a0840533da1f5735840cd599b8d8c47ddf4cd3d6fcf17836188f305e0d151b7e52b19078609d"
         "3f18ad3b5e6fd60a20eb6409e386e9d34c4c9956d9c6"},
        {11, 56064,
         "2000d2bd61942f63b15711671001d5ba6bed0b05eabb0cbaef517438cebd21b5e55c11dea193c8bc2d47"
         "5b762a060cf84373bc907ebc44aa3c2dfd9ba2786b84"},
        {16, 87040,
         "33a5bdbe096cf4dc32d4eab371c53aeafa57e3eb8bcaf6fc4048ed168b49e4428b1c42c9e8586d9d17e6"
         "ed2654085874c7ee081e46c6743e0e1f3be75f2fdc25"},
    };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        const cz__poseidon *p;
        cz_blake2b h;
        uint8_t d[64];
        char got[129];
        size_t n, t;
        if (!CHECK_EQ_INT(cz__poseidon_get(&p, files[f].arity, NULL), CZ_OK))
            continue;
        t = p->t;
        n = (8 * t + p->rp) + 2 * t * t + p->rp * (2 * t - 1);
        CHECK_EQ_INT(n * 32, files[f].bytes);
        cz_blake2b_init(&h, 64);
        cz_blake2b_update(&h, p->crc, (8 * t + p->rp) * sizeof(fr));
        cz_blake2b_update(&h, p->m, t * t * sizeof(fr));
        cz_blake2b_update(&h, p->pre, t * t * sizeof(fr));
        for (unsigned k = 0; k < p->rp; k++) {
            cz_blake2b_update(&h, &p->sparse_w[k * t], t * sizeof(fr));
            cz_blake2b_update(&h, &p->sparse_v[k * (t - 1)], (t - 1) * sizeof(fr));
        }
        cz_blake2b_final(d, &h);
        hex_of(got, d, 64);
        if (!CHECK(strcmp(got, files[f].blake2b) == 0))
            fprintf(stderr, "arity %u: constants digest %s\n", files[f].arity, got);
    }
}

static void test_round_constants(void) {
    const cz__poseidon *p;
    fr want;
    if (CHECK_EQ_INT(cz__poseidon_get(&p, 2, NULL), CZ_OK)) {
        CHECK_EQ_INT(p->rf, 8);
        CHECK_EQ_INT(p->rp, 55);
        want = from_hex("669f064bfa3ae17a23bd51861dbb4a24501eac92a2758b36a7320a009d6ed3d8");
        CHECK(cz_bls12381_fr_eq(&p->rc[0], &want));
        want = from_hex("21e9cefa24b89d09f91b1e8a45df275b17292b4e1aaa49301e234771128165d5");
        CHECK(cz_bls12381_fr_eq(&p->rc[2], &want));
    }
    if (CHECK_EQ_INT(cz__poseidon_get(&p, 8, NULL), CZ_OK)) {
        CHECK_EQ_INT(p->rp, 57);
        want = from_hex("6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9");
        CHECK(cz_bls12381_fr_eq(&p->rc[0], &want));
    }
}

/* One digest of neptune's hash_values test, by both schedules. */
static void check_digest(unsigned arity, const fr *tag, const fr *preimage, const char *hex) {
    const cz__poseidon *p;
    fr opt, plain, want = from_hex(hex);
    if (!CHECK_EQ_INT(cz__poseidon_get(&p, arity, NULL), CZ_OK))
        return;
    cz__poseidon_hash(&opt, p, tag, preimage);
    cz__poseidon_hash_plain(&plain, p, tag, preimage);
    if (!CHECK(cz_bls12381_fr_eq(&opt, &want)))
        fprintf(stderr, "arity %u: optimized digest differs\n", arity);
    if (!CHECK(cz_bls12381_fr_eq(&plain, &want)))
        fprintf(stderr, "arity %u: plain digest differs\n", arity);
}

static void test_neptune_digests(void) {
    static const struct {
        unsigned arity;
        const char *merkle, *constant_length4;
    } v[] = {
        {2, "396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff", NULL},
        {4, "58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d",
         "3a21a6ae86754a2939443980077d75934984de08542c99778935b00a07909d45"},
        {8, "2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6",
         "5c6de4b69de9d792cad8b9f8aeb1578f203e3c7c4a85c1f9370a94532f818897"},
        {11, "0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163",
         "02550c3a2113c7caef841b6bf51a5a397d2807d793af9582e9b0cb7d6496f73b"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        fr pre[CZ__POSEIDON_MAX_ARITY], tag;
        for (unsigned k = 0; k < v[i].arity; k++)
            cz_bls12381_fr_from_u64(&pre[k], k);
        cz__poseidon_tag_merkle(&tag, v[i].arity);
        check_digest(v[i].arity, &tag, pre, v[i].merkle);
        if (v[i].constant_length4 != NULL) { /* tag 4·2^64, [0, 1, 2, 3], then zeros */
            fr two64;
            for (unsigned k = 4; k < v[i].arity; k++)
                cz_bls12381_fr_zero(&pre[k]);
            cz_bls12381_fr_from_u64(&two64, UINT64_C(1) << 32);
            cz_bls12381_fr_sqr(&two64, &two64);
            cz_bls12381_fr_from_u64(&tag, 4);
            cz_bls12381_fr_mul(&tag, &tag, &two64);
            check_digest(v[i].arity, &tag, pre, v[i].constant_length4);
        }
    }
}

static void test_circuit(void) {
    static const struct {
        unsigned arity;
        size_t rows;
    } v[] = {{2, 311}, {4, 377}, {8, 505}, {11, 598}, {16, 761}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        const cz__poseidon *p;
        cz__cs cs;
        cz__num pre[CZ__POSEIDON_MAX_ARITY], out;
        fr vals[CZ__POSEIDON_MAX_ARITY], tag, want;
        cz_r1cs r;
        if (!CHECK_EQ_INT(cz__poseidon_get(&p, v[i].arity, NULL), CZ_OK) ||
            !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
            continue;
        /* a preimage of arbitrary elements: the hashes of 0, 1, ... under arity 2 */
        for (unsigned k = 0; k < v[i].arity; k++) {
            const cz__poseidon *p2;
            fr two[2];
            cz_bls12381_fr_from_u64(&two[0], k);
            cz_bls12381_fr_from_u64(&two[1], 1000 + k);
            cz__poseidon_get(&p2, 2, NULL);
            cz__poseidon_tag_merkle(&tag, 2);
            cz__poseidon_hash(&vals[k], p2, &tag, two);
            pre[k] = cz__num_alloc(&cs, &vals[k]);
        }
        cz__poseidon_tag_merkle(&tag, v[i].arity);
        out = cz__poseidon_circuit(&cs, p, &tag, pre);
        cz__poseidon_hash(&want, p, &tag, vals);
        CHECK_EQ_INT(cz__cs_status(&cs, NULL), CZ_OK);
        CHECK_EQ_INT(cs.nrows, v[i].rows);
        CHECK_EQ_INT(cs.naux, v[i].arity + v[i].rows);
        CHECK(cz_bls12381_fr_eq(&out.value, &want));
        if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
            CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_OK);
            /* an S-box output in the middle of the partial rounds, changed */
            cz_bls12381_fr_add((fr *)r.w[r.nvars / 2], (fr *)r.w[r.nvars / 2], (fr *)r.w[0]);
            CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_EVERIFY);
            cz_r1cs_free(&r);
        }
        cz__cs_free(&cs);
    }
}

static void test_bad_arity(void) {
    const cz__poseidon *p = (const cz__poseidon *)&p;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__poseidon_get(&p, 0, &ei), CZ_EINVAL);
    CHECK(p == NULL && strstr(ei.msg, "arity 0") != NULL);
    CHECK_EQ_INT(cz__poseidon_get(&p, CZ__POSEIDON_MAX_ARITY + 1, NULL), CZ_EINVAL);
}

static const test_case cases[] = {
    {"constants_files", test_constants_files},
    {"round_constants", test_round_constants},
    {"neptune_digests", test_neptune_digests},
    {"circuit", test_circuit},
    {"bad_arity", test_bad_arity},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
