/*
 * A synthetic PoRep-shaped circuit for benchmarks of the proving engine: a satisfiable R1CS whose
 * matrix shape and witness distribution follow the Filecoin 32 GiB PoRep C2 partition (130,278,869
 * constraints with the 328 input rows, 2.4 / 1.0 / 2.2 terms per row in A / B / C, 25.4 % of the
 * aux variables in B, 99.7 % in A, 98.7 % of aux values 0 or 1), scaled to any FFT domain 2^k,
 * k = 10..27. docs/circuits.md has the design, the measured statistics and the costs.
 *
 *   cz_r1cs cs;
 *   cz_porep_synth_build(&cs, CZ_CURVE_BLS12381, 27, pool, ei);       // shape, once
 *   for (p = 0; p < 10; p++) {
 *       cz_porep_synth_witness(&cs, 27, seed, p, pool, ei);           // witness of partition p
 *       ... prove ...
 *   }
 *   cz_r1cs_free(&cs);
 *
 * The constraint system depends on k only; the witness on (k, seed, partition). Rows are made of
 * gadget-like blocks (booleanity, SHA-like XOR and Ch rows on bits, MultiEq-like wide addition
 * rows, Poseidon-like runs of field elements) generated in parallel, one PRNG stream per block.
 * There are CZ_POREP_SYNTH_NPUBLIC public inputs (plus the constant), like the real circuit.
 */
#ifndef CUZK_POREP_SYNTH_H
#define CUZK_POREP_SYNTH_H

#include <stdint.h>

#include "cuzk/curve_id.h"
#include "cuzk/err.h"
#include "cuzk/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;

#define CZ_POREP_SYNTH_NPUBLIC 327 /* the real circuit's 328 inputs, less the constant ONE */
#define CZ_POREP_SYNTH_KMIN    10
#define CZ_POREP_SYNTH_KMAX    27
/* The real partition: rows synthesized (without snarkjs's / bellperson's input rows). */
#define CZ_POREP_SYNTH_REAL_ROWS 130278541u

/* Counts of the system at scale k, without building it. */
typedef struct cz_porep_synth_shape {
    unsigned k;
    uint32_t nrows, npublic, naux;
    uint64_t nnz[3];
    uint64_t domain; /* 2^k >= nrows + npublic + 1 */
    uint32_t nblocks_big, nblocks_small, nfill;
} cz_porep_synth_shape;

/* CZ_ERANGE when k is outside CZ_POREP_SYNTH_KMIN..KMAX. */
int cz_porep_synth_shape_get(cz_porep_synth_shape *shape, unsigned k, cz_errinfo *ei);

/* Builds the constraint system of scale k into cs (allocated here; cz_r1cs_free it). The witness
 * is left zero (w[0] = 1) until cz_porep_synth_witness. CZ_ERANGE, CZ_ENOMEM, CZ_EINVAL. */
int cz_porep_synth_build(cz_r1cs *cs, cz_curve_id curve, unsigned k, cz_threadpool *pool,
                         cz_errinfo *ei);

/* Writes the witness of partition `partition` for seed into cs->w (every row then holds).
 * CZ_EINVAL when cs does not have the counts of scale k. */
int cz_porep_synth_witness(cz_r1cs *cs, unsigned k, uint64_t seed, uint32_t partition,
                           cz_threadpool *pool, cz_errinfo *ei);

/* Writes cs as .r1cs to r1cs_path and its witness as .wtns to wtns_path (either may be NULL). */
int cz_porep_synth_write(const char *r1cs_path, const char *wtns_path, const cz_r1cs *cs,
                         cz_threadpool *pool, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
