/*
 * Merkle inclusion in a Poseidon tree, as rust-fil-proofs' PoRCircuit (storage-proofs-core
 * gadgets/por.rs) synthesizes it: the leaf allocated; per level of the path (the base levels of
 * arity base, then one of arity sub when the tree has sub-trees, then one of arity top), the
 * index bits of the node among its siblings (least significant first), the siblings allocated,
 * insert, and Poseidon of that arity (MerkleTree tag); then all index bits packed into public
 * inputs, the computed root equal to the given one (computed·ONE = root), and the root exposed
 * as an input unless private. Rows per level of arity 8: 3 + 22 + 505 = 530; per path: the
 * levels plus 2.
 */
#ifndef CUZK_GADGETS_POR_H
#define CUZK_GADGETS_POR_H

#include "gadgets/num.h"

/* A tree's arities: base (2, 4, 8...), sub and top (0: none). */
typedef struct cz__tree_shape {
    unsigned base, sub, top;
} cz__tree_shape;

/* One level of a path: the index of the node among the level's arity children and the arity - 1
 * siblings in order. */
typedef struct cz__path_level {
    unsigned arity;
    uint32_t index;
    const cz_bls12381_fr *siblings;
} cz__path_level;

/* The levels of a path from the leaf up for a tree of nleaves leaves (a power of the arities):
 * the base levels, then the sub and top levels; 0 when nleaves does not fit the shape. */
unsigned cz__tree_path_levels(const cz__tree_shape *shape, uint64_t nleaves);

/* The inclusion of leaf under root (allocated by the caller) through the nlevels levels of path.
 * Unsupported arities or an index out of range are the system's error. */
void cz__por_circuit(cz__cs *cs, const cz_bls12381_fr *leaf, const cz__path_level *path,
                     unsigned nlevels, const cz__num *root, int private_root);

#endif
