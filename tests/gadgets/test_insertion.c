/*
 * pick, select and insert (src/gadgets/insertion.h) against rust-fil-proofs' own tests of
 * insertion.rs: for every size 2..16 and every index, select returns the element at the index
 * with size - 1 rows, and insert places the element at the index, the others in order, with the
 * published row counts (insert_8: 22, insert_4: 8, otherwise size·(size - 1)); every recorded
 * system satisfies the r1cs check, and the result changed breaks it.
 */
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "gadgets/insertion.h"
#include "test.h"

static int check_satisfied(const cz__cs *cs, int want) {
    cz_r1cs r;
    int rc;
    if (cz__cs_to_r1cs(&r, cs, NULL) != CZ_OK)
        return CHECK(0);
    rc = cz_r1cs_check(&r, NULL, NULL, NULL);
    cz_r1cs_free(&r);
    return CHECK_EQ_INT(rc, want);
}

/* size elements of distinct values 1000·seed + i, and the index bits (allocated, lsb first). */
static void setup(cz__cs *cs, cz__num *el, cz__bool *bits, unsigned log_size, size_t index,
                  unsigned seed) {
    for (size_t i = 0; i < ((size_t)1 << log_size); i++) {
        cz_bls12381_fr v;
        cz_bls12381_fr_from_u64(&v, 1000u * seed + i);
        el[i] = cz__num_alloc(cs, &v);
    }
    for (unsigned i = 0; i < log_size; i++)
        bits[i] = cz__bool_is(cz__bit_alloc(cs, (int)((index >> i) & 1u)));
}

static void test_select(void) {
    for (unsigned log_size = 1; log_size <= 4; log_size++) {
        const size_t size = (size_t)1 << log_size;
        for (size_t index = 0; index < size; index++) {
            cz__cs cs;
            cz__num el[16], r;
            cz__bool bits[4];
            size_t rows;
            if (cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL) != CZ_OK) {
                CHECK(0);
                return;
            }
            setup(&cs, el, bits, log_size, index, 1);
            rows = cs.nrows;
            CHECK_EQ_INT(rows, log_size);
            r = cz__select(&cs, el, bits, log_size);
            CHECK(cz_bls12381_fr_eq(&r.value, &el[index].value));
            CHECK_EQ_INT(cs.nrows - rows, size - 1);
            check_satisfied(&cs, CZ_OK);
            cz__cs_free(&cs);
        }
    }
}

static void test_insert(void) {
    for (unsigned log_size = 1; log_size <= 4; log_size++) {
        const size_t size = (size_t)1 << log_size;
        for (size_t index = 0; index < size; index++) {
            cz__cs cs;
            cz__num el[16], out[16], elem;
            cz__bool bits[4];
            cz_bls12381_fr v;
            size_t rows, want_rows = size == 8 ? 22 : size == 4 ? 8 : size * (size - 1);
            int order = 1;
            if (cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL) != CZ_OK) {
                CHECK(0);
                return;
            }
            setup(&cs, el, bits, log_size, index, 2); /* el[0..size-2] are the others */
            cz_bls12381_fr_from_u64(&v, 77777);
            elem = cz__num_alloc(&cs, &v);
            rows = cs.nrows;
            cz__insert(&cs, out, &elem, bits, log_size, el);
            CHECK_EQ_INT(cs.nrows - rows, want_rows);
            for (size_t pos = 0; pos < size; pos++) {
                const cz__num *want = pos < index ? &el[pos] : pos == index ? &elem : &el[pos - 1];
                order &= cz_bls12381_fr_eq(&out[pos].value, &want->value);
            }
            CHECK(order);
            check_satisfied(&cs, CZ_OK);
            /* the inserted element's slot changed: its pick row fails */
            cz_bls12381_fr_add(&cs.aux[cz__var_index(out[index].var)],
                               &cs.aux[cz__var_index(out[index].var)], &cs.input[0]);
            check_satisfied(&cs, CZ_EVERIFY);
            cz__cs_free(&cs);
        }
    }
}

/* insert_8 refuses negated bits with an error, as rust-fil-proofs panics. */
static void test_insert_8_bits(void) {
    cz__cs cs;
    cz__num el[8], out[8];
    cz__bool bits[3];
    cz_errinfo ei;
    if (cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL) != CZ_OK) {
        CHECK(0);
        return;
    }
    setup(&cs, el, bits, 3, 5, 3);
    bits[1] = cz__bool_not(&bits[1]);
    cz__insert(&cs, out, &el[7], bits, 3, el);
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__cs_status(&cs, &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "insert_8") != NULL);
    cz__cs_free(&cs);
}

static const test_case cases[] = {
    {"select", test_select}, {"insert", test_insert}, {"insert_8_bits", test_insert_8_bits}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
