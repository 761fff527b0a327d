/*
 * SHA-256 in a constraint system (src/gadgets/sha256.h, uint32.h, boolean.h's ch and maj)
 * against bellperson's gadgets.
 *
 * Oracles: the FIPS 180-4 hash of src/core/sha256.c (itself checked against the standard's
 * examples) for the values; bellperson's published constraint counts (gadgets/sha256.rs tests:
 * 25,840 for one compression of 512 allocated bits, 44,874 for the hash of 512 allocated bits,
 * none for a block of constants); bellpepper's folding rules for ch and maj, written out as the
 * rows each kind of operand costs; the r1cs layer's satisfaction check on the recorded systems,
 * which a changed value must break.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "cuzk/sha256.h"
#include "gadgets/por.h"
#include "gadgets/sha256.h"
#include "test.h"

static uint64_t prng = 0x243f6a8885a308d3ULL;
static uint32_t rnd32(void) {
    prng ^= prng << 13;
    prng ^= prng >> 7;
    prng ^= prng << 17;
    return (uint32_t)(prng >> 16);
}

/* The bits of bytes, most significant first, allocated (or constants). */
static void bits_of(cz__cs *cs, cz__bool *out, const uint8_t *bytes, size_t n, int allocate) {
    for (size_t i = 0; i < 8 * n; i++) {
        int v = (bytes[i / 8] >> (7 - i % 8)) & 1;
        out[i] = allocate ? cz__bool_is(cz__bit_alloc(cs, v)) : cz__bool_const(v);
    }
}

/* The bytes of 256 bits, most significant first. */
static void bytes_of(uint8_t out[32], const cz__bool bits[256]) {
    memset(out, 0, 32);
    for (int i = 0; i < 256; i++)
        out[i / 8] |= (uint8_t)(cz__bool_value(&bits[i]) << (7 - i % 8));
}

/* CZ_OK when the recorded system is satisfied; with flip, the same after one aux value (the
 * middle one) is changed must be CZ_EVERIFY. */
static int satisfied(const cz__cs *cs, int flip) {
    cz_r1cs r;
    int rc;
    if (cz__cs_to_r1cs(&r, cs, NULL) != CZ_OK)
        return -1;
    if (flip && r.naux > 0) {
        uint64_t *w = r.w[r.npublic + 1 + r.naux / 2];
        w[0] ^= 1;
    }
    rc = cz_r1cs_check(&r, NULL, NULL, NULL);
    cz_r1cs_free(&r);
    return rc;
}

/* ---- ch and maj ---- */

static int is_k(int kind) {
    return kind == 2;
}

/* Rows of an and of operands of these kinds (0 bit, 1 negated bit, 2 constant). */
static size_t and_rows(int kx, int ky) {
    return is_k(kx) || is_k(ky) ? 0 : 1;
}

/* bellpepper's Boolean::sha256_ch / sha256_maj match arms, as rows */
static size_t ch_rows(int ka, int kb, int kc, int va, int vb, int vc) {
    if (is_k(ka) && is_k(kb) && is_k(kc))
        return 0;
    if (is_k(ka) && !va)
        return 0;
    if (is_k(kb) && !vb)
        return and_rows(ka, kc);
    if (is_k(kc) && !vc)
        return and_rows(ka, kb);
    if (is_k(kc))
        return and_rows(ka, kb);
    if (is_k(kb))
        return and_rows(ka, kc);
    return 1;
}

static size_t maj_rows(int ka, int kb, int kc) {
    if (is_k(ka) && is_k(kb) && is_k(kc))
        return 0;
    if (is_k(ka))
        return and_rows(kb, kc);
    if (is_k(kb))
        return and_rows(ka, kc);
    if (is_k(kc))
        return and_rows(ka, kb);
    return 2;
}

static cz__bool operand(cz__cs *cs, int kind, int v) {
    cz__bool t;
    if (kind == 2)
        return cz__bool_const(v);
    t = cz__bool_is(cz__bit_alloc(cs, kind ? !v : v));
    return kind ? cz__bool_not(&t) : t;
}

