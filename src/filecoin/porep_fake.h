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

/* A fake sector with an identity (what `cuzk filecoin fake-c1` makes, and a request can prove):
 * committed-capacity data (every node zero), so tree D is the zero tree, whose root comm_d costs
 * one hash a level, and the replica id is derived from the prover, the sector, the ticket, comm_d
 * and the porep_id as the verifier derives it. */
typedef struct cz__porep_fake_sector {
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32], seed[32];
} cz__porep_fake_sector;

typedef struct cz__porep_fake {
    cz__porep_shape shape;
    cz__porep_graph graph;
    cz__porep_config cfg;
    cz__porep_c1 c1;      /* the C1: commitments, seeds and every partition's proofs */
    int zero_data;        /* committed capacity: every data node is zero */
    uint64_t *challenges; /* partition after partition */
} cz__porep_fake;

/* A fake sector of registered seal proof id (its size, porep_id, graph and challenge kind),
 * npartitions partitions (0: the registered proof's). With sector NULL the replica id, seed,
 * ticket and data are random (from seed); else they are sector's and its data is zero (see
 * cz__porep_fake_sector). CZ_EINVAL (an unknown id, or a synthetic or non-interactive one: their
 * challenges come from comm_r, which the opened nodes make), CZ_ENOMEM. Free with
 * cz__porep_fake_free. */
int cz__porep_fake_make(cz__porep_fake *f, uint64_t registered_proof, unsigned npartitions,
                        uint64_t seed, const cz__porep_fake_sector *sector, cz_errinfo *ei);
void cz__porep_fake_free(cz__porep_fake *f);

#endif
