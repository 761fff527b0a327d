/*
 * The ChaCha block function (RFC 8439 §2.3, with its round count a parameter): the state of 16
 * little-endian words ("expand 32-byte k", the key, the counter and nonce words as the caller
 * lays them out) through double_rounds column-and-diagonal double rounds, plus the input. ChaCha20
 * is 10 double rounds, ChaCha8 4. The Filecoin graph (rand_chacha's ChaCha8Rng) and synthetic
 * PoRep challenges (ChaCha20) are built on it.
 */
#ifndef CUZK_CORE_CHACHA_H
#define CUZK_CORE_CHACHA_H

#include <stdint.h>

/* "expand 32-byte k" as four little-endian words: the state's first row. */
#define CZ__CHACHA_SIGMA0 0x61707865u
#define CZ__CHACHA_SIGMA1 0x3320646eu
#define CZ__CHACHA_SIGMA2 0x79622d32u
#define CZ__CHACHA_SIGMA3 0x6b206574u

static inline uint32_t cz__chacha_rotl(uint32_t x, unsigned n) {
    return x << n | x >> (32 - n);
}

static inline void cz__chacha_qr(uint32_t *x, int a, int b, int c, int d) {
    x[a] += x[b], x[d] ^= x[a], x[d] = cz__chacha_rotl(x[d], 16);
    x[c] += x[d], x[b] ^= x[c], x[b] = cz__chacha_rotl(x[b], 12);
    x[a] += x[b], x[d] ^= x[a], x[d] = cz__chacha_rotl(x[d], 8);
    x[c] += x[d], x[b] ^= x[c], x[b] = cz__chacha_rotl(x[b], 7);
}

/* out = double_rounds double rounds of in, plus in. */
static inline void cz__chacha_block(uint32_t out[16], const uint32_t in[16],
                                    unsigned double_rounds) {
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = in[i];
    for (unsigned r = 0; r < double_rounds; r++) {
        cz__chacha_qr(x, 0, 4, 8, 12);
        cz__chacha_qr(x, 1, 5, 9, 13);
        cz__chacha_qr(x, 2, 6, 10, 14);
        cz__chacha_qr(x, 3, 7, 11, 15);
        cz__chacha_qr(x, 0, 5, 10, 15);
        cz__chacha_qr(x, 1, 6, 11, 12);
        cz__chacha_qr(x, 2, 7, 8, 13);
        cz__chacha_qr(x, 3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

#endif
