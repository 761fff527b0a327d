/*
 * Fake PoRep sectors (src/filecoin/porep_fake.h): their partitions must satisfy the StackedDrg
 * circuit (the r1cs check on the recorded system), with the public inputs the verifier derives
 * from the replica id, the seed and the graph alone (porep_inputs.h); a changed data leaf must
 * break the system. 2 KiB for both graph versions (registered proofs 0 and 5), and one challenge
 * of a 32 GiB partition (the whole partition would be 130 M rows).
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "filecoin/porep_fake.h"
#include "test.h"

/* The circuit of p (its first n challenges) recorded and checked; its inputs against the
 * verifier's for f's partition k. Returns the r1cs check's code. */
static int check_partition(const cz__porep_fake *f, cz__porep_partition *p, unsigned k, size_t n) {
    cz__cs cs;
    cz_r1cs r;
    int rc = -1;
    p->nchallenges = n;
    if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
        return rc;
    cz__porep_circuit(&cs, &f->shape, p);
    if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
        const size_t npub = 3 + CZ__POREP_INPUTS_PER_CHALLENGE * n;
        cz_bls12381_fr *want = calloc(npub + 1, sizeof *want);
        if (CHECK(want != NULL)) {
            cz_bls12381_fr_one(&want[0]);
            cz__porep_public_inputs(&want[1], &f->graph, &f->replica_id, &f->comm_d, &f->comm_r,
                                    &f->challenges[(size_t)k * f->shape.challenges], n);
            CHECK_EQ_SIZE(r.npublic, npub);
            CHECK(memcmp(r.w, want, (npub + 1) * sizeof *want) == 0);
        }
        free(want);
        rc = cz_r1cs_check(&r, NULL, NULL, NULL);
        cz_r1cs_free(&r);
    }
    cz__cs_free(&cs);
    return rc;
}

static void test_2k(void) {
    for (uint64_t id = 0; id <= 5; id += 5) {
        cz__porep_fake f;
        cz__porep_partition p;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (!CHECK_EQ_INT(cz__porep_fake_make(&f, 2048, id, 0, 11 + id, &ei), CZ_OK)) {
            fprintf(stderr, "  %s\n", ei.msg);
            return;
        }
        CHECK_EQ_INT(f.npartitions, 1);
        cz__porep_fake_partition(&p, &f, 0);
        CHECK_EQ_INT(check_partition(&f, &p, 0, f.shape.challenges), CZ_OK);
        f.w[1].data_leaf.l[0] ^= 1; /* the second challenge's data */
        CHECK_EQ_INT(check_partition(&f, &p, 0, f.shape.challenges), CZ_EVERIFY);
        cz__porep_fake_free(&f);
    }
}

static void test_32g_one_challenge(void) {
    cz__porep_fake f;
    cz__porep_partition p;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__porep_fake_make(&f, UINT64_C(1) << 35, 8, 0, 5, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        return;
    }
    CHECK_EQ_INT(f.npartitions, 10);
    cz__porep_fake_partition(&p, &f, 7);
    CHECK_EQ_INT(check_partition(&f, &p, 7, 1), CZ_OK);
    cz__porep_fake_free(&f);
}

static const test_case cases[] = {{"fake_2k", test_2k},
                                  {"fake_32g_one_challenge", test_32g_one_challenge}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
