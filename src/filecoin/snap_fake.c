/*
 * Sector updates made natively (snap_fake.h).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/snap_fake.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

/* Leaves a node of level l of t spans. */
static uint64_t span_of(const cz__snap_tree *t, unsigned l) {
    uint64_t s = 1;
    for (unsigned i = 0; i < l; i++)
        s *= t->arity[i];
    return s;
}

/* The nodes of span leaves that t keeps per chunk: the positions within the period, or 1 for a
 * node spanning the period; 0 for a node spanning more than a chunk (every one is kept). */
static uint64_t kept_per_chunk(const cz__snap_tree *t, uint64_t span) {
    if (span > t->chunk)
        return 0;
    return t->period > span ? t->period / span : 1;
}

/* Where node j of level l is kept in t->level[l] (see snap_fake.h). */
static uint64_t slot_of(const cz__snap_tree *t, unsigned l, uint64_t j) {
    const uint64_t span = span_of(t, l), per = kept_per_chunk(t, span);
    return per == 0 ? j : j * span / t->chunk * per + j % per;
}

/* How many nodes level l keeps. */
static uint64_t slots_of(const cz__snap_tree *t, unsigned l) {
    const uint64_t span = span_of(t, l), per = kept_per_chunk(t, span);
    return per == 0 ? t->nodes / span : t->nodes / t->chunk * per;
}

/* The first node of level l that slot i stands for (the inverse of slot_of). */
static uint64_t node_of_slot(const cz__snap_tree *t, unsigned l, uint64_t i) {
    const uint64_t span = span_of(t, l), per = kept_per_chunk(t, span);
    return per == 0 ? i : i / per * (t->chunk / span) + i % per;
}

const cz_bls12381_fr *cz__snap_tree_node(const cz__snap_tree *t, unsigned l, uint64_t j) {
    return &t->level[l][slot_of(t, l, j)];
}

