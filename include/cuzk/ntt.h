/*
 * CPU number-theoretic transform (NTT) over the scalar field Fr of BN254 and of BLS12-381.
 *
 * A domain of size n = 2^k is the group ⟨ω⟩ of a primitive n-th root of unity ω, plus a coset
 * generator g for the coset transforms. Which ω and g is the caller's choice (cz_ntt_roots); the
 * two sets of roots are those of the two provers cuzk reproduces byte for byte:
 *
 *   CZ_NTT_ROOTS_SNARKJS     ffjavascript's (snarkjs): w[s] = 5^((r-1) >> s), s the 2-adicity
 *                            of r-1 (28 for BN254, 32 for BLS12-381); g = w[k+1] (the "odd
 *                            coset"), or 25 = 5^2 when k = s. Both curves.
 *   CZ_NTT_ROOTS_BELLPERSON  blstrs's (bellperson, Filecoin): w[32] = 7^((r-1) >> 32), g = 7 (the
 *                            multiplicative generator) for every k. BLS12-381 only: bellperson
 *                            defines no BN254 domain, so BN254 refuses it (CZ_EUNSUPPORTED).
 *
 * In both, w[k] = w[k+1]^2 and ω = w[k]. All arrays are in natural order, in and out:
 *
 *   forward:        A[i] = Σ_j a[j]·ω^(i·j)
 *   inverse:        a[j] = n⁻¹ · Σ_i A[i]·ω^(-i·j)
 *   coset forward:  A[i] = Σ_j a[j]·g^j·ω^(i·j)      (evaluations on g·⟨ω⟩)
 *   coset inverse:  the inverse of coset forward     (inverse, then a[j] ·= g^-j)
 *
 * These are bellperson's EvaluationDomain fft / ifft / coset_fft / icoset_fft exactly, and
 * snarkjs's transforms with its roots. On the coset, Z(x) = x^n - 1 takes the single value
 * g^n - 1 (cz_<curve>_ntt_coset_z): bellperson's divide_by_z_on_coset multiplies by its inverse.
 *
 * Elements are Montgomery-form cz_<curve>_fr values, as everywhere in cuzk. A domain is created
 * once per (size, roots) (it holds ω^j for j < n/2: 16·n bytes plus a few hundred), is immutable
 * and may be used by concurrent transforms. Transforms run in place. Every function that takes a
 * `cz_threadpool *pool` splits its work into tasks on that pool; NULL runs it on the calling
 * thread. Results do not depend on the pool. Arithmetic cannot fail; only domain creation and the
 * root functions return an error code: CZ_EINVAL for a roots value that is not one of the enum,
 * CZ_EUNSUPPORTED for roots the curve lacks, CZ_ERANGE for k > s, CZ_ENOMEM.
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

/* The roots of unity and coset generator of a domain (see the file comment); the zero value is
 * snarkjs's. */
typedef enum cz_ntt_roots {
    CZ_NTT_ROOTS_SNARKJS = 0,   /* ffjavascript: 5^((r-1) >> s), odd coset w[k+1] */
    CZ_NTT_ROOTS_BELLPERSON = 1 /* blstrs: 7^((r-1) >> 32), coset generator 7; BLS12-381 only */
} cz_ntt_roots;
#define CZ_NTT_ROOTS_COUNT 2

/* "snarkjs", "bellperson", or "?" for any other value. */
const char *cz_ntt_roots_name(cz_ntt_roots roots);

typedef struct cz_bn254_ntt_domain cz_bn254_ntt_domain;
typedef struct cz_bls12381_ntt_domain cz_bls12381_ntt_domain;

/* ---- BN254 Fr (s = 28) ---- */

/* *dom = the domain of size 2^log_n (0 <= log_n <= 28) over the given roots; its twiddles are
 * computed on pool. */
int cz_bn254_ntt_domain_create(cz_bn254_ntt_domain **dom, unsigned log_n, cz_ntt_roots roots,
                               cz_threadpool *pool, cz_errinfo *ei);
void cz_bn254_ntt_domain_destroy(cz_bn254_ntt_domain *dom);
unsigned cz_bn254_ntt_domain_log_n(const cz_bn254_ntt_domain *dom);
size_t cz_bn254_ntt_domain_size(const cz_bn254_ntt_domain *dom);
/* w = the domain's ω = w[log_n]. */
void cz_bn254_ntt_domain_root(cz_bn254_fr *w, const cz_bn254_ntt_domain *dom);
cz_ntt_roots cz_bn254_ntt_domain_roots(const cz_bn254_ntt_domain *dom);
/* Bytes a domain of size 2^log_n holds. */
size_t cz_bn254_ntt_domain_bytes(unsigned log_n);

/* w = w[log_n], the primitive 2^log_n-th root of unity of the roots; CZ_ERANGE when log_n > 28
 * (errors as in the file comment). */
int cz_bn254_ntt_root_of_unity(cz_bn254_fr *w, unsigned log_n, cz_ntt_roots roots);
/* g = the coset generator of the domain 2^log_n: snarkjs's w[log_n + 1], or 25 (Fr.shift) when
 * log_n = 28; bellperson's 7. CZ_ERANGE when log_n > 28. */
int cz_bn254_ntt_coset_gen(cz_bn254_fr *g, unsigned log_n, cz_ntt_roots roots);
/* z = g^(2^log_n) - 1, the value of the domain's vanishing polynomial x^n - 1 at every point of
 * the coset g·⟨ω⟩ (snarkjs: -2 for log_n < 28). CZ_ERANGE when log_n > 28. */
