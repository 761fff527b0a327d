/*
 * A proving assignment: what bellperson's prover holds after synthesis (its ProvingAssignment)
 * and what supra_seal's C prover takes (its Assignment), BLS12-381 only, because Filecoin's
 * Groth16 is.
 *
 *   a, b, c     one evaluation per constraint: A·w, B·w, C·w of every row, then the input
 *               constraints bellperson appends (input_i · 0 = 0 for every input i, ONE included:
 *               a = input_i, b = c = 0); abc_size = rows + ninput;
 *   input       the input assignment, input[0] = ONE, then the public inputs (ninput values);
 *   aux         the auxiliary assignment (naux values);
 *   densities   bit i set when variable i occurs in the query: a_aux_density (naux bits: aux
 *               variables in A; inputs are always in A because of the input constraints),
 *               b_input_density (ninput bits) and b_aux_density (naux bits): variables in B.
 *               u64 words, least significant bit first (bitvec's Lsb0, as ec-gpu-gen's
 *               DensityTracker stores them); bits past the bit length are ignored.
 *
 * Every scalar is a cz_bls12381_fr in Montgomery form, the memory layout of blst's fr_t and
 * blstrs's Scalar, so bellperson's and supra_seal's buffers can be passed without a copy. The
 * struct is a view: the prover only reads it, and whoever filled it owns the arrays.
 * cz_r1cs_assignment_make fills one from an in-memory constraint system with its witness and
 * allocates the arrays; cz_assignment_free gives back exactly what it allocated.
 *
 * Variables map from cuzk/r1cs.h's order (0 = ONE, 1..npublic public, then aux) one to one:
 * input i = variable i for i <= npublic, aux j = variable 1 + npublic + j. A circom circuit
 * converted to cz_r1cs keeps its wire order, so it proves with the same wires as with snarkjs.
 */
#ifndef CUZK_ASSIGNMENT_H
#define CUZK_ASSIGNMENT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/field.h"
#include "cuzk/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;

typedef struct cz_assignment {
    const cz_bls12381_fr *a, *b, *c; /* abc_size each */
    size_t abc_size;
    const cz_bls12381_fr *input; /* ninput, input[0] = ONE */
    size_t ninput;
    const cz_bls12381_fr *aux; /* naux */
    size_t naux;
    const uint64_t *a_aux_density;   /* ceil(naux / 64) words */
    const uint64_t *b_input_density; /* ceil(ninput / 64) words */
    const uint64_t *b_aux_density;   /* ceil(naux / 64) words */
} cz_assignment;

/* Words of a density of nbits bits. */
static inline size_t cz_density_words(size_t nbits) {
    return (nbits + 63) / 64;
}
/* Bit i of a density. */
static inline int cz_density_bit(const uint64_t *d, size_t i) {
    return (int)((d[i / 64] >> (i % 64)) & 1u);
}
/* The set bits among the first nbits of d. */
size_t cz_density_popcount(const uint64_t *d, size_t nbits);

/*
 * Fills *out from the BLS12-381 system cs and its witness cs->w: a, b, c by the threaded sparse
 * products of cuzk/r1cs.h plus the input constraints, the input and aux values, and the
 * densities from the matrices' terms (a variable counts once it occurs in a row, whatever its
 * coefficient, as bellperson's trackers count it). Allocates every array (about 32·(3·rows +
 * nvars) bytes plus the bitmaps); free with cz_assignment_free. pool may be NULL. Errors:
 * CZ_ECURVE (not BLS12-381), CZ_EINVAL (cs->w[0] is not 1), CZ_ENOMEM. On error *out is zeroed.
 */
int cz_r1cs_assignment_make(cz_assignment *out, const cz_r1cs *cs, cz_threadpool *pool,
                            cz_errinfo *ei);
/* The three densities of cs alone (no witness needed): *a_aux, *b_input, *b_aux malloc'd
 * bitmaps of naux, npublic + 1 and naux bits (what cz_r1cs_assignment_make puts in an
 * assignment), for a caller that fills the values itself and shares one set of densities among
 * the partitions of a circuit. Free each with free. CZ_ENOMEM. */
int cz_r1cs_densities(uint64_t **a_aux, uint64_t **b_input, uint64_t **b_aux, const cz_r1cs *cs,
                      cz_threadpool *pool, cz_errinfo *ei);
/* Frees the arrays of an assignment made by cz_r1cs_assignment_make and zeroes it; NULL and a
 * zeroed struct are no-ops. Never call it on an assignment whose arrays someone else owns. */
void cz_assignment_free(cz_assignment *as);

#ifdef __cplusplus
}
#endif

#endif
