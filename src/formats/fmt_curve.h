/*
 * What the snarkjs readers need to know about the two curves: identifying a curve by the primes
 * written in a file header, byte widths, and canonical-value checks on little-endian limbs read
 * straight from a file (unaligned, so they go through byte loads).
 */
#ifndef CUZK_FORMATS_FMT_CURVE_H
#define CUZK_FORMATS_FMT_CURVE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve_id.h"

typedef struct cz__curve_info {
    cz_curve_id id;
    uint32_t n8q;         /* bytes of an Fq element: 32 or 48 */
    uint32_t n8r;         /* bytes of an Fr element: 32 */
    const uint64_t *q;    /* n8q/8 limbs, least significant first */
    const uint64_t *r;    /* n8r/8 limbs */
    uint32_t fr_2adicity; /* largest k with 2^k | r - 1: bounds the FFT domain */
} cz__curve_info;

const cz__curve_info *cz__curve_info_of(cz_curve_id id);
/* The curve whose base field has modulus q (n8 LE bytes), or NULL. */
const cz__curve_info *cz__curve_by_q(const uint8_t *q, uint32_t n8);
/* The curve whose scalar field has modulus r (n8 LE bytes), or NULL. */
const cz__curve_info *cz__curve_by_r(const uint8_t *r, uint32_t n8);

/* 1 when the nlimbs-limb little-endian value at p (any alignment) is < mod. */
int cz__le_lt(const uint8_t *p, const uint64_t *mod, size_t nlimbs);
/* Index of the first of n consecutive nlimbs-limb values at p that is >= mod; n if none. */
size_t cz__first_noncanonical(const uint8_t *p, size_t n, const uint64_t *mod, size_t nlimbs);

#endif
