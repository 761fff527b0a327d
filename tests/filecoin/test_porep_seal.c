/*
 * The 2 KiB PoRep mini-sealer (src/filecoin/porep_seal.h).
 *
 * Oracles, none of them this sealer's own output:
 *   - rust-fil-proofs' known answers: the last label of 11-layer SDR on 64 and 128 nodes
 *     (storage-proofs-porep tests/stacked_vanilla.rs test_stacked_porep_generate_labels and
 *     create_label/multi.rs test_create_labels: replica_id [9; 32], porep_id [0; 32] with the
 *     v1.0 graph, [123; 32] with v1.1), whose first two layers are the 2 KiB sector's; and comm_d
 *     of the all-zero 2 KiB sector (filecoin-proofs tests/pieces.rs test_compute_comm_d_empty)
 *   - the trees recomputed from every leaf by cz__fake_tree (merkle.h), another code path: comm_d,
 *     comm_r and every sibling of every opened path must be its
 *   - the native check of the verifier (cz__porep_vanilla_check) on every partition, for both
 *     graph versions (registered proofs 0 and 5) and several data, seeds and provers
 * and soundness: one changed data byte changes comm_d; one changed label row, labeling parent or
 * path sibling of the C1 is refused with CZ_EVERIFY; data that is not Fr32 and a registered proof
 * that is not a 2 KiB interactive PoRep are refused with CZ_EINVAL.
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_seal.h"
#include "gadgets/poseidon.h"
#include "test.h"

typedef cz_bls12381_fr fr;

/* Random Fr32 data: each node's top two bits cleared. */
static void random_data(uint8_t data[2048], uint64_t seed) {
    uint64_t rng = seed;
    for (int i = 0; i < 2048; i += 8) {
        const uint64_t x = cz__fake_mix(&rng);
        for (int b = 0; b < 8; b++)
            data[i + b] = (uint8_t)(x >> (8 * b));
    }
    for (int v = 0; v < 64; v++)
        data[32 * v + 31] &= 0x3f;
}

static void fill(uint8_t *out, size_t n, uint8_t first) {
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(first + 7 * i);
}

static int seal(cz__porep_c1 *c1, uint64_t id, const uint8_t data[2048], uint8_t salt) {
    uint8_t prover[32], ticket[32], seed[32];
    cz_errinfo ei;
    fill(prover, 32, salt);
    fill(ticket, 32, (uint8_t)(salt + 1));
    fill(seed, 32, (uint8_t)(salt + 2));
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__porep_seal_2k(c1, id, data, prover, 1000 + salt, ticket, seed, &ei),
                      CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        return 0;
    }
    return 1;
}

static void shape_and_graph(cz__porep_shape *sh, cz__porep_graph *g, uint64_t id) {
    uint8_t porep_id[32];
    CHECK_EQ_INT(cz__porep_shape_get(sh, 2048, NULL), CZ_OK);
    cz__porep_id(porep_id, id);
    cz__porep_graph_init(g, sh->nodes, porep_id, id < 5);
}

/* The native check of every partition; returns the first failing code. */
static int check_all(const cz__porep_c1 *c1, uint64_t id, char *msg, size_t msg_len) {
    cz__porep_shape sh;
    cz__porep_graph g;
    int rc = CZ_OK;
    shape_and_graph(&sh, &g, id);
    for (unsigned k = 0; rc == CZ_OK && k < c1->npartitions; k++) {
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        rc = cz__porep_vanilla_check(c1, &sh, &g, k, &ei);
        snprintf(msg, msg_len, "%s", ei.msg);
    }
    return rc;
}

static void test_labels_known_answers(void) {
    static const struct {
        uint64_t nodes;
        uint8_t porep_byte;
        int api_v1_0;
        uint64_t last[4]; /* Fr::from_u64s_le */
    } kat[] = {
        {64,
         0,
         1,
         {0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37}},
        {128,
         0,
         1,
         {0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be}},
        {64,
         123,
         0,
         {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5}},
        {128,
         123,
         0,
         {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd}},
    };
    const unsigned layers = 11;
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        uint8_t porep_id[32], id_bytes[32], want[32], got[32];
        cz__porep_graph g;
        fr replica_id;
        fr *labels = calloc(layers * kat[i].nodes, sizeof *labels);
        if (!CHECK(labels != NULL))
            return;
        memset(porep_id, kat[i].porep_byte, 32);
        memset(id_bytes, 9, 32);
        CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(&replica_id, id_bytes), CZ_OK);
        cz__porep_graph_init(&g, kat[i].nodes, porep_id, kat[i].api_v1_0);
        cz__porep_seal_labels(labels, &g, &replica_id, layers);
        for (int w = 0; w < 4; w++)
            for (int b = 0; b < 8; b++)
                want[8 * w + b] = (uint8_t)(kat[i].last[w] >> (8 * b));
        cz_bls12381_fr_to_bytes_le(got, &labels[layers * kat[i].nodes - 1]);
        if (!CHECK_EQ_MEM(got, want, 32))
            fprintf(stderr, "  vector %zu: %llu nodes, porep_id [%u; 32]\n", i,
                    (unsigned long long)kat[i].nodes, kat[i].porep_byte);
        free(labels);
    }
}