/* Every kind and value of the three operands: the value, the rows it costs, a satisfied system. */
static void test_ch_maj(void) {
    int bad = 0;
    for (int k = 0; k < 27 * 8; k++) {
        const int ka = k % 3, kb = (k / 3) % 3, kc = (k / 9) % 3;
        const int va = (k / 27) & 1, vb = (k / 54) & 1, vc = (k / 108) & 1;
        for (int op = 0; op < 2; op++) {
            cz__cs cs;
            cz__bool a, b, c, r;
            size_t rows;
            if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
                return;
            a = operand(&cs, ka, va);
            b = operand(&cs, kb, vb);
            c = operand(&cs, kc, vc);
            rows = cs.nrows;
            r = op ? cz__bool_sha256_maj(&cs, &a, &b, &c) : cz__bool_sha256_ch(&cs, &a, &b, &c);
            if (cz__bool_value(&r) !=
                    (op ? (va & vb) ^ (va & vc) ^ (vb & vc) : (va & vb) ^ ((!va) & vc)) ||
                cs.nrows - rows != (op ? maj_rows(ka, kb, kc) : ch_rows(ka, kb, kc, va, vb, vc)) ||
                satisfied(&cs, 0) != CZ_OK) {
                if (bad++ < 5)
                    fprintf(stderr, "  %s kinds %d%d%d values %d%d%d: value %d, %zu rows\n",
                            op ? "maj" : "ch", ka, kb, kc, va, vb, vc, cz__bool_value(&r),
                            cs.nrows - rows);
            }
            cz__cs_free(&cs);
        }
    }
    CHECK_EQ_INT(bad, 0);
}

/* ---- words ---- */

/* addmany: the sum mod 2^32, bitlen(n·(2^32 - 1)) result bits (33, 34, 34, 35 rows for 2-5
 * operands plus the MultiEq flush), constants folded, and a satisfied system. */
static void test_addmany(void) {
    static const unsigned want_bits[6] = {0, 0, 33, 34, 34, 35};
    for (size_t n = 2; n <= 5; n++) {
        cz__cs cs;
        cz__multieq m;
        cz__u32 ops[5], r, k;
        uint32_t sum = 0;
        size_t rows;
        if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
            return;
        cz__multieq_init(&m, &cs);
        for (size_t i = 0; i < n; i++) {
            uint32_t v = rnd32();
            cz__bool bits[32];
            uint8_t be[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
            bits_of(&cs, bits, be, 4, 1);
            ops[i] = cz__u32_from_bits_be(bits);
            CHECK_EQ_U64(ops[i].value, v);
            sum += v;
        }
        rows = cs.nrows;
        r = cz__u32_addmany(&cs, &m, ops, n);
        CHECK_EQ_U64(r.value, sum);
        CHECK_EQ_SIZE(cs.nrows - rows, want_bits[n]);
        cz__multieq_finish(&m);
        CHECK_EQ_SIZE(cs.nrows - rows, want_bits[n] + 1);
        CHECK_EQ_INT(satisfied(&cs, 0), CZ_OK);
        CHECK_EQ_INT(satisfied(&cs, 1), CZ_EVERIFY);
        /* constants alone: no row */
        cz__multieq_init(&m, &cs);
        ops[0] = cz__u32_const(0xfffffff0u);
        ops[1] = cz__u32_const(0x20u);
        rows = cs.nrows;
        k = cz__u32_addmany(&cs, &m, ops, 2);
        cz__multieq_finish(&m);
        CHECK(k.value == 0x10u && cs.nrows == rows && k.bits[4].kind == CZ__BOOL_CONST);
        cz__cs_free(&cs);
    }
}

/* ---- the hash ---- */

/* The constant block of the empty message hashes to SHA-256("") with no constraint
 * (bellperson's test_blank_hash). */
static void test_blank_block(void) {
    cz__cs cs;
    cz__bool in[512], out[256];
    uint8_t got[32], want[32];
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
        return;
    for (int i = 0; i < 512; i++)
        in[i] = cz__bool_const(i == 0);
    cz__sha256_block(&cs, out, in);
    bytes_of(got, out);
    cz_sha256_hash(want, "", 0);
    CHECK_EQ_MEM(got, want, 32);
    CHECK_EQ_SIZE(cs.nrows, 0);
    cz__cs_free(&cs);
}

/* One compression of 512 allocated bits: 25,840 rows besides the bits' own, and the value of a
 * 55-byte message whose padding fits its one block. */
static void test_compression(void) {
    cz__cs cs;
    cz__bool *in = malloc(512 * sizeof *in), out[256];
    uint8_t msg[64], got[32], want[32];
    if (!CHECK(in != NULL) ||
        !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK)) {
        free(in);
        return;
    }
    for (int i = 0; i < 55; i++)
        msg[i] = (uint8_t)rnd32();
    memset(msg + 55, 0, 9);
    msg[55] = 0x80;
    msg[62] = (55 * 8) >> 8; /* the length in bits, big-endian, in the last two bytes */
    msg[63] = (55 * 8) & 0xff;
    bits_of(&cs, in, msg, 64, 1);
    CHECK_EQ_SIZE(cs.nrows, 512);
    cz__sha256_block(&cs, out, in);
    CHECK_EQ_SIZE(cs.nrows - 512, 25840);
    bytes_of(got, out);
    cz_sha256_hash(want, msg, 55);
    CHECK_EQ_MEM(got, want, 32);
    CHECK_EQ_INT(satisfied(&cs, 0), CZ_OK);
    CHECK_EQ_INT(satisfied(&cs, 1), CZ_EVERIFY);
    cz__cs_free(&cs);
    free(in);
}

