/*
 * The PoRep verifier's derivations and the registered seal proofs' figures (porep_inputs.h); the
 * challenges themselves are porep_challenges.c's.
 */
#include <string.h>

#include "cuzk/sha256.h"
#include "filecoin/porep_inputs.h"

void cz__porep_replica_id(cz_bls12381_fr *out, const uint8_t prover_id[32], uint64_t sector_id,
                          const uint8_t ticket[32], const uint8_t comm_d[32],
                          const uint8_t porep_id[32]) {
    uint8_t be[8], h[32];
    cz_sha256 s;
    for (int i = 0; i < 8; i++)
        be[i] = (uint8_t)(sector_id >> (56 - 8 * i));
    cz_sha256_init(&s);
    cz_sha256_update(&s, prover_id, 32);
    cz_sha256_update(&s, be, 8);
    cz_sha256_update(&s, ticket, 32);
    cz_sha256_update(&s, comm_d, 32);
    cz_sha256_update(&s, porep_id, 32);
    cz_sha256_final(h, &s);
    h[31] &= 0x3f;
    cz_bls12381_fr_from_bytes_le(out, h); /* below 2^254 < r: always canonical */
}

#define KIB(n) ((uint64_t)(n) << 10)
#define MIB(n) ((uint64_t)(n) << 20)
#define GIB(n) ((uint64_t)(n) << 30)

/* Indexed by registered proof id (the file comment of porep_inputs.h says where each figure comes
 * from). */
static const struct {
    const char *name;
    uint64_t sector_size;
    cz__porep_challenge_kind kind;
    unsigned partitions, challenges, api_minor;
} configs[CZ__POREP_REGISTERED_PROOFS] = {
    {"StackedDrg2KiBV1", KIB(2), CZ__POREP_INTERACTIVE, 1, 2, 0},
    {"StackedDrg8MiBV1", MIB(8), CZ__POREP_INTERACTIVE, 1, 2, 0},
    {"StackedDrg512MiBV1", MIB(512), CZ__POREP_INTERACTIVE, 1, 2, 0},
    {"StackedDrg32GiBV1", GIB(32), CZ__POREP_INTERACTIVE, 10, 18, 0},
    {"StackedDrg64GiBV1", GIB(64), CZ__POREP_INTERACTIVE, 10, 18, 0},
    {"StackedDrg2KiBV1_1", KIB(2), CZ__POREP_INTERACTIVE, 1, 2, 1},
    {"StackedDrg8MiBV1_1", MIB(8), CZ__POREP_INTERACTIVE, 1, 2, 1},
    {"StackedDrg512MiBV1_1", MIB(512), CZ__POREP_INTERACTIVE, 1, 2, 1},
    {"StackedDrg32GiBV1_1", GIB(32), CZ__POREP_INTERACTIVE, 10, 18, 1},
    {"StackedDrg64GiBV1_1", GIB(64), CZ__POREP_INTERACTIVE, 10, 18, 1},
    {"StackedDrg2KiBV1_1_Feat_SyntheticPoRep", KIB(2), CZ__POREP_SYNTHETIC, 1, 2, 2},
    {"StackedDrg8MiBV1_1_Feat_SyntheticPoRep", MIB(8), CZ__POREP_SYNTHETIC, 1, 2, 2},
    {"StackedDrg512MiBV1_1_Feat_SyntheticPoRep", MIB(512), CZ__POREP_SYNTHETIC, 1, 2, 2},
    {"StackedDrg32GiBV1_1_Feat_SyntheticPoRep", GIB(32), CZ__POREP_SYNTHETIC, 10, 18, 2},
    {"StackedDrg64GiBV1_1_Feat_SyntheticPoRep", GIB(64), CZ__POREP_SYNTHETIC, 10, 18, 2},
    {"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", KIB(2), CZ__POREP_NON_INTERACTIVE, 13, 2, 2},
    {"StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", MIB(8), CZ__POREP_NON_INTERACTIVE, 13, 2, 2},
    {"StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", MIB(512), CZ__POREP_NON_INTERACTIVE, 13, 2,
     2},
    {"StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", GIB(32), CZ__POREP_NON_INTERACTIVE, 126, 18,
     2},
    {"StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", GIB(64), CZ__POREP_NON_INTERACTIVE, 126, 18,
     2},
};

