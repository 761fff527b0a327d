/*
 * What the PoRep verifier derives (rust-fil-proofs verify_seal; storage-proofs-porep
 * stacked/vanilla/params.rs, challenges.rs, circuit/proof.rs generate_public_inputs):
 *
 *   replica_id  SHA-256(prover_id ‖ sector_id (u64 big-endian) ‖ ticket ‖ comm_d ‖ porep_id), the
 *               top two bits of its last byte cleared (a field element, little-endian)
 *   challenges  interactive PoRep: for partition k and i below the challenges per partition n,
 *               j = n·k + i, the little-endian integer of SHA-256(replica_id ‖ seed ‖ j as u32
 *               little-endian) mod (nodes - 1), plus 1
 *   inputs      replica_id, comm_d, comm_r, then per challenge c: c (its tree D path), its 6 DRG
 *               and 8 expander parents (their tree C paths), c (the challenge), c (tree R), c
 *               (tree C): 3 + 18 per challenge, ONE not included
 *
 * A private PoRCircuit path's one input is its node index (the index bits packed least
 * significant first), so every path input is the node it opens.
 */
#ifndef CUZK_FILECOIN_POREP_INPUTS_H
#define CUZK_FILECOIN_POREP_INPUTS_H

#include "filecoin/porep_graph.h"

#define CZ__POREP_INPUTS_PER_CHALLENGE 18

void cz__porep_replica_id(cz_bls12381_fr *out, const uint8_t prover_id[32], uint64_t sector_id,
                          const uint8_t ticket[32], const uint8_t comm_d[32],
                          const uint8_t porep_id[32]);

/* The n interactive challenges of partition k (nodes at most 2^32). */
void cz__porep_challenges(uint64_t *out, size_t n, uint64_t nodes, const cz_bls12381_fr *replica_id,
                          const uint8_t seed[32], unsigned k);

/* The 3 + 18·n public inputs of a partition with challenges c (see the file comment). */
void cz__porep_public_inputs(cz_bls12381_fr *out, const cz__porep_graph *g,
                             const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_d,
                             const cz_bls12381_fr *comm_r, const uint64_t *c, size_t n);

#endif