/* The hash of 512 allocated bits (two blocks): 44,874 rows besides the bits'; the structure does
 * not depend on the values (a blank recording has the same rows and variables). */
static void test_hash_512(void) {
    cz__cs cs, blank;
    cz__bool *in = malloc(512 * sizeof *in), out[256];
    uint8_t msg[64], got[32], want[32];
    if (!CHECK(in != NULL) ||
        !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK)) {
        free(in);
        return;
    }
    for (int i = 0; i < 64; i++)
        msg[i] = (uint8_t)rnd32();
    bits_of(&cs, in, msg, 64, 1);
    cz__sha256(&cs, out, in, 512);
    CHECK_EQ_SIZE(cs.nrows - 512, 44874);
    bytes_of(got, out);
    cz_sha256_hash(want, msg, 64);
    CHECK_EQ_MEM(got, want, 32);
    CHECK_EQ_INT(satisfied(&cs, 0), CZ_OK);
    if (CHECK_EQ_INT(cz__cs_init(&blank, CZ__CS_RECORD, 0, NULL), CZ_OK)) {
        memset(msg, 0, sizeof msg);
        bits_of(&blank, in, msg, 64, 1);
        cz__sha256(&blank, out, in, 512);
        CHECK_EQ_SIZE(blank.nrows, cs.nrows);
        CHECK_EQ_SIZE(blank.naux, cs.naux);
        cz__cs_free(&blank);
    }
    cz__cs_free(&cs);
    free(in);
}

/* Messages of 0 to 130 bytes (one to three blocks, every padding case), allocated bits, against
 * the native hash (bellperson's test_against_vectors), each system satisfied. */
