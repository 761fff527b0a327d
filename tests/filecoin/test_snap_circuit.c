/*
 * The EmptySectorUpdate partition circuit (src/filecoin/snap_circuit.h), its structure against the
 * published figures and its values against a sector update made natively.
 *
 * Oracles: the constraint counts that storage-proofs-update's own tests assert (tests/circuit.rs:
 * 1,248,389 / 1,705,039 / 2,165,109 / 2,620,359 / 6,300,021 / 6,760,091 for 1, 2, 4, 8, 16 and 32
 * KiB, 81,049,499 for 32 GiB; gadgets.rs: gen_challenge_bits 568, 4,544 and 5,680, apex_por
 * 317,654, 5,808,515, 771,448 and 453,797). The 32 GiB partition is counted from one and two blank
 * challenges (they are alike) in a system that counts without recording.
 *
 * Values: a sector update of 2 KiB and one partition of a 16 KiB one made natively here (every
 * tree in full: tree D of SHA-256 nodes over the new data, tree R old of Poseidon over random
 * replica nodes, comm_r_old = Poseidon-2(comm_c, root), phi and rho from the custom-tag Poseidon,
 * the new replica old + data·rho, tree R new; the challenges as storage-proofs-update's Challenges
 * iterator derives them) must satisfy the recorded system with the public inputs of the vanilla
 * side, and a changed apex leaf must not.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "filecoin/merkle.h"
#include "filecoin/snap_circuit.h"
#include "gadgets/poseidon.h"
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
        if (CHECK_EQ_INT(cz__snap_shape_get(&s, want[i].size, NULL), CZ_OK)) {
            CHECK_EQ_INT(s.partitions, want[i].partitions);
            CHECK_EQ_INT(s.challenges, want[i].challenges);
            CHECK_EQ_INT(s.apex_leaves, want[i].apex);
            CHECK_EQ_INT(s.levels_r, want[i].levels_r);
            CHECK_EQ_INT(s.levels_to_apex, want[i].to_apex);
            CHECK_EQ_INT(s.hs[0], want[i].h0);
            CHECK_EQ_INT(s.hs[5], want[i].h0 == 1 ? 1 : 12);
        }
    CHECK_EQ_INT(cz__snap_shape_get(&s, 64 * KIB, NULL), CZ_EINVAL);
    CHECK_EQ_INT(cz__snap_shape_get(&s, 2048 * KIB * KIB, NULL), CZ_EINVAL);
    if (CHECK_EQ_INT(cz__snap_shape_get(&s, 32 * KIB * KIB * KIB, NULL), CZ_OK)) {
        CHECK_EQ_INT(cz__snap_h_index(&s, 10), 3); /* the production h */
        CHECK_EQ_INT(cz__snap_h_index(&s, 13), -1);
    }
}

/* Rows and inputs (ONE included) of a blank partition of n challenges, counted (WITNESS). */
static int count(uint64_t size, size_t n, size_t *rows, size_t *inputs) {
    cz__snap_shape s;
    cz__cs cs;
    cz_errinfo ei;
    int ok;
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__snap_shape_get(&s, size, NULL), CZ_OK) ||
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
        if (count(KIB << i, 0, &rows, &inputs)) {
            CHECK_EQ_SIZE(rows, rows_want[i]);
            CHECK_EQ_SIZE(inputs, 5);
        }
    }
}

static void test_32g(void) {
    size_t r1, i1, r2, i2;
    if (count(32 * KIB * KIB * KIB, 1, &r1, &i1) && count(32 * KIB * KIB * KIB, 2, &r2, &i2)) {
        CHECK_EQ_SIZE((2 * r1 - r2) + 86 * (r2 - r1), 81049499);
        CHECK_EQ_SIZE(i1, 5);
        CHECK_EQ_SIZE(i2, 5);
    }
}

/* ---- native helpers ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static void poseidon_custom(fr *out, const fr *a, const fr *b) {
    const cz__poseidon *p;
    fr tag, in[2] = {*a, *b};
    CHECK_EQ_INT(cz__poseidon_get(&p, 2, NULL), CZ_OK);
    cz__poseidon_tag_custom(&tag, 1);
    cz__poseidon_hash(out, p, &tag, in);
}

/* Challenges::new(nodes, comm_r_new, k): the partition's challenges, as the vanilla side
 * derives them. */
