/*
 * A PoRep C1 output in memory (rust-fil-proofs' SealCommitPhase1Output and stacked::Proof), its
 * native check as the verifier makes it, and the circuit witness it gives.
 *
 * Per challenge (cz__porep_vanilla): the data leaf's proof in tree D (comm_d_proofs), the encoded
 * node's in tree R (comm_r_last_proof), the columns of the challenge (c_x) and of its 6 DRG and 8
 * expander parents with their proofs in tree C, one labeling proof per layer (the 37 parent
 * values hashed, the layer, the node) and the encoding proof (the last layer's).
 *
 * The native check of partition k (cz__porep_vanilla_check), before any synthesis, each failure
 * naming the partition, the challenge and what failed:
 *   - comm_r = Poseidon-2(comm_c, comm_r_last), comm_c and comm_r_last being the roots of the
 *     partition's first proof (as rust-fil-proofs takes them); every proof has those roots
 *   - the challenge is the derived one (porep_inputs.h) and every path opens it: tree D to
 *     comm_d, tree R, c_x in tree C
 *   - each parent is the graph's (porep_graph.h), its column hashes (Poseidon of the layers) to
 *     its leaf, its path leads to comm_c
 *   - each layer's labeling proof is of that layer and node, its parents are the columns' values
 *     (DRG at the layer, expander at the layer below, expanded to 37), and its label is c_x's row
 *   - the encoding: its label is the last row, and last row + data leaf = the tree R leaf
 */
#ifndef CUZK_FILECOIN_POREP_VANILLA_H
#define CUZK_FILECOIN_POREP_VANILLA_H

#include "filecoin/merkle.h"
#include "filecoin/porep_inputs.h"
#include "filecoin/porep_label.h"

typedef struct cz__porep_column_proof {
    uint32_t index;
    cz_bls12381_fr rows[CZ__POREP_MAX_LAYERS];
    cz__merkle_proof inclusion;
} cz__porep_column_proof;

typedef struct cz__porep_label_proof {
    cz_bls12381_fr parents[CZ__POREP_PARENTS];
    uint32_t layer;
    uint64_t node;
} cz__porep_label_proof;

typedef struct cz__porep_vanilla {
    cz__merkle_proof comm_d_proof, comm_r_last_proof;
    cz__porep_column_proof c_x, drg[CZ__POREP_DRG_PARENTS], exp[CZ__POREP_EXP_PARENTS];
    cz__porep_label_proof labels[CZ__POREP_MAX_LAYERS];
    cz__porep_label_proof encoding;
} cz__porep_vanilla;

/* The C1 output: its commitments and seeds, npartitions × per proofs, partition after
 * partition. */
typedef struct cz__porep_c1 {
    uint64_t registered_proof;
    cz_bls12381_fr comm_r, comm_d, replica_id;
    uint8_t seed[32], ticket[32];
    unsigned npartitions, per;
    cz__porep_vanilla *proofs;
} cz__porep_c1;

void cz__porep_c1_free(cz__porep_c1 *c1);

/* The native check of partition k of c1 (see the file comment) for shape and graph, its
 * challenges the c1->per at challenges. CZ_EVERIFY (CZ_EINVAL for a malformed path or count)
 * naming the partition, the challenge and what failed. */
int cz__porep_vanilla_check_at(const cz__porep_c1 *c1, const cz__porep_shape *shape,
                               const cz__porep_graph *graph, const uint64_t *challenges, unsigned k,
                               cz_errinfo *ei);
/* The same for interactive PoRep: the challenges derived from c1's replica id and seed. */
int cz__porep_vanilla_check(const cz__porep_c1 *c1, const cz__porep_shape *shape,
                            const cz__porep_graph *graph, unsigned k, cz_errinfo *ei);

/* The values layer's label hashes, from v's parent columns: the 6 DRG parents' labels of the
 * layer, then from layer 2 the 8 expander parents' of the layer below; their number (6 or 14).
 * The 37 a labeling proof holds are these repeated. */
unsigned cz__porep_label_parents(cz_bls12381_fr out[CZ__POREP_COL_PARENTS],
                                 const cz__porep_vanilla *v, unsigned layer);
/* v's labeling proofs (one per layer) and encoding proof for challenge node, from its parent
 * columns. */
void cz__porep_vanilla_fill_labels(cz__porep_vanilla *v, unsigned layers, uint64_t node);
/* Every path of c1's proofs pointed at its own siblings again (cz__tree_path_fix), after the
 * proofs were moved or grown. */
void cz__porep_c1_fix_paths(cz__porep_c1 *c1);

/* Partition k's circuit witness into p, its challenges into w (c1->per of them), pointing into
 * c1. */
void cz__porep_vanilla_witness(cz__porep_partition *p, cz__porep_challenge *w,
                               const cz__porep_c1 *c1, unsigned k);

#endif
