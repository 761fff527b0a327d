/*
 * The label of a PoRep node in a circuit, as rust-fil-proofs' create_label_circuit
 * (storage-proofs-porep stacked/circuit/create_label.rs): SHA-256 (gadgets/sha256.h) of
 *
 *   replica_id (its bits, padded with constant zeros to 256) ‖ layer (32 bits, big-endian) ‖
 *   node (64 bits, big-endian) ‖ constant zeros to 512 bits ‖ the 37 parents (256 bits each)
 *
 * = 9,984 bits, 20 compression blocks with the padding; the digest's bits renumbered within each
 * byte (reverse_bit_numbering: its little-endian reading), the first 254 of them packed into one
 * number (pack_bits). Natively that is the digest with the top two bits of its last byte cleared,
 * read as a little-endian field element. The layer is a constant of the circuit; the replica id,
 * the node and the parents are the caller's Booleans.
 */
#ifndef CUZK_FILECOIN_POREP_LABEL_H
#define CUZK_FILECOIN_POREP_LABEL_H

#include "gadgets/num.h"

#define CZ__POREP_PARENTS 37 /* TOTAL_PARENTS: 6 DRG and 8 expander parents, repeated */

/* The label: nid ≤ 256 replica-id bits (as the preimage takes them), the node's 64 bits least
 * significant first (UInt64), each parent's 256 bits in preimage order. */
cz__num cz__porep_label_circuit(cz__cs *cs, const cz__bool *replica_id, size_t nid, uint32_t layer,
                                const cz__bool node[64],
                                const cz__bool *const parents[CZ__POREP_PARENTS]);

/* The same label natively: SHA-256 of replica_id ‖ layer ‖ node ‖ zeros ‖ the 37 parents (each
 * value's 32 little-endian bytes; parents[k mod nparents] for k < 37, the expansion of 6 or 14
 * parents), the top two bits of the digest cleared, read little-endian. */
void cz__porep_label_native(cz_bls12381_fr *out, const cz_bls12381_fr *replica_id, uint32_t layer,
                            uint64_t node, const cz_bls12381_fr *parents, unsigned nparents);

#endif