int cz__porep_config_get(cz__porep_config *out, uint64_t registered_seal_proof, cz_errinfo *ei) {
    memset(out, 0, sizeof *out);
    if (registered_seal_proof >= CZ__POREP_REGISTERED_PROOFS)
        return cz_fail(ei, CZ_EINVAL, "porep: no registered seal proof %llu",
                       (unsigned long long)registered_seal_proof);
    out->registered_proof = registered_seal_proof;
    out->name = configs[registered_seal_proof].name;
    out->sector_size = configs[registered_seal_proof].sector_size;
    out->kind = configs[registered_seal_proof].kind;
    out->partitions = configs[registered_seal_proof].partitions;
    out->challenges = configs[registered_seal_proof].challenges;
    out->api_minor = configs[registered_seal_proof].api_minor;
    return CZ_OK;
}

int cz__porep_config_by_name(cz__porep_config *out, const char *name, cz_errinfo *ei) {
    for (uint64_t id = 0; name != NULL && id < CZ__POREP_REGISTERED_PROOFS; id++)
        if (strcmp(name, configs[id].name) == 0)
            return cz__porep_config_get(out, id, ei);
    memset(out, 0, sizeof *out);
    return cz_fail(ei, CZ_EINVAL, "porep: no registered seal proof named \"%s\"",
                   name != NULL ? name : "(null)");
}

int cz__porep_config_find(cz__porep_config *out, uint64_t sector_size,
                          cz__porep_challenge_kind kind, unsigned api_minor, cz_errinfo *ei) {
    for (uint64_t id = 0; id < CZ__POREP_REGISTERED_PROOFS; id++)
        if (configs[id].sector_size == sector_size && configs[id].kind == kind &&
            configs[id].api_minor == api_minor)
            return cz__porep_config_get(out, id, ei);
    memset(out, 0, sizeof *out);
    return cz_fail(ei, CZ_EINVAL, "porep: no registered seal proof of %llu-byte sectors",
                   (unsigned long long)sector_size);
}

void cz__porep_challenges_for(uint64_t *out, const cz__porep_config *cfg, uint64_t nodes,
                              const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_r,
                              const uint8_t seed[32], unsigned k) {
    CZ_ASSERT(k < cfg->partitions);
    switch (cfg->kind) {
    case CZ__POREP_INTERACTIVE:
        cz__porep_challenges(out, cfg->challenges, nodes, replica_id, seed, k);
        break;
    case CZ__POREP_SYNTHETIC:
        cz__porep_challenges_synth(out, cfg->challenges, nodes, replica_id, comm_r, seed, k);
        break;
    case CZ__POREP_NON_INTERACTIVE:
        cz__porep_challenges_ni(out, cfg->challenges, nodes, replica_id, comm_r, k);
        break;
    }
}

void cz__porep_public_inputs(cz_bls12381_fr *out, const cz__porep_graph *g,
                             const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_d,
                             const cz_bls12381_fr *comm_r, const uint64_t *c, size_t n) {
    size_t at = 0;
    out[at++] = *replica_id;
    out[at++] = *comm_d;
    out[at++] = *comm_r;
    for (size_t i = 0; i < n; i++) {
        uint32_t p[CZ__POREP_COL_PARENTS];
        cz__porep_drg_parents(g, (uint32_t)c[i], p);
        cz__porep_exp_parents(g, (uint32_t)c[i], p + CZ__POREP_DRG_PARENTS);
        cz_bls12381_fr_from_u64(&out[at++], c[i]);
        for (int q = 0; q < CZ__POREP_COL_PARENTS; q++)
            cz_bls12381_fr_from_u64(&out[at++], p[q]);
        for (int q = 0; q < 3; q++)
            cz_bls12381_fr_from_u64(&out[at++], c[i]);
    }
}
