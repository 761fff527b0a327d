/*
 * The SnapDeals (EmptySectorUpdate) partition circuit, as rust-fil-proofs' EmptySectorUpdateCircuit
 * (storage-proofs-update circuit.rs, gadgets.rs, constants.rs) synthesizes it, in its order.
 *
 * The top:
 *   - k_and_h_select allocated and made an input, split into the partition's bits and the
 *     h-select bits ((Σ 2^i·b_i)·ONE = it); the partition packed (pack_bits);
 *   - comm_r_old, comm_d_new, comm_r_new allocated and made inputs;
 *   - phi = Poseidon-2 under the custom tag 2^40 of (comm_d_new, comm_r_old);
 *   - comm_c, root_r_old, root_r_new, the apex leaves and the partition path allocated;
 *   - comm_r_old = Poseidon-2(comm_c, root_r_old), the same for comm_r_new, enforced;
 *   - the apex tree (SHA-256 nodes) from the apex leaves, its root's inclusion in tree D under
 *     comm_d_new through the partition path (the partition's bits);
 *   - the challenges' bits: per digest j, digest_index = k·digests + j, digest = custom
 *     Poseidon-2(comm_r_new, digest_index), its 255 bits, cut into challenges of
 *     log2(nodes) - log2(partitions) bits (254 / that many a digest).
 * Each challenge (its bits: the digest's, then the partition's):
 *   - the high h bits packed for each h of the shape's six, scaled by their h-select bit and
 *     summed (c_high); rho = custom Poseidon-2(phi, c_high);
 *   - leaf_r_old and leaf_d_new allocated; leaf_r_new = leaf_r_old + leaf_d_new·rho;
 *   - the inclusions of leaf_r_old under root_r_old and of leaf_r_new under root_r_new in tree R
 *     (Poseidon, the sector's shape), each path's siblings allocated first;
 *   - the challenge's apex leaf selected by its bits above the apex level, and the inclusion of
 *     leaf_d_new under it through the lower levels of tree D.
 * Every inclusion is por_no_challenge_input (por.h): no inputs.
 *
 * Public inputs: ONE, k_and_h_select (k | h_select << log2(partitions), h_select = 1 << the index
 * of h among the shape's six), comm_r_old, comm_d_new, comm_r_new. The structure depends only on
 * the shape; a blank circuit (every value zero) records it. Rows of a 32 GiB partition:
 * 81,049,499 (5,951,289 in the top, 873,235 a challenge).
 *
 * The Poseidon variant (storage-proofs-update poseidon/circuit.rs, "empty-sector-update-poseidon"):
 * tree D is a Poseidon tree of tree R's shape, so there is no apex tree and no partition path; one
 * partition holds every challenge of the SHA-256 variant's partitions (10 or 86 times the
 * partition count), challenges of log2(nodes) bits. Its top: h_select (its input, its 6 bits),
 * the three commitments, phi, comm_c and the roots with their two hashes, then a partition number
 * allocated with the value 0 and no row, the challenges' bits; each challenge's tree D inclusion
 * is a third tree R path under comm_d_new. Its public inputs are the same four with k = 0.
 * Rows: 32,164 at 1 KiB, 47,974 at 8 KiB, 22,305,906 at 32 GiB (1,376 challenges).
 */
#ifndef CUZK_FILECOIN_SNAP_CIRCUIT_H
#define CUZK_FILECOIN_SNAP_CIRCUIT_H

#include "gadgets/por.h"

#define CZ__SNAP_HS       6   /* the h values a circuit knows */
#define CZ__SNAP_MAX_APEX 128 /* the most apex leaves a partition has */

/* The two circuits: tree D by SHA-256 (what Filecoin proves) or by Poseidon. */
typedef enum cz__snap_variant { CZ__SNAP_SHA256 = 0, CZ__SNAP_POSEIDON = 1 } cz__snap_variant;

/* A sector size's circuit shape (storage-proofs-update constants.rs). */
typedef struct cz__snap_shape {
    cz__snap_variant variant;
    uint64_t sector_size, nodes;
    unsigned partitions, challenges, apex_leaves;
    unsigned hs[CZ__SNAP_HS];
    cz__tree_shape tree_r;
    unsigned challenge_bits; /* log2(nodes): tree D's levels */
    unsigned partition_bits, apex_bits;
    unsigned levels_r;       /* tree R's path */
    unsigned levels_to_apex; /* tree D below the apex leaves (0 in the Poseidon variant) */
} cz__snap_shape;

/* The shape of sector_size in variant: the published sizes (2 KiB, 8 MiB, 512 MiB, 32 GiB,
 * 64 GiB) and the test sizes of rust-fil-proofs (1, 4, 8, 16, 32 KiB, 16 MiB); CZ_EINVAL for
 * another. */
int cz__snap_shape_get(cz__snap_shape *shape, uint64_t sector_size, cz__snap_variant variant,
                       cz_errinfo *ei);
