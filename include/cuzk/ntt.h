/*
 * CPU number-theoretic transform (NTT) over the scalar field Fr of BN254 and of BLS12-381.
 *
 * Roots of unity are exactly ffjavascript's (so results match snarkjs): w[s] = nqr^((r-1) >> s)
 * with nqr = 5 and s the 2-adicity of r-1 (28 for BN254, 32 for BLS12-381), w[k] = w[k+1]^2.
 * A domain of size n = 2^k uses ω = w[k] and all arrays are in natural order, in and out:
 *
 *   forward:        A[i] = Σ_j a[j]·ω^(i·j)
 *   inverse:        a[j] = n⁻¹ · Σ_i A[i]·ω^(-i·j)
 *   coset forward:  A[i] = Σ_j a[j]·g^j·ω^(i·j)      (evaluations on g·⟨ω⟩)
 *   coset inverse:  the inverse of coset forward     (inverse, then a[j] ·= g^-j)
 *
 * Elements are Montgomery-form cz_<curve>_fr values, as everywhere in cuzk. A domain is created
 * once per size (it holds ω^j for j < n/2: 16·n bytes plus a few hundred), is immutable and may be
 * used by concurrent transforms. Transforms run in place. Every function that takes a
 * `cz_threadpool *pool` splits its work into tasks on that pool; NULL runs it on the calling
 * thread. Results do not depend on the pool. Arithmetic cannot fail; only domain creation
 * returns an error code (CZ_ERANGE for k > s, CZ_ENOMEM).
 * See docs/ntt.md for the algorithm and measured times.
 */
#ifndef CUZK_NTT_H
#define CUZK_NTT_H

#include <stddef.h>

#include "cuzk/err.h"
#include "cuzk/field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;
typedef struct cz_bn254_ntt_domain cz_bn254_ntt_domain;
typedef struct cz_bls12381_ntt_domain cz_bls12381_ntt_domain;

/* ---- BN254 Fr (s = 28) ---- */

/* *dom = the domain of size 2^log_n (0 <= log_n <= 28); its twiddles are computed on pool. */
int cz_bn254_ntt_domain_create(cz_bn254_ntt_domain **dom, unsigned log_n, cz_threadpool *pool,
                               cz_errinfo *ei);
void cz_bn254_ntt_domain_destroy(cz_bn254_ntt_domain *dom);
unsigned cz_bn254_ntt_domain_log_n(const cz_bn254_ntt_domain *dom);
size_t cz_bn254_ntt_domain_size(const cz_bn254_ntt_domain *dom);
/* w = the domain's ω = w[log_n]. */
void cz_bn254_ntt_domain_root(cz_bn254_fr *w, const cz_bn254_ntt_domain *dom);
/* Bytes a domain of size 2^log_n holds. */
size_t cz_bn254_ntt_domain_bytes(unsigned log_n);

/* w = w[log_n], the 2^log_n-th root of unity ffjavascript uses; CZ_ERANGE when log_n > 28. */
int cz_bn254_ntt_root_of_unity(cz_bn254_fr *w, unsigned log_n);
/* g = snarkjs's coset generator for the domain 2^log_n: w[log_n + 1], or 25 (Fr.shift) when
 * log_n = 28. CZ_ERANGE when log_n > 28. */
int cz_bn254_ntt_coset_gen(cz_bn254_fr *g, unsigned log_n);

/* In-place transforms of a[0 .. domain size). */
void cz_bn254_ntt_forward(cz_bn254_fr *a, const cz_bn254_ntt_domain *dom, cz_threadpool *pool);
void cz_bn254_ntt_inverse(cz_bn254_fr *a, const cz_bn254_ntt_domain *dom, cz_threadpool *pool);
void cz_bn254_ntt_coset_forward(cz_bn254_fr *a, const cz_bn254_ntt_domain *dom,
                                const cz_bn254_fr *g, cz_threadpool *pool);
void cz_bn254_ntt_coset_inverse(cz_bn254_fr *a, const cz_bn254_ntt_domain *dom,
                                const cz_bn254_fr *g, cz_threadpool *pool);

/* Element-wise helpers over n elements; r may be the same array as any input. */
/* r[j] = a[j]·b[j] - c[j]. */
void cz_bn254_ntt_mul_sub(cz_bn254_fr *r, const cz_bn254_fr *a, const cz_bn254_fr *b,
                          const cz_bn254_fr *c, size_t n, cz_threadpool *pool);
/* r[j] = a[j]·k. */
void cz_bn254_ntt_scale(cz_bn254_fr *r, const cz_bn254_fr *a, const cz_bn254_fr *k, size_t n,
                        cz_threadpool *pool);
/* r[j] = a[j]·c·g^j (the coset shift; c = 1 for a plain shift); a = NULL writes r[j] = c·g^j. */
void cz_bn254_ntt_mul_powers(cz_bn254_fr *r, const cz_bn254_fr *a, const cz_bn254_fr *c,
                             const cz_bn254_fr *g, size_t n, cz_threadpool *pool);

/* ---- BLS12-381 Fr (s = 32): the same functions ---- */

int cz_bls12381_ntt_domain_create(cz_bls12381_ntt_domain **dom, unsigned log_n, cz_threadpool *pool,
                                  cz_errinfo *ei);
void cz_bls12381_ntt_domain_destroy(cz_bls12381_ntt_domain *dom);
unsigned cz_bls12381_ntt_domain_log_n(const cz_bls12381_ntt_domain *dom);
size_t cz_bls12381_ntt_domain_size(const cz_bls12381_ntt_domain *dom);
void cz_bls12381_ntt_domain_root(cz_bls12381_fr *w, const cz_bls12381_ntt_domain *dom);
size_t cz_bls12381_ntt_domain_bytes(unsigned log_n);
int cz_bls12381_ntt_root_of_unity(cz_bls12381_fr *w, unsigned log_n);
int cz_bls12381_ntt_coset_gen(cz_bls12381_fr *g, unsigned log_n);
void cz_bls12381_ntt_forward(cz_bls12381_fr *a, const cz_bls12381_ntt_domain *dom,
                             cz_threadpool *pool);
void cz_bls12381_ntt_inverse(cz_bls12381_fr *a, const cz_bls12381_ntt_domain *dom,
                             cz_threadpool *pool);
void cz_bls12381_ntt_coset_forward(cz_bls12381_fr *a, const cz_bls12381_ntt_domain *dom,
                                   const cz_bls12381_fr *g, cz_threadpool *pool);
void cz_bls12381_ntt_coset_inverse(cz_bls12381_fr *a, const cz_bls12381_ntt_domain *dom,
                                   const cz_bls12381_fr *g, cz_threadpool *pool);
void cz_bls12381_ntt_mul_sub(cz_bls12381_fr *r, const cz_bls12381_fr *a, const cz_bls12381_fr *b,
                             const cz_bls12381_fr *c, size_t n, cz_threadpool *pool);
void cz_bls12381_ntt_scale(cz_bls12381_fr *r, const cz_bls12381_fr *a, const cz_bls12381_fr *k,
                           size_t n, cz_threadpool *pool);
void cz_bls12381_ntt_mul_powers(cz_bls12381_fr *r, const cz_bls12381_fr *a, const cz_bls12381_fr *c,
                                const cz_bls12381_fr *g, size_t n, cz_threadpool *pool);

#ifdef __cplusplus
}
#endif

#endif
