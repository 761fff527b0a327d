/*
 * Fake sealed sectors for PoRep (the source of test partitions until C1 files are read, and of
 * `cuzk filecoin fake-c1` to come): everything a C1 output holds for the interactive challenges
 * of its partitions, consistent with every check the verifier makes, without a sector.
 *
 * From a seed: the replica id and the interactive seed; the challenges of each partition
 * (porep_inputs.h) and their parents in the graph of the registered proof (porep_graph.h); a
 * random column (one label per layer) for every parent that is not challenged; the challenged
 * nodes' labels computed from their parents layer after layer (a challenge that is another's
 * parent is computed first within the layer, as sealing does); a random data leaf per challenge,
 * encoded as last label + data. Trees D (SHA-256 binary), C (Poseidon columns) and R (the
 * encodings) are computed from the opened leaves only (merkle.h), and comm_r =
 * Poseidon-2(comm_c, comm_r_last). So a 32 GiB sector costs its paths, not its 2^30 nodes.
 */
#ifndef CUZK_FILECOIN_POREP_FAKE_H
#define CUZK_FILECOIN_POREP_FAKE_H

#include "filecoin/porep_vanilla.h"

typedef struct cz__porep_fake {
    cz__porep_shape shape;
    cz__porep_graph graph;
    cz__porep_c1 c1;      /* the C1: commitments, seeds and every partition's proofs */
    uint64_t *challenges; /* partition after partition */
} cz__porep_fake;

/* A fake sector of sector_size for registered seal proof id (its porep_id and graph: v1.0 for
 * ids 0-4, else v1.1), npartitions partitions (0: the shape's). CZ_EINVAL (a size PoRep does not
 * have), CZ_ENOMEM. Free with cz__porep_fake_free. */
int cz__porep_fake_make(cz__porep_fake *f, uint64_t sector_size, uint64_t registered_proof,
                        unsigned npartitions, uint64_t seed, cz_errinfo *ei);
void cz__porep_fake_free(cz__porep_fake *f);

#endif
