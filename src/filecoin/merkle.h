/*
 * Merkle trees natively, as rust-fil-proofs hashes them: the root a path leads to, and a tree
 * computed from its opened leaves only (the fake sectors of PoSt and PoRep): level
 * by level, the nodes known so far are grouped by parent, a group's other children get random
 * values, and the parents, hashed from their children, are the next level's known nodes. So a
 * tree of 2^30 leaves costs what its opened paths cost.
 *
 * Leaves that share an index must share the value (the first given is used). The hash of a level
 * is Poseidon of its arity with the MerkleTree tag, or rust-fil-proofs' SHA-256 node for binary
 * levels (tree D). Random values are below 2^253 and come from *rng alone (SplitMix64).
 */
#ifndef CUZK_FILECOIN_MERKLE_H
#define CUZK_FILECOIN_MERKLE_H

#include "gadgets/por.h"

#define CZ__TREE_MAX_LEVELS 32

/* A path with its own siblings: levels[l] points its siblings into sib[l] (cz__tree_path_fix
 * points them there again after a copy). */
typedef struct cz__tree_path {
    unsigned nlevels;
    cz__path_level levels[CZ__TREE_MAX_LEVELS];
    cz_bls12381_fr sib[CZ__TREE_MAX_LEVELS][7];
} cz__tree_path;

void cz__tree_path_fix(cz__tree_path *p);

/* A Merkle proof as the vanilla proofs carry it: the leaf, the root and the path between. */
typedef struct cz__merkle_proof {
    cz_bls12381_fr leaf, root;
    cz__tree_path path;
} cz__merkle_proof;
/* The node a path opens: Σ index_l · Π arities below l. */
uint64_t cz__tree_path_node(const cz__path_level *levels, unsigned nlevels);
/* The root the path leads to from leaf; CZ_EINVAL for a level its hash cannot do. */
int cz__tree_path_root(cz_bls12381_fr *root, const cz_bls12381_fr *leaf,
                       const cz__path_level *levels, unsigned nlevels, cz__tree_hash hash,
                       cz_errinfo *ei);

/* SplitMix64, and a random element below 2^253 from it. */
uint64_t cz__fake_mix(uint64_t *rng);
void cz__fake_fr(cz_bls12381_fr *out, uint64_t *rng);

/* The root and the paths[i] of the n leaves (index[i], value[i]) of a tree whose levels from the
 * leaves up have the nlevels arities. CZ_EINVAL (an arity hash cannot do, too many levels),
 * CZ_ENOMEM. */
int cz__fake_tree(cz_bls12381_fr *root, cz__tree_path *paths, const uint64_t *index,
                  const cz_bls12381_fr *value, size_t n, const unsigned *arities, unsigned nlevels,
                  cz__tree_hash hash, uint64_t *rng, cz_errinfo *ei);

/* The arities of a tree of nleaves leaves of shape, from the leaves up; 0 levels when it does not
 * fit. */
unsigned cz__fake_tree_arities(unsigned *arities, const cz__tree_shape *shape, uint64_t nleaves);

#endif
