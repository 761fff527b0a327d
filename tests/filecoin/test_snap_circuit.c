/*
 * The EmptySectorUpdate partition circuit (src/filecoin/snap_circuit.h), its structure against the
 * published figures and its values against a sector update made natively.
 *
 * Oracles: the constraint counts that storage-proofs-update's own tests assert (tests/circuit.rs:
 * 1,248,389 / 1,705,039 / 2,165,109 / 2,620,359 / 6,300,021 / 6,760,091 for 1, 2, 4, 8, 16 and 32
 * KiB, 81,049,499 for 32 GiB; gadgets.rs: gen_challenge_bits 568, 4,544 and 5,680, apex_por
 * 317,654, 5,808,515, 771,448 and 453,797); of the Poseidon variant (tests/circuit_poseidon.rs:
 * 32,164 and 47,974 for 1 and 8 KiB, 22,305,906 for 32 GiB). 32 GiB partitions are counted from
 * one and two blank challenges (they are alike) in a system that counts without recording.
 *
 * Values: partitions of sector updates made natively in full (snap_fake.h: 2 KiB; partition 1 of
 * 16 KiB, with a partition path and a sub-tree level; the Poseidon variant at 2 and 32 KiB),
 * their vanilla proofs checked natively and turned into witnesses, must satisfy the recorded
 * system with the vanilla side's public inputs, and a changed apex leaf (tree D sibling) must not.
 * (The production h values start at 8 MiB, whose 10 M rows are too many to record here;
 * test_snap_vanilla checks such an update natively.) The circuit's challenge bits (computed in the
 * circuit by its gadgets) must equal the vanilla side's (cz__snap_challenges, natively).
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "filecoin/snap_fake.h"
#include "test.h"

typedef cz_bls12381_fr fr;

#define KIB (UINT64_C(1) << 10)

/* ---- shapes and counts ---- */

static void test_shapes(void) {
    static const struct {
        uint64_t size;
        unsigned partitions, challenges, apex, levels_r, to_apex, h0;
    } want[] = {
        {KIB, 1, 10, 8, 2, 2, 1},
        {2 * KIB, 1, 10, 8, 2, 3, 1},
        {4 * KIB, 1, 10, 8, 3, 4, 1},
        {8 * KIB, 1, 10, 8, 3, 5, 1},
        {16 * KIB, 2, 10, 128, 3, 1, 1},
        {32 * KIB, 2, 10, 128, 4, 2, 1},
        {8 * KIB * KIB, 4, 10, 128, 6, 9, 7},
        {16 * KIB * KIB, 4, 10, 128, 7, 10, 7},
        {512 * KIB * KIB, 16, 86, 128, 8, 13, 7},
        {32 * KIB * KIB * KIB, 16, 86, 128, 10, 19, 7},
        {64 * KIB * KIB * KIB, 16, 86, 128, 11, 20, 7},
    };
    cz__snap_shape s;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (CHECK_EQ_INT(cz__snap_shape_get(&s, want[i].size, CZ__SNAP_SHA256, NULL), CZ_OK)) {
            CHECK_EQ_INT(s.partitions, want[i].partitions);
            CHECK_EQ_INT(s.challenges, want[i].challenges);
            CHECK_EQ_INT(s.apex_leaves, want[i].apex);
            CHECK_EQ_INT(s.levels_r, want[i].levels_r);
            CHECK_EQ_INT(s.levels_to_apex, want[i].to_apex);
            CHECK_EQ_INT(s.hs[0], want[i].h0);
            CHECK_EQ_INT(s.hs[5], want[i].h0 == 1 ? 1 : 12);
        }
    CHECK_EQ_INT(cz__snap_shape_get(&s, 64 * KIB, CZ__SNAP_SHA256, NULL), CZ_EINVAL);
    CHECK_EQ_INT(cz__snap_shape_get(&s, 2048 * KIB * KIB, CZ__SNAP_SHA256, NULL), CZ_EINVAL);
    if (CHECK_EQ_INT(cz__snap_shape_get(&s, 32 * KIB * KIB * KIB, CZ__SNAP_SHA256, NULL), CZ_OK)) {
        CHECK_EQ_INT(cz__snap_h_index(&s, 10), 3); /* the production h */
        CHECK_EQ_INT(cz__snap_h_index(&s, 13), -1);
    }
}

/* Rows and inputs (ONE included) of a blank partition of n challenges, counted (WITNESS). */
static int count(uint64_t size, cz__snap_variant variant, size_t n, size_t *rows, size_t *inputs) {
    cz__snap_shape s;
    cz__cs cs;
    cz_errinfo ei;
    int ok;
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__snap_shape_get(&s, size, variant, NULL), CZ_OK) ||
        !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_WITNESS, 0, NULL), CZ_OK))
        return 0;
    ok = CHECK_EQ_INT(cz__snap_circuit_blank(&cs, &s, n, &ei), CZ_OK);
    if (!ok)
        fprintf(stderr, "  %s\n", ei.msg);
    *rows = cs.nrows;
    *inputs = cs.ninput;
    cz__cs_free(&cs);
    return ok;
}

