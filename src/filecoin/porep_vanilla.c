/*
 * PoRep vanilla proofs: the native check and the circuit witness (porep_vanilla.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_label.h"
#include "filecoin/porep_vanilla.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

void cz__porep_c1_free(cz__porep_c1 *c1) {
    free(c1->proofs);
    memset(c1, 0, sizeof *c1);
}

/* A proof's path leads from its leaf to root, and opens node. */
static int check_path(const cz__merkle_proof *m, unsigned nlevels, uint64_t node, const fr *root,
                      cz__tree_hash hash, unsigned k, size_t i, const char *what, cz_errinfo *ei) {
    fr got;
    cz_errinfo pe;
    if (m->path.nlevels != nlevels)
        return cz_fail(ei, CZ_EINVAL,
                       "porep: partition %u, challenge %zu: %s has %u levels, not %u", k, i, what,
                       m->path.nlevels, nlevels);
    if (cz__tree_path_node(m->path.levels, nlevels) != node)
        return cz_fail(ei, CZ_EVERIFY,
                       "porep: partition %u, challenge %zu: %s opens node %llu, not %llu", k, i,
                       what, (unsigned long long)cz__tree_path_node(m->path.levels, nlevels),
                       (unsigned long long)node);
    cz_errinfo_clear(&pe);
    if (cz__tree_path_root(&got, &m->leaf, m->path.levels, nlevels, hash, &pe) != CZ_OK)
        return cz_fail(ei, CZ_EINVAL, "porep: partition %u, challenge %zu: %s: %s", k, i, what,
                       pe.msg);
    if (!cz_bls12381_fr_eq(&got, root) || !cz_bls12381_fr_eq(&m->root, root))
        return cz_fail(ei, CZ_EVERIFY,
                       "porep: partition %u, challenge %zu: %s does not lead to its root", k, i,
                       what);
    return CZ_OK;
}