/* The variant's name in rust-fil-proofs' parameter cache ("empty-sector-update[-poseidon]"). */
const char *cz__snap_variant_name(cz__snap_variant variant);
/* The index of h among the shape's hs (the h_select bit), or -1. */
int cz__snap_h_index(const cz__snap_shape *shape, unsigned h);
/* The random bits of each challenge, generated from the digests: challenge_bits less the
 * partition's bits, which complete a challenge's index. */
static inline unsigned cz__snap_rand_bits(const cz__snap_shape *shape) {
    return shape->challenge_bits - shape->partition_bits;
}

/* One challenge's witness: the leaves and the paths' siblings, levels from the leaf up (level l's
 * arity - 1 siblings after level l - 1's; tree D's one sibling a level, below the apex leaf). */
typedef struct cz__snap_challenge {
    cz_bls12381_fr leaf_r_old, leaf_d_new;
    const cz_bls12381_fr *path_r_old, *path_r_new; /* tree R: the shape's levels_r levels */
    const cz_bls12381_fr
        *path_d; /* levels_to_apex siblings; Poseidon variant: as the tree R paths */
} cz__snap_challenge;

/* A partition's witness. */
typedef struct cz__snap_partition {
    uint32_t k;       /* the partition */
    unsigned h_index; /* h = hs[h_index] */
    cz_bls12381_fr comm_r_old, comm_d_new, comm_r_new, comm_c, root_r_old, root_r_new;
    const cz_bls12381_fr *apex_leaves;    /* apex_leaves */
    const cz_bls12381_fr *partition_path; /* partition_bits siblings, from the apex root up */
    const cz__snap_challenge *challenges; /* the shape's challenges */
} cz__snap_partition;

/* The partition's circuit into cs. Faults (k or h_index out of range) are the system's error. */
void cz__snap_circuit(cz__cs *cs, const cz__snap_shape *shape, const cz__snap_partition *p);

/* The circuit in pieces, for a synthesis in chunks (synth_chunks.h): the top, then each challenge
 * c in a system of its own (WITNESS, or PROVE without densities) with the top's state, has the
 * rows and variables it has in the whole circuit, in the same order. What the challenges take
 * from the top: */
typedef struct cz__snap_top {
    cz__num phi, comm_d_new, root_r_old, root_r_new;
    cz__num apex[CZ__SNAP_MAX_APEX];
    cz__bool k_bits[8], h_select[CZ__SNAP_HS];
    cz__bool *gen; /* the challenges' generated bits (malloc'd by the top) */
} cz__snap_top;

void cz__snap_circuit_top(cz__cs *cs, const cz__snap_shape *shape, const cz__snap_partition *p,
                          cz__snap_top *top);
void cz__snap_circuit_challenge(cz__cs *cs, const cz__snap_shape *shape,
                                const cz__snap_challenge *ch, const cz__snap_top *top, size_t c);
void cz__snap_top_free(cz__snap_top *top);

/* The blank circuit of one partition of shape (every value zero) into cs; nchallenges 0 means
 * the shape's (fewer: a count that extrapolates, the challenges being alike). CZ_ENOMEM, or the
 * system's error. */
int cz__snap_circuit_blank(cz__cs *cs, const cz__snap_shape *shape, size_t nchallenges,
                           cz_errinfo *ei);
/* The blank circuit's top and its first challenge into cs (RECORD), for a recording that copies
 * the challenge (cz__snap_record): *top_end, the mark after the top; *gen_aux (malloc'd,
 * challenges × cz__snap_rand_bits), the aux index of every challenge's generated bits,
 * challenge c's at c·cz__snap_rand_bits. A challenge reads nothing else of
 * the top that differs between challenges. CZ_ENOMEM, CZ_EFORMAT, or the system's error. */
int cz__snap_circuit_blank_first(cz__cs *cs, const cz__snap_shape *shape, cz__cs_mark *top_end,
                                 uint32_t **gen_aux, cz_errinfo *ei);

/* The gadgets of storage-proofs-update gadgets.rs, for their own tests. apex_por: the apex tree
 * of nleaves (a power of two) leaves, its root's inclusion under comm_d through path (nbits
 * binary levels, the partition's bits). */
void cz__snap_apex_por(cz__cs *cs, const cz__num *leaves, size_t nleaves, const cz__bool *bits,
                       unsigned nbits, const cz__num *path, const cz__num *comm_d);
/* gen_challenge_bits: nchallenges × bits_per_challenge new bits into out (challenge c's at
 * c·bits_per_challenge, least significant first) from comm_r_new and the packed partition. */
void cz__snap_gen_challenge_bits(cz__cs *cs, cz__bool *out, const cz__num *comm_r_new,
                                 const cz__num *partition, unsigned nchallenges,
                                 unsigned bits_per_challenge);

#endif
