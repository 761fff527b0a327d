/*
 * The StackedDrg partition circuit (src/filecoin/porep_circuit.h), its structure against the
 * published figures.
 *
 * Oracles: rust-fil-proofs' PR #1325 circuit info for a 32 GiB PoRep partition, 130,278,541
 * synthesized constraints and 328 inputs (ONE included), and the 130,169,893 aux that Curio's cuzk
 * measured on the same circuit (porep.md §1.4); the 2 KiB partition's figures from the gadget model
 * that reproduces those (2,687,921 constraints, 40 inputs, 2,685,673 aux; the 40 inputs also give
 * the published 4.6 KB size of its verifying key). The 32 GiB partition is counted from one and two
 * blank challenges (the structure does not depend on the values, so the 18 challenges of a
 * partition are the same), in a system that counts without recording.
 */
#include <string.h>

#include "cs/cs.h"
#include "filecoin/porep_circuit.h"
#include "test.h"

/* Rows, inputs (ONE included) and aux of a blank partition of n challenges. */
static int count(const cz__porep_shape *shape, size_t n, cz__cs_mode mode, size_t *rows,
                 size_t *inputs, size_t *aux) {
    cz__cs cs;
    cz_errinfo ei;
    int ok;
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__cs_init(&cs, mode, 0, NULL), CZ_OK))
        return 0;
    ok = CHECK_EQ_INT(cz__porep_circuit_blank(&cs, shape, n, &ei), CZ_OK);
    if (!ok)
        fprintf(stderr, "  %s\n", ei.msg);
    *rows = cs.nrows;
    *inputs = cs.ninput;
    *aux = cs.naux;
    cz__cs_free(&cs);
    return ok;
}

static void test_shapes(void) {
    static const uint64_t sizes[5] = {UINT64_C(1) << 11, UINT64_C(1) << 23, UINT64_C(1) << 29,
                                      UINT64_C(1) << 35, UINT64_C(1) << 36};
    static const unsigned d[5] = {6, 18, 24, 30, 31}, rc[5] = {2, 6, 8, 10, 11};
    cz__porep_shape s;
    for (int i = 0; i < 5; i++)
        if (CHECK_EQ_INT(cz__porep_shape_get(&s, sizes[i], NULL), CZ_OK)) {
            CHECK_EQ_INT(s.levels_d, d[i]);
            CHECK_EQ_INT(s.levels_rc, rc[i]);
            CHECK_EQ_INT(s.layers, i < 3 ? 2 : 11);
            CHECK_EQ_INT(s.challenges, i < 3 ? 2 : 18);
        }
    CHECK_EQ_INT(cz__porep_shape_get(&s, 4096, NULL), CZ_EINVAL);
}

static void test_2k(void) {
    cz__porep_shape s;
    size_t rows, inputs, aux;
    if (CHECK_EQ_INT(cz__porep_shape_get(&s, 2048, NULL), CZ_OK) &&
        count(&s, 0, CZ__CS_RECORD, &rows, &inputs, &aux)) {
        CHECK_EQ_SIZE(rows, 2687921);
        CHECK_EQ_SIZE(inputs, 40);
        CHECK_EQ_SIZE(aux, 2685673);
    }
}

static void test_32g(void) {
    cz__porep_shape s;
    size_t r1, i1, a1, r2, i2, a2;
    if (CHECK_EQ_INT(cz__porep_shape_get(&s, UINT64_C(1) << 35, NULL), CZ_OK) &&
        count(&s, 1, CZ__CS_WITNESS, &r1, &i1, &a1) &&
        count(&s, 2, CZ__CS_WITNESS, &r2, &i2, &a2)) {
        const size_t top_r = 2 * r1 - r2, top_i = 2 * i1 - i2, top_a = 2 * a1 - a2;
        CHECK_EQ_SIZE(top_r + 18 * (r2 - r1), 130278541);
        CHECK_EQ_SIZE(top_i + 18 * (i2 - i1), 328);
        CHECK_EQ_SIZE(top_a + 18 * (a2 - a1), 130169893);
    }
}

static const test_case cases[] = {
    {"shapes", test_shapes}, {"partition_2k", test_2k}, {"partition_32g", test_32g}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