/* One challenge (see the file comment). */
static int check_challenge(const cz__porep_c1 *c1, const cz__porep_vanilla *v,
                           const cz__porep_shape *sh, const cz__porep_graph *g, uint64_t c,
                           const fr *comm_c, const fr *comm_r_last, unsigned k, size_t i,
                           cz_errinfo *ei) {
    const unsigned L = sh->layers;
    uint32_t par[CZ__POREP_COL_PARENTS];
    const cz__porep_column_proof *col[CZ__POREP_COL_PARENTS];
    fr h, enc;
    int rc;
    if ((rc = check_path(&v->comm_d_proof, sh->levels_d, c, &c1->comm_d, CZ__TREE_SHA256, k, i,
                         "the data leaf's path (tree D)", ei)) != CZ_OK ||
        (rc = check_path(&v->comm_r_last_proof, sh->levels_rc, c, comm_r_last, CZ__TREE_POSEIDON, k,
                         i, "the replica node's path (tree R)", ei)) != CZ_OK)
        return rc;
    if (v->c_x.index != c)
        return cz_fail(ei, CZ_EVERIFY,
                       "porep: partition %u, challenge %zu: its column is of node %u", k, i,
                       v->c_x.index);
    cz__porep_drg_parents(g, (uint32_t)c, par);
    cz__porep_exp_parents(g, (uint32_t)c, par + CZ__POREP_DRG_PARENTS);
    for (int q = 0; q < CZ__POREP_COL_PARENTS; q++)
        col[q] = q < CZ__POREP_DRG_PARENTS ? &v->drg[q] : &v->exp[q - CZ__POREP_DRG_PARENTS];
    for (int q = -1; q < CZ__POREP_COL_PARENTS; q++) {
        const cz__porep_column_proof *cp = q < 0 ? &v->c_x : col[q];
        const uint64_t want = q < 0 ? c : par[q];
        char what[64];
        if (cp->index != want)
            return cz_fail(ei, CZ_EVERIFY,
                           "porep: partition %u, challenge %zu: parent %d is node %u, the graph's "
                           "is %llu",
                           k, i, q, cp->index, (unsigned long long)want);
        if ((rc = cz__poseidon_merkle(&h, cp->rows, L, ei)) != CZ_OK)
            return rc;
        if (!cz_bls12381_fr_eq(&h, &cp->inclusion.leaf))
            return cz_fail(ei, CZ_EVERIFY,
                           "porep: partition %u, challenge %zu: column of node %u does not hash to "
                           "its leaf",
                           k, i, cp->index);
        snprintf(what, sizeof what, "the column of node %u (tree C)", cp->index);
        if ((rc = check_path(&cp->inclusion, sh->levels_rc, want, comm_c, CZ__TREE_POSEIDON, k, i,
                             what, ei)) != CZ_OK)
            return rc;
    }
    for (unsigned layer = 1; layer <= L + 1; layer++) { /* L labeling proofs, then the encoding */
        const cz__porep_label_proof *lp = layer <= L ? &v->labels[layer - 1] : &v->encoding;
        const unsigned lay = layer <= L ? layer : L;
        fr want[CZ__POREP_COL_PARENTS], label;
        const unsigned np = cz__porep_label_parents(want, v, lay);
        if (lp->layer != lay || lp->node != c)
            return cz_fail(ei, CZ_EVERIFY,
                           "porep: partition %u, challenge %zu: %s is of layer %u, node %llu", k, i,
                           layer <= L ? "a labeling proof" : "the encoding proof", lp->layer,
                           (unsigned long long)lp->node);
        for (unsigned p = 0; p < CZ__POREP_PARENTS; p++)
            if (!cz_bls12381_fr_eq(&lp->parents[p], &want[p % np]))
                return cz_fail(ei, CZ_EVERIFY,
                               "porep: partition %u, challenge %zu: layer %u: labeling parent %u "
                               "is not its column's value",
                               k, i, lay, p);
        cz__porep_label_native(&label, &c1->replica_id, lay, c, lp->parents, CZ__POREP_PARENTS);
        if (!cz_bls12381_fr_eq(&label, &v->c_x.rows[lay - 1]))
            return cz_fail(ei, CZ_EVERIFY,
                           "porep: partition %u, challenge %zu: layer %u: the label is not the "
                           "column's",
                           k, i, lay);
    }
    cz_bls12381_fr_add(&enc, &v->c_x.rows[L - 1], &v->comm_d_proof.leaf);
    if (!cz_bls12381_fr_eq(&enc, &v->comm_r_last_proof.leaf))
        return cz_fail(ei, CZ_EVERIFY,
                       "porep: partition %u, challenge %zu: the replica node is not the last "
                       "label plus the data",
                       k, i);
    return CZ_OK;
}

int cz__porep_vanilla_check_at(const cz__porep_c1 *c1, const cz__porep_shape *shape,
                               const cz__porep_graph *graph, const uint64_t *challenges, unsigned k,
                               cz_errinfo *ei) {
    const cz__porep_vanilla *v;
    fr two[2], h;
    int rc = CZ_OK;
    if (k >= c1->npartitions || shape->layers > CZ__POREP_MAX_LAYERS)
        return cz_fail(ei, CZ_EINVAL, "porep: partition %u of %u", k, c1->npartitions);
    v = &c1->proofs[(size_t)k * c1->per];
    two[0] = v[0].c_x.inclusion.root; /* comm_c and comm_r_last from the first proof */
    two[1] = v[0].comm_r_last_proof.root;
    if ((rc = cz__poseidon_merkle(&h, two, 2, ei)) != CZ_OK)
        return rc;
    if (!cz_bls12381_fr_eq(&h, &c1->comm_r))
        return cz_fail(ei, CZ_EVERIFY,
                       "porep: partition %u: comm_r is not Poseidon(comm_c, "
                       "comm_r_last)",
                       k);
    for (size_t i = 0; rc == CZ_OK && i < c1->per; i++)
        rc = check_challenge(c1, &v[i], shape, graph, challenges[i], &two[0], &two[1], k, i, ei);
    return rc;
}

