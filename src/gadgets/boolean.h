/*
 * Bits in a constraint system, as bellpepper-core's AllocatedBit and Boolean (gadgets/boolean.rs):
 * the same allocations, constraints and order, so that circuits built on them match bellperson's
 * to the variable.
 *
 * cz__bit is an allocated bit: a variable constrained by (ONE - b)·b = 0 (cz__bit_alloc), or the
 * result of one constraint over two bits (xor: (2a)·b = a + b - c; and: a·b = c; and_not:
 * a·(ONE - b) = c; nor: (ONE - a)·(ONE - b) = c), each a new variable. cz__bool is a bit, the
 * negation of a bit, or a constant: the operations fold constants and negations as bellpepper's
 * do (x ^ false = x, x ^ true = not x, not a ^ not b = a ^ b, a & not b = and_not, ...), so a
 * constant costs no constraint. Values are 0 or 1 (0 when the system keeps no values).
 */
#ifndef CUZK_GADGETS_BOOLEAN_H
#define CUZK_GADGETS_BOOLEAN_H

#include "cs/cs.h"

typedef struct cz__bit {
    cz__var var;
    int value;
} cz__bit;

typedef enum { CZ__BOOL_CONST, CZ__BOOL_IS, CZ__BOOL_NOT } cz__bool_kind;

typedef struct cz__bool {
    cz__bool_kind kind;
    cz__bit bit;  /* IS, NOT */
    int constant; /* CONST */
} cz__bool;

/* A new bit of value v (0 or 1) with its boolean constraint. */
cz__bit cz__bit_alloc(cz__cs *cs, int v);
cz__bit cz__bit_xor(cz__cs *cs, const cz__bit *a, const cz__bit *b);
cz__bit cz__bit_and(cz__cs *cs, const cz__bit *a, const cz__bit *b);
cz__bit cz__bit_and_not(cz__cs *cs, const cz__bit *a, const cz__bit *b);
cz__bit cz__bit_nor(cz__cs *cs, const cz__bit *a, const cz__bit *b);

cz__bool cz__bool_const(int v);
cz__bool cz__bool_is(cz__bit b);
cz__bool cz__bool_not(const cz__bool *b);
int cz__bool_value(const cz__bool *b);
/* lc += coeff·b (coeff NULL: 1): coeff·ONE for true, nothing for false, coeff·(ONE - x) for NOT. */
void cz__bool_lc_add(cz__lc *lc, const cz__bool *b, const cz_bls12381_fr *coeff);
cz__bool cz__bool_xor(cz__cs *cs, const cz__bool *a, const cz__bool *b);
cz__bool cz__bool_and(cz__cs *cs, const cz__bool *a, const cz__bool *b);
cz__bool cz__bool_or(cz__cs *cs, const cz__bool *a, const cz__bool *b);
/* SHA-256's ch = (a and b) xor (not a and c) and maj = (a and b) xor (a and c) xor (b and c),
 * as bellpepper's Boolean::sha256_ch / sha256_maj: a constant operand folds the function into
 * an and (or none at all); otherwise the result is a new bit with one constraint,
 * (b - c)·a = ch - c, or for maj (allocated before bc = b and c) (2bc - b - c)·a = bc - maj. */
cz__bool cz__bool_sha256_ch(cz__cs *cs, const cz__bool *a, const cz__bool *b, const cz__bool *c);
cz__bool cz__bool_sha256_maj(cz__cs *cs, const cz__bool *a, const cz__bool *b, const cz__bool *c);
/* a = b: 0·0 = 1 - b (a true), 0·0 = b (a false), 0·0 = a - b; two unequal constants are the
 * system's error (CZ_EVERIFY). */
void cz__bool_enforce_equal(cz__cs *cs, const cz__bool *a, const cz__bool *b);

/* rust-fil-proofs' reverse_bit_numbering: in padded with constant false bits to whole bytes, the
 * bits of each byte in reverse order, into out (room for n rounded up to 8); returns its length.
 * Bits read least significant first per byte become most significant first, and back. */
size_t cz__bool_reverse_bytes(cz__bool *out, const cz__bool *in, size_t n);

/* 64 new bits of v, least significant first (u64_into_boolean_vec_le). */
void cz__u64_into_bits_le(cz__cs *cs, cz__bool out[64], uint64_t v);
/* 255 new bits of v's canonical integer, least significant first (field_into_allocated_bits_le;
 * v NULL: zeros). */
void cz__fr_into_bits_le(cz__cs *cs, cz__bit out[255], const cz_bls12381_fr *v);

#endif
