/*
 * SHA-256 (FIPS 180-4): the hash behind Filecoin's challenge derivations (docs/filecoin.md) and,
 * later, its PoRep labels and tree D.
 *
 * Streaming: cz_sha256_init, any number of cz_sha256_update calls, then cz_sha256_final, which
 * writes the 32-byte digest and wipes the state. The state is a plain struct the caller owns; a
 * copy of it taken between updates continues independently (a shared prefix hashed once). Nothing
 * can fail.
 */
#ifndef CUZK_SHA256_H
#define CUZK_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_SHA256_BYTES 32

typedef struct cz_sha256 {
    uint32_t h[8];
    uint64_t len; /* bytes absorbed */
    uint8_t buf[64];
    size_t buflen;
} cz_sha256;

/* The round constants and the initial hash value (FIPS 180-4 §4.2.2, §5.3.3), also what the
 * SHA-256 circuit gadget starts from. */
extern const uint32_t cz_sha256_k[64];
extern const uint32_t cz_sha256_iv[8];

void cz_sha256_init(cz_sha256 *s);
void cz_sha256_update(cz_sha256 *s, const void *data, size_t len);
void cz_sha256_final(uint8_t out[CZ_SHA256_BYTES], cz_sha256 *s);
/* One call: out = SHA-256(data). */
void cz_sha256_hash(uint8_t out[CZ_SHA256_BYTES], const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