int cz__porep_vanilla_check(const cz__porep_c1 *c1, const cz__porep_shape *shape,
                            const cz__porep_graph *graph, unsigned k, cz_errinfo *ei) {
    uint64_t *c;
    int rc;
    if (k >= c1->npartitions || c1->per != shape->challenges)
        return cz_fail(ei, CZ_EINVAL, "porep: partition %u of %u, %u challenges (the shape has %u)",
                       k, c1->npartitions, c1->per, shape->challenges);
    if ((c = calloc(c1->per, sizeof *c)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep: %u challenges", c1->per);
    cz__porep_challenges(c, c1->per, shape->nodes, &c1->replica_id, c1->seed, k);
    rc = cz__porep_vanilla_check_at(c1, shape, graph, c, k, ei);
    free(c);
    return rc;
}

unsigned cz__porep_label_parents(fr out[CZ__POREP_COL_PARENTS], const cz__porep_vanilla *v,
                                 unsigned layer) {
    unsigned np = 0;
    for (int q = 0; q < CZ__POREP_DRG_PARENTS; q++)
        out[np++] = v->drg[q].rows[layer - 1];
    if (layer > 1)
        for (int q = 0; q < CZ__POREP_EXP_PARENTS; q++)
            out[np++] = v->exp[q].rows[layer - 2];
    return np;
}

void cz__porep_vanilla_fill_labels(cz__porep_vanilla *v, unsigned layers, uint64_t node) {
    for (unsigned layer = 1; layer <= layers; layer++) {
        cz__porep_label_proof *lp = &v->labels[layer - 1];
        fr pv[CZ__POREP_COL_PARENTS];
        const unsigned np = cz__porep_label_parents(pv, v, layer);
        for (unsigned p = 0; p < CZ__POREP_PARENTS; p++)
            lp->parents[p] = pv[p % np];
        lp->layer = layer;
        lp->node = node;
    }
    v->encoding = v->labels[layers - 1];
}

void cz__porep_c1_fix_paths(cz__porep_c1 *c1) {
    for (size_t n = 0; n < (size_t)c1->npartitions * c1->per; n++) {
        cz__porep_vanilla *v = &c1->proofs[n];
        cz__tree_path_fix(&v->comm_d_proof.path);
        cz__tree_path_fix(&v->comm_r_last_proof.path);
        cz__tree_path_fix(&v->c_x.inclusion.path);
        for (int q = 0; q < CZ__POREP_DRG_PARENTS; q++)
            cz__tree_path_fix(&v->drg[q].inclusion.path);
        for (int q = 0; q < CZ__POREP_EXP_PARENTS; q++)
            cz__tree_path_fix(&v->exp[q].inclusion.path);
    }
}

void cz__porep_vanilla_witness(cz__porep_partition *p, cz__porep_challenge *w,
                               const cz__porep_c1 *c1, unsigned k) {
    const cz__porep_vanilla *v = &c1->proofs[(size_t)k * c1->per];
    memset(p, 0, sizeof *p);
    p->replica_id = c1->replica_id;
    p->comm_d = c1->comm_d;
    p->comm_r = c1->comm_r;
    p->comm_c = v[0].c_x.inclusion.root;
    p->comm_r_last = v[0].comm_r_last_proof.root;
    p->challenges = w;
    p->nchallenges = c1->per;
    for (unsigned i = 0; i < c1->per; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].node = v[i].c_x.index;
        w[i].data_leaf = v[i].comm_d_proof.leaf;
        w[i].path_d = v[i].comm_d_proof.path.levels;
        w[i].path_r = v[i].comm_r_last_proof.path.levels;
        w[i].path_c = v[i].c_x.inclusion.path.levels;
        for (int q = 0; q < CZ__POREP_COL_PARENTS; q++) {
            const cz__porep_column_proof *cp =
                q < CZ__POREP_DRG_PARENTS ? &v[i].drg[q] : &v[i].exp[q - CZ__POREP_DRG_PARENTS];
            memcpy(w[i].parents[q].rows, cp->rows, sizeof cp->rows);
            w[i].parents[q].path = cp->inclusion.path.levels;
        }
    }
}
