/*
 * The CPU parts of the snarkjs Groth16 prover for one curve, written once and instantiated per
 * curve by including this file after defining CURVE (bn254 or bls12381). They are the stages of
 * include/cuzk/groth16.h (begin → g2_start → compute → finish, state in pending.h):
 *
 *   eval     a[row] += coef·w[signal] over the zkey's coefficient section (matrix 0 -> a, 1 -> b);
 *            prove_shared_impl.h (threaded, bit-identical to one loop).
 *   compute  (CPU) c = a∘b; for X in a, b, c: X = iNTT(X); X[i] *= g^i with g the odd coset's
 *            generator; X = NTT(X); h = a∘b - c on the coset; the G1 MSMs A' = Σ w_s·A_s,
 *            B1' = Σ w_s·B1_s, C' = Σ_{s>npub} w_s·C_s, H' = Σ h_j·H_j. (GPU: prove_gpu_impl.h.)
 *   g2       B' = Σ w_s·B2_s, on a thread of its own beside compute.
 *   finish   πA = A' + α₁ + r·δ₁, πB = B' + β₂ + s·δ₂, B1 = B1' + β₁ + s·δ₁,
 *            πC = C' + H' + s·πA + r·B1 - r·s·δ₁ (prove_shared_impl.h).
 * Memory of the CPU compute: 3 domain-sized Fr vectors (96 bytes per row) plus the MSMs' buckets.
 */
#include <stdlib.h>
#include <string.h>

#include "groth16/prove_shared_impl.h"

#define PEND CZ_CAT3(cz__, CURVE, _pending)

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

/* The CPU compute stage; frees a and b (also on failure). */
static int I(groth16_compute_cpu)(cz_groth16_pending *pp, cz_threadpool *pool, cz_errinfo *ei) {
    PEND *cp = &pp->u.CURVE;
    const cz_zkey *zk = pp->zk;
    const CZ_CAT(cz_zkey_, CURVE) *k = &zk->u.CURVE;
    const uint8_t *wit_bytes = (const uint8_t *)pp->wit;
    cz_groth16_timings *tm = &pp->tm;
    size_t n = zk->domain_size, nvars = zk->nvars, npub = zk->npublic;
    I(fr_t) *c = NULL, g;
    P(ntt_domain) *dom = NULL;
    int rc = CZ_OK;
    uint64_t t;

    c = malloc(n * sizeof *c);
    if (c == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "prove: cannot allocate %zu scalars", n);
        goto out;
    }
    rc = P(ntt_domain_create)(&dom, zk->log_domain_size, CZ_NTT_ROOTS_SNARKJS, pool, ei);
    if (rc != CZ_OK)
        goto out;
    rc = P(ntt_coset_gen)(&g, zk->log_domain_size, CZ_NTT_ROOTS_SNARKJS);
    if (rc != CZ_OK) {
        rc = cz_fail(ei, rc, "prove: no coset generator for domain 2^%u", zk->log_domain_size);
        goto out;
    }
    t = cz_clock_now_ns();
    for (size_t j = 0; j < n; j++)
        I(fr_mul)(&c[j], &cp->a[j], &cp->b[j]);
    I(groth16_to_coset)(cp->a, dom, &g, pool);
    I(groth16_to_coset)(cp->b, dom, &g, pool);
    I(groth16_to_coset)(c, dom, &g, pool);
    P(ntt_mul_sub)(cp->a, cp->a, cp->b, c, n, pool); /* a now holds the H MSM's scalars */
    tm->ntt_ms = (double)(cz_clock_now_ns() - t) / 1e6;
    cz__groth16_drop(pp, cp->b);
    free(c);
    cp->b = c = NULL;

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
    CZ_TIMED_MSM(msm_a_ms, P(g1_msm_bytes)(&cp->msm_a, k->a, wit_bytes, nvars, pool));
    CZ_TIMED_MSM(msm_b1_ms, P(g1_msm_bytes)(&cp->msm_b1, k->b1, wit_bytes, nvars, pool));
    CZ_TIMED_MSM(msm_c_ms, P(g1_msm_bytes)(&cp->msm_c, k->c, wit_bytes + 32 * (npub + 1),
                                           nvars - npub - 1, pool));
    CZ_TIMED_MSM(msm_h_ms, P(g1_msm)(&cp->msm_h, k->h, cp->a, n, pool));
#undef CZ_TIMED_MSM
out:
    P(ntt_domain_destroy)(dom);
    cz__groth16_drop(pp, cp->a);
    cz__groth16_drop(pp, cp->b);
    free(c);
    cp->a = cp->b = NULL;
    return rc;
}

/* The G2 stage's body (on its own thread, or inline): B' = Σ w_s·B2_s on pp->g2_pool. */
static void I(groth16_g2)(cz_groth16_pending *pp) {
    uint64_t t = cz_clock_now_ns();
    pp->g2_rc = P(g2_msm_bytes)(&pp->u.CURVE.msm_b2, pp->zk->u.CURVE.b2, (const uint8_t *)pp->wit,
                                pp->zk->nvars, pp->g2_pool);
    pp->tm.msm_b2_ms = (double)(cz_clock_now_ns() - t) / 1e6;
}

/* The finish stage's combination, after compute and G2 succeeded. */
static void I(groth16_combine)(P(groth16_proof) * proof, const cz_groth16_pending *pp) {
    const PEND *cp = &pp->u.CURVE;
    I(groth16_finish)
    (proof, &pp->zk->u.CURVE, &cp->msm_a, &cp->msm_b1, &cp->msm_b2, &cp->msm_c, &cp->msm_h, &cp->r,
     &cp->s);
}

#undef PEND
#undef I
#undef P