static void test_lengths(void) {
    static const size_t lens[] = {0, 1, 31, 55, 56, 63, 64, 65, 119, 120, 130};
    for (size_t t = 0; t < sizeof lens / sizeof lens[0]; t++) {
        const size_t n = lens[t];
        cz__cs cs;
        cz__bool *in = malloc((8 * n + 1) * sizeof *in), out[256];
        uint8_t msg[130], got[32], want[32];
        if (!CHECK(in != NULL) ||
            !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK)) {
            free(in);
            return;
        }
        for (size_t i = 0; i < n; i++)
            msg[i] = (uint8_t)rnd32();
        bits_of(&cs, in, msg, n, 1);
        cz__sha256(&cs, out, in, 8 * n);
        bytes_of(got, out);
        cz_sha256_hash(want, msg, n);
        if (!CHECK_EQ_MEM(got, want, 32) || !CHECK_EQ_INT(satisfied(&cs, 0), CZ_OK))
            fprintf(stderr, "  %zu bytes\n", n);
        cz__cs_free(&cs);
        free(in);
    }
}

/* ---- tree D ---- */

/* rust-fil-proofs' SHA-256 node, natively: SHA-256(left ‖ right), top two bits cleared. */
static void node_native(uint8_t out[32], const uint8_t l[32], const uint8_t r[32]) {
    uint8_t pre[64];
    memcpy(pre, l, 32);
    memcpy(pre + 32, r, 32);
    cz_sha256_hash(out, pre, 64);
    out[31] &= 0x3f;
}

/* A path of a 64-leaf binary SHA-256 tree (a 2 KiB sector's tree D) built natively: inclusion
 * holds for the native root, with 45,382 rows a level and 2 more (the index bits packed into one
 * input whose value is the leaf's index, and the root equality); another root breaks it. */
static void test_tree_d_path(void) {
    static uint8_t nodes[127][32]; /* leaves 0..63, then each level's nodes */
    const unsigned leaf = 45, nlevels = 6;
    cz_bls12381_fr sib[6], leaf_v, root_v;
    cz__path_level path[6];
    for (int i = 0; i < 64; i++) {
        for (int k = 0; k < 32; k++)
            nodes[i][k] = (uint8_t)rnd32();
        nodes[i][31] &= 0x3f;
    }
    for (int lvl = 0, at = 0, n = 64; n > 1; at += n, n /= 2, lvl++)
        for (int i = 0; i < n / 2; i++)
            node_native(nodes[at + n + i], nodes[at + 2 * i], nodes[at + 2 * i + 1]);
    for (unsigned l = 0, at = 0, n = 64, idx = leaf; l < nlevels; at += n, n /= 2, idx /= 2, l++) {
        CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(&sib[l], nodes[at + (idx ^ 1u)]), CZ_OK);
        path[l].arity = 2;
        path[l].index = idx & 1u;
        path[l].siblings = &sib[l];
    }
    CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(&leaf_v, nodes[leaf]), CZ_OK);
    CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(&root_v, nodes[126]), CZ_OK);
    for (int wrong = 0; wrong < 2; wrong++) {
        cz__cs cs;
        cz__num root, lnum;
        cz_bls12381_fr rv = root_v, idx;
        if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
            return;
        if (wrong)
            rv.l[0] ^= 1;
        root = cz__num_alloc(&cs, &rv);
        lnum = cz__num_alloc(&cs, &leaf_v);
        cz__por_circuit(&cs, CZ__TREE_SHA256, &lnum, path, nlevels, &root, 1);
        CHECK_EQ_INT(cz__cs_status(&cs, NULL), CZ_OK);
        CHECK_EQ_SIZE(cs.nrows, nlevels * 45382 + 2);
        CHECK_EQ_SIZE(cs.ninput, 2);
        cz_bls12381_fr_from_u64(&idx, leaf);
        CHECK(cz_bls12381_fr_eq(&cs.input[1], &idx));
        CHECK_EQ_INT(satisfied(&cs, 0), wrong ? CZ_EVERIFY : CZ_OK);
        cz__cs_free(&cs);
    }
}

static const test_case cases[] = {
    {"ch_maj", test_ch_maj},           {"addmany", test_addmany},
    {"blank_block", test_blank_block}, {"compression", test_compression},
    {"hash_512", test_hash_512},       {"lengths", test_lengths},
    {"tree_d_path", test_tree_d_path},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
