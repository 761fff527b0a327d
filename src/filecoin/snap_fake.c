/*
 * Sector updates made natively (snap_fake.h).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/snap_fake.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

/* The levels above t->level[0] (nodes leaves, arities of shape). */
static int tree_build(cz__full_tree *t, const cz__tree_shape *shape, uint64_t nodes,
                      cz__tree_hash hash, cz_errinfo *ei) {
    uint64_t n = nodes;
    t->hash = hash;
    t->nlevels = cz__fake_tree_arities(t->arity, shape, nodes);
    if (t->nlevels == 0)
        return cz_fail(ei, CZ_EINVAL, "snap fake: a tree of %llu leaves",
                       (unsigned long long)nodes);
    for (unsigned l = 0; l < t->nlevels; l++) {
        const unsigned a = t->arity[l];
        n /= a;
        if ((t->level[l + 1] = malloc((n ? n : 1) * sizeof(fr))) == NULL)
            return cz_fail(ei, CZ_ENOMEM, "snap fake: tree level %u", l + 1);
        for (uint64_t i = 0; i < n; i++) {
            const fr *ch = &t->level[l][i * a];
            cz__path_level lv = {a, 0, ch + 1};
            int rc = cz__tree_path_root(&t->level[l + 1][i], &ch[0], &lv, 1, hash, ei);
            if (rc != CZ_OK)
                return rc;
        }
    }
    return CZ_OK;
}

static void tree_free(cz__full_tree *t) {
    for (unsigned l = 0; l <= CZ__TREE_MAX_LEVELS; l++)
        free(t->level[l]);
    memset(t, 0, sizeof *t);
}

/* The Merkle proof of leaf node of t. */
static void tree_proof(cz__merkle_proof *m, const cz__full_tree *t, uint64_t node) {
    m->leaf = t->level[0][node];
    m->root = t->level[t->nlevels][0];
    m->path.nlevels = t->nlevels;
    for (unsigned l = 0; l < t->nlevels; l++) {
        const unsigned a = t->arity[l], idx = (unsigned)(node % a);
        const uint64_t first = node - idx;
        for (unsigned j = 0, s = 0; j < a; j++)
            if (j != idx)
                m->path.sib[l][s++] = t->level[l][first + j];
        m->path.levels[l].arity = a;
        m->path.levels[l].index = idx;
        node /= a;
    }
    cz__tree_path_fix(&m->path);
}

int cz__snap_fake_make(cz__snap_fake *f, uint64_t sector_size, cz__snap_variant variant, unsigned h,
                       uint64_t seed, cz_errinfo *ei) {
    const cz__tree_shape binary = {2, 0, 0};
    uint64_t rng = seed * UINT64_C(0x9e3779b97f4a7c15) + 11, n;
    fr two[2], phi;
    int rc;
    memset(f, 0, sizeof *f);
    if ((rc = cz__snap_shape_get(&f->s, sector_size, variant, ei)) != CZ_OK)
        return rc;
    n = f->s.nodes;
    if (n > CZ__SNAP_FAKE_MAX_NODES)
        return cz_fail(ei, CZ_EINVAL, "snap fake: %llu nodes, at most %llu (512 MiB)",
                       (unsigned long long)n, (unsigned long long)CZ__SNAP_FAKE_MAX_NODES);
    if (cz__snap_h_index(&f->s, h) < 0)
        return cz_fail(ei, CZ_EINVAL, "snap fake: h = %u is not one of this sector size's", h);
    f->h = h;
    f->d.level[0] = malloc(n * sizeof(fr));
    f->r_old.level[0] = malloc(n * sizeof(fr));
    f->r_new.level[0] = malloc(n * sizeof(fr));
    if (f->d.level[0] == NULL || f->r_old.level[0] == NULL || f->r_new.level[0] == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap fake: %llu nodes", (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++) {
        cz__fake_fr(&f->d.level[0][i], &rng);
        cz__fake_fr(&f->r_old.level[0][i], &rng);
    }
    cz__fake_fr(&f->comm_c, &rng);
    if ((rc = variant == CZ__SNAP_POSEIDON
                  ? tree_build(&f->d, &f->s.tree_r, n, CZ__TREE_POSEIDON, ei)
                  : tree_build(&f->d, &binary, n, CZ__TREE_SHA256, ei)) != CZ_OK ||
        (rc = tree_build(&f->r_old, &f->s.tree_r, n, CZ__TREE_POSEIDON, ei)) != CZ_OK)
        return rc;
    f->comm_d_new = f->d.level[f->d.nlevels][0];
    two[0] = f->comm_c;
    two[1] = f->r_old.level[f->r_old.nlevels][0];
    if ((rc = cz__poseidon_merkle(&f->comm_r_old, two, 2, ei)) != CZ_OK)
        return rc;
    cz__snap_phi(&phi, &f->comm_d_new, &f->comm_r_old);
    for (uint64_t hi = 0, per = n >> h; hi < (UINT64_C(1) << h); hi++) {
        fr rho, t;
        cz__snap_rho(&rho, &phi, hi);
        for (uint64_t i = hi * per; i < (hi + 1) * per; i++) {
            cz_bls12381_fr_mul(&t, &f->d.level[0][i], &rho);
            cz_bls12381_fr_add(&f->r_new.level[0][i], &f->r_old.level[0][i], &t);
        }
    }
    if ((rc = tree_build(&f->r_new, &f->s.tree_r, n, CZ__TREE_POSEIDON, ei)) != CZ_OK)
        return rc;
    two[1] = f->r_new.level[f->r_new.nlevels][0];
    return cz__poseidon_merkle(&f->comm_r_new, two, 2, ei);
}

void cz__snap_fake_free(cz__snap_fake *f) {
    tree_free(&f->d);
    tree_free(&f->r_old);
    tree_free(&f->r_new);
}

int cz__snap_fake_partition(cz__snap_vanilla *v, cz__snap_public *pub, const cz__snap_fake *f,
                            uint32_t k, cz_errinfo *ei) {
    const cz__snap_shape *s = &f->s;
    const unsigned apex_level = s->levels_to_apex;
    uint32_t ch[CZ__SNAP_MAX_CHALLENGES];
    memset(v, 0, sizeof *v);
    if (k >= s->partitions)
        return cz_fail(ei, CZ_EINVAL, "snap fake: partition %u of %u", k, s->partitions);
    if ((v->ch = calloc(s->challenges, sizeof *v->ch)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap fake: %u challenge proofs", s->challenges);
    v->comm_c = f->comm_c;
    v->napex = s->apex_leaves;
    v->nchallenges = s->challenges;
    if (s->apex_leaves > 0)
        memcpy(v->apex, &f->d.level[apex_level][(uint64_t)k * s->apex_leaves],
               s->apex_leaves * sizeof(fr));
    pub->k = k;
    pub->h = f->h;
    pub->comm_r_old = f->comm_r_old;
    pub->comm_d_new = f->comm_d_new;
    pub->comm_r_new = f->comm_r_new;
    cz__snap_challenges(ch, s, &f->comm_r_new, k);
    for (unsigned i = 0; i < s->challenges; i++) {
        tree_proof(&v->ch[i].r_old, &f->r_old, ch[i]);
        tree_proof(&v->ch[i].d_new, &f->d, ch[i]);
        tree_proof(&v->ch[i].r_new, &f->r_new, ch[i]);
    }
    return CZ_OK;
}
