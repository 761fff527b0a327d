/*
 * The fallback PoSt circuit (src/filecoin/post_circuit.h).
 *
 * Oracles: the published sizes of the circuits (rust-fil-proofs PR #1325 and the comments of
 * filecoin-proofs' constants.rs: WinningPoSt 32 GiB 370,590 constraints and 133 inputs,
 * WindowPoSt 32 GiB 125,279,217 = 2349 sectors of 53,333, 64 GiB 129,887,900 = 2300 sectors of
 * 56,473), and the aux counts of the model in
 * the research notes that reproduces them (WinningPoSt 32 GiB 375,210; 2 KiB: WinningPoSt
 * 90,750 / 133 / 91,674, WindowPoSt 21,866 / 23 / 22,128); a real 2 KiB instance
 * (post_fixture.h), whose recorded system must satisfy the r1cs check with comm_r and the
 * challenged leaf indices as its inputs, and must not with a wrong sibling.
 */
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "filecoin/post_circuit.h"
#include "gadgets/poseidon.h"
#include "post_fixture.h"
#include "test.h"

typedef cz_bls12381_fr fr;

static void check_shape(const char *what, const cz__tree_shape *shape, uint64_t nleaves,
                        size_t nsectors, unsigned nchallenges, size_t rows, size_t inputs,
                        size_t aux) {
    cz__cs cs;
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, 0, NULL), CZ_OK))
        return;
    CHECK_EQ_INT(cz__post_circuit_blank(&cs, shape, nleaves, nsectors, nchallenges, NULL), CZ_OK);
    if (!CHECK_EQ_INT(cs.nrows, rows) | !CHECK_EQ_INT(cs.ninput, inputs) |
        !CHECK_EQ_INT(cs.naux, aux))
        fprintf(stderr, "%s: %zu rows, %zu inputs, %zu aux\n", what, cs.nrows, cs.ninput, cs.naux);
    cz__cs_free(&cs);
}

static void test_sizes(void) {
    const cz__tree_shape s2k = {8, 0, 0}, s32g = {8, 8, 0};
    check_shape("WinningPoSt 2 KiB", &s2k, 64, 66, 1, 90750, 133, 91674);
    check_shape("WindowPoSt 2 KiB", &s2k, 64, 2, 10, 21866, 23, 22128);
    check_shape("WinningPoSt 32 GiB", &s32g, UINT64_C(1) << 30, 66, 1, 370590, 133, 375210);
    /* one sector of a 32 GiB WindowPoSt partition: 2349 of them make 125,279,217 rows */
    check_shape("WindowPoSt 32 GiB sector", &s32g, UINT64_C(1) << 30, 1, 10, 53333, 12, 54024);
    CHECK_EQ_INT(2349u * 54024u, 126902376u); /* the model's aux for the partition */
    CHECK_EQ_INT(2349u * 53333u, 125279217u);
    /* 64 GiB (8-8-2): 2300 sectors of 56,473 rows make the published 129,887,900 */
    {
        const cz__tree_shape s64g = {8, 8, 2};
        check_shape("WindowPoSt 64 GiB sector", &s64g, UINT64_C(1) << 31, 1, 10, 56473, 12, 57174);
        CHECK_EQ_INT(2300u * 56473u, 129887900u);
        CHECK_EQ_INT(2300u * 57174u, 131500200u); /* the model's aux for the partition */
    }
    CHECK_EQ_INT(cz__tree_path_levels(&s32g, UINT64_C(1) << 30), 10);
    CHECK_EQ_INT(cz__tree_path_levels(&s2k, 64), 2);
    CHECK_EQ_INT(cz__tree_path_levels(&s2k, 96), 0);
}

static void test_satisfied(void) {
    static const unsigned challenges[3] = {5, 63, 42};
    static pf_sector x;
    cz__cs cs;
    cz_r1cs r;
    fr one;
    pf_sector_make(&x, 7, challenges, 3);
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
        return;
    cz__post_circuit(&cs, &x.s, 1);
    CHECK_EQ_INT(cz__cs_status(&cs, NULL), CZ_OK);
    CHECK_EQ_INT(cs.nrows, 313 + 3 * (2 * 530 + 2));
    if (CHECK_EQ_INT(cs.ninput, 1 + 1 + 3)) {
        CHECK(cz_bls12381_fr_eq(&cs.input[1], &x.s.comm_r));
        for (unsigned c = 0; c < 3; c++) {
            fr want;
            cz_bls12381_fr_from_u64(&want, challenges[c]);
            CHECK(cz_bls12381_fr_eq(&cs.input[2 + c], &want));
        }
    }
    if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_OK);
        cz_r1cs_free(&r);
    }
    cz__cs_free(&cs);

    /* a wrong sibling: the path no longer reaches comm_r_last */
    cz_bls12381_fr_one(&one);
    cz_bls12381_fr_add(&x.sib[1][1][3], &x.sib[1][1][3], &one);
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
        return;
    cz__post_circuit(&cs, &x.s, 1);
    if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
        CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), CZ_EVERIFY);
        cz_r1cs_free(&r);
    }
    cz__cs_free(&cs);
}

static const test_case cases[] = {{"sizes", test_sizes}, {"satisfied", test_satisfied}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
