/*
 * An in-memory rank-1 constraint system with its witness: what a circuit synthesizer produces and
 * what the prover's "witness" step (A·w, B·w, C·w) consumes.
 *
 * Variables follow circom's wire order: variable 0 is the constant 1, variables 1..npublic are the
 * public inputs, the next naux are private (aux). Row i of the system states
 * (Σ A[i][v]·w[v]) · (Σ B[i][v]·w[v]) = Σ C[i][v]·w[v].
 *
 * Storage. A, B and C are CSR matrices: row_ptr[nrows + 1] (64-bit, so one matrix may hold more
 * than 2^32 terms), then per term a variable index (u32) and a coefficient index (u32) into one
 * table of distinct coefficients shared by the three matrices. Circuits use few distinct
 * coefficients (±1, ±2, powers of two, a few hundred round constants), so a term costs 8 bytes
 * instead of 36: a 2^27-row PoRep-shaped partition (722 M terms) holds its matrices in about 7 GB.
 * Coefficients and witness values are field elements of the curve's scalar field Fr, kept as four
 * 64-bit limbs in Montgomery form (the same bytes as cz_bn254_fr / cz_bls12381_fr).
 *
 * Lifecycle. cz_r1cs_alloc sizes everything up front (a synthesizer that knows its counts fills
 * the arrays directly, in parallel, without any per-row allocation); the caller then fills
 * row_ptr, var, coef, the coefficient table (cz_r1cs_coef_set*) and the witness w. cz_r1cs_free
 * releases everything. The struct has no hidden state: every field is the caller's to read.
 *
 * Compact witnesses. A system may know which of its variables are boolean by construction
 * (booleans: bit v set when variable v is 0 or 1 in every witness, as a synthesizer that allocated
 * it as a bit knows; the Filecoin circuits' aux are 98.7 % such bits). A witness of it then
 * travels compact: bits, one per variable, the booleans' values (0 at every other variable), and
 * vals, the values of the other variables in variable order (ONE and the public inputs first,
 * they are never booleans). A 2^27-row PoRep partition's witness so takes about 70 MB instead of
 * 4.2 GB; cz_r1cs_witness_expand (here) and cz_gpu_r1cs_expand (on the device) make w of it.
 *
 * Costs: evaluation and checking make one pass over the terms, multiplying only for coefficients
 * other than ±1 (one Montgomery product each), threaded by rows over a cz_threadpool.
 */
#ifndef CUZK_R1CS_H
#define CUZK_R1CS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve_id.h"
#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;

/* One matrix in CSR form: the terms of row i are [row_ptr[i], row_ptr[i + 1]). */
typedef struct cz_r1cs_mat {
    uint64_t *row_ptr; /* nrows + 1 entries, row_ptr[0] = 0 */
    uint32_t *var;     /* nnz variable indices, each < nvars */
    uint32_t *coef;    /* nnz indices into cz_r1cs.coefs, each < ncoefs */
    uint64_t nnz;      /* capacity and, once filled, row_ptr[nrows] */
} cz_r1cs_mat;

typedef struct cz_r1cs {
    cz_curve_id curve;
    uint32_t npublic; /* public inputs, not counting variable 0 */
    uint32_t naux;
    uint32_t nvars; /* 1 + npublic + naux */
    uint32_t nrows;
    cz_r1cs_mat a, b, c;
    uint32_t ncoefs;
    uint64_t (*coefs)[4]; /* ncoefs coefficients, Montgomery form */
    uint64_t (*w)[4];     /* nvars witness values, Montgomery form; w[0] = 1 */
    uint64_t *booleans;   /* NULL, or (nvars + 63) / 64 words: the variables boolean by
                           * construction (never 0 .. npublic); freed by cz_r1cs_free */
} cz_r1cs;

/*
 * Allocates a system for curve with the given counts and term capacities (nnz[0..2] for A, B, C),
 * a coefficient table of ncoefs entries (zero) and a zero witness with w[0] = 1; row_ptr[0] = 0.
 * CZ_EINVAL when 1 + npublic + naux does not fit in 32 bits, CZ_ENOMEM. On error cs is zeroed.
 */
int cz_r1cs_alloc(cz_r1cs *cs, cz_curve_id curve, uint32_t npublic, uint32_t naux, uint32_t nrows,
                  const uint64_t nnz[3], uint32_t ncoefs, cz_errinfo *ei);
void cz_r1cs_free(cz_r1cs *cs);

/* Sets coefficient idx to the integer v (negative values are r - |v|). */
void cz_r1cs_coef_set_i64(cz_r1cs *cs, uint32_t idx, int64_t v);
/* Sets coefficient idx to 2^k (k < 256). */
void cz_r1cs_coef_set_pow2(cz_r1cs *cs, uint32_t idx, unsigned k);
/* Sets coefficient idx from 4 standard-form limbs; CZ_ENONCANON if they are not below r. */
int cz_r1cs_coef_set(cz_r1cs *cs, uint32_t idx, const uint64_t std_limbs[4]);

