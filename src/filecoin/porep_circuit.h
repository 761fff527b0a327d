/*
 * The PoRep (StackedDrg) partition circuit, as rust-fil-proofs' StackedCircuit::synthesize
 * (storage-proofs-porep stacked/circuit/proof.rs, params.rs) builds it, in its order:
 *
 *   top        replica_id allocated, made an input, to_bits_le and renumbered (256 bits); comm_d
 *              and comm_r allocated and made inputs; comm_r_last and comm_c allocated;
 *              Poseidon-2(comm_c, comm_r_last) = comm_r (311 + 1 rows)
 *   challenge  (for each of the partition's challenges)
 *     1. the data leaf allocated, its inclusion in tree D (binary SHA-256) under comm_d
 *     2. the 6 DRG then the 8 expander parents: the column (one number per layer), its Poseidon
 *        (arity 2 for 2 layers, 11 for 11), the hash's inclusion in tree C under comm_c
 *     3. the challenge as 64 allocated bits (UInt64) packed into an input
 *     4. per layer l = 1..L: the parents' values to_bits_le and renumbered (the DRG parents' row
 *        l; from layer 2 the expander parents' row l - 1 too), expanded to 37 (layer 1: the 6 DRG
 *        values six times, then the first; later: the 14 twice, then the first 9), the label at
 *        layer l of the node (porep_label.h), with the challenge's bits
 *     5. the encoding: last label + data leaf (one row), its inclusion in tree R under
 *        comm_r_last
 *     6. the column of the labels hashed, its inclusion in tree C under comm_c
 *   Every inclusion is PoRCircuit with the root private: one input per path (its index bits).
 *
 * Public inputs: replica_id, comm_d, comm_r, then per challenge 18 (tree D path, the 14 parents'
 * tree C paths, the challenge, the tree R path, the tree C path); ONE is input 0. The structure
 * depends only on the shape; a blank circuit (every value zero) records it.
 */
#ifndef CUZK_FILECOIN_POREP_CIRCUIT_H
#define CUZK_FILECOIN_POREP_CIRCUIT_H

#include "gadgets/por.h"

#define CZ__POREP_DRG_PARENTS 6
#define CZ__POREP_EXP_PARENTS 8
#define CZ__POREP_COL_PARENTS (CZ__POREP_DRG_PARENTS + CZ__POREP_EXP_PARENTS)
#define CZ__POREP_MAX_LAYERS  11

/* A sector size's circuit shape (rust-fil-proofs filecoin-proofs constants.rs). */
typedef struct cz__porep_shape {
    uint64_t sector_size, nodes;
    unsigned layers;     /* 2 or 11 */
    unsigned challenges; /* per partition */
    unsigned partitions; /* interactive PoRep */
    cz__tree_shape tree; /* trees R and C */
    unsigned levels_d;   /* tree D, binary */
    unsigned levels_rc;
} cz__porep_shape;

/* The shape of sector_size (2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB); CZ_EINVAL for another. */
int cz__porep_shape_get(cz__porep_shape *shape, uint64_t sector_size, cz_errinfo *ei);

/* A column proof: the parent's labels, one per layer, and its path in tree C. */
typedef struct cz__porep_column {
    cz_bls12381_fr rows[CZ__POREP_MAX_LAYERS];
    const cz__path_level *path; /* shape->levels_rc */
} cz__porep_column;

/* One challenge's witness. */
typedef struct cz__porep_challenge {
    uint64_t node;
    cz_bls12381_fr data_leaf;
    const cz__path_level *path_d;                    /* shape->levels_d */
    cz__porep_column parents[CZ__POREP_COL_PARENTS]; /* 6 DRG, then 8 expander */
    const cz__path_level *path_r, *path_c;           /* shape->levels_rc each */
} cz__porep_challenge;

/* A partition's witness: the commitments and nchallenges challenges. */
typedef struct cz__porep_partition {
    cz_bls12381_fr replica_id, comm_d, comm_r, comm_r_last, comm_c;
    const cz__porep_challenge *challenges;
    size_t nchallenges;
} cz__porep_partition;

/* The partition's circuit into cs. Structural faults (paths of the wrong arity) are the
 * system's error. */
void cz__porep_circuit(cz__cs *cs, const cz__porep_shape *shape, const cz__porep_partition *p);

/* The circuit in parts, for synthesis in chunks: the top (the commitments, up to comm_r's
 * check), then each challenge. What the challenges take from the top (their roots and the replica
 * id's bits) is in cz__porep_top. A challenge synthesized in a system of its own (WITNESS, or
 * PROVE without densities, whose gadgets read values, never the variables behind them) with
 * another system's top has the rows and variables it has in the whole circuit, in the same order
 * (cz__porep_circuit is the top and the challenges in one system). */
typedef struct cz__porep_top {
    cz__num comm_d, comm_c, comm_r_last;
    cz__bool id_bits[256];
} cz__porep_top;

void cz__porep_circuit_top(cz__cs *cs, const cz__porep_shape *shape, const cz__porep_partition *p,
                           cz__porep_top *top);
void cz__porep_circuit_challenge(cz__cs *cs, const cz__porep_shape *shape,
                                 const cz__porep_challenge *ch, const cz__porep_top *top);

/* The blank circuit of one partition of shape (every value zero) into cs; nchallenges 0 means
 * the shape's. top (NULL: not wanted) is where cs stands after the top, before the challenges.
 * CZ_ENOMEM, or the system's error. */
int cz__porep_circuit_blank(cz__cs *cs, const cz__porep_shape *shape, size_t nchallenges,
                            cz__cs_mark *top, cz_errinfo *ei);

#endif
