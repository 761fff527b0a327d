/*
 * The types of src/field/fp8_impl.h: eight BLS12-381 Fp elements in radix 2^52, one per 64-bit
 * lane of a 512-bit vector (see there).
 */
#ifndef CUZK_FIELD_FP8_H
#define CUZK_FIELD_FP8_H
#include <stdint.h>

#include "field/field_consts.h"

/* Eight 64-bit lanes (GCC / clang vector extension: +, &, |, >>, << and == work per lane). */
typedef uint64_t cz_v8 __attribute__((vector_size(64)));
typedef int64_t cz_v8s __attribute__((vector_size(64)));

/* Eight Fp elements: l[k] holds limb k (52 bits) of each. */
typedef struct cz_fp8 {
    cz_v8 l[8];
} cz_fp8;

#define CZ_FP8_MASK ((uint64_t)0xfffffffffffffULL) /* 2^52 - 1 */
#endif
