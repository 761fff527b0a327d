/*
 * Bits and numbers (src/gadgets/boolean.h, num.h) against bellpepper's gadgets.
 *
 * Oracles: the truth tables of xor, and, or over every pairing of allocated, negated and
 * constant operands; bellpepper's folding rules, written out as the number of constraints each
 * pairing must cost (none when an operand is constant); the shapes of its rows (the boolean
 * constraint (ONE - b)·b = 0 has A = {ONE: 1, b: -1}, B = {b: 1}, C = {}); the r1cs layer's
 * satisfaction check on the recorded systems, which a wrong value must break; and the bits of a
 * field element read from its canonical bytes.
 */
#include <string.h>

#include "cs/cs.h"
#include "cuzk/field.h"
#include "cuzk/r1cs.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"
#include "test.h"

static int rec(cz__cs *cs) {
    return CHECK_EQ_INT(cz__cs_init(cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK);
}

/* The recorded system is satisfied (CZ_OK) or not (CZ_EVERIFY). */
static int satisfied(const cz__cs *cs) {
    cz_r1cs r;
    int rc;
    if (cz__cs_to_r1cs(&r, cs, NULL) != CZ_OK)
        return -1;
    rc = cz_r1cs_check(&r, NULL, NULL, NULL);
    cz_r1cs_free(&r);
    return rc;
}

static void test_bit_alloc(void) {
    cz__cs cs;
    cz_r1cs r;
    cz__bit b0, b1;
    if (!rec(&cs))
        return;
    b0 = cz__bit_alloc(&cs, 0);
    b1 = cz__bit_alloc(&cs, 1);
    CHECK(b0.value == 0 && b1.value == 1 && cs.nrows == 2 && cs.naux == 2);
    if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
        cz_bls12381_fr two;
        /* row 1: A = ONE - b1 (variables 0 and 2), B = b1, C empty */
        CHECK_EQ_INT(r.a.row_ptr[2] - r.a.row_ptr[1], 2);
        CHECK_EQ_INT(r.b.row_ptr[2] - r.b.row_ptr[1], 1);
        CHECK_EQ_INT(r.c.row_ptr[2], 0);
        CHECK_EQ_INT(r.b.var[1], 2);
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_OK);
        cz_bls12381_fr_from_u64(&two, 2); /* a "bit" of value 2 breaks its row */
        memcpy(r.w[2], &two, sizeof two);
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_EVERIFY);
        cz_r1cs_free(&r);
    }
    cz__cs_free(&cs);
}

/* Every pairing of kinds (allocated, negated, constant) and values: the result's value, and the
 * rows it costs (bellpepper folds constants: none; else one). */
static void test_ops_tables(void) {
    cz__cs cs;
    if (!rec(&cs))
        return;
    for (int ka = 0; ka < 3; ka++)
        for (int kb = 0; kb < 3; kb++)
            for (int va = 0; va < 2; va++)
                for (int vb = 0; vb < 2; vb++) {
                    cz__bool a, b, r;
                    size_t rows;
                    const int any_const = ka == 2 || kb == 2;
                    /* kind 0: a bit of the value; 1: NOT of a bit of the negated value; 2: a
                     * constant */
                    if (ka == 2) {
                        a = cz__bool_const(va);
                    } else {
                        cz__bool t = cz__bool_is(cz__bit_alloc(&cs, ka ? !va : va));
                        a = ka ? cz__bool_not(&t) : t;
                    }
                    if (kb == 2) {
                        b = cz__bool_const(vb);
                    } else {
                        cz__bool t = cz__bool_is(cz__bit_alloc(&cs, kb ? !vb : vb));
                        b = kb ? cz__bool_not(&t) : t;
                    }
                    CHECK(cz__bool_value(&a) == va && cz__bool_value(&b) == vb);
                    rows = cs.nrows;
                    r = cz__bool_xor(&cs, &a, &b);
                    CHECK_EQ_INT(cz__bool_value(&r), va ^ vb);
                    CHECK_EQ_INT(cs.nrows - rows, any_const ? 0 : 1);
                    rows = cs.nrows;
                    r = cz__bool_and(&cs, &a, &b);
                    CHECK_EQ_INT(cz__bool_value(&r), va & vb);
                    CHECK_EQ_INT(cs.nrows - rows, any_const ? 0 : 1);
                    rows = cs.nrows;
                    r = cz__bool_or(&cs, &a, &b);
                    CHECK_EQ_INT(cz__bool_value(&r), va | vb);
                    CHECK_EQ_INT(cs.nrows - rows, any_const ? 0 : 1);
                    /* the result equals its value as a constant */
                    {
                        cz__bool k = cz__bool_const(va | vb);
                        cz__bool_enforce_equal(&cs, &r, &k);
                    }
                }
    CHECK_EQ_INT(cz__cs_status(&cs, NULL), CZ_OK);
    CHECK_EQ_INT(satisfied(&cs), CZ_OK);
    cz__cs_free(&cs);
}