static void challenges_native(uint32_t *out, const cz__snap_shape *s, const fr *comm_r_new,
                              uint32_t k) {
    const unsigned rand_bits = s->challenge_bits - s->partition_bits, per = 254 / rand_bits;
    const unsigned digests = (s->challenges + per - 1) / per;
    for (unsigned c = 0; c < s->challenges; c++) {
        uint8_t le[32];
        fr index, digest;
        uint32_t v = 0;
        cz_bls12381_fr_from_u64(&index, (uint64_t)k * digests + c / per);
        poseidon_custom(&digest, comm_r_new, &index);
        cz_bls12381_fr_to_bytes_le(le, &digest);
        for (unsigned b = 0; b < rand_bits; b++) {
            const unsigned at = (c % per) * rand_bits + b;
            v |= (uint32_t)((le[at / 8] >> (at % 8)) & 1) << b;
        }
        out[c] = v | k << rand_bits;
    }
}

static void test_gen_challenge_bits(void) {
    static const uint64_t sizes[4] = {2 * KIB, 8 * KIB * KIB, 512 * KIB * KIB,
                                      32 * KIB * KIB * KIB};
    static const size_t rows_want[4] = {568, 568, 4544, 5680};
    for (int i = 0; i < 4; i++) {
        cz__snap_shape s;
        if (!CHECK_EQ_INT(cz__snap_shape_get(&s, sizes[i], NULL), CZ_OK))
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
            challenges_native(want, &s, &comm_r_new.value, k);
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

typedef struct {
    cz__snap_shape s;
    fr *data, *old, *new_r; /* nodes each */
    cz__tree_path *d, *r_old, *r_new;
    fr comm_d, root_old, root_new, comm_c, comm_r_old, comm_r_new, phi;
} update;

static void update_free(update *u) {
    free(u->data);
    free(u->old);
    free(u->new_r);
    free(u->d);
    free(u->r_old);
    free(u->r_new);
}

/* A full tree over the nodes of u (every leaf opened): root and paths. */
static int full_tree(fr *root, cz__tree_path *paths, const fr *leaves, const update *u,
                     int tree_d) {
    const cz__tree_shape binary = {2, 0, 0};
    unsigned ar[CZ__TREE_MAX_LEVELS];
    const unsigned nl = cz__fake_tree_arities(ar, tree_d ? &binary : &u->s.tree_r, u->s.nodes);
    uint64_t *index = malloc(u->s.nodes * sizeof *index);
    int rc;
    if (index == NULL)
        return CZ_ENOMEM;
    for (uint64_t i = 0; i < u->s.nodes; i++)
        index[i] = i;
    rc = cz__fake_tree(root, paths, index, leaves, u->s.nodes, ar, nl,
                       tree_d ? CZ__TREE_SHA256 : CZ__TREE_POSEIDON, &rng, NULL);
    free(index);
    return rc;
}

static int update_make(update *u, uint64_t size, unsigned h) {
    const size_t n = size / 32;
    memset(u, 0, sizeof *u);
    if (cz__snap_shape_get(&u->s, size, NULL) != CZ_OK)
        return 0;
    u->data = calloc(n, sizeof *u->data);
    u->old = calloc(n, sizeof *u->old);
    u->new_r = calloc(n, sizeof *u->new_r);
    u->d = calloc(n, sizeof *u->d);
    u->r_old = calloc(n, sizeof *u->r_old);
    u->r_new = calloc(n, sizeof *u->r_new);
    if (!u->data || !u->old || !u->new_r || !u->d || !u->r_old || !u->r_new)
        return 0;
    for (size_t i = 0; i < n; i++) {
        cz__fake_fr(&u->data[i], &rng);
        cz__fake_fr(&u->old[i], &rng);
    }
    cz__fake_fr(&u->comm_c, &rng);
    if (full_tree(&u->comm_d, u->d, u->data, u, 1) != CZ_OK ||
        full_tree(&u->root_old, u->r_old, u->old, u, 0) != CZ_OK)
        return 0;
    {
        fr two[2] = {u->comm_c, u->root_old};
        CHECK_EQ_INT(cz__poseidon_merkle(&u->comm_r_old, two, 2, NULL), CZ_OK);
    }
    poseidon_custom(&u->phi, &u->comm_d, &u->comm_r_old);
    for (size_t i = 0; i < n; i++) { /* rho of the node's high h bits */
        fr high, rho, t;
        cz_bls12381_fr_from_u64(&high, (uint64_t)i >> (u->s.challenge_bits - h));
        poseidon_custom(&rho, &u->phi, &high);
        cz_bls12381_fr_mul(&t, &u->data[i], &rho);
        cz_bls12381_fr_add(&u->new_r[i], &u->old[i], &t);
    }
    if (full_tree(&u->root_new, u->r_new, u->new_r, u, 0) != CZ_OK)
        return 0;
    {
        fr two[2] = {u->comm_c, u->root_new};
        CHECK_EQ_INT(cz__poseidon_merkle(&u->comm_r_new, two, 2, NULL), CZ_OK);
    }
    return 1;
}

/* A path's siblings, level after level, into out. */
static size_t flat_path(fr *out, const cz__tree_path *p, unsigned from, unsigned to) {
    size_t m = 0;
    for (unsigned l = from; l < to; l++)
        for (unsigned j = 0; j + 1 < p->levels[l].arity; j++)
            out[m++] = p->levels[l].siblings[j];
    return m;
}

/* Partition k of u with h = hs[h_index] (a bad apex leaf when bad) recorded with values: the
 * system's check and its public inputs. */
static void prove_partition(update *u, uint32_t k, unsigned h_index, int bad) {
    const cz__snap_shape *s = &u->s;
    const unsigned top = s->levels_to_apex + s->apex_bits;
    uint32_t nodes[86];
    cz__snap_challenge *ch = calloc(s->challenges, sizeof *ch);
    fr *paths = calloc((size_t)s->challenges * 3 * 128, sizeof *paths), apex[128], part[8];
    cz__snap_partition p;
    cz__cs cs;
    cz_r1cs r;
    if (!CHECK(ch != NULL && paths != NULL)) {
        free(ch);
        free(paths);
        return;
    }
    challenges_native(nodes, s, &u->comm_r_new, k);
    for (unsigned c = 0; c < s->challenges; c++) {
        const uint32_t i = nodes[c];
        fr *at = paths + (size_t)c * 3 * 128;
        cz__tree_path_fix(&u->d[i]);
        cz__tree_path_fix(&u->r_old[i]);
        cz__tree_path_fix(&u->r_new[i]);
        ch[c].leaf_r_old = u->old[i];
        ch[c].leaf_d_new = u->data[i];
        ch[c].path_r_old = at;
        flat_path(at, &u->r_old[i], 0, s->levels_r);
        ch[c].path_r_new = at + 128;
        flat_path(at + 128, &u->r_new[i], 0, s->levels_r);
        ch[c].path_d = at + 256;
        flat_path(at + 256, &u->d[i], 0, s->levels_to_apex);
    }
    /* the apex leaves: the tree D nodes at the apex level under partition k, each the root of
     * a data leaf's path cut there */
    for (unsigned a = 0; a < s->apex_leaves; a++) {
        const uint64_t leaf = ((uint64_t)k * s->apex_leaves + a) << s->levels_to_apex;
        cz__tree_path_fix(&u->d[leaf]);
        CHECK_EQ_INT(cz__tree_path_root(&apex[a], &u->data[leaf], u->d[leaf].levels,
                                        s->levels_to_apex, CZ__TREE_SHA256, NULL),
                     CZ_OK);
    }
    if (bad)
        apex[s->apex_leaves - 1].l[0] ^= 1;
    flat_path(part, &u->d[(uint64_t)k * s->apex_leaves << s->levels_to_apex], top,
              s->challenge_bits);
    memset(&p, 0, sizeof p);
    p.k = k;
    p.h_index = h_index;
    p.comm_r_old = u->comm_r_old;
    p.comm_d_new = u->comm_d;
    p.comm_r_new = u->comm_r_new;
    p.comm_c = u->comm_c;
    p.root_r_old = u->root_old;
    p.root_r_new = u->root_new;
    p.apex_leaves = apex;
    p.partition_path = part;
    p.challenges = ch;
    if (CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK)) {
        cz__snap_circuit(&cs, s, &p);
        if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
            fr want[5];
            cz_bls12381_fr_one(&want[0]);
            cz_bls12381_fr_from_u64(&want[1], (uint64_t)k | (UINT64_C(1) << h_index)
                                                                << s->partition_bits);
            want[2] = u->comm_r_old;
            want[3] = u->comm_d;
            want[4] = u->comm_r_new;
            CHECK_EQ_INT(r.npublic, 4);
            CHECK(memcmp(r.w, want, sizeof want) == 0);
            CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), bad ? CZ_EVERIFY : CZ_OK);
            cz_r1cs_free(&r);
        }
        cz__cs_free(&cs);
    }
    free(ch);
    free(paths);
}

static void test_satisfied_2k(void) {
    update u;
    if (CHECK(update_make(&u, 2 * KIB, 1))) {
        prove_partition(&u, 0, 3, 0);
        prove_partition(&u, 0, 0, 1);
    }
    update_free(&u);
}

static void test_satisfied_16k(void) {
    update u;
    if (CHECK(update_make(&u, 16 * KIB, 1)))
        prove_partition(&u, 1, 5, 0);
    update_free(&u);
}

static const test_case cases[] = {
    {"shapes", test_shapes},
    {"small_sizes", test_small_sizes},
    {"partition_32g", test_32g},
    {"gen_challenge_bits", test_gen_challenge_bits},
    {"apex_por_counts", test_apex_por_counts},
    {"satisfied_2k", test_satisfied_2k},
    {"satisfied_16k", test_satisfied_16k},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
