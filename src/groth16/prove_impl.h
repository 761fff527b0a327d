/*
 * The snarkjs Groth16 prover for one curve, written once and instantiated per curve by including
 * this file after defining CURVE (bn254 or bls12381). It uses the inline field and curve
 * arithmetic (<curve>_fr_*, <curve>_g1_*) and the public NTT and MSM entry points.
 *
 * Steps (snarkjs groth16_prove.js; docs/groth16.md):
 *   1. a[row] += coef·w[signal] over the zkey's coefficient section (matrix 0 -> a, 1 -> b); the
 *      stored coefficient is v·R², so one Montgomery product with the standard-form witness value
 *      gives v·w in Montgomery form. Then c = a∘b.
 *   2. For X in a, b, c: X = iNTT(X); X[i] *= g^i with g = w[k+1] (the odd coset); X = NTT(X).
 *   3. h = a∘b - c on the coset: the scalars of the H MSM.
 *   4. MSMs: A' = Σ w_s·A_s, B1' = Σ w_s·B1_s, B' = Σ w_s·B2_s (G2), C' = Σ_{s>npub} w_s·C_s,
 *      H' = Σ h_j·H_j.
 *   5. πA = A' + α₁ + r·δ₁, πB = B' + β₂ + s·δ₂, B1 = B1' + β₁ + s·δ₁,
 *      πC = C' + H' + s·πA + r·B1 - r·s·δ₁.
 * Steps 1 and 5 live in prove_shared_impl.h (shared with the GPU prover, prove_gpu_impl.h).
 * Memory: 3 domain-sized Fr vectors (96 bytes per row) plus the MSMs' buckets.
 */
#include <stdlib.h>
#include <string.h>

#include "groth16/prove_shared_impl.h"

/* Reads a blinding factor: 32 canonical little-endian bytes when fixed, else a uniformly random
 * element from the CSPRNG. */
static int I(groth16_blinding)(I(fr_t) * out, const uint8_t *fixed, const char *name,
                               cz_errinfo *ei) {
    if (fixed != NULL) {
        if (I(fr_from_bytes_le)(out, fixed) != CZ_OK)
            return cz_fail(ei, CZ_ERANGE, "prove: blinding factor %s is not below r", name);
        return CZ_OK;
    }
    if (P(fr_random)(out) != CZ_OK)
        return cz_fail(ei, CZ_EIO, "prove: no randomness for blinding factor %s", name);
    return CZ_OK;
}

/* Moves one vector from evaluations on the domain to evaluations on the odd coset g·<ω>. */
static void I(groth16_to_coset)(I(fr_t) * x, const P(ntt_domain) * dom, const I(fr_t) * g,
                                cz_threadpool *pool) {
    P(ntt_inverse)(x, dom, pool);
    P(ntt_coset_forward)(x, dom, g, pool);
}

static int I(groth16_prove)(P(groth16_proof) * proof, const cz_zkey *zk, const cz_wtns *w,
                            const I(fr_t) * r, const I(fr_t) * s, cz_threadpool *pool,
                            cz_groth16_timings *tm, cz_errinfo *ei) {
    const CZ_CAT(cz_zkey_, CURVE) *k = &zk->u.CURVE;
    const uint64_t(*wit)[4] = (const uint64_t(*)[4])w->values;
    const uint8_t *wit_bytes = (const uint8_t *)w->values;
    size_t n = zk->domain_size, nvars = zk->nvars, npub = zk->npublic;
    I(fr_t) *a = NULL, *b = NULL, *c = NULL, g;
    P(ntt_domain) *dom = NULL;
    P(g1_jacobian) msm_a, msm_b1, msm_c, msm_h;
    P(g2_jacobian) msm_b2;
    int rc = CZ_OK;
    uint64_t t0 = cz_clock_now_ns(), t;

    a = malloc(n * sizeof *a);
    b = malloc(n * sizeof *b);
    c = malloc(n * sizeof *c);
    if (a == NULL || b == NULL || c == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "prove: cannot allocate 3 x %zu scalars", n);
        goto out;
    }
    rc = P(ntt_domain_create)(&dom, zk->log_domain_size, pool, ei);
    if (rc != CZ_OK)
        goto out;
    rc = P(ntt_coset_gen)(&g, zk->log_domain_size);
    if (rc != CZ_OK) {
        rc = cz_fail(ei, rc, "prove: no coset generator for domain 2^%u", zk->log_domain_size);
        goto out;
    }

    t = cz_clock_now_ns();
    rc = I(groth16_eval_abc)(a, b, c, zk, wit, pool, ei);
    if (rc != CZ_OK)
        goto out;
    tm->witness_ms = (double)(cz_clock_now_ns() - t) / 1e6;

    t = cz_clock_now_ns();
    I(groth16_to_coset)(a, dom, &g, pool);
    I(groth16_to_coset)(b, dom, &g, pool);
    I(groth16_to_coset)(c, dom, &g, pool);
    P(ntt_mul_sub)(a, a, b, c, n, pool); /* a now holds the H MSM's scalars */
    tm->ntt_ms = (double)(cz_clock_now_ns() - t) / 1e6;
    free(b);
    free(c);
    b = c = NULL;

#define CZ_TIMED_MSM(field, call)                                                                  \
    do {                                                                                           \
        t = cz_clock_now_ns();                                                                     \
        rc = (call);                                                                               \
        tm->field = (double)(cz_clock_now_ns() - t) / 1e6;                                         \
        if (rc != CZ_OK) {                                                                         \
            rc = cz_fail(ei, rc, "prove: %s failed", #field);                                      \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)
    CZ_TIMED_MSM(msm_a_ms, P(g1_msm_bytes)(&msm_a, k->a, wit_bytes, nvars, pool));
    CZ_TIMED_MSM(msm_b1_ms, P(g1_msm_bytes)(&msm_b1, k->b1, wit_bytes, nvars, pool));
    CZ_TIMED_MSM(msm_b2_ms, P(g2_msm_bytes)(&msm_b2, k->b2, wit_bytes, nvars, pool));
    CZ_TIMED_MSM(msm_c_ms, P(g1_msm_bytes)(&msm_c, k->c, wit_bytes + 32 * (npub + 1),
                                           nvars - npub - 1, pool));
    CZ_TIMED_MSM(msm_h_ms, P(g1_msm)(&msm_h, k->h, a, n, pool));
#undef CZ_TIMED_MSM

    I(groth16_finish)(proof, k, &msm_a, &msm_b1, &msm_b2, &msm_c, &msm_h, r, s);
    tm->total_ms = (double)(cz_clock_now_ns() - t0) / 1e6;

out:
    P(ntt_domain_destroy)(dom);
    free(a);
    free(b);
    free(c);
    return rc;
}

#undef I
#undef P
