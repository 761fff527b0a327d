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

static int poseidon(fr *out, const fr *in, unsigned n, cz_errinfo *ei) {
    const cz__poseidon *p;
    fr tag;
    int rc = cz__poseidon_get(&p, n, ei);
    if (rc == CZ_OK) {
        cz__poseidon_tag_merkle(&tag, n);
        cz__poseidon_hash(out, p, &tag, in);
    }
    return rc;
}

void cz__porep_fake_free(cz__porep_fake *f) {
    free(f->challenges);
    free(f->w);
    free(f->paths);
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
            cz__porep_label_native(&c[i].rows[layer - 1], &f->replica_id, layer, c[i].index, pv,
                                   np);
        }
    *out = c;
    *ncols = n;
    return CZ_OK;
}

int cz__porep_fake_make(cz__porep_fake *f, uint64_t sector_size, uint64_t registered_proof,
                        unsigned npartitions, uint64_t seed, cz_errinfo *ei) {
    uint64_t rng = seed * UINT64_C(0x9e3779b97f4a7c15) + 1, *idx = NULL;
    uint8_t porep_id[32];
    uint32_t(*par)[14] = NULL;
    unsigned ar_d[CZ__TREE_MAX_LEVELS], ar_rc[CZ__TREE_MAX_LEVELS], nrc;
    col_node *cols = NULL;
    fr *vals = NULL;
    size_t nch, ncols = 0;
    int rc;
    memset(f, 0, sizeof *f);
    if ((rc = cz__porep_shape_get(&f->shape, sector_size, ei)) != CZ_OK)
        return rc;
    f->npartitions = npartitions ? npartitions : f->shape.partitions;
    nch = (size_t)f->npartitions * f->shape.challenges;
    cz__porep_id(porep_id, registered_proof);
    cz__porep_graph_init(&f->graph, f->shape.nodes, porep_id, registered_proof < 5);
    cz__fake_fr(&f->replica_id, &rng);
    for (int i = 0; i < 32; i++)
        f->seed[i] = (uint8_t)cz__fake_mix(&rng);
    f->challenges = calloc(nch, sizeof *f->challenges);
    f->w = calloc(nch, sizeof *f->w);
    f->paths = calloc(nch * CZ__POREP_FAKE_PATHS, sizeof *f->paths);
    par = calloc(nch, sizeof *par);
    idx = calloc(nch * 15, sizeof *idx);
    vals = calloc(nch * 15, sizeof *vals);
    if (f->challenges == NULL || f->w == NULL || f->paths == NULL || par == NULL || idx == NULL ||
        vals == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "fake porep: %zu challenges", nch);
        goto out;
    }
    for (unsigned k = 0; k < f->npartitions; k++)
        cz__porep_challenges(&f->challenges[(size_t)k * f->shape.challenges], f->shape.challenges,
                             f->shape.nodes, &f->replica_id, f->seed, k);
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
        col_node *c = col_find(cols, ncols, f->challenges[i]);
        idx[i] = f->challenges[i];
        vals[i] = c->data;
    }
    if ((rc = cz__fake_tree(&f->comm_d, f->paths, idx, vals, nch, ar_d, f->shape.levels_d,
                            CZ__TREE_SHA256, &rng, ei)) != CZ_OK)
        goto out;
    {
        cz__tree_path *tmp = calloc(nch * 15, sizeof *tmp);
        if (tmp == NULL) {
            rc = cz_fail(ei, CZ_ENOMEM, "fake porep: paths");
            goto out;
        }
        /* D paths are at tmp only for now: move them into place */
        memcpy(tmp, f->paths, nch * sizeof *tmp);
        for (size_t i = 0; i < nch; i++)
            f->paths[i * CZ__POREP_FAKE_PATHS] = tmp[i];
        for (size_t i = 0; i < nch; i++) {
            col_node *c = col_find(cols, ncols, f->challenges[i]);
            cz_bls12381_fr_add(&vals[i], &c->rows[f->shape.layers - 1], &c->data);
        }
        rc = cz__fake_tree(&f->comm_r_last, tmp, idx, vals, nch, ar_rc, nrc, CZ__TREE_POSEIDON,
                           &rng, ei);
        for (size_t i = 0; rc == CZ_OK && i < nch; i++)
            f->paths[i * CZ__POREP_FAKE_PATHS + 1] = tmp[i];
        /* tree C: per challenge its column, then its 14 parents' */
        for (size_t i = 0; rc == CZ_OK && i < nch; i++)
            for (int q = 0; q < 15; q++) {
                const uint64_t node = q == 0 ? f->challenges[i] : par[i][q - 1];
                idx[15 * i + (size_t)q] = node;
                rc = poseidon(&vals[15 * i + (size_t)q], col_find(cols, ncols, node)->rows,
                              f->shape.layers, ei);
            }
        if (rc == CZ_OK)
            rc = cz__fake_tree(&f->comm_c, tmp, idx, vals, nch * 15, ar_rc, nrc, CZ__TREE_POSEIDON,
                               &rng, ei);
        for (size_t i = 0; rc == CZ_OK && i < nch; i++)
            for (int q = 0; q < 15; q++)
                f->paths[i * CZ__POREP_FAKE_PATHS + 2 + (size_t)q] = tmp[15 * i + (size_t)q];
        free(tmp);
        if (rc != CZ_OK)
            goto out;
    }
    {
        fr two[2] = {f->comm_c, f->comm_r_last};
        if ((rc = poseidon(&f->comm_r, two, 2, ei)) != CZ_OK)
            goto out;
    }
    /* the paths were copied into place: their levels point at their own siblings again */
    for (size_t i = 0; i < nch * CZ__POREP_FAKE_PATHS; i++)
        cz__tree_path_fix(&f->paths[i]);
    for (size_t i = 0; i < nch; i++) { /* the witness, pointing into the paths */
        cz__porep_challenge *w = &f->w[i];
        cz__tree_path *pp = &f->paths[i * CZ__POREP_FAKE_PATHS];
        w->node = f->challenges[i];
        w->data_leaf = col_find(cols, ncols, w->node)->data;
        w->path_d = pp[0].levels;
        w->path_r = pp[1].levels;
        w->path_c = pp[2].levels;
        for (int q = 0; q < CZ__POREP_COL_PARENTS; q++) {
            memcpy(w->parents[q].rows, col_find(cols, ncols, par[i][q])->rows,
                   sizeof w->parents[q].rows);
            w->parents[q].path = pp[3 + q].levels;
        }
    }
out:
    free(par);
    free(idx);
    free(vals);
    free(cols);
    if (rc != CZ_OK)
        cz__porep_fake_free(f);
    return rc;
}

void cz__porep_fake_partition(cz__porep_partition *p, const cz__porep_fake *f, unsigned k) {
    memset(p, 0, sizeof *p);
    p->replica_id = f->replica_id;
    p->comm_d = f->comm_d;
    p->comm_r = f->comm_r;
    p->comm_r_last = f->comm_r_last;
    p->comm_c = f->comm_c;
    p->challenges = &f->w[(size_t)k * f->shape.challenges];
    p->nchallenges = f->shape.challenges;
}
