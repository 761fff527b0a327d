/*
 * What the PoRep verifier derives (rust-fil-proofs verify_seal; storage-proofs-porep
 * stacked/vanilla/params.rs, challenges.rs, circuit/proof.rs generate_public_inputs), and the
 * figures of each registered seal proof:
 *
 *   replica_id  SHA-256(prover_id ‖ sector_id (u64 big-endian) ‖ ticket ‖ comm_d ‖ porep_id), the
 *               top two bits of its last byte cleared (a field element, little-endian)
 *   challenges  partition k's, of the registered proof's kind (porep_challenges.h): interactive
 *               (from the seed), synthetic (the seed selects among challenges fixed by comm_r)
 *               or non-interactive (from comm_r, no seed)
 *   inputs      replica_id, comm_d, comm_r, then per challenge c: c (its tree D path), its 6 DRG
 *               and 8 expander parents (their tree C paths), c (the challenge), c (tree R), c
 *               (tree C): 3 + 18 per challenge, ONE not included
 *
 * A private PoRCircuit path's one input is its node index (the index bits packed least
 * significant first), so every path input is the node it opens.
 *
 * The registered seal proofs (rust-filecoin-proofs-api registry.rs RegisteredSealProof, ids
 * 0..19: five sector sizes, 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB, for each of four versions):
 * 0-4 V1 (ApiVersion 1.0.0, the v1.0 graph), 5-9 V1_1 (1.1.0), 10-14 V1_1_Feat_SyntheticPoRep
 * (1.2.0, whatever the name says) and 15-19 V1_2_Feat_NonInteractivePoRep (1.2.0). Partitions
 * (filecoin-proofs constants.rs): POREP_PARTITIONS, 1 or 10, for the interactive and synthetic
 * ones; get_porep_non_interactive_partitions, 13 or 126, for the non-interactive ones. The
 * challenges per partition (parameters.rs select_challenges) are ceil(minimum / partitions), the
 * minimum being 2 or 176 (interactive and synthetic) and 26 or 2253 (non-interactive): 2 below
 * 32 GiB, 18 from 32 GiB, for every kind, so all kinds share one circuit and its parameters.
 */
#ifndef CUZK_FILECOIN_POREP_INPUTS_H
#define CUZK_FILECOIN_POREP_INPUTS_H

#include "cuzk/err.h"
#include "filecoin/porep_challenges.h"
#include "filecoin/porep_graph.h"

#define CZ__POREP_INPUTS_PER_CHALLENGE 18
#define CZ__POREP_REGISTERED_PROOFS    20

typedef enum cz__porep_challenge_kind {
    CZ__POREP_INTERACTIVE,     /* InteractiveChallenges: from the seed */
    CZ__POREP_SYNTHETIC,       /* SynthChallenges: the seed selects among synthetic ones */
    CZ__POREP_NON_INTERACTIVE, /* NiChallenges: from comm_r, no seed */
} cz__porep_challenge_kind;

/* One registered seal proof's PoRep (filecoin-proofs-api as_v1_config, filecoin-proofs
 * setup_params). */
typedef struct cz__porep_config {
    uint64_t registered_proof; /* its id, 0..19; its porep_id is cz__porep_id of it */
    const char *name;          /* RegisteredSealProof's, e.g. "StackedDrg32GiBV1_1" (static) */
    uint64_t sector_size;
    cz__porep_challenge_kind kind;
    unsigned partitions;
    unsigned challenges; /* per partition */
    unsigned api_minor;  /* ApiVersion 1.<api_minor>.0; 0 is the v1.0 graph */
} cz__porep_config;

void cz__porep_replica_id(cz_bls12381_fr *out, const uint8_t prover_id[32], uint64_t sector_id,
                          const uint8_t ticket[32], const uint8_t comm_d[32],
                          const uint8_t porep_id[32]);

/* The configuration of registered seal proof id; CZ_EINVAL naming an unknown one. */
int cz__porep_config_get(cz__porep_config *out, uint64_t registered_seal_proof, cz_errinfo *ei);
/* The same by RegisteredSealProof name (exact spelling); CZ_EINVAL naming an unknown one. */
int cz__porep_config_by_name(cz__porep_config *out, const char *name, cz_errinfo *ei);
/* The same by sector size, challenge kind and API version 1.<api_minor> (interactive 0: V1, whose
 * names are also the C1's vanilla_proofs keys; interactive 1: V1_1); CZ_EINVAL when none is. */
int cz__porep_config_find(cz__porep_config *out, uint64_t sector_size,
                          cz__porep_challenge_kind kind, unsigned api_minor, cz_errinfo *ei);

/* The cfg->challenges challenges of partition k < cfg->partitions of a sector of nodes nodes
 * (cfg->sector_size / 32 for a real one), by cfg->kind: comm_r is not read for an interactive
 * proof, nor seed for a non-interactive one (either may then be NULL). */
void cz__porep_challenges_for(uint64_t *out, const cz__porep_config *cfg, uint64_t nodes,
                              const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_r,
                              const uint8_t seed[32], unsigned k);

/* The 3 + 18·n public inputs of a partition with challenges c (see the file comment). */
void cz__porep_public_inputs(cz_bls12381_fr *out, const cz__porep_graph *g,
                             const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_d,
                             const cz_bls12381_fr *comm_r, const uint64_t *c, size_t n);

#endif
