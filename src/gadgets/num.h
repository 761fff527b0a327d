/*
 * Field elements in a constraint system, as bellpepper's AllocatedNum (gadgets/num.rs) and
 * multipack::pack_into_inputs: the same allocations and constraints, in bellperson's order.
 */
#ifndef CUZK_GADGETS_NUM_H
#define CUZK_GADGETS_NUM_H

#include "gadgets/boolean.h"

typedef struct cz__num {
    cz__var var;
    cz_bls12381_fr value;
} cz__num;

/* A new aux variable of value v (NULL: 0); no constraint. */
cz__num cz__num_alloc(cz__cs *cs, const cz_bls12381_fr *v);
/* Equality of two allocated numbers: a·ONE = b (rust-fil-proofs' constraint::equal). */
void cz__num_enforce_equal(cz__cs *cs, const cz__num *a, const cz__num *b);
/* Exposes n as a public input: a new input x and input·ONE = n. */
void cz__num_inputize(cz__cs *cs, const cz__num *n);
/* The 255 bits of n, least significant first, and the packing constraint 0·0 = Σ 2^i·b_i - n
 * (to_bits_le: not strict, a value and value + r both fit). */
void cz__num_to_bits_le(cz__cs *cs, cz__bool out[255], const cz__num *n);
/* The nbits low bits of n's canonical integer, each a new bit (least significant first), and
 * (Σ 2^i·b_i)·ONE = n: storage-proofs-update's allocated_num_to_allocated_bits (nbits 255) and
 * its k_and_h_select split (the few bits the value has). */
void cz__num_into_bits(cz__cs *cs, cz__bit *out, const cz__num *n, unsigned nbits);
/* AllocatedNum::mul: a new number a·b and a·b = it. */
cz__num cz__num_mul(cz__cs *cs, const cz__num *a, const cz__num *b);
/* multipack::pack_bits: the first 254 of nbits bits (least significant first) as a new aux
 * number x, with (Σ 2^i·b_i)·ONE = x. */
cz__num cz__pack_bits(cz__cs *cs, const cz__bool *bits, size_t nbits);
/* Packs bits into inputs of 254 bits each (the field's capacity), least significant first: per
 * chunk a new input x and (Σ 2^i·b_i)·ONE = x. */
void cz__pack_into_inputs(cz__cs *cs, const cz__bool *bits, size_t nbits);

#endif
