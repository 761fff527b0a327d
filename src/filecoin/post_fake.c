/*
 * Fake PoSt sectors (post_fake.h): the tree of the opened paths, level by level. At each level
 * the nodes known so far (the opened ones) are grouped by parent; a group's other children get
 * random values; the parents, hashed from their children, are the next level's known nodes.
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/merkle.h"
#include "filecoin/post_fake.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

typedef struct {
    uint64_t index;
    fr value;
} node;

static node *find(node *nodes, size_t n, uint64_t index) {
    for (size_t i = 0; i < n; i++)
        if (nodes[i].index == index)
            return &nodes[i];
    return NULL;
}

int cz__post_fake_sector(cz__post_vanilla *out, const cz__post_shape *shape, uint64_t sector_id,
                         const uint8_t randomness[32], uint64_t index_base, unsigned nproofs,
                         uint64_t seed, cz_errinfo *ei) {
    const unsigned nl = shape->nlevels,
                   nbase = nl - (shape->tree.sub != 0) - (shape->tree.top != 0);
    uint64_t s = seed ^ (sector_id * UINT64_C(0xd1b54a32d192ed03)), *pos;
    node *known, *next, *kids;
    size_t nk = 0;
    int rc = CZ_OK;
    memset(out, 0, sizeof *out);
    if (nl == 0 || nl > CZ__POST_MAX_LEVELS)
        return cz_fail(ei, CZ_EINVAL, "fake sector: a tree of %u levels", nl);
    out->proofs = calloc(nproofs ? nproofs : 1, sizeof *out->proofs);
    known = calloc(nproofs ? nproofs : 1, sizeof *known);
    next = calloc(nproofs ? nproofs : 1, sizeof *next);
    kids = calloc((size_t)(nproofs ? nproofs : 1) * 16, sizeof *kids);
    pos = calloc(nproofs ? nproofs : 1, sizeof *pos);
    if (out->proofs == NULL || known == NULL || next == NULL || kids == NULL || pos == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "fake sector: %u paths", nproofs);
        goto out;
    }
    out->sector_id = sector_id;
    out->nproofs = nproofs;
    for (unsigned n = 0; n < nproofs; n++) { /* the opened leaves */
        cz__post_inclusion *inc = &out->proofs[n];
        pos[n] = cz__post_leaf_challenge(randomness, sector_id, index_base + n, shape->nleaves);
        inc->leaf_index = pos[n];
        inc->nlevels = nl;
        if (find(known, nk, pos[n]) == NULL) {
            known[nk].index = pos[n];
            cz__fake_fr(&known[nk].value, &s);
            nk++;
        }
        inc->leaf = find(known, nk, pos[n])->value;
    }
    for (unsigned l = 0; l < nl; l++) {
        const unsigned arity = l < nbase                       ? shape->tree.base
                               : l == nbase && shape->tree.sub ? shape->tree.sub
                                                               : shape->tree.top;
        const cz__poseidon *p;
        fr tag;
        size_t nn = 0, nkids = 0;
        if ((rc = cz__poseidon_get(&p, arity, ei)) != CZ_OK)
            goto out;
        cz__poseidon_tag_merkle(&tag, arity);
        /* every group with a known child: its children (known or random) and its parent */
        for (size_t i = 0; i < nk; i++) {
            const uint64_t g = known[i].index / arity;
            fr ch[16];
            if (find(next, nn, g) != NULL)
                continue;
            for (unsigned k = 0; k < arity; k++) {
                node *kn = find(known, nk, g * arity + k);
                if (kn != NULL)
                    ch[k] = kn->value;
                else
                    cz__fake_fr(&ch[k], &s);
                kids[nkids].index = g * arity + k;
                kids[nkids].value = ch[k];
                nkids++;
            }
            next[nn].index = g;
            cz__poseidon_hash(&next[nn].value, p, &tag, ch);
            nn++;
        }
        /* each path's level l: its position in the group and the siblings */
        for (unsigned n = 0; n < nproofs; n++) {
            cz__post_inclusion *inc = &out->proofs[n];
            const uint64_t g = pos[n] / arity;
            cz__path_level *lv = &inc->levels[l];
            lv->arity = arity;
            lv->index = (uint32_t)(pos[n] % arity);
            lv->siblings = inc->sib[l];
            for (unsigned k = 0, m = 0; k < arity; k++)
                if (k != lv->index)
                    inc->sib[l][m++] = find(kids, nkids, g * arity + k)->value;
            pos[n] = g;
        }
        memcpy(known, next, nn * sizeof *known);
        nk = nn;
    }
    out->comm_r_last = known[0].value;
    for (unsigned n = 0; n < nproofs; n++)
        out->proofs[n].root = out->comm_r_last;
    cz__fake_fr(&out->comm_c, &s);
    {
        const cz__poseidon *p2;
        fr tag, two[2];
        if ((rc = cz__poseidon_get(&p2, 2, ei)) != CZ_OK)
            goto out;
        cz__poseidon_tag_merkle(&tag, 2);
        two[0] = out->comm_c;
        two[1] = out->comm_r_last;
        cz__poseidon_hash(&out->comm_r, p2, &tag, two);
    }
out:
    free(known);
    free(next);
    free(kids);
    free(pos);
    if (rc != CZ_OK)
        cz__post_vanilla_free(out);
    return rc;
}
