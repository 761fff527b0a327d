/*
 * The SDR graph (porep_graph.h).
 */
#include <string.h>

#include "core/chacha.h"
#include "cuzk/blake2b.h"
#include "cuzk/sha256.h"
#include "filecoin/porep_graph.h"

void cz__porep_id(uint8_t out[32], uint64_t registered_seal_proof) {
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(registered_seal_proof >> (8 * i));
}

/* SHA-256(tag ‖ porep_id) */
static void domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32]) {
    cz_sha256 s;
    cz_sha256_init(&s);
    cz_sha256_update(&s, tag, strlen(tag));
    cz_sha256_update(&s, porep_id, 32);
    cz_sha256_final(out, &s);
}

void cz__porep_graph_init(cz__porep_graph *g, uint64_t nodes, const uint8_t porep_id[32],
                          int api_v1_0) {
    uint8_t seed[32];
    uint64_t pow4 = 4, n = 8 * nodes;
    unsigned log4 = 1;
    memset(g, 0, sizeof *g);
    g->nodes = nodes;
    g->api_v1_0 = api_v1_0;
    domain_seed(seed, "Filecoin_DRSample", porep_id);
    memcpy(g->drg_seed, seed, 28);
    domain_seed(seed, "Filecoin_Feistel", porep_id);
    for (int k = 0; k < 4; k++)
        for (int i = 7; i >= 0; i--)
            g->feistel_keys[k] = g->feistel_keys[k] << 8 | seed[8 * k + i];
    while (pow4 < n) {
        pow4 *= 4;
        log4++;
    }
    g->half_bits = log4;
    g->right_mask = (UINT64_C(1) << log4) - 1;
    g->left_mask = g->right_mask << log4;
}

/* ---- ChaCha8, as rand_chacha 0.3's ChaCha8Rng ---- */

typedef struct {
    uint32_t key[8];
    uint64_t counter;
    uint32_t block[16];
    unsigned at; /* words of block used */
} chacha8;

static void chacha8_init(chacha8 *c, const uint8_t seed[32]) {
    for (int i = 0; i < 8; i++)
        c->key[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 |
                    (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
    c->counter = 0;
    c->at = 16;
}

static void chacha8_block(chacha8 *c) {
    uint32_t s[16] = {CZ__CHACHA_SIGMA0, CZ__CHACHA_SIGMA1, CZ__CHACHA_SIGMA2, CZ__CHACHA_SIGMA3};
    memcpy(&s[4], c->key, sizeof c->key);
    s[12] = (uint32_t)c->counter;
    s[13] = (uint32_t)(c->counter >> 32);
    s[14] = s[15] = 0; /* stream 0 */
    cz__chacha_block(c->block, s, 4);
    c->counter++;
    c->at = 0;
}

/* next_u64: two words of the keystream, the first the low half (reads stay word-pair aligned). */
static uint64_t chacha8_u64(chacha8 *c) {
    uint64_t lo, hi;
    if (c->at >= 16)
        chacha8_block(c);
    lo = c->block[c->at];
    hi = c->block[c->at + 1];
    c->at += 2;
    return hi << 32 | lo;
}

/* ---- the parents ---- */

void cz__porep_drg_parents(const cz__porep_graph *g, uint32_t node,
                           uint32_t out[CZ__POREP_DRG_PARENTS]) {
    const uint64_t m_prime = CZ__POREP_DRG_PARENTS - 1, meta = (uint64_t)node * m_prime;
    uint8_t seed[32];
    uint64_t nbuckets = 0;
    uint32_t *drawn = g->api_v1_0 ? out : out + 1;
    chacha8 rng;
    if (node < 2) {
        memset(out, 0, CZ__POREP_DRG_PARENTS * sizeof *out);
        return;
    }
    memcpy(seed, g->drg_seed, 28);
    for (int i = 0; i < 4; i++)
        seed[28 + i] = (uint8_t)(node >> (8 * i));
    chacha8_init(&rng, seed);
    while ((UINT64_C(1) << nbuckets) < meta) /* ceil(log2(meta)) */
        nbuckets++;
    for (uint64_t k = 0; k < m_prime; k++) {
        const uint64_t bucket = chacha8_u64(&rng) % nbuckets + 1;
        const uint64_t largest = meta < (UINT64_C(1) << bucket) ? meta : UINT64_C(1) << bucket;
        const uint64_t smallest = largest >> 1 > 2 ? largest >> 1 : 2;
        const uint64_t dist = smallest + chacha8_u64(&rng) % (largest - smallest + 1);
        const uint32_t mapped = (uint32_t)((meta - dist) / m_prime);
        drawn[k] = mapped == node ? node - 1 : mapped;
    }
    out[g->api_v1_0 ? m_prime : 0] = node - 1;
}

/* The Feistel round function: BLAKE2b-512 of right ‖ key (big-endian), its first 8 bytes. */
static uint64_t feistel_f(uint64_t right, uint64_t key, uint64_t mask) {
    uint8_t data[16], h[CZ_BLAKE2B_OUTBYTES];
    uint64_t r = 0;
    for (int i = 0; i < 8; i++) {
        data[i] = (uint8_t)(right >> (56 - 8 * i));
        data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    cz_blake2b_hash(h, CZ_BLAKE2B_OUTBYTES, NULL, 0, data, sizeof data);
    for (int i = 0; i < 8; i++)
        r = r << 8 | h[i];
    return r & mask;
}

static uint64_t feistel_encode(const cz__porep_graph *g, uint64_t index) {
    uint64_t left = (index & g->left_mask) >> g->half_bits, right = index & g->right_mask;
    for (int k = 0; k < 3; k++) {
        const uint64_t l = right, r = left ^ feistel_f(right, g->feistel_keys[k], g->right_mask);
        left = l;
        right = r;
    }
    return left << g->half_bits | right;
}

void cz__porep_exp_parents(const cz__porep_graph *g, uint32_t node,
                           uint32_t out[CZ__POREP_EXP_PARENTS]) {
    const uint64_t n = CZ__POREP_EXP_PARENTS * g->nodes;
    for (uint64_t i = 0; i < CZ__POREP_EXP_PARENTS; i++) {
        uint64_t u = feistel_encode(g, (uint64_t)node * CZ__POREP_EXP_PARENTS + i);
        while (u >= n)
            u = feistel_encode(g, u);
        /* v1.0 truncates the permuted index to 32 bits before the division (graph.rs
         * correspondent: `transformed as u32 / expansion_degree`), which matters once 8·nodes
         * passes 2^32 (32 GiB and 64 GiB); v1.1 divides the whole index */
        out[i] = g->api_v1_0 ? (uint32_t)u / CZ__POREP_EXP_PARENTS
                             : (uint32_t)(u / CZ__POREP_EXP_PARENTS);
    }
}