static void test_zero_sector(void) {
    static const uint8_t want[32] = {252, 126, 146, 130, 150, 229, 22,  250, 173, 233, 134,
                                     178, 143, 146, 212, 74,  79,  36,  185, 53,  72,  82,
                                     35,  55,  106, 121, 144, 39,  188, 24,  248, 51};
    static const uint8_t zeros[2048];
    cz__porep_c1 c1;
    uint8_t got[32];
    char msg[CZ_ERRINFO_MSG_MAX];
    if (!seal(&c1, 5, zeros, 1))
        return;
    cz_bls12381_fr_to_bytes_le(got, &c1.comm_d);
    CHECK_EQ_MEM(got, want, 32);
    if (!CHECK_EQ_INT(check_all(&c1, 5, msg, sizeof msg), CZ_OK))
        fprintf(stderr, "  %s\n", msg);
    cz__porep_c1_free(&c1);
}

static void test_checks_pass(void) {
    uint8_t data[2048];
    for (int choice = 0; choice < 3; choice++) {
        if (choice == 0)
            random_data(data, 42);
        else if (choice == 1)
            random_data(data, 7);
        else { /* the largest Fr32 nodes */
            memset(data, 0xff, sizeof data);
            for (int v = 0; v < 64; v++)
                data[32 * v + 31] = 0x3f;
        }
        for (uint64_t id = 0; id <= 5; id += 5) {
            cz__porep_c1 c1;
            cz__porep_shape sh;
            cz__porep_graph g;
            uint8_t prover[32], ticket[32], seed[32], comm_d[32], porep_id[32];
            char msg[CZ_ERRINFO_MSG_MAX];
            fr replica_id;
            const uint8_t salt = (uint8_t)(10 * choice + id);
            if (!seal(&c1, id, data, salt))
                return;
            shape_and_graph(&sh, &g, id);
            fill(prover, 32, salt);
            fill(ticket, 32, (uint8_t)(salt + 1));
            fill(seed, 32, (uint8_t)(salt + 2));
            cz_bls12381_fr_to_bytes_le(comm_d, &c1.comm_d);
            cz__porep_id(porep_id, id);
            cz__porep_replica_id(&replica_id, prover, 1000 + salt, ticket, comm_d, porep_id);
            CHECK_EQ_U64(c1.registered_proof, id);
            CHECK_EQ_INT(c1.npartitions, 1);
            CHECK_EQ_INT(c1.per, sh.challenges);
            CHECK_EQ_MEM(c1.seed, seed, 32);
            CHECK_EQ_MEM(c1.ticket, ticket, 32);
            CHECK(cz_bls12381_fr_eq(&c1.replica_id, &replica_id));
            if (!CHECK_EQ_INT(check_all(&c1, id, msg, sizeof msg), CZ_OK))
                fprintf(stderr, "  data %d, proof %llu: %s\n", choice, (unsigned long long)id, msg);
            cz__porep_c1_free(&c1);
        }
    }
}

static int same_path(const cz__tree_path *got, const cz__tree_path *want) {
    if (got->nlevels != want->nlevels)
        return 0;
    for (unsigned l = 0; l < want->nlevels; l++) {
        const cz__path_level *a = &got->levels[l], *b = &want->levels[l];
        if (a->arity != b->arity || a->index != b->index)
            return 0;
        for (unsigned k = 0; k + 1 < b->arity; k++)
            if (!cz_bls12381_fr_eq(&a->siblings[k], &b->siblings[k]))
                return 0;
    }
    return 1;
}

