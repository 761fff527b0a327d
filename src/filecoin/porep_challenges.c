/*
 * The PoRep challenges of the three kinds (porep_challenges.h), and the ChaCha20 keystream
 * (RFC 8439's block function, as the chacha20 crate's ChaCha20) that the synthetic ones read.
 */
#include <string.h>

#include "core/chacha.h"
#include "cuzk/blake2b.h"
#include "cuzk/err.h"
#include "cuzk/sha256.h"
#include "filecoin/porep_challenges.h"

/* bigint_to_challenge: the little-endian 256-bit h mod (nodes - 1), plus 1. Horner's rule from
 * the most significant byte; the remainder stays below nodes - 1 < 2^32, so (rem << 8) | byte
 * fits. */
static uint64_t challenge_of(const uint8_t h[32], uint64_t nodes) {
    uint64_t rem = 0;
    for (int b = 31; b >= 0; b--)
        rem = ((rem << 8) | h[b]) % (nodes - 1);
    return rem + 1;
}

static void u32_le(uint8_t out[4], uint32_t v) {
    for (int b = 0; b < 4; b++)
        out[b] = (uint8_t)(v >> (8 * b));
}

void cz__porep_challenges(uint64_t *out, size_t n, uint64_t nodes, const cz_bls12381_fr *replica_id,
                          const uint8_t seed[32], unsigned k) {
    uint8_t id[32], h[32], j[4];
    cz_bls12381_fr_to_bytes_le(id, replica_id);
    for (size_t i = 0; i < n; i++) {
        cz_sha256 s;
        u32_le(j, (uint32_t)(n * k + i));
        cz_sha256_init(&s);
        cz_sha256_update(&s, id, 32);
        cz_sha256_update(&s, seed, 32);
        cz_sha256_update(&s, j, 4);
        cz_sha256_final(h, &s);
        out[i] = challenge_of(h, nodes);
    }
}

void cz__porep_challenges_ni(uint64_t *out, size_t n, uint64_t nodes,
                             const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_r,
                             unsigned k) {
    static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    uint8_t id[32], r[32], h[32], j[4];
    cz_bls12381_fr_to_bytes_le(id, replica_id);
    cz_bls12381_fr_to_bytes_le(r, comm_r);
    for (size_t i = 0; i < n; i++) {
        cz_sha256 s;
        u32_le(j, (uint32_t)(n * k + i));
        cz_sha256_init(&s);
        cz_sha256_update(&s, tag, sizeof tag - 1);
        cz_sha256_update(&s, id, 32);
        cz_sha256_update(&s, r, 32);
        cz_sha256_update(&s, j, 4);
        cz_sha256_final(h, &s);
        out[i] = challenge_of(h, nodes);
    }
}

/* ---- ChaCha20 (IETF), read at any byte offset ---- */

/* A keystream and the one 64-byte block of it last computed. */
typedef struct {
    uint32_t input[16]; /* constants, key, counter (word 12), nonce */
    uint8_t block[64];
    uint64_t held; /* the index of the block in block; UINT64_MAX for none */
} keystream;

static uint32_t load_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* SynthChallengeGenerator's streams: the key BLAKE2b-256 keyed by tag of a ‖ b, the nonce
 * "synth-porep\0" (chacha20_gen, chacha20_select). */
static void keystream_init(keystream *ks, const char *tag, const uint8_t a[32],
                           const uint8_t b[32]) {
    static const uint8_t nonce[12] = "synth-porep"; /* and its NUL */
    static const uint32_t sigma[4] = {CZ__CHACHA_SIGMA0, CZ__CHACHA_SIGMA1, CZ__CHACHA_SIGMA2,
                                      CZ__CHACHA_SIGMA3};
    uint8_t key[32];
    cz_blake2b s;
    int rc = cz_blake2b_init_key(&s, sizeof key, tag, strlen(tag));
    CZ_ASSERT(rc == CZ_OK); /* a 32-byte output and a tag below 64 bytes */
    cz_blake2b_update(&s, a, 32);
    cz_blake2b_update(&s, b, 32);
    cz_blake2b_final(key, &s);
    memcpy(ks->input, sigma, sizeof sigma); /* "expand 32-byte k", little-endian words */
    for (int i = 0; i < 8; i++)
        ks->input[4 + i] = load_le32(key + 4 * i);
    ks->input[12] = 0;
    for (int i = 0; i < 3; i++)
        ks->input[13 + i] = load_le32(nonce + 4 * i);
    ks->held = UINT64_MAX;
}

