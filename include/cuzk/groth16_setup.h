/*
 * Test-key setup: Groth16 proving keys made directly from a trapdoor (τ, α, β, γ, δ) instead of a
 * ceremony, in two formats: snarkjs's .zkey for a circom constraint system (cz_groth16_setup),
 * and bellperson's parameters (.params, cuzk/bellperson.h) for an in-memory constraint system
 * (cz_groth16_setup_bellperson).
 *
 *   *** INSECURE. *** Whoever knows the trapdoor can forge proofs for any statement. A key made
 *   here is for tests and benchmarks only: the trapdoor is chosen by one party (the caller, or
 *   this process's CSPRNG, and then forgotten — but nobody else can check that it was).
 *
 * The snarkjs key:
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
 *
 * The bellperson key is the one bellperson's generate_parameters makes from the same trapdoor,
 * but with the standard generators of G1 and G2 where bellperson draws random ones (a key is
 * valid with any generators; the standard ones make it reproducible from the trapdoor alone).
 * Variables map as in cuzk/assignment.h (input i = variable i, aux j = variable 1 + npublic + j)
 * and the input constraints are appended, so the key is the one cz_groth16_bp_prove proves with
 * for the assignments of cz_r1cs_assignment_make. Cost: about m + 2·nvars + |A| + |B| G1 and |B|
 * G2 fixed-base multiplications (m the domain), one inverse NTT of size m, three passes over the
 * matrices; memory: the output points plus two scalar arrays of max(m, nvars) (docs/setup.md).
 */
#ifndef CUZK_GROTH16_SETUP_H
#define CUZK_GROTH16_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve_id.h"
#include "cuzk/bellperson.h"
#include "cuzk/err.h"
#include "cuzk/r1cs.h"
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
 * *out = bellperson's Groth16 parameters for the BLS12-381 system cs (its witness is not used), in
 * memory: the points in malloc'd arrays and out->mem zeroed, so cz_bellperson_params_free frees
 * them; write them with cz_bellperson_params_write and cz_bellperson_vk_write. td = NULL draws all
 * five values (γ too, as bellperson does) from the CSPRNG; otherwise td is used as it is (a seeded
 * trapdoor keeps its γ = 1). The trapdoor and every scalar derived from it are wiped before the
 * call returns. pool may be NULL (one thread). dev >= 0 runs the fixed-base multiplications and
 * the inverse NTT on that CUDA device (cuzk/gpu.h; the same key, minutes instead of hours at
 * 2^27); dev < 0 runs everything on pool. With m the smallest power of two >= rows + 1 +
 * npublic: |H| = m - 1, |IC| = 1 + npublic, |L| = naux, |A| = 1 + npublic + the aux variables
 * that occur in A, |B_G1| = |B_G2| = the variables that occur in B (cuzk/assignment.h's
 * densities). Errors: CZ_ECURVE (not BLS12-381), CZ_ERANGE (m would be 2^32 or more, which
 * bellperson refuses; a trapdoor value >= r), CZ_EINVAL (a zero α/β/γ/δ; τ^m = 1; an identity
 * IC point, which only an unlucky τ gives), CZ_ENOGPU / CZ_EGPU (dev >= 0 and that GPU is
 * missing or fails), CZ_EFORMAT (cs fails cz_r1cs_validate; an aux
 * variable with an identity L point, as one in no constraint: bellperson's UnconstrainedVariable,
 * named with its variable index; a variable that occurs in A or B but whose polynomial is zero
 * at τ, named), CZ_EIO (no randomness), CZ_ENOMEM. On error *out is zeroed.
 */
int cz_groth16_setup_bellperson(cz_bellperson_params *out, const cz_r1cs *cs,
                                const cz_groth16_trapdoor *td, cz_threadpool *pool, int dev,
                                cz_errinfo *ei);

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
