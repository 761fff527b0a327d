/*
 * SnapDeals vanilla proofs, as a SNAP_DEALS_UPDATE request carries them (one bincode
 * PartitionProof of storage-proofs-update vanilla.rs per partition), the update's randomness
 * (phi, rho, the challenges), the native check and the circuit witness they give.
 *
 * Bytes (bincode.h): comm_c (32); the apex leaves (u64 count: the shape's 8 or 128, 32 bytes
 * each); the challenge proofs (u64 count: the shape's 10 or 86), each the MerkleProofs
 * proof_r_old (tree R, the shape's variant), proof_d_new (tree D, Single, binary) and
 * proof_r_new (tree R). Every count, tag and arity is the shape's; values below r; no byte left
 * over. Errors name the partition, the challenge, the proof and the byte.
 *
 * Randomness (vanilla.rs, challenges.rs), every hash Poseidon-2 under the custom tag 2^40:
 * phi = H(comm_d_new, comm_r_old); rho(high) = H(phi, high) for the h high bits of a node
 * index; the challenges of partition k: digest j = H(comm_r_new, k·digests + j), its bits cut
 * into challenges of log2(nodes) - log2(partitions) bits (254 / that many a digest), each with
 * k above them.
 *
 * The native check of partition k (cz__snap_vanilla_check), before any synthesis, each failure
 * naming the partition, the challenge and what failed: k and h valid for the shape; root_r_old
 * and root_r_new (the first challenge's roots) give comm_r_old and comm_r_new with comm_c; the
 * apex leaves' tree and the partition path (the first challenge's tree D levels above the apex
 * leaves, the same in every challenge) lead to comm_d_new; per challenge, every path opens the
 * derived challenge and leads from its leaf to its root (root_r_old, comm_d_new, root_r_new),
 * leaf_r_new = leaf_r_old + leaf_d_new·rho, and tree D's node at the apex level is the apex leaf
 * the challenge falls under. That is what storage-proofs-update's verify checks and what the
 * circuit needs to be satisfied.
 *
 * The Poseidon variant (shape.variant, poseidon/vanilla.rs): the PartitionProof has no apex
 * leaves (comm_c, then the challenge proofs), proof_d_new is a Poseidon path of tree R's shape
 * under comm_d_new, and its one partition (k = 0) has the challenges of every SHA-256 partition,
 * derived as partition 0's with log2(nodes) bits each. Its check is the same without the apex and
 * partition path parts. (rust-fil-proofs has this variant's circuit, not its vanilla prover.)
 */
#ifndef CUZK_FILECOIN_SNAP_VANILLA_H
#define CUZK_FILECOIN_SNAP_VANILLA_H

#include "filecoin/merkle.h"
#include "filecoin/snap_circuit.h"

#define CZ__SNAP_MAX_CHALLENGES (16 * 86) /* the Poseidon variant's one partition */

typedef struct cz__snap_challenge_proof {
    cz__merkle_proof r_old, d_new, r_new;
} cz__snap_challenge_proof;

typedef struct cz__snap_vanilla {
    cz_bls12381_fr comm_c;
    unsigned napex, nchallenges;
    cz_bls12381_fr apex[CZ__SNAP_MAX_APEX];
    cz__snap_challenge_proof *ch; /* nchallenges */
} cz__snap_vanilla;

/* What the verifier knows of a partition. */
typedef struct cz__snap_public {
    uint32_t k;
    unsigned h; /* one of the shape's hs */
    cz_bls12381_fr comm_r_old, comm_d_new, comm_r_new;
} cz__snap_public;

/* Decodes partition k's proof (k for messages). CZ_EFORMAT with the place, CZ_ENONCANON, CZ_ENOMEM.
 * Free with cz__snap_vanilla_free (also after an error). */
int cz__snap_vanilla_decode(cz__snap_vanilla *out, const cz__snap_shape *s, const uint8_t *data,
                            size_t len, uint32_t k, cz_errinfo *ei);
void cz__snap_vanilla_free(cz__snap_vanilla *v);
/* The bytes of v (the inverse of decode): *out malloc'd, *len its size. CZ_ENOMEM. */
int cz__snap_vanilla_encode(uint8_t **out, size_t *len, const cz__snap_vanilla *v,
                            const cz__snap_shape *s, cz_errinfo *ei);

/* phi, rho and the challenges of partition k (the shape's count of them). */
void cz__snap_phi(cz_bls12381_fr *phi, const cz_bls12381_fr *comm_d_new,
                  const cz_bls12381_fr *comm_r_old);
void cz__snap_rho(cz_bls12381_fr *rho, const cz_bls12381_fr *phi, uint64_t high);
void cz__snap_challenges(uint32_t *out, const cz__snap_shape *s, const cz_bls12381_fr *comm_r_new,
                         uint32_t k);

/* The native check (see the file comment). CZ_EVERIFY naming what failed, CZ_EINVAL for k or h. */
int cz__snap_vanilla_check(const cz__snap_vanilla *v, const cz__snap_shape *s,
                           const cz__snap_public *pub, cz_errinfo *ei);

/* The circuit's witness of a checked proof: p points into the rest. */
typedef struct cz__snap_witness {
    cz__snap_partition p;
    cz__snap_challenge *ch; /* the shape's challenges */
    cz_bls12381_fr part[8];
    cz_bls12381_fr *paths; /* the challenges' siblings */
} cz__snap_witness;

int cz__snap_witness_make(cz__snap_witness *w, const cz__snap_vanilla *v, const cz__snap_shape *s,
                          const cz__snap_public *pub, cz_errinfo *ei);
void cz__snap_witness_free(cz__snap_witness *w);
/* The public inputs after ONE: k_and_h_select, comm_r_old, comm_d_new, comm_r_new. */
void cz__snap_public_inputs(cz_bls12381_fr out[4], const cz__snap_shape *s,
                            const cz__snap_public *pub);

#endif
