/*
 * The porep-synth benchmark key (internal to the engine's workloads,
 * src/engine/workload_porep_synth.c): a proving key for large scales (up to 2^27, the real
 * partition) that is not made by our CPU setup (cz_groth16_setup would take hours and write ~100 GB
 * at 2^27). Its proofs are timed, never verified: nothing ties its points to a trapdoor of the
 * circuit.
 *
 *   header     alpha1, beta1, delta1 in G1; beta2, gamma2, delta2 in G2: [x]G for x from the seed;
 *   IC         npublic + 1 G1 points (a progression, only for the verification key's shape);
 *   A, B1, C, H  G1 progressions p0 + i·d, made on the device by cz_groth16_gpu_key_create_
 *              progression (never in host memory; the host key's a, b1, c, h are NULL, so the
 *              CPU prover cannot use it: the workload refuses a CPU compute);
 *   B2         the G2 vector in host memory, nvars points: column s gets p0 + rank(s)·d where
 *              rank counts the columns B touches before s (one G2 addition per touched column,
 *              threaded, batch-converted to affine); untouched columns stay all-zero = infinity.
 *              The CPU G2 MSM uses it, and a GPU key uploads it (25 GB at 2^27, once per
 *              device): the device B2 is then as sparse as a real key's (a G2 progression over
 *              all nvars columns, no column infinity, would make the GPU G2 MSM do about 4x a
 *              real key's additions). The device keeps only B2's finite points, and B1 keeps
 *              the same columns (cz_gpu_bases_restrict), as a real key's B1 does: the GPU B
 *              MSMs touch only the columns B touches.
 *
 * Costs at 2^27 (BLS12-381): B2 is nvars × 192 bytes = 25 GB of host memory (calloc'd; the 25 %
 * touched columns are spread over every page), ~33 M G2 additions; the G1 bases are
 * (3·nvars + 2^27) × 96 bytes ≈ 50 GB of device memory as made, about 41 GB once B1 keeps its
 * touched quarter.
 */
#ifndef CUZK_ENGINE_BENCH_KEY_H
#define CUZK_ENGINE_BENCH_KEY_H

#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "cuzk/zkey.h"

typedef struct cz__bench_key {
    cz_zkey zk;    /* the header, ic and b2 (a, b1, c, h NULL); priv NULL: not a file */
    void *ic, *b2; /* owned arrays behind zk */
    uint64_t b2_bytes;
    uint64_t b2_touched; /* columns of B with a point */
    /* G1 progressions of A, B1, C, H: p0[v], step[v] as the curve's affine G1 points */
    uint8_t p0[4][96], step[4][96];
} cz__bench_key;

/* The benchmark key of cs at domain 2^k, points from seed. CZ_ENOMEM. */
int cz__bench_key_make(cz__bench_key **out, const cz_r1cs *cs, unsigned k, uint64_t seed,
                       cz_threadpool *pool, cz_errinfo *ei);
void cz__bench_key_free(cz__bench_key *bk); /* NULL is a no-op */

#endif