/* t's shape and its leaves' room (the caller fills t->level[0]). */
static int tree_init(cz__snap_tree *t, const cz__tree_shape *shape, uint64_t nodes, uint64_t chunk,
                     uint64_t period, cz__tree_hash hash, cz_errinfo *ei) {
    t->hash = hash;
    t->nodes = nodes;
    t->chunk = chunk;
    t->period = period;
    t->nlevels = cz__fake_tree_arities(t->arity, shape, nodes);
    if (t->nlevels == 0)
        return cz_fail(ei, CZ_EINVAL, "snap fake: a tree of %llu leaves",
                       (unsigned long long)nodes);
    if ((t->level[0] = malloc(slots_of(t, 0) * sizeof(fr))) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap fake: %llu leaves", (unsigned long long)slots_of(t, 0));
    return CZ_OK;
}

/* The levels above t->level[0], each node kept once (see snap_fake.h). */
static int tree_build(cz__snap_tree *t, cz_errinfo *ei) {
    for (unsigned l = 0; l < t->nlevels; l++) {
        const unsigned a = t->arity[l];
        const uint64_t n = slots_of(t, l + 1);
        if ((t->level[l + 1] = malloc(n * sizeof(fr))) == NULL)
            return cz_fail(ei, CZ_ENOMEM, "snap fake: tree level %u", l + 1);
        for (uint64_t i = 0; i < n; i++) {
            const uint64_t first = node_of_slot(t, l + 1, i) * a;
            fr ch[16];
            cz__path_level lv = {a, 0, ch + 1};
            int rc;
            for (unsigned c = 0; c < a; c++)
                ch[c] = *cz__snap_tree_node(t, l, first + c);
            if ((rc = cz__tree_path_root(&t->level[l + 1][i], &ch[0], &lv, 1, t->hash, ei)) !=
                CZ_OK)
                return rc;
        }
    }
    return CZ_OK;
}

static void tree_free(cz__snap_tree *t) {
    for (unsigned l = 0; l <= CZ__TREE_MAX_LEVELS; l++)
        free(t->level[l]);
    memset(t, 0, sizeof *t);
}

static const fr *tree_root(const cz__snap_tree *t) {
    return &t->level[t->nlevels][0];
}

/* The Merkle proof of leaf node of t. */
static void tree_proof(cz__merkle_proof *m, const cz__snap_tree *t, uint64_t node) {
    m->leaf = *cz__snap_tree_node(t, 0, node);
    m->root = *tree_root(t);
    m->path.nlevels = t->nlevels;
    for (unsigned l = 0; l < t->nlevels; l++) {
        const unsigned a = t->arity[l], idx = (unsigned)(node % a);
        const uint64_t first = node - idx;
        for (unsigned j = 0, s = 0; j < a; j++)
            if (j != idx)
                m->path.sib[l][s++] = *cz__snap_tree_node(t, l, first + j);
        m->path.levels[l].arity = a;
        m->path.levels[l].index = idx;
        node /= a;
    }
    cz__tree_path_fix(&m->path);
}

int cz__snap_fake_make(cz__snap_fake *f, uint64_t sector_size, cz__snap_variant variant, unsigned h,
                       uint64_t seed, uint64_t distinct, cz_errinfo *ei) {
    const cz__tree_shape binary = {2, 0, 0};
    uint64_t rng = seed * UINT64_C(0x9e3779b97f4a7c15) + 11, n, chunk, period, nleaves;
    fr two[2], phi;
    int rc;
    memset(f, 0, sizeof *f);
    if ((rc = cz__snap_shape_get(&f->s, sector_size, variant, ei)) != CZ_OK)
        return rc;
    if (cz__snap_h_index(&f->s, h) < 0)
        return cz_fail(ei, CZ_EINVAL, "snap fake: h = %u is not one of this sector size's", h);
    f->h = h;
    n = f->s.nodes;
    chunk = n >> h; /* the nodes of one rho */
    if (distinct == 0)
        distinct = n <= CZ__SNAP_FAKE_DISTINCT_NODES ? n : CZ__SNAP_FAKE_LARGE_DISTINCT;
    if (distinct & (distinct - 1) || distinct < (UINT64_C(1) << h))
        return cz_fail(ei, CZ_EINVAL, "snap fake: %llu distinct leaves (a power of two, one a rho)",
                       (unsigned long long)distinct);
    period = (distinct >> h) < chunk ? distinct >> h : chunk;
    if ((rc = variant == CZ__SNAP_POSEIDON
                  ? tree_init(&f->d, &f->s.tree_r, n, chunk, period, CZ__TREE_POSEIDON, ei)
                  : tree_init(&f->d, &binary, n, chunk, period, CZ__TREE_SHA256, ei)) != CZ_OK ||
        (rc = tree_init(&f->r_old, &f->s.tree_r, n, chunk, period, CZ__TREE_POSEIDON, ei)) !=
            CZ_OK ||
        (rc = tree_init(&f->r_new, &f->s.tree_r, n, chunk, period, CZ__TREE_POSEIDON, ei)) != CZ_OK)
        return rc;
    nleaves = slots_of(&f->d, 0);
    for (uint64_t i = 0; i < nleaves; i++) {
        cz__fake_fr(&f->d.level[0][i], &rng);
        cz__fake_fr(&f->r_old.level[0][i], &rng);
    }
    cz__fake_fr(&f->comm_c, &rng);
    if ((rc = tree_build(&f->d, ei)) != CZ_OK || (rc = tree_build(&f->r_old, ei)) != CZ_OK)
        return rc;
    f->comm_d_new = *tree_root(&f->d);
    two[0] = f->comm_c;
    two[1] = *tree_root(&f->r_old);
    if ((rc = cz__poseidon_merkle(&f->comm_r_old, two, 2, ei)) != CZ_OK)
        return rc;
    cz__snap_phi(&phi, &f->comm_d_new, &f->comm_r_old);
    /* leaf slot i is node i / period · chunk + i % period: its chunk, so its rho, is i / period */
    for (uint64_t hi = 0; hi < (UINT64_C(1) << h); hi++) {
        fr rho, t;
        cz__snap_rho(&rho, &phi, hi);
        for (uint64_t i = hi * period; i < (hi + 1) * period; i++) {
            cz_bls12381_fr_mul(&t, &f->d.level[0][i], &rho);
            cz_bls12381_fr_add(&f->r_new.level[0][i], &f->r_old.level[0][i], &t);
        }
    }
    if ((rc = tree_build(&f->r_new, ei)) != CZ_OK)
        return rc;
    two[1] = *tree_root(&f->r_new);
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
    for (unsigned a = 0; a < s->apex_leaves; a++)
        v->apex[a] = *cz__snap_tree_node(&f->d, apex_level, (uint64_t)k * s->apex_leaves + a);
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
