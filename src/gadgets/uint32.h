/*
 * 32-bit words in a constraint system, as bellperson's UInt32 and MultiEq (src/gadgets/uint32.rs,
 * multieq.rs): the same allocations, constraints and order, so that SHA-256 built on them
 * (sha256.h) matches bellperson's to the variable.
 *
 * cz__u32 is 32 Booleans, least significant first, and the word's value (computed from the
 * operands whether or not the system keeps values: the structure never depends on it). Rotations
 * and shifts move Booleans and cost nothing; xor is a Boolean xor per bit (constants fold);
 * sha256_ch and sha256_maj are the Boolean ones per bit.
 *
 * addmany (2 to 10 operands) allocates bitlen(n·(2^32 - 1)) result bits (33 for 2 operands, 34
 * for 3-4, 35 for 5-8), each a bit with its boolean constraint, and hands the equality
 * Σ 2^i·operand bits = Σ 2^i·result bits to a MultiEq; it keeps the low 32 bits. Operands that
 * are all constants give a constant and no constraint.
 *
 * MultiEq packs such equalities into one constraint (lhs)·ONE = (rhs), each shifted by the bits
 * used so far, and flushes when the next would reach the field's capacity (254 bits), and at
 * cz__multieq_finish (Rust's Drop of the MultiEq: for SHA-256, after the compression's last
 * addmany).
 */
#ifndef CUZK_GADGETS_UINT32_H
#define CUZK_GADGETS_UINT32_H

#include "gadgets/boolean.h"

typedef struct cz__u32 {
    cz__bool bits[32]; /* least significant first */
    uint32_t value;
} cz__u32;

typedef struct cz__multieq {
    cz__cs *cs;
    unsigned bits_used;
    cz__lc lhs, rhs;
    uint64_t acc[4]; /* a system without combinations: Σ 2^shift·value, both sides' value */
} cz__multieq;

void cz__multieq_init(cz__multieq *m, cz__cs *cs);
/* Adds lhs = rhs, both below 2^nbits. */
void cz__multieq_enforce_equal(cz__multieq *m, unsigned nbits, const cz__lc *lhs,
                               const cz__lc *rhs);
/* The same for a system that does not need the combinations (cz__cs_needs_lcs false), by the
 * value both sides have (below 2^nbits, nbits ≤ 63). */
void cz__multieq_enforce_value(cz__multieq *m, unsigned nbits, uint64_t value);
/* The last flush (when anything is pending), and the combinations freed. */
void cz__multieq_finish(cz__multieq *m);

cz__u32 cz__u32_const(uint32_t v);
/* The word of 32 Booleans, most significant first (from_bits_be), and back (into_bits_be). */
cz__u32 cz__u32_from_bits_be(const cz__bool bits[32]);
void cz__u32_into_bits_be(cz__bool out[32], const cz__u32 *w);
cz__u32 cz__u32_rotr(const cz__u32 *w, unsigned by);
cz__u32 cz__u32_shr(const cz__u32 *w, unsigned by);
cz__u32 cz__u32_xor(cz__cs *cs, const cz__u32 *a, const cz__u32 *b);
cz__u32 cz__u32_sha256_ch(cz__cs *cs, const cz__u32 *a, const cz__u32 *b, const cz__u32 *c);
cz__u32 cz__u32_sha256_maj(cz__cs *cs, const cz__u32 *a, const cz__u32 *b, const cz__u32 *c);
/* The sum of n operands (2 ≤ n ≤ 10) modulo 2^32, its equality handed to m. */
cz__u32 cz__u32_addmany(cz__cs *cs, cz__multieq *m, const cz__u32 *ops, size_t n);

#endif
