/*
 * The PoRep mini-sealer (porep_seal.h): whole trees, the SDR labels, and the C1's openings.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/sha256.h"
#include "filecoin/porep_seal.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

/* A tree kept whole: level 0 holds the leaves, level nlevels the root; level l's nodes start at
 * nodes[start[l]], and node p of level l + 1 hashes nodes p·arity[l] .. p·arity[l] + arity[l] - 1
 * of level l. */
typedef struct {
    unsigned nlevels, arity[CZ__TREE_MAX_LEVELS];
    size_t start[CZ__TREE_MAX_LEVELS + 1];
    fr *nodes;
} whole_tree;

/* What sealing computed, every node of it. */
typedef struct {
    const cz__porep_shape *shape;
    cz__porep_graph graph;
    fr *data;   /* shape->nodes data leaves */
    fr *labels; /* layers·nodes, as cz__porep_seal_labels writes them */
    whole_tree d, c, r;
} sector;

static const fr *tree_root(const whole_tree *t) {
    return &t->nodes[t->start[t->nlevels]];
}

/* The node hash of merkle.h over the arity children ch, as a path of one level from ch[0]. */
static int hash_children(fr *out, const fr *ch, unsigned arity, cz__tree_hash hash,
                         cz_errinfo *ei) {
    const cz__path_level lv = {.arity = arity, .index = 0, .siblings = ch + 1};
    return cz__tree_path_root(out, &ch[0], &lv, 1, hash, ei);
}

/* The whole tree of the nleaves leaves whose levels from the leaves up have the nlevels arities:
 * CZ_EINVAL (a level that does not divide by its arity, more than one root, a hash that cannot do
 * an arity), CZ_ENOMEM. */