/* Block b of the stream: 20 rounds (10 column and diagonal double rounds), plus the input. */
static void keystream_block(keystream *ks, uint64_t b) {
    uint32_t x[16];
    ks->input[12] = (uint32_t)b; /* a 32-bit counter: rust seeks with u32 byte offsets */
    cz__chacha_block(x, ks->input, 10);
    for (int i = 0; i < 16; i++)
        for (int q = 0; q < 4; q++)
            ks->block[4 * i + q] = (uint8_t)(x[i] >> (8 * q));
    ks->held = b;
}

/* Bytes [offset, offset + len) of the stream. */
static void keystream_read(keystream *ks, uint8_t *out, uint64_t offset, size_t len) {
    for (size_t i = 0; i < len; i++) {
        const uint64_t at = offset + i;
        if (ks->held != at / 64)
            keystream_block(ks, at / 64);
        out[i] = ks->block[at % 64];
    }
}

/* ---- synthetic ---- */

static const char gen_tag[] = "filecoin.io|PoRep|1|Synthetic|1|Generation";
static const char sel_tag[] = "filecoin.io|PoRep|1|Synthetic|1|Selection";

uint64_t cz__porep_synth_count(uint64_t nodes) {
    return nodes < CZ__POREP_SYNTH_MAX ? nodes : CZ__POREP_SYNTH_MAX;
}

/* The generation stream of replica_id and comm_r. */
static void generation_init(keystream *ks, const cz_bls12381_fr *replica_id,
                            const cz_bls12381_fr *comm_r) {
    uint8_t id[32], r[32];
    cz_bls12381_fr_to_bytes_le(id, replica_id);
    cz_bls12381_fr_to_bytes_le(r, comm_r);
    keystream_init(ks, gen_tag, id, r);
}

static uint64_t synth_challenge(keystream *gen, uint64_t i, uint64_t nodes) {
    uint8_t h[32];
    keystream_read(gen, h, 32 * i, 32);
    return challenge_of(h, nodes);
}

void cz__porep_synth_challenges(uint64_t *out, uint64_t first, size_t n, uint64_t nodes,
                                const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_r) {
    keystream gen;
    generation_init(&gen, replica_id, comm_r);
    for (size_t i = 0; i < n; i++)
        out[i] = synth_challenge(&gen, first + i, nodes);
}

void cz__porep_synth_indexes(uint64_t *out, size_t n, uint64_t nsynth,
                             const cz_bls12381_fr *replica_id, const uint8_t seed[32], unsigned k) {
    keystream sel;
    uint8_t id[32], w[4];
    cz_bls12381_fr_to_bytes_le(id, replica_id);
    keystream_init(&sel, sel_tag, id, seed);
    for (size_t i = 0; i < n; i++) {
        keystream_read(&sel, w, 4 * ((uint64_t)n * k + i), 4);
        out[i] = load_le32(w) % nsynth;
    }
}

void cz__porep_challenges_synth(uint64_t *out, size_t n, uint64_t nodes,
                                const cz_bls12381_fr *replica_id, const cz_bls12381_fr *comm_r,
                                const uint8_t seed[32], unsigned k) {
    keystream gen;
    cz__porep_synth_indexes(out, n, cz__porep_synth_count(nodes), replica_id, seed, k);
    generation_init(&gen, replica_id, comm_r);
    for (size_t i = 0; i < n; i++)
        out[i] = synth_challenge(&gen, out[i], nodes);
}
