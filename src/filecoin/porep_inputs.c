/*
 * The PoRep verifier's derivations (porep_inputs.h).
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

void cz__porep_challenges(uint64_t *out, size_t n, uint64_t nodes, const cz_bls12381_fr *replica_id,
                          const uint8_t seed[32], unsigned k) {
    uint8_t id[32], h[32], j[4];
    cz_bls12381_fr_to_bytes_le(id, replica_id);
    for (size_t i = 0; i < n; i++) {
        const uint32_t jj = (uint32_t)(n * k + i);
        uint64_t rem = 0; /* below nodes - 1 < 2^32: (rem << 8) | byte fits */
        cz_sha256 s;
        for (int b = 0; b < 4; b++)
            j[b] = (uint8_t)(jj >> (8 * b));
        cz_sha256_init(&s);
        cz_sha256_update(&s, id, 32);
        cz_sha256_update(&s, seed, 32);
        cz_sha256_update(&s, j, 4);
        cz_sha256_final(h, &s);
        /* the little-endian 256-bit integer mod (nodes - 1), most significant byte first */
        for (int b = 31; b >= 0; b--)
            rem = ((rem << 8) | h[b]) % (nodes - 1);
        out[i] = (uint64_t)rem + 1;
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
