/*
 * PoRCircuit (por.h).
 */
#include <stdlib.h>

#include "gadgets/insertion.h"
#include "gadgets/por.h"
#include "gadgets/poseidon_circuit.h"
#include "gadgets/sha256.h"

#define MAX_ARITY  16
#define MAX_LEVELS 64

static unsigned log2_exact(unsigned a) {
    unsigned k = 0;
    if (a == 0 || (a & (a - 1)) != 0)
        return 0;
    while ((1u << k) < a)
        k++;
    return k;
}

unsigned cz__tree_path_levels(const cz__tree_shape *shape, uint64_t nleaves) {
    const unsigned kb = log2_exact(shape->base);
    unsigned levels = 0;
    if (kb == 0 || (shape->sub != 0 && log2_exact(shape->sub) == 0) ||
        (shape->top != 0 && log2_exact(shape->top) == 0))
        return 0;
    if (shape->top != 0) {
        if (nleaves % shape->top != 0)
            return 0;
        nleaves /= shape->top;
        levels++;
    }
    if (shape->sub != 0) {
        if (nleaves % shape->sub != 0)
            return 0;
        nleaves /= shape->sub;
        levels++;
    }
    while (nleaves > 1) {
        if (nleaves % shape->base != 0)
            return 0;
        nleaves /= shape->base;
        levels++;
    }
    return levels;
}

unsigned cz__tree_level_arity(const cz__tree_shape *shape, unsigned nlevels, unsigned l) {
    const unsigned nbase = nlevels - (shape->sub != 0) - (shape->top != 0);
    return l < nbase ? shape->base : l == nbase && shape->sub ? shape->sub : shape->top;
}

void cz__tree_blank_path(cz__path_level *out, const cz__tree_shape *shape, unsigned nlevels,
                         const cz_bls12381_fr *zeros) {
    for (unsigned l = 0; l < nlevels; l++) {
        out[l].arity = cz__tree_level_arity(shape, nlevels, l);
        out[l].index = 0;
        out[l].siblings = zeros;
    }
}

/* One level: cur placed among the arity - 1 siblings at the index of the k bits, hashed. */
static cz__num level_hash(cz__cs *cs, cz__tree_hash hash, const cz__num *cur, const cz__bool *bits,
                          unsigned k, const cz__num *sib) {
    cz__num ins[MAX_ARITY];
    cz__insert(cs, ins, cur, bits, k, sib);
    return hash == CZ__TREE_SHA256 ? cz__sha256_node_circuit(cs, ins, 1u << k)
                                   : cz__poseidon_merkle_circuit(cs, ins, 1u << k);
}

void cz__por_circuit(cz__cs *cs, cz__tree_hash hash, const cz__num *leaf,
                     const cz__path_level *path, unsigned nlevels, const cz__num *root,
                     int private_root) {
    cz__bool bits[MAX_LEVELS * 4];
    unsigned nbits = 0;
    cz__num cur = *leaf;
    if (nlevels > MAX_LEVELS) {
        cz__cs_fail(cs, CZ_EINVAL, "por: %u levels (at most %d)", nlevels, MAX_LEVELS);
        return;
    }
    for (unsigned l = 0; l < nlevels; l++) {
        const cz__path_level *lv = &path[l];
        const unsigned k = log2_exact(lv->arity);
        cz__num sib[MAX_ARITY];
        if (k == 0 || lv->arity > MAX_ARITY || k > 4) {
            cz__cs_fail(cs, CZ_EINVAL, "por: level %u has arity %u (2, 4, 8 or 16)", l, lv->arity);
            return;
        }
        if (lv->index >= lv->arity) {
            cz__cs_fail(cs, CZ_EINVAL, "por: level %u: index %u of arity %u", l, lv->index,
                        lv->arity);
            return;
        }
        for (unsigned i = 0; i < k; i++)
            bits[nbits + i] = cz__bool_is(cz__bit_alloc(cs, (int)((lv->index >> i) & 1u)));
        for (unsigned i = 0; i + 1 < lv->arity; i++)
            sib[i] = cz__num_alloc(cs, &lv->siblings[i]);
        cur = level_hash(cs, hash, &cur, &bits[nbits], k, sib);
        nbits += k;
    }
    cz__pack_into_inputs(cs, bits, nbits);
    cz__num_enforce_equal(cs, &cur, root);
    if (!private_root)
        cz__num_inputize(cs, root);
}

void cz__por_no_challenge_input(cz__cs *cs, cz__tree_hash hash, const cz__tree_shape *shape,
                                unsigned nlevels, const cz__bool *bits, const cz__num *leaf,
                                const cz__num *siblings, const cz__num *root) {
    cz__num cur = *leaf;
    for (unsigned l = 0; l < nlevels; l++) {
        const unsigned arity = cz__tree_level_arity(shape, nlevels, l), k = log2_exact(arity);
        if (k == 0 || k > 4) {
            cz__cs_fail(cs, CZ_EINVAL, "por: level %u has arity %u (2, 4, 8 or 16)", l, arity);
            return;
        }
        cur = level_hash(cs, hash, &cur, bits, k, siblings);
        bits += k;
        siblings += arity - 1;
    }
    cz__num_enforce_equal(cs, &cur, root);
}
