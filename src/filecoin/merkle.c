/*
 * Merkle trees natively (merkle.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/sha256.h"
#include "filecoin/merkle.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

typedef struct {
    uint64_t index;
    fr value;
} node;

uint64_t cz__fake_mix(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void cz__fake_fr(fr *out, uint64_t *s) {
    uint8_t le[32];
    for (int i = 0; i < 4; i++) {
        const uint64_t v = cz__fake_mix(s);
        for (int b = 0; b < 8; b++)
            le[8 * i + b] = (uint8_t)(v >> (8 * b));
    }
    le[31] &= 0x1f;
    cz_bls12381_fr_from_bytes_le(out, le);
}

static int cmp_node(const void *a, const void *b) {
    const uint64_t x = ((const node *)a)->index, y = ((const node *)b)->index;
    return x < y ? -1 : x > y;
}

/* The node of index in the sorted array nodes, or NULL. */
static node *find(node *nodes, size_t n, uint64_t index) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (nodes[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && nodes[lo].index == index ? &nodes[lo] : NULL;
}

/* SHA-256 node of rust-fil-proofs: SHA-256 of the children's 32 bytes, top two bits cleared. */
static void sha_node(fr *out, const fr *ch, unsigned n) {
    uint8_t b[32], h[32];
    cz_sha256 s;
    cz_sha256_init(&s);
    for (unsigned i = 0; i < n; i++) {
        cz_bls12381_fr_to_bytes_le(b, &ch[i]);
        cz_sha256_update(&s, b, 32);
    }
    cz_sha256_final(h, &s);
    h[31] &= 0x3f;
    cz_bls12381_fr_from_bytes_le(out, h);
}

void cz__tree_path_fix(cz__tree_path *p) {
    for (unsigned l = 0; l < CZ__TREE_MAX_LEVELS; l++)
        p->levels[l].siblings = p->sib[l];
}

uint64_t cz__tree_path_node(const cz__path_level *levels, unsigned nlevels) {
    uint64_t at = 0, scale = 1;
    for (unsigned l = 0; l < nlevels; l++) {
        at += scale * levels[l].index;
        scale *= levels[l].arity;
    }
    return at;
}

int cz__tree_path_root(fr *root, const fr *leaf, const cz__path_level *levels, unsigned nlevels,
                       cz__tree_hash hash, cz_errinfo *ei) {
    fr cur = *leaf;
    for (unsigned l = 0; l < nlevels; l++) {
        const cz__path_level *lv = &levels[l];
        fr ch[8];
        if (lv->arity < 2 || lv->arity > 8 || lv->index >= lv->arity ||
            (hash == CZ__TREE_SHA256 && lv->arity != 2))
            return cz_fail(ei, CZ_EINVAL, "level %u: index %u of arity %u", l, lv->index,
                           lv->arity);
        for (unsigned k = 0, m = 0; k < lv->arity; k++)
            ch[k] = k == lv->index ? cur : lv->siblings[m++];
        if (hash == CZ__TREE_SHA256) {
            sha_node(&cur, ch, lv->arity);
        } else {
            int rc = cz__poseidon_merkle(&cur, ch, lv->arity, ei);
            if (rc != CZ_OK)
                return rc;
        }
    }
    *root = cur;
    return CZ_OK;
}

unsigned cz__fake_tree_arities(unsigned *arities, const cz__tree_shape *shape, uint64_t nleaves) {
    const unsigned nl = cz__tree_path_levels(shape, nleaves);
    cz__path_level lv[CZ__TREE_MAX_LEVELS];
    static const fr zeros[8];
    if (nl == 0 || nl > CZ__TREE_MAX_LEVELS)
        return 0;
    cz__tree_blank_path(lv, shape, nl, zeros);
    for (unsigned l = 0; l < nl; l++)
        arities[l] = lv[l].arity;
    return nl;
}

int cz__fake_tree(fr *root, cz__tree_path *paths, const uint64_t *index, const fr *value, size_t n,
                  const unsigned *arities, unsigned nlevels, cz__tree_hash hash, uint64_t *rng,
                  cz_errinfo *ei) {
    node *known = calloc(n ? n : 1, sizeof *known), *next = calloc(n ? n : 1, sizeof *next),
         *kids = calloc((n ? n : 1) * 8, sizeof *kids);
    uint64_t *pos = calloc(n ? n : 1, sizeof *pos);
    size_t nk = 0;
    int rc = CZ_OK;
    if (known == NULL || next == NULL || kids == NULL || pos == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "fake tree: %zu leaves", n);
        goto out;
    }
    if (nlevels == 0 || nlevels > CZ__TREE_MAX_LEVELS) {
        rc = cz_fail(ei, CZ_EINVAL, "fake tree: %u levels", nlevels);
        goto out;
    }
    for (size_t i = 0; i < n; i++) { /* the opened leaves, one value per index */
        pos[i] = index[i];
        known[nk].index = index[i];
        known[nk].value = value[i];
        nk++;
    }
    qsort(known, nk, sizeof *known, cmp_node);
    {
        size_t w = 0;
        for (size_t i = 0; i < nk; i++)
            if (w == 0 || known[w - 1].index != known[i].index)
                known[w++] = known[i];
        nk = w;
    }
    for (unsigned l = 0; l < nlevels; l++) {
        const unsigned arity = arities[l];
        const cz__poseidon *p = NULL;
        fr tag;
        size_t nn = 0, nkids = 0;
        if (arity < 2 || arity > 8 || (hash == CZ__TREE_SHA256 && arity != 2)) {
            rc = cz_fail(ei, CZ_EINVAL, "fake tree: level %u of arity %u", l, arity);
            goto out;
        }
        if (hash == CZ__TREE_POSEIDON) {
            if ((rc = cz__poseidon_get(&p, arity, ei)) != CZ_OK)
                goto out;
            cz__poseidon_tag_merkle(&tag, arity);
        }
        /* known is sorted: the groups come in order, each once */
        for (size_t i = 0; i < nk; i++) {
            const uint64_t g = known[i].index / arity;
            fr ch[8];
            if (nn > 0 && next[nn - 1].index == g)
                continue;
            for (unsigned k = 0; k < arity; k++) {
                node *kn = find(known, nk, g * arity + k);
                if (kn != NULL)
                    ch[k] = kn->value;
                else
                    cz__fake_fr(&ch[k], rng);
                kids[nkids].index = g * arity + k;
                kids[nkids].value = ch[k];
                nkids++;
            }
            next[nn].index = g;
            if (hash == CZ__TREE_SHA256)
                sha_node(&next[nn].value, ch, arity);
            else
                cz__poseidon_hash(&next[nn].value, p, &tag, ch);
            nn++;
        }
        for (size_t i = 0; i < n; i++) { /* each path's level l */
            cz__path_level *lv = &paths[i].levels[l];
            paths[i].nlevels = nlevels;
            const uint64_t g = pos[i] / arity;
            lv->arity = arity;
            lv->index = (uint32_t)(pos[i] % arity);
            lv->siblings = paths[i].sib[l];
            for (unsigned k = 0, m = 0; k < arity; k++)
                if (k != lv->index)
                    paths[i].sib[l][m++] = find(kids, nkids, g * arity + k)->value;
            pos[i] = g;
        }
        memcpy(known, next, nn * sizeof *known);
        nk = nn;
    }
    *root = known[0].value;
out:
    free(known);
    free(next);
    free(kids);
    free(pos);
    return rc;
}