int cz_bn254_ntt_coset_z(cz_bn254_fr *z, unsigned log_n, cz_ntt_roots roots);

/* In-place transforms of a[0 .. domain size). */
void cz_bn254_ntt_forward(cz_bn254_fr *a, const cz_bn254_ntt_domain *dom, cz_threadpool *pool);
void cz_bn254_ntt_inverse(cz_bn254_fr *a, const cz_bn254_ntt_domain *dom, cz_threadpool *pool);
void cz_bn254_ntt_coset_forward(cz_bn254_fr *a, const cz_bn254_ntt_domain *dom,
                                const cz_bn254_fr *g, cz_threadpool *pool);
void cz_bn254_ntt_coset_inverse(cz_bn254_fr *a, const cz_bn254_ntt_domain *dom,
                                const cz_bn254_fr *g, cz_threadpool *pool);

/* Element-wise helpers over n elements; r may be the same array as any input. */
/* r[j] = a[j]·b[j]. */
void cz_bn254_ntt_mul(cz_bn254_fr *r, const cz_bn254_fr *a, const cz_bn254_fr *b, size_t n,
                      cz_threadpool *pool);
/* r[j] = a[j]·b[j] - c[j]. */
void cz_bn254_ntt_mul_sub(cz_bn254_fr *r, const cz_bn254_fr *a, const cz_bn254_fr *b,
                          const cz_bn254_fr *c, size_t n, cz_threadpool *pool);
/* r[j] = a[j]·k. */
void cz_bn254_ntt_scale(cz_bn254_fr *r, const cz_bn254_fr *a, const cz_bn254_fr *k, size_t n,
                        cz_threadpool *pool);
/* r[j] = (a[j] - b[j])·k. */
void cz_bn254_ntt_sub_scale(cz_bn254_fr *r, const cz_bn254_fr *a, const cz_bn254_fr *b,
                            const cz_bn254_fr *k, size_t n, cz_threadpool *pool);
/* r[j] = a[j]·c·g^j (the coset shift; c = 1 for a plain shift); a = NULL writes r[j] = c·g^j. */
void cz_bn254_ntt_mul_powers(cz_bn254_fr *r, const cz_bn254_fr *a, const cz_bn254_fr *c,
                             const cz_bn254_fr *g, size_t n, cz_threadpool *pool);

/* ---- BLS12-381 Fr (s = 32): the same functions ---- */

int cz_bls12381_ntt_domain_create(cz_bls12381_ntt_domain **dom, unsigned log_n, cz_ntt_roots roots,
                                  cz_threadpool *pool, cz_errinfo *ei);
void cz_bls12381_ntt_domain_destroy(cz_bls12381_ntt_domain *dom);
unsigned cz_bls12381_ntt_domain_log_n(const cz_bls12381_ntt_domain *dom);
size_t cz_bls12381_ntt_domain_size(const cz_bls12381_ntt_domain *dom);
void cz_bls12381_ntt_domain_root(cz_bls12381_fr *w, const cz_bls12381_ntt_domain *dom);
cz_ntt_roots cz_bls12381_ntt_domain_roots(const cz_bls12381_ntt_domain *dom);
size_t cz_bls12381_ntt_domain_bytes(unsigned log_n);
int cz_bls12381_ntt_root_of_unity(cz_bls12381_fr *w, unsigned log_n, cz_ntt_roots roots);
int cz_bls12381_ntt_coset_gen(cz_bls12381_fr *g, unsigned log_n, cz_ntt_roots roots);
int cz_bls12381_ntt_coset_z(cz_bls12381_fr *z, unsigned log_n, cz_ntt_roots roots);
void cz_bls12381_ntt_forward(cz_bls12381_fr *a, const cz_bls12381_ntt_domain *dom,
                             cz_threadpool *pool);
void cz_bls12381_ntt_inverse(cz_bls12381_fr *a, const cz_bls12381_ntt_domain *dom,
                             cz_threadpool *pool);
void cz_bls12381_ntt_coset_forward(cz_bls12381_fr *a, const cz_bls12381_ntt_domain *dom,
                                   const cz_bls12381_fr *g, cz_threadpool *pool);
void cz_bls12381_ntt_coset_inverse(cz_bls12381_fr *a, const cz_bls12381_ntt_domain *dom,
                                   const cz_bls12381_fr *g, cz_threadpool *pool);
void cz_bls12381_ntt_mul(cz_bls12381_fr *r, const cz_bls12381_fr *a, const cz_bls12381_fr *b,
                         size_t n, cz_threadpool *pool);
void cz_bls12381_ntt_mul_sub(cz_bls12381_fr *r, const cz_bls12381_fr *a, const cz_bls12381_fr *b,
                             const cz_bls12381_fr *c, size_t n, cz_threadpool *pool);
void cz_bls12381_ntt_scale(cz_bls12381_fr *r, const cz_bls12381_fr *a, const cz_bls12381_fr *k,
                           size_t n, cz_threadpool *pool);
void cz_bls12381_ntt_sub_scale(cz_bls12381_fr *r, const cz_bls12381_fr *a, const cz_bls12381_fr *b,
                               const cz_bls12381_fr *k, size_t n, cz_threadpool *pool);
void cz_bls12381_ntt_mul_powers(cz_bls12381_fr *r, const cz_bls12381_fr *a, const cz_bls12381_fr *c,
                                const cz_bls12381_fr *g, size_t n, cz_threadpool *pool);

#ifdef __cplusplus
}
#endif

#endif