/* Field helpers for callers that fill w: Montgomery limbs of 0, 1, a u64, a standard-form value,
 * and back to standard form. */
void cz_r1cs_fr_from_u64(uint64_t out[4], cz_curve_id curve, uint64_t v);
int cz_r1cs_fr_from_std(uint64_t out[4], cz_curve_id curve, const uint64_t std_limbs[4]);
void cz_r1cs_fr_to_std(uint64_t out[4], cz_curve_id curve, const uint64_t mont[4]);

/*
 * Checks the structure: row_ptr non-decreasing and ending at or below each capacity, every
 * variable < nvars, every coefficient index < ncoefs. CZ_EFORMAT naming matrix, row and term.
 */
int cz_r1cs_validate(const cz_r1cs *cs, cz_errinfo *ei);

/* Flags of cz_r1cs_eval. */
enum {
    /* Also evaluate snarkjs's public-input rows: a[nrows + s] = w[s] for s = 0..npublic (the rows
     * `groth16 setup` appends to A so that the public inputs are bound). */
    CZ_R1CS_EVAL_INPUT_ROWS = 1
};

/*
 * out_a[i] = A[i]·w, out_b[i] = B[i]·w, out_c[i] = C[i]·w for every row (Montgomery limbs), and
 * zero up to domain_size. Any output may be NULL (not computed). Needs domain_size >= nrows (plus
 * npublic + 1 with CZ_R1CS_EVAL_INPUT_ROWS): CZ_ERANGE otherwise. pool may be NULL.
 */
int cz_r1cs_eval(uint64_t (*out_a)[4], uint64_t (*out_b)[4], uint64_t (*out_c)[4],
                 const cz_r1cs *cs, size_t domain_size, unsigned flags, cz_threadpool *pool,
                 cz_errinfo *ei);

/*
 * Checks that w satisfies every row (and w[0] = 1). CZ_OK, or CZ_EVERIFY naming the first
 * failing row (lowest index) and storing it in *bad_row when bad_row is not NULL.
 */
int cz_r1cs_check(const cz_r1cs *cs, cz_threadpool *pool, uint32_t *bad_row, cz_errinfo *ei);

/* Shape and value statistics of a system and its witness (cz_r1cs_stats). */
typedef struct cz_r1cs_stats {
    uint32_t nrows, npublic, naux;
    uint64_t nnz[3];   /* terms of A, B, C */
    uint64_t a_aux;    /* aux variables that occur in A ("a_aux density" = a_aux / naux) */
    uint64_t b_aux;    /* aux variables that occur in B */
    uint64_t b_input;  /* variables 0..npublic that occur in B */
    uint64_t aux_bits; /* aux values equal to 0 or 1 */
    uint64_t aux_ones; /* aux values equal to 1 */
} cz_r1cs_stats;

/* Fills st in two threaded passes (terms, then witness values). CZ_ENOMEM. */
int cz_r1cs_stats_get(cz_r1cs_stats *st, const cz_r1cs *cs, cz_threadpool *pool, cz_errinfo *ei);

/* A BLS12-381 system's arrays as the device upload takes them (cuzk/gpu.h,
 * cz_bls12381_gpu_r1cs_upload): a view, valid while cs lives. */
/* The 64-bit words of a compact witness's bits for nvars variables. */
static inline size_t cz_r1cs_bool_words(uint32_t nvars) {
    return ((size_t)nvars + 63) / 64;
}
/* The bytes of a compact witness's bits rounded up to whole 32-byte elements: where a buffer
 * holding bits and values puts the values. */
static inline size_t cz_r1cs_bool_bytes_aligned(uint32_t nvars) {
    return ((size_t)nvars + 255) / 256 * 32;
}
/* The values of a compact witness of cs before variable v (v ≤ nvars): the variables below v that
 * are not booleans (v when cs->booleans is NULL). */
size_t cz_r1cs_vals_before(const cz_r1cs *cs, size_t v);
/* All the values of a compact witness of cs: cz_r1cs_vals_before(cs, nvars). */
uint32_t cz_r1cs_nvals(const cz_r1cs *cs);

/* w (nvars entries, Montgomery form) from the compact witness bits, vals of cs (cs->booleans
 * required, CZ_EINVAL otherwise): w[v] = 1 or 0 as bit v for a boolean, the next of vals for the
 * others. CZ_EFORMAT naming the first variable whose bit is set though it is not a boolean
 * (w is then incomplete). Threaded over pool (NULL: this thread). */
int cz_r1cs_witness_expand(uint64_t (*w)[4], const cz_r1cs *cs, const uint64_t *bits,
                           const uint64_t (*vals)[4], cz_threadpool *pool, cz_errinfo *ei);

typedef struct cz_gpu_r1cs_host cz_gpu_r1cs_host;
void cz_r1cs_gpu_view(cz_gpu_r1cs_host *out, const cz_r1cs *cs);

#ifdef __cplusplus
}
#endif

#endif
