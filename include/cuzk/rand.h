/*
 * The CSPRNG: bytes from the kernel's getrandom(2). Used for Groth16 blinding factors and test
 * data. There is no user-space state to seed, fork or wipe.
 */
#ifndef CUZK_RAND_H
#define CUZK_RAND_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills buf with len random bytes. CZ_OK, or CZ_EIO when the kernel refuses. */
int cz_random_bytes(void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
