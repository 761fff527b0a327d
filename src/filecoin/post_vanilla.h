/*
 * PoSt vanilla proofs, as a WINNING_POST or WINDOW_POST_PARTITION request carries them (one
 * bincode FallbackPoStSectorProof per element of vanilla_proofs), their native check, the leaf
 * challenges, and the circuit witness and public inputs they give.
 *
 * Bytes (bincode 1, little-endian, u64 lengths, u32 enum tags): sector_id u64; comm_r 32; the
 * sector proofs (u64 count, always 1); the inclusion proofs (u64 count: 66 WinningPoSt, 10
 * WindowPoSt), each a ProofData: u32 tag 0 Single (root, leaf, base path), 1 Sub (base path,
 * sub path, root, leaf), 2 Top (base, sub, top paths, root, leaf), a path being a u64 count of
 * elements, each a u64 count of hashes (arity - 1), the hashes, a u64 index; then comm_c and
 * comm_r_last, 32 bytes each. Field values are canonical little-endian. The decoder is stricter
 * than bincode: the tag must fit the sector size's tree, counts and lengths must be the
 * shape's, every value below r, no byte may be left over; each error names the proof, the
 * inclusion proof, the level and the byte offset.
 *
 * Challenges: leaf(index) = u64_le(SHA-256(randomness ‖ sector_id u64 LE ‖ index u64 LE)[0..8])
 * mod leaves. The index of inclusion proof n is n for WinningPoSt and WindowPoSt V1_1 (ids
 * 10-14), and (partition·S + position)·10 + n for WindowPoSt V1 (ids 5-9); the caller gives the
 * base (partition·S + position)·10 or 0.
 *
 * The native check, before any synthesis: Poseidon-2(comm_c, comm_r_last) = comm_r; every
 * inclusion proof's root = comm_r_last; every path recomputed from its leaf gives its root; every
 * path opens the derived challenge. (rust-fil-proofs checks the same, but takes comm_r_last from
 * the first root and checks only the first of WinningPoSt's 66 paths before proving; a proof it
 * would accept and then prove wrong is refused here.)
 */
#ifndef CUZK_FILECOIN_POST_VANILLA_H
#define CUZK_FILECOIN_POST_VANILLA_H

#include "filecoin/post_circuit.h"
#include "filecoin/post_shape.h"

#define CZ__POST_MAX_LEVELS 16

typedef struct cz__post_inclusion {
    cz_bls12381_fr root, leaf;
    unsigned nlevels;
    cz__path_level levels[CZ__POST_MAX_LEVELS]; /* siblings point into sib */
    cz_bls12381_fr sib[CZ__POST_MAX_LEVELS][7];
    uint64_t leaf_index; /* Σ index_h · Π arities below h */
} cz__post_inclusion;

typedef struct cz__post_vanilla {
    uint64_t sector_id;
    cz_bls12381_fr comm_r, comm_c, comm_r_last;
    unsigned nproofs;
    cz__post_inclusion *proofs;
} cz__post_vanilla;

/* Decodes proof number which (for messages) of nproofs inclusion proofs for shape. CZ_EFORMAT
 * with the place, CZ_ENONCANON for a value not below r, CZ_ENOMEM. Free with
 * cz__post_vanilla_free (also after an error). */
int cz__post_vanilla_decode(cz__post_vanilla *out, const cz__post_shape *shape, unsigned nproofs,
                            const uint8_t *data, size_t len, size_t which, cz_errinfo *ei);
void cz__post_vanilla_free(cz__post_vanilla *v);
/* The bytes of v (the inverse of decode): *out malloc'd, *len its size. CZ_ENOMEM. */
int cz__post_vanilla_encode(uint8_t **out, size_t *len, const cz__post_vanilla *v,
                            const cz__post_shape *shape, cz_errinfo *ei);

/* The leaf challenged by challenge index under randomness in a sector of nleaves leaves. */
uint64_t cz__post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t index,
                                 uint64_t nleaves);

/* The native check of v (see the file comment), inclusion proof n against challenge index
 * index_base + n: cz__post_vanilla_check_comm, then cz__post_inclusion_check of every inclusion
 * proof in order (the two parts can run apart: cz__post_request_load spreads them over threads).
 * CZ_EVERIFY (CZ_EINVAL for a malformed path) naming the sector, the inclusion proof and what
 * failed. */
int cz__post_vanilla_check(const cz__post_vanilla *v, const cz__post_shape *shape,
                           const uint8_t randomness[32], uint64_t index_base, cz_errinfo *ei);
/* comm_r = Poseidon(comm_c, comm_r_last). */
int cz__post_vanilla_check_comm(const cz__post_vanilla *v, cz_errinfo *ei);
/* Inclusion proof n: its root is comm_r_last, it opens the challenged leaf, its path leads there.
 */
int cz__post_inclusion_check(const cz__post_vanilla *v, unsigned n, const cz__post_shape *shape,
                             const uint8_t randomness[32], uint64_t index_base, cz_errinfo *ei);

/* The circuit witness of a partition from its checked vanilla proofs: WinningPoSt's one proof
 * unrolled into 66 one-challenge sectors; WindowPoSt's proofs in order, the last repeated up to
 * shape->sectors. The arrays point into vs, which must outlive the witness. */
typedef struct cz__post_witness {
    cz__post_sector *sectors; /* shape->sectors */
    size_t nsectors;
    cz_bls12381_fr *leaves;
    cz__path_level *paths;
    uint64_t *leaf_index; /* per circuit sector and challenge: the public input */
} cz__post_witness;

/* CZ_EINVAL (a count that does not fit the shape), CZ_ENOMEM. */
int cz__post_witness_make(cz__post_witness *w, const cz__post_vanilla *vs, size_t nvs,
                          const cz__post_shape *shape, cz_errinfo *ei);
void cz__post_witness_free(cz__post_witness *w);
/* The public inputs of the partition (ONE excluded), canonical limbs: per circuit sector comm_r,
 * then each challenged leaf index. values has nsectors·(1 + challenges) entries. */
void cz__post_public_inputs(uint64_t (*values)[4], const cz__post_witness *w,
                            const cz__post_shape *shape);

#endif
