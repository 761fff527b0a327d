/*
 * Merkle inclusion in a Poseidon or SHA-256 tree, as rust-fil-proofs' PoRCircuit
 * (storage-proofs-core gadgets/por.rs) synthesizes it: from the leaf, per level of the path
 * (the base levels of arity base, then one of arity sub when the tree has sub-trees, then one of
 * arity top), the index bits of the node among its siblings (least significant first), the
 * siblings allocated, insert, and the node hash (Poseidon of that arity with the MerkleTree tag,
 * or the SHA-256 node of sha256.h); then all index bits packed into public inputs, the computed
 * root equal to the given one (computed·ONE = root), and the root exposed as an input unless
 * private. Rows per level of arity 8 (Poseidon): 3 + 22 + 505 = 530; per level of a binary
 * SHA-256 tree: 1 + 2 + 2·256 + the hash of 512 bits of which two are constants + 1 = 45,382;
 * per path: the levels plus 2.
 */
#ifndef CUZK_GADGETS_POR_H
#define CUZK_GADGETS_POR_H

#include "gadgets/num.h"

/* A tree's arities: base (2, 4, 8...), sub and top (0: none). */
typedef struct cz__tree_shape {
    unsigned base, sub, top;
} cz__tree_shape;

/* The hash of a tree's nodes: Poseidon of the level's arity (MerkleTree tag; trees R and C), or
 * rust-fil-proofs' SHA-256 node (sha256.h; tree D, binary). */
typedef enum { CZ__TREE_POSEIDON, CZ__TREE_SHA256 } cz__tree_hash;

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

/* The arity of level l of a path of nlevels levels of shape (base levels, then sub, then top). */
unsigned cz__tree_level_arity(const cz__tree_shape *shape, unsigned nlevels, unsigned l);

/* A blank path of nlevels levels of shape (base levels, then sub, then top), each at index 0 with
 * its siblings at zeros (at least the largest arity - 1 zero elements). */
void cz__tree_blank_path(cz__path_level *out, const cz__tree_shape *shape, unsigned nlevels,
                         const cz_bls12381_fr *zeros);

/* The inclusion of leaf under root (both allocated by the caller: rust-fil-proofs allocates a
 * leaf given by value first thing, so a caller with a value allocates it just before) through the
 * nlevels levels of path, nodes hashed by hash. Unsupported arities or an index out of range are
 * the system's error. */
void cz__por_circuit(cz__cs *cs, cz__tree_hash hash, const cz__num *leaf,
                     const cz__path_level *path, unsigned nlevels, const cz__num *root,
                     int private_root);

/* storage-proofs-core's por_no_challenge_input: the inclusion of leaf under root when the index
 * bits exist already (the challenge's bits, allocated by the caller, least significant first,
 * log2 of each level's arity a level) and so do the siblings (allocated by the caller before the
 * gadget: level l's arity - 1 siblings follow level l - 1's in siblings); the levels' arities are
 * those of shape. Per level insert and hash, then computed·ONE = root; no inputs. Rows per level:
 * arity 8 (Poseidon) 22 + 505 = 527, binary SHA-256 2 + 45,379 = 45,381; per path the levels
 * plus 1. */
void cz__por_no_challenge_input(cz__cs *cs, cz__tree_hash hash, const cz__tree_shape *shape,
                                unsigned nlevels, const cz__bool *bits, const cz__num *leaf,
                                const cz__num *siblings, const cz__num *root);

#endif
