/*
 * PoSt vanilla proofs (post_vanilla.h): the strict bincode reader and its writer, the leaf
 * challenges, the native check, the partition witness and its public inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs.h"
#include "cuzk/sha256.h"
#include "filecoin/merkle.h"
#include "filecoin/post_vanilla.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

/* ---- reading ---- */

typedef struct {
    const uint8_t *p;
    size_t len, at, which;
    cz_errinfo *ei;
    int rc;
} rd;

static int rd_fail(rd *r, int code, const char *what) {
    if (r->rc == CZ_OK)
        r->rc = cz_fail(r->ei, code, "vanilla proof %zu: %s at byte %zu", r->which, what, r->at);
    return 0;
}

static int rd_u64(rd *r, uint64_t *v, const char *what) {
    if (r->rc != CZ_OK)
        return 0;
    if (r->len - r->at < 8)
        return rd_fail(r, CZ_EFORMAT, what);
    *v = 0;
    for (int i = 7; i >= 0; i--)
        *v = *v << 8 | r->p[r->at + (size_t)i];
    r->at += 8;
    return 1;
}

static int rd_u32(rd *r, uint32_t *v, const char *what) {
    if (r->rc != CZ_OK)
        return 0;
    if (r->len - r->at < 4)
        return rd_fail(r, CZ_EFORMAT, what);
    *v = (uint32_t)r->p[r->at] | (uint32_t)r->p[r->at + 1] << 8 | (uint32_t)r->p[r->at + 2] << 16 |
         (uint32_t)r->p[r->at + 3] << 24;
    r->at += 4;
    return 1;
}

static int rd_fr(rd *r, fr *v, const char *what) {
    if (r->rc != CZ_OK)
        return 0;
    if (r->len - r->at < 32)
        return rd_fail(r, CZ_EFORMAT, what);
    if (cz_bls12381_fr_from_bytes_le(v, r->p + r->at) != CZ_OK)
        return rd_fail(r, CZ_ENONCANON, what);
    r->at += 32;
    return 1;
}

/* A u64 that must equal want. */
static int rd_count(rd *r, uint64_t want, const char *what) {
    uint64_t v = 0;
    char msg[160];
    if (!rd_u64(r, &v, what))
        return 0;
    if (v != want) {
        r->at -= 8;
        snprintf(msg, sizeof msg, "%s is %llu, not %llu", what, (unsigned long long)v,
                 (unsigned long long)want);
        return rd_fail(r, CZ_EFORMAT, msg);
    }
    return 1;
}

/* The levels [from, from + n) of inc, each of arity, as one bincode path. */
static int rd_path(rd *r, cz__post_inclusion *inc, unsigned from, unsigned n, unsigned arity,
                   unsigned proof) {
    char what[96];
    snprintf(what, sizeof what, "inclusion proof %u: the path length", proof);
    if (!rd_count(r, n, what))
        return 0;
    for (unsigned l = from; l < from + n; l++) {
        cz__path_level *lv = &inc->levels[l];
        uint64_t index = 0;
        snprintf(what, sizeof what, "inclusion proof %u: level %u: the sibling count", proof, l);
        if (!rd_count(r, arity - 1, what))
            return 0;
        for (unsigned k = 0; k + 1 < arity; k++) {
            snprintf(what, sizeof what, "inclusion proof %u: level %u: sibling %u", proof, l, k);
            if (!rd_fr(r, &inc->sib[l][k], what))
                return 0;
        }
        snprintf(what, sizeof what, "inclusion proof %u: level %u: the index", proof, l);
        if (!rd_u64(r, &index, what))
            return 0;
        if (index >= arity) {
            r->at -= 8;
            snprintf(what, sizeof what, "inclusion proof %u: level %u: index %llu of arity %u",
                     proof, l, (unsigned long long)index, arity);
            return rd_fail(r, CZ_EFORMAT, what);
        }
        lv->arity = arity;
        lv->index = (uint32_t)index;
        lv->siblings = inc->sib[l];
    }
    return 1;
}

