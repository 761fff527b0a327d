/*
 * Fake PoRep sectors (porep_fake.h).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_fake.h"
#include "filecoin/porep_label.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

/* A node whose column the sector opens: a challenge or a parent of one. */
typedef struct {
    uint64_t index;
    int challenged;
    fr rows[CZ__POREP_MAX_LAYERS];
    fr data; /* challenged: the data leaf */
} col_node;

static int cmp_col(const void *a, const void *b) {
    const uint64_t x = ((const col_node *)a)->index, y = ((const col_node *)b)->index;
    return x < y ? -1 : x > y;
}

static col_node *col_find(col_node *c, size_t n, uint64_t index) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (c[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return &c[lo]; /* every looked-up node is there */
}

void cz__porep_fake_free(cz__porep_fake *f) {
    cz__porep_c1_free(&f->c1);
    free(f->challenges);
    memset(f, 0, sizeof *f);
}

/* The columns: every challenge and parent, one entry each, sorted; rows random, then the
 * challenged nodes' labels layer by layer in ascending order (a challenged DRG parent is smaller
 * than its child, so its label of the layer is ready; expander parents are read a layer below). */
static int make_columns(col_node **out, size_t *ncols, cz__porep_fake *f, uint32_t (*par)[14],
                        size_t nch, uint64_t *rng, cz_errinfo *ei) {
    const unsigned L = f->shape.layers;
    col_node *c = calloc(nch * 15, sizeof *c);
    size_t n = 0, w = 0;
    if (c == NULL)
        return cz_fail(ei, CZ_ENOMEM, "fake porep: %zu columns", nch * 15);
    for (size_t i = 0; i < nch; i++) {
        c[n].index = f->challenges[i];
        c[n++].challenged = 1;
        for (int q = 0; q < CZ__POREP_COL_PARENTS; q++)
            c[n++].index = par[i][q];
    }
    qsort(c, n, sizeof *c, cmp_col);
    for (size_t i = 0; i < n; i++) { /* merge duplicates, keeping "challenged" */
        if (w > 0 && c[w - 1].index == c[i].index)
            c[w - 1].challenged |= c[i].challenged;
        else
            c[w++] = c[i];
    }
    n = w;
    for (size_t i = 0; i < n; i++) {
        for (unsigned l = 0; l < L; l++)
            cz__fake_fr(&c[i].rows[l], rng);
        if (f->zero_data)
            cz_bls12381_fr_zero(&c[i].data);
        else
            cz__fake_fr(&c[i].data, rng);
    }
    for (unsigned layer = 1; layer <= L; layer++)
        for (size_t i = 0; i < n; i++) {
            uint32_t p[CZ__POREP_COL_PARENTS];
            fr pv[CZ__POREP_COL_PARENTS];
            unsigned np = 0;
            if (!c[i].challenged)
                continue;
            cz__porep_drg_parents(&f->graph, (uint32_t)c[i].index, p);
            cz__porep_exp_parents(&f->graph, (uint32_t)c[i].index, p + CZ__POREP_DRG_PARENTS);
            for (int q = 0; q < CZ__POREP_DRG_PARENTS; q++)
                pv[np++] = col_find(c, n, p[q])->rows[layer - 1];
            if (layer > 1)
                for (int q = CZ__POREP_DRG_PARENTS; q < CZ__POREP_COL_PARENTS; q++)
                    pv[np++] = col_find(c, n, p[q])->rows[layer - 2];
            cz__porep_label_native(&c[i].rows[layer - 1], &f->c1.replica_id, layer, c[i].index, pv,
                                   np);
        }
    *out = c;
    *ncols = n;
    return CZ_OK;
}

/* A proof of leaf under root through path. */
static void merkle_of(cz__merkle_proof *m, const fr *leaf, const fr *root, const cz__tree_path *p) {
    m->leaf = *leaf;
    m->root = *root;
    m->path = *p;
    cz__tree_path_fix(&m->path);
}

/* Tree D of zero data: comm_d and each challenge's path (level l's sibling is the zero subtree
 * root of l levels). */
static int zero_tree_d(cz__porep_fake *f, cz__tree_path *pd, size_t nch, cz_errinfo *ei) {
    fr z[CZ__TREE_MAX_LEVELS + 1];
    const unsigned nl = f->shape.levels_d;
    int rc;
    cz_bls12381_fr_zero(&z[0]);
    for (unsigned l = 0; l < nl; l++) {
        cz__path_level lv = {2, 0, &z[l]};
        if ((rc = cz__tree_path_root(&z[l + 1], &z[l], &lv, 1, CZ__TREE_SHA256, ei)) != CZ_OK)
            return rc;
    }
    f->c1.comm_d = z[nl];
    for (size_t i = 0; i < nch; i++) {
        pd[i].nlevels = nl;
        for (unsigned l = 0; l < nl; l++) {
            pd[i].levels[l].arity = 2;
            pd[i].levels[l].index = (uint32_t)(f->challenges[i] >> l & 1);
            pd[i].sib[l][0] = z[l];
        }
        cz__tree_path_fix(&pd[i]);
    }
    return CZ_OK;
}

/* The replica id, seed and ticket: random, or sector's with the replica id derived. */
static void fake_identity(cz__porep_fake *f, const cz__porep_fake_sector *sector,
                          const uint8_t porep_id[32], uint64_t *rng) {
    cz__porep_c1 *c1 = &f->c1;
    if (sector == NULL) {
        cz__fake_fr(&c1->replica_id, rng);
        for (int i = 0; i < 32; i++) {
            c1->seed[i] = (uint8_t)cz__fake_mix(rng);
            c1->ticket[i] = (uint8_t)cz__fake_mix(rng);
        }
        return;
    }
    uint8_t comm_d[32];
    memcpy(c1->seed, sector->seed, 32);
    memcpy(c1->ticket, sector->ticket, 32);
    cz_bls12381_fr_to_bytes_le(comm_d, &c1->comm_d);
    cz__porep_replica_id(&c1->replica_id, sector->prover_id, sector->sector_id, c1->ticket, comm_d,
                         porep_id);
}

int cz__porep_fake_make(cz__porep_fake *f, uint64_t registered_proof, unsigned npartitions,
                        uint64_t seed, const cz__porep_fake_sector *sector, cz_errinfo *ei) {
    uint64_t rng = seed * UINT64_C(0x9e3779b97f4a7c15) + 1, *idx = NULL;
    uint8_t porep_id[32];
    uint32_t(*par)[14] = NULL;
    unsigned ar_d[CZ__TREE_MAX_LEVELS], ar_rc[CZ__TREE_MAX_LEVELS], nrc;
    col_node *cols = NULL;
    fr *vals = NULL, comm_c, comm_r_last, two[2];
    cz__tree_path *pd = NULL, *pr = NULL, *pc = NULL;
    cz__porep_c1 *c1 = &f->c1;
    size_t nch, ncols = 0;
    int rc;
    memset(f, 0, sizeof *f);
    if ((rc = cz__porep_config_get(&f->cfg, registered_proof, ei)) != CZ_OK ||
        (rc = cz__porep_shape_get(&f->shape, f->cfg.sector_size, ei)) != CZ_OK)
        return rc;
    if (f->cfg.kind != CZ__POREP_INTERACTIVE)
        return cz_fail(ei, CZ_EINVAL,
                       "fake porep: %s derives its challenges from comm_r, which a fake sector "
                       "makes from the challenged nodes: only interactive PoRep can be faked",
                       f->cfg.name);
    const unsigned L = f->shape.layers;
    c1->registered_proof = registered_proof;
    c1->npartitions = npartitions ? npartitions : f->cfg.partitions;
    c1->per = f->cfg.challenges;
    nch = (size_t)c1->npartitions * c1->per;
    f->zero_data = sector != NULL;
    cz__porep_id(porep_id, registered_proof);
    cz__porep_graph_init(&f->graph, f->shape.nodes, porep_id, f->cfg.api_minor == 0);
    f->challenges = calloc(nch, sizeof *f->challenges);
    c1->proofs = calloc(nch, sizeof *c1->proofs);
    par = calloc(nch, sizeof *par);
    idx = calloc(nch * 15, sizeof *idx);
    vals = calloc(nch * 15, sizeof *vals);
    pd = calloc(nch, sizeof *pd);
    pr = calloc(nch, sizeof *pr);
    pc = calloc(nch * 15, sizeof *pc);
    if (f->challenges == NULL || c1->proofs == NULL || par == NULL || idx == NULL || vals == NULL ||
        pd == NULL || pr == NULL || pc == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "fake porep: %zu challenges", nch);
        goto out;
    }
    if (sector != NULL && (rc = zero_tree_d(f, pd, 0, ei)) != CZ_OK) /* comm_d first */
        goto out;
    fake_identity(f, sector, porep_id, &rng);
    for (unsigned k = 0; k < c1->npartitions; k++)
        cz__porep_challenges_for(&f->challenges[(size_t)k * c1->per], &f->cfg, f->shape.nodes,
                                 &c1->replica_id, NULL, c1->seed, k);
    for (size_t i = 0; i < nch; i++) {
        cz__porep_drg_parents(&f->graph, (uint32_t)f->challenges[i], par[i]);
        cz__porep_exp_parents(&f->graph, (uint32_t)f->challenges[i],
                              par[i] + CZ__POREP_DRG_PARENTS);
    }
    if ((rc = make_columns(&cols, &ncols, f, par, nch, &rng, ei)) != CZ_OK)
        goto out;
    for (unsigned l = 0; l < f->shape.levels_d; l++)
        ar_d[l] = 2;
    nrc = cz__fake_tree_arities(ar_rc, &f->shape.tree, f->shape.nodes);
    /* tree D: the data leaves; tree R: their encodings (last label + data) */
    for (size_t i = 0; i < nch; i++) {
        idx[i] = f->challenges[i];
        vals[i] = col_find(cols, ncols, f->challenges[i])->data;
    }
    if ((rc = sector != NULL
                  ? zero_tree_d(f, pd, nch, ei)
                  : cz__fake_tree(&c1->comm_d, pd, idx, vals, nch, ar_d, f->shape.levels_d,
                                  CZ__TREE_SHA256, &rng, ei)) != CZ_OK)
        goto out;
    for (size_t i = 0; i < nch; i++) {
        col_node *c = col_find(cols, ncols, f->challenges[i]);
        merkle_of(&c1->proofs[i].comm_d_proof, &c->data, &c1->comm_d, &pd[i]);
        cz_bls12381_fr_add(&vals[i], &c->rows[L - 1], &c->data);
    }
    if ((rc = cz__fake_tree(&comm_r_last, pr, idx, vals, nch, ar_rc, nrc, CZ__TREE_POSEIDON, &rng,
                            ei)) != CZ_OK)
        goto out;
    for (size_t i = 0; i < nch; i++)
        merkle_of(&c1->proofs[i].comm_r_last_proof, &vals[i], &comm_r_last, &pr[i]);
    /* tree C: per challenge its column, then its 14 parents' */
    for (size_t i = 0; i < nch; i++)
        for (int q = 0; q < 15; q++) {
            const uint64_t node = q == 0 ? f->challenges[i] : par[i][q - 1];
            idx[15 * i + (size_t)q] = node;
            if ((rc = cz__poseidon_merkle(&vals[15 * i + (size_t)q],
                                          col_find(cols, ncols, node)->rows, L, ei)) != CZ_OK)
                goto out;
        }
    if ((rc = cz__fake_tree(&comm_c, pc, idx, vals, nch * 15, ar_rc, nrc, CZ__TREE_POSEIDON, &rng,
                            ei)) != CZ_OK)
        goto out;
    for (size_t i = 0; i < nch; i++) {
        cz__porep_vanilla *v = &c1->proofs[i];
        for (int q = 0; q < 15; q++) {
            cz__porep_column_proof *cp = q == 0                       ? &v->c_x
                                         : q <= CZ__POREP_DRG_PARENTS ? &v->drg[q - 1]
                                                                      : &v->exp[q - 7];
            cp->index = (uint32_t)idx[15 * i + (size_t)q];
            memcpy(cp->rows, col_find(cols, ncols, cp->index)->rows, sizeof cp->rows);
            merkle_of(&cp->inclusion, &vals[15 * i + (size_t)q], &comm_c, &pc[15 * i + (size_t)q]);
        }
        cz__porep_vanilla_fill_labels(v, L, f->challenges[i]);
    }
    two[0] = comm_c;
    two[1] = comm_r_last;
    rc = cz__poseidon_merkle(&c1->comm_r, two, 2, ei);
out:
    free(par);
    free(idx);
    free(vals);
    free(cols);
    free(pd);
    free(pr);
    free(pc);
    if (rc != CZ_OK)
        cz__porep_fake_free(f);
    return rc;
}
