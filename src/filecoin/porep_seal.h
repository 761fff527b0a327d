/*
 * A PoRep mini-sealer: a real 2 KiB sector sealed as rust-fil-proofs seals it (StackedDrg;
 * storage-proofs-porep stacked/vanilla/proof.rs, create_label/single.rs; filecoin-proofs
 * api/seal.rs), and the C1 output of its interactive challenges in memory (porep_vanilla.h). It
 * is the source of honest C1s for tests, beside the fake sectors of porep_fake.h, and for C1s
 * whose every node, not only the opened ones, is real.
 *
 * Sealing, in rust-fil-proofs' order:
 *   tree D      the binary SHA-256 tree of the data, 32-byte Fr32 leaves (merkle.h's node hash):
 *               its root is comm_d
 *   replica id  from prover_id, sector_id, ticket, comm_d's 32 bytes and the porep_id of the
 *               registered proof (porep_inputs.h)
 *   labels      layer after layer, node after node (cz__porep_seal_labels below)
 *   tree C      Poseidon of each node's column (its labels in layers 1..L, the Merkle tag of
 *               arity L), the tree of the shape's arities over those hashes: its root is comm_c
 *   tree R      the encoded nodes, last layer's label + data in Fr, same arities: comm_r_last
 *   comm_r      Poseidon-2(comm_c, comm_r_last)
 * then, for each interactive challenge of partition 0 (porep_inputs.h), the openings the C1 holds:
 * the data leaf in tree D, the encoded node in tree R, the columns of the challenge and of its 6
 * DRG and 8 expander parents in tree C, the labeling proofs (the parents' values expanded to 37)
 * and the encoding proof.
 *
 * Every tree is built whole (every level of every node kept), which is cheap at 64 nodes; the
 * code loops over the shape's nodes, layers and levels, and only the entry point promises 2 KiB.
 * The C1 is the caller's to free (cz__porep_c1_free).
 */
#ifndef CUZK_FILECOIN_POREP_SEAL_H
#define CUZK_FILECOIN_POREP_SEAL_H

#include "filecoin/porep_vanilla.h"

#define CZ__POREP_SEAL_2K_BYTES 2048

/* The SDR labels of every node of g in layers 1..layers for replica_id, layer l's node v at
 * labels[(l - 1)·g->nodes + v] (layers·g->nodes of them). Node 0 hashes no parents: its label is
 * SHA-256 of replica_id ‖ layer ‖ node ‖ zeros alone. Node v ≥ 1 hashes 37 parents (porep_label.h):
 * in layer 1 its 6 DRG parents in layer 1; from layer 2 its DRG parents in the same layer and its
 * 8 expander parents in the layer below. */
void cz__porep_seal_labels(cz_bls12381_fr *labels, const cz__porep_graph *g,
                           const cz_bls12381_fr *replica_id, unsigned layers);

/* Seals the 2 KiB sector data (64 Fr32 nodes of 32 little-endian bytes) of registered seal proof
 * id registered (0: StackedDrg2KiBV1, 5: StackedDrg2KiBV1_1) for prover_id, sector_id and ticket,
 * and proves the interactive challenges of seed, into c1: comm_d, comm_r, replica_id, seed,
 * ticket, registered_proof, npartitions = 1, per = the shape's challenges and their proofs.
 * CZ_EINVAL (another registered proof, a node with its top two bits set), CZ_ENOMEM. On failure
 * c1 is empty; free it with cz__porep_c1_free. */
int cz__porep_seal_2k(cz__porep_c1 *c1, uint64_t registered, const uint8_t data[2048],
                      const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                      const uint8_t seed[32], cz_errinfo *ei);

#endif
