/*
 * Test-key setup: a Groth16 proving key (.zkey, snarkjs format) for a circom constraint system,
 * made directly from a trapdoor (τ, α, β, γ, δ) instead of a powers-of-tau ceremony.
 *
 *   *** INSECURE. *** Whoever knows the trapdoor can forge proofs for any statement. A key made
 *   here is for tests and benchmarks only: the trapdoor is chosen by one party (the caller, or
 *   this process's CSPRNG, and then forgotten — but nobody else can check that it was).
 *
 * The key is the one snarkjs's `groth16 setup` would derive from a ceremony with that τ (and α, β
 * from phase 1, δ from one phase-2 contribution), with γ = 1 unless the caller picks another γ:
 * the same coefficient section (the r1cs A and B terms, then the public-input rows
 * {A, nConstraints + s, s, 1} for s = 0..nPublic), the same domain n (smallest power of two
 * >= nConstraints + nPublic + 1), the same points (A, B1, B2, C, IC over the n-domain Lagrange
 * basis, H over the odd coset g·⟨ω⟩ that the prover evaluates on). `snarkjs groth16 prove` and
 * `verify` and cuzk's own prover accept it. Section 10 (MPC transcript) holds a zero circuit hash
 * and no contributions, so `snarkjs zkey verify` rejects it — by design: it comes from no
 * ceremony. docs/setup.md has the formulas and the costs.
 *
 * Cost: O(nVars + n) field operations and about 3·nVars + n G1 and nVars G2 fixed-base scalar
 * multiplications (window tables of the generators), threaded on pool. Memory: the largest
 * section in flight plus a few scalar arrays (about 100 bytes per row).
 */
#ifndef CUZK_GROTH16_SETUP_H
#define CUZK_GROTH16_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve_id.h"
#include "cuzk/err.h"
#include "cuzk/r1cs_file.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;

/* The toxic waste, as 32-byte little-endian canonical scalars (< r of the circuit's curve).
 * α, β, γ, δ must be non-zero; τ must lie neither on the n-domain nor on its H coset
 * (τⁿ ≠ 1 and τⁿ ≠ gⁿ), which a random τ misses with overwhelming probability. */
typedef struct cz_groth16_trapdoor {
    uint8_t tau[32], alpha[32], beta[32], gamma[32], delta[32];
} cz_groth16_trapdoor;

/*
 * Writes a Groth16 key for r1cs to zkey_path (sections 1..10 in order). td = NULL draws τ, α, β,
 * δ from the CSPRNG with γ = 1, like snarkjs; the trapdoor is wiped afterwards either way.
 * pool may be NULL (one thread). On error the file is removed.
 * Errors: CZ_ERANGE (circuit beyond the field's FFT domains; a trapdoor value >= r),
 * CZ_EINVAL (a zero α/β/γ/δ, τ on the domain or coset, nPublic >= nWires), CZ_EIO, CZ_ENOMEM.
 */
int cz_groth16_setup(const char *zkey_path, const cz_r1cs_file *r1cs, const cz_groth16_trapdoor *td,
                     cz_threadpool *pool, cz_errinfo *ei);

/*
 * A trapdoor derived deterministically from seed (any bytes), for reproducible test keys: τ, α,
 * β, δ are non-zero values below 2^253 (so below r on both curves) and γ = 1, what snarkjs uses.
 * The derivation (FNV-1a, then SplitMix64) is deliberately simple and not cryptographic: whoever
 * sees the seed knows the trapdoor — a seed-derived key is as insecure as any other key from this
 * module, no more.
 */
void cz_groth16_trapdoor_from_seed(cz_groth16_trapdoor *td, const uint8_t *seed, size_t seed_len);

#ifdef __cplusplus
}
#endif

#endif