/* Every leaf given to cz__fake_tree: no random sibling, the whole tree. */
static int whole_fake_tree(fr *root, cz__tree_path *paths, const fr *leaves, size_t n,
                           const unsigned *arities, unsigned nlevels, cz__tree_hash hash) {
    uint64_t *index = calloc(n, sizeof *index), rng = 1;
    cz_errinfo ei;
    int rc;
    if (index == NULL)
        return CZ_ENOMEM;
    for (size_t i = 0; i < n; i++)
        index[i] = i;
    cz_errinfo_clear(&ei);
    rc = cz__fake_tree(root, paths, index, leaves, n, arities, nlevels, hash, &rng, &ei);
    free(index);
    return rc;
}

static void test_trees_against_fake_tree(void) {
    const uint64_t id = 5;
    uint8_t data[2048];
    cz__porep_c1 c1;
    cz__porep_shape sh;
    cz__porep_graph g;
    unsigned ar_d[CZ__TREE_MAX_LEVELS], ar_rc[CZ__TREE_MAX_LEVELS], nrc;
    fr *labels, d[64], col[64], enc[64], root_d, root_c, root_r, two[2], comm_r;
    cz__tree_path *pd, *pc, *pr;
    random_data(data, 99);
    if (!seal(&c1, id, data, 3))
        return;
    shape_and_graph(&sh, &g, id);
    const unsigned L = sh.layers;
    labels = calloc(L * sh.nodes, sizeof *labels);
    pd = calloc(64, sizeof *pd);
    pc = calloc(64, sizeof *pc);
    pr = calloc(64, sizeof *pr);
    if (!CHECK(labels != NULL && pd != NULL && pc != NULL && pr != NULL) ||
        !CHECK_EQ_U64(sh.nodes, 64))
        goto out;
    cz__porep_seal_labels(labels, &g, &c1.replica_id, L);
    for (unsigned v = 0; v < 64; v++) {
        fr rows[CZ__POREP_MAX_LAYERS];
        CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(&d[v], &data[32 * v]), CZ_OK);
        for (unsigned l = 0; l < L; l++)
            rows[l] = labels[l * 64 + v];
        CHECK_EQ_INT(cz__poseidon_merkle(&col[v], rows, L, NULL), CZ_OK);
        cz_bls12381_fr_add(&enc[v], &rows[L - 1], &d[v]);
    }
    for (unsigned l = 0; l < sh.levels_d; l++)
        ar_d[l] = 2;
    nrc = cz__fake_tree_arities(ar_rc, &sh.tree, sh.nodes);
    CHECK_EQ_INT(nrc, sh.levels_rc);
    CHECK_EQ_INT(whole_fake_tree(&root_d, pd, d, 64, ar_d, sh.levels_d, CZ__TREE_SHA256), CZ_OK);
    CHECK_EQ_INT(whole_fake_tree(&root_c, pc, col, 64, ar_rc, nrc, CZ__TREE_POSEIDON), CZ_OK);
    CHECK_EQ_INT(whole_fake_tree(&root_r, pr, enc, 64, ar_rc, nrc, CZ__TREE_POSEIDON), CZ_OK);
    two[0] = root_c;
    two[1] = root_r;
    CHECK_EQ_INT(cz__poseidon_merkle(&comm_r, two, 2, NULL), CZ_OK);
    CHECK(cz_bls12381_fr_eq(&c1.comm_d, &root_d));
    CHECK(cz_bls12381_fr_eq(&c1.comm_r, &comm_r));
    for (unsigned i = 0; i < c1.per; i++) {
        const cz__porep_vanilla *v = &c1.proofs[i];
        const uint32_t c = v->c_x.index;
        CHECK(c >= 1 && c < 64);
        CHECK(cz_bls12381_fr_eq(&v->comm_d_proof.leaf, &d[c]));
        CHECK(cz_bls12381_fr_eq(&v->comm_r_last_proof.leaf, &enc[c]));
        CHECK(cz_bls12381_fr_eq(&v->c_x.inclusion.root, &root_c));
        CHECK(cz_bls12381_fr_eq(&v->comm_r_last_proof.root, &root_r));
        CHECK(same_path(&v->comm_d_proof.path, &pd[c]));
        CHECK(same_path(&v->comm_r_last_proof.path, &pr[c]));
        for (int q = -1; q < CZ__POREP_COL_PARENTS; q++) {
            const cz__porep_column_proof *cp = q < 0 ? &v->c_x
                                               : q < CZ__POREP_DRG_PARENTS
                                                   ? &v->drg[q]
                                                   : &v->exp[q - CZ__POREP_DRG_PARENTS];
            CHECK(same_path(&cp->inclusion.path, &pc[cp->index]));
            CHECK(cz_bls12381_fr_eq(&cp->inclusion.leaf, &col[cp->index]));
            for (unsigned l = 0; l < L; l++)
                CHECK(cz_bls12381_fr_eq(&cp->rows[l], &labels[l * 64 + cp->index]));
        }
    }
