/*
 * The PoRep challenges: which nodes a partition proves, for the three kinds of registered seal
 * proof (rust-fil-proofs storage-proofs-porep stacked/vanilla/challenges.rs). A challenge is a
 * node in [1, nodes): a 256-bit little-endian integer x becomes x mod (nodes - 1), plus 1
 * (bigint_to_challenge), so node 0 is never challenged. Partition k of n challenges per partition
 * takes challenges n·k .. n·k + n - 1 of one sequence, so the partitions of a sector never
 * overlap and together equal one partition of all the challenges.
 *
 *   interactive      (InteractiveChallenges) challenge j: SHA-256(replica_id ‖ seed ‖ j as u32
 *                    little-endian)
 *   non-interactive  (NiChallenges) challenge j: SHA-256("filecoin.io|PoRep|1|NonInteractive|1"
 *                    ‖ replica_id ‖ comm_r ‖ j as u32 little-endian); no seed
 *   synthetic        (SynthChallenges, SynthChallengeGenerator) two ChaCha20 streams (IETF: a
 *                    12-byte nonce "synth-porep\0" and a 32-bit block counter from 0), each keyed
 *                    by a BLAKE2b-256 whose BLAKE2b key is a tag:
 *                    - generation, keyed BLAKE2b("filecoin.io|PoRep|1|Synthetic|1|Generation",
 *                      replica_id ‖ comm_r): synthetic challenge i is bytes [32i, 32i + 32) of
 *                      the stream; a sector has min(nodes, 2^18) of them, all proven at
 *                      pre-commit, before the seed is known;
 *                    - selection, keyed BLAKE2b("filecoin.io|PoRep|1|Synthetic|1|Selection",
 *                      replica_id ‖ seed): challenge j proven in C2 is the synthetic challenge
 *                      whose index is the u32 little-endian at byte 4j of the stream, mod the
 *                      number of synthetic challenges.
 *
 * replica_id and comm_r enter every hash as the 32 little-endian bytes of their field element.
 * Nothing here fails or allocates: the inputs are field elements already checked, and nodes is a
 * sector's node count (2 to 2^32).
 */
#ifndef CUZK_FILECOIN_POREP_CHALLENGES_H
#define CUZK_FILECOIN_POREP_CHALLENGES_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/field.h"

/* DEFAULT_SYNTH_CHALLENGE_COUNT: the synthetic challenges of a sector of 2^18 nodes or more. */
#define CZ__POREP_SYNTH_MAX (UINT64_C(1) << 18)

/* The n interactive challenges of partition k (nodes at most 2^32). */
void cz__porep_challenges(uint64_t *out, size_t n, uint64_t nodes, const cz_bls12381_fr *replica_id,
                          const uint8_t seed[32], unsigned k);

/* The n non-interactive challenges of partition k. */
void cz__porep_challenges_ni(uint64_t *out, size_t n, uint64_t nodes,
                             const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_r,
                             unsigned k);

/* The number of synthetic challenges of a sector of nodes nodes: min(nodes, 2^18). */
uint64_t cz__porep_synth_count(uint64_t nodes);

/* Synthetic challenges first .. first + n - 1 (the whole set is first 0, n the count above). */
void cz__porep_synth_challenges(uint64_t *out, uint64_t first, size_t n, uint64_t nodes,
                                const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_r);

/* The indexes, each below nsynth, of the synthetic challenges that partition k of n challenges
 * proves (derive_indexes: where C1 finds its proofs among the synthetic ones). */
void cz__porep_synth_indexes(uint64_t *out, size_t n, uint64_t nsynth,
                             const cz_bls12381_fr *replica_id, const uint8_t seed[32], unsigned k);

/* The n challenges of partition k of a Synthetic PoRep: the synthetic challenges at the indexes
 * above, with cz__porep_synth_count(nodes) of them. */
void cz__porep_challenges_synth(uint64_t *out, size_t n, uint64_t nodes,
                                const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_r,
                                const uint8_t seed[32], unsigned k);

#endif
