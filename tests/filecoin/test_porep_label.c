/*
 * The PoRep label circuit (src/filecoin/porep_label.h) against rust-fil-proofs.
 *
 * Oracles: rust-fil-proofs' test_create_label (storage-proofs-porep circuit/create_label.rs) builds
 * the label of 38 allocated 32-byte values (the replica id and 37 parents, each allocated bit by
 * bit most significant first) for layer 3 and node 22 as constants and counts 532,025 constraints;
 * the native label (the SHA-256 of the same preimage from src/core/sha256.c, the top two bits of
 * its last byte cleared, read little-endian: create_label's truncate_hash) for the value; the r1cs
 * check, which a changed value must break. The variant the StackedDrg circuit builds (the replica
 * id through to_bits_le and the bit renumbering, the node as allocated bits) must give the
 * native label too.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "cuzk/sha256.h"
#include "filecoin/porep_label.h"
#include "test.h"

typedef cz_bls12381_fr fr;

static uint64_t prng = 0x6a09e667f3bcc908ULL;
static uint8_t rnd8(void) {
    prng ^= prng << 13;
    prng ^= prng >> 7;
    prng ^= prng << 17;
    return (uint8_t)(prng >> 24);
}

/* bytes_into_boolean_vec_be: each byte's bits allocated, most significant first. */
static void alloc_be(cz__cs *cs, cz__bool *out, const uint8_t *b, size_t n) {
    for (size_t i = 0; i < 8 * n; i++)
        out[i] = cz__bool_is(cz__bit_alloc(cs, (b[i / 8] >> (7 - i % 8)) & 1));
}

/* The native label of the preimage id ‖ layer ‖ node ‖ zeros ‖ parents. */
static void native_label(fr *out, const uint8_t id[32], uint32_t layer, uint64_t node,
                         uint8_t parents[CZ__POREP_PARENTS][32]) {
    uint8_t pre[(2 + CZ__POREP_PARENTS) * 32], h[32];
    memset(pre, 0, sizeof pre);
    memcpy(pre, id, 32);
    for (int i = 0; i < 4; i++)
        pre[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        pre[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    memcpy(pre + 64, parents, CZ__POREP_PARENTS * 32);
    cz_sha256_hash(h, pre, sizeof pre);
    h[31] &= 0x3f;
    CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(out, h), CZ_OK);
}

static int check_sat(const cz__cs *cs) {
    cz_r1cs r;
    int ok;
    if (!CHECK_EQ_INT(cz__cs_to_r1cs(&r, cs, NULL), CZ_OK))
        return 0;
    ok = CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_OK);
    r.w[r.npublic + 1 + r.naux / 3][0] ^= 1; /* a value inside the hash */
    ok &= CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_EVERIFY);
    cz_r1cs_free(&r);
    return ok;
}

/* test_create_label's circuit: 532,025 constraints, the native label. */
static void test_create_label(void) {
    static uint8_t id[32], parents[CZ__POREP_PARENTS][32];
    static cz__bool id_bits[256], par_bits[CZ__POREP_PARENTS][256];
    const cz__bool *pp[CZ__POREP_PARENTS];
    cz__bool node[64];
    cz__cs cs;
    cz__num label;
    fr want;
    for (int i = 0; i < 32; i++)
        id[i] = rnd8();
    for (int p = 0; p < CZ__POREP_PARENTS; p++)
        for (int i = 0; i < 32; i++)
            parents[p][i] = rnd8();
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
        return;
    for (int p = 0; p < CZ__POREP_PARENTS; p++) {
        alloc_be(&cs, par_bits[p], parents[p], 32);
        pp[p] = par_bits[p];
    }
    alloc_be(&cs, id_bits, id, 32);
    for (int i = 0; i < 64; i++)
        node[i] = cz__bool_const((int)((UINT64_C(22) >> i) & 1u));
    label = cz__porep_label_circuit(&cs, id_bits, 256, 3, node, pp);
    CHECK_EQ_SIZE(cs.nrows, 532025);
    native_label(&want, id, 3, 22, parents);
    CHECK(cz_bls12381_fr_eq(&label.value, &want));
    CHECK(check_sat(&cs));
    cz__cs_free(&cs);
}

/* As the StackedDrg circuit builds it: the replica id an allocated number through to_bits_le and
 * the renumbering (255 bits and a constant), the node allocated (UInt64), a layer above 1. */
static void test_circuit_form(void) {
    static uint8_t idb[32], parents[CZ__POREP_PARENTS][32];
    static cz__bool par_bits[CZ__POREP_PARENTS][256];
    const cz__bool *pp[CZ__POREP_PARENTS];
    cz__bool le[255], id_bits[256], node[64];
    const uint64_t node_index = 0x1234567ull;
    cz__cs cs;
    cz__num id, label;
    fr idv, want;
    for (int i = 0; i < 32; i++)
        idb[i] = rnd8();
    idb[31] &= 0x3f; /* a field element */
    for (int p = 0; p < CZ__POREP_PARENTS; p++)
        for (int i = 0; i < 32; i++)
            parents[p][i] = rnd8();
    if (!CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(&idv, idb), CZ_OK) ||
        !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
        return;
    id = cz__num_alloc(&cs, &idv);
    cz__num_to_bits_le(&cs, le, &id);
    CHECK_EQ_SIZE(cz__bool_reverse_bytes(id_bits, le, 255), 256);
    cz__u64_into_bits_le(&cs, node, node_index);
    for (int p = 0; p < CZ__POREP_PARENTS; p++) {
        alloc_be(&cs, par_bits[p], parents[p], 32);
        pp[p] = par_bits[p];
    }
    label = cz__porep_label_circuit(&cs, id_bits, 256, 7, node, pp);
    native_label(&want, idb, 7, node_index, parents);
    CHECK(cz_bls12381_fr_eq(&label.value, &want));
    CHECK(check_sat(&cs));
    cz__cs_free(&cs);
}

static const test_case cases[] = {{"create_label", test_create_label},
                                  {"circuit_form", test_circuit_form}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
