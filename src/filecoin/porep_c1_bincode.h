/*
 * PoRep C1 files in bincode: filecoin-proofs' SealCommitPhase1Output<Tree> (types/mod.rs) as
 * bincode 1 writes it with its default options, which is what supra_seal's native C1 writes
 * (c1/c1.hpp WriteProofs) and Curio reads and writes (lib/proof/porep_vproof_bin_decode.go,
 * porep_vproof_bin_encode.go). Little-endian throughout; a Vec is a u64 count then its elements;
 * an enum is a u32 variant index then the variant; a domain value, commitment or ticket is 32 raw
 * bytes; PhantomData fields take no bytes.
 *
 *   C1         u64 partitions; per partition: u64 proofs, Proof × proofs; comm_r 32, comm_d 32,
 *              replica_id 32, seed 32, ticket 32; nothing after
 *   Proof      comm_d_proofs M (tree D), comm_r_last_proof M (tree R), replica_column_proofs
 *              (c_x C, u64 6, C × 6 DRG parents, u64 8, C × 8 expander parents), u64 layers,
 *              P × layers (labeling_proofs), P (encoding_proof)
 *   C          column: u32 index, u64 layers, 32 × layers rows; inclusion_proof M (tree C)
 *   P          u64 37, 32 × 37 parents, u32 layer_index, u64 node
 *   M          u32 tag: 0 Single: root 32, leaf 32, path; 1 Sub: base path, sub path, root, leaf;
 *              2 Top: base path, sub path, top path, root, leaf
 *   path       u64 levels; per level: u64 arity - 1, 32 × (arity - 1) siblings, u64 index
 *
 * This is the filecoin-proofs struct, not filecoin-proofs-api's: no registered proof and no
 * VanillaSealProof size tag, so nothing in the bytes names the sector size (Curio assumes 32 GiB).
 * The caller says which registered proof the C1 is of; the counts and tree shapes must then be its
 * own, which refuses a C1 of another size.
 *
 * The reader is as strict as the JSON one (porep_c1.h): the numbers of partitions and of proofs
 * per partition are the registered proof's; every Merkle proof has the variant (tree D Single and
 * binary; trees C and R the shape's), levels and arities of its tree, every index is below its
 * arity and every column index below the sector's nodes; every column has one row per layer,
 * every labeling proof 37 parents; every domain value is a field element below r; no byte is left
 * over. An error names the partition, the proof, the member and the byte offset.
 */
#ifndef CUZK_FILECOIN_POREP_C1_BINCODE_H
#define CUZK_FILECOIN_POREP_C1_BINCODE_H

#include "filecoin/porep_vanilla.h"

/* Reads the len bytes at data, the bincode C1 of registered seal proof registered_proof, into c1.
 * CZ_EFORMAT naming the place (a truncation, a count or tree shape that is not the registered
 * proof's, bytes left over), CZ_ENONCANON for a value not below r, CZ_EINVAL for a registered
 * proof that is not PoRep, CZ_ENOMEM. On failure c1 is empty (cz__porep_c1_free of it is
 * harmless); on success it is the caller's to free. */
int cz__porep_c1_read_bincode(cz__porep_c1 *c1, const uint8_t *data, size_t len,
                              uint64_t registered_proof, cz_errinfo *ei);

/* c1 as bincode (the layout above), *out malloc'd, *len its size. CZ_EINVAL for an unknown
 * registered proof, CZ_ENOMEM. */
int cz__porep_c1_write_bincode(uint8_t **out, size_t *len, const cz__porep_c1 *c1, cz_errinfo *ei);

#endif
