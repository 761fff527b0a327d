/*
 * BLAKE2b (RFC 7693): the hash behind Filecoin's parameter digests (docs/params.md), and a
 * general-purpose one for anything else that needs it.
 *
 * Streaming: cz_blake2b_init (or cz_blake2b_init_key), any number of cz_blake2b_update calls,
 * then cz_blake2b_final, which writes the digest and wipes the state. The state is a plain struct
 * the caller owns (on the stack is fine); it holds no pointers and needs no freeing. The output
 * length is part of the hash's parameters (RFC 7693 §2.5), so BLAKE2b with 32 bytes of output is
 * not the first 32 bytes of BLAKE2b-512: pick the length at init. Filecoin's digests are
 * BLAKE2b-512 truncated afterwards.
 *
 * Lengths out of range (output 0 or above 64 bytes, a key above 64 bytes) are refused with
 * CZ_EINVAL; nothing else can fail.
 */
#ifndef CUZK_BLAKE2B_H
#define CUZK_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_BLAKE2B_OUTBYTES   64 /* the longest digest (BLAKE2b-512) */
#define CZ_BLAKE2B_KEYBYTES   64 /* the longest key */
#define CZ_BLAKE2B_BLOCKBYTES 128

typedef struct cz_blake2b {
    uint64_t h[8];                      /* chained state */
    uint64_t t[2];                      /* bytes compressed so far, 128-bit little-endian */
    uint8_t buf[CZ_BLAKE2B_BLOCKBYTES]; /* bytes not yet compressed (the last block waits here) */
    size_t buflen;
    size_t outlen;
} cz_blake2b;

/* Starts an unkeyed hash with outlen bytes of output (1..64). CZ_OK or CZ_EINVAL. */
int cz_blake2b_init(cz_blake2b *s, size_t outlen);
/* Starts a keyed hash (BLAKE2b's MAC mode): outlen 1..64, keylen 0..64 (0 is the unkeyed hash).
 * CZ_OK or CZ_EINVAL. */
int cz_blake2b_init_key(cz_blake2b *s, size_t outlen, const void *key, size_t keylen);
/* Absorbs len bytes (any length, 0 included; data may be NULL when len is 0). */
void cz_blake2b_update(cz_blake2b *s, const void *data, size_t len);
/* Writes the s->outlen digest bytes to out and wipes *s. */
void cz_blake2b_final(uint8_t *out, cz_blake2b *s);

/* One call: out = BLAKE2b(key, data) with outlen bytes. CZ_OK or CZ_EINVAL (lengths). */
int cz_blake2b_hash(uint8_t *out, size_t outlen, const void *key, size_t keylen, const void *data,
                    size_t len);

#ifdef __cplusplus
}
#endif

#endif
