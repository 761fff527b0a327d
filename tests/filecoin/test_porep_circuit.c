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
 *
 * Values: a 2 KiB partition whose witness is made natively here, from the definitions and not
 * from the circuit code (SHA-256 labels of the renumbered parents, Poseidon columns and trees R
 * and C, a SHA-256 tree D), with the parents of the v1.1 graph (porep_graph.h, held to the
 * production parent caches), must satisfy the recorded system, and its public inputs must be the
 * ones the verifier derives (porep_inputs.h); a label that is not the parents' must not satisfy
 * it.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "cuzk/sha256.h"
#include "filecoin/porep_circuit.h"
#include "filecoin/porep_inputs.h"
#include "filecoin/porep_label.h"
#include "gadgets/poseidon.h"
#include "test.h"

typedef cz_bls12381_fr fr;

/* Rows, inputs (ONE included) and aux of a blank partition of n challenges. */
static int count(const cz__porep_shape *shape, size_t n, cz__cs_mode mode, size_t *rows,
                 size_t *inputs, size_t *aux) {
    cz__cs cs;
    cz_errinfo ei;
    int ok;
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__cs_init(&cs, mode, 0, NULL), CZ_OK))
        return 0;
    ok = CHECK_EQ_INT(cz__porep_circuit_blank(&cs, shape, n, NULL, &ei), CZ_OK);
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
    if (test_plain_only("the 32 GiB partition counted"))
        return;
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

/* ---- a satisfied 2 KiB partition, made natively ---- */

#define NODES 64

static uint64_t prng = 0x3243f6a8885a308dULL;
static void rnd_fr(fr *out) {
    uint8_t b[32];
    for (int i = 0; i < 32; i++) {
        prng ^= prng << 13;
        prng ^= prng >> 7;
        prng ^= prng << 17;
        b[i] = (uint8_t)(prng >> 29);
    }
    b[31] &= 0x3f;
    cz_bls12381_fr_from_bytes_le(out, b);
}

static void poseidon_native(fr *out, const fr *in, unsigned n) {
    const cz__poseidon *p;
    fr tag;
    CHECK_EQ_INT(cz__poseidon_get(&p, n, NULL), CZ_OK);
    cz__poseidon_tag_merkle(&tag, n);
    cz__poseidon_hash(out, p, &tag, in);
}

/* The label of node at layer from its parents' values (create_label: SHA-256 of the replica id,
 * the layer, the node, zeros and the 37 expanded parents, little-endian 32 bytes each; the top two
 * bits of the digest cleared). */
