/*
 * The SDR graph of a PoRep sector, as rust-fil-proofs builds it (storage-proofs-core drgraph.rs,
 * crypto/feistel.rs; storage-proofs-porep stacked/vanilla/graph.rs): each node's 6 DRG parents and
 * 8 expander parents, computed from the node alone (no cache).
 *
 * The porep_id of a registered seal proof is its id as a u64 little-endian in the first 8 bytes,
 * the rest zero. Two seeds come from it: SHA-256("Filecoin_DRSample" ‖ porep_id), whose first 28
 * bytes key the DRG, and SHA-256("Filecoin_Feistel" ‖ porep_id), four little-endian u64 Feistel
 * keys.
 *
 * DRG (BucketGraph, degree 6): nodes 0 and 1 have six parents 0. For node v ≥ 2 a ChaCha8
 * stream (rand_chacha's ChaCha8Rng: 64-bit counter and stream 0) keyed by seed ‖ v (u32
 * little-endian) draws five parents in the metagraph of 5 nodes per node: a bucket b =
 * (x mod ceil(log2 5v)) + 1, a distance d in [max(2, min(5v, 2^b)/2), min(5v, 2^b)], the parent
 * (5v - d)/5 (v - 1 when that is v); the sixth parent is v - 1, first for API v1.1 and v1.2,
 * last for v1.0. Each draw is one next_u64 of the stream.
 *
 * Expander (degree 8): parent i of v is permute(8·nodes, 8v + i)/8 (v1.0: the permuted index
 * truncated to 32 bits first, which changes 32 GiB and 64 GiB graphs), permute a 3-round Feistel
 * network over the next power of 4 at or above 8·nodes (cycle-walking until the value is below
 * it); the round function is the first 8 bytes, big-endian, of BLAKE2b-512 of (right ‖ key) as
 * two big-endian u64, masked to the half's bits.
 */
#ifndef CUZK_FILECOIN_POREP_GRAPH_H
#define CUZK_FILECOIN_POREP_GRAPH_H

#include <stdint.h>

#include "filecoin/porep_circuit.h"

typedef struct cz__porep_graph {
    uint64_t nodes;
    int api_v1_0; /* the predecessor last (v1.0) instead of first */
    uint8_t drg_seed[28];
    uint64_t feistel_keys[4];
    uint64_t left_mask, right_mask;
    unsigned half_bits;
} cz__porep_graph;

/* The porep_id of registered seal proof id. */
void cz__porep_id(uint8_t out[32], uint64_t registered_seal_proof);
/* The graph of nodes nodes (at most 2^32) for porep_id. */
void cz__porep_graph_init(cz__porep_graph *g, uint64_t nodes, const uint8_t porep_id[32],
                          int api_v1_0);
/* The 6 DRG parents of node, in rust-fil-proofs' order. */
void cz__porep_drg_parents(const cz__porep_graph *g, uint32_t node,
                           uint32_t out[CZ__POREP_DRG_PARENTS]);
/* The 8 expander parents of node. */
void cz__porep_exp_parents(const cz__porep_graph *g, uint32_t node,
                           uint32_t out[CZ__POREP_EXP_PARENTS]);

#endif
