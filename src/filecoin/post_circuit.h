/*
 * The fallback PoSt circuit of rust-fil-proofs (storage-proofs-post/src/fallback/circuit.rs),
 * WinningPoSt and WindowPoSt, over the cs layer and the gadgets.
 *
 * Per sector, in order: comm_r_last, comm_c and comm_r allocated; comm_r made an input;
 * Poseidon-2 of (comm_c, comm_r_last) equal to comm_r; then for each challenged leaf the
 * inclusion proof in tree R under comm_r_last (private root: the path bits are the only input
 * it adds). Rows per sector: 313 + challenges·(levels·530 + 2) for a tree of arity 8; inputs per
 * sector: comm_r and one packed path per challenge. bellperson synthesizes the sectors in chunks
 * joined by extend, which gives the same system as one after the other (cs.h), so the sectors
 * are synthesized here in order.
 */
#ifndef CUZK_FILECOIN_POST_CIRCUIT_H
#define CUZK_FILECOIN_POST_CIRCUIT_H

#include "gadgets/por.h"

/* One sector's witness: nchallenges leaves, each with a path of nlevels levels
 * (paths[c·nlevels + l]). */
typedef struct cz__post_sector {
    cz_bls12381_fr comm_r, comm_c, comm_r_last;
    unsigned nchallenges, nlevels;
    const cz_bls12381_fr *leaves;
    const cz__path_level *paths;
} cz__post_sector;

/* Synthesizes the sectors in order. */
void cz__post_circuit(cz__cs *cs, const cz__post_sector *sectors, size_t nsectors);

/* Synthesizes the blank circuit of nsectors sectors of nchallenges challenges in a tree of
 * shape with nleaves leaves (zero values, index 0): the structure, for record mode. CZ_EINVAL
 * when the shape does not fit nleaves, CZ_ENOMEM; the system's error otherwise. */
int cz__post_circuit_blank(cz__cs *cs, const cz__tree_shape *shape, uint64_t nleaves,
                           size_t nsectors, unsigned nchallenges, cz_errinfo *ei);

#endif