static void test_small_sizes(void) {
    static const size_t rows_want[6] = {1248389, 1705039, 2165109, 2620359, 6300021, 6760091};
    for (int i = 0; i < 6; i++) {
        size_t rows, inputs;
        if (count(KIB << i, CZ__SNAP_SHA256, 0, &rows, &inputs)) {
            CHECK_EQ_SIZE(rows, rows_want[i]);
            CHECK_EQ_SIZE(inputs, 5);
        }
    }
}

/* The rows of a whole 32 GiB partition of variant (nchallenges), from one and two challenges. */
static void check_32g(cz__snap_variant variant, size_t nchallenges, size_t rows_want) {
    size_t r1, i1, r2, i2;
    if (count(32 * KIB * KIB * KIB, variant, 1, &r1, &i1) &&
        count(32 * KIB * KIB * KIB, variant, 2, &r2, &i2)) {
        CHECK_EQ_SIZE((2 * r1 - r2) + nchallenges * (r2 - r1), rows_want);
        CHECK_EQ_SIZE(i1, 5);
        CHECK_EQ_SIZE(i2, 5);
    }
}

static void test_32g(void) {
    if (test_plain_only("the 32 GiB partition counted"))
        return;
    check_32g(CZ__SNAP_SHA256, 86, 81049499);
}

/* storage-proofs-update tests/circuit_poseidon.rs: 32,164 (1 KiB), 47,974 (8 KiB), 22,305,906
 * (32 GiB, 16 × 86 challenges in its one partition) */
static void test_poseidon_counts(void) {
    static const struct {
        uint64_t size;
        size_t rows;
    } want[2] = {{KIB, 32164}, {8 * KIB, 47974}};
    cz__snap_shape s;
    for (int i = 0; i < 2; i++) {
        size_t rows, inputs;
        if (count(want[i].size, CZ__SNAP_POSEIDON, 0, &rows, &inputs)) {
            CHECK_EQ_SIZE(rows, want[i].rows);
            CHECK_EQ_SIZE(inputs, 5);
        }
    }
    if (CHECK_EQ_INT(cz__snap_shape_get(&s, 32 * KIB * KIB * KIB, CZ__SNAP_POSEIDON, NULL),
                     CZ_OK)) {
        CHECK_EQ_INT(s.partitions, 1);
        CHECK_EQ_INT(s.challenges, 16 * 86);
        CHECK_EQ_INT(s.apex_leaves, 0);
    }
    check_32g(CZ__SNAP_POSEIDON, 16 * 86, 22305906);
    CHECK_EQ_INT(cz__snap_shape_get(&s, KIB, (cz__snap_variant)2, NULL), CZ_EINVAL);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static void test_gen_challenge_bits(void) {
    static const uint64_t sizes[4] = {2 * KIB, 8 * KIB * KIB, 512 * KIB * KIB,
                                      32 * KIB * KIB * KIB};
    static const size_t rows_want[4] = {568, 568, 4544, 5680};
    for (int i = 0; i < 4; i++) {
        cz__snap_shape s;
        if (!CHECK_EQ_INT(cz__snap_shape_get(&s, sizes[i], CZ__SNAP_SHA256, NULL), CZ_OK))
            continue;
        for (uint32_t k = 0; k<s.partitions; k += s.partitions> 1 ? s.partitions - 1 : 1) {
            const unsigned rand_bits = s.challenge_bits - s.partition_bits;
            cz__bool *bits = calloc((size_t)s.challenges * rand_bits, sizeof *bits);
            uint32_t want[86];
            cz__num comm_r_new, partition;
            cz__cs cs;
            size_t before;
            fr v;
            if (!CHECK(bits != NULL) ||
                !CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_WITNESS, 0, NULL), CZ_OK)) {
                free(bits);
                continue;
            }
            cz__fake_fr(&v, &rng);
            comm_r_new = cz__num_alloc(&cs, &v);
            cz_bls12381_fr_from_u64(&v, k);
            partition = cz__num_alloc(&cs, &v);
            before = cs.nrows;
            cz__snap_gen_challenge_bits(&cs, bits, &comm_r_new, &partition, s.challenges,
                                        rand_bits);
            CHECK_EQ_SIZE(cs.nrows - before, rows_want[i]);
            cz__snap_challenges(want, &s, &comm_r_new.value, k);
            for (unsigned c = 0; c < s.challenges; c++) {
                uint32_t got = k << rand_bits;
                for (unsigned b = 0; b < rand_bits; b++)
                    got |= (uint32_t)cz__bool_value(&bits[c * rand_bits + b]) << b;
                if (!CHECK_EQ_INT(got, want[c]))
                    break;
            }
            CHECK_EQ_INT(cz__cs_status(&cs, NULL), CZ_OK);
            cz__cs_free(&cs);
            free(bits);
        }
    }
}