static int rd_inclusion(rd *r, cz__post_inclusion *inc, const cz__post_shape *shape,
                        unsigned proof) {
    const unsigned nbase = shape->nlevels - (shape->tree.sub != 0) - (shape->tree.top != 0);
    const uint32_t want_tag = shape->tree.top ? 2 : shape->tree.sub ? 1 : 0;
    uint32_t tag = 0;
    char what[96];
    snprintf(what, sizeof what, "inclusion proof %u: the tree kind", proof);
    if (!rd_u32(r, &tag, what))
        return 0;
    if (tag != want_tag) {
        r->at -= 4;
        snprintf(what, sizeof what,
                 "inclusion proof %u: tree kind %u (this sector size has %u: a %u-%u-%u tree)",
                 proof, tag, want_tag, shape->tree.base, shape->tree.sub, shape->tree.top);
        return rd_fail(r, CZ_EFORMAT, what);
    }
    inc->nlevels = shape->nlevels;
    if (tag == 0) {
        snprintf(what, sizeof what, "inclusion proof %u: the root", proof);
        if (!rd_fr(r, &inc->root, what))
            return 0;
        snprintf(what, sizeof what, "inclusion proof %u: the leaf", proof);
        if (!rd_fr(r, &inc->leaf, what))
            return 0;
        return rd_path(r, inc, 0, nbase, shape->tree.base, proof);
    }
    if (!rd_path(r, inc, 0, nbase, shape->tree.base, proof) ||
        !rd_path(r, inc, nbase, 1, shape->tree.sub, proof) ||
        (tag == 2 && !rd_path(r, inc, nbase + 1, 1, shape->tree.top, proof)))
        return 0;
    snprintf(what, sizeof what, "inclusion proof %u: the root", proof);
    if (!rd_fr(r, &inc->root, what))
        return 0;
    snprintf(what, sizeof what, "inclusion proof %u: the leaf", proof);
    return rd_fr(r, &inc->leaf, what);
}

