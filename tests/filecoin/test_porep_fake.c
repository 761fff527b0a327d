/*
 * Fake PoRep sectors (src/filecoin/porep_fake.h) and the native check of a C1's proofs
 * (porep_vanilla.h).
 *
 * A fake sector's partitions must pass the native check, and their witness must satisfy the
 * StackedDrg circuit (the r1cs check on the recorded system) with the public inputs the verifier
 * derives from the replica id, the seed and the graph alone (porep_inputs.h): 2 KiB for both graph
 * versions (registered proofs 0 and 5; under a sanitizer 5 only), and one challenge of a 32 GiB
 * partition (the whole partition would be 130 M rows). Each kind of lie in a C1 (a path's sibling,
 * its index, a parent index, a parent's or the challenge's column, a labeling parent, a proof's
 * layer, comm_r, the replica node, a path's length) must be refused by the native check with a
 * message naming the partition, the challenge and what failed, before any synthesis; a changed data
 * leaf must also break the circuit.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "filecoin/porep_fake.h"
#include "test.h"

/* The circuit of partition k's first n challenges recorded and checked; its inputs against the
 * verifier's. Returns the r1cs check's code. */
static int check_partition(const cz__porep_fake *f, unsigned k, size_t n) {
    cz__porep_partition p;
    cz__porep_challenge *w = calloc(f->c1.per, sizeof *w);
    cz__cs cs;
    cz_r1cs r;
    int rc = -1;
    if (!CHECK(w != NULL) ||
        !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK)) {
        free(w);
        return rc;
    }
    cz__porep_vanilla_witness(&p, w, &f->c1, k);
    p.nchallenges = n;
    cz__porep_circuit(&cs, &f->shape, &p);
    if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
        const size_t npub = 3 + CZ__POREP_INPUTS_PER_CHALLENGE * n;
        cz_bls12381_fr *want = calloc(npub + 1, sizeof *want);
        if (CHECK(want != NULL)) {
            cz_bls12381_fr_one(&want[0]);
            cz__porep_public_inputs(&want[1], &f->graph, &f->c1.replica_id, &f->c1.comm_d,
                                    &f->c1.comm_r, &f->challenges[(size_t)k * f->c1.per], n);
            CHECK_EQ_SIZE(r.npublic, npub);
            CHECK(memcmp(r.w, want, (npub + 1) * sizeof *want) == 0);
        }
        free(want);
        rc = cz_r1cs_check(&r, NULL, NULL, NULL);
        cz_r1cs_free(&r);
    }
    cz__cs_free(&cs);
    free(w);
    return rc;
}

static int make(cz__porep_fake *f, uint64_t size, uint64_t id, unsigned np, uint64_t seed) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__porep_fake_make(f, id, np, seed, NULL, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        return 0;
    }
    return CHECK_EQ_U64(f->cfg.sector_size, size);
}

static void test_2k(void) {
    for (uint64_t id = 0; id <= 5; id += 5) {
        cz__porep_fake f;
        cz_errinfo ei;
        if (id == 0 && test_plain_only("fake_2k of the v1 graph (registered proof 0)"))
            continue;
        if (!make(&f, 2048, id, 0, 11 + id))
            return;
        cz_errinfo_clear(&ei);
        CHECK_EQ_INT(f.c1.npartitions, 1);
        if (!CHECK_EQ_INT(cz__porep_vanilla_check(&f.c1, &f.shape, &f.graph, 0, &ei), CZ_OK))
            fprintf(stderr, "  %s\n", ei.msg);
        CHECK_EQ_INT(check_partition(&f, 0, f.c1.per), CZ_OK);
        f.c1.proofs[1].comm_d_proof.leaf.l[0] ^= 1; /* the second challenge's data */
        CHECK_EQ_INT(check_partition(&f, 0, f.c1.per), CZ_EVERIFY);
        cz__porep_fake_free(&f);
    }
}

/* One lie at a time: the native check must refuse it, naming what. */
static void test_lies(void) {
    static const char *const want[] = {"tree D",
                                       "tree R",
                                       "the graph's",
                                       "does not hash",
                                       "labeling parent 10",
                                       "labeling proof is of layer 1",
                                       "column of node",
                                       "comm_r is not",
                                       "tree R",
                                       "has 5 levels, not 6"};
    cz__porep_fake f;
    if (!make(&f, 2048, 5, 0, 3))
        return;
    for (int lie = 0; lie < 10; lie++) {
        cz__porep_fake g;
        cz__porep_vanilla *v;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (!make(&g, 2048, 5, 0, 3))
            break;
        v = &g.c1.proofs[1];
        switch (lie) {
        case 0:
            v->comm_d_proof.path.sib[2][0].l[1] ^= 4;
            break;
        case 1:
            v->comm_r_last_proof.path.levels[0].index ^= 1;
            break;
        case 2:
            v->drg[3].index ^= 1;
            break;
        case 3:
            v->exp[5].rows[0].l[0] ^= 1;
            break;
        case 4:
            v->labels[0].parents[10].l[0] ^= 1;
            break;
        case 5:
            v->labels[1].layer = 1;
            break;
        case 6:
            v->c_x.rows[0].l[0] ^= 1;
            v->c_x.inclusion.leaf.l[0] ^= 0;
            break;
        case 7:
            g.c1.comm_r.l[0] ^= 1;
            break;
        case 8:
            v->comm_r_last_proof.leaf.l[0] ^= 1;
            break;
        default:
            v->comm_d_proof.path.nlevels = 5;
            break;
        }
        CHECK(cz__porep_vanilla_check(&g.c1, &g.shape, &g.graph, 0, &ei) != CZ_OK);
        if (!CHECK(strstr(ei.msg, want[lie]) != NULL))
            fprintf(stderr, "  lie %d: \"%s\"\n", lie, ei.msg);
        if (lie != 7 && !CHECK(strstr(ei.msg, "challenge 1") != NULL))
            fprintf(stderr, "  lie %d names no challenge: \"%s\"\n", lie, ei.msg);
        cz__porep_fake_free(&g);
    }
    cz__porep_fake_free(&f);
}

static void test_32g_one_challenge(void) {
    if (test_plain_only("a 32 GiB fake C1"))
        return;
    cz__porep_fake f;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!make(&f, UINT64_C(1) << 35, 8, 0, 5))
        return;
    CHECK_EQ_INT(f.c1.npartitions, 10);
    if (!CHECK_EQ_INT(cz__porep_vanilla_check(&f.c1, &f.shape, &f.graph, 7, &ei), CZ_OK))
        fprintf(stderr, "  %s\n", ei.msg);
    CHECK_EQ_INT(check_partition(&f, 7, 1), CZ_OK);
    cz__porep_fake_free(&f);
}

static const test_case cases[] = {
    {"fake_2k", test_2k}, {"lies", test_lies}, {"fake_32g_one_challenge", test_32g_one_challenge}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