static void test_apex_por_counts(void) {
    static const struct {
        unsigned leaves, bits;
        size_t rows;
    } want[4] = {{8, 0, 317654}, {128, 1, 5808515}, {16, 2, 771448}, {8, 3, 453797}};
    for (int i = 0; i < 4; i++) {
        cz__num leaves[128], path[3], comm_d;
        cz__bool bits[3];
        cz__cs cs;
        size_t before;
        if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_WITNESS, 0, NULL), CZ_OK))
            continue;
        comm_d = cz__num_alloc(&cs, NULL);
        for (unsigned b = 0; b < want[i].bits; b++)
            bits[b] = cz__bool_is(cz__bit_alloc(&cs, 0));
        for (unsigned l = 0; l < want[i].leaves; l++)
            leaves[l] = cz__num_alloc(&cs, NULL);
        for (unsigned b = 0; b < want[i].bits; b++)
            path[b] = cz__num_alloc(&cs, NULL);
        before = cs.nrows;
        cz__snap_apex_por(&cs, leaves, want[i].leaves, bits, want[i].bits, path, &comm_d);
        CHECK_EQ_SIZE(cs.nrows - before, want[i].rows);
        cz__cs_free(&cs);
    }
}

/* ---- a sector update made natively ---- */

/* Partition k of an update of size in variant with h (when bad: a changed apex leaf, or in the
 * Poseidon variant a changed tree D sibling), recorded with values from its vanilla proof: the
 * system's check and its public inputs. */
static void prove_partition(uint64_t size, cz__snap_variant variant, unsigned h, uint32_t k,
                            int bad) {
    cz__snap_fake f;
    cz__snap_vanilla v;
    cz__snap_public pub;
    cz__snap_witness w;
    cz__cs cs;
    cz_r1cs r;
    memset(&v, 0, sizeof v);
    memset(&w, 0, sizeof w);
    if (CHECK_EQ_INT(cz__snap_fake_make(&f, size, variant, h, 7, 0, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__snap_fake_partition(&v, &pub, &f, k, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__snap_vanilla_check(&v, &f.s, &pub, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__snap_witness_make(&w, &v, &f.s, &pub, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK)) {
        if (bad && variant == CZ__SNAP_SHA256)
            v.apex[f.s.apex_leaves - 1].l[0] ^= 1;
        else if (bad)
            ((fr *)w.ch[f.s.challenges - 1].path_d)[1].l[0] ^= 1;
        cz__snap_circuit(&cs, &f.s, &w.p);
        if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
            fr want[5];
            cz_bls12381_fr_one(&want[0]);
            cz__snap_public_inputs(&want[1], &f.s, &pub);
            CHECK_EQ_INT(r.npublic, 4);
            CHECK(memcmp(r.w, want, sizeof want) == 0);
            CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), bad ? CZ_EVERIFY : CZ_OK);
            cz_r1cs_free(&r);
        }
        cz__cs_free(&cs);
    }
    cz__snap_witness_free(&w);
    cz__snap_vanilla_free(&v);
    cz__snap_fake_free(&f);
}

static void test_satisfied_2k(void) {
    prove_partition(2 * KIB, CZ__SNAP_SHA256, 1, 0, 0);
    prove_partition(2 * KIB, CZ__SNAP_SHA256, 1, 0, 1);
}

/* two partitions: a partition path; tree R 8-8-0: a sub-tree level */
static void test_satisfied_16k(void) {
    if (test_plain_only("a 16 KiB partition proven"))
        return;
    prove_partition(16 * KIB, CZ__SNAP_SHA256, 1, 1, 0);
}

/* the Poseidon variant: 2 KiB (10 challenges), 32 KiB (tree R 8-8-2, 20 challenges) */
static void test_satisfied_poseidon(void) {
    prove_partition(2 * KIB, CZ__SNAP_POSEIDON, 1, 0, 0);
    prove_partition(2 * KIB, CZ__SNAP_POSEIDON, 1, 0, 1);
    prove_partition(32 * KIB, CZ__SNAP_POSEIDON, 1, 0, 0);
}

static const test_case cases[] = {
    {"shapes", test_shapes},
    {"small_sizes", test_small_sizes},
    {"partition_32g", test_32g},
    {"poseidon_counts", test_poseidon_counts},
    {"gen_challenge_bits", test_gen_challenge_bits},
    {"apex_por_counts", test_apex_por_counts},
    {"satisfied_2k", test_satisfied_2k},
    {"satisfied_16k", test_satisfied_16k},
    {"satisfied_poseidon", test_satisfied_poseidon},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