int cz__post_vanilla_decode(cz__post_vanilla *out, const cz__post_shape *shape, unsigned nproofs,
                            const uint8_t *data, size_t len, size_t which, cz_errinfo *ei) {
    rd r = {data, len, 0, which, ei, CZ_OK};
    memset(out, 0, sizeof *out);
    if (shape->nlevels == 0 || shape->nlevels > CZ__POST_MAX_LEVELS)
        return cz_fail(ei, CZ_EINVAL, "vanilla proof %zu: a tree of %u levels", which,
                       shape->nlevels);
    if ((out->proofs = calloc(nproofs ? nproofs : 1, sizeof *out->proofs)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "vanilla proof %zu: %u inclusion proofs", which, nproofs);
    out->nproofs = nproofs;
    if (!rd_u64(&r, &out->sector_id, "the sector id") || !rd_fr(&r, &out->comm_r, "comm_r") ||
        !rd_count(&r, 1, "the number of sector proofs") ||
        !rd_count(&r, nproofs, "the number of inclusion proofs"))
        return r.rc;
    for (unsigned i = 0; i < nproofs; i++)
        if (!rd_inclusion(&r, &out->proofs[i], shape, i))
            return r.rc;
    if (!rd_fr(&r, &out->comm_c, "comm_c") || !rd_fr(&r, &out->comm_r_last, "comm_r_last"))
        return r.rc;
    if (r.at != len)
        return cz_fail(ei, CZ_EFORMAT, "vanilla proof %zu: %zu bytes after the proof (of %zu)",
                       which, len - r.at, len);
    for (unsigned i = 0; i < nproofs; i++) {
        cz__post_inclusion *inc = &out->proofs[i];
        uint64_t idx = 0, scale = 1;
        for (unsigned l = 0; l < inc->nlevels; l++) {
            idx += scale * inc->levels[l].index;
            scale *= inc->levels[l].arity;
        }
        inc->leaf_index = idx;
    }
    return CZ_OK;
}

void cz__post_vanilla_free(cz__post_vanilla *v) {
    if (v == NULL)
        return;
    free(v->proofs);
    memset(v, 0, sizeof *v);
}

/* ---- writing ---- */

typedef struct {
    uint8_t *p;
    size_t at;
} wr;

static void wr_u64(wr *w, uint64_t v) {
    for (int i = 0; i < 8; i++)
        w->p[w->at++] = (uint8_t)(v >> (8 * i));
}

static void wr_fr(wr *w, const fr *v) {
    cz_bls12381_fr_to_bytes_le(w->p + w->at, v);
    w->at += 32;
}

static void wr_path(wr *w, const cz__post_inclusion *inc, unsigned from, unsigned n) {
    wr_u64(w, n);
    for (unsigned l = from; l < from + n; l++) {
        const cz__path_level *lv = &inc->levels[l];
        wr_u64(w, lv->arity - 1);
        for (unsigned k = 0; k + 1 < lv->arity; k++)
            wr_fr(w, &lv->siblings[k]);
        wr_u64(w, lv->index);
    }
}

int cz__post_vanilla_encode(uint8_t **out, size_t *len, const cz__post_vanilla *v,
                            const cz__post_shape *shape, cz_errinfo *ei) {
    const unsigned nbase = shape->nlevels - (shape->tree.sub != 0) - (shape->tree.top != 0);
    const uint32_t tag = shape->tree.top ? 2 : shape->tree.sub ? 1 : 0;
    size_t one = 4 + 64 + (size_t)(1 + (tag > 0) + (tag > 1)) * 8 + nbase * (16 + 32 * 7u);
    wr w;
    if (tag > 0)
        one += 16 + 32 * (size_t)(shape->tree.sub - 1);
    if (tag > 1)
        one += 16 + 32 * (size_t)(shape->tree.top - 1);
    *len = 120 + one * v->nproofs;
    if ((w.p = malloc(*len)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "vanilla proof: %zu bytes", *len);
    w.at = 0;
    wr_u64(&w, v->sector_id);
    wr_fr(&w, &v->comm_r);
    wr_u64(&w, 1);
    wr_u64(&w, v->nproofs);
    for (unsigned i = 0; i < v->nproofs; i++) {
        const cz__post_inclusion *inc = &v->proofs[i];
        for (int b = 0; b < 4; b++)
            w.p[w.at++] = (uint8_t)(tag >> (8 * b));
        if (tag == 0) {
            wr_fr(&w, &inc->root);
            wr_fr(&w, &inc->leaf);
            wr_path(&w, inc, 0, nbase);
        } else {
            wr_path(&w, inc, 0, nbase);
            wr_path(&w, inc, nbase, 1);
            if (tag == 2)
                wr_path(&w, inc, nbase + 1, 1);
            wr_fr(&w, &inc->root);
            wr_fr(&w, &inc->leaf);
        }
    }
    wr_fr(&w, &v->comm_c);
    wr_fr(&w, &v->comm_r_last);
    CZ_ASSERT(w.at == *len);
    *out = w.p;
    return CZ_OK;
}

/* ---- challenges and the native check ---- */

uint64_t cz__post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t index,
                                 uint64_t nleaves) {
    uint8_t msg[48], d[CZ_SHA256_BYTES];
    uint64_t v = 0;
    memcpy(msg, randomness, 32);
    for (int i = 0; i < 8; i++) {
        msg[32 + i] = (uint8_t)(sector_id >> (8 * i));
        msg[40 + i] = (uint8_t)(index >> (8 * i));
    }
    cz_sha256_hash(d, msg, sizeof msg);
    for (int i = 7; i >= 0; i--)
        v = v << 8 | d[i];
    return v % nleaves;
}

int cz__post_vanilla_check_comm(const cz__post_vanilla *v, cz_errinfo *ei) {
    fr two[2] = {v->comm_c, v->comm_r_last}, h;
    int rc;
    if ((rc = cz__poseidon_merkle(&h, two, 2, ei)) != CZ_OK)
        return rc;
    if (!cz_bls12381_fr_eq(&h, &v->comm_r))
        return cz_fail(ei, CZ_EVERIFY, "sector %llu: comm_r is not Poseidon(comm_c, comm_r_last)",
                       (unsigned long long)v->sector_id);
    return CZ_OK;
}

int cz__post_inclusion_check(const cz__post_vanilla *v, unsigned n, const cz__post_shape *shape,
                             const uint8_t randomness[32], uint64_t index_base, cz_errinfo *ei) {
    const cz__post_inclusion *inc = &v->proofs[n];
    const unsigned long long sid = (unsigned long long)v->sector_id;
    const uint64_t want =
        cz__post_leaf_challenge(randomness, v->sector_id, index_base + n, shape->nleaves);
    fr root;
    if (!cz_bls12381_fr_eq(&inc->root, &v->comm_r_last))
        return cz_fail(ei, CZ_EVERIFY, "sector %llu: challenge %u: its root is not comm_r_last",
                       sid, n);
    if (inc->leaf_index != want)
        return cz_fail(ei, CZ_EVERIFY,
                       "sector %llu: challenge %u: the path opens leaf %llu, the challenge "
                       "is leaf %llu",
                       sid, n, (unsigned long long)inc->leaf_index, (unsigned long long)want);
    if (cz__tree_path_root(&root, &inc->leaf, inc->levels, inc->nlevels, CZ__TREE_POSEIDON, NULL) !=
        CZ_OK)
        return cz_fail(ei, CZ_EINVAL, "sector %llu: challenge %u: a level of no Poseidon", sid, n);
    if (!cz_bls12381_fr_eq(&root, &inc->root))
        return cz_fail(ei, CZ_EVERIFY,
                       "sector %llu: challenge %u: the path does not lead from the leaf to "
                       "comm_r_last",
                       sid, n);
    return CZ_OK;
}

int cz__post_vanilla_check(const cz__post_vanilla *v, const cz__post_shape *shape,
                           const uint8_t randomness[32], uint64_t index_base, cz_errinfo *ei) {
    int rc = cz__post_vanilla_check_comm(v, ei);
    for (unsigned n = 0; rc == CZ_OK && n < v->nproofs; n++)
        rc = cz__post_inclusion_check(v, n, shape, randomness, index_base, ei);
    return rc;
}

/* ---- the partition witness ---- */

int cz__post_witness_make(cz__post_witness *w, const cz__post_vanilla *vs, size_t nvs,
                          const cz__post_shape *shape, cz_errinfo *ei) {
    const size_t ns = shape->sectors, nc = shape->challenges, nl = shape->nlevels;
    memset(w, 0, sizeof *w);
    if (shape->kind == CZ__POST_WINNING ? nvs != 1 || vs[0].nproofs != ns : nvs == 0 || nvs > ns)
        return cz_fail(ei, CZ_EINVAL, "post: %zu vanilla proofs for a %s partition of %zu sectors",
                       nvs, shape->kind == CZ__POST_WINNING ? "WinningPoSt" : "WindowPoSt", ns);
    for (size_t i = 0; shape->kind == CZ__POST_WINDOW && i < nvs; i++)
        if (vs[i].nproofs != nc)
            return cz_fail(ei, CZ_EINVAL,
                           "post: vanilla proof %zu has %u inclusion proofs, not %zu", i,
                           vs[i].nproofs, nc);
    w->sectors = calloc(ns, sizeof *w->sectors);
    w->leaves = calloc(ns * nc, sizeof *w->leaves);
    w->paths = calloc(ns * nc * nl, sizeof *w->paths);
    w->leaf_index = calloc(ns * nc, sizeof *w->leaf_index);
    if (w->sectors == NULL || w->leaves == NULL || w->paths == NULL || w->leaf_index == NULL) {
        cz__post_witness_free(w);
        return cz_fail(ei, CZ_ENOMEM, "post: the witness of %zu sectors", ns);
    }
    w->nsectors = ns;
    for (size_t s = 0; s < ns; s++) {
        /* WinningPoSt: sector s is inclusion proof s of the one sector; WindowPoSt: sector s,
         * the last one repeated */
        const cz__post_vanilla *v =
            shape->kind == CZ__POST_WINNING ? &vs[0] : &vs[s < nvs ? s : nvs - 1];
        cz__post_sector *cs = &w->sectors[s];
        cs->comm_r = v->comm_r;
        cs->comm_c = v->comm_c;
        cs->comm_r_last = v->comm_r_last;
        cs->nchallenges = (unsigned)nc;
        cs->nlevels = (unsigned)nl;
        cs->leaves = &w->leaves[s * nc];
        cs->paths = &w->paths[s * nc * nl];
        for (size_t c = 0; c < nc; c++) {
            const cz__post_inclusion *inc = &v->proofs[shape->kind == CZ__POST_WINNING ? s : c];
            w->leaves[s * nc + c] = inc->leaf;
            w->leaf_index[s * nc + c] = inc->leaf_index;
            memcpy(&w->paths[(s * nc + c) * nl], inc->levels, nl * sizeof *w->paths);
        }
    }
    return CZ_OK;
}

void cz__post_witness_free(cz__post_witness *w) {
    if (w == NULL)
        return;
    free(w->sectors);
    free(w->leaves);
    free(w->paths);
    free(w->leaf_index);
    memset(w, 0, sizeof *w);
}

void cz__post_public_inputs(uint64_t (*values)[4], const cz__post_witness *w,
                            const cz__post_shape *shape) {
    size_t k = 0;
    for (size_t s = 0; s < w->nsectors; s++) {
        cz_r1cs_fr_to_std(values[k++], CZ_CURVE_BLS12381, w->sectors[s].comm_r.l);
        for (unsigned c = 0; c < shape->challenges; c++, k++) {
            memset(values[k], 0, sizeof values[k]);
            values[k][0] = w->leaf_index[s * shape->challenges + c];
        }
    }
}