static void label_native(fr *out, const fr *id, unsigned layer, uint64_t node, const fr *par,
                         int npar) {
    uint8_t pre[(2 + CZ__POREP_PARENTS) * 32], h[32];
    memset(pre, 0, sizeof pre);
    cz_bls12381_fr_to_bytes_le(pre, id);
    for (int i = 0; i < 4; i++)
        pre[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        pre[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    for (int k = 0; k < CZ__POREP_PARENTS; k++)
        cz_bls12381_fr_to_bytes_le(pre + 64 + 32 * k, &par[k % npar]);
    cz_sha256_hash(h, pre, sizeof pre);
    h[31] &= 0x3f;
    cz_bls12381_fr_from_bytes_le(out, h);
}

/* A Poseidon-8 tree of 64 leaves (2 levels): the 8 level-1 nodes and the root; leaf j's path. */
typedef struct {
    fr leaf[NODES], mid[8], root;
    fr sib[NODES][2][7];
    cz__path_level path[NODES][2];
} tree8;

static void tree8_build(tree8 *t) {
    for (int g = 0; g < 8; g++)
        poseidon_native(&t->mid[g], &t->leaf[8 * g], 8);
    poseidon_native(&t->root, t->mid, 8);
    for (int j = 0; j < NODES; j++)
        for (int l = 0; l < 2; l++) {
            const fr *row = l == 0 ? &t->leaf[j / 8 * 8] : t->mid;
            const unsigned idx = l == 0 ? (unsigned)j % 8 : (unsigned)j / 8;
            for (unsigned k = 0, n = 0; k < 8; k++)
                if (k != idx)
                    t->sib[j][l][n++] = row[k];
            t->path[j][l].arity = 8;
            t->path[j][l].index = idx;
            t->path[j][l].siblings = t->sib[j][l];
        }
}

typedef struct {
    fr data[NODES], d_nodes[NODES - 1]; /* tree D above the leaves, level by level */
    fr d_sib[NODES][6];
    cz__path_level d_path[NODES][6];
    tree8 c, r;
    fr cols[NODES][2]; /* each node's two labels */
    fr id, comm_r;
} sector2k;

static void sha_node(fr *out, const fr *l, const fr *r) {
    uint8_t pre[64], h[32];
    cz_bls12381_fr_to_bytes_le(pre, l);
    cz_bls12381_fr_to_bytes_le(pre + 32, r);
    cz_sha256_hash(h, pre, 64);
    h[31] &= 0x3f;
    cz_bls12381_fr_from_bytes_le(out, h);
}

/* Challenges ch[0..1] with their 14 graph parents par[k] (neither a parent of the other, nor of
 * itself): every other node's column random; the challenges' labels from their parents. */
static void sector_make(sector2k *s, const unsigned ch[2],
                        uint32_t par_idx[2][CZ__POREP_COL_PARENTS]) {
    rnd_fr(&s->id);
    for (int j = 0; j < NODES; j++) {
        rnd_fr(&s->data[j]);
        rnd_fr(&s->cols[j][0]);
        rnd_fr(&s->cols[j][1]);
    }
    for (int k = 0; k < 2; k++) {
        fr par[CZ__POREP_COL_PARENTS];
        const unsigned c = ch[k];
        for (int i = 0; i < CZ__POREP_DRG_PARENTS; i++)
            par[i] = s->cols[par_idx[k][i]][0];
        label_native(&s->cols[c][0], &s->id, 1, c, par, CZ__POREP_DRG_PARENTS);
        for (int i = 0; i < CZ__POREP_COL_PARENTS; i++)
            par[i] = s->cols[par_idx[k][i]][i < CZ__POREP_DRG_PARENTS ? 1 : 0];
        label_native(&s->cols[c][1], &s->id, 2, c, par, CZ__POREP_COL_PARENTS);
    }
    for (int j = 0; j < NODES; j++) {
        poseidon_native(&s->c.leaf[j], s->cols[j], 2);
        cz_bls12381_fr_add(&s->r.leaf[j], &s->cols[j][1], &s->data[j]); /* the encoding */
    }
    tree8_build(&s->c);
    tree8_build(&s->r);
    {
        fr two[2] = {s->c.root, s->r.root};
        poseidon_native(&s->comm_r, two, 2);
    }
    /* tree D: level l's nodes at d_nodes[off_l ...] */
    for (unsigned n = NODES, off = 0, prev = 0; n > 1; prev = off, off += n / 2, n /= 2)
        for (unsigned i = 0; i < n / 2; i++) {
            const fr *kids = n == NODES ? s->data : &s->d_nodes[prev];
            sha_node(&s->d_nodes[off + i], &kids[2 * i], &kids[2 * i + 1]);
        }
    for (unsigned j = 0; j < NODES; j++)
        for (unsigned l = 0, n = NODES, off = 0, prev = 0, idx = j; l < 6;
             l++, prev = off, off += n / 2, n /= 2, idx /= 2) {
            const fr *row = l == 0 ? s->data : &s->d_nodes[prev];
            s->d_sib[j][l] = row[idx ^ 1u];
            s->d_path[j][l].arity = 2;
            s->d_path[j][l].index = idx & 1u;
            s->d_path[j][l].siblings = &s->d_sib[j][l];
            (void)off;
        }
}

/* Whether challenge a's parents p include b. */
static int has_parent(const uint32_t p[CZ__POREP_COL_PARENTS], unsigned b) {
    for (int i = 0; i < CZ__POREP_COL_PARENTS; i++)
        if (p[i] == b)
            return 1;
    return 0;
}

static void test_satisfied_2k(void) {
    sector2k *s = calloc(1, sizeof *s);
    cz__porep_challenge c[2];
    cz__porep_partition p;
    cz__porep_shape shape;
    cz__porep_graph g;
    uint8_t porep_id[32];
    uint32_t par[2][CZ__POREP_COL_PARENTS];
    uint64_t chv[2];
    unsigned ch[2] = {0, 0};
    /* the 2 KiB v1.1 graph (registered proof 5); two challenges that do not feed each other */
    cz__porep_id(porep_id, 5);
    cz__porep_graph_init(&g, NODES, porep_id, 0);
    for (unsigned a = 2; a < NODES && ch[1] == 0; a++)
        for (unsigned b = a + 1; b < NODES && ch[1] == 0; b++) {
            for (int k = 0; k < 2; k++) {
                cz__porep_drg_parents(&g, k ? b : a, par[k]);
                cz__porep_exp_parents(&g, k ? b : a, par[k] + CZ__POREP_DRG_PARENTS);
            }
            if (!has_parent(par[0], a) && !has_parent(par[0], b) && !has_parent(par[1], a) &&
                !has_parent(par[1], b))
                ch[0] = a, ch[1] = b;
        }
    chv[0] = ch[0], chv[1] = ch[1];
    for (int bad = 0; s != NULL && ch[1] != 0 && bad < 2; bad++) {
        cz__cs cs;
        cz_r1cs r;
        if (!CHECK_EQ_INT(cz__porep_shape_get(&shape, 2048, NULL), CZ_OK))
            break;
        sector_make(s, ch, par);
        memset(c, 0, sizeof c);
        for (int k = 0; k < 2; k++) {
            c[k].node = ch[k];
            c[k].data_leaf = s->data[ch[k]];
            c[k].path_d = s->d_path[ch[k]];
            c[k].path_r = s->r.path[ch[k]];
            c[k].path_c = s->c.path[ch[k]];
            for (int i = 0; i < CZ__POREP_COL_PARENTS; i++) {
                const uint32_t q = par[k][i];
                c[k].parents[i].rows[0] = s->cols[q][0];
                c[k].parents[i].rows[1] = s->cols[q][1];
                c[k].parents[i].path = s->c.path[q];
            }
        }
        if (bad) /* a DRG parent's layer-1 value that is not the one its label used */
            c[1].parents[2].rows[0].l[0] ^= 1;
        memset(&p, 0, sizeof p);
        p.replica_id = s->id;
        p.comm_d = s->d_nodes[NODES - 2];
        p.comm_r = s->comm_r;
        p.comm_r_last = s->r.root;
        p.comm_c = s->c.root;
        p.challenges = c;
        p.nchallenges = 2;
        if (!CHECK_EQ_INT(cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL), CZ_OK))
            break;
        cz__porep_circuit(&cs, &shape, &p);
        if (CHECK_EQ_INT(cz__cs_to_r1cs(&r, &cs, NULL), CZ_OK)) {
            /* the synthesized inputs are the ones the verifier derives from the graph */
            fr want[40];
            cz_bls12381_fr_one(&want[0]);
            cz__porep_public_inputs(&want[1], &g, &s->id, &p.comm_d, &s->comm_r, chv, 2);
            CHECK_EQ_INT(r.npublic, 39);
            CHECK(memcmp(r.w, want, sizeof want) == 0);
            CHECK_EQ_INT(cz_r1cs_check(&r, NULL, NULL, NULL), bad ? CZ_EVERIFY : CZ_OK);
            cz_r1cs_free(&r);
        }
        cz__cs_free(&cs);
    }
    CHECK(ch[1] != 0);
    free(s);
}

static const test_case cases[] = {{"shapes", test_shapes},
                                  {"partition_2k", test_2k},
                                  {"partition_32g", test_32g},
                                  {"satisfied_2k", test_satisfied_2k}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