static int tree_build(whole_tree *t, const fr *leaves, size_t nleaves, const unsigned *arity,
                      unsigned nlevels, cz__tree_hash hash, cz_errinfo *ei) {
    size_t total = 0, n = nleaves;
    memset(t, 0, sizeof *t);
    if (nlevels == 0 || nlevels > CZ__TREE_MAX_LEVELS)
        return cz_fail(ei, CZ_EINVAL, "porep seal: a tree of %u levels", nlevels);
    for (unsigned l = 0; l < nlevels; l++) {
        if (arity[l] < 2 || n % arity[l] != 0)
            return cz_fail(ei, CZ_EINVAL,
                           "porep seal: tree level %u of %zu nodes does not divide by arity %u", l,
                           n, arity[l]);
        t->arity[l] = arity[l];
        t->start[l] = total;
        total += n;
        n /= arity[l];
    }
    if (n != 1)
        return cz_fail(ei, CZ_EINVAL, "porep seal: %zu leaves end in %zu roots after %u levels",
                       nleaves, n, nlevels);
    t->nlevels = nlevels;
    t->start[nlevels] = total;
    if ((t->nodes = malloc((total + 1) * sizeof *t->nodes)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep seal: a tree of %zu nodes", total + 1);
    memcpy(t->nodes, leaves, nleaves * sizeof *leaves);
    for (unsigned l = 0; l < nlevels; l++) {
        const size_t nparents = (t->start[l + 1] - t->start[l]) / arity[l];
        for (size_t p = 0; p < nparents; p++) {
            int rc = hash_children(&t->nodes[t->start[l + 1] + p],
                                   &t->nodes[t->start[l] + p * arity[l]], arity[l], hash, ei);
            if (rc != CZ_OK)
                return rc;
        }
    }
    return CZ_OK;
}

/* The proof of leaf index: its value, the root, and the siblings level by level. */
static void tree_open(cz__merkle_proof *m, const whole_tree *t, uint64_t index) {
    uint64_t pos = index;
    memset(m, 0, sizeof *m);
    m->leaf = t->nodes[index];
    m->root = *tree_root(t);
    m->path.nlevels = t->nlevels;
    for (unsigned l = 0; l < t->nlevels; l++) {
        const unsigned a = t->arity[l];
        const fr *group = &t->nodes[t->start[l] + pos / a * a];
        m->path.levels[l].arity = a;
        m->path.levels[l].index = (uint32_t)(pos % a);
        for (unsigned k = 0, s = 0; k < a; k++)
            if (k != pos % a)
                m->path.sib[l][s++] = group[k];
        pos /= a;
    }
    cz__tree_path_fix(&m->path);
}

/* SHA-256(replica_id ‖ layer ‖ node 0 ‖ zeros), the top two bits cleared: create_label hashes
 * no parents for node 0. */
static void label_node0(fr *out, const fr *replica_id, uint32_t layer) {
    uint8_t head[64], h[32];
    memset(head, 0, sizeof head);
    cz_bls12381_fr_to_bytes_le(head, replica_id);
    for (int i = 0; i < 4; i++)
        head[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    cz_sha256_hash(h, head, sizeof head);
    h[31] &= 0x3f;
    cz_bls12381_fr_from_bytes_le(out, h); /* below 2^254 < r: always canonical */
}

void cz__porep_seal_labels(fr *labels, const cz__porep_graph *g, const fr *replica_id,
                           unsigned layers) {
    const uint64_t n = g->nodes;
    for (unsigned layer = 1; layer <= layers; layer++) {
        fr *cur = &labels[(size_t)(layer - 1) * n];
        const fr *below = layer > 1 ? cur - n : NULL;
        label_node0(&cur[0], replica_id, layer);
        for (uint64_t v = 1; v < n; v++) { /* DRG parents are below v: their labels are ready */
            uint32_t par[CZ__POREP_COL_PARENTS];
            fr pv[CZ__POREP_COL_PARENTS];
            unsigned np = 0;
            cz__porep_drg_parents(g, (uint32_t)v, par);
            for (int q = 0; q < CZ__POREP_DRG_PARENTS; q++)
                pv[np++] = cur[par[q]];
            if (below != NULL) {
                cz__porep_exp_parents(g, (uint32_t)v, par + CZ__POREP_DRG_PARENTS);
                for (int q = CZ__POREP_DRG_PARENTS; q < CZ__POREP_COL_PARENTS; q++)
                    pv[np++] = below[par[q]];
            }
            cz__porep_label_native(&cur[v], replica_id, layer, v, pv, np);
        }
    }
}

static void sector_free(sector *s) {
    free(s->data);
    free(s->labels);
    free(s->d.nodes);
    free(s->c.nodes);
    free(s->r.nodes);
    memset(s, 0, sizeof *s);
}

/* The data leaves: 32 little-endian bytes each, Fr32 (top two bits zero). */
static int read_data(fr *out, const uint8_t *data, uint64_t nodes, cz_errinfo *ei) {
    for (uint64_t v = 0; v < nodes; v++)
        if ((data[32 * v + 31] & 0xc0) != 0 ||
            cz_bls12381_fr_from_bytes_le(&out[v], &data[32 * v]) != CZ_OK)
            return cz_fail(ei, CZ_EINVAL,
                           "porep seal: data node %llu (bytes %llu..%llu) has its top two bits "
                           "set: not an Fr32 value",
                           (unsigned long long)v, (unsigned long long)(32 * v),
                           (unsigned long long)(32 * v + 31));
    return CZ_OK;
}

/* Trees C and R over the labels and the data: their roots are comm_c and comm_r_last. */
static int build_c_and_r(sector *s, cz_errinfo *ei) {
    const cz__porep_shape *sh = s->shape;
    const size_t n = sh->nodes;
    unsigned ar[CZ__TREE_MAX_LEVELS];
    const unsigned nl = cz__fake_tree_arities(ar, &sh->tree, sh->nodes);
    fr *leaves = malloc(n * sizeof *leaves);
    int rc = CZ_OK;
    if (leaves == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep seal: %zu tree leaves", n);
    for (size_t v = 0; rc == CZ_OK && v < n; v++) { /* the columns' hashes */
        fr rows[CZ__POREP_MAX_LAYERS];
        for (unsigned l = 0; l < sh->layers; l++)
            rows[l] = s->labels[l * n + v];
        rc = cz__poseidon_merkle(&leaves[v], rows, sh->layers, ei);
    }
    if (rc == CZ_OK)
        rc = tree_build(&s->c, leaves, n, ar, nl, CZ__TREE_POSEIDON, ei);
    if (rc == CZ_OK) {
        for (size_t v = 0; v < n; v++) /* the encoding: last label + data */
            cz_bls12381_fr_add(&leaves[v], &s->labels[(sh->layers - 1) * n + v], &s->data[v]);
        rc = tree_build(&s->r, leaves, n, ar, nl, CZ__TREE_POSEIDON, ei);
    }
    free(leaves);
    return rc;
}

static void open_column(cz__porep_column_proof *cp, const sector *s, uint32_t node) {
    const uint64_t n = s->shape->nodes;
    cp->index = node;
    for (unsigned l = 0; l < s->shape->layers; l++)
        cp->rows[l] = s->labels[l * n + node];
    tree_open(&cp->inclusion, &s->c, node);
}

/* Challenge c's proof: its openings in trees D, R and C, its parents' columns, its labeling
 * proofs (the parents' values of each layer expanded to 37, as prove_layers repeats them) and
 * the encoding proof (the last labeling proof). */
static void prove_challenge(cz__porep_vanilla *v, const sector *s, uint64_t c) {
    const unsigned L = s->shape->layers;
    uint32_t par[CZ__POREP_COL_PARENTS];
    memset(v, 0, sizeof *v);
    tree_open(&v->comm_d_proof, &s->d, c);
    tree_open(&v->comm_r_last_proof, &s->r, c);
    open_column(&v->c_x, s, (uint32_t)c);
    cz__porep_drg_parents(&s->graph, (uint32_t)c, par);
    cz__porep_exp_parents(&s->graph, (uint32_t)c, par + CZ__POREP_DRG_PARENTS);
    for (int q = 0; q < CZ__POREP_DRG_PARENTS; q++)
        open_column(&v->drg[q], s, par[q]);
    for (int q = 0; q < CZ__POREP_EXP_PARENTS; q++)
        open_column(&v->exp[q], s, par[CZ__POREP_DRG_PARENTS + q]);
    cz__porep_vanilla_fill_labels(v, L, c);
}

/* The sector of shape from data, and c1's commitments and proofs (see porep_seal.h). */
static int seal(cz__porep_c1 *c1, sector *s, uint64_t registered, const uint8_t *data,
                const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                const uint8_t seed[32], cz_errinfo *ei) {
    const cz__porep_shape *sh = s->shape;
    const size_t n = sh->nodes;
    unsigned ar_d[CZ__TREE_MAX_LEVELS];
    uint8_t porep_id[32], comm_d[32];
    uint64_t *ch = NULL;
    fr two[2];
    size_t nch;
    int rc;
    s->data = malloc(n * sizeof *s->data);
    s->labels = malloc(n * sh->layers * sizeof *s->labels);
    if (s->data == NULL || s->labels == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep seal: a sector of %zu nodes", n);
    if ((rc = read_data(s->data, data, n, ei)) != CZ_OK)
        return rc;
    for (unsigned l = 0; l < sh->levels_d; l++)
        ar_d[l] = 2;
    if ((rc = tree_build(&s->d, s->data, n, ar_d, sh->levels_d, CZ__TREE_SHA256, ei)) != CZ_OK)
        return rc;
    c1->registered_proof = registered;
    c1->comm_d = *tree_root(&s->d);
    memcpy(c1->seed, seed, 32);
    memcpy(c1->ticket, ticket, 32);
    cz__porep_id(porep_id, registered);
    cz_bls12381_fr_to_bytes_le(comm_d, &c1->comm_d);
    cz__porep_replica_id(&c1->replica_id, prover_id, sector_id, ticket, comm_d, porep_id);
    cz__porep_graph_init(&s->graph, n, porep_id, registered < 5);
    cz__porep_seal_labels(s->labels, &s->graph, &c1->replica_id, sh->layers);
    if ((rc = build_c_and_r(s, ei)) != CZ_OK)
        return rc;
    two[0] = *tree_root(&s->c);
    two[1] = *tree_root(&s->r);
    if ((rc = cz__poseidon_merkle(&c1->comm_r, two, 2, ei)) != CZ_OK)
        return rc;
    c1->npartitions = sh->partitions;
    c1->per = sh->challenges;
    nch = (size_t)c1->npartitions * c1->per;
    ch = calloc(nch, sizeof *ch);
    c1->proofs = calloc(nch, sizeof *c1->proofs);
    if (ch == NULL || c1->proofs == NULL) {
        free(ch);
        return cz_fail(ei, CZ_ENOMEM, "porep seal: %zu challenges", nch);
    }
    for (unsigned k = 0; k < c1->npartitions; k++)
        cz__porep_challenges(&ch[(size_t)k * c1->per], c1->per, n, &c1->replica_id, seed, k);
    for (size_t i = 0; i < nch; i++)
        prove_challenge(&c1->proofs[i], s, ch[i]);
    free(ch);
    return CZ_OK;
}

int cz__porep_seal_2k(cz__porep_c1 *c1, uint64_t registered, const uint8_t data[2048],
                      const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                      const uint8_t seed[32], cz_errinfo *ei) {
    cz__porep_shape shape;
    sector s;
    int rc;
    memset(c1, 0, sizeof *c1);
    memset(&s, 0, sizeof s);
    if (registered != 0 && registered != 5)
        return cz_fail(ei, CZ_EINVAL,
                       "porep seal: registered seal proof %llu is not a 2 KiB interactive PoRep "
                       "(0: StackedDrg2KiBV1, 5: StackedDrg2KiBV1_1)",
                       (unsigned long long)registered);
    if ((rc = cz__porep_shape_get(&shape, CZ__POREP_SEAL_2K_BYTES, ei)) != CZ_OK)
        return rc;
    s.shape = &shape;
    rc = seal(c1, &s, registered, data, prover_id, sector_id, ticket, seed, ei);
    sector_free(&s);
    if (rc != CZ_OK)
        cz__porep_c1_free(c1);
    return rc;
}
