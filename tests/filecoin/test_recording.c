/*
 * Recorded circuits (src/filecoin/recording.h): a key fits a recording when its IC has one point
 * per public input plus ONE and its L one point per aux variable; each mismatch is refused with
 * CZ_EFORMAT naming the circuit and both counts. An assignment allocated for a recording has the
 * recording's sizes and densities (against cz_r1cs_densities of the same system), and taking the
 * witness moves its input and aux parts into place.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "filecoin/recording.h"
#include "gadgets/boolean.h"
#include "test.h"

/* A small recorded system: 2 inputs, a few bits and an and. */
static int record(cz_r1cs *r) {
    cz__cs cs;
    cz_bls12381_fr one;
    cz_bls12381_fr_one(&one);
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
        return 0;
    cz__cs_alloc_input(&cs, &one);
    cz__cs_alloc_input(&cs, &one);
    cz__bit x = cz__bit_alloc(&cs, 1), y = cz__bit_alloc(&cs, 0);
    cz__bit_and(&cs, &x, &y);
    int ok = CHECK_EQ_INT(cz__cs_to_r1cs(r, &cs, NULL), CZ_OK);
    cz__cs_free(&cs);
    return ok;
}

static void test_key_check(void) {
    cz_r1cs r;
    cz_bellperson_params key;
    cz_errinfo ei;
    if (!record(&r))
        return;
    memset(&key, 0, sizeof key);
    key.vk.nic = r.npublic + 1;
    key.nl = r.naux;
    CHECK_EQ_INT(cz__recording_key_check(&r, &key, "toy", NULL), CZ_OK);
    key.vk.nic++;
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__recording_key_check(&r, &key, "toy", &ei), CZ_EFORMAT);
    CHECK(strstr(ei.msg, "toy: the key has 3 public inputs, the circuit 2") != NULL);
    key.vk.nic--;
    key.nl--;
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__recording_key_check(&r, &key, "toy", &ei), CZ_EFORMAT);
    CHECK(strstr(ei.msg, "L points") != NULL);
    cz_r1cs_free(&r);
}

static void test_assignment(void) {
    cz_r1cs r;
    cz_assignment as;
    uint64_t(*all)[4] = NULL, *a_aux = NULL, *b_in = NULL, *b_aux = NULL;
    if (!record(&r))
        return;
    if (CHECK_EQ_INT(cz__recording_assignment_alloc(&as, &all, &r, NULL, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz_r1cs_densities(&a_aux, &b_in, &b_aux, &r, NULL, NULL), CZ_OK)) {
        CHECK_EQ_SIZE(as.abc_size, (size_t)r.nrows + r.npublic + 1);
        CHECK_EQ_SIZE(as.ninput, (size_t)r.npublic + 1);
        CHECK_EQ_SIZE(as.naux, r.naux);
        CHECK_EQ_MEM(as.a_aux_density, a_aux, (r.naux + 63) / 64 * 8);
        CHECK_EQ_MEM(as.b_aux_density, b_aux, (r.naux + 63) / 64 * 8);
        memcpy(all, r.w, r.nvars * sizeof *all);
        cz__recording_assignment_take(&as, all);
        CHECK_EQ_MEM(as.input, r.w, as.ninput * sizeof *r.w);
        CHECK_EQ_MEM(as.aux, r.w + as.ninput, as.naux * sizeof *r.w);
        cz_assignment_free(&as);
    }
    free(a_aux), free(b_in), free(b_aux);
    cz_r1cs_free(&r);
}

static const test_case cases[] = {{"key_check", test_key_check}, {"assignment", test_assignment}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