static void test_enforce_equal(void) {
    cz__cs cs;
    cz__bool a, b, k0, k1;
    cz_errinfo ei;
    if (!rec(&cs))
        return;
    a = cz__bool_is(cz__bit_alloc(&cs, 1));
    b = cz__bool_is(cz__bit_alloc(&cs, 1));
    cz__bool_enforce_equal(&cs, &a, &b);
    CHECK_EQ_INT(satisfied(&cs), CZ_OK);
    b = cz__bool_is(cz__bit_alloc(&cs, 0));
    cz__bool_enforce_equal(&cs, &a, &b); /* 1 = 0: the row fails */
    CHECK_EQ_INT(satisfied(&cs), CZ_EVERIFY);
    cz__cs_free(&cs);
    if (!rec(&cs))
        return;
    k0 = cz__bool_const(0);
    k1 = cz__bool_const(1);
    cz__bool_enforce_equal(&cs, &k0, &k0);
    CHECK_EQ_INT(cs.nrows, 0);
    cz__bool_enforce_equal(&cs, &k0, &k1);
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__cs_status(&cs, &ei), CZ_EVERIFY);
    CHECK(strstr(ei.msg, "constants") != NULL);
    cz__cs_free(&cs);
}

static void test_num_bits(void) {
    cz__cs cs;
    cz__num n;
    cz__bool bits[255];
    cz_bls12381_fr v;
    uint8_t le[32];
    int ok = 1;
    if (!rec(&cs))
        return;
    cz_bls12381_fr_from_dec(&v, "4520986120789172397412347891239847123984712398471239847123947129");
    n = cz__num_alloc(&cs, &v);
    CHECK_EQ_INT(cs.nrows, 0);
    cz__num_to_bits_le(&cs, bits, &n);
    CHECK_EQ_INT(cs.nrows, 256); /* 255 boolean constraints and the packing one */
    CHECK_EQ_INT(cs.naux, 1 + 255);
    cz_bls12381_fr_to_bytes_le(le, &v);
    for (int i = 0; i < 255; i++)
        ok &= cz__bool_value(&bits[i]) == ((le[i / 8] >> (i % 8)) & 1);
    CHECK(ok);
    CHECK_EQ_INT(satisfied(&cs), CZ_OK);
    cz__num_inputize(&cs, &n);
    CHECK(cs.ninput == 2 && cs.nrows == 257);
    CHECK_EQ_INT(satisfied(&cs), CZ_OK);
    if (cs.values) /* a wrong input value breaks input·ONE = n */
        cz_bls12381_fr_add(&cs.input[1], &cs.input[1], &cs.input[0]);
    CHECK_EQ_INT(satisfied(&cs), CZ_EVERIFY);
    cz__cs_free(&cs);
}

/* 300 bits (a u64 pattern, negations and constants among them) packed into 254 + 46. */
static void test_pack_into_inputs(void) {
    cz__cs cs;
    cz__bool bits[300];
    uint8_t le[2][32];
    cz_bls12381_fr want[2];
    if (!rec(&cs))
        return;
    memset(le, 0, sizeof le);
    for (int i = 0; i < 300; i++) {
        const int v = (int)(((UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(i + 1)) >> 60) & 1);
        if (i % 7 == 3) {
            bits[i] = cz__bool_const(v);
        } else {
            cz__bool t = cz__bool_is(cz__bit_alloc(&cs, i % 5 == 0 ? !v : v));
            bits[i] = i % 5 == 0 ? cz__bool_not(&t) : t;
        }
        if (v)
            le[i / 254][(i % 254) / 8] |= (uint8_t)(1u << ((i % 254) % 8));
    }
    CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(&want[0], le[0]), CZ_OK);
    CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(&want[1], le[1]), CZ_OK);
    {
        const size_t rows = cs.nrows;
        cz__pack_into_inputs(&cs, bits, 300);
        CHECK_EQ_INT(cs.nrows - rows, 2);
    }
    CHECK_EQ_INT(cs.ninput, 3);
    CHECK(cz_bls12381_fr_eq(&cs.input[1], &want[0]) && cz_bls12381_fr_eq(&cs.input[2], &want[1]));
    CHECK_EQ_INT(satisfied(&cs), CZ_OK);
    cz__cs_free(&cs);
}

static void test_u64_bits(void) {
    cz__cs cs;
    cz__bool bits[64];
    uint64_t back = 0;
    if (!rec(&cs))
        return;
    cz__u64_into_bits_le(&cs, bits, UINT64_C(0xfedcba9876543210));
    for (int i = 0; i < 64; i++)
        back |= (uint64_t)cz__bool_value(&bits[i]) << i;
    CHECK(back == UINT64_C(0xfedcba9876543210));
    CHECK(cs.nrows == 64 && cs.naux == 64);
    CHECK_EQ_INT(satisfied(&cs), CZ_OK);
    cz__cs_free(&cs);
}

static const test_case cases[] = {
    {"bit_alloc", test_bit_alloc},
    {"ops_tables", test_ops_tables},
    {"enforce_equal", test_enforce_equal},
    {"num_bits", test_num_bits},
    {"pack_into_inputs", test_pack_into_inputs},
    {"u64_bits", test_u64_bits},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