out:
    free(labels);
    free(pd);
    free(pc);
    free(pr);
    cz__porep_c1_free(&c1);
}

static void test_soundness(void) {
    const uint64_t id = 0;
    uint8_t data[2048], changed[2048];
    static const size_t at[] = {0, 1000, 2047}; /* the last is byte 31 of node 63: bit 0 is free */
    cz__porep_c1 base;
    random_data(data, 5);
    if (!seal(&base, id, data, 4))
        return;
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        cz__porep_c1 c1;
        memcpy(changed, data, sizeof data);
        changed[at[i]] ^= 1;
        if (!seal(&c1, id, changed, 4))
            break;
        if (!CHECK(!cz_bls12381_fr_eq(&c1.comm_d, &base.comm_d)))
            fprintf(stderr, "  byte %zu changed, comm_d did not\n", at[i]);
        CHECK(!cz_bls12381_fr_eq(&c1.comm_r, &base.comm_r));
        cz__porep_c1_free(&c1);
    }
    for (int lie = 0; lie < 8; lie++) {
        cz__porep_c1 c1;
        cz__porep_vanilla *v;
        char msg[CZ_ERRINFO_MSG_MAX];
        if (!seal(&c1, id, data, 4))
            break;
        v = &c1.proofs[c1.per - 1];
        switch (lie) {
        case 0: /* a label row of the challenge's column */
            v->c_x.rows[1].l[0] ^= 1;
            break;
        case 1: /* a label row of a DRG parent's column */
            v->drg[2].rows[0].l[1] ^= 2;
            break;
        case 2: /* a labeling parent */
            v->labels[1].parents[20].l[0] ^= 1;
            break;
        case 3: /* a sibling in tree D */
            v->comm_d_proof.path.sib[4][0].l[0] ^= 1;
            break;
        case 4: /* a sibling in tree R */
            v->comm_r_last_proof.path.sib[1][5].l[2] ^= 1;
            break;
        case 5: /* a sibling in tree C, of an expander parent */
            v->exp[7].inclusion.path.sib[0][3].l[0] ^= 1;
            break;
        case 6: /* the data leaf */
            v->comm_d_proof.leaf.l[0] ^= 1;
            break;
        default: /* comm_r */
            c1.comm_r.l[0] ^= 1;
            break;
        }
        if (!CHECK_EQ_INT(check_all(&c1, id, msg, sizeof msg), CZ_EVERIFY))
            fprintf(stderr, "  lie %d: \"%s\"\n", lie, msg);
        cz__porep_c1_free(&c1);
    }
    cz__porep_c1_free(&base);
}

static void test_refuses(void) {
    uint8_t data[2048], b32[32];
    cz__porep_c1 c1;
    cz_errinfo ei;
    memset(b32, 1, sizeof b32);
    for (int bit = 6; bit <= 7; bit++) {
        random_data(data, 8);
        data[32 * 37 + 31] |= (uint8_t)(1u << bit);
        cz_errinfo_clear(&ei);
        CHECK_EQ_INT(cz__porep_seal_2k(&c1, 5, data, b32, 1, b32, b32, &ei), CZ_EINVAL);
        if (!CHECK(strstr(ei.msg, "node 37 ") != NULL))
            fprintf(stderr, "  \"%s\"\n", ei.msg);
        CHECK(c1.proofs == NULL && c1.npartitions == 0);
    }
    random_data(data, 8);
    for (uint64_t id = 1; id <= 10; id += 9) { /* 8 MiB V1, 2 KiB V1_1 with synthetic PoRep */
        cz_errinfo_clear(&ei);
        CHECK_EQ_INT(cz__porep_seal_2k(&c1, id, data, b32, 1, b32, b32, &ei), CZ_EINVAL);
        CHECK(c1.proofs == NULL);
    }
}

static const test_case cases[] = {{"labels_known_answers", test_labels_known_answers},
                                  {"zero_sector", test_zero_sector},
                                  {"checks_pass", test_checks_pass},
                                  {"trees_against_fake_tree", test_trees_against_fake_tree},
                                  {"soundness", test_soundness},
                                  {"refuses", test_refuses}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
